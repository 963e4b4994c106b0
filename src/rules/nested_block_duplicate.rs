//! A second `lifecycle` block in a resource, data source or ephemeral resource, or a second
//! `connection` block in a resource: the tools decode each block of a file on its own and
//! refuse the module ("Duplicate lifecycle block", "Duplicate connection block":
//! hashicorp/terraform and opentofu/opentofu `internal/configs/resource.go`,
//! `decodeResourceBlock`, `decodeDataBlock`, `decodeEphemeralBlock`). In JSON, an array of
//! `lifecycle` objects is one block each.
//!
//! Likewise a second `data` block in a `check` block, which may scope one data source only
//! ("Multiple data resource blocks": `internal/configs/checks.go`, `decodeCheckBlock`); a check
//! in an override file is refused whole (`override_not_allowed`) and not decoded. A nested
//! block whose labels HCL refuses is skipped by the tools, and so is no first block here.

use crate::diagnostic::Diagnostic;
use crate::source::{Span, Syntax};
use crate::syntax::{Block, Body};

use crate::lint::helpers::{json_array_def_range, nested_labels_refused};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "nested_block_duplicate",
    kind: LoadError,
    summary: "a second `lifecycle` or `connection` block in one resource, or `data` in a check",
    check: Check::View(RuleViews::Both, check),
};

/// The nested blocks a top-level block of this type may hold once.
fn single_blocks(kind: &str) -> &'static [&'static str] {
    match kind {
        "resource" => &["lifecycle", "connection"],
        "data" | "ephemeral" => &["lifecycle"],
        "check" => &["data"],
        _ => &[],
    }
}

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let files = (ctx.primary.iter().map(|loaded| (loaded, false)))
        .chain(ctx.overrides.iter().map(|loaded| (loaded, true)));
    let blocks = files.flat_map(|(loaded, is_override)| {
        let native = loaded.extension.syntax() == Syntax::Native;
        (loaded.file.body.blocks.iter()).map(move |block| (block, is_override, native))
    });
    for (block, is_override, native) in blocks {
        if is_override && block.kind == "check" {
            continue;
        }
        for &single in single_blocks(&block.kind) {
            let mut written = (block.body.blocks_of(single))
                .filter(|nested| !native || !nested_labels_refused(&block.kind, nested));
            let Some(first) = written.next() else {
                continue;
            };
            let siblings = Siblings {
                body: &block.body,
                kind: single,
            };
            for again in written {
                out.push(duplicate(ctx, &siblings, first, again));
            }
        }
    }
}

/// The nested blocks of one type in one body, among which a block's place is found.
struct Siblings<'a> {
    body: &'a Body,
    kind: &'a str,
}

/// `Duplicate lifecycle block` (or `connection`), at the second block (HCL's `DefRange`);
/// `Multiple data resource blocks` for a check's.
fn duplicate(ctx: &Context, siblings: &Siblings, first: &Block, again: &Block) -> Diagnostic {
    let kind = siblings.kind;
    if kind == "data" {
        return ctx
            .finding(&RULE, "Multiple data resource blocks")
            .at(ctx.files, def_range(ctx, siblings, again), "a second one")
            .with_label(ctx.files, def_range(ctx, siblings, first), "the first")
            .with_note("This check block already has a data resource.")
            .with_help("a check scopes one data source: move the other to a check of its own");
    }
    ctx.finding(&RULE, format!("Duplicate {kind} block"))
        .at(ctx.files, def_range(ctx, siblings, again), "a second one")
        .with_label(ctx.files, def_range(ctx, siblings, first), "the first")
        .with_note(format!("This resource already has a {kind} block."))
        .with_help(format!("merge the two `{kind}` blocks into one"))
}

/// Where the tools report a nested block: at the array's bracket for one of a JSON array (see
/// [`json_array_def_range`]).
fn def_range(ctx: &Context, siblings: &Siblings, block: &Block) -> Span {
    let spans: Vec<Span> = (siblings.body.blocks_of(siblings.kind))
        .map(|b| b.body_span)
        .collect();
    json_array_def_range(ctx.files, (block.header_span, block.body_span), &spans)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    create_before_destroy = \
             true\n  }\n  connection {\n    host = \"h\"\n  }\n}\n",
        )],
        // A block whose labels HCL refuses is skipped, so it is no duplicate.
        &[(
            "main.tf",
            "resource \"terraform_data\" \"a\" {\n  lifecycle {\n  }\n  lifecycle \"x\" {\n  \
             }\n}\n",
        )],
        // A check in an override file is refused whole, not decoded.
        &[
            (
                "main.tf",
                "check \"c\" {\n  assert {\n    condition     = true\n    error_message = \
                 \"x\"\n  }\n}\n",
            ),
            (
                "override.tf",
                "check \"c\" {\n  data \"a\" \"s\" {}\n  data \"a\" \"t\" {}\n}\n",
            ),
        ],
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
        // Terraform 1.6.6 and 1.15.5: "Multiple data resource blocks" at the second.
        (
            &[(
                "main.tf",
                "check \"c\" {\n  data \"terraform_remote_state\" \"s\" {\n    backend = \
                 \"local\"\n  }\n  data \"terraform_remote_state\" \"t\" {\n    backend = \
                 \"local\"\n  }\n  assert {\n    condition     = true\n    error_message = \
                 \"x\"\n  }\n}\n",
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

    /// Terraform 1.6.6 to 1.15.5 (the judges) report every block of a JSON array, and the first
    /// in their detail, at the array's opening bracket (line 2 here); a block written as an
    /// object of its own at its brace (line 7).
    #[test]
    fn json_array_elements_at_the_bracket() {
        let text = "{\"resource\": {\"terraform_data\": {\"r0\": {\n\
                    \"lifecycle\": [\n  {\"create_before_destroy\": true},\n  {},\n  {}],\n\
                    \"connection\": {\"host\": \"a\"},\n\
                    \"connection\": {\"host\": \"b\"}}}}}\n";
        let found = findings(&super::RULE, &[("main.tf.json", text)]);
        let places: Vec<_> = found
            .iter()
            .map(|d| {
                let first = d.secondary.first().expect("the first").start();
                (&*d.message, d.start(), first)
            })
            .collect();
        assert_eq!(
            places,
            [
                // The third block's finding is the second's, at the same place: one finding.
                ("Duplicate lifecycle block", (2, 14), (2, 14)),
                ("Duplicate connection block", (7, 15), (6, 15)),
            ],
            "{found:#?}"
        );
    }
}
