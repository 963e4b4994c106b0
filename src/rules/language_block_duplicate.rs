//! More than one `language` block in a module: OpenTofu accepts a single language selection
//! across all of a module's files, and refuses to load a second.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::syntax::Block;

use crate::lint::helpers::language_blocks;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "language_block_duplicate",
    severity: Error,
    default: On,
    summary: "a second language block in a module",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

const NOTE: &str = "A module has one language selection: OpenTofu accepts a single `language` \
                    block across all of its files.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let blocks: Vec<_> = language_blocks(ctx).collect();
    let Some((_, first)) = blocks.first() else {
        return;
    };
    for (_, block) in blocks.iter().skip(1) {
        out.push(second_language_block(ctx, block, first));
    }
}

/// `Duplicate language block`, on every `language` block after the first.
fn second_language_block(ctx: &Context, block: &Block, first: &Block) -> Diagnostic {
    ctx.finding(&RULE, "Duplicate language block")
        .at(ctx.files, block.header_span, "a second `language` block")
        .with_label(ctx.files, first.header_span, "first defined here")
        .with_note(NOTE)
        .with_help("merge the two blocks into one")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, TOFU_EDITION, check_table};

    const PASS: &[Files] = &[&[("versions.tofu", TOFU_EDITION)]];
    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("a.tofu", TOFU_EDITION),
                ("b.tofu", "language {\n  experiments = []\n}\n"),
            ],
            1,
        ),
        (
            &[
                ("a.tofu", "language {}\n"),
                ("b.tofu.json", r#"{"language": {"edition": "tofu2024"}}"#),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
