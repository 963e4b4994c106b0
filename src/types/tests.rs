//! Type parsing and conversion, case by case against what Terraform decides.

use super::convert::{Tri, constraint_name, parses_as_number};
use super::parse::{
    GENERIC_TYPE_ERROR, LEGACY_TYPE_HINT_ERROR, OBJECT_ARGUMENT_ERROR, TUPLE_ARGUMENT_ERROR,
};
use super::*;
use crate::source::{FileId, Span};
use crate::syntax::{Expr, ExprKind, native};

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
    Expr::with_calls(ExprKind::Template, span(), Some(s.into()), Vec::new())
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

/// Built by hand, key by key; in Terraform the later of two repeated keys wins in a value (a
/// type constraint refuses a repeated attribute: see `rules::type_constraint_invalid`).
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
    assert_eq!(
        parse_type(&repeated).map(|t| t.to_string()),
        Err("Object constructor map keys must be unique.".to_string())
    );
}

#[test]
fn types_built_by_hand_need_not_be_sorted() {
    let t = Type::Object(vec![
        ObjectAttr {
            name: "b".into(),
            ty: Type::Number,
            optional: false,
            default: None,
        },
        ObjectAttr {
            name: "a".into(),
            ty: Type::String,
            optional: true,
            default: None,
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
            default: None,
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
        "", "-", "+", ".", "e1", "1e", "1e+", "1.2.3", " 1", "1 ", "0x1", "1_0", "INF", "NaN", "1f",
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

/// Decodes `value` with `from` (as a base variable is decoded), then converts the result to
/// `to` (as merging an override that changes the type does); the result as native syntax.
fn decoded_then_converted(value: &str, from: &str, to: &str) -> Result<String, String> {
    let literal = Value::of_literal(&expr(value)).expect("a literal");
    let decoded = match decode_default(&literal, &ty(from)) {
        Converted::Ok(v) => v,
        other => return Err(format!("decode: {other:?}")),
    };
    match convert_value(&decoded, &ty(to)) {
        Converted::Ok(v) => Ok(v.to_native()),
        Converted::Invalid(reason) => Err(reason),
        Converted::Unknown => Err("unknown".into()),
    }
}

#[test]
fn merged_defaults_convert_the_decoded_value() {
    // "1" (the number converted to string) converts to bool; the number itself would not.
    assert_eq!(
        decoded_then_converted("1", "string", "bool"),
        Ok("true".into())
    );
    assert_eq!(
        decoded_then_converted("\"1\"", "number", "bool"),
        Err("bool required".into())
    );
    // The base type's optional() default is applied at decode time; the new type's is not.
    assert_eq!(
        decoded_then_converted(
            "{ a = \"x\" }",
            "object({ a = string, b = optional(string, \"y\") })",
            "object({ a = string, b = optional(string, \"z\"), c = optional(number) })",
        ),
        Ok("{ a = \"x\", b = \"y\", c = null }".into())
    );
    // A set is deduplicated and ordered before it becomes a list.
    assert_eq!(
        decoded_then_converted("[\"b\", \"a\", \"b\"]", "set(string)", "list(string)"),
        Ok("[\"a\", \"b\"]".into())
    );
    assert_eq!(
        decoded_then_converted("[10, 9, 10.0]", "set(number)", "list(string)"),
        Ok("[\"9\", \"10\"]".into())
    );
    // Unordered sets of structures are not guessed at.
    assert_eq!(
        decoded_then_converted("[{ a = 1 }]", "set(object({ a = number }))", "list(any)"),
        Err("unknown".into())
    );
    assert_eq!(
        decoded_then_converted("{ k = 1 }", "map(number)", "map(string)"),
        Ok("{ k = \"1\" }".into())
    );
}

#[test]
fn native_text_of_values_escapes_templates() {
    let value = Value::of_literal(&json_string("${x} \"q\" %{y}")).expect("a literal");
    assert_eq!(value.to_native(), "\"$${x} \\\"q\\\" %%{y}\"");
    // A literal `$${` is text, not an escape: it needs one more `$`.
    let escaped = Value::of_literal(&json_string("a$${b}")).expect("a literal");
    assert_eq!(escaped.to_native(), "\"a$$${b}\"");
    let keys = Value::of_literal(&expr("{ \"a b\" = null, \"true\" = 1 }")).expect("a literal");
    assert_eq!(keys.to_native(), "{ \"a b\" = null, \"true\" = 1 }");
}
