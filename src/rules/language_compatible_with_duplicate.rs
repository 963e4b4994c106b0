//! A second `compatible_with` block in a `language` block after one naming OpenTofu: OpenTofu
//! takes its version constraint from one block and rejects a second.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::syntax::Block;

use crate::lint::helpers::language_blocks;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "language_compatible_with_duplicate",
    severity: Error,
    default: On,
    summary: "a second compatible_with block after one naming OpenTofu",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

const NOTE: &str = "OpenTofu takes its version constraint from one `compatible_with` block; a \
                    second one after it is an error.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (_, language) in language_blocks(ctx) {
        let blocks: Vec<_> = language.body.blocks_of("compatible_with").collect();
        // By position in the body: in JSON, blocks of one array share their header span.
        let Some(index) = blocks
            .iter()
            .position(|b| b.body.attribute("opentofu").is_some())
        else {
            continue;
        };
        let first = blocks[index];
        for block in &blocks[index + 1..] {
            out.push(second_compatible_with(ctx, block, first));
        }
    }
}

/// `Duplicate compatible_with block`, on every `compatible_with` block after the first one
/// naming OpenTofu.
fn second_compatible_with(ctx: &Context, block: &Block, first: &Block) -> Diagnostic {
    ctx.finding(&RULE, "Duplicate compatible_with block")
        .at(
            ctx.files,
            block.body_span,
            "a second `compatible_with` block",
        )
        .with_label(
            ctx.files,
            first.header_span,
            "this one already names OpenTofu",
        )
        .with_note(NOTE)
        .with_help("put every constraint in one `compatible_with` block")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, TOFU_COMPATIBLE_1_12, check_table};

    const PASS: &[Files] = &[&[("versions.tofu", TOFU_COMPATIBLE_1_12)]];
    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "versions.tofu",
                "language {\n  compatible_with {\n    opentofu = \">= 1.12\"\n  }\n  \
                 compatible_with {\n    opentofu = \"< 2.0\"\n  }\n}\n",
            )],
            1,
        ),
        (
            &[(
                "versions.tofu.json",
                concat!(
                    r#"{"language": {"compatible_with": "#,
                    r#"[{"opentofu": ">= 1.12"}, {"opentofu": "< 2.0"}]}}"#,
                ),
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
