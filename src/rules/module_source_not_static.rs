//! A module `source` or `version` the tool cannot resolve before evaluation: Terraform needs a
//! literal string; OpenTofu (≥ 1.8) a static expression. Modules are installed before anything
//! is evaluated, so the module fails to load.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::syntax::{Attribute, Block, Expr, ExprKind, scan::references};

use crate::lint::helpers::{json_interpolates, module_calls};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_source_not_static",
    severity: Error,
    default: On,
    summary: "a module source or version the tool cannot resolve before evaluating the module",
    check: Check::View(RuleViews::Both, check),
};

const TERRAFORM_ALSO: &str = " OpenTofu 1.8 and later accept static expressions here, so the \
                              module loads there but not in Terraform.";

const OPENTOFU_HELP: &str = "use only literals, variables, locals, `path.*`, \
                             `terraform.workspace` and built-in functions";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for call in module_calls(ctx) {
        for name in ["source", "version"] {
            let Some(attr) = call.body.attribute(name) else {
                continue;
            };
            let problem = match ctx.view {
                View::Terraform => terraform_problem(&attr.expr),
                View::OpenTofu => opentofu_problem(ctx, &attr.expr),
            };
            if let Some((summary, why)) = problem {
                out.push(not_static(ctx, call, attr, summary, why));
            }
        }
    }
}

/// `Variables not allowed` and the like, on a `source` or `version` the view's tool cannot
/// resolve before evaluation.
fn not_static(
    ctx: &Context,
    call: &Block,
    attr: &Attribute,
    summary: &str,
    why: String,
) -> Diagnostic {
    let (also, help) = match ctx.view {
        View::Terraform => (TERRAFORM_ALSO, "write the value as a literal string"),
        View::OpenTofu => ("", OPENTOFU_HELP),
    };
    ctx.finding(&RULE, summary)
        .at(ctx.files, attr.expr.span, why)
        .with_label(ctx.files, call.header_span, "in this module call")
        .with_note(format!(
            "Modules are installed before anything is evaluated, so `{}` must be known from the \
             configuration alone.{also}",
            attr.name
        ))
        .with_help(help)
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
    if expr.json_string.is_some() && !json_interpolates(expr) {
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
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[
        &[("main.tf", "module \"a\" {\n  source = \"./a\"\n}\n")],
        &[("main.tf.json", r#"{"module": {"a": {"source": "./a"}}}"#)],
    ];
    const FAIL: &[(Files, usize)] = &[
        // OpenTofu accepts a variable, Terraform does not: one finding, Terraform view.
        (&[("main.tf", VARIABLE_SOURCE)], 1),
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
    ];

    const VARIABLE_SOURCE: &str = "module \"a\" {\n  source = \"./modules/${var.name}\"\n}\n";

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn a_variable_source_is_an_error_for_terraform_only() {
        let found = findings(&super::RULE, &[("main.tf", VARIABLE_SOURCE)]);
        assert_eq!(found[0].message, "Variables not allowed");
        assert_eq!(found[0].views, crate::diagnostic::Views::TERRAFORM);
    }
}
