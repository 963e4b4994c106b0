//! A `language` block anywhere but the top level of a file: OpenTofu reads the language
//! selection only there, so a nested one is not a language selection but an unexpected block.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::syntax::Block;

use crate::lint::helpers::top_level_blocks;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "language_block_nested",
    severity: Error,
    default: On,
    summary: "a language block nested inside another block",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

const NOTE: &str = "OpenTofu reads the `language` block only at the top level of a file; \
                    nested, it is not a language selection at all but an unexpected block.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (_, block) in top_level_blocks(ctx) {
        find_nested(ctx, block, out);
    }
}

fn find_nested(ctx: &Context, parent: &Block, out: &mut Vec<Diagnostic>) {
    for child in &parent.body.blocks {
        if child.kind == "language" {
            out.push(nested_language(ctx, child, parent));
        }
        find_nested(ctx, child, out);
    }
}

/// `` `language` block inside a `terraform` block ``
fn nested_language(ctx: &Context, block: &Block, parent: &Block) -> Diagnostic {
    let message = format!("`language` block inside a `{}` block", parent.kind);
    ctx.finding(&RULE, message)
        .at(ctx.files, block.header_span, "not at the top level")
        .with_label(ctx.files, parent.header_span, "inside this block")
        .with_note(NOTE)
        .with_help("move the block to the top level of a `.tofu` file")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, TOFU_EDITION, check_table};

    const PASS: &[Files] = &[&[("versions.tofu", TOFU_EDITION)]];
    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "versions.tofu",
                "terraform {\n  language {\n    edition = tofu2024\n  }\n}\n",
            )],
            1,
        ),
        // In JSON, `language` inside `terraform` is the (ignored) `terraform { language }`
        // argument.
        (
            &[(
                "main.tofu",
                "resource \"terraform_data\" \"a\" {\n  language {}\n}\n",
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
