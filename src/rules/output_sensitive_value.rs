//! An output whose value holds a value marked sensitive, without `sensitive = true`.
//! `validate` evaluates each root module output and refuses one whose value carries the
//! sensitive mark unless the output is declared sensitive: hashicorp/terraform
//! `internal/terraform/node_output.go` ("Output refers to sensitive values"). An override file
//! can cause it by making a variable sensitive, or by removing an output's `sensitive`.
//!
//! Reported only where the mark is certain without evaluating: the output's effective `value`
//! is built of `var.NAME` references, literals, lists, tuples and objects (whose values keep
//! their elements' marks), or `local.NAME` references to such values, at least one names a variable whose effective `sensitive` is the
//! literal `true`, and the output's `sensitive` is absent or the literal `false`. Left alone:
//! function calls (`nonsensitive` removes the mark), templates, operators, conditionals and `for`
//! expressions, references to anything but input variables and local values (resources,
//! module outputs, whose marks come from evaluation or provider schemas), traversals into a variable
//! (`var.v.x`, which may be an error of its own), undeclared variables (then the output is not
//! evaluated), ephemeral variables and outputs (another error), variables with both `type` and
//! `default` (whose default may fail to convert), and outputs in JSON files.

use crate::diagnostic::Diagnostic;
use crate::module::merge::{Address, MergedObject};
use crate::source::Syntax;
use crate::syntax::{Expr, ExprKind, TraversalStep};

use crate::lint::helpers::syntax_of;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "output_sensitive_value",
    kind: Validate,
    summary: "an output whose value is sensitive, without `sensitive = true`",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for output in &ctx.module.objects {
        let Address::Output(name) = &output.address else {
            continue;
        };
        if syntax_of(ctx, output.base_header) != Syntax::Native
            || output.body.attribute("ephemeral").is_some()
        {
            continue;
        }
        match output.body.attribute("sensitive").map(|a| &a.expr.kind) {
            None | Some(ExprKind::Bool(false)) => {}
            Some(_) => continue,
        }
        let Some(value) = output.body.attribute("value") else {
            continue;
        };
        let mut variables = Vec::new();
        if !plain_variable_references(ctx, &value.expr, &mut variables, LOCALS_DEPTH) {
            continue;
        }
        let mut sensitive = false;
        let mut certain = true;
        for name in variables {
            match variable_sensitivity(ctx, name) {
                Some(true) => sensitive = true,
                Some(false) => {}
                None => certain = false,
            }
        }
        if sensitive && certain {
            out.push(output_sensitive_value_diagnostic(ctx, output, name));
        }
    }
}

/// How many local values deep a value is followed; beyond, and for a cycle (the tools' own
/// error), the rule says nothing.
const LOCALS_DEPTH: usize = 8;

/// Collects the variables `expr` reads into `names`, and says whether `expr` is only literals,
/// tuples, objects, plain `var.NAME` references and plain `local.NAME` references to such
/// values: values that keep every element's mark.
fn plain_variable_references<'e>(
    ctx: &'e Context,
    expr: &'e Expr,
    names: &mut Vec<&'e str>,
    depth: usize,
) -> bool {
    let mut plain = |e: &'e Expr| plain_variable_references(ctx, e, names, depth);
    match &expr.kind {
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::String(_) => true,
        ExprKind::Tuple(items) => items.iter().all(plain),
        ExprKind::Object(items) => items.iter().all(|i| {
            matches!(i.key.kind, ExprKind::String(_) | ExprKind::Variable(_)) && plain(&i.value)
        }),
        ExprKind::Parenthesis(inner) => plain(inner),
        ExprKind::Traversal { root, steps } => match (&root.kind, steps.as_slice()) {
            (ExprKind::Variable(root), [TraversalStep::Attr(name)]) if root == "var" => {
                names.push(name);
                true
            }
            (ExprKind::Variable(root), [TraversalStep::Attr(name)])
                if root == "local" && depth > 0 =>
            {
                ctx.module.local(name).is_some_and(|local| {
                    plain_variable_references(ctx, &local.attribute.expr, names, depth - 1)
                })
            }
            _ => false,
        },
        ExprKind::Template
        | ExprKind::Variable(_)
        | ExprKind::FunctionCall { .. }
        | ExprKind::Other => false,
    }
}

/// Whether the variable `name` is sensitive; `None` when it is undeclared, or when the tools
/// may refuse it before evaluating the output.
fn variable_sensitivity(ctx: &Context, name: &str) -> Option<bool> {
    let variable: &MergedObject = ctx.module.object(&Address::Variable(name.to_string()))?;
    let body = &variable.body;
    let typed_default = body.attribute("type").is_some() && body.attribute("default").is_some();
    if typed_default || body.attribute("ephemeral").is_some() {
        return None;
    }
    match body.attribute("sensitive").map(|a| &a.expr.kind) {
        None | Some(ExprKind::Bool(false)) => Some(false),
        Some(ExprKind::Bool(true)) => Some(true),
        Some(_) => None,
    }
}

/// Terraform's "Output refers to sensitive values", at the output block's header.
fn output_sensitive_value_diagnostic(
    ctx: &Context,
    output: &MergedObject,
    name: &str,
) -> Diagnostic {
    ctx.finding(&RULE, "Output refers to sensitive values")
        .at(
            ctx.files,
            output.base_header,
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
        // Not certain without evaluating: a template, a JSON output, local values in a cycle.
        &[
            ("vars.tf", SECRET),
            (
                "main.tf",
                "locals {\n  l = local.m\n  m = [local.l, var.v]\n}\n\
                 output \"o\" {\n  value = local.l\n}\n",
            ),
        ],
        &[
            ("vars.tf", SECRET),
            ("main.tf", "output \"o\" {\n  value = \"x${var.v}\"\n}\n"),
        ],
        &[
            ("vars.tf", SECRET),
            (
                "main.tf.json",
                "{\"output\": {\"o\": {\"value\": \"${var.v}\"}}}",
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
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
