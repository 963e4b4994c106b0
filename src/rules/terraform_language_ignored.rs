//! `terraform { language }` / `terraform { experiments }` in a `.tofu` file: OpenTofu ≥ 1.12
//! ignores them.

use crate::diagnostic::Diagnostic;
use crate::load::View;

use super::{Check, Context, Rule, RuleViews, rule_meta, top_level_blocks};

pub const RULE: Rule = Rule {
    meta: rule_meta!(
        "terraform_language_ignored",
        Notice,
        true,
        "a Terraform language or experiments setting in a .tofu file, which OpenTofu ignores"
    ),
    views: RuleViews::Only(View::OpenTofu),
    options: &[],
    check: Check::View(check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (file, block) in top_level_blocks(ctx) {
        if block.kind != "terraform" || !file.extension.is_tofu() {
            continue;
        }
        for attr in block
            .body
            .attributes
            .iter()
            .filter(|a| a.name == "language" || a.name == "experiments")
        {
            let replacement = if attr.name == "language" {
                "edition"
            } else {
                "experiments"
            };
            out.push(
                ctx.finding(&RULE, format!("`terraform {{ {} }}` in a `.tofu` file is ignored by OpenTofu", attr.name))
                    .at(ctx.files, attr.span(), "ignored")
                    .with_label(ctx.files, block.header_span, "in this block")
                    .with_note(format!(
                        "OpenTofu 1.12 and later take language settings from the top-level `language` block and ignore `terraform {{ {} }}`; only Terraform reads it, and Terraform never reads `.tofu` files.",
                        attr.name
                    ))
                    .with_help(format!("remove it, or set `{replacement}` in a top-level `language` block")),
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
            "terraform_language_ignored",
            &[
                // In a .tf file it is Terraform's setting.
                &[("versions.tf", "terraform {\n  experiments = []\n}\n")],
                &[(
                    "versions.tofu",
                    "terraform {\n  required_version = \">= 1.12\"\n}\n",
                )],
            ],
            &[
                (
                    &[(
                        "versions.tofu",
                        "terraform {\n  language    = TF2021\n  experiments = []\n}\n",
                    )],
                    2,
                ),
                (
                    &[(
                        "versions.tofu.json",
                        r#"{"terraform": {"experiments": []}}"#,
                    )],
                    1,
                ),
            ],
        );
    }
}
