//! An output whose value holds a value marked sensitive, without `sensitive = true`.
//! `validate` evaluates each root module output and refuses one whose value carries the
//! sensitive mark unless the output is declared sensitive: hashicorp/terraform
//! `internal/terraform/node_output.go` ("Output refers to sensitive values"). An override file
//! can cause it by making a variable sensitive, or by removing an output's `sensitive`.
//!
//! Reported only where the mark is certain without evaluating (see
//! [`crate::lint::helpers::marks`]): the output's effective `value`, native or JSON, carries an
//! input variable whose effective `sensitive` is the literal `true` through local values,
//! lists, objects, templates, comparisons and conditionals (`? :`, `%{ if }`) on an unknown
//! condition, and the output's `sensitive` is absent or the literal `false`. Function calls,
//! other operators, `for` expressions and `%{ for }`, resources' and modules' attributes are
//! left to evaluation, as are ephemeral outputs (another error).

use crate::diagnostic::Diagnostic;
use crate::module::merge::{Address, MergedObject};
use crate::source::{Span, Syntax};
use crate::syntax::ExprKind;

use crate::lint::helpers::marks::Evaluator;
use crate::lint::helpers::syntax_of;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "output_sensitive_value",
    kind: Validate,
    summary: "an output whose value is sensitive, without `sensitive = true`",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    // The evaluator's only source of a mark is an input variable declared `sensitive = true`:
    // a module without one has no output to report, and most modules have none.
    let marks_a_variable = ctx.module.objects.iter().any(|object| {
        matches!(object.address, Address::Variable(_))
            && matches!(
                object.body.attribute("sensitive").map(|a| &a.expr.kind),
                Some(ExprKind::Bool(true))
            )
    });
    if !marks_a_variable {
        return;
    }
    let evaluator = Evaluator::new(ctx);
    for output in &ctx.module.objects {
        let Address::Output(name) = &output.address else {
            continue;
        };
        if output.body.attribute("ephemeral").is_some() {
            continue;
        }
        match output.body.attribute("sensitive").map(|a| &a.expr.kind) {
            None | Some(ExprKind::Bool(false)) => {}
            Some(_) => continue,
        }
        let Some(value) = output.body.attribute("value") else {
            continue;
        };
        let Some(text) = ctx.files.get(value.expr.span.file).whole_text() else {
            continue;
        };
        if evaluator
            .value_of(&value.expr, text)
            .is_some_and(|v| v.sensitive)
        {
            out.push(output_sensitive_value_diagnostic(ctx, output, name));
        }
    }
}

/// Where the tools report an output: its block's `DeclRange`, which in a JSON file is the key
/// of its label (hashicorp/hcl `json/structure.go`), in a native one the block's header.
fn declaration(ctx: &Context, output: &MergedObject) -> Span {
    match output.labels.last() {
        Some(label)
            if label.span.file == output.base_header.file
                && syntax_of(ctx, output.base_header) == Syntax::Json =>
        {
            label.span
        }
        _ => output.base_header,
    }
}

