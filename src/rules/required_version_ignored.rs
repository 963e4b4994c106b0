//! `required_version` in a `.tf` file that OpenTofu never evaluates, written in a syntax
//! Terraform rejects: the module loads in OpenTofu and fails in Terraform.

use crate::diagnostic::Diagnostic;
use crate::load::View;

use super::{Check, Context, Rule, RuleViews, parse_constraints, rule_meta};

pub const RULE: Rule = Rule {
    meta: rule_meta!(
        "required_version_ignored",
        Notice,
        true,
        "an invalid required_version in a .tf file that only Terraform evaluates"
    ),
    // The Terraform view loads every `.tf` file, shadowed by a `.tofu` twin or not.
    views: RuleViews::Only(View::Terraform),
    options: &[],
    check: Check::View(check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    // OpenTofu ≥ 1.12 evaluates `required_version` in none of the `.tf` files.
    for file in ctx
        .primary
        .iter()
        .chain(ctx.overrides.iter())
        .filter(|f| !f.extension.is_tofu())
    {
        for block in file.file.body.blocks_of("terraform") {
            let Some(attr) = block.body.attribute("required_version") else {
                continue;
            };
            let Some(Err((span, message))) = parse_constraints(ctx.files, &attr.expr) else {
                continue;
            };
            out.push(
                ctx.finding(&RULE, "OpenTofu ignores this `required_version`, but Terraform rejects it")
                    .at(ctx.files, span, message)
                    .with_note("OpenTofu 1.12 and later never evaluate `required_version` in `.tf` files, so this invalid constraint goes unnoticed there; Terraform evaluates it and fails with `Invalid version constraint`.")
                    .with_help("fix the constraint, e.g. `>= 1.6, < 2.0`"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::check_table;

    #[test]
    fn table() {
        check_table(
            "required_version_ignored",
            &[
                &[(
                    "versions.tf",
                    "terraform {\n  required_version = \">= 1.6\"\n}\n",
                )],
                // In a .tofu file OpenTofu evaluates it: `version_constraint_invalid` reports it.
                &[(
                    "versions.tofu",
                    "terraform {\n  required_version = \">= one\"\n}\n",
                )],
            ],
            &[
                (
                    &[(
                        "versions.tf",
                        "terraform {\n  required_version = \">= 1.6 < 2\"\n}\n",
                    )],
                    1,
                ),
                (
                    &[(
                        "versions.tf.json",
                        r#"{"terraform": {"required_version": "latest"}}"#,
                    )],
                    1,
                ),
                // Shadowed by a `.tofu` twin: OpenTofu never even reads the file.
                (
                    &[
                        (
                            "versions.tf",
                            "terraform {\n  required_version = \">= 1.6 and < 2\"\n}\n",
                        ),
                        (
                            "versions.tofu",
                            "terraform {\n  required_version = \">= 1.8\"\n}\n",
                        ),
                    ],
                    1,
                ),
            ],
        );
    }
}
