//! A second `compatible_with` block in a `language` block.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;

use crate::lint::helpers::language_blocks;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "language_compatible_with_duplicate",
    severity: Error,
    default: On,
    summary: "a second compatible_with block after one naming OpenTofu",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

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
            out.push(
                ctx.finding(&RULE, "Duplicate compatible_with block")
                    .at(ctx.files, block.body_span, "a second `compatible_with` block")
                    .with_label(ctx.files, first.header_span, "this one already names OpenTofu")
                    .with_note("OpenTofu takes its version constraint from one `compatible_with` block; a second one after it is an error.")
                    .with_help("put every constraint in one `compatible_with` block"),
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
            &[&[(
                "versions.tofu",
                "language {\n  compatible_with {\n    opentofu = \">= 1.12\"\n  }\n}\n",
            )]],
            &[
                (
                    &[(
                        "versions.tofu",
                        "language {\n  compatible_with {\n    opentofu = \">= 1.12\"\n  }\n  compatible_with {\n    opentofu = \"< 2.0\"\n  }\n}\n",
                    )],
                    1,
                ),
                (
                    &[(
                        "versions.tofu.json",
                        r#"{"language": {"compatible_with": [{"opentofu": ">= 1.12"}, {"opentofu": "< 2.0"}]}}"#,
                    )],
                    1,
                ),
            ],
        );
    }
}
