//! Terraform (1.14, with `action` blocks) refuses a `depends_on` element that refers to an
//! action (`DecodeDependsOn`, for every block with `depends_on`, in primary and override files):
//! an action runs when a resource triggers it, and is not a dependency itself. Judged in the
//! Terraform view when every targeted release decodes `action` blocks; OpenTofu has none.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::features::Place;
use crate::syntax::{Body, Expr, ExprKind};

use crate::lint::helpers::top_level_blocks;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "depends_on_action",
    kind: LoadError,
    summary: "an action in depends_on (Terraform)",
    check: Check::View(RuleViews::Only(View::Terraform), check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let decodes_action = ctx.targets.refusing(Place::TopLevel, "action").is_empty()
        && ctx.targets.ignoring(Place::TopLevel, "action").is_empty();
    if !decodes_action {
        return;
    }
    for (_, block) in top_level_blocks(ctx) {
        check_body(ctx, &block.body, out);
        // A `check` block's scoped data source has `depends_on` too.
        for nested in block
            .body
            .blocks_of("data")
            .filter(|_| block.kind == "check")
        {
            check_body(ctx, &nested.body, out);
        }
    }
}

fn check_body(ctx: &Context, body: &Body, out: &mut Vec<Diagnostic>) {
    let Some(depends_on) = body.attribute("depends_on") else {
        return;
    };
    let ExprKind::Tuple(items) = &depends_on.expr.kind else {
        return;
    };
    for item in items.iter().filter(|i| root_name(i) == Some("action")) {
        out.push(action_reference(ctx, item));
    }
}

/// The first name of a reference: `action` in `action.aws_lambda_invoke.a`, also written as a
/// string (the deprecated quoted form, and JSON).
fn root_name(expr: &Expr) -> Option<&str> {
    match &expr.kind {
        ExprKind::Traversal { root, .. } => match &root.kind {
            ExprKind::Variable(name) => Some(name),
            _ => None,
        },
        ExprKind::Variable(name) => Some(name),
        _ => expr.literal_string()?.split('.').next(),
    }
}

/// `Invalid depends_on Action Reference`, on the element.
fn action_reference(ctx: &Context, item: &Expr) -> Diagnostic {
    ctx.finding(&RULE, "Invalid depends_on Action Reference")
    .at(ctx.files, item.span, "an action")
    .with_note(
        "The depends_on attribute cannot reference action blocks directly. You must reference a \
         resource or data source instead.",
    )
    .with_help("depend on the resource whose `action_trigger` runs the action, or remove it")
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Views;
    use crate::lint::testing::{Files, findings_targeting_terraform};

    fn found(files: Files, terraform: &str) -> Vec<Views> {
        let all = findings_targeting_terraform(&super::RULE, files, terraform);
        all.into_iter().map(|d| d.views).collect()
    }

    #[test]
    fn action_references_in_depends_on() {
        let native = "action \"a\" \"b\" {}\nresource \"r\" \"s\" {\n  depends_on = \
                      [action.a.b, aws_instance.x]\n}\n";
        let json = r#"{"action": {"a": {"b": {}}},
                       "output": {"o": {"value": 1, "depends_on": ["action.a.b"]}}}"#;
        let scoped = "check \"c\" {\n  data \"d\" \"e\" {\n    depends_on = [action.a.b]\n  }\n\
                      }\n";
        for files in [
            &[("main.tf", native)][..],
            &[("main.tf.json", json)][..],
            &[("main.tf", scoped)][..],
        ] {
            assert_eq!(found(files, ">= 1.14"), [Views::TERRAFORM], "{files:?}");
            // Terraform 1.13 ignores action blocks; older releases refuse them.
            assert!(found(files, "~> 1.13.0").is_empty(), "{files:?}");
        }
        let fine = "resource \"r\" \"s\" {\n  depends_on = [aws_instance.action]\n}\n";
        assert!(found(&[("main.tf", fine)], ">= 1.14").is_empty());
    }
}
