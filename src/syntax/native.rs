//! Native syntax (`.tf`, `.tofu`): parsed by hcl-edit, lowered into [`crate::syntax`] types.
//!
//! hcl-edit rejects two things Terraform accepts; both are handled here without touching the
//! parser, by rewriting the text in ways that keep every byte offset, and re-parsing:
//! - a key repeated in an object constructor (`{ a = 1, a = 2 }`, later wins) and an attribute
//!   repeated in a body (which Terraform reports as `Attribute redefined` at load time, not as a
//!   syntax error): the repeated key is renamed in a scratch copy of the text to a name of the
//!   same length; names are always read back from the original text, so the model sees both.
//! - newlines inside `for` expressions (see [`super::scan`]): replaced by spaces.
//!
//! And it can end a heredoc at another line than Terraform ([`super::heredoc`]): such a file is
//! not given to it, but reported as the tools would (no end: `Unterminated template string`),
//! or as beyond this parser (the tools end it elsewhere), so that no tree and no fix is made of
//! a file the tools read otherwise.

use std::borrow::Cow;
use std::collections::hash_map::Entry;
use std::ops::Range;
use std::sync::Arc;

use foldhash::HashMap;
use hcl_edit::expr::{Expression, FuncCall, FuncName, ObjectKey, TraversalOperator};
use hcl_edit::structure::{BlockLabel, Body as HclBody, Structure};
use hcl_edit::template::{Element, Template};
use hcl_edit::visit::{Visit, visit_func_call};
use hcl_edit::{Decorated, Ident, Span as _};

use super::heredoc::Misread;
use super::references::{self, Reference, ReferenceCollector};
use super::scan::scan;
use super::{
    Attribute, Block, Body, Call, Comment, DuplicateAttribute, Expr, ExprKind, File, Label, Labels,
    ObjectItem, Parsed, SyntaxError, TraversalStep,
};
use crate::source::{FileId, Span, Syntax};

/// Bodies with more attributes than this find repeated names with a map, the others by looking
/// through the attributes before.
const MAX_ATTRIBUTES_SEARCHED: usize = 16;

/// How many repeated keys one file may hold before we stop re-parsing and report it. Each
/// repeated key costs one more parse.
const MAX_RENAMED_KEYS: usize = 200;

pub(crate) fn parse(id: FileId, text: &str) -> Parsed {
    let scanned = scan(text);
    let comments = scanned
        .comments
        .iter()
        .map(|range| Comment {
            text: strip_comment_delimiters(&text[range.clone()]).to_string(),
            span: Span::new(id, range.clone()),
        })
        .collect();

    if let Some(offset) = scanned.backtrack_limit_at {
        return Parsed {
            file: Err(SyntaxError {
                summary: PARSER_LIMIT_SUMMARY,
                message: BACKTRACK_LIMIT_MESSAGE.to_string(),
                span: Span::new(id, offset..offset),
                beyond_tool_limit: true,
            }),
            duplicate_attributes: Vec::new(),
        };
    }
    if let Some(misread) = (scanned.heredoc_misreads.iter()).min_by_key(|m| m.parser_end.start) {
        return Parsed {
            file: Err(heredoc_misread(id, text, misread)),
            duplicate_attributes: Vec::new(),
        };
    }
    let (mut body, renamed_keys) = match parse_tolerant(
        &parser_text(text, &scanned),
        &scanned.insignificant_newlines,
    ) {
        Ok(parsed) => parsed,
        Err(error) => {
            let offset = error.location().offset().min(text.len());
            let message = error.message().to_string();
            return Parsed {
                file: Err(SyntaxError {
                    summary: super::errors::native_summary(text, offset, &message),
                    beyond_tool_limit: is_beyond_parser_limit(&message),
                    message,
                    span: Span::new(id, offset..offset),
                }),
                duplicate_attributes: Vec::new(),
            };
        }
    };
    let lowerer = Lowerer {
        id,
        text,
        fixed_span: None,
        renamed_keys,
    };
    let mut duplicate_attributes = Vec::new();
    let body = lowerer.body(&mut body, &mut duplicate_attributes);
    Parsed {
        file: Ok(File { id, body, comments }),
        duplicate_attributes,
    }
}

