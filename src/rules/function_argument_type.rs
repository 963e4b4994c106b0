//! Literal arguments of built-in functions that cannot be what the function takes: `Invalid
//! function argument`, at the argument. HCL converts each argument to its parameter's type
//! before it runs a function and reports each that does not convert (hashicorp/hcl
//! `hclsyntax/expression.go`, `FunctionCallExpr.Value`, with go-cty's `convert` messages); the
//! function then refuses a `null` its parameter does not take (go-cty `function.Function.Call`),
//! and the conversion functions (`tostring`, `tolist`, ...) refuse what they cannot convert
//! (hashicorp/terraform `internal/lang/funcs/conversion.go`).
//!
//! Judged only where the argument is a literal whose type decides it (a list for a string, a
//! string without digits for a number, a `null`), in the calls the tools certainly evaluate
//! with the right number of arguments (`function_argument_count` reports the others). Values the
//! tools compute (a reference, a call, a template) are theirs to judge.

use crate::diagnostic::Diagnostic;
use crate::knowledge::function_signatures::{Parameter, ParameterType, Signature};
use crate::lint::helpers::evaluated_calls::{self, Unevaluated, judged_signature};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};
use crate::syntax::{Argument, Call, Literal, catches_errors};

pub(crate) const RULE: Rule = declare_rule! {
    id: "function_argument_type",
    kind: Validate,
    summary: "a literal argument a built-in function cannot take",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    // HCL evaluates nothing in the arguments of a call it refuses.
    let mut unevaluated = Unevaluated::new(ctx);
    evaluated_calls::for_each_expression(ctx.module, &mut |calls| {
        unevaluated.next_expression();
        for &call in calls {
            if !unevaluated.reached(ctx, call) {
                continue;
            }
            // `try` and `can` take their arguments as expressions, not values (hashicorp/hcl
            // `ext/tryfunc`, `customdecode.ExpressionClosureType`): `try(x, null)` is fine.
            if catches_errors(&call.name) {
                continue;
            }
            let Some(signature) = judged_signature(ctx, call) else {
                continue;
            };
            let given = call.arguments.items.len();
            let count_right = given >= signature.parameters.len()
                && (given == signature.parameters.len() || signature.variadic.is_some());
            if count_right {
                judge_arguments(ctx, call, signature, out);
            }
        }
    });
}

/// The arguments of a call with the right number of them.
fn judge_arguments(ctx: &Context, call: &Call, signature: &Signature, out: &mut Vec<Diagnostic>) {
    let arguments = &call.arguments.items;
    let mut converted = true;
    for (argument, parameter) in arguments.iter().zip(parameters(signature)) {
        if let Some(literal) = argument.literal
            && let Some(problem) = conversion_problem(literal, parameter.ty)
        {
            out.push(invalid_argument(ctx, call, argument, parameter, &problem));
            converted = false;
        }
    }
    // The function runs (and checks nulls, then converts) only when every argument converted;
    // it checks nulls in order and stops at an argument whose type is not yet known.
    if !converted {
        return;
    }
    for (argument, parameter) in arguments.iter().zip(parameters(signature)) {
        match argument.literal {
            Some(Literal::Null) if !parameter.nullable => {
                let problem = "argument must not be null";
                out.push(invalid_argument(ctx, call, argument, parameter, problem));
                return;
            }
            Some(literal) => {
                if let Some(problem) = conversion_function_problem(&call.name, literal) {
                    out.push(invalid_argument(ctx, call, argument, parameter, &problem));
                    return;
                }
            }
            None => return,
        }
    }
}

/// The parameter of each argument in turn: the fixed ones, then the variadic one.
fn parameters(signature: &Signature) -> impl Iterator<Item = &Parameter> {
    signature
        .parameters
        .iter()
        .chain(std::iter::repeat_n(signature.variadic.as_ref(), usize::MAX).flatten())
}

/// go-cty's name of a literal's type.
fn type_name(literal: Literal) -> &'static str {
    match literal {
        Literal::Null => "null",
        Literal::Bool => "bool",
        Literal::Number => "number",
        Literal::String { .. } => "string",
        Literal::Tuple => "tuple",
        Literal::Object => "object",
    }
}

/// Why a literal does not convert to a parameter's type, in go-cty's words (`convert`).
fn conversion_problem(literal: Literal, ty: ParameterType) -> Option<String> {
    use ParameterType as T;
    let have = type_name(literal);
    let primitive = matches!(
        literal,
        Literal::Bool | Literal::Number | Literal::String { .. }
    );
    let structural = matches!(literal, Literal::Tuple | Literal::Object);
    match ty {
        T::String | T::Number if structural => {
            Some(format!("{} required, but have {have}", ty.friendly_name()))
        }
        T::Number if literal == Literal::Bool => Some("number required, but have bool".into()),
        T::Number if literal == (Literal::String { digits: false }) => {
            Some("a number is required".into())
        }
        T::List(_) | T::Set(_) | T::Map(_) if primitive => {
            Some(format!("{} required, but have {have}", ty.friendly_name()))
        }
        T::List(element) if literal == Literal::Object => {
            Some(format!("list of {} required", single_type(element)))
        }
        T::Map(element) if literal == Literal::Tuple => {
            Some(format!("map of {} required", single_type(element)))
        }
        _ => None,
    }
}

