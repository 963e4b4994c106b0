//! `lifecycle` settings that only managed resources (`resource` blocks) have, written in a data
//! source or an ephemeral resource. Both tools decode a data source's or ephemeral resource's
//! `lifecycle` with the resource schema and then refuse what it accepted but only managed
//! resources use, each with its own summary (Terraform's and OpenTofu's `resource.go`,
//! `decodeDataBlock` and `decodeEphemeralBlock`). What the schema does not have at all is
//! `Unsupported argument`, judged with the other tool-defined bodies.

use crate::diagnostic::{Diagnostic, ids};
use crate::knowledge::View;
use crate::knowledge::features::{self, Body, Place};
use crate::syntax::Block;

use super::super::Context;
use super::super::helpers::top_level_blocks;

/// The findings of every data source and ephemeral resource of the view.
pub(super) fn check(ctx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let resources = top_level_blocks(ctx).map(|(_, b)| b);
    for block in resources.filter(|b| matches!(b.kind.as_str(), "data" | "ephemeral")) {
        for lifecycle in block.body.blocks_of("lifecycle") {
            for attr in &lifecycle.body.attributes {
                // OpenTofu's `enabled` (1.11) is for every kind of resource.
                let every_kind = ctx.view == View::OpenTofu && attr.name == "enabled";
                if !every_kind && decoded(ctx, &attr.name) {
                    out.push(argument(ctx, block, lifecycle, &attr.name, attr.name_span));
                }
            }
            for nested in lifecycle.body.blocks_of("action_trigger") {
                if decoded(ctx, &nested.kind) {
                    out.push(nested_block(ctx, block, nested));
                }
            }
        }
    }
    out
}

/// Whether every targeted release has `name` in a resource's `lifecycle` (the others refuse
/// it as `Unsupported argument` already).
fn decoded(ctx: &Context, name: &str) -> bool {
    let place = Place::In(Body::Lifecycle);
    features::find(place, name).is_some() && ctx.targets.refusing(place, name).is_empty()
}

/// What the tools call the resources of a block kind in these errors.
fn resources(kind: &str) -> &'static str {
    match kind {
        "data" => "data resources",
        _ => "ephemeral resources",
    }
}

/// `Invalid data resource lifecycle argument` (both tools), `Invalid ephemeral resource
/// lifecycle argument` (Terraform) or `Invalid lifecycle configuration for ephemeral resource`
/// (OpenTofu, on the `lifecycle` block).
fn argument(
    ctx: &Context,
    block: &Block,
    lifecycle: &Block,
    name: &str,
    name_span: crate::source::Span,
) -> Diagnostic {
    let label = format!("`{name}` is for `resource` blocks only");
    let (summary, detail, at) = match (block.kind.as_str(), ctx.view) {
        ("ephemeral", View::OpenTofu) => (
            "Invalid lifecycle configuration for ephemeral resource".to_string(),
            format!(
                "The lifecycle argument \"{name}\" cannot be used in ephemeral resources. This \
                 is meant to be used strictly in \"resource\" blocks."
            ),
            lifecycle.header_span,
        ),
        (kind, _) => (
            format!("Invalid {} resource lifecycle argument", kind_word(kind)),
            format!(
                "The lifecycle argument \"{name}\" is defined only for managed resources \
                 (\"resource\" blocks), and is not valid for {}.",
                resources(kind)
            ),
            name_span,
        ),
    };
    let mut d = Diagnostic::error(ids::UNSUPPORTED_CONSTRUCT, summary)
        .at(ctx.files, at, label)
        .with_note(detail)
        .with_help(format!("remove `{name}` from this `lifecycle` block"));
    if at != name_span {
        d = d.with_label(ctx.files, name_span, format!("`{name}` set here"));
    }
    d.in_views(ctx.view.views())
}

/// `Invalid data resource lifecycle nested block` / `Invalid ephemeral resource lifecycle
/// nested block` (Terraform's `action_trigger`).
fn nested_block(ctx: &Context, block: &Block, nested: &Block) -> Diagnostic {
    let kind = block.kind.as_str();
    Diagnostic::error(
        ids::UNSUPPORTED_CONSTRUCT,
        format!(
            "Invalid {} resource lifecycle nested block",
            kind_word(kind)
        ),
    )
    .at(
        ctx.files,
        nested.header_span,
        format!("`{}` is for `resource` blocks only", nested.kind),
    )
    .with_note(format!(
        "The lifecycle nested block \"{}\" is defined only for managed resources (\"resource\" \
         blocks), and is not valid for {}.",
        nested.kind,
        resources(kind)
    ))
    .in_views(ctx.view.views())
}

/// `data` or `ephemeral`, as the summaries spell it.
fn kind_word(kind: &str) -> &'static str {
    match kind {
        "data" => "data",
        _ => "ephemeral",
    }
}
