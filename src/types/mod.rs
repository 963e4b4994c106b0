//! Terraform's type-constraint language (`type = list(string)`) and the plain type conversion of
//! literal variable defaults, as the tools check them after override files are merged.
//!
//! The conversion follows go-cty's `convert` package with "unsafe" conversions allowed (what
//! `convert.Convert` does): it first decides, from the types alone, whether a conversion exists
//! (failing with a message built like cty's `MismatchMessage`), and only then converts the value
//! (where a string may still fail to parse as a number or bool). Messages are worded as
//! Terraform prints them: a value-level failure carries no path (cty's path errors print only
//! their message), a type-level one names the element or attribute (`element 0: string
//! required`).
//!
//! Only literal values are judged. Anything that would need evaluation — references, function
//! calls, templates, operators — makes the answer [`Conversion::Unknown`], and so does every
//! corner where cty's behaviour depends on details not modelled here (unification involving
//! `null` elements, nested `any` that leaves collection elements of different types, ...): an
//! unknown answer reports nothing, a wrong one would report a false error.

use std::collections::BTreeMap;
use std::fmt;

use crate::syntax::{Expr, ExprKind, native};

/// A type constraint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Type {
    String,
    Number,
    Bool,
    /// `any` (cty's dynamic pseudo-type).
    Any,
    List(Box<Type>),
    Set(Box<Type>),
    Map(Box<Type>),
    /// Attributes sorted by name, each name once (as [`parse_type`] builds them).
    Object(Vec<ObjectAttr>),
    Tuple(Vec<Type>),
}

/// One attribute of an `object({...})` type. A default given with `optional(T, default)` is
/// not kept: the tools do not apply it when checking a variable's default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ObjectAttr {
    pub(crate) name: String,
    pub(crate) ty: Type,
    pub(crate) optional: bool,
}

/// The outcome of converting a default value to a type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Conversion {
    Ok,
    /// The conversion fails; the reason as Terraform words it (no trailing period).
    Invalid(String),
    /// The value is not a literal, or this module cannot tell for sure.
    Unknown,
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::String => f.write_str("string"),
            Type::Number => f.write_str("number"),
            Type::Bool => f.write_str("bool"),
            Type::Any => f.write_str("any"),
            Type::List(e) => write!(f, "list({e})"),
            Type::Set(e) => write!(f, "set({e})"),
            Type::Map(e) => write!(f, "map({e})"),
            Type::Object(attrs) => {
                f.write_str("object({")?;
                for (i, attr) in attrs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    if attr.optional {
                        write!(f, "{}=optional({})", attr.name, attr.ty)?;
                    } else {
                        write!(f, "{}={}", attr.name, attr.ty)?;
                    }
                }
                f.write_str("})")
            }
            Type::Tuple(elems) => {
                f.write_str("tuple([")?;
                for (i, e) in elems.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{e}")?;
                }
                f.write_str("])")
            }
        }
    }
}

impl Type {
    fn is_primitive(&self) -> bool {
        matches!(self, Type::String | Type::Number | Type::Bool)
    }

    fn is_collection(&self) -> bool {
        matches!(self, Type::List(_) | Type::Set(_) | Type::Map(_))
    }
}

// ---------------------------------------------------------------------------------------------
// Type expressions
// ---------------------------------------------------------------------------------------------

const GENERIC_TYPE_ERROR: &str = "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).";
const OBJECT_ARGUMENT_ERROR: &str = "The object type constructor requires one argument specifying the attribute types and values as a map.";
const TUPLE_ARGUMENT_ERROR: &str =
    "The tuple type constructor requires one argument specifying the element types as a list.";
const LEGACY_TYPE_HINT_ERROR: &str = "To provide a full type expression, remove the surrounding quotes and give the type expression directly.";

