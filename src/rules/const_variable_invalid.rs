//! Terraform's `const` variables (1.15) cannot be `sensitive` or `ephemeral`: Terraform refuses
//! each such `variable` block as it decodes it (`decodeVariableBlock`), in primary and override
//! files alike. OpenTofu's `const` (1.12) has no such restriction. Judged when every targeted
//! Terraform release has `const`; otherwise `const` itself is the finding.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::features::{Body, Place};
use crate::syntax::{Attribute, Block, ExprKind};

use crate::lint::helpers::top_level_blocks_of;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "const_variable_invalid",
    kind: LoadError,
    summary: "a const variable that is also sensitive or ephemeral (Terraform)",
    check: Check::View(RuleViews::Only(View::Terraform), check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let has_const = (ctx.targets.refusing(Place::In(Body::Variable), "const")).is_empty();
    if !has_const {
        return;
    }
    for (_, variable) in top_level_blocks_of(ctx, &["variable"]) {
        if !is_true(variable.body.attribute("const")) {
            continue;
        }
        for setting in ["sensitive", "ephemeral"] {
            if let Some(attr) = variable
                .body
                .attribute(setting)
                .filter(|a| is_true(Some(a)))
            {
                out.push(const_and(ctx, variable, attr));
            }
        }
    }
}

/// Whether the argument is the literal `true` (Terraform decodes these with no evaluation).
fn is_true(attr: Option<&Attribute>) -> bool {
    attr.is_some_and(|a| matches!(a.expr.kind, ExprKind::Bool(true)))
}

/// `Const variable cannot be sensitive` / `Const variable cannot be ephemeral`, on the block.
fn const_and(ctx: &Context, variable: &Block, setting: &Attribute) -> Diagnostic {
    let name = &setting.name;
    ctx.finding(&RULE, format!("Const variable cannot be {name}"))
        .at(
            ctx.files,
            variable.def_range(ctx.files),
            "a `const` variable",
        )
        .with_label(ctx.files, setting.span(), format!("also `{name}`"))
        .with_note(format!(
            "A variable that is marked as \"const\" cannot also be marked as \"{name}\"."
        ))
        .with_help(format!("remove `{name} = true`, or `const = true`"))
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Views;
    use crate::lint::testing::{Files, findings_targeting_terraform};

    fn found(files: Files, terraform: &str) -> Vec<(String, Views)> {
        findings_targeting_terraform(&super::RULE, files, terraform)
            .into_iter()
            .map(|d| (d.message.into_owned(), d.views))
            .collect()
    }

    #[test]
    fn sensitive_or_ephemeral_const_variables() {
        let both = "variable \"v\" {\n  const     = true\n  sensitive = true\n  \
                    ephemeral = true\n}\n";
        let json = r#"{"variable": {"v": {"const": true, "ephemeral": true}}}"#;
        let terraform = |summary: &str| (summary.to_string(), Views::TERRAFORM);
        assert_eq!(
            found(&[("main.tf", both)], ">= 1.15"),
            [
                terraform("Const variable cannot be ephemeral"),
                terraform("Const variable cannot be sensitive")
            ]
        );
        assert_eq!(
            found(&[("main.tf.json", json)], ">= 1.15"),
            [terraform("Const variable cannot be ephemeral")]
        );
        // An override block is decoded on its own too.
        let over = "variable \"v\" {\n  const = true\n  sensitive = true\n}\n";
        let base = "variable \"v\" {}\n";
        assert_eq!(
            found(&[("main.tf", base), ("main_override.tf", over)], ">= 1.15").len(),
            1
        );
        // Not const, or a release without const (where `const` is the finding): nothing.
        let plain = "variable \"v\" {\n  const = false\n  sensitive = true\n}\n";
        assert!(found(&[("main.tf", plain)], ">= 1.15").is_empty());
        assert!(found(&[("main.tf", both)], "~> 1.14.0").is_empty());
    }
}
