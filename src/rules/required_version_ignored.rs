//! `required_version` in a `.tf` file that OpenTofu never evaluates, written in a syntax
//! Terraform rejects: the module loads in OpenTofu and fails in Terraform.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;

use crate::lint::helpers::parse_constraints;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "required_version_ignored",
    severity: Notice,
    default: On,
    summary: "an invalid required_version in a .tf file that only Terraform evaluates",
    check: Check::View(RuleViews::Only(View::Terraform), check),
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
    use crate::lint::testing::check_table;

    #[test]
    fn table() {
        check_table(
            &super::RULE,
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