/// Parses a `type` expression. For JSON files (`expr.json_string` is Some) the string is the
/// type expression text, parsed as native syntax.
///
/// `Err` holds the detail Terraform gives (`Invalid type specification`, or for a native quoted
/// type such as `"string"`, `Invalid quoted type constraints` / `Invalid legacy variable type
/// hint`).
pub(crate) fn parse_type(expr: &Expr) -> Result<Type, String> {
    if let Some(text) = &expr.json_string {
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
    let name = name.as_str();
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
    // A repeated name: the later one wins, as in the map HCL builds.
    let mut attrs: BTreeMap<String, ObjectAttr> = BTreeMap::new();
    for item in items {
        let ExprKind::Variable(name) = &item.key.kind else {
            return Err("Object constructor map keys must be attribute names.".to_string());
        };
        let (type_expr, optional, default) = match &item.value.kind {
            ExprKind::FunctionCall { name, args, .. } if name == "optional" => {
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
        attrs.insert(
            name.clone(),
            ObjectAttr {
                name: name.clone(),
                ty,
                optional,
            },
        );
    }
    Ok(Type::Object(attrs.into_values().collect()))
}

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

/// A literal value, or the result of converting one. Numbers keep their text: conversions never
/// need their value, only whether a string parses as one.
#[derive(Debug, Clone, PartialEq)]
enum Val {
    /// A null of a type (`null` as written is a null of type `any`).
    Null(Type),
    Bool(bool),
    Number(String),
    String(String),
    Tuple(Vec<Val>),
    Object(BTreeMap<String, Val>),
    List(Type, Vec<Val>),
    Set(Type, Vec<Val>),
    Map(Type, BTreeMap<String, Val>),
}

/// The value of a literal expression; None for anything that needs evaluating.
fn literal(expr: &Expr) -> Option<Val> {
    if let Some(s) = &expr.json_string {
        return Some(Val::String(s.to_string()));
    }
    match &expr.kind {
        ExprKind::Null => Some(Val::Null(Type::Any)),
        ExprKind::Bool(b) => Some(Val::Bool(*b)),
        ExprKind::Number(n) => Some(Val::Number(n.clone())),
        ExprKind::String(s) => Some(Val::String(s.clone())),
        ExprKind::Tuple(items) => items
            .iter()
            .map(literal)
            .collect::<Option<Vec<_>>>()
            .map(Val::Tuple),
        ExprKind::Object(items) => {
            // A repeated key: the later one wins, as in Terraform.
            let mut fields = BTreeMap::new();
            for item in items {
                fields.insert(object_key(&item.key)?, literal(&item.value)?);
            }
            Some(Val::Object(fields))
        }
        ExprKind::Parenthesis(inner) => literal(inner),
        ExprKind::Template
        | ExprKind::Variable(_)
        | ExprKind::Traversal { .. }
        | ExprKind::FunctionCall { .. }
        | ExprKind::Other => None,
    }
}

fn object_key(key: &Expr) -> Option<String> {
    if let Some(s) = &key.json_string {
        return Some(s.to_string());
    }
    match &key.kind {
        // `true = 1` is the key "true"; a `null` key is an error we leave to evaluation.
        ExprKind::Variable(name) if name != "null" => Some(name.clone()),
        ExprKind::String(s) => Some(s.clone()),
        _ => None,
    }
}

fn type_of(val: &Val) -> Type {
    match val {
        Val::Null(ty) => ty.clone(),
        Val::Bool(_) => Type::Bool,
        Val::Number(_) => Type::Number,
        Val::String(_) => Type::String,
        Val::Tuple(items) => Type::Tuple(items.iter().map(type_of).collect()),
        Val::Object(fields) => Type::Object(
            fields
                .iter()
                .map(|(name, v)| ObjectAttr {
                    name: name.clone(),
                    ty: type_of(v),
                    optional: false,
                })
                .collect(),
        ),
        Val::List(ety, _) => Type::List(Box::new(ety.clone())),
        Val::Set(ety, _) => Type::Set(Box::new(ety.clone())),
        Val::Map(ety, _) => Type::Map(Box::new(ety.clone())),
    }
}

/// Sorts object attributes by name (the later of a repeated name wins), at every depth.
fn normalized(ty: &Type) -> Type {
    match ty {
        Type::String | Type::Number | Type::Bool | Type::Any => ty.clone(),
        Type::List(e) => Type::List(Box::new(normalized(e))),
        Type::Set(e) => Type::Set(Box::new(normalized(e))),
        Type::Map(e) => Type::Map(Box::new(normalized(e))),
        Type::Tuple(elems) => Type::Tuple(elems.iter().map(normalized).collect()),
        Type::Object(attrs) => {
            let mut sorted = BTreeMap::new();
            for attr in attrs {
                sorted.insert(
                    attr.name.clone(),
                    ObjectAttr {
                        name: attr.name.clone(),
                        ty: normalized(&attr.ty),
                        optional: attr.optional,
                    },
                );
            }
            Type::Object(sorted.into_values().collect())
        }
    }
}

/// The type with every object attribute made required (cty's `WithoutOptionalAttributesDeep`).
fn without_optional(ty: &Type) -> Type {
    match ty {
        Type::String | Type::Number | Type::Bool | Type::Any => ty.clone(),
        Type::List(e) => Type::List(Box::new(without_optional(e))),
        Type::Set(e) => Type::Set(Box::new(without_optional(e))),
        Type::Map(e) => Type::Map(Box::new(without_optional(e))),
        Type::Tuple(elems) => Type::Tuple(elems.iter().map(without_optional).collect()),
        Type::Object(attrs) => Type::Object(
            attrs
                .iter()
                .map(|a| ObjectAttr {
                    name: a.name.clone(),
                    ty: without_optional(&a.ty),
                    optional: false,
                })
                .collect(),
        ),
    }
}

fn attribute<'a>(attrs: &'a [ObjectAttr], name: &str) -> Option<&'a ObjectAttr> {
    attrs.iter().find(|a| a.name == name)
}

// ---------------------------------------------------------------------------------------------
// Conversion
// ---------------------------------------------------------------------------------------------

/// Converts a default value expression to the type, as Terraform's convert package would.
pub(crate) fn convert(value: &Expr, ty: &Type) -> Conversion {
    let Some(val) = literal(value) else {
        return Conversion::Unknown;
    };
    let want = normalized(ty);
    let got = type_of(&val);
    if got == want {
        return Conversion::Ok;
    }
    match conversion_exists(&got, &want) {
        Tri::No => Conversion::Invalid(mismatch_message(&got, &want)),
        Tri::Unsure => Conversion::Unknown,
        Tri::Yes => match apply(&val, &want) {
            Ok(_) => Conversion::Ok,
            Err(Failure::Invalid(reason)) => Conversion::Invalid(reason),
            Err(Failure::Unknown) => Conversion::Unknown,
        },
    }
}

/// Whether something holds: yes, no, or not known for sure here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tri {
    Yes,
    No,
    Unsure,
}

impl Tri {
    /// Both hold: one definite "no" decides.
    fn and(self, other: Tri) -> Tri {
        match (self, other) {
            (Tri::No, _) | (_, Tri::No) => Tri::No,
            (Tri::Unsure, _) | (_, Tri::Unsure) => Tri::Unsure,
            (Tri::Yes, Tri::Yes) => Tri::Yes,
        }
    }
}

/// Whether cty has an (unsafe) conversion from one type to another: `getConversion`.
fn conversion_exists(from: &Type, to: &Type) -> Tri {
    if from == to {
        return Tri::Yes;
    }
    match (from, to) {
        (_, Type::Any) | (Type::Any, _) => Tri::Yes,
        (Type::Number | Type::Bool, Type::String) | (Type::String, Type::Number | Type::Bool) => {
            Tri::Yes
        }
        (Type::Object(from_attrs), Type::Object(to_attrs)) => {
            let mut result = Tri::Yes;
            for attr in to_attrs {
                match attribute(from_attrs, &attr.name) {
                    None if attr.optional => {}
                    None => return Tri::No,
                    Some(from_attr) => {
                        result = result.and(conversion_exists(&from_attr.ty, &attr.ty));
                        if result == Tri::No {
                            return Tri::No;
                        }
                    }
                }
            }
            result
        }
        (Type::Tuple(from_elems), Type::Tuple(to_elems)) => {
            if from_elems.len() != to_elems.len() {
                return Tri::No;
            }
            let mut result = Tri::Yes;
            for (f, t) in from_elems.iter().zip(to_elems) {
                result = result.and(conversion_exists(f, t));
                if result == Tri::No {
                    return Tri::No;
                }
            }
            result
        }
        (Type::List(f) | Type::Set(f), Type::List(t) | Type::Set(t))
        | (Type::Map(f), Type::Map(t)) => conversion_exists(f, t),
        // Only reachable for converted values, which are never converted again here.
        (Type::Map(_), Type::Object(_)) => Tri::Unsure,
        (Type::Tuple(elems), Type::List(ety) | Type::Set(ety)) => {
            let elems: Vec<&Type> = elems.iter().collect();
            elements_convertible(&elems, ety)
        }
        (Type::Object(attrs), Type::Map(ety)) => {
            let elems: Vec<&Type> = attrs.iter().map(|a| &a.ty).collect();
            elements_convertible(&elems, ety)
        }
        _ => Tri::No,
    }
}

/// Whether the elements of a tuple (or the attributes of an object) can all become elements of
/// a collection of `ety`; for `any`, they must first unify to one type.
fn elements_convertible(elems: &[&Type], ety: &Type) -> Tri {
    if elems.is_empty() {
        return Tri::Yes;
    }
    let target = if *ety == Type::Any {
        let owned: Vec<Type> = elems.iter().map(|t| (*t).clone()).collect();
        match unify(&owned) {
            Unified::To(Type::Any) if elems.iter().any(|t| **t != Type::Any) => return Tri::No,
            Unified::To(t) => t,
            Unified::Fail => return Tri::No,
            Unified::Unsure => return Tri::Unsure,
        }
    } else {
        ety.clone()
    };
    let mut result = Tri::Yes;
    for elem in elems {
        result = result.and(conversion_exists(elem, &target));
        if result == Tri::No {
            return Tri::No;
        }
    }
    result
}

