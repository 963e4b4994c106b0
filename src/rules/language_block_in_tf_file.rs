//! A `language` block in a `.tf` file: Terraform does not know the block and fails to load.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;

use crate::lint::helpers::top_level_blocks;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "language_block_in_tf_file",
    severity: Warning,
    default: On,
    summary: "a language block in a .tf file, which Terraform cannot load",
    check: Check::View(RuleViews::Only(View::Terraform), check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (file, block) in top_level_blocks(ctx) {
        if block.kind != "language" {
            continue;
        }
        let name = ctx.files.get(file.file.id).file_name();
        out.push(
            ctx.finding(&RULE, format!("`language` block in `{name}`: Terraform cannot load this module"))
                .at(ctx.files, block.header_span, "Terraform: Unsupported block type")
                .with_note("The `language` block is OpenTofu's (1.12 and later). Terraform reads every `.tf` file and rejects blocks it does not know with `Unsupported block type`, so Terraform users of this module cannot load it at all.")
                .with_help("move the block to a `.tofu` file (for instance `language.tofu`; a `versions.tofu` would hide `versions.tf` from OpenTofu), which only OpenTofu reads"),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::check_table;

    const LANGUAGE: &str = "language {\n  compatible_with {\n    opentofu = \">= 1.12\"\n  }\n}\n";

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[&[
                ("main.tf", "resource \"terraform_data\" \"a\" {}\n"),
                ("versions.tofu", LANGUAGE),
            ]],
            &[
                (&[("versions.tf", LANGUAGE)], 1),
                (
                    &[(
                        "versions.tf.json",
                        r#"{"language": {"compatible_with": {"opentofu": ">= 1.12"}}}"#,
                    )],
                    1,
                ),
            ],
        );
    }
}
