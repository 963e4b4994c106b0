//! Calls of built-in functions with too few or too many arguments: `Not enough function
//! arguments` (at the closing parenthesis) and `Too many function arguments` (at the first
//! argument too many), HCL's own checks before it runs a function (hashicorp/hcl
//! `hclsyntax/expression.go`, `FunctionCallExpr.Value`), with the parameters each function has
//! (`knowledge::function_signatures`).
//!
//! What `validate` refuses, judged only where the tools certainly evaluate the call
//! (`lint::helpers::evaluated_calls`: not in `try` or `can`, not in a conditional's results or a
//! `for` body). A call whose last argument is expanded (`f(list...)`) is left alone: how many
//! arguments it passes is the list's length. HCL checks the count before it evaluates any
//! argument, so the calls in the arguments of a call it refuses are not judged.

use crate::diagnostic::Diagnostic;
use crate::knowledge::function_signatures::Signature;
use crate::lint::helpers::evaluated_calls::{self, Unevaluated, judged_signature};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};
use crate::syntax::Call;

pub(crate) const RULE: Rule = declare_rule! {
    id: "function_argument_count",
    kind: Validate,
    summary: "a call of a built-in function with too few or too many arguments",
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
            let Some(signature) = judged_signature(ctx, call) else {
                continue;
            };
            if let Some(finding) = count_problem(ctx, call, signature) {
                out.push(finding);
            }
        }
    });
}

fn count_problem(ctx: &Context, call: &Call, signature: &Signature) -> Option<Diagnostic> {
    let given = call.arguments.items.len();
    let expected = signature.parameters.len();
    if given < expected {
        let missing = signature.parameters[given].name;
        return Some(not_enough_arguments(ctx, call, signature, missing));
    }
    if given > expected && signature.variadic.is_none() {
        return Some(too_many_arguments(ctx, call, expected));
    }
    None
}

/// Not enough function arguments.
fn not_enough_arguments(
    ctx: &Context,
    call: &Call,
    signature: &Signature,
    missing: &str,
) -> Diagnostic {
    let at_least = if signature.variadic.is_some() {
        " at least"
    } else {
        ""
    };
    let expected = signature.parameters.len();
    ctx.finding(&RULE, "Not enough function arguments")
        .at(
            ctx.files,
            call.arguments.close,
            format!("`{missing}` is missing"),
        )
        .with_label(ctx.files, call.span, format!("`{}` called here", call.name))
        .with_note(format!(
            "Function \"{}\" expects{at_least} {expected} argument(s). Missing value for \
             \"{missing}\".",
            call.name
        ))
}

/// Too many function arguments.
fn too_many_arguments(ctx: &Context, call: &Call, expected: usize) -> Diagnostic {
    let extra = call.arguments.items[expected].span;
    ctx.finding(&RULE, "Too many function arguments")
        .at(ctx.files, extra, "one argument too many")
        .with_label(ctx.files, call.span, format!("`{}` called here", call.name))
        .with_note(format!(
            "Function \"{}\" expects only {expected} argument(s).",
            call.name
        ))
        .with_help("remove the extra arguments")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "locals {\n  a = upper(\"a\")\n  b = join(\",\", [], [])\n  c = timestamp()\n}\n",
        )],
        // Calls the tools may leave unevaluated, or whose errors `try` and `can` catch.
        &[(
            "main.tf",
            r#"variable "b" {}
variable "l" {}
locals {
  a = var.b ? upper() : lower()
  c = [for s in split(",", "") : upper(s, 1)]
  d = try(upper(), 1) + abs(1)
  e = var.b && upper("") == ""
  f = "%{ if true }${upper()}%{ endif }${lower("")}"
  g = var.l[*].a[upper()]
  h = can(upper("a", "b"))
  i = max([1, 2]...)
  j = upper(["a", "b"]...)
}
resource "terraform_data" "r" {
  dynamic "x" {
    for_each = toset([])
    content {
      y = upper()
    }
  }
}
"#,
        )],
        // Arguments read literally, unknown and provider-defined functions.
        &[(
            "main.tf",
            "variable \"v\" {\n  default = upper()\n}\nlocals {\n  a = nofunc()\n  b = \
             provider::aws::f()\n}\n",
        )],
        // An override replaced the base's call.
        &[
            ("main.tf", "locals {\n  a = upper()\n}\n"),
            ("override.tf", "locals {\n  a = upper(\"a\")\n}\n"),
        ],
        // A function no targeted release has is `unknown_function`'s.
        &[(
            "main.tf",
            "terraform {\n  required_version = \"~> 1.7.0\"\n}\nlocals {\n  a = \
             issensitive()\n}\n",
        )],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[("main.tf", "locals {\n  a = upper(\"a\", \"b\")\n}\n")],
            1,
        ),
        (&[("main.tf", "output \"o\" {\n  value = join()\n}\n")], 1),
        (
            &[(
                "main.tf.json",
                r#"{"locals": {"a": "${upper()}", "b": "x-${core::lower(\"a\", 1)}"}}"#,
            )],
            2,
        ),
        // Only the outer call: HCL evaluates no argument of a call it refuses.
        (&[("main.tf", "locals {\n  a = upper(lower(), 1)\n}\n")], 1),
        // Both arguments of a call it accepts are evaluated.
        (
            &[(
                "main.tf",
                "locals {\n  a = concat(upper(), lower(1, 2))\n}\n",
            )],
            2,
        ),
        // In a condition, before `&&`, in a `for` collection, an index, a resource.
        (
            &[(
                "main.tf",
                "locals {\n  a = upper() == \"\" ? 1 : 2\n  b = abs() == 1 && true\n  c = [for \
                 s in split() : s]\n  d = local.a[lower()]\n}\nresource \"terraform_data\" \"r\" \
                 {\n  input = timestamp(1)\n}\n",
            )],
            5,
        ),
        // An override's call where it wins.
        (
            &[
                ("main.tf", "locals {\n  a = upper(\"a\")\n}\n"),
                ("override.tf", "locals {\n  a = upper()\n}\n"),
            ],
            1,
        ),
    ];

    /// In the arguments of an unknown call, nothing is counted: HCL looks the outer function
    /// up first (Terraform 1.15.5 `validate` reports only `nofunc`).
    #[test]
    fn nothing_is_counted_in_an_unknown_call() {
        let main = "locals {\n  a = nofunc(upper(\"a\", \"b\"))\n  b = upper(upper())\n}\n";
        let found = findings(&super::RULE, &[("main.tf", main)]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].message, "Not enough function arguments");
    }

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// The tools' texts and places: a missing argument at the closing parenthesis, an extra one
    /// at its start, the name as written.
    #[test]
    fn messages_and_places() {
        let main = "locals {\n  a = core::join(\n  )\n  b = upper(\"a\",\n    \"b\")\n}\n";
        let mut found = findings(&super::RULE, &[("main.tf", main)]);
        found.sort_by_key(|d| d.primary.as_ref().map(|p| p.start()));
        let described: Vec<_> = found
            .iter()
            .map(|d| {
                let primary = d.primary.as_ref().expect("a place");
                (&*d.message, &*d.notes[0], primary.start())
            })
            .collect();
        assert_eq!(
            described,
            [
                (
                    "Not enough function arguments",
                    "Function \"core::join\" expects at least 1 argument(s). Missing value for \
                     \"separator\".",
                    (3, 3)
                ),
                (
                    "Too many function arguments",
                    "Function \"upper\" expects only 1 argument(s).",
                    (5, 5)
                ),
            ]
        );
    }
}
