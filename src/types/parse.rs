//! Type constraints as written (`list(object({ a = optional(string) }))`, `"string"`), parsed
//! into [`Type`]s with the tools' error texts.

use crate::syntax::{Expr, ExprKind, native};

use std::collections::BTreeMap;

use super::{AttrDefault, Conversion, ObjectAttr, Type, Value, convert};

pub(super) const GENERIC_TYPE_ERROR: &str = "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).";
pub(super) const OBJECT_ARGUMENT_ERROR: &str = "The object type constructor requires one argument specifying the attribute types and values as a map.";
pub(super) const TUPLE_ARGUMENT_ERROR: &str =
    "The tuple type constructor requires one argument specifying the element types as a list.";
pub(super) const LEGACY_TYPE_HINT_ERROR: &str = "To provide a full type expression, remove the surrounding quotes and give the type expression directly.";

/// Parses a `type` expression. For JSON files (`expr.json_string()` is Some) the string is the
/// type expression text, parsed as native syntax.
///
/// `Err` holds the detail Terraform gives (`Invalid type specification`, or for a native quoted
/// type such as `"string"`, `Invalid quoted type constraints` / `Invalid legacy variable type
/// hint`).
pub(crate) fn parse_type(expr: &Expr) -> Result<Type, String> {
    if let Some(text) = expr.json_string() {
        let parsed =
            native::parse_expr_at(text, expr.span).ok_or_else(|| GENERIC_TYPE_ERROR.to_string())?;
        return variable_type(&parsed);
    }
    match &expr.kind {
        ExprKind::String(s) => Err(quoted_type_error(s)),
        ExprKind::Template => Err(LEGACY_TYPE_HINT_ERROR.to_string()),
        _ => variable_type(expr),
    }
}

/// The Terraform 0.11 form `type = "string"`: an error now, with a hint.
fn quoted_type_error(quoted: &str) -> String {
    const PREFIX: &str = "Terraform 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of Terraform.";
    match quoted {
        "string" => format!("{PREFIX} Remove the quotes around \"string\"."),
        "list" | "map" => format!(
            "{PREFIX} Remove the quotes around \"{quoted}\" and write {quoted}(string) instead to explicitly indicate that the {quoted} elements are strings."
        ),
        _ => LEGACY_TYPE_HINT_ERROR.to_string(),
    }
}

/// A variable's type: the legacy bare `list` and `map` (top level only) mean `list(any)` and
/// `map(any)`; everything else is a type constraint.
fn variable_type(expr: &Expr) -> Result<Type, String> {
    match keyword(expr) {
        Some("list") => Ok(Type::List(Box::new(Type::Any))),
        Some("map") => Ok(Type::Map(Box::new(Type::Any))),
        _ => type_constraint(expr),
    }
}

/// A bare name, as HCL's `ExprAsKeyword` sees it.
fn keyword(expr: &Expr) -> Option<&str> {
    match &expr.kind {
        ExprKind::Variable(name) => Some(name),
        ExprKind::Parenthesis(inner) => keyword(inner),
        _ => None,
    }
}

fn unparenthesized(expr: &Expr) -> &Expr {
    match &expr.kind {
        ExprKind::Parenthesis(inner) => unparenthesized(inner),
        _ => expr,
    }
}