/// Terraform's "Output refers to sensitive values", at the output's declaration.
fn output_sensitive_value_diagnostic(
    ctx: &Context,
    output: &MergedObject,
    name: &str,
) -> Diagnostic {
    ctx.finding(&RULE, "Output refers to sensitive values")
        .at(
            ctx.files,
            declaration(ctx, output),
            format!("output `{name}` holds a sensitive value"),
        )
        .with_note(
            "To reduce the risk of accidentally exporting sensitive data that was intended to be \
             only internal, Terraform requires that any root module output containing sensitive \
             data be explicitly marked as sensitive, to confirm your intent. If you do intend \
             to export this data, annotate the output value as sensitive by adding the \
             argument `sensitive = true`.",
        )
        .with_help("add `sensitive = true` to the output, or leave the sensitive value out of it")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const SECRET: &str = "variable \"v\" {\n  sensitive = true\n}\n";

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "variable \"v\" {}\noutput \"o\" {\n  value = var.v\n}\n",
        )],
        &[
            ("vars.tf", SECRET),
            (
                "main.tf",
                "output \"o\" {\n  value = var.v\n  sensitive = true\n}\n",
            ),
        ],
        // `nonsensitive` removes the mark; other functions are not judged.
        &[
            ("vars.tf", SECRET),
            (
                "main.tf",
                "output \"o\" {\n  value = nonsensitive(var.v)\n}\n",
            ),
        ],
        // An undeclared variable: the output is not evaluated.
        &[
            ("vars.tf", SECRET),
            (
                "main.tf",
                "output \"o\" {\n  value = [var.v, var.nope]\n}\n",
            ),
        ],
        // An override makes the output sensitive.
        &[
            ("vars.tf", SECRET),
            ("main.tf", "output \"o\" {\n  value = var.v\n}\n"),
            ("o_override.tf", "output \"o\" {\n  sensitive = true\n}\n"),
        ],
        // An override makes the variable not sensitive.
        &[
            ("vars.tf", SECRET),
            ("main.tf", "output \"o\" {\n  value = var.v\n}\n"),
            (
                "o_override.tf",
                "variable \"v\" {\n  sensitive = false\n}\n",
            ),
        ],
        // Not certain without evaluating: local values in a cycle.
        &[
            ("vars.tf", SECRET),
            (
                "main.tf",
                "locals {\n  l = local.m\n  m = [local.l, var.v]\n}\n\
                 output \"o\" {\n  value = local.l\n}\n",
            ),
        ],
        // Marks lost, or evaluation stopped by an error, in 1.15.5 validate: a `for` directive
        // whose body is unknown, a unary operator on an unknown value, a tuple in a template,
        // results of types that do not unify.
        &[
            ("vars.tf", SECRET),
            (
                "main.tf",
                "output \"a\" {\n  value = \"%{for x in [1]}${var.v}%{endfor}\"\n}\n\
                 output \"b\" {\n  value = -var.v\n}\n\
                 output \"c\" {\n  value = \"${[var.v]}-x\"\n}\n\
                 output \"d\" {\n  value = var.v == \"\" ? \"a\" : [1]\n}\n",
            ),
        ],
        // Not followed: a conditional on a known condition (before 1.12 only the chosen
        // result's marks are kept), arithmetic (before 1.12 an unknown operand's mark is lost).
        &[
            ("vars.tf", SECRET),
            (
                "main.tf",
                "output \"a\" {\n  value = false ? var.v : \"z\"\n}\n\
                 output \"b\" {\n  value = var.v + 1\n}\n",
            ),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("vars.tf", SECRET),
                ("main.tf", "output \"o\" {\n  value = var.v\n}\n"),
            ],
            1,
        ),
        // An override makes the variable sensitive.
        (
            &[
                ("vars.tf", "variable \"v\" {}\n"),
                ("main.tf", "output \"o\" {\n  value = var.v\n}\n"),
                ("o_override.tf", SECRET),
            ],
            1,
        ),
        // An override takes the output's `sensitive` back.
        (
            &[
                ("vars.tf", SECRET),
                (
                    "main.tf",
                    "output \"o\" {\n  value = var.v\n  sensitive = true\n}\n",
                ),
                ("o_override.tf", "output \"o\" {\n  sensitive = false\n}\n"),
            ],
            1,
        ),
        // Inside a list and an object; `sensitive = false` as written.
        (
            &[
                ("vars.tf", SECRET),
                (
                    "main.tf",
                    "output \"a\" {\n  value = [var.v, 1]\n}\n\
                     output \"b\" {\n  value = { k = (var.v) }\n  sensitive = false\n}\n",
                ),
            ],
            2,
        ),
        // Through local values, in an object and a list (1.15.5 validate says so).
        (
            &[
                ("vars.tf", SECRET),
                (
                    "main.tf",
                    "locals {\n  l = var.v\n  m = { a = [local.l] }\n}\n\
                     output \"o\" {\n  value = local.m\n}\n",
                ),
            ],
            1,
        ),
        // A string template (1.6.6 to 1.15.5 validate).
        (
            &[
                ("vars.tf", SECRET),
                ("main.tf", "output \"o\" {\n  value = \"x-${var.v}\"\n}\n"),
            ],
            1,
        ),
        // JSON outputs: a single interpolation, a template inside one, a list.
        (
            &[
                ("vars.tf", SECRET),
                (
                    "main.tf.json",
                    "{\"output\": {\"a\": {\"value\": \"${var.v}\"},\n\
                     \"b\": {\"value\": \"${\\\"b-${var.v}\\\"}\"},\n\
                     \"c\": {\"value\": [\"x-${var.v}\"]}}}",
                ),
            ],
            3,
        ),
        // A JSON override gives a native output its value.
        (
            &[
                ("vars.tf", SECRET),
                ("main.tf", "output \"o\" {\n  value = 1\n}\n"),
                (
                    "o_override.tf.json",
                    "{\"output\": {\"o\": {\"value\": \"${\\\"${var.v}-x\\\"}\"}}}",
                ),
            ],
            1,
        ),
        // Comparisons, and conditionals on an unknown condition, whose marks are the
        // condition's and both results' (1.6.6 to 1.15.5).
        (
            &[
                ("vars.tf", SECRET),
                (
                    "main.tf",
                    "variable \"b\" {\n  type = bool\n}\n\
                     locals {\n  base = \"x\"\n}\n\
                     output \"a\" {\n  value = var.v != \"\" ? local.base : \"y\"\n}\n\
                     output \"b\" {\n  value = var.b ? \"a\" : var.v\n}\n\
                     output \"c\" {\n  value = var.v == \"d\"\n}\n",
                ),
            ],
            3,
        ),
        // An `if` directive on a sensitive, unknown condition (1.6.6 to 1.15.5).
        (
            &[
                ("vars.tf", SECRET),
                (
                    "main.tf",
                    "output \"o\" {\n  value = \"a-%{ if var.v != \"\" }b%{ endif }\"\n}\n",
                ),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
