//! A module `source` or `version` the tool cannot resolve before evaluation: Terraform needs a
//! literal string; OpenTofu (≥ 1.8) a static expression.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::syntax::{Expr, ExprKind, scan::references};

use crate::lint::helpers::module_calls;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_source_not_static",
    severity: Error,
    default: On,
    summary: "a module source or version the tool cannot resolve before evaluating the module",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for block in module_calls(ctx) {
        for name in ["source", "version"] {
            let Some(attr) = block.body.attribute(name) else {
                continue;
            };
            let problem = match ctx.view {
                View::Terraform => terraform_problem(&attr.expr),
                View::OpenTofu => opentofu_problem(ctx, &attr.expr),
            };
            let Some((summary, why)) = problem else {
                continue;
            };
            let other = match ctx.view {
                View::Terraform => {
                    " OpenTofu 1.8 and later accept static expressions here, so the module loads there but not in Terraform."
                }
                View::OpenTofu => "",
            };
            out.push(
                ctx.finding(&RULE, summary)
                    .at(ctx.files, attr.expr.span, why)
                    .with_label(ctx.files, block.header_span, "in this module call")
                    .with_note(format!("Modules are installed before anything is evaluated, so `{name}` must be known from the configuration alone.{other}"))
                    .with_help(match ctx.view {
                        View::Terraform => "write the value as a literal string",
                        View::OpenTofu => "use only literals, variables, locals, `path.*`, `terraform.workspace` and built-in functions",
                    }),
            );
        }
    }
}

/// Terraform: only a literal string (JSON strings are read literally).
fn terraform_problem(expr: &Expr) -> Option<(&'static str, String)> {
    if expr.json_string.is_some() || matches!(expr.kind, ExprKind::String(_) | ExprKind::Null) {
        return None;
    }
    if matches!(expr.kind, ExprKind::FunctionCall { .. }) {
        return Some((
            "Function calls not allowed",
            "Terraform needs a literal string here".into(),
        ));
    }
    Some((
        "Variables not allowed",
        "Terraform needs a literal string here".into(),
    ))
}

/// OpenTofu: static references only.
fn opentofu_problem(ctx: &Context, expr: &Expr) -> Option<(&'static str, String)> {
    if expr.json_string.is_some()
        && !expr
            .json_string
            .as_deref()
            .is_some_and(|s| s.contains("${"))
    {
        return None;
    }
    let text = match &expr.json_string {
        Some(s) => format!("\"{s}\""),
        None => ctx.files.text(expr.span).to_string(),
    };
    for reference in references(&text) {
        let root = reference.split('.').next().unwrap_or("");
        let problem = if reference.starts_with("provider::") {
            (
                "Provider function in static context",
                format!("`{reference}` is a provider function"),
            )
        } else if root == "module" {
            (
                "Module output not supported in static context",
                format!("`{reference}` is a module output"),
            )
        } else if matches!(root, "var" | "local" | "path" | "terraform") {
            continue;
        } else {
            (
                "Dynamic value in static context",
                format!("`{reference}` is only known while planning"),
            )
        };
        return Some(problem);
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{check_table, findings};

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[
                &[("main.tf", "module \"a\" {\n  source = \"./a\"\n}\n")],
                &[("main.tf.json", r#"{"module": {"a": {"source": "./a"}}}"#)],
            ],
            &[
                // OpenTofu accepts a variable, Terraform does not: one finding, Terraform view.
                (
                    &[(
                        "main.tf",
                        "module \"a\" {\n  source = \"./modules/${var.name}\"\n}\n",
                    )],
                    1,
                ),
                // Neither accepts a resource attribute: one finding per view (different words).
                (
                    &[(
                        "main.tf",
                        "module \"a\" {\n  source = aws_s3_bucket.b.id\n}\n",
                    )],
                    2,
                ),
                (
                    &[(
                        "main.tofu",
                        "module \"a\" {\n  source = module.other.path\n}\n",
                    )],
                    1,
                ),
            ],
        );
    }

    #[test]
    fn a_variable_source_is_an_error_for_terraform_only() {
        let found = findings(
            &super::RULE,
            &[(
                "main.tf",
                "module \"a\" {\n  source = \"./modules/${var.name}\"\n}\n",
            )],
        );
        assert_eq!(found[0].message, "Variables not allowed");
        assert_eq!(found[0].views, crate::diagnostic::Views::TERRAFORM);
    }
}
