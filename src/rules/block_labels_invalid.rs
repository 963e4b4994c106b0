//! A block of the tools' own schema written with too few or too many labels: `resource "aws_instance"
//! {}` (`Missing name for resource`), `variable "a" "b" {}` (`Extraneous label for variable`).
//! Every block type the tools decode has a fixed list of label names (hashicorp/terraform
//! `internal/configs/parser_config.go`, `configFileSchema` and `terraformBlockSchema`;
//! `resource.go`, `checks.go`, `removed.go`; opentofu/opentofu the same files), and HCL refuses a
//! block whose labels do not match it, then skips the block (hashicorp/hcl `hclsyntax/
//! structure.go`, `Body.PartialContent`). Only native syntax: a JSON file's labels are the
//! object's keys, read to the depth the schema asks (`syntax_error` reports what is missing).
//! A block type some targeted release does not have is `unsupported_construct`'s or
//! `feature_newer_than_target`'s, and the bodies of providers and module calls are not ours to
//! judge.

use crate::diagnostic::Diagnostic;
use crate::knowledge::blocks;
use crate::knowledge::features::{self, Body, Place};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};
use crate::source::{Span, Syntax};
use crate::syntax::Block;

pub(crate) const RULE: Rule = declare_rule! {
    id: "block_labels_invalid",
    kind: LoadError,
    summary: "a block with too few or too many labels",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for loaded in ctx.primary.iter().chain(ctx.overrides.iter()) {
        if loaded.extension.syntax() != Syntax::Native {
            continue;
        }
        for block in &loaded.file.body.blocks {
            let Some(labels) = blocks::top_level_labels(&block.kind) else {
                continue;
            };
            if judge(ctx, Place::TopLevel, block, labels, out) {
                check_nested(ctx, block, out);
            }
        }
    }
}

/// The tool-defined blocks nested in a top-level block that decoded, and their label names.
fn check_nested(ctx: &Context, block: &Block, out: &mut Vec<Diagnostic>) {
    let body = match block.kind.as_str() {
        "terraform" => {
            for nested in &block.body.blocks {
                if let Some(labels) = blocks::terraform_nested_labels(&nested.kind) {
                    judge(ctx, Place::In(Body::Terraform), nested, labels, out);
                }
            }
            return;
        }
        "resource" | "data" | "ephemeral" => Body::Resource,
        "variable" => Body::Variable,
        "output" => Body::Output,
        "check" => Body::Check,
        "removed" => Body::Removed,
        _ => return,
    };
    for nested in &block.body.blocks {
        let Some(labels) = blocks::nested_labels(&block.kind, &nested.kind) else {
            continue;
        };
        let decoded = judge(ctx, Place::In(body), nested, labels, out);
        if decoded && body == Body::Resource && nested.kind == "lifecycle" {
            for condition in &nested.body.blocks {
                if let Some(labels) = blocks::nested_labels("lifecycle", &condition.kind) {
                    judge(ctx, Place::In(Body::Lifecycle), condition, labels, out);
                }
            }
        }
    }
}

/// Reports a block of a type every targeted release has whose labels are not `names`; returns
/// whether the tools decode it (and so its body).
fn judge(
    ctx: &Context,
    place: Place,
    block: &Block,
    names: &[&str],
    out: &mut Vec<Diagnostic>,
) -> bool {
    let known = features::acceptance(ctx.view, place, &block.kind).is_some_and(|acceptance| {
        (ctx.targets)
            .refusing_described(acceptance, place, &block.kind)
            .is_empty()
    });
    if !known {
        return false;
    }
    let written = block.labels.len();
    if written < names.len() {
        // HCL points at the opening brace, where the label was expected.
        let start = block.body_span.start as usize;
        let brace = Span::new(block.body_span.file, start..start + 1);
        out.push(missing_label(ctx, block, names, brace));
        false
    } else if written > names.len() {
        out.push(extraneous_label(ctx, block, names));
        false
    } else {
        true
    }
}

/// `Missing <label> for <type>`
fn missing_label(ctx: &Context, block: &Block, names: &[&str], brace: Span) -> Diagnostic {
    let missing = names[block.labels.len()];
    let kind = &block.kind;
    ctx.finding(&RULE, format!("Missing {missing} for {kind}"))
        .at(
            ctx.files,
            brace,
            format!("a {missing} label is expected before this brace"),
        )
        .with_note(format!(
            "All {kind} blocks must have {} labels ({}).",
            names.len(),
            names.join(", ")
        ))
        .with_help(format!(
            "write the block as `{kind} {} {{ ... }}`",
            names
                .iter()
                .map(|n| format!("\"{n}\""))
                .collect::<Vec<_>>()
                .join(" ")
        ))
}

/// `Extraneous label for <type>`
fn extraneous_label(ctx: &Context, block: &Block, names: &[&str]) -> Diagnostic {
    let kind = &block.kind;
    let note = if names.is_empty() {
        format!("No labels are expected for {kind} blocks.")
    } else {
        let word = if names.len() == 1 { "label" } else { "labels" };
        format!(
            "Only {} {word} ({}) {} expected for {kind} blocks.",
            names.len(),
            names.join(", "),
            if names.len() == 1 { "is" } else { "are" }
        )
    };
    ctx.finding(&RULE, format!("Extraneous label for {kind}"))
        .at(
            ctx.files,
            block.labels[names.len()].span,
            "not expected here",
        )
        .with_note(note)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[
        &[("main.tf", "resource \"terraform_data\" \"good\" {}\n")],
        // Blocks of a provider-defined body take whatever labels the provider's schema says.
        &[(
            "main.tf",
            "resource \"a\" \"b\" {\n  rule \"x\" \"y\" {}\n}\nprovider \"p\" {\n  features {}\n}\n",
        )],
        // JSON labels are keys, read to the schema's depth.
        &[(
            "main.tf.json",
            "{\"resource\": {\"terraform_data\": {\"good\": {}}}}\n",
        )],
        // A block type no targeted release has is another rule's.
        &[("main.tf", "resourse \"a\" {}\n")],
    ];

    const FAIL: &[(Files, usize)] = &[
        (&[("main.tf", "resource \"terraform_data\" {}\n")], 1),
        (&[("main.tf", "resource {}\n")], 1),
        (&[("main.tf", "data \"a\" \"b\" \"c\" {}\n")], 1),
        (&[("main.tf", "variable {}\nvariable \"a\" \"b\" {}\n")], 2),
        (
            &[(
                "main.tf",
                "locals \"x\" {\n  a = 1\n}\nmoved \"m\" {\n  from = a.b\n  to = a.c\n}\n",
            )],
            2,
        ),
        (
            &[(
                "main.tf",
                "terraform {\n  backend {}\n  cloud \"x\" {}\n}\n",
            )],
            2,
        ),
        (
            &[(
                "main.tf",
                "resource \"a\" \"b\" {\n  provisioner {}\n  connection \"c\" {}\n  lifecycle {\n    \
                 precondition \"p\" {\n      condition = true\n      error_message = \"m\"\n    }\n  }\n}\n",
            )],
            3,
        ),
        // In an override file too; a block refused is skipped, its nested blocks with it.
        (
            &[
                ("main.tf", "variable \"a\" {}\n"),
                (
                    "override.tf",
                    "variable \"a\" \"b\" {\n  validation \"v\" {}\n}\n",
                ),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