/// go-cty's name of a collection's element type where it names what a structural value lacks.
fn single_type(element: &str) -> &str {
    if element == "dynamic" {
        "any single type"
    } else {
        element
    }
}

/// Why a conversion function (`tostring`, `tolist`, ...) cannot convert a literal.
fn conversion_function_problem(name: &str, literal: Literal) -> Option<String> {
    let target = match name.strip_prefix("core::").unwrap_or(name) {
        "tostring" => "string",
        "tonumber" => "number",
        "tobool" => "bool",
        "tolist" => "list of any single type",
        "toset" => "set of any single type",
        "tomap" => "map of any single type",
        _ => return None,
    };
    let structural = matches!(literal, Literal::Tuple | Literal::Object);
    let to_primitive = matches!(target, "string" | "number" | "bool");
    let fails = match literal {
        Literal::Null => false,
        _ if to_primitive => structural,
        _ => !structural,
    };
    fails.then(|| format!("cannot convert {} to {target}", type_name(literal)))
}

/// Invalid function argument.
fn invalid_argument(
    ctx: &Context,
    call: &Call,
    argument: &Argument,
    parameter: &Parameter,
    problem: &str,
) -> Diagnostic {
    ctx.finding(&RULE, "Invalid function argument")
        .at(
            ctx.files,
            argument.span,
            format!("not a value for `{}`", parameter.name),
        )
        .with_label(ctx.files, call.span, format!("`{}` called here", call.name))
        .with_note(format!(
            "Invalid value for \"{}\" parameter: {problem}.",
            parameter.name
        ))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[
        // Literals that convert, values the tools compute, nullable parameters.
        &[(
            "main.tf",
            r#"variable "v" {}
locals {
  a = upper(1)
  b = abs("1")
  c = join(",", ["a"], [])
  d = upper(var.v)
  e = abs("${var.v}")
  f = tonumber(null)
  g = jsonencode(null)
  h = tostring(1)
  i = tolist([])
  j = length(var.v)
  k = coalesce(null, 1)
  l = join(var.v, null)
  m = try([var.v], null)
  n = can(null)
}
"#,
        )],
        // Calls `try` guards, calls the tools may skip, a wrong count (the other rule's).
        &[(
            "main.tf",
            "variable \"b\" {}\nlocals {\n  a = try(upper([]), 1)\n  b = var.b ? abs(\"x\") : 1\n  \
             c = upper([], 1)\n}\n",
        )],
    ];

    const FAIL: &[(Files, usize)] = &[
        (&[("main.tf", "locals {\n  a = upper([])\n}\n")], 1),
        (
            &[(
                "main.tf",
                "locals {\n  a = abs(\"x\")\n  b = abs(true)\n  c = join(\",\", \"a\")\n  d = \
                 length(null)\n  e = tonumber({})\n  f = tomap(\"a\")\n  g = chunklist({}, 1)\n}\n",
            )],
            7,
        ),
        // Each argument that does not convert; no null check then.
        (
            &[("main.tf", "locals {\n  a = replace([], {}, null)\n}\n")],
            2,
        ),
        (
            &[(
                "main.tf.json",
                r#"{"output": {"o": {"value": "${upper({})}"}}}"#,
            )],
            1,
        ),
    ];

    /// In the arguments of an unknown call or of a call with the wrong number of arguments,
    /// nothing is converted: HCL refuses the outer call first.
    #[test]
    fn nothing_is_converted_in_a_refused_call() {
        let main = "locals {\n  a = nofunc(upper([]))\n  b = length(upper([]), 2)\n  c = \
                    upper([])\n}\n";
        let found = findings(&super::RULE, &[("main.tf", main)]);
        assert_eq!(found.len(), 1, "{found:?}");
    }

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// The tools' details (Terraform 1.15.5 `validate`).
    #[test]
    fn messages() {
        let main = "locals {\n  a = upper({})\n  b = abs(\"\")\n  c = distinct(\"a\")\n  d = \
                    join(\",\", null)\n  e = tostring([])\n  f = transpose([])\n}\n";
        let mut found = findings(&super::RULE, &[("main.tf", main)]);
        found.sort_by_key(|d| d.primary.as_ref().map(|p| p.start()));
        let notes: Vec<&str> = found.iter().map(|d| &*d.notes[0]).collect();
        assert_eq!(
            notes,
            [
                "Invalid value for \"str\" parameter: string required, but have object.",
                "Invalid value for \"num\" parameter: a number is required.",
                "Invalid value for \"list\" parameter: list of dynamic required, but have string.",
                "Invalid value for \"lists\" parameter: argument must not be null.",
                "Invalid value for \"v\" parameter: cannot convert tuple to string.",
                "Invalid value for \"values\" parameter: map of list of string required.",
            ]
        );
    }
}