/// The result of unifying several types into one.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Unified {
    To(Type),
    Fail,
    Unsure,
}

/// cty's `unify` (unsafe mode), for the cases that are certain: primitives (string wins over
/// number and bool; number with bool fails), objects and tuples (attribute- or element-wise,
/// else to a map or list of one type), identical types, and primitive/structure mixes (fail).
/// Any `null` (type `any`) among other types is left unsure: cty's handling of it changed
/// between versions.
fn unify(types: &[Type]) -> Unified {
    if types.is_empty() {
        return Unified::Fail;
    }
    let dynamic = types.iter().filter(|t| **t == Type::Any).count();
    if dynamic == types.len() {
        return Unified::To(Type::Any);
    }
    if dynamic > 0 {
        return Unified::Unsure;
    }
    let objects = types
        .iter()
        .filter(|t| matches!(t, Type::Object(_)))
        .count();
    let tuples = types.iter().filter(|t| matches!(t, Type::Tuple(_))).count();
    if objects > 0 && tuples > 0 {
        return Unified::Fail;
    }
    if objects == types.len() {
        return unify_objects(types);
    }
    if tuples == types.len() {
        return unify_tuples(types);
    }
    if types.iter().all(|t| *t == types[0]) {
        return Unified::To(types[0].clone());
    }
    let primitives = types.iter().filter(|t| t.is_primitive()).count();
    if primitives == types.len() {
        return if types.contains(&Type::String) {
            Unified::To(Type::String)
        } else {
            // Only numbers and bools, and at least one of each: neither converts to the other.
            Unified::Fail
        };
    }
    if primitives > 0 {
        // No conversion exists between a primitive and a collection or structure.
        return Unified::Fail;
    }
    Unified::Unsure
}

fn unify_objects(types: &[Type]) -> Unified {
    let attrs_of = |t: &Type| -> Vec<ObjectAttr> {
        match t {
            Type::Object(attrs) => attrs.clone(),
            _ => Vec::new(),
        }
    };
    let first = attrs_of(&types[0]);
    let same_names = types.iter().all(|t| {
        let attrs = attrs_of(t);
        attrs.len() == first.len() && attrs.iter().zip(&first).all(|(a, b)| a.name == b.name)
    });
    if !same_names {
        return unify_objects_to_map(types);
    }
    let mut unified = Vec::new();
    for attr in &first {
        let across: Vec<Type> = types
            .iter()
            .map(|t| {
                attribute(&attrs_of(t), &attr.name)
                    .map(|a| a.ty.clone())
                    .unwrap_or(Type::Any)
            })
            .collect();
        match unify(&across) {
            Unified::To(ty) => unified.push(ObjectAttr {
                name: attr.name.clone(),
                ty,
                optional: false,
            }),
            other => return other,
        }
    }
    let target = Type::Object(unified);
    match all_convert(types, &target) {
        Tri::Yes => Unified::To(target),
        Tri::No => unify_objects_to_map(types),
        Tri::Unsure => Unified::Unsure,
    }
}

fn unify_objects_to_map(types: &[Type]) -> Unified {
    let attr_types: Vec<Type> = types
        .iter()
        .flat_map(|t| match t {
            Type::Object(attrs) => attrs.iter().map(|a| a.ty.clone()).collect(),
            _ => Vec::new(),
        })
        .collect();
    match unify(&attr_types) {
        Unified::To(ety) => {
            let target = Type::Map(Box::new(ety));
            match all_convert(types, &target) {
                Tri::Yes => Unified::To(target),
                Tri::No => Unified::Fail,
                Tri::Unsure => Unified::Unsure,
            }
        }
        other => other,
    }
}

fn unify_tuples(types: &[Type]) -> Unified {
    let elems_of = |t: &Type| -> Vec<Type> {
        match t {
            Type::Tuple(elems) => elems.clone(),
            _ => Vec::new(),
        }
    };
    let len = elems_of(&types[0]).len();
    if types.iter().any(|t| elems_of(t).len() != len) {
        return unify_tuples_to_list(types);
    }
    let mut unified = Vec::new();
    for i in 0..len {
        let across: Vec<Type> = types
            .iter()
            .map(|t| elems_of(t).get(i).cloned().unwrap_or(Type::Any))
            .collect();
        match unify(&across) {
            Unified::To(ty) => unified.push(ty),
            other => return other,
        }
    }
    let target = Type::Tuple(unified);
    match all_convert(types, &target) {
        Tri::Yes => Unified::To(target),
        Tri::No => unify_tuples_to_list(types),
        Tri::Unsure => Unified::Unsure,
    }
}

fn unify_tuples_to_list(types: &[Type]) -> Unified {
    let elem_types: Vec<Type> = types
        .iter()
        .flat_map(|t| match t {
            Type::Tuple(elems) => elems.clone(),
            _ => Vec::new(),
        })
        .collect();
    match unify(&elem_types) {
        Unified::To(ety) => {
            let target = Type::List(Box::new(ety));
            match all_convert(types, &target) {
                Tri::Yes => Unified::To(target),
                // cty falls back to something that cannot work here; don't guess.
                Tri::No | Tri::Unsure => Unified::Unsure,
            }
        }
        other => other,
    }
}

fn all_convert(types: &[Type], target: &Type) -> Tri {
    types
        .iter()
        .fold(Tri::Yes, |acc, t| acc.and(conversion_exists(t, target)))
}

/// Why a value-level conversion did not succeed.
enum Failure {
    Invalid(String),
    Unknown,
}

