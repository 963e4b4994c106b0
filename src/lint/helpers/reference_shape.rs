//! References whose shape the tools refuse while they parse them, before looking anything up:
//! `Invalid reference`, from hashicorp/terraform `internal/addrs/parse_ref.go` (`parseRef`,
//! `parseResourceRef`, `parseSingleAttrRef`). Only the shapes every release judged reads the
//! same way are here: roots a later release reserved (`ephemeral`, `list`, `action`...) are
//! resource types to an earlier one. `self`, `path` and `terraform` are judged by their own
//! rules.

use crate::lint::Context;
use crate::source::{Span, Syntax};
use crate::syntax::{Reference, ReferenceStep};

use super::declared::RESERVED_ROOTS;
use super::syntax_of;

/// What is wrong with a reference's shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape<'r> {
    /// A name alone that is not a root the tools reserve: a resource type with no name.
    BareName(&'r str),
    /// `var`, `local`, `module`, `count` or `each` alone.
    RootAlone(&'r str),
    /// One of those followed by an index: `var[0]`.
    RootIndexed(&'r str),
    /// `data` or `resource` with fewer than two names after it.
    ModeShort(&'r str),
    /// `data[0]`, `resource[0]`.
    ModeIndexed(&'r str),
    /// A resource type followed by an index where its name should be: `aws_instance[0]`,
    /// `data.aws_ami[0]`. Holds the mode's root (`data`), or `None` for a managed resource.
    NameIndexed(Option<&'r str>),
}

/// Roots the tools read as one object whose attributes are the names (`parseSingleAttrRef`).
const SINGLE_ATTRIBUTE_ROOTS: &[&str] = &["count", "each", "local", "module", "var"];

/// Roots that introduce a resource mode, then a type and a name.
const MODE_ROOTS: &[&str] = &["data", "resource"];

/// The shape error of `reference`, if the tools refuse it, and the step it is reported at
/// (`None` for the whole reference or its root, which the diagnostic decides).
pub(crate) fn invalid_shape(reference: &Reference) -> Option<(Shape<'_>, Option<usize>)> {
    let root = reference.root.as_str();
    let steps = &reference.steps;
    let is_index = |i: usize| matches!(steps.get(i), Some(ReferenceStep::Index(_)));
    if SINGLE_ATTRIBUTE_ROOTS.contains(&root) {
        return match steps.first() {
            None => Some((Shape::RootAlone(root), None)),
            Some(ReferenceStep::Index(_)) => Some((Shape::RootIndexed(root), Some(0))),
            Some(ReferenceStep::Attr(_)) => None,
        };
    }
    if MODE_ROOTS.contains(&root) {
        return if steps.len() < 2 {
            Some((Shape::ModeShort(root), None))
        } else if is_index(0) {
            Some((Shape::ModeIndexed(root), Some(0)))
        } else if is_index(1) {
            Some((Shape::NameIndexed(Some(root)), Some(1)))
        } else {
            None
        };
    }
    if RESERVED_ROOTS.contains(&root) {
        return None;
    }
    let type_keyword = matches!(root, "string" | "number" | "bool" | "any");
    match steps.first() {
        None if type_keyword => None,
        None => Some((Shape::BareName(root), None)),
        Some(ReferenceStep::Index(_)) => Some((Shape::NameIndexed(None), Some(0))),
        Some(ReferenceStep::Attr(_)) => None,
    }
}

/// The source span of step `index` of `reference` (0 is the step after the root): `.name`, or
/// `[key]` (or a legacy `.0`), found by reading the reference's text. In JSON the text is a
/// JSON string's: its escapes are read as the characters they stand for.
pub(crate) fn step_span(ctx: &Context, reference: &Reference, index: usize) -> Span {
    let raw = ctx.files.text(reference.span).as_bytes();
    let json = matches!(
        syntax_of(ctx, reference.span),
        Syntax::Json | Syntax::TerragruntJson
    );
    // The template's characters, each with its offset in the raw text.
    let (text, offsets): (Vec<u8>, Vec<usize>) = if json {
        unescaped(raw)
    } else {
        (raw.to_vec(), (0..raw.len()).collect())
    };
    let raw_offset = |i: usize| offsets.get(i).copied().unwrap_or(raw.len());
    let mut at = reference.root.len();
    let (mut start, mut end) = (at, at);
    for _ in 0..=index {
        while text.get(at).is_some_and(|b| b.is_ascii_whitespace()) {
            at += 1;
        }
        start = at;
        at += 1;
        match text.get(start) {
            Some(b'[') => at = closing_bracket(&text, at),
            _ => {
                while (text.get(at)).is_some_and(|&b| {
                    b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b >= 0x80
                }) {
                    at += 1;
                }
            }
        }
        end = at.min(text.len());
    }
    let (start, end) = (raw_offset(start.min(end)), raw_offset(end));
    Span {
        start: reference.span.start + start as u32,
        end: reference.span.start + end as u32,
        ..reference.span
    }
}

/// A JSON string's text with its escapes read (`\"` is `"`, `\uXXXX` one character, taken
/// as one byte: only brackets and quotes matter here), and each character's raw offset.
fn unescaped(raw: &[u8]) -> (Vec<u8>, Vec<usize>) {
    let (mut text, mut offsets) = (Vec::with_capacity(raw.len()), Vec::with_capacity(raw.len()));
    let mut at = 0;
    while let Some(&b) = raw.get(at) {
        offsets.push(at);
        if b == b'\\' {
            let escaped = raw.get(at + 1).copied().unwrap_or(b'\\');
            text.push(if escaped == b'u' { b'?' } else { escaped });
            at += if escaped == b'u' { 6 } else { 2 };
        } else {
            text.push(b);
            at += 1;
        }
    }
    (text, offsets)
}

/// Just past the `]` that closes the index opened before `at`, a quoted key's text (and its
/// escaped quotes) skipped over.
fn closing_bracket(text: &[u8], mut at: usize) -> usize {
    let mut quoted = false;
    while let Some(&b) = text.get(at) {
        at += 1;
        match b {
            b'\\' if quoted => at += 1,
            b'"' => quoted = !quoted,
            b']' if !quoted => return at,
            _ => {}
        }
    }
    at
}