/// The error for a heredoc that hcl-edit ends at another line than the tools: the tools' own
/// error when they find no end, else a limit of this parser (the tools may accept the file).
fn heredoc_misread(id: FileId, text: &str, misread: &Misread) -> SyntaxError {
    let line_number = |at: usize| text[..at].matches('\n').count() + 1;
    let parser_end = misread.parser_end.clone();
    let line = text[parser_end.clone()].trim_end();
    let after_marker =
        line.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let (summary, message) = match &misread.tools_end {
        None if after_marker.is_empty() => (
            "Unterminated template string",
            format!("`{line}` ends the file without a newline: it closes no heredoc"),
        ),
        None => (
            "Unterminated template string",
            format!("`{line}` closes no heredoc: a closing marker must be alone on its line"),
        ),
        Some(tools_end) => (
            PARSER_LIMIT_SUMMARY,
            format!(
                "tflint-merge's parser would end a heredoc at line {} (`{line}`), where \
                 Terraform and OpenTofu end it at line {}",
                line_number(parser_end.start),
                line_number(tools_end.start),
            ),
        ),
    };
    SyntaxError {
        summary,
        message,
        span: Span::new(id, parser_end.start..parser_end.start + line.len()),
        beyond_tool_limit: misread.tools_end.is_some(),
    }
}

/// The summary of a text beyond this parser's limits (reported as `parse_limit`, not as the
/// user's syntax error).
pub(crate) const PARSER_LIMIT_SUMMARY: &str = "Beyond the parser's limit";

/// Why a text is not given to the parser when [`super::scan::Scan::backtrack_cost`] is too high.
pub(crate) const BACKTRACK_LIMIT_MESSAGE: &str = "brackets, parentheses or strings nest too deeply \
    after operators for tflint-merge's parser to check this file in reasonable time";

/// Whether hcl-edit's error is one of its fixed limits (64 nested levels, 128 chained binary
/// operators) rather than a syntax error: Terraform has neither limit.
pub(crate) fn is_beyond_parser_limit(message: &str) -> bool {
    message.contains("at most 64 nested levels")
        || message.contains("at most 128 chained binary operators")
}

/// Parses a native-syntax expression embedded elsewhere (the `${...}` of a JSON string, a JSON
/// `type` string). All spans in the result are `span`.
pub(crate) fn parse_expr_at(source: &str, span: Span) -> Option<Expr> {
    let mut expr = hcl_edit::parser::parse_expr(source).ok()?;
    let lowerer = Lowerer {
        id: span.file,
        text: source,
        fixed_span: Some(span),
        renamed_keys: false,
    };
    Some(lowerer.expr(&mut expr))
}

/// One part of a native string template (`"${a}/x"`): literal text or an interpolation.
#[derive(Debug, Clone)]
pub(crate) enum TemplatePart {
    Literal(String),
    Interpolation(Expr),
    /// A `%{ if }` or `%{ for }` directive: its value is not known without evaluating it.
    Directive(Span),
}

/// The parts of the string template at `span` of a native file, with spans in that file. `None`
/// when the text there is not a quoted string template (a heredoc, or not a template at all).
pub(crate) fn template_parts(id: FileId, text: &str, span: Span) -> Option<Vec<TemplatePart>> {
    let range = span.range();
    let source = text.get(range.clone())?;
    if !source.starts_with('"') {
        return None;
    }
    // Parse `x=<template>` padded with spaces, so that offsets in the parsed body are offsets
    // in the file (`parse_expr` drops spans).
    let mut padded = " ".repeat(range.start.checked_sub(2)?);
    padded.push_str("x=");
    padded.push_str(source);
    let mut body = hcl_edit::parser::parse_body(&padded).ok()?;
    let Some(Structure::Attribute(attribute)) = body.get_mut(0) else {
        return None;
    };
    let Expression::StringTemplate(template) = &mut attribute.value else {
        return None;
    };
    let lowerer = Lowerer {
        id,
        text: &padded,
        fixed_span: None,
        renamed_keys: false,
    };
    Some(lower_template(&lowerer, template))
}

/// The parts of a string template expression of either syntax: read from the file's text in a
/// native file, from the string's value in a JSON file (where every part has the string's span:
/// escapes make offsets into the value differ from offsets into the file).
pub(crate) fn expr_template_parts(expr: &Expr, text: &str) -> Option<Vec<TemplatePart>> {
    let Some(value) = expr.json_string.as_deref() else {
        return template_parts(expr.span.file, text, expr.span);
    };
    let mut template = hcl_edit::parser::parse_template(value).ok()?;
    let lowerer = Lowerer {
        id: expr.span.file,
        text: value,
        fixed_span: Some(expr.span),
        renamed_keys: false,
    };
    Some(lower_template(&lowerer, &mut template))
}

