//! Whether a literal value converts to a type, as go-cty's `convert` decides it, with the
//! tools' error texts.

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::syntax::{Expr, ExprKind, quote};

use super::{AttrDefault, Conversion, ObjectAttr, Type};

/// A literal value, or the result of converting one. Numbers keep their text: conversions never
/// need their value, only whether a string parses as one.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    if let Some(s) = expr.json_string() {
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

/// The name an object key gives, when it is written as a name or a literal string.
pub(crate) fn object_key(key: &Expr) -> Option<String> {
    if let Some(s) = key.json_string() {
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
                    default: None,
                })
                .collect(),
        ),
        Val::List(ety, _) => Type::List(Box::new(ety.clone())),
        Val::Set(ety, _) => Type::Set(Box::new(ety.clone())),
        Val::Map(ety, _) => Type::Map(Box::new(ety.clone())),
    }
}

/// `ty` with its object attributes sorted by name (the later of a repeated name wins), at every
/// depth: `ty` itself when it is in that form already, as the types the parser and [`type_of`]
/// build are, so that converting a value (at every depth of it) does not copy its type each time.
fn normalized(ty: &Type) -> Cow<'_, Type> {
    if is_normalized(ty) {
        Cow::Borrowed(ty)
    } else {
        Cow::Owned(sorted(ty))
    }
}

/// Whether every object type in `ty` has its attributes in strictly increasing name order.
fn is_normalized(ty: &Type) -> bool {
    match ty {
        Type::String | Type::Number | Type::Bool | Type::Any => true,
        Type::List(e) | Type::Set(e) | Type::Map(e) => is_normalized(e),
        Type::Tuple(elems) => elems.iter().all(is_normalized),
        Type::Object(attrs) => {
            attrs.windows(2).all(|pair| pair[0].name < pair[1].name)
                && attrs.iter().all(|a| is_normalized(&a.ty))
        }
    }
}

/// A copy of `ty` with its object attributes sorted by name (the later of a repeated name wins),
/// at every depth.
fn sorted(ty: &Type) -> Type {
    match ty {
        Type::String | Type::Number | Type::Bool | Type::Any => ty.clone(),
        Type::List(e) => Type::List(Box::new(sorted(e))),
        Type::Set(e) => Type::Set(Box::new(sorted(e))),
        Type::Map(e) => Type::Map(Box::new(sorted(e))),
        Type::Tuple(elems) => Type::Tuple(elems.iter().map(sorted).collect()),
        Type::Object(attrs) => {
            let mut by_name = BTreeMap::new();
            for attr in attrs {
                by_name.insert(
                    attr.name.clone(),
                    ObjectAttr {
                        name: attr.name.clone(),
                        ty: sorted(&attr.ty),
                        optional: attr.optional,
                        default: attr.default.clone(),
                    },
                );
            }
            Type::Object(by_name.into_values().collect())
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
                    default: None,
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
    match convert_val(&val, ty) {
        Ok(_) => Conversion::Ok,
        Err(Failure::Invalid(reason)) => Conversion::Invalid(reason),
        Err(Failure::Unknown) => Conversion::Unknown,
    }
}

/// A known value: a literal variable default, or the result of converting one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Value(Val);

/// The outcome of converting a [`Value`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Converted {
    Ok(Value),
    /// The conversion fails; the reason as Terraform words it (no trailing period).
    Invalid(String),
    /// This module cannot tell the result for sure.
    Unknown,
}

impl Value {
    /// The value of a literal expression; None for anything that needs evaluating.
    pub(crate) fn of_literal(expr: &Expr) -> Option<Value> {
        literal(expr).map(Value)
    }

    pub(crate) fn is_null(&self) -> bool {
        matches!(self.0, Val::Null(_))
    }

    /// Native syntax that evaluates to this value (given its type, which a collection's
    /// elements and a null need to be this value again): `{ a = "x", b = null }`.
    pub(crate) fn to_native(&self) -> String {
        let mut out = String::new();
        write_native(&self.0, &mut out);
        out
    }
}

fn write_native(val: &Val, out: &mut String) {
    let items = |vals: &mut dyn Iterator<Item = &Val>, out: &mut String| {
        out.push('[');
        for (i, item) in vals.enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_native(item, out);
        }
        out.push(']');
    };
    let fields = |fields: &BTreeMap<String, Val>, out: &mut String| {
        if fields.is_empty() {
            out.push_str("{}");
            return;
        }
        out.push_str("{ ");
        for (i, (name, item)) in fields.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let bare = name
                .chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
                && !matches!(name.as_str(), "null" | "true" | "false");
            if bare {
                out.push_str(name);
            } else {
                out.push_str(&quote(name, true));
            }
            out.push_str(" = ");
            write_native(item, out);
        }
        out.push_str(" }");
    };
    match val {
        Val::Null(_) => out.push_str("null"),
        Val::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Val::Number(n) => out.push_str(n),
        Val::String(s) => out.push_str(&quote(s, true)),
        Val::Tuple(vals) | Val::List(_, vals) | Val::Set(_, vals) => items(&mut vals.iter(), out),
        Val::Object(map) | Val::Map(_, map) => fields(map, out),
    }
}

