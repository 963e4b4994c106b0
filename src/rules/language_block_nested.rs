//! A `language` block anywhere but the top level of a file.

use crate::diagnostic::Diagnostic;
use crate::load::View;
use crate::syntax::Block;

use super::{Check, Context, Rule, RuleViews, rule_meta, top_level_blocks};

pub const RULE: Rule = Rule {
    meta: rule_meta!(
        "language_block_nested",
        Error,
        true,
        "a language block nested inside another block"
    ),
    views: RuleViews::Only(View::OpenTofu),
    options: &[],
    check: Check::View(check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (_, block) in top_level_blocks(ctx) {
        find_nested(ctx, block, out);
    }
}

fn find_nested(ctx: &Context, parent: &Block, out: &mut Vec<Diagnostic>) {
    for child in &parent.body.blocks {
        if child.kind == "language" {
            out.push(
                ctx.finding(&RULE, format!("`language` block inside a `{}` block", parent.kind))
                    .at(ctx.files, child.header_span, "not at the top level")
                    .with_label(ctx.files, parent.header_span, "inside this block")
                    .with_note("OpenTofu reads the `language` block only at the top level of a file; nested, it is not a language selection at all but an unexpected block.")
                    .with_help("move the block to the top level of a `.tofu` file"),
            );
        }
        find_nested(ctx, child, out);
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::check_table;

    #[test]
    fn table() {
        check_table(
            "language_block_nested",
            &[&[("versions.tofu", "language {\n  edition = tofu2024\n}\n")]],
            &[
                (
                    &[(
                        "versions.tofu",
                        "terraform {\n  language {\n    edition = tofu2024\n  }\n}\n",
                    )],
                    1,
                ),
                // In JSON, `language` inside `terraform` is the (ignored) `terraform { language }` argument.
                (
                    &[(
                        "main.tofu",
                        "resource \"terraform_data\" \"a\" {\n  language {}\n}\n",
                    )],
                    1,
                ),
            ],
        );
    }
}