fn lower_template(lowerer: &Lowerer, template: &mut Template) -> Vec<TemplatePart> {
    template
        .iter_mut()
        .map(|element| match element {
            Element::Literal(literal) => TemplatePart::Literal(std::mem::take(literal.value_mut())),
            Element::Interpolation(interpolation) => {
                TemplatePart::Interpolation(lowerer.expr(&mut interpolation.expr))
            }
            Element::Directive(directive) => {
                TemplatePart::Directive(lowerer.span(directive.span()))
            }
        })
        .collect()
}

fn strip_comment_delimiters(comment: &str) -> &str {
    let inner = if let Some(rest) = comment.strip_prefix("/*") {
        rest.strip_suffix("*/").unwrap_or(rest)
    } else if let Some(rest) = comment.strip_prefix("//") {
        rest
    } else {
        comment.strip_prefix('#').unwrap_or(comment)
    };
    inner.trim()
}

/// The text as hcl-edit can read it, every byte offset kept: a UTF-8 byte-order mark (which
/// Terraform skips) becomes three spaces, and the exponent of a number too large for an `f64`
/// becomes zeros (the model reads numbers from the original text, so `1e309` stays `1e309`).
fn parser_text<'t>(text: &'t str, scanned: &super::scan::Scan) -> Cow<'t, str> {
    const BOM: &str = "\u{feff}";
    if !text.starts_with(BOM) && scanned.overflowing_exponents.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut bytes = text.as_bytes().to_vec();
    if text.starts_with(BOM) {
        bytes[..BOM.len()].fill(b' ');
    }
    for digits in &scanned.overflowing_exponents {
        bytes[digits.clone()].fill(b'0');
    }
    // Only ASCII and whole characters were replaced by ASCII: still UTF-8.
    String::from_utf8(bytes).map_or(Cow::Borrowed(text), Cow::Owned)
}

/// Parses, working around the two hcl-edit gaps described in the module docs, and says whether
/// a key was renamed. Returns the first error hcl-edit gave that no workaround explains.
fn parse_tolerant(
    text: &str,
    insignificant_newlines: &[usize],
) -> Result<(HclBody, bool), hcl_edit::parser::Error> {
    let mut scratch = Cow::Borrowed(text);
    let mut newlines_replaced = false;
    let mut first_error = None;
    let mut renamed = 0;
    loop {
        let error = match hcl_edit::parser::parse_body(&scratch) {
            Ok(body) => return Ok((body, renamed > 0)),
            Err(error) => error,
        };
        let redefined = error.message().contains("redefined");
        if redefined && renamed < MAX_RENAMED_KEYS {
            let offset = error.location().offset();
            if rename_key(scratch.to_mut(), offset, renamed) {
                renamed += 1;
                continue;
            }
        }
        if !redefined && !newlines_replaced && !insignificant_newlines.is_empty() {
            newlines_replaced = true;
            first_error.get_or_insert(error);
            let bytes = scratch.to_mut();
            // SAFETY-free: replacing one ASCII byte with another keeps the text valid UTF-8.
            let mut owned = std::mem::take(bytes).into_bytes();
            for &offset in insignificant_newlines {
                if owned.get(offset) == Some(&b'\n') {
                    owned[offset] = b' ';
                }
            }
            *bytes = String::from_utf8(owned).unwrap_or_default();
            continue;
        }
        return Err(first_error.unwrap_or(error));
    }
}

/// Renames the key (identifier or quoted string) starting at `offset` to another name of the
/// same byte length. `attempt` picks a different name each time, in case the new name also
/// clashes. Returns false if there is nothing renameable there.
fn rename_key(text: &mut String, offset: usize, attempt: usize) -> bool {
    let bytes = text.as_bytes();
    let Some(&first) = bytes.get(offset) else {
        return false;
    };
    let range = if first == b'"' {
        let len = bytes[offset + 1..]
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b == b'$' || b == b'%')
            .unwrap_or(0);
        if bytes.get(offset + 1 + len) != Some(&b'"') {
            return false;
        }
        offset + 1..offset + 1 + len
    } else {
        let len = text[offset..]
            .char_indices()
            .find(|&(_, c)| !(c.is_alphanumeric() || c == '_' || c == '-'))
            .map_or(text.len() - offset, |(i, _)| i);
        offset..offset + len
    };
    if range.is_empty() {
        return false;
    }
    let replacement = scratch_name(range.len(), attempt);
    text.replace_range(range, &replacement);
    true
}