/// cty's `convert.Convert` of a value to a type, without applying any `optional()` default.
pub(crate) fn convert_value(value: &Value, ty: &Type) -> Converted {
    match convert_val(&value.0, ty) {
        Ok(val) => Converted::Ok(Value(val)),
        Err(Failure::Invalid(reason)) => Converted::Invalid(reason),
        Err(Failure::Unknown) => Converted::Unknown,
    }
}

/// A variable's default as the tools decode it with the variable's type: the type's
/// `optional()` defaults applied (to a value that is not null), then converted.
pub(crate) fn decode_default(value: &Value, ty: &Type) -> Converted {
    // Without an `optional()` default in the type, applying the defaults would give a copy of
    // the value (most types have none).
    if value.is_null() || !has_attribute_defaults(ty) {
        return convert_value(value, ty);
    }
    match apply_defaults(&value.0, ty) {
        Some(val) => convert_value(&Value(val), ty),
        None => Converted::Unknown,
    }
}

/// Whether an object type in `ty` gives an attribute a default (`optional(T, default)`).
fn has_attribute_defaults(ty: &Type) -> bool {
    match ty {
        Type::String | Type::Number | Type::Bool | Type::Any => false,
        Type::List(e) | Type::Set(e) | Type::Map(e) => has_attribute_defaults(e),
        Type::Tuple(elems) => elems.iter().any(has_attribute_defaults),
        Type::Object(attrs) => {
            (attrs.iter()).any(|a| a.default.is_some() || has_attribute_defaults(&a.ty))
        }
    }
}

/// HCL's `typeexpr.Defaults.Apply`: a missing or null attribute of an object given an
/// `optional(T, default)` takes the default, at every depth the type describes. None when a
/// default applied is not a literal.
fn apply_defaults(val: &Val, ty: &Type) -> Option<Val> {
    let each = |items: &[Val], ety: &Type| -> Option<Vec<Val>> {
        items.iter().map(|item| apply_defaults(item, ety)).collect()
    };
    let each_field = |fields: &BTreeMap<String, Val>, ety: &Type| {
        fields
            .iter()
            .map(|(name, v)| Some((name.clone(), apply_defaults(v, ety)?)))
            .collect::<Option<BTreeMap<_, _>>>()
    };
    Some(match (val, ty) {
        (Val::Object(fields), Type::Object(attrs)) => {
            let mut out = fields.clone();
            for attr in attrs {
                let missing = out
                    .get(&attr.name)
                    .is_none_or(|v| matches!(v, Val::Null(_)));
                match (&attr.default, missing) {
                    (Some(AttrDefault::Known(default)), true) => {
                        out.insert(attr.name.clone(), default.0.clone());
                    }
                    (Some(AttrDefault::Unknown), true) => return None,
                    _ => {}
                }
                if let Some(field) = out.get(&attr.name) {
                    let applied = apply_defaults(field, &attr.ty)?;
                    out.insert(attr.name.clone(), applied);
                }
            }
            Val::Object(out)
        }
        (Val::Object(fields), Type::Map(ety)) => Val::Object(each_field(fields, ety)?),
        (Val::Map(vty, fields), Type::Map(ety)) => Val::Map(vty.clone(), each_field(fields, ety)?),
        (Val::Tuple(items), Type::List(ety) | Type::Set(ety)) => Val::Tuple(each(items, ety)?),
        (Val::List(vty, items), Type::List(ety) | Type::Set(ety)) => {
            Val::List(vty.clone(), each(items, ety)?)
        }
        (Val::Set(vty, items), Type::List(ety) | Type::Set(ety)) => {
            Val::Set(vty.clone(), each(items, ety)?)
        }
        (Val::Tuple(items), Type::Tuple(tys)) if items.len() == tys.len() => Val::Tuple(
            items
                .iter()
                .zip(tys)
                .map(|(item, ty)| apply_defaults(item, ty))
                .collect::<Option<_>>()?,
        ),
        _ => val.clone(),
    })
}

fn convert_val(val: &Val, ty: &Type) -> Result<Val, Failure> {
    let want = normalized(ty);
    let got = type_of(val);
    if got == *want {
        return Ok(val.clone());
    }
    match conversion_exists(&got, &want) {
        Tri::No => Err(Failure::Invalid(mismatch_message(&got, &want))),
        Tri::Unsure => Err(Failure::Unknown),
        Tri::Yes => apply(val, &want),
    }
}