/// HCL's `typeexpr.TypeConstraintWithDefaults`.
fn type_constraint(expr: &Expr) -> Result<Type, String> {
    if let Some(kw) = keyword(expr) {
        return match kw {
            "bool" => Ok(Type::Bool),
            "string" => Ok(Type::String),
            "number" => Ok(Type::Number),
            "any" => Ok(Type::Any),
            "list" | "map" | "set" => Err(format!(
                "The {kw} type constructor requires one argument specifying the element type."
            )),
            "object" => Err(OBJECT_ARGUMENT_ERROR.to_string()),
            "tuple" => Err(TUPLE_ARGUMENT_ERROR.to_string()),
            _ => Err(format!(
                "The keyword {kw:?} is not a valid type specification."
            )),
        };
    }
    let ExprKind::FunctionCall { name, args, .. } = &unparenthesized(expr).kind else {
        return Err(GENERIC_TYPE_ERROR.to_string());
    };
    let name: &str = name;
    let single = match args.as_slice() {
        [arg] => Some(arg),
        _ => None,
    };
    match (name, single) {
        ("bool" | "string" | "number", _) => Err(format!(
            "Primitive type keyword {name:?} does not expect arguments."
        )),
        ("any", _) => Err(format!(
            "Type constraint keyword {name:?} does not expect arguments."
        )),
        ("list" | "set" | "map", None) => Err(format!(
            "The {name} type constructor requires one argument specifying the element type."
        )),
        ("object", None) => Err(OBJECT_ARGUMENT_ERROR.to_string()),
        ("tuple", None) => Err(TUPLE_ARGUMENT_ERROR.to_string()),
        ("list", Some(arg)) => Ok(Type::List(Box::new(type_constraint(arg)?))),
        ("set", Some(arg)) => Ok(Type::Set(Box::new(type_constraint(arg)?))),
        ("map", Some(arg)) => Ok(Type::Map(Box::new(type_constraint(arg)?))),
        ("object", Some(arg)) => object_type(arg),
        ("tuple", Some(arg)) => {
            let ExprKind::Tuple(items) = &unparenthesized(arg).kind else {
                return Err("Tuple type constructor requires a list of element types.".to_string());
            };
            Ok(Type::Tuple(
                items
                    .iter()
                    .map(type_constraint)
                    .collect::<Result<_, _>>()?,
            ))
        }
        ("optional", _) => Err(format!(
            "Keyword {name:?} is valid only as a modifier for object type attributes."
        )),
        _ => Err(format!("Keyword {name:?} is not a valid type constructor.")),
    }
}

/// `object({ name = T, other = optional(T, default) })`.
fn object_type(arg: &Expr) -> Result<Type, String> {
    let ExprKind::Object(items) = &unparenthesized(arg).kind else {
        return Err("Object type constructor requires a map whose keys are attribute names and whose values are the corresponding attribute types.".to_string());
    };
    let mut attrs: BTreeMap<String, ObjectAttr> = BTreeMap::new();
    for item in items {
        let ExprKind::Variable(name) = &item.key.kind else {
            return Err("Object constructor map keys must be attribute names.".to_string());
        };
        // Unlike an object value, where the later of two keys wins, a type constraint refuses
        // a repeated attribute (hashicorp/hcl `ext/typeexpr/get_type.go`).
        if attrs.contains_key(name) {
            return Err("Object constructor map keys must be unique.".to_string());
        }
        let (type_expr, optional, default) = match &item.value.kind {
            ExprKind::FunctionCall { name, args, .. } if &**name == "optional" => {
                match args.as_slice() {
                    [] => {
                        return Err(
                            "Optional attribute modifier requires the attribute type as its argument."
                                .to_string(),
                        );
                    }
                    [ty] => (ty, true, None),
                    [ty, default] => (ty, true, Some(default)),
                    _ => {
                        return Err("Optional attribute modifier expects at most two arguments: the attribute type, and a default value.".to_string());
                    }
                }
            }
            _ => (&item.value, false, None),
        };
        let ty = type_constraint(type_expr)?;
        if let Some(default) = default
            && let Conversion::Invalid(reason) = convert(default, &ty)
        {
            return Err(format!(
                "This default value is not compatible with the attribute's type constraint: {reason}."
            ));
        }
        let default = default.map(|expr| match Value::of_literal(expr) {
            Some(value) => AttrDefault::Known(value),
            None => AttrDefault::Unknown,
        });
        attrs.insert(
            name.clone(),
            ObjectAttr {
                name: name.clone(),
                ty,
                optional,
                default,
            },
        );
    }
    Ok(Type::Object(attrs.into_values().collect()))
}

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------