/// A valid identifier of exactly `len` bytes, different for each `attempt`.
fn scratch_name(len: usize, attempt: usize) -> String {
    const FIRST: &[u8] = b"ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvutsrqponmlkjihgfedcba_";
    const REST: &[u8] = b"0123456789ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvutsrqponmlkjihgfedcba_";
    let mut n = attempt;
    let mut name = String::with_capacity(len);
    name.push(FIRST[n % FIRST.len()] as char);
    n /= FIRST.len();
    for _ in 1..len {
        name.push(REST[n % REST.len()] as char);
        n /= REST.len();
    }
    name
}

/// Lowers hcl-edit's tree; names are read from the original text by span (see module docs).
struct Lowerer<'a> {
    id: FileId,
    /// The whole file's text.
    text: &'a str,
    /// When set, every span is this one (for expressions embedded in JSON strings).
    fixed_span: Option<Span>,
    /// Whether a repeated key was renamed in the text hcl-edit read: if not, every name it read
    /// is the name written, and is not compared with the text.
    renamed_keys: bool,
}

impl Lowerer<'_> {
    fn span(&self, range: Option<Range<usize>>) -> Span {
        if let Some(span) = self.fixed_span {
            return span;
        }
        Span::new(self.id, range.unwrap_or(0..0))
    }

    fn source(&self, range: Option<Range<usize>>, fallback: &str) -> String {
        self.source_str(range, fallback).to_string()
    }

    /// The text at `range` as written (a key hcl-edit read renamed is read back here), or the
    /// name hcl-edit read there, taken out of its tree (dropped after lowering) rather than
    /// copied: the name is almost always what is written.
    fn source_taken(&self, range: Option<Range<usize>>, read: &mut Decorated<Ident>) -> String {
        if self.renamed_keys
            && let Some(written) = self.written(range)
            && written != read.as_str()
        {
            return written.to_string();
        }
        take_ident(read)
    }

    /// The text at `range` as written (a key hcl-edit read renamed is read back here), or
    /// `fallback`.
    fn source_str<'s>(&'s self, range: Option<Range<usize>>, fallback: &'s str) -> &'s str {
        self.written(range).unwrap_or(fallback)
    }

    /// The text at `range` as written, if the spans are the text's.
    fn written(&self, range: Option<Range<usize>>) -> Option<&str> {
        range
            .and_then(|r| self.text.get(r))
            .filter(|_| self.fixed_span.is_none())
    }

    /// Lowers hcl-edit's body, taking the strings out of its tree.
    fn body(&self, body: &mut HclBody, duplicates: &mut Vec<DuplicateAttribute>) -> Body {
        let attribute_count = body.attributes().count();
        let mut out = Body {
            attributes: Vec::with_capacity(attribute_count),
            blocks: Vec::with_capacity(body.len() - attribute_count),
        };
        // The first definition of each attribute name, to report repeats in one pass. Only in
        // large bodies: in the others, looking through the attributes already lowered costs less
        // than a map (keyed by a copy of each name: the names are taken out of hcl-edit's tree).
        let mut first_spans: Option<HashMap<String, Span>> = (attribute_count
            > MAX_ATTRIBUTES_SEARCHED)
            .then(|| HashMap::with_capacity_and_hasher(attribute_count, Default::default()));
        for index in 0..body.len() {
            let Some(structure) = body.get_mut(index) else {
                break;
            };
            match structure {
                Structure::Attribute(attr) => {
                    let name_range = attr.key.span();
                    let name_span = self.span(name_range.clone());
                    let name = self.source_taken(name_range, &mut attr.key);
                    let first = match &mut first_spans {
                        Some(first_spans) => match first_spans.entry(name.clone()) {
                            Entry::Occupied(first) => Some(*first.get()),
                            Entry::Vacant(slot) => {
                                slot.insert(name_span);
                                None
                            }
                        },
                        None => (out.attributes.iter())
                            .find(|earlier| earlier.name == name)
                            .map(|earlier| earlier.name_span),
                    };
                    if let Some(first) = first {
                        duplicates.push(DuplicateAttribute {
                            name: name.clone(),
                            first,
                            second: name_span,
                            syntax: Syntax::Native,
                        });
                    }
                    out.attributes.push(Arc::new(Attribute {
                        name,
                        name_span,
                        expr: self.expr(&mut attr.value),
                    }));
                }
                Structure::Block(block) => {
                    let kind_range = block.ident.span();
                    let kind = self.source_taken(kind_range.clone(), &mut block.ident);
                    let labels: Labels = (block.labels.iter_mut())
                        .map(|label| Label {
                            span: self.span(label.span()),
                            value: match label {
                                BlockLabel::Ident(ident) => take_ident(ident),
                                BlockLabel::String(s) => std::mem::take(s.value_mut()),
                            },
                        })
                        .collect();
                    let kind_span = self.span(kind_range);
                    let header_span = labels.last().map_or(kind_span, |l| kind_span.to(l.span));
                    let block_end = block.span().map_or(header_span.end as usize, |r| r.end);
                    let header_end = header_span.end as usize;
                    let body_start = self.text.as_bytes()[header_end..block_end]
                        .iter()
                        .position(|&b| b == b'{')
                        .map_or(header_end, |p| header_end + p);
                    out.blocks.push(Block {
                        kind,
                        labels,
                        header_span,
                        body_span: self.span(Some(body_start..block_end)),
                        body: self.body(&mut block.body, duplicates),
                    });
                }
            }
        }
        out
    }

    /// Lowers an expression, taking the strings out of hcl-edit's tree.
    fn expr(&self, expr: &mut Expression) -> Expr {
        let range = expr.span();
        let span = self.span(range.clone());
        // Read before the names are taken out of the tree.
        let references = self.references_of(expr);
        let kind = match expr {
            Expression::Null(_) => ExprKind::Null,
            Expression::Bool(b) => ExprKind::Bool(*b.value()),
            Expression::Number(n) => ExprKind::Number(
                (self.written(range)).map_or_else(|| n.to_string(), str::to_string),
            ),
            Expression::String(s) => ExprKind::String(std::mem::take(s.value_mut())),
            Expression::StringTemplate(t) => {
                literal_template(t).map_or(ExprKind::Template, ExprKind::String)
            }
            Expression::HeredocTemplate(h) => {
                literal_template(&mut h.template).map_or(ExprKind::Template, ExprKind::String)
            }
            Expression::Array(items) => {
                ExprKind::Tuple(items.iter_mut().map(|e| self.expr(e)).collect())
            }
            Expression::Object(object) => ExprKind::Object(
                object
                    .iter_mut()
                    .map(|(key, value)| ObjectItem {
                        key: self.object_key(&key),
                        value: self.expr(value.expr_mut()),
                    })
                    .collect(),
            ),
            Expression::Parenthesis(p) => ExprKind::Parenthesis(Box::new(self.expr(p.inner_mut()))),
            Expression::Variable(v) => ExprKind::Variable(take_ident(v)),
            Expression::Traversal(t) => ExprKind::Traversal {
                root: Box::new(self.traversal_root(&mut t.expr)),
                steps: t
                    .operators
                    .iter_mut()
                    .map(|op| {
                        let op_span = op.span();
                        match op.value_mut() {
                            TraversalOperator::GetAttr(ident) => {
                                TraversalStep::Attr(take_ident(ident))
                            }
                            TraversalOperator::Index(index) => {
                                TraversalStep::Index(self.expr(index))
                            }
                            TraversalOperator::LegacyIndex(n) => TraversalStep::Index(Expr::new(
                                ExprKind::Number(n.value().to_string()),
                                self.span(op_span),
                            )),
                            TraversalOperator::AttrSplat(_) | TraversalOperator::FullSplat(_) => {
                                TraversalStep::Splat
                            }
                        }
                    })
                    .collect(),
            },
            Expression::FuncCall(call) => ExprKind::FunctionCall {
                name: call_name(&call.name),
                args: call.args.iter_mut().map(|a| self.expr(a)).collect(),
                expand_final: call.args.expand_final(),
            },
            Expression::Conditional(_)
            | Expression::UnaryOp(_)
            | Expression::BinaryOp(_)
            | Expression::ForExpr(_) => ExprKind::Other,
        };
        let calls = self.calls_kept_as_text(&*expr, &kind);
        let mut lowered = Expr::with_calls(kind, span, None, calls);
        lowered.references = references;
        lowered
    }

    /// A traversal's root: the traversal holds the reference that starts with a name.
    fn traversal_root(&self, root: &mut Expression) -> Expr {
        let mut lowered = self.expr(root);
        if matches!(lowered.kind, ExprKind::Variable(_)) {
            lowered.references.clear();
        }
        lowered
    }

    /// The references of `expr` that no expression the model keeps inside it holds (see
    /// [`Expr::references`]). Embedded expressions (`fixed_span`) have none: their embedding
    /// records them where they are in the file.
    fn references_of(&self, expr: &Expression) -> Vec<Reference> {
        if self.fixed_span.is_some() {
            return Vec::new();
        }
        let found = match expr {
            Expression::Variable(name) => references::name_reference(self.id, name),
            Expression::Traversal(traversal) => references::traversal_reference(self.id, traversal),
            Expression::StringTemplate(_)
            | Expression::HeredocTemplate(_)
            | Expression::Conditional(_)
            | Expression::UnaryOp(_)
            | Expression::BinaryOp(_)
            | Expression::ForExpr(_) => {
                let mut collector = ReferenceCollector::new(self.id);
                collector.visit_expr(expr);
                return collector.references;
            }
            _ => None,
        };
        found.into_iter().collect()
    }

    /// The calls of `expr` that `kind` does not hold as expressions of their own (see
    /// [`Expr::calls`]). Embedded expressions (`fixed_span`) have none: their embedding records
    /// them where they are in the file.
    fn calls_kept_as_text(&self, expr: &Expression, kind: &ExprKind) -> Vec<Call> {
        if self.fixed_span.is_some() {
            return Vec::new();
        }
        let mut collector = CallCollector {
            id: self.id,
            calls: Vec::new(),
            try_depth: 0,
        };
        match (expr, kind) {
            (Expression::FuncCall(call), _) => collector.push(&call.name),
            (_, ExprKind::Template | ExprKind::Other) => collector.visit_expr(expr),
            _ => {}
        }
        collector.calls
    }

    fn object_key(&self, key: &ObjectKey) -> Expr {
        match key {
            ObjectKey::Ident(ident) => {
                let name = if self.renamed_keys {
                    self.source(ident.span(), ident.as_str())
                } else {
                    ident.as_str().to_string()
                };
                Expr::new(ExprKind::Variable(name), self.span(ident.span()))
            }
            ObjectKey::Expression(expr) => {
                // hcl-edit gives no mutable access to keys: a copy (most keys are names).
                let mut lowered = self.expr(&mut expr.clone());
                // A quoted key may have been renamed in the scratch text: read it back.
                if let (ExprKind::String(_), Some(range)) = (&lowered.kind, expr.span())
                    && self.fixed_span.is_none()
                    && let Some(quoted) = self.text.get(range)
                    && let Some(inner) = quoted.strip_prefix('"').and_then(|q| q.strip_suffix('"'))
                    && !inner.contains('\\')
                {
                    lowered.kind = ExprKind::String(inner.to_string());
                }
                lowered
            }
        }
    }
}

