//! A module `source` or `version` the tool cannot resolve before evaluation: Terraform before
//! 1.15 needs a literal string, Terraform 1.15 and later a literal, local values or `const`
//! input variables; OpenTofu (≥ 1.8) a static expression. Modules are installed before anything
//! is evaluated, so the module fails to load. Reported when every targeted release refuses it.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::releases::Release;
use crate::module::merge::AddressKey;
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
                View::Terraform => terraform_refusal(ctx, &attr.expr, name),
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
    summary: &'static str,
    why: String,
) -> Diagnostic {
    let (also, help) = match ctx.view {
        View::Terraform if ctx.targets.lowest() >= TERRAFORM_CONST => ("", TERRAFORM_CONST_HELP),
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

/// The first Terraform release that reads local values and `const` variables in a module's
/// `source` and `version`.
const TERRAFORM_CONST: Release = Release::new(1, 15);

const TERRAFORM_CONST_HELP: &str = "use only literals, local values and input variables declared \
                                    with `const = true`";

/// Terraform: what every targeted release says, if every one refuses the expression (the
/// lowest one's words); nothing when some targeted release accepts it.
fn terraform_refusal(ctx: &Context, expr: &Expr, name: &str) -> Option<(&'static str, String)> {
    let mut problems = ctx.targets.releases.iter().map(|&release| match release {
        r if r >= TERRAFORM_CONST => terraform_const_problem(ctx, expr, name),
        _ => terraform_problem(expr),
    });
    let first = problems.next()??;
    problems.all(|p| p.is_some()).then_some(first)
}

/// Terraform ≥ 1.15: literals, local values and `const` input variables (hashicorp/terraform
/// v1.15.0 `internal/terraform/node_module_install.go`).
fn terraform_const_problem(
    ctx: &Context,
    expr: &Expr,
    name: &str,
) -> Option<(&'static str, String)> {
    for reference in static_references(ctx, expr)? {
        let mut parts = reference.split('.');
        let (root, variable) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        match root {
            "local" | "path" => continue,
            "var" if is_const_variable(ctx, variable) => continue,
            "var" => {
                let summary = match name {
                    "version" => "Unknown module version",
                    _ => "Unknown module source",
                };
                let why = format!("`var.{variable}` is not declared with `const = true`");
                return Some((summary, why));
            }
            _ => {
                let summary = match name {
                    "version" => "Invalid module version",
                    _ => "Invalid module source",
                };
                let why = format!("`{reference}` is not a local value or a `const` variable");
                return Some((summary, why));
            }
        }
    }
    None
}

/// Whether the module declares input variable `name` with `const = true`.
fn is_const_variable(ctx: &Context, name: &str) -> bool {
    let variable = ctx.module.object_named(AddressKey::Variable(name));
    variable
        .and_then(|v| v.body.attribute("const"))
        .is_some_and(|c| c.expr.kind == ExprKind::Bool(true) || c.expr.keyword() == Some("true"))
}

/// Terraform before 1.15: only a literal string (JSON strings are read literally).
fn terraform_problem(expr: &Expr) -> Option<(&'static str, String)> {
    if expr.json_string().is_some() || matches!(expr.kind, ExprKind::String(_) | ExprKind::Null) {
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

/// The references of a `source` or `version` expression; `None` for a JSON string without
/// interpolation, which is read literally.
fn static_references(ctx: &Context, expr: &Expr) -> Option<Vec<String>> {
    if expr.json_string().is_some() && !json_interpolates(expr) {
        return None;
    }
    let text = match expr.json_string() {
        Some(s) => format!("\"{s}\""),
        None => ctx.files.text(expr.span).to_string(),
    };
    Some(references(&text))
}

/// OpenTofu: static references only.
fn opentofu_problem(ctx: &Context, expr: &Expr) -> Option<(&'static str, String)> {
    for reference in static_references(ctx, expr)? {
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
        // OpenTofu accepts a variable, Terraform a `const` one only: one finding, Terraform view.
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

    const CONST_VARIABLE: &str = "variable \"name\" {\n  type  = string\n  default = \"a\"\n  \
                                  const = true\n}\n";
    const PLAIN_VARIABLE: &str = "variable \"name\" {\n  type = string\n}\n";

    #[test]
    fn terraform_1_15_reads_const_variables_and_locals() {
        let old = "terraform {\n  required_version = \"< 1.15\"\n}\n";
        let local_source =
            "locals {\n  dir = \"./a\"\n}\nmodule \"a\" {\n  source = local.dir\n}\n";
        // Terraform 1.15 (the newest stable release, targeted without a constraint).
        let pass: &[Files] = &[
            &[
                ("main.tf", VARIABLE_SOURCE),
                ("variables.tf", CONST_VARIABLE),
            ],
            &[("main.tf", local_source)],
            &[(
                "main.tf.json",
                r#"{"variable": {"name": {"const": true}},
                    "module": {"a": {"source": "./modules/${var.name}"}}}"#,
            )],
        ];
        for case in pass {
            assert!(findings(&super::RULE, case).is_empty(), "{case:?}");
        }
        let plain = findings(
            &super::RULE,
            &[
                ("main.tf", VARIABLE_SOURCE),
                ("variables.tf", PLAIN_VARIABLE),
            ],
        );
        assert_eq!(plain.len(), 1);
        assert_eq!(plain[0].message, "Unknown module source");
        let json_plain = findings(
            &super::RULE,
            &[(
                "main.tf.json",
                r#"{"variable": {"name": {}},
                    "module": {"a": {"version": "${var.name}", "source": "x/y/z"}}}"#,
            )],
        );
        assert_eq!(json_plain.len(), 1);
        assert_eq!(json_plain[0].message, "Unknown module version");
        // Targeting only older releases: a literal string is needed.
        let older = findings(
            &super::RULE,
            &[("main.tf", local_source), ("versions.tf", old)],
        );
        assert_eq!(older.len(), 1);
        assert_eq!(older[0].message, "Variables not allowed");
        // Targeting 1.14 and 1.15: one of them accepts it, so no error here.
        let mixed = "terraform {\n  required_version = \">= 1.14\"\n}\n";
        assert!(findings(&super::RULE, &[("main.tf", local_source), ("v.tf", mixed)]).is_empty());
    }

    #[test]
    fn a_variable_source_is_an_error_for_terraform_only() {
        let found = findings(&super::RULE, &[("main.tf", VARIABLE_SOURCE)]);
        assert_eq!(found[0].message, "Unknown module source");
        assert_eq!(found[0].views, crate::diagnostic::Views::TERRAFORM);
    }
}
