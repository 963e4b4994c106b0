//! The general body merge (hashicorp/terraform `internal/configs/module_merge_body.go`) and the
//! `lifecycle` argument-by-argument merge.

use std::sync::Arc;

use crate::source::SourceFiles;
use crate::syntax::{Attribute, Block, Body, Expr};
use crate::types::Value;

use super::Merger;
use super::events::{Event, Subject};
use super::model::{Address, MergedAttribute, MergedBlock, MergedBody, Origin};

/// What the caller wants done with an override attribute or block before the general merge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Handling {
    /// Merge by the general rule.
    General,
    /// Already dealt with by the caller (reported, or merged specially): leave it out.
    Skip,
}

impl Merger<'_> {
    /// Merges `over` into `base`: attributes replace by name; each nested block type present in
    /// the override hides every base block of that type (`dynamic "T"` counts as `T`); the
    /// override's blocks are appended after the surviving base blocks.
    pub(super) fn merge_body(
        &mut self,
        address: &Subject,
        base: &mut MergedBody,
        over: &Body,
        handling: &dyn Fn(&str) -> Handling,
    ) {
        for attr in &over.attributes {
            if handling(&attr.name) == Handling::Skip {
                continue;
            }
            self.drop_blocks_of_type(address, base, &attr.name, vec![attr.name_span], false);
            self.set_attribute(address, &attr.name, &mut base.attributes, attr);
        }

        let over_blocks: Vec<&Block> = over
            .blocks
            .iter()
            .filter(|b| handling(&b.kind) == Handling::General)
            .collect();
        let mut seen_types: Vec<&str> = Vec::new();
        for block in &over_blocks {
            let kind = effective_kind(block);
            if seen_types.contains(&kind) {
                continue;
            }
            seen_types.push(kind);
            let by = over_blocks
                .iter()
                .filter(|b| effective_kind(b) == kind)
                .map(|b| b.header_span)
                .collect();
            // A JSON attribute of that name holds what native syntax writes as blocks.
            self.drop_blocks_of_type(address, base, kind, by, true);
        }
        base.blocks.extend(
            over_blocks
                .into_iter()
                .map(|b| MergedBlock::from_syntax(b, Origin::Override)),
        );
    }

    /// Removes every base block of `kind` (and `dynamic "kind"`, and with `and_attribute` an
    /// attribute of that name), recording the event when anything was there.
    fn drop_blocks_of_type(
        &mut self,
        address: &Subject,
        base: &mut MergedBody,
        kind: &str,
        by: Vec<crate::source::Span>,
        and_attribute: bool,
    ) {
        let mut dropped = Vec::new();
        if and_attribute {
            base.attributes.retain(|a| {
                let hit = a.name == kind;
                if hit {
                    dropped.push(a.span());
                }
                !hit
            });
        }
        base.blocks.retain(|b| {
            let hit = b.effective_kind() == kind;
            if hit {
                dropped.push(b.header_span);
            }
            !hit
        });
        if !dropped.is_empty() {
            self.module.events.push(Event::NestedBlocksReplaced {
                address: address.clone(),
                kind: kind.to_string(),
                by,
                dropped,
            });
        }
    }

    /// Replaces the attribute of that name in `attributes`, or adds it.
    pub(super) fn set_attribute(
        &mut self,
        address: &Subject,
        event_name: &str,
        attributes: &mut Vec<MergedAttribute>,
        attr: &Arc<Attribute>,
    ) {
        let mut merged = MergedAttribute::from_syntax(attr, Origin::Override);
        match attributes.iter().rposition(|a| a.name == attr.name) {
            Some(pos) => {
                let old = &attributes[pos];
                merged.replaced = Some(old.span());
                self.module.events.push(Event::AttributeReplaced {
                    address: address.clone(),
                    name: event_name.to_string(),
                    new: attr.span(),
                    old: old.span(),
                    old_from_override: old.origin == Origin::Override,
                    identical: same_value(address, event_name, &old.expr, &attr.expr, self.files),
                });
                attributes[pos] = merged;
            }
            None => {
                self.module.events.push(Event::AttributeAdded {
                    address: address.clone(),
                    name: event_name.to_string(),
                    new: attr.span(),
                });
                attributes.push(merged);
            }
        }
    }

    pub(super) fn ignored(
        &mut self,
        address: &Subject,
        name: &str,
        span: crate::source::Span,
        reason: &'static str,
    ) {
        self.module.events.push(Event::IgnoredSetting {
            address: address.clone(),
            name: name.to_string(),
            span,
            reason,
        });
    }
}

/// Whether two values of the setting `name` of `address` are the same. Where the tools read the
/// setting's JSON strings without evaluating them (a variable's `default` and `description`,
/// an output's `description`: `decodeVariableBlock` and `decodeOutputBlock` in
/// `internal/configs/named_values.go`), a JSON `"$${x}"` is the text `$${x}` and `"${1}"` the
/// text `${1}`, not the template either is elsewhere: the values are compared as read.
fn same_value(address: &Subject, name: &str, old: &Expr, new: &Expr, files: &SourceFiles) -> bool {
    let read_as_value: &[&str] = match address {
        Subject::Object(Address::Variable(_)) => &VARIABLE_VALUES,
        Subject::Object(Address::Output(_)) => &OUTPUT_VALUES,
        _ => &[],
    };
    let json = old.json_string().is_some() || new.json_string().is_some();
    if json && read_as_value.contains(&name) {
        return match (Value::of_literal(old), Value::of_literal(new)) {
            (Some(old), Some(new)) => old == new,
            _ => false,
        };
    }
    old.same_as(new, files)
}

/// The arguments of a variable read as values with no evaluation context.
const VARIABLE_VALUES: [&str; 7] = [
    "default",
    "description",
    "sensitive",
    "nullable",
    "ephemeral",
    "const",
    "deprecated",
];

/// The arguments of an output read as values with no evaluation context.
const OUTPUT_VALUES: [&str; 4] = ["description", "sensitive", "ephemeral", "deprecated"];

fn effective_kind(block: &Block) -> &str {
    if block.kind == "dynamic" {
        block.label(0).unwrap_or("dynamic")
    } else {
        &block.kind
    }
}