/// A function's name as written, with its namespace: `provider::aws::arn_parse`.
fn call_name(name: &FuncName) -> String {
    let function = name.name.as_str();
    if name.namespace.is_empty() {
        return function.to_string();
    }
    let mut out = String::new();
    for namespace in &name.namespace {
        out.push_str(namespace.as_str());
        out.push_str("::");
    }
    out.push_str(function);
    out
}

/// Collects every function call below an expression or template, each with the range of its
/// name (namespace included). Offsets are those of the parsed text.
struct CallCollector {
    id: FileId,
    calls: Vec<Call>,
    /// How many `try` or `can` calls the call being visited is in the arguments of.
    try_depth: usize,
}

impl CallCollector {
    fn push(&mut self, name: &FuncName) {
        let end = name.name.span();
        let start = name
            .namespace
            .first()
            .and_then(|n| n.span())
            .or(end.clone());
        if let (Some(start), Some(end)) = (start, end) {
            self.calls.push(Call {
                name: call_name(name),
                span: Span::new(self.id, start.start..end.end),
                in_try: self.try_depth > 0,
            });
        }
    }
}

impl Visit for CallCollector {
    fn visit_func_call(&mut self, node: &FuncCall) {
        self.push(&node.name);
        let catches = crate::syntax::catches_errors(&call_name(&node.name));
        self.try_depth += usize::from(catches);
        visit_func_call(self, node);
        self.try_depth -= usize::from(catches);
    }
}