/// Converts a literal value whose type has a conversion to `to` (cty runs the conversion
/// function `getConversion` returned). Elements and attributes are visited in cty's order:
/// tuple elements by index, object attributes by name.
fn apply(val: &Val, to: &Type) -> Result<Val, Failure> {
    if *to == Type::Any {
        return Ok(val.clone());
    }
    if let Val::Null(_) = val {
        return Ok(Val::Null(without_optional(to)));
    }
    if type_of(val) == *to {
        return Ok(val.clone());
    }
    match (val, to) {
        (Val::Number(n), Type::String) => Ok(Val::String(n.clone())),
        (Val::Bool(b), Type::String) => Ok(Val::String(b.to_string())),
        (Val::String(s), Type::Number) => match parses_as_number(s) {
            Tri::Yes => Ok(Val::Number(s.clone())),
            Tri::No => Err(Failure::Invalid("a number is required".to_string())),
            Tri::Unsure => Err(Failure::Unknown),
        },
        (Val::String(s), Type::Bool) => match s.as_str() {
            "true" | "1" => Ok(Val::Bool(true)),
            "false" | "0" => Ok(Val::Bool(false)),
            _ => {
                let lower = s.to_lowercase();
                if lower == "true" || lower == "false" {
                    Err(Failure::Invalid(format!(
                        "a bool is required; to convert from string, use lowercase \"{lower}\""
                    )))
                } else {
                    Err(Failure::Invalid("a bool is required".to_string()))
                }
            }
        },
        (Val::Object(fields), Type::Object(attrs)) => {
            let mut out = BTreeMap::new();
            for (name, field) in fields {
                // Attributes the type does not have are dropped.
                if let Some(attr) = attribute(attrs, name) {
                    out.insert(name.clone(), apply(field, &attr.ty)?);
                }
            }
            for attr in attrs {
                if !out.contains_key(&attr.name) {
                    if !attr.optional {
                        return Err(Failure::Unknown);
                    }
                    out.insert(attr.name.clone(), Val::Null(without_optional(&attr.ty)));
                }
            }
            Ok(Val::Object(out))
        }
        (Val::Tuple(items), Type::Tuple(tys)) => {
            if items.len() != tys.len() {
                return Err(Failure::Unknown);
            }
            let converted = items
                .iter()
                .zip(tys)
                .map(|(item, ty)| apply(item, ty))
                .collect::<Result<_, _>>()?;
            Ok(Val::Tuple(converted))
        }
        (Val::Tuple(items), Type::List(ety)) => {
            let (ety, elems) = collection_elements(items.iter(), ety)?;
            Ok(Val::List(ety, elems))
        }
        (Val::Tuple(items), Type::Set(ety)) => {
            let (ety, elems) = collection_elements(items.iter(), ety)?;
            // Whether a set may hold a null is not modelled.
            if elems.iter().any(|e| matches!(e, Val::Null(_))) {
                return Err(Failure::Unknown);
            }
            Ok(Val::Set(ety, elems))
        }
        (Val::Object(fields), Type::Map(ety)) => {
            let (ety, elems) = collection_elements(fields.values(), ety)?;
            Ok(Val::Map(ety, fields.keys().cloned().zip(elems).collect()))
        }
        _ => Err(Failure::Unknown),
    }
}

/// Converts the elements of a tuple (or the attributes of an object) to collection elements of
/// `ety` (unifying them first for `any`); returns the element type and the elements.
fn collection_elements<'a>(
    items: impl Iterator<Item = &'a Val>,
    ety: &Type,
) -> Result<(Type, Vec<Val>), Failure> {
    let items: Vec<&Val> = items.collect();
    if items.is_empty() {
        return Ok((without_optional(ety), Vec::new()));
    }
    let target = if *ety == Type::Any {
        let types: Vec<Type> = items.iter().map(|v| type_of(v)).collect();
        match unify(&types) {
            Unified::To(t) => t,
            Unified::Fail | Unified::Unsure => return Err(Failure::Unknown),
        }
    } else {
        ety.clone()
    };
    let elems = items
        .iter()
        .map(|item| apply(item, &target))
        .collect::<Result<Vec<_>, _>>()?;
    // With `any` nested in the element type the converted elements may still differ in type;
    // cty then unifies them once more (lists, maps) or fails (sets). Not modelled.
    let first = elems.first().map(type_of).unwrap_or(Type::Any);
    if elems.iter().any(|e| type_of(e) != first) {
        return Err(Failure::Unknown);
    }
    Ok((first, elems))
}