/// Whether something holds: yes, no, or not known for sure here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tri {
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
        // Only reachable for converted values; not modelled.
        (Type::Map(_), Type::Object(_)) | (Type::List(_) | Type::Set(_), Type::Tuple(_)) => {
            Tri::Unsure
        }
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
                default: None,
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
            set_value(ety, elems)
        }
        (Val::Object(fields), Type::Map(ety)) => {
            let (ety, elems) = collection_elements(fields.values(), ety)?;
            Ok(Val::Map(ety, fields.keys().cloned().zip(elems).collect()))
        }
        // A converted collection converted again (after an override changed the type).
        (Val::List(_, items) | Val::Set(_, items), Type::List(ety)) if **ety != Type::Any => {
            // A set's order is cty's only for strings and numbers (which `set_value` sorts).
            let ordered = |e: &Val| matches!(e, Val::String(_) | Val::Number(_));
            if matches!(val, Val::Set(..)) && !items.iter().all(ordered) {
                return Err(Failure::Unknown);
            }
            let elems = items.iter().map(|item| apply(item, ety));
            Ok(Val::List(
                without_optional(ety),
                elems.collect::<Result<_, _>>()?,
            ))
        }
        (Val::List(_, items) | Val::Set(_, items), Type::Set(ety)) if **ety != Type::Any => {
            let elems: Vec<Val> = items
                .iter()
                .map(|item| apply(item, ety))
                .collect::<Result<_, _>>()?;
            set_value(without_optional(ety), elems)
        }
        (Val::Map(_, fields), Type::Map(ety)) if **ety != Type::Any => {
            let converted = fields
                .iter()
                .map(|(name, v)| Ok((name.clone(), apply(v, ety)?)))
                .collect::<Result<_, _>>()?;
            Ok(Val::Map(without_optional(ety), converted))
        }
        _ => Err(Failure::Unknown),
    }
}

/// A set of these elements: equal elements are one, and strings and numbers are in cty's order
/// (lexical, numeric). Whether a set may hold a null is not modelled.
fn set_value(ety: Type, elems: Vec<Val>) -> Result<Val, Failure> {
    if elems.iter().any(|e| matches!(e, Val::Null(_))) {
        return Err(Failure::Unknown);
    }
    let mut seen = std::collections::HashSet::new();
    let mut unique: Vec<Val> = elems
        .into_iter()
        .filter(|elem| seen.insert(Value(elem.clone()).to_native()))
        .collect();
    if unique.iter().all(|e| matches!(e, Val::String(_))) {
        unique.sort_by(|a, b| match (a, b) {
            (Val::String(x), Val::String(y)) => x.cmp(y),
            _ => std::cmp::Ordering::Equal,
        });
    } else if unique.iter().all(|e| matches!(e, Val::Number(_))) {
        let numbers: Option<Vec<f64>> = unique
            .iter()
            .map(|e| match e {
                Val::Number(n) => n.parse::<f64>().ok().filter(|x| x.is_finite()),
                _ => None,
            })
            .collect();
        let Some(numbers) = numbers else {
            return Err(Failure::Unknown);
        };
        let mut pairs: Vec<(f64, Val)> = numbers.into_iter().zip(unique).collect();
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
        // Two spellings of one number (`1`, `1.0`) are one element.
        pairs.dedup_by(|a, b| a.0 == b.0);
        unique = pairs.into_iter().map(|(_, v)| v).collect();
    }
    Ok(Val::Set(ety, unique))
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
pub(super) fn parses_as_number(s: &str) -> Tri {
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
pub(super) fn constraint_name(ty: &Type) -> String {
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
    use std::borrow::Cow;

    use super::{ObjectAttr, Type, normalized};

    fn object(attrs: &[(&str, Type)]) -> Type {
        Type::Object(
            (attrs.iter())
                .map(|(name, ty)| ObjectAttr {
                    name: name.to_string(),
                    ty: ty.clone(),
                    optional: false,
                    default: None,
                })
                .collect(),
        )
    }

    /// An object type out of order (at any depth, a repeated name included) is sorted, the later
    /// of a repeated name kept; one in order is used as it is.
    #[test]
    fn only_types_out_of_order_are_sorted() {
        let inner = object(&[("y", Type::Bool), ("x", Type::String)]);
        let unsorted = Type::List(Box::new(object(&[
            ("b", Type::Number),
            ("a", inner),
            ("b", Type::String),
        ])));
        let sorted_inner = object(&[("x", Type::String), ("y", Type::Bool)]);
        let sorted = Type::List(Box::new(object(&[
            ("a", sorted_inner),
            ("b", Type::String),
        ])));
        let got = normalized(&unsorted);
        assert!(matches!(got, Cow::Owned(_)));
        assert_eq!(*got, sorted);
        assert!(matches!(normalized(&sorted), Cow::Borrowed(_)));
        let repeated = object(&[("a", Type::Number), ("a", Type::String)]);
        assert_eq!(*normalized(&repeated), object(&[("a", Type::String)]));
    }
}