/// The function calls of a template parsed from a JSON string's value, their spans the ranges
/// of their names in that value (of no file: the caller places them).
pub(crate) fn template_calls(template: &Template) -> Vec<Call> {
    let mut collector = CallCollector {
        id: FileId(0),
        calls: Vec::new(),
        try_depth: 0,
    };
    collector.visit_template(template);
    collector.calls
}

/// Takes a name out of hcl-edit's tree, which is dropped after lowering.
fn take_ident(ident: &mut Decorated<Ident>) -> String {
    std::mem::replace(ident.value_mut(), Ident::new_unchecked(String::new())).into_string()
}

/// The string a template stands for when it holds no interpolation or directive, taken out of
/// hcl-edit's tree.
fn literal_template(template: &mut Template) -> Option<String> {
    // Looked at before anything is taken: most templates hold an interpolation.
    if !(template.iter()).all(|element| matches!(element, Element::Literal(_))) {
        return None;
    }
    let mut literals = template.iter_mut().filter_map(|element| match element {
        Element::Literal(literal) => Some(std::mem::take(literal.value_mut())),
        _ => None,
    });
    let mut text = literals.next().unwrap_or_default();
    text.extend(literals);
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(text: &str) -> File {
        match parse(FileId(0), text).file {
            Ok(file) => file,
            Err(e) => panic!("unexpected syntax error: {e:?}"),
        }
    }

    #[test]
    fn blocks_attributes_and_spans() {
        let text = "resource \"aws_instance\" \"web\" {\n  ami = \"x\"\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n";
        let file = parse_ok(text);
        let block = &file.body.blocks[0];
        assert_eq!(block.kind, "resource");
        assert_eq!(block.label(0), Some("aws_instance"));
        assert_eq!(block.label(1), Some("web"));
        assert_eq!(
            &text[block.header_span.range()],
            "resource \"aws_instance\" \"web\""
        );
        assert!(text[block.body_span.range()].starts_with('{'));
        assert!(text[block.body_span.range()].ends_with('}'));
        let ami = &block.body.attributes[0];
        assert_eq!(&text[ami.name_span.range()], "ami");
        assert_eq!(&text[ami.expr.span.range()], "\"x\"");
        assert_eq!(ami.expr.kind, ExprKind::String("x".into()));
        assert_eq!(block.body.blocks[0].kind, "lifecycle");
    }

    #[test]
    fn repeated_object_keys_parse_and_are_all_kept() {
        let text = "x = { a = 1, a = 2, \"b\" = 3, \"b\" = 4 }\n";
        let file = parse_ok(text);
        let ExprKind::Object(items) = &file.body.attributes[0].expr.kind else {
            panic!("not an object")
        };
        let keys: Vec<_> = items.iter().map(|i| i.key.kind.clone()).collect();
        assert_eq!(
            keys,
            [
                ExprKind::Variable("a".into()),
                ExprKind::Variable("a".into()),
                ExprKind::String("b".into()),
                ExprKind::String("b".into()),
            ]
        );
        assert_eq!(&text[items[1].value.span.range()], "2");
    }

    #[test]
    fn repeated_attribute_is_kept_and_reported() {
        let parsed = parse(FileId(0), "a = 1\nb = 2\na = 3\n");
        let file = parsed.file.expect("parses");
        assert_eq!(file.body.attributes.len(), 3);
        assert_eq!(file.body.attributes[2].name, "a");
        assert_eq!(parsed.duplicate_attributes.len(), 1);
        assert_eq!(parsed.duplicate_attributes[0].first.start, 0);
        assert_eq!(parsed.duplicate_attributes[0].second.start, 12);
    }

    #[test]
    fn repeated_attributes_of_a_large_body_are_reported_against_the_first() {
        let names: Vec<String> = (0..MAX_ATTRIBUTES_SEARCHED + 4)
            .map(|i| format!("a{i}"))
            .collect();
        let mut text: String = names.iter().map(|name| format!("{name} = 1\n")).collect();
        text.push_str("a3 = 2\na3 = 3\n");
        let parsed = parse(FileId(0), &text);
        let file = parsed.file.expect("parses");
        assert_eq!(file.body.attributes.len(), names.len() + 2);
        let first = text.find("a3 =").expect("the first a3");
        let repeats: Vec<_> = (parsed.duplicate_attributes.iter())
            .map(|d| {
                (
                    d.name.as_str(),
                    d.first.start as usize,
                    &text[d.second.range()],
                )
            })
            .collect();
        assert_eq!(repeats, [("a3", first, "a3"), ("a3", first, "a3")]);
        let second_starts: Vec<_> = (parsed.duplicate_attributes.iter())
            .map(|d| d.second.start as usize)
            .collect();
        assert!(second_starts[0] > first && second_starts[1] > second_starts[0]);
    }

    #[test]
    fn conditional_across_lines_inside_for_expression() {
        let text = "x = { for k, v in m : k => cond\n ? { a = 1 }\n : { a = 2 } }\ny = 1\n";
        let file = parse_ok(text);
        assert_eq!(file.body.attributes.len(), 2);
        assert_eq!(
            &text[file.body.attributes[0].expr.span.range()],
            "{ for k, v in m : k => cond\n ? { a = 1 }\n : { a = 2 } }"
        );
        assert_eq!(file.body.attributes[1].name_span.start, 60);
    }

    /// Terraform ends a block or an argument with its line: something after the closing brace
    /// on the same line is a syntax error; blanks and a comment are not.
    #[test]
    fn a_structure_ends_its_line() {
        let block = "resource \"x\" \"one\" {\n  a = 1\n}";
        for tail in [" resource \"c\" \"d\" {}\n", " b = 1\n", " /* c */ b = 1\n"] {
            let text = format!("{block}{tail}");
            assert!(parse(FileId(3), &text).file.is_err(), "{tail}");
        }
        for tail in ["  # end\r\n", " // end\n", "\t\r\n"] {
            let text = format!("{block}{tail}b = 1\n");
            let file = parse(FileId(3), &text).file.expect("parses");
            assert_eq!((file.body.blocks.len(), file.body.attributes.len()), (1, 1));
        }
    }

    #[test]
    fn syntax_error_is_located() {
        let text = "a = 1\nresource \"x\" {\n  b = \n}\n";
        let error = parse(FileId(0), text).file.expect_err("must fail");
        assert!(error.span.start as usize > 6, "{error:?}");
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = format!("x = {}1{}\n", "[".repeat(5000), "]".repeat(5000));
        assert!(parse(FileId(0), &text).file.is_err());
    }

    #[test]
    fn comments_are_collected_without_delimiters() {
        let file = parse_ok("# tflint-merge-ignore: a\nx = 1 /* b */\n");
        let texts: Vec<_> = file.comments.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["tflint-merge-ignore: a", "b"]);
    }

    #[test]
    fn template_parts_keep_file_offsets() {
        let text = "x = \"${get_terragrunt_dir()}/../a.hcl\"\n";
        let file = parse_ok(text);
        let expr = &file.body.attributes[0].expr;
        let parts = template_parts(FileId(0), text, expr.span).expect("a template");
        assert_eq!(parts.len(), 2);
        let TemplatePart::Interpolation(call) = &parts[0] else {
            panic!("{parts:?}")
        };
        assert_eq!(&text[call.span.range()], "get_terragrunt_dir()");
        assert!(matches!(&parts[1], TemplatePart::Literal(l) if l == "/../a.hcl"));
        assert!(template_parts(FileId(0), text, file.body.attributes[0].name_span).is_none());
    }

    #[test]
    fn embedded_expressions_take_the_given_span() {
        let span = Span::new(FileId(3), 10..20);
        let expr = parse_expr_at("list(string)", span).expect("parses");
        assert_eq!(expr.span, span);
        let ExprKind::FunctionCall { name, args, .. } = &expr.kind else {
            panic!()
        };
        assert_eq!(name, "list");
        assert_eq!(args[0].kind, ExprKind::Variable("string".into()));
        assert_eq!(args[0].span, span);
    }
}
