//! A second `lifecycle` block in a resource, data source or ephemeral resource, or a second
//! `connection` block in a resource: the tools decode each block of a file on its own and
//! refuse the module ("Duplicate lifecycle block", "Duplicate connection block":
//! hashicorp/terraform and opentofu/opentofu `internal/configs/resource.go`,
//! `decodeResourceBlock`, `decodeDataBlock`, `decodeEphemeralBlock`). In JSON, an array of
//! `lifecycle` objects is one block each.

use crate::diagnostic::Diagnostic;
use crate::syntax::Block;

use crate::lint::helpers::top_level_blocks;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "nested_block_duplicate",
    kind: LoadError,
    summary: "a second `lifecycle` or `connection` block in one resource",
    check: Check::View(RuleViews::Both, check),
};

/// The nested blocks a top-level block of this type may hold once.
fn single_blocks(kind: &str) -> &'static [&'static str] {
    match kind {
        "resource" => &["lifecycle", "connection"],
        "data" | "ephemeral" => &["lifecycle"],
        _ => &[],
    }
}

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (_, block) in top_level_blocks(ctx) {
        for &single in single_blocks(&block.kind) {
            let mut written = block.body.blocks_of(single);
            let Some(first) = written.next() else {
                continue;
            };
            for again in written {
                out.push(duplicate(ctx, single, first, again));
            }
        }
    }
}

/// `Duplicate lifecycle block` (or `connection`), at the second block (HCL's `DefRange`).
fn duplicate(ctx: &Context, kind: &str, first: &Block, again: &Block) -> Diagnostic {
    ctx.finding(&RULE, format!("Duplicate {kind} block"))
        .at(ctx.files, again.def_range(ctx.files), "a second one")
        .with_label(ctx.files, first.def_range(ctx.files), "the first")
        .with_note(format!("This resource already has a {kind} block."))
        .with_help(format!("merge the two `{kind}` blocks into one"))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    create_before_destroy = \
             true\n  }\n  connection {\n    host = \"h\"\n  }\n}\n",
        )],
        // One in the base and one in an override are merged, not duplicates.
        &[
            (
                "main.tf",
                "resource \"terraform_data\" \"a\" {\n  lifecycle {\n  }\n}\n",
            ),
            (
                "main_override.tf",
                "resource \"terraform_data\" \"a\" {\n  lifecycle {\n  }\n}\n",
            ),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf",
                "resource \"terraform_data\" \"a\" {\n  lifecycle {\n  }\n  lifecycle {\n  }\n}\n",
            )],
            1,
        ),
        // Terraform 1.12.2 to 1.15.5 (the judges): "Duplicate lifecycle block" at the second
        // object of the array ("This resource already has a lifecycle block at ...").
        (
            &[(
                "main.tf.json",
                r#"{"resource": {"aws_instance": {"r0": {"lifecycle": [{"create_before_destroy": true}, {"create_before_destroy": true}]}}}}"#,
            )],
            1,
        ),
        (
            &[(
                "main.tf",
                "resource \"terraform_data\" \"a\" {\n  connection {\n  }\n  connection {\n  \
                 }\n}\ndata \"aws_ami\" \"b\" {\n  lifecycle {\n  }\n  lifecycle {\n  }\n}\n",
            )],
            2,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
