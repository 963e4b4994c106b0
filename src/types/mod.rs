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

use std::fmt;

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

/// One attribute of an `object({...})` type, with the default of `optional(T, default)`: the
/// tools apply it to a variable's default before converting it at decode time (HCL's
/// `typeexpr.Defaults`), but not when they convert again after merging an override.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ObjectAttr {
    pub(crate) name: String,
    pub(crate) ty: Type,
    pub(crate) optional: bool,
    pub(crate) default: Option<AttrDefault>,
}

/// The default of an optional attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AttrDefault {
    /// A literal value.
    Known(Value),
    /// An expression this module does not evaluate: applying it makes the result unknown.
    Unknown,
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

mod convert;
mod parse;
mod parsed;
#[cfg(test)]
mod tests;

pub(crate) use convert::{Converted, Value, convert, convert_value, decode_default, object_key};
pub(crate) use parse::parse_type;
pub(crate) use parsed::ParsedTypes;
