//! The module constrains Terraform's version but says nothing for OpenTofu.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;

use crate::lint::helpers::language_blocks;
use crate::lint::{Check, DirectoryContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "required_version_terraform_only",
    severity: Warning,
    default: On,
    summary: "a Terraform version constraint with none for OpenTofu",
    check: Check::Directory(check),
};

fn check(dir: &DirectoryContext, out: &mut Vec<Diagnostic>) {
    let (Some(terraform), Some(opentofu)) = (dir.view(View::Terraform), dir.view(View::OpenTofu))
    else {
        return;
    };
    let Some(constraint) = terraform.module.terraform.required_version.first() else {
        return; // no Terraform constraint either: nothing to compare
    };
    let tofu_constrained = !opentofu.module.terraform.required_version.is_empty()
        || language_blocks(opentofu).any(|(_, l)| {
            l.body
                .blocks_of("compatible_with")
                .any(|c| c.body.attribute("opentofu").is_some())
        });
    if tofu_constrained {
        return;
    }
    let file = dir
        .files
        .get(constraint.name_span.file)
        .file_name()
        .to_string();
    // The twin that hides this file from OpenTofu: `x.tf` → `x.tofu`, `x.tf.json` → `x.tofu.json`.
    let twin = crate::knowledge::files::classify(&file).map_or_else(
        || "versions.tofu".to_string(),
        |name| {
            let extension = if name.extension.syntax() == crate::source::Syntax::Json {
                ".tofu.json"
            } else {
                ".tofu"
            };
            format!("{}{extension}", name.stem)
        },
    );
    out.push(
        dir.finding(&RULE, "the module constrains Terraform's version but not OpenTofu's")
            .at(dir.files, constraint.span(), "Terraform only")
            .with_note("OpenTofu 1.12 and later read `required_version` only from `.tofu` files, so this module is unconstrained there; OpenTofu 1.11 and older apply Terraform's version numbers to their own. Both are wrong.")
            .with_help(format!(
                "add `{twin}` beside `{file}` with OpenTofu's own `required_version` (it hides `{file}` from OpenTofu), or a `language {{ compatible_with {{ opentofu = \"...\" }} }}` block in a `.tofu` file"
            )),
    );
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::check_table;

    const TF: &str = "terraform {\n  required_version = \">= 1.6\"\n}\n";

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[
                &[
                    ("versions.tf", TF),
                    (
                        "versions.tofu",
                        "terraform {\n  required_version = \">= 1.8\"\n}\n",
                    ),
                ],
                &[
                    ("versions.tf", TF),
                    (
                        "language.tofu",
                        "language {\n  compatible_with {\n    opentofu = \">= 1.12\"\n  }\n}\n",
                    ),
                ],
                // No constraint at all: not this rule's business.
                &[("main.tf", "resource \"terraform_data\" \"a\" {}\n")],
            ],
            &[
                (&[("versions.tf", TF)], 1),
                (
                    &[(
                        "versions.tf.json",
                        r#"{"terraform": {"required_version": ">= 1.6"}}"#,
                    )],
                    1,
                ),
            ],
        );
    }
}