/// Whether a string parses as a number the way cty's `ParseNumberVal` (Go's `big.ParseFloat`,
/// base 10) does: an optional sign, then `Inf`/`inf`, or decimal digits with an optional
/// fraction and exponent; no spaces, underscores or base prefixes.
fn parses_as_number(s: &str) -> Tri {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    if body == "Inf" || body == "inf" {
        return Tri::Yes;
    }
    let bytes = body.as_bytes();
    let digits_from = |start: usize| {
        bytes[start.min(bytes.len())..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut i = digits_from(0);
    let mut mantissa_digits = i;
    if bytes.get(i) == Some(&b'.') {
        let fraction = digits_from(i + 1);
        mantissa_digits += fraction;
        i += 1 + fraction;
    }
    if mantissa_digits == 0 {
        return Tri::No;
    }
    let mut binary_exponent = false;
    if let Some(&marker) = bytes.get(i)
        && matches!(marker, b'e' | b'E' | b'p' | b'P')
    {
        binary_exponent = matches!(marker, b'p' | b'P');
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exponent = digits_from(i);
        if exponent == 0 {
            return Tri::No;
        }
        if exponent > 5 {
            // Far outside any real default; Go's handling of overflow is not modelled.
            return if i + exponent == bytes.len() {
                Tri::Unsure
            } else {
                Tri::No
            };
        }
        i += exponent;
    }
    if i != bytes.len() {
        return Tri::No;
    }
    if binary_exponent {
        Tri::Unsure
    } else {
        Tri::Yes
    }
}

// ---------------------------------------------------------------------------------------------
// Mismatch messages (cty's MismatchMessage)
// ---------------------------------------------------------------------------------------------

/// Why no conversion exists from `got` to `want`, worded like cty.
fn mismatch_message(got: &Type, want: &Type) -> String {
    match (got, want) {
        (Type::Object(got_attrs), Type::Object(want_attrs)) => {
            object_mismatch(got_attrs, want_attrs)
        }
        (Type::Tuple(_), Type::List(e)) if **e == Type::Any => {
            "all list elements must have the same type".to_string()
        }
        (Type::Tuple(_), Type::Set(e)) if **e == Type::Any => {
            "all set elements must have the same type".to_string()
        }
        (Type::Object(_), Type::Map(e)) if **e == Type::Any => {
            "all map elements must have the same type".to_string()
        }
        (Type::Tuple(_) | Type::Object(_), _) if want.is_collection() => {
            structural_to_collection_mismatch(got, want)
        }
        (_, _) if got.is_collection() && want.is_collection() => collection_mismatch(got, want),
        _ => format!("{} required", constraint_name(want)),
    }
}

fn object_mismatch(got: &[ObjectAttr], want: &[ObjectAttr]) -> String {
    let mut missing = Vec::new();
    let mut mismatched = None;
    for attr in want {
        match attribute(got, &attr.name) {
            None if attr.optional => {}
            None => missing.push(format!("{:?}", attr.name)),
            Some(got_attr) => {
                if mismatched.is_none()
                    && got_attr.ty != attr.ty
                    && conversion_exists(&got_attr.ty, &attr.ty) == Tri::No
                {
                    mismatched = Some(format!(
                        "attribute {:?}: {}",
                        attr.name,
                        mismatch_message(&got_attr.ty, &attr.ty)
                    ));
                }
            }
        }
    }
    match missing.as_slice() {
        [] => mismatched.unwrap_or_else(|| "incorrect object attributes".to_string()),
        [one] => format!("attribute {one} is required"),
        [a, b] => format!("attributes {a} and {b} are required"),
        [init @ .., last] => format!("attributes {}, and {last} are required", init.join(", ")),
    }
}

fn structural_to_collection_mismatch(got: &Type, want: &Type) -> String {
    match (got, want) {
        (Type::Tuple(elems), Type::List(ety) | Type::Set(ety)) => {
            for (i, elem) in elems.iter().enumerate() {
                if elem == &**ety || conversion_exists(elem, ety) != Tri::No {
                    continue;
                }
                return format!("element {i}: {}", mismatch_message(elem, ety));
            }
            format!("all elements must be {}", constraint_name(ety))
        }
        (Type::Object(attrs), Type::Map(ety)) => {
            for attr in attrs {
                if attr.ty == **ety || conversion_exists(&attr.ty, ety) != Tri::No {
                    continue;
                }
                return format!(
                    "element {:?}: {}",
                    attr.name,
                    mismatch_message(&attr.ty, ety)
                );
            }
            format!("all elements must be {}", constraint_name(ety))
        }
        _ => format!("{} required", constraint_name(want)),
    }
}

fn collection_mismatch(got: &Type, want: &Type) -> String {
    let (got_ety, want_ety, noun) = match (got, want) {
        (Type::List(g) | Type::Set(g), Type::List(w)) => (g, w, "list element type"),
        (Type::List(g) | Type::Set(g), Type::Set(w)) => (g, w, "set element type"),
        (Type::Map(g), Type::Map(w)) => (g, w, "map element type"),
        _ => return format!("{} required", constraint_name(want)),
    };
    format!("incorrect {noun}: {}", mismatch_message(got_ety, want_ety))
}

/// cty's `FriendlyNameForConstraint`.
fn constraint_name(ty: &Type) -> String {
    let element = |e: &Type| {
        if *e == Type::Any {
            "any single type".to_string()
        } else {
            constraint_name(e)
        }
    };
    match ty {
        Type::String => "string".to_string(),
        Type::Number => "number".to_string(),
        Type::Bool => "bool".to_string(),
        Type::Any => "any type".to_string(),
        Type::List(e) => format!("list of {}", element(e)),
        Type::Set(e) => format!("set of {}", element(e)),
        Type::Map(e) => format!("map of {}", element(e)),
        Type::Object(_) => "object".to_string(),
        Type::Tuple(_) => "tuple".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{FileId, Span};

    fn span() -> Span {
        Span::new(FileId(0), 0..0)
    }

    fn expr(src: &str) -> Expr {
        match native::parse_expr_at(src, span()) {
            Some(e) => e,
            None => panic!("test source does not parse: {src}"),
        }
    }

    fn ty(src: &str) -> Type {
        match parse_type(&expr(src)) {
            Ok(t) => t,
            Err(e) => panic!("type `{src}` does not parse: {e}"),
        }
    }

    /// A JSON string value: literal wherever the tools read it without evaluating it.
    fn json_string(s: &str) -> Expr {
        Expr {
            kind: ExprKind::Template,
            span: span(),
            json_string: Some(s.into()),
        }
    }

    fn json_array(items: Vec<Expr>) -> Expr {
        Expr::new(ExprKind::Tuple(items), span())
    }

    fn json_object(items: Vec<(&str, Expr)>) -> Expr {
        Expr::new(
            ExprKind::Object(
                items
                    .into_iter()
                    .map(|(k, value)| crate::syntax::ObjectItem {
                        key: json_string(k),
                        value,
                    })
                    .collect(),
            ),
            span(),
        )
    }

    const PASS: &[(&str, &str)] = &[
        // primitives
        ("string", r#""x""#),
        ("string", "1"),
        ("string", "1.5"),
        ("string", "true"),
        ("string", "<<EOT\nx\nEOT"),
        ("number", "1"),
        ("number", "1.5e3"),
        ("number", r#""1""#),
        ("number", r#""1.5""#),
        ("number", r#""-2""#),
        ("number", r#""+2""#),
        ("number", r#""1e3""#),
        ("number", r#""1E-3""#),
        ("number", r#"".5""#),
        ("number", r#""5.""#),
        ("number", r#""007""#),
        ("number", r#""Inf""#),
        ("number", "(1)"),
        ("number", "-1"),
        ("string", "-1.5"),
        ("bool", "true"),
        ("bool", r#""true""#),
        ("bool", r#""false""#),
        ("bool", r#""1""#),
        ("bool", r#""0""#),
        // null converts to anything
        ("string", "null"),
        ("number", "null"),
        ("list(string)", "null"),
        ("object({a = string})", "null"),
        ("any", "null"),
        // any
        ("any", r#""x""#),
        ("any", r#"["a", 1, [true], {b = null}]"#),
        ("any", "{}"),
        // lists, sets, tuples
        ("list(string)", r#"["a"]"#),
        ("list(string)", "[]"),
        ("list(string)", r#"["a", 1, true]"#),
        ("list(string)", r#"["a", null]"#),
        ("list(string)", r#"[("a")]"#),
        ("list(number)", r#"[1, "2"]"#),
        ("list(bool)", r#"["true", false, "0"]"#),
        ("list(list(string))", r#"[["a"], [], ["b", 1]]"#),
        ("set(string)", r#"["a", "a"]"#),
        ("set(number)", r#"[1, "2"]"#),
        ("set(string)", "[]"),
        ("tuple([string, number])", r#"["a", 1]"#),
        ("tuple([string, number])", r#"[1, "2"]"#),
        ("tuple([string, number])", "[null, null]"),
        ("tuple([])", "[]"),
        ("tuple([list(string), bool])", r#"[[1, 2], "true"]"#),
        // maps and objects
        ("map(string)", r#"{a = "x", "b c" = 1}"#),
        ("map(number)", "{}"),
        ("map(number)", r#"{a = "1", b = null}"#),
        ("map(list(string))", r#"{a = ["x"], b = []}"#),
        ("object({a = string})", r#"{a = "x"}"#),
        ("object({a = string})", r#"{"a" = "x"}"#),
        ("object({a = string})", r#"{a = "x", extra = [1]}"#),
        ("object({a = string})", "{a = null}"),
        ("object({a = number})", r#"{a = "1"}"#),
        ("object({})", "{a = 1}"),
        (
            "object({a = object({b = list(number)})})",
            r#"{a = {b = ["1", 2]}}"#,
        ),
        ("object({a = tuple([string])})", r#"{a = [1]}"#),
        ("object({a = any})", r#"{a = [1, "x", {}]}"#),
        // optional attributes
        ("object({a = string, b = optional(number)})", r#"{a = "x"}"#),
        (
            "object({a = string, b = optional(number)})",
            r#"{a = "x", b = "4"}"#,
        ),
        (
            "object({a = string, b = optional(number, 3)})",
            r#"{a = "x"}"#,
        ),
        ("object({a = optional(object({b = string}))})", "{}"),
        (
            "object({a = optional(object({b = string}))})",
            r#"{a = {b = 1}}"#,
        ),
        (
            "list(object({name = string, port = optional(number)}))",
            r#"[{name = "a"}, {name = "b", port = "80"}, null]"#,
        ),
        // legacy bare list / map
        ("list", r#"["a", "b"]"#),
        ("list", r#"["a", 1]"#),
        ("map", r#"{a = "x"}"#),
        // unification for `any` elements
        ("list(any)", r#"["a", 1]"#),
        ("list(any)", r#"["a", true]"#),
        ("list(any)", r#"[1, 2]"#),
        ("list(any)", "[]"),
        ("list(any)", "[null, null]"),
        ("set(any)", r#"["a", 1]"#),
        ("map(any)", r#"{a = "x", b = 1}"#),
        ("map(any)", "{}"),
        ("list(any)", r#"[["a"], ["b", "c"]]"#),
        ("list(any)", r#"[["a"], [true, 1]]"#),
        ("list(any)", r#"[[1, "a"], ["b", 2]]"#),
        ("list(any)", r#"[{a = 1}, {a = "x"}]"#),
        ("list(any)", r#"[{a = 1}, {b = "x"}]"#),
        ("list(any)", r#"[{}, {a = 1}]"#),
        ("map(any)", r#"{x = {a = 1}, y = {b = 2}}"#),
        ("map(list(any))", r#"{x = ["a", 1], y = ["b", "c"]}"#),
    ];

    const FAIL: &[(&str, &str, &str)] = &[
        // string → number / bool
        ("number", r#""x""#, "a number is required"),
        ("number", r#""""#, "a number is required"),
        ("number", r#"" 1""#, "a number is required"),
        ("number", r#""1_000""#, "a number is required"),
        ("number", r#""0x10""#, "a number is required"),
        ("number", r#""1e""#, "a number is required"),
        ("number", r#"".""#, "a number is required"),
        ("number", r#""--1""#, "a number is required"),
        ("number", r#""1.2.3""#, "a number is required"),
        ("bool", r#""yes""#, "a bool is required"),
        ("bool", r#""""#, "a bool is required"),
        (
            "bool",
            r#""True""#,
            r#"a bool is required; to convert from string, use lowercase "true""#,
        ),
        (
            "bool",
            r#""FALSE""#,
            r#"a bool is required; to convert from string, use lowercase "false""#,
        ),
        // number ↔ bool
        ("number", "true", "number required"),
        ("bool", "1", "bool required"),
        ("bool", "0", "bool required"),
        ("bool", "-1", "bool required"),
        // structural → primitive
        ("string", r#"["a"]"#, "string required"),
        ("string", "{a = 1}", "string required"),
        ("number", "[1]", "number required"),
        ("bool", "{}", "bool required"),
        // primitive → collection / structural
        ("list(string)", r#""a""#, "list of string required"),
        ("set(number)", "1", "set of number required"),
        ("map(string)", "true", "map of string required"),
        ("object({a = string})", r#""a""#, "object required"),
        ("tuple([string])", r#""a""#, "tuple required"),
        ("list", r#""a""#, "list of any single type required"),
        // wrong structure
        ("list(string)", "{a = 1}", "list of string required"),
        ("map(string)", r#"["a"]"#, "map of string required"),
        ("map(any)", r#"["a"]"#, "map of any single type required"),
        ("object({a = string})", r#"["a"]"#, "object required"),
        ("tuple([string])", "{a = 1}", "tuple required"),
        // tuples
        ("tuple([string])", r#"["a", "b"]"#, "tuple required"),
        ("tuple([string, string])", "[]", "tuple required"),
        ("tuple([string, bool])", r#"["a", 1]"#, "tuple required"),
        (
            "tuple([string, number])",
            r#"["a", "b"]"#,
            "a number is required",
        ),
        // list / set elements
        ("list(number)", r#"[1, "x"]"#, "a number is required"),
        ("list(number)", "[1, true]", "element 1: number required"),
        (
            "list(string)",
            r#"["a", ["b"]]"#,
            "element 1: string required",
        ),
        ("set(string)", r#"[["a"]]"#, "element 0: string required"),
        (
            "list(list(number))",
            r#"[[1], ["x"]]"#,
            "a number is required",
        ),
        (
            "list(list(number))",
            "[[1], [true]]",
            "element 1: element 0: number required",
        ),
        // `any` elements that do not unify
        (
            "list(any)",
            r#"["a", ["b"]]"#,
            "all list elements must have the same type",
        ),
        (
            "list(any)",
            "[1, true]",
            "all list elements must have the same type",
        ),
        (
            "list(any)",
            r#"[{a = 1}, [1]]"#,
            "all list elements must have the same type",
        ),
        (
            "list(any)",
            "[[1], [true]]",
            "all list elements must have the same type",
        ),
        (
            "list(any)",
            "[{a = true}, {a = 1}]",
            "all list elements must have the same type",
        ),
        (
            "list(any)",
            "[{a = true}, {b = 1}]",
            "all list elements must have the same type",
        ),
        (
            "set(any)",
            "[1, true]",
            "all set elements must have the same type",
        ),
        (
            "map(any)",
            "{a = 1, b = true}",
            "all map elements must have the same type",
        ),
        (
            "list",
            r#"["a", ["b"]]"#,
            "all list elements must have the same type",
        ),
        (
            "map",
            r#"{a = "x", b = {}}"#,
            "all map elements must have the same type",
        ),
        // map elements
        ("map(number)", r#"{a = "x"}"#, "a number is required"),
        (
            "map(number)",
            "{a = 1, b = true}",
            r#"element "b": number required"#,
        ),
        (
            "map(object({a = number}))",
            "{k = {a = true}}",
            r#"element "k": attribute "a": number required"#,
        ),
        // object attributes
        (
            "object({name = string})",
            "{}",
            r#"attribute "name" is required"#,
        ),
        (
            "object({b = string, a = string})",
            "{}",
            r#"attributes "a" and "b" are required"#,
        ),
        (
            "object({a = string, b = string, c = string})",
            "{x = 1}",
            r#"attributes "a", "b", and "c" are required"#,
        ),
        (
            "object({a = string, b = optional(string)})",
            r#"{b = "x"}"#,
            r#"attribute "a" is required"#,
        ),
        (
            "object({a = number})",
            r#"{a = "x"}"#,
            "a number is required",
        ),
        (
            "object({a = number})",
            "{a = [1]}",
            r#"attribute "a": number required"#,
        ),
        (
            "object({a = number, b = bool})",
            "{a = [1], b = 2}",
            r#"attribute "a": number required"#,
        ),
        (
            "object({a = object({b = bool})})",
            "{a = {}}",
            r#"attribute "a": attribute "b" is required"#,
        ),
        (
            "object({a = string, b = optional(number)})",
            r#"{a = "x", b = "y"}"#,
            "a number is required",
        ),
        (
            "object({a = string, b = optional(number)})",
            r#"{a = "x", b = false}"#,
            r#"attribute "b": number required"#,
        ),
        (
            "list(object({name = string}))",
            r#"[{name = "a"}, {}]"#,
            r#"element 1: attribute "name" is required"#,
        ),
        (
            "object({a = optional(object({b = string}))})",
            "{a = {}}",
            r#"attribute "a": attribute "b" is required"#,
        ),
    ];

    /// Values that need evaluating, or corners this module does not decide.
    const UNKNOWN: &[(&str, &str)] = &[
        ("string", "var.x"),
        ("string", "x"),
        ("string", r#""${var.x}""#),
        ("string", r#""%{if true}a%{endif}""#),
        ("string", r#"upper("a")"#),
        ("number", "1 + 1"),
        ("bool", "true ? true : false"),
        ("list(string)", "[var.x]"),
        ("list(number)", "[var.x, true]"),
        ("list(string)", "[for s in var.l : s]"),
        ("map(string)", "{a = local.b}"),
        ("map(string)", "{(var.k) = 1}"),
        ("object({a = string})", r#"{a = "${path.module}"}"#),
        ("list(string)", "local.x[0]"),
        ("map(number)", "{null = 1}"),
        // `null` among elements to unify, `null` in a set, nested `any`
        ("list(any)", r#"["a", null]"#),
        ("list(any)", r#"[{a = 1}, {a = null}]"#),
        ("set(string)", r#"["a", null]"#),
        ("list(object({a = any}))", r#"[{a = 1}, {a = "x"}]"#),
        ("list(list(any))", r#"[["a"], [1]]"#),
        // Go's binary exponent and exponent overflow
        ("number", r#""1p3""#),
        ("number", r#""1e9999999""#),
    ];

    #[test]
    fn passing_conversions() {
        for (t, v) in PASS {
            assert_eq!(
                convert(&expr(v), &ty(t)),
                Conversion::Ok,
                "type `{t}`, value `{v}`"
            );
        }
    }

    #[test]
    fn failing_conversions() {
        for (t, v, message) in FAIL {
            assert_eq!(
                convert(&expr(v), &ty(t)),
                Conversion::Invalid(message.to_string()),
                "type `{t}`, value `{v}`"
            );
        }
    }

    #[test]
    fn unknown_conversions() {
        for (t, v) in UNKNOWN {
            assert_eq!(
                convert(&expr(v), &ty(t)),
                Conversion::Unknown,
                "type `{t}`, value `{v}`"
            );
        }
    }

    #[test]
    fn json_values_are_literal_strings() {
        let cases: Vec<(&str, Expr, Conversion)> = vec![
            ("string", json_string("${var.x}"), Conversion::Ok),
            ("number", json_string("1"), Conversion::Ok),
            (
                "number",
                json_string("${1 + 1}"),
                Conversion::Invalid("a number is required".into()),
            ),
            ("bool", json_string("true"), Conversion::Ok),
            (
                "list(string)",
                json_string("a"),
                Conversion::Invalid("list of string required".into()),
            ),
            (
                "list(number)",
                json_array(vec![json_string("1"), json_string("x")]),
                Conversion::Invalid("a number is required".into()),
            ),
            (
                "list(any)",
                json_array(vec![json_string("a"), expr("1")]),
                Conversion::Ok,
            ),
            (
                "object({a = number, b = optional(bool)})",
                json_object(vec![("a", json_string("1")), ("c", expr("[]"))]),
                Conversion::Ok,
            ),
            (
                "object({a = number})",
                json_object(vec![("b", json_string("1"))]),
                Conversion::Invalid(r#"attribute "a" is required"#.into()),
            ),
            (
                "map(bool)",
                json_object(vec![("a", json_string("${true}"))]),
                Conversion::Invalid("a bool is required".into()),
            ),
        ];
        for (t, value, want) in cases {
            assert_eq!(convert(&value, &ty(t)), want, "type `{t}`, value {value:?}");
        }
    }

    /// hcl-edit's expression parser rejects a repeated key, so these are built by hand; in
    /// Terraform the later one wins (for values and for object type attributes alike).
    #[test]
    fn repeated_keys_later_wins() {
        let object = |items: Vec<(&str, &str)>| {
            Expr::new(
                ExprKind::Object(
                    items
                        .into_iter()
                        .map(|(k, v)| crate::syntax::ObjectItem {
                            key: Expr::new(ExprKind::Variable(k.into()), span()),
                            value: expr(v),
                        })
                        .collect(),
                ),
                span(),
            )
        };
        let value = object(vec![("a", "[1]"), ("a", r#""1""#)]);
        assert_eq!(convert(&value, &ty("object({a = number})")), Conversion::Ok);
        let value = object(vec![("a", r#""1""#), ("a", "[1]")]);
        assert_eq!(
            convert(&value, &ty("object({a = number})")),
            Conversion::Invalid(r#"attribute "a": number required"#.into())
        );
        let call = |arg: Expr| {
            Expr::new(
                ExprKind::FunctionCall {
                    name: "object".into(),
                    args: vec![arg],
                    expand_final: false,
                },
                span(),
            )
        };
        let repeated = call(object(vec![("a", "string"), ("a", "number")]));
        match parse_type(&repeated) {
            Ok(t) => assert_eq!(t.to_string(), "object({a=number})"),
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn types_built_by_hand_need_not_be_sorted() {
        let t = Type::Object(vec![
            ObjectAttr {
                name: "b".into(),
                ty: Type::Number,
                optional: false,
            },
            ObjectAttr {
                name: "a".into(),
                ty: Type::String,
                optional: true,
            },
        ]);
        assert_eq!(convert(&expr(r#"{b = "2"}"#), &t), Conversion::Ok);
        assert_eq!(
            convert(&expr(r#"{a = "x"}"#), &t),
            Conversion::Invalid(r#"attribute "b" is required"#.into())
        );
    }

    #[test]
    fn parses_and_prints_types() {
        let cases = [
            ("string", "string"),
            ("number", "number"),
            ("bool", "bool"),
            ("any", "any"),
            ("(string)", "string"),
            ("list(string)", "list(string)"),
            ("set(number)", "set(number)"),
            ("map(bool)", "map(bool)"),
            ("list(any)", "list(any)"),
            ("list", "list(any)"),
            ("map", "map(any)"),
            ("list(list(map(string)))", "list(list(map(string)))"),
            ("object({})", "object({})"),
            ("object({a = string})", "object({a=string})"),
            (
                "object({b = number, a = string})",
                "object({a=string, b=number})",
            ),
            (
                "object({\n  a = optional(string)\n  b = optional(number, 1)\n})",
                "object({a=optional(string), b=optional(number)})",
            ),
            (
                "list(object({name = string, tags = map(string)}))",
                "list(object({name=string, tags=map(string)}))",
            ),
            ("tuple([])", "tuple([])"),
            ("tuple([string, number])", "tuple([string, number])"),
            ("tuple([set(bool), any])", "tuple([set(bool), any])"),
            // a default that needs evaluating is not judged
            (
                "object({a = optional(string, var.x)})",
                "object({a=optional(string)})",
            ),
        ];
        for (src, printed) in cases {
            assert_eq!(ty(src).to_string(), printed, "type `{src}`");
        }
        assert_eq!(
            ty("object({a = optional(list(string))})"),
            Type::Object(vec![ObjectAttr {
                name: "a".into(),
                ty: Type::List(Box::new(Type::String)),
                optional: true,
            }])
        );
    }

    #[test]
    fn type_parse_errors() {
        let cases = [
            (
                "strin",
                r#"The keyword "strin" is not a valid type specification."#,
            ),
            (
                "optional",
                r#"The keyword "optional" is not a valid type specification."#,
            ),
            (
                "set",
                "The set type constructor requires one argument specifying the element type.",
            ),
            (
                "list(list)",
                "The list type constructor requires one argument specifying the element type.",
            ),
            (
                "map(map)",
                "The map type constructor requires one argument specifying the element type.",
            ),
            (
                "list()",
                "The list type constructor requires one argument specifying the element type.",
            ),
            (
                "list(string, number)",
                "The list type constructor requires one argument specifying the element type.",
            ),
            (
                "list(strin)",
                r#"The keyword "strin" is not a valid type specification."#,
            ),
            ("object", OBJECT_ARGUMENT_ERROR),
            ("object()", OBJECT_ARGUMENT_ERROR),
            ("tuple", TUPLE_ARGUMENT_ERROR),
            ("tuple([string], [number])", TUPLE_ARGUMENT_ERROR),
            (
                "object(string)",
                "Object type constructor requires a map whose keys are attribute names and whose values are the corresponding attribute types.",
            ),
            (
                r#"object({"a" = string})"#,
                "Object constructor map keys must be attribute names.",
            ),
            (
                "tuple(string)",
                "Tuple type constructor requires a list of element types.",
            ),
            (
                "string(1)",
                r#"Primitive type keyword "string" does not expect arguments."#,
            ),
            (
                "any()",
                r#"Type constraint keyword "any" does not expect arguments."#,
            ),
            (
                "optional(string)",
                r#"Keyword "optional" is valid only as a modifier for object type attributes."#,
            ),
            (
                "list(optional(string))",
                r#"Keyword "optional" is valid only as a modifier for object type attributes."#,
            ),
            (
                "foo(string)",
                r#"Keyword "foo" is not a valid type constructor."#,
            ),
            (
                "object({a = optional()})",
                "Optional attribute modifier requires the attribute type as its argument.",
            ),
            (
                "object({a = optional(string, 1, 2)})",
                "Optional attribute modifier expects at most two arguments: the attribute type, and a default value.",
            ),
            (
                r#"object({a = optional(number, "x")})"#,
                "This default value is not compatible with the attribute's type constraint: a number is required.",
            ),
            (
                "object({a = optional(list(string), {})})",
                "This default value is not compatible with the attribute's type constraint: list of string required.",
            ),
            ("var.x", GENERIC_TYPE_ERROR),
            ("string.x", GENERIC_TYPE_ERROR),
            ("1", GENERIC_TYPE_ERROR),
            ("null", GENERIC_TYPE_ERROR),
            ("[string]", GENERIC_TYPE_ERROR),
            ("{a = string}", GENERIC_TYPE_ERROR),
            // Terraform 0.11 quoted types
            (
                r#""string""#,
                "Terraform 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of Terraform. Remove the quotes around \"string\".",
            ),
            (
                r#""list""#,
                "Terraform 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of Terraform. Remove the quotes around \"list\" and write list(string) instead to explicitly indicate that the list elements are strings.",
            ),
            (
                r#""map""#,
                "Terraform 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of Terraform. Remove the quotes around \"map\" and write map(string) instead to explicitly indicate that the map elements are strings.",
            ),
            (r#""number""#, LEGACY_TYPE_HINT_ERROR),
            (r#""list(string)""#, LEGACY_TYPE_HINT_ERROR),
            (r#""${string}""#, LEGACY_TYPE_HINT_ERROR),
        ];
        for (src, message) in cases {
            assert_eq!(
                parse_type(&expr(src)),
                Err(message.to_string()),
                "type `{src}`"
            );
        }
    }

    #[test]
    fn json_type_strings_are_type_expressions() {
        let ok = [
            ("string", "string"),
            ("list(string)", "list(string)"),
            ("list", "list(any)"),
            ("map", "map(any)"),
            (
                "object({a = number, b = optional(bool)})",
                "object({a=number, b=optional(bool)})",
            ),
        ];
        for (src, printed) in ok {
            match parse_type(&json_string(src)) {
                Ok(t) => assert_eq!(t.to_string(), printed, "JSON type {src:?}"),
                Err(e) => panic!("JSON type {src:?}: {e}"),
            }
        }
        let err = [
            ("\"string\"", GENERIC_TYPE_ERROR),
            ("${string}", GENERIC_TYPE_ERROR),
            ("list(", GENERIC_TYPE_ERROR),
            ("", GENERIC_TYPE_ERROR),
            (
                "set",
                "The set type constructor requires one argument specifying the element type.",
            ),
            (
                "strin",
                r#"The keyword "strin" is not a valid type specification."#,
            ),
        ];
        for (src, message) in err {
            assert_eq!(
                parse_type(&json_string(src)),
                Err(message.to_string()),
                "JSON type {src:?}"
            );
        }
    }

    #[test]
    fn number_strings() {
        for s in [
            "0", "-0", "12", "1.", ".1", "1.5e10", "1e-5", "+3E+2", "inf", "-Inf",
        ] {
            assert_eq!(parses_as_number(s), Tri::Yes, "{s:?}");
        }
        for s in [
            "", "-", "+", ".", "e1", "1e", "1e+", "1.2.3", " 1", "1 ", "0x1", "1_0", "INF", "NaN",
            "1f",
        ] {
            assert_eq!(parses_as_number(s), Tri::No, "{s:?}");
        }
        for s in ["1p3", "0x1p3", "1e123456"] {
            assert_ne!(parses_as_number(s), Tri::Yes, "{s:?}");
        }
    }

    #[test]
    fn constraint_names() {
        let cases = [
            ("list(string)", "list of string"),
            ("set(any)", "set of any single type"),
            ("map(list(any))", "map of list of any single type"),
            ("object({a = string})", "object"),
            ("tuple([string])", "tuple"),
            ("any", "any type"),
        ];
        for (src, name) in cases {
            assert_eq!(constraint_name(&ty(src)), name, "type `{src}`");
        }
    }
}
