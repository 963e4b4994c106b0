//! JSON syntax (`.tf.json`, `.tofu.json`): parsed as HCL's JSON parser parses it ([`scan`] for
//! the tokens, [`tree`] for the values and the first error), lowered into [`crate::syntax`]
//! types.
//!
//! The lowering follows HCL's JSON rules as Terraform and OpenTofu apply them:
//! - top-level keys are block types; labels are nested object keys (an array of objects at a
//!   label level is flattened); the value after the last label is the body, or an array of
//!   bodies (several blocks), or `null` (no block);
//! - inside a body, whether a key is a nested block or an attribute depends on the schema. We
//!   only know the schema of Terraform's own blocks ([`nested_block`]); everything else
//!   (provider-defined bodies, module arguments, locals) is an attribute holding the JSON value;
//! - `"//"` keys in bodies are comments; at the root, their string values become
//!   [`Comment`]s. At a label level, `"//"` is a label like any other;
//! - strings are templates: `"${expr}"` is the expression, other strings with template
//!   sequences are templates, the rest are plain strings. The JSON string itself is always kept
//!   by [`Expr::json_string`], for the places where the tools read it literally.

use std::cell::OnceCell;
use std::sync::Arc;

use super::references::Reference;
use foldhash::HashMap;
mod scan;
mod tree;

pub(crate) use tree::parse_steps;

use tree::{Array, Object, Property as ObjectProp, TextRange as JsonRange, Value};

use super::{
    Attribute, Block, Body, Call, Comment, DuplicateAttribute, Expr, ExprKind, File, Label,
    ObjectItem, Parsed, SyntaxError, errors, hcl,
};
use crate::knowledge::literal_arguments;
use crate::source::{FileId, Span, Syntax};

type Result<T> = std::result::Result<T, SyntaxError>;

pub(crate) fn parse(id: FileId, text: &str) -> Parsed {
    parse_with(id, text, text.as_bytes(), Schema::Root)
}

/// A `terragrunt.hcl.json` file: the same JSON rules, with Terragrunt's blocks at the root.
pub(crate) fn parse_terragrunt(id: FileId, text: &str) -> Parsed {
    parse_with(id, text, text.as_bytes(), Schema::TerragruntRoot)
}

/// A file whose `bytes` are not all UTF-8, `text` standing in for them byte for byte: HCL's
/// scanner finds the tokens in the bytes themselves (a string's grapheme clusters may take in
/// its closing quote after a byte that is not UTF-8), the values are read from `text`.
pub(crate) fn parse_not_utf8(id: FileId, text: &str, bytes: &[u8], terragrunt: bool) -> Parsed {
    let schema = if terragrunt {
        Schema::TerragruntRoot
    } else {
        Schema::Root
    };
    parse_with(id, text, bytes, schema)
}

fn parse_with(id: FileId, text: &str, bytes: &[u8], schema: Schema) -> Parsed {
    let mut lowerer = Lowerer {
        id,
        text,
        duplicates: Vec::new(),
        comments: Vec::new(),
        invalid_template: OnceCell::new(),
        // Terragrunt reads its own files; this only judges what Terraform and OpenTofu read.
        judges_templates: schema == Schema::Root,
        block_path: Vec::new(),
        in_check_condition: false,
    };
    let file = parse_root(id, text, bytes).and_then(|root| {
        let body = lowerer.root(&root, schema)?;
        match lowerer.invalid_template.take() {
            Some(error) => Err(error),
            None => Ok(body),
        }
    });
    match file {
        Ok(body) => Parsed {
            file: Ok(File {
                id,
                body,
                comments: lowerer.comments,
            }),
            duplicate_attributes: lowerer.duplicates,
        },
        Err(error) => Parsed {
            file: Err(error),
            duplicate_attributes: Vec::new(),
        },
    }
}

/// Parses the text as HCL's JSON parser does: the first error HCL reports, where it reports it.
fn parse_root<'t>(id: FileId, text: &'t str, bytes: &'t [u8]) -> Result<Value<'t>> {
    tree::parse(text, bytes).map_err(|error| {
        let at = error.at.min(text.len());
        SyntaxError {
            summary: error.summary,
            beyond_tool_limit: error.beyond_limit,
            message: error.detail.to_string(),
            span: Span::new(id, at..at),
        }
    })
}

/// What a body may nest as blocks. Everything not listed in [`nested_block`] is an attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Schema {
    Root,
    /// The root of a `terragrunt.hcl.json`: Terragrunt's blocks, everything else attributes.
    TerragruntRoot,
    /// `resource`, `data`, `ephemeral` (also `data` in `check`).
    Resource,
    Lifecycle,
    Provisioner,
    Dynamic,
    /// The `content` of a `dynamic` block: a provider-defined body, which may nest `dynamic`.
    DynamicContent,
    Provider,
    Terraform,
    Cloud,
    /// Terraform's experimental `state_store`: the store's settings and one `provider` block.
    StateStore,
    Encryption,
    /// `state`, `plan` and the remote state data source settings of `encryption`.
    EncryptionTarget,
    RemoteStateSources,
    Variable,
    Output,
    Check,
    Language,
    Module,
    Removed,
    /// Attributes only.
    Plain,
}

/// Top-level block types Terraform or OpenTofu know.
fn is_known_top_level(key: &str) -> bool {
    matches!(
        key,
        "resource"
            | "data"
            | "ephemeral"
            | "action"
            | "variable"
            | "output"
            | "module"
            | "provider"
            | "check"
            | "locals"
            | "terraform"
            | "language"
            | "moved"
            | "import"
            | "removed"
    )
}

/// If `key` is a nested block type in a body of `schema`: its number of labels and the schema of
/// its body.
fn nested_block(schema: Schema, key: &str) -> Option<(usize, Schema)> {
    use Schema::*;
    Some(match (schema, key) {
        (TerragruntRoot, "include" | "dependency" | "import" | "generate" | "feature") => {
            (1, Plain)
        }
        (
            TerragruntRoot,
            "dependencies" | "terraform" | "remote_state" | "locals" | "exclude" | "errors"
            | "engine" | "catalog",
        ) => (0, Plain),
        // An `action` has two labels and meta-arguments like a resource's (`count`,
        // `for_each`, `provider`), with its settings in a nested `config`.
        (Root, "resource" | "data" | "ephemeral" | "action") => (2, Resource),
        (Root, "variable") => (1, Variable),
        (Root, "output") => (1, Output),
        (Root, "module") => (1, Module),
        (Root, "provider") => (1, Provider),
        (Root, "check") => (1, Check),
        (Root, "terraform") => (0, Terraform),
        (Root, "language") => (0, Language),
        (Root, "removed") => (0, Removed),
        // `locals`, `moved`, `import`, and unknown block types (reported later).
        (Root, _) => (0, Plain),
        (Resource | Removed, "lifecycle") => (0, Lifecycle),
        (Resource | Removed, "provisioner") => (1, Provisioner),
        (Resource | Removed | Provisioner, "connection") => (0, Plain),
        (Resource | DynamicContent | Provider, "dynamic") => (1, Dynamic),
        (Dynamic, "content") => (0, DynamicContent),
        (Lifecycle, "precondition" | "postcondition" | "action_trigger") => (0, Plain),
        (Terraform, "backend") => (1, Plain),
        (Terraform, "cloud") => (0, Cloud),
        (Terraform, "state_store") => (1, StateStore),
        (StateStore, "provider") => (1, Provider),
        (Cloud, "workspaces") => (0, Plain),
        (Terraform, "required_providers") => (0, Plain),
        (Terraform, "provider_meta") => (1, Plain),
        (Terraform, "encryption") => (0, Encryption),
        (Encryption, "key_provider" | "method") => (2, Plain),
        (Encryption, "state" | "plan") => (0, EncryptionTarget),
        (Encryption, "remote_state_data_sources") => (0, RemoteStateSources),
        (RemoteStateSources, "default") => (0, EncryptionTarget),
        (RemoteStateSources, "remote_state_data_source") => (1, EncryptionTarget),
        (EncryptionTarget, "fallback") => (0, Plain),
        (Variable, "validation") => (0, Plain),
        (Output, "precondition") => (0, Plain),
        (Check, "assert") => (0, Plain),
        (Check, "data") => (2, Resource),
        (Language, "compatible_with") => (0, Plain),
        (Module, "lifecycle") => (0, Plain),
        _ => return None,
    })
}

struct Lowerer<'t> {
    id: FileId,
    /// The file's text, to find places inside JSON strings.
    text: &'t str,
    duplicates: Vec<DuplicateAttribute>,
    comments: Vec<Comment>,
    /// The first string that is not a valid template where the tools evaluate it as one.
    invalid_template: OnceCell<SyntaxError>,
    /// Whether this file's strings are judged as templates at all (see [`Lowerer::judged`]).
    judges_templates: bool,
    /// The kinds of the blocks being lowered, from the root of the file.
    block_path: Vec<String>,
    /// Lowering a check rule's `condition`, whose invalid templates the tools never report (see
    /// [`Lowerer::is_check_condition`]).
    in_check_condition: bool,
}

impl Lowerer<'_> {
    fn span(&self, range: JsonRange) -> Span {
        Span::new(self.id, range.start..range.end)
    }

    /// An error of the lowering: a JSON value of the wrong kind, unless `summary` says more.
    fn error(&self, range: JsonRange, message: String) -> SyntaxError {
        self.error_with(range, errors::INCORRECT_JSON_VALUE_TYPE, message)
    }

    fn error_with(&self, range: JsonRange, summary: &'static str, message: String) -> SyntaxError {
        SyntaxError {
            summary,
            beyond_tool_limit: false,
            message,
            span: self.span(range),
        }
    }

    fn root(&mut self, root: &Value, schema: Schema) -> Result<Body> {
        let not_object = "Root value must be object: the root value in a JSON configuration must \
                          be a JSON object or an array of JSON objects";
        let objects: Vec<&Object> = match root {
            Value::Object(object) => vec![object],
            Value::Array(array) => array
                .elements
                .iter()
                .map(|element| match element {
                    Value::Object(object) => Ok(object),
                    other => Err(self.error(value_range(other), not_object.to_string())),
                })
                .collect::<Result<_>>()?,
            // HCL's JSON parser itself refuses any other root (hashicorp/hcl `json/public.go`).
            other => {
                return Err(self.error_with(
                    value_range(other),
                    "Root value must be object",
                    "The root value in a JSON-based configuration must be either a JSON object \
                     or a JSON array of objects."
                        .to_string(),
                ));
            }
        };
        self.body(&objects, schema)
    }

    /// One body, from one object or several (an array of objects at body level is merged).
    fn body(&mut self, objects: &[&Object], schema: Schema) -> Result<Body> {
        let mut out = Body::default();
        let mut defined: HashMap<String, Span> = HashMap::default();
        for prop in objects.iter().flat_map(|o| o.properties.iter()) {
            let (name, name_range) = prop_name(prop);
            if name == "//" {
                if matches!(schema, Schema::Root | Schema::TerragruntRoot) {
                    self.root_comment(&prop.value);
                }
                continue;
            }
            let as_block = match nested_block(schema, name) {
                Some(_) if schema == Schema::Root && !is_known_top_level(name) => {
                    is_block_shaped(&prop.value)
                }
                found => found.is_some(),
            };
            if let (true, Some((labels, body_schema))) = (as_block, nested_block(schema, name)) {
                let kind_span = self.span(name_range);
                let mut header = BlockHeader {
                    kind: name,
                    kind_span,
                    labels: Vec::new(),
                };
                self.blocks(
                    &prop.value,
                    &mut header,
                    labels,
                    body_schema,
                    &mut out.blocks,
                )?;
                continue;
            }
            let name_span = self.span(name_range);
            match defined.get(name) {
                Some(&first) => self.duplicates.push(DuplicateAttribute {
                    name: name.to_string(),
                    first,
                    second: name_span,
                    syntax: Syntax::Json,
                }),
                None => {
                    defined.insert(name.to_string(), name_span);
                }
            }
            self.in_check_condition = self.is_check_condition(name);
            let expr = self.expr(&prop.value, self.judged(name));
            self.in_check_condition = false;
            out.attributes.push(Arc::new(Attribute {
                name: name.to_string(),
                name_span,
                expr,
            }));
        }
        Ok(out.fitted())
    }

    /// Whether the tools evaluate the argument `name` of the current block with an evaluation
    /// context, which makes its JSON strings templates (see [`literal_arguments`]). Attributes
    /// of the root and of block types the tools do not know are never evaluated.
    fn judged(&self, name: &str) -> bool {
        self.judges_templates
            && self
                .block_path
                .first()
                .is_some_and(|kind| is_known_top_level(kind))
            && !literal_arguments::reads_literally(&self.block_path, name)
    }

    /// Whether `name` is the `condition` of a check rule (`precondition`, `postcondition`,
    /// `assert`, `validation`): the tools first ask HCL for its references (`Variables()`), which
    /// for a JSON string that is no valid template are none (hashicorp/hcl `json/structure.go`),
    /// so they refuse it as a condition that refers to nothing (`Invalid precondition
    /// expression`, hashicorp/terraform `internal/configs/checks.go`) before it is ever
    /// evaluated: the template error itself is never reported.
    fn is_check_condition(&self, name: &str) -> bool {
        name == "condition"
            && matches!(
                self.block_path.last().map(String::as_str),
                Some("precondition" | "postcondition" | "assert" | "validation")
            )
    }

    fn root_comment(&mut self, value: &Value) {
        let strings: Vec<&Value> = match value {
            Value::Array(array) => array.elements.iter().collect(),
            other => vec![other],
        };
        for value in strings {
            if let Value::String(s) = value {
                self.comments.push(Comment {
                    text: s.value.trim().to_string(),
                    span: self.span(s.range),
                });
            }
        }
    }

    /// The blocks a JSON value stands for, once `labels_left` more labels are peeled off it.
    fn blocks(
        &mut self,
        value: &Value,
        header: &mut BlockHeader,
        labels_left: usize,
        schema: Schema,
        out: &mut Vec<Block>,
    ) -> Result<()> {
        if labels_left > 0 {
            let props = self.label_props(value, header.kind)?;
            if props.is_empty() {
                return Err(self.error_with(
                    value_range(value),
                    errors::MISSING_BLOCK_LABEL,
                    format!(
                        "Missing block label: a {} block needs a JSON object property here, \
                         whose name is the block's label",
                        header.kind
                    ),
                ));
            }
            for prop in props {
                let (label, range) = prop_name(prop);
                header.labels.push(Label {
                    value: label.to_string(),
                    span: self.span(range),
                });
                let result = self.blocks(&prop.value, header, labels_left - 1, schema, out);
                header.labels.pop();
                result?;
            }
            return Ok(());
        }
        self.block_path.push(header.kind.to_string());
        let result = self.block_bodies(value, header, schema, out);
        self.block_path.pop();
        result
    }

    /// The blocks of a JSON value whose labels are all peeled off: one body, several, or none.
    fn block_bodies(
        &mut self,
        value: &Value,
        header: &BlockHeader,
        schema: Schema,
        out: &mut Vec<Block>,
    ) -> Result<()> {
        match value {
            Value::Null(_) => {}
            Value::Object(object) => {
                let body = self.body(&[object], schema)?;
                out.push(header.block(self.span(object.range), body));
            }
            Value::Array(array) => {
                for element in &array.elements {
                    let body = match element {
                        Value::Object(object) => self.body(&[object], schema)?,
                        Value::Array(inner) => {
                            let objects = self.body_objects(inner, header.kind)?;
                            self.body(&objects, schema)?
                        }
                        Value::Null(_) => Body::default(),
                        other => return Err(self.not_a_body(other, header.kind)),
                    };
                    out.push(header.block(self.span(value_range(element)), body));
                }
            }
            other => return Err(self.not_a_body(other, header.kind)),
        }
        Ok(())
    }

    fn not_a_body(&self, value: &Value, kind: &str) -> SyntaxError {
        self.error(
            value_range(value),
            format!("{kind} block body must be a JSON object"),
        )
    }

    /// The objects of an array standing for one body.
    fn body_objects<'v, 'a>(
        &self,
        array: &'v Array<'a>,
        kind: &str,
    ) -> Result<Vec<&'v Object<'a>>> {
        array
            .elements
            .iter()
            .map(|element| match element {
                Value::Object(object) => Ok(object),
                other => Err(self.not_a_body(other, kind)),
            })
            .collect()
    }

    /// The properties of a label level: one object, or an array of objects, flattened.
    fn label_props<'v, 'a>(
        &self,
        value: &'v Value<'a>,
        kind: &str,
    ) -> Result<Vec<&'v ObjectProp<'a>>> {
        let message =
            || format!("a JSON object is required here, to give the labels of a {kind} block");
        match value {
            Value::Null(_) => Ok(Vec::new()),
            Value::Object(object) => Ok(object.properties.iter().collect()),
            Value::Array(array) => {
                let mut props = Vec::new();
                for element in &array.elements {
                    match element {
                        Value::Object(object) => props.extend(object.properties.iter()),
                        other => return Err(self.error(value_range(other), message())),
                    }
                }
                Ok(props)
            }
            other => Err(self.error(value_range(other), message())),
        }
    }

    /// The expression of a JSON value; `judged`: its strings are templates for the tools (see
    /// [`Lowerer::judged`]), so one that does not parse as a template is an error.
    fn expr(&self, value: &Value, judged: bool) -> Expr {
        let span = self.span(value_range(value));
        match value {
            Value::Null(_) => Expr::new(ExprKind::Null, span),
            Value::Bool(b, _) => Expr::new(ExprKind::Bool(*b), span),
            Value::Number(n, _) => Expr::new(ExprKind::Number(n.to_string()), span),
            Value::String(s) => self.string_expr(&s.value, span, judged),
            Value::Array(array) => Expr::new(
                ExprKind::Tuple(
                    array
                        .elements
                        .iter()
                        .map(|e| self.expr(e, judged))
                        .collect(),
                ),
                span,
            ),
            Value::Object(object) => Expr::new(
                ExprKind::Object(
                    object
                        .properties
                        .iter()
                        .map(|prop| {
                            let (key, range) = prop_name(prop);
                            // HCL evaluates object keys as templates too, in the same context.
                            let evaluated = if judged {
                                self.key_template(key, self.span(range))
                            } else {
                                Evaluated::default()
                            };
                            ObjectItem {
                                key: evaluated.into_expr(
                                    ExprKind::String(key.to_string()),
                                    self.span(range),
                                    key,
                                ),
                                value: self.expr(&prop.value, judged),
                            }
                        })
                        .collect(),
                ),
                span,
            ),
        }
    }
}

/// A block's type and the labels peeled off so far.
struct BlockHeader<'k> {
    kind: &'k str,
    kind_span: Span,
    labels: Vec<Label>,
}

impl BlockHeader<'_> {
    fn block(&self, body_span: Span, body: Body) -> Block {
        let header_span = self
            .labels
            .last()
            .map_or(self.kind_span, |l| self.kind_span.to(l.span));
        Block {
            kind: self.kind.to_string(),
            labels: self.labels.iter().cloned().collect(),
            header_span,
            body_span,
            body,
        }
    }
}

/// Whether an unknown top-level key reads as blocks (else it is an attribute of the root body).
fn is_block_shaped(value: &Value) -> bool {
    match value {
        Value::Object(_) => true,
        Value::Array(array) => {
            !array.elements.is_empty()
                && array.elements.iter().all(|e| matches!(e, Value::Object(_)))
        }
        _ => false,
    }
}

fn prop_name<'p>(prop: &'p ObjectProp) -> (&'p str, JsonRange) {
    (prop.name.value.as_ref(), prop.name.range)
}

fn value_range(value: &Value) -> JsonRange {
    value.range()
}

impl Lowerer<'_> {
    /// A JSON string as an expression: a plain string, the expression of a `"${...}"` covering
    /// the whole string, or a template. `json_string` is always the string itself.
    /// The calls of a judged string are recorded where their names are in the file.
    fn string_expr(&self, s: &str, span: Span, judged: bool) -> Expr {
        let (kind, evaluated) = match template_kind(s, span) {
            Ok((kind, evaluated)) if judged => (kind, self.in_file(span, evaluated)),
            Ok((kind, _)) => (kind, Evaluated::default()),
            Err(error) => {
                if judged && !error.beyond_limit && !self.in_check_condition {
                    self.invalid_template(span, &error);
                }
                (ExprKind::Template, Evaluated::default())
            }
        };
        evaluated.into_expr(kind, span, s)
    }

    /// The calls of an object key (`s` at `span`), which the tools evaluate as a template where
    /// its value is judged; records the error if it is not a valid template.
    fn key_template(&self, s: &str, span: Span) -> Evaluated {
        if !has_template_sequence(s) {
            return Evaluated::default();
        }
        match hcl::parse_value_template(s) {
            Ok(template) => self.in_file(span, Evaluated::of(template)),
            Err(error) => {
                if !error.beyond_limit && !self.in_check_condition {
                    self.invalid_template(span, &error);
                }
                Evaluated::default()
            }
        }
    }

    /// What was found in the value of the JSON string at `span`, placed in the file: offsets
    /// into the value map through the string's escapes (one pass over its source).
    fn in_file(&self, span: Span, mut evaluated: Evaluated) -> Evaluated {
        let call_spans = evaluated.calls.iter_mut().flat_map(|c| {
            let arguments = c.arguments.items.iter_mut().map(|a| &mut a.span);
            [&mut c.span, &mut c.arguments.close]
                .into_iter()
                .chain(arguments)
        });
        let mut spans: Vec<&mut Span> = call_spans
            .chain(evaluated.references.iter_mut().map(|r| &mut r.span))
            .collect();
        if spans.is_empty() {
            return evaluated;
        }
        let (start, end) = (span.start as usize, span.end as usize);
        let raw = self
            .text
            .get(start + 1..end.saturating_sub(1))
            .unwrap_or("");
        let mut offsets: Vec<usize> = (spans.iter())
            .flat_map(|s| [s.start as usize, s.end as usize])
            .collect();
        offsets.sort_unstable();
        offsets.dedup();
        let in_source = source_offsets(raw, &offsets);
        let place = |offset: u32| {
            let index = offsets.partition_point(|&o| o < offset as usize);
            start + 1 + in_source.get(index).copied().unwrap_or(raw.len())
        };
        for placed in &mut spans {
            **placed = Span::new(span.file, place(placed.start)..place(placed.end));
        }
        evaluated
    }

    /// Records the first invalid template, with HCL's summary and, when the string has no
    /// escapes to shift offsets, the place inside it.
    fn invalid_template(&self, span: Span, error: &hcl::ParseError) {
        if self.invalid_template.get().is_some() {
            return;
        }
        let offset = error.at.start;
        let (start, end) = (span.start as usize, span.end as usize);
        let raw = self.text.get(start + 1..end - 1).unwrap_or("");
        // One character at the offset; at the end of the value, the closing quote.
        let at = start + 1 + source_offset(raw, offset).min(raw.len());
        let span = Span::new(span.file, at..at + 1);
        let _ = self.invalid_template.set(SyntaxError {
            summary: error.summary,
            message: format!("in this template: {}", error.message),
            span,
            beyond_tool_limit: false,
        });
    }
}

/// The byte offset in `raw` (a JSON string's source between its quotes) of the byte `offset` of
/// its value: escapes are longer in the source than in the value (`\n`, `\u00e9`).
fn source_offset(raw: &str, offset: usize) -> usize {
    source_offsets(raw, &[offset]).pop().unwrap_or_default()
}

/// [`source_offset`] of each of `offsets` (ascending), in one pass over `raw`.
fn source_offsets(raw: &str, offsets: &[usize]) -> Vec<usize> {
    let bytes = raw.as_bytes();
    let (mut at, mut value) = (0, 0);
    let mut out = Vec::with_capacity(offsets.len());
    for &offset in offsets {
        while at < bytes.len() && value < offset {
            let (source_len, value_len) = match (bytes[at], bytes.get(at + 1)) {
                (b'\\', Some(b'u')) => {
                    let code = raw
                        .get(at + 2..at + 6)
                        .and_then(|h| u32::from_str_radix(h, 16).ok());
                    match code {
                        // A surrogate pair: two escapes for one four-byte character.
                        Some(0xD800..=0xDBFF) => (12, 4),
                        Some(code) => (6, char::from_u32(code).map_or(3, char::len_utf8)),
                        None => (2, 1),
                    }
                }
                (b'\\', _) => (2, 1),
                _ => (1, 1),
            };
            at += source_len;
            value += value_len;
        }
        out.push(at.min(bytes.len()));
    }
    out
}

/// Whether a string has a template sequence. `$${` and `%%{` contain these too, so a string
/// without them has nothing to unescape either.
fn has_template_sequence(s: &str) -> bool {
    s.contains("${") || s.contains("%{")
}

/// The kind of a JSON string's expression and what its template holds (with ranges in `s`), or the template parser's error where the string is not a valid template.
/// Such a string is still a valid JSON string: where the tools read it literally it is fine
/// (the caller decides).
fn template_kind(s: &str, span: Span) -> TemplateKind {
    if !has_template_sequence(s) {
        return Ok((ExprKind::String(s.to_string()), Evaluated::default()));
    }
    let template = hcl::parse_value_template(s)?;
    if !template.has_sequences {
        let literal = template.literal.clone();
        return Ok((ExprKind::String(literal), Evaluated::of(template)));
    }
    // A string that is one interpolation is that expression's value.
    let kind = match template.parts.as_slice() {
        [hcl::TemplatePart::Interpolation(expr)] => hcl::embed(expr.clone(), span).kind,
        _ => ExprKind::Template,
    };
    Ok((kind, Evaluated::of(template)))
}

/// What the tools evaluate in a JSON string's template: its calls and references, with spans in
/// the string's value until [`Lowerer::in_file`] places them in the file.
#[derive(Debug, Default)]
struct Evaluated {
    calls: Vec<Call>,
    references: Vec<Reference>,
}

impl Evaluated {
    fn of(template: hcl::ValueTemplate) -> Evaluated {
        Evaluated {
            calls: template.calls,
            references: template.references,
        }
    }

    /// The expression of a JSON string (`s` at `span`) that holds them.
    fn into_expr(self, kind: ExprKind, span: Span, s: &str) -> Expr {
        let mut expr = Expr::with_calls(kind, span, Some(s.into()), self.calls);
        expr.set_references(self.references);
        expr
    }
}

/// What [`template_kind`] finds.
type TemplateKind = std::result::Result<(ExprKind, Evaluated), hcl::ParseError>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::TraversalStep;

    fn parse_ok(text: &str) -> File {
        match parse(FileId(0), text).file {
            Ok(file) => file,
            Err(e) => panic!("unexpected syntax error: {e:?}"),
        }
    }

    fn parse_err(text: &str) -> SyntaxError {
        match parse(FileId(0), text).file {
            Ok(file) => panic!("expected a syntax error, got {file:?}"),
            Err(e) => e,
        }
    }

    /// Files that are not UTF-8, read as the reader reads them (a stand-in for each bad
    /// byte): HCL's scanner steps over a string by grapheme clusters (go-textseg), whose
    /// classes take a bad lead byte with the bytes after it, a quote or a newline among them.
    /// Each with Terraform 1.15.5's first error (summary, byte).
    #[test]
    fn strings_over_bytes_that_are_not_utf8_end_where_hcl_clusters_end_them() {
        let cases: &[(&[u8], &str, usize)] = &[
            // `EB 62 22` is a Hangul LVT syllable to go-textseg: the key runs on to `: "`, and
            // Go's decoder refuses the `:` after its quote.
            (b"{\"a\xebb\": \"x\"}", "Invalid JSON string", 7),
            // The same in a value: the string runs to the end; `}` after the taken quote.
            (
                b"{\"locals\": {\"a\": \"x\xeby\"}}",
                "Invalid JSON string",
                23,
            ),
            // A bad byte before the quote: `CD 22` is an Extend, joined to the `x`.
            (b"{\"a\": \"x\xcd\"}", "Invalid JSON string", 11),
            (b"{\"a\": \"x\xcd\", \"b\": 1}", "Invalid JSON string", 11),
            // A bad byte before a newline: `EB 0A 31` is one cluster, so the newline is in the
            // string (and Go's decoder refuses it there), not its end.
            (b"{\"a\": \"x\xeb\n1\"}", "Invalid JSON string", 10),
            (b"{\"a\": \"\xeb\nb\"}", "Invalid JSON string", 9),
            // `EB 22 0A` is one cluster: the quote ends the string to Go's decoder, which then
            // skips JSON's whitespace (newlines and tabs too) and refuses what follows it, one
            // byte past it.
            (b"{\"a\": \"x\xeb\"\n  }\n", "Invalid JSON string", 14),
            (b"{\"a\": \"x\xeb\"\t}\n", "Invalid JSON string", 12),
            (b"{\"a\": \"x\xed\"\n  1}\n", "Invalid JSON string", 14),
            (b"{\"a\": \"x\xeb\"\n\"b\": 1}", "Invalid JSON string", 12),
            (
                b"{\"locals\": {\"a\": \"x\xeb\"\n}}\n",
                "Invalid JSON string",
                23,
            ),
            // Only whitespace after the quote: the string is valid, the object unclosed.
            (b"{\"a\": \"x\xeb\"\n", "Unclosed object", 0),
        ];
        for (bytes, summary, at) in cases {
            let text = crate::syntax::stand_in_for_not_utf8(bytes, Syntax::Json);
            let parsed = crate::syntax::parse_not_utf8(FileId(0), Syntax::Json, &text, bytes);
            let error = parsed.file.expect_err("refused");
            assert_eq!(
                (error.summary, error.span.start as usize),
                (*summary, *at),
                "{bytes:x?}"
            );
        }
        // Where no cluster takes the quote, a bad byte is text (Terraform 1.15.5 loads it).
        // So does it where a cluster takes the quote and only whitespace after it, which Go's
        // decoder skips after the string.
        let accepted: &[&[u8]] = &[
            b"{\"locals\": {\"a\": \"x\xff\"}}",
            b"{\"locals\": {\"a\": \"x\xeb\"\n\n}}\n",
            b"{\"locals\": {\"a\": \"x\xeb\"\r\n}}\n",
            b"{\"locals\": {\"a\": \"x\xeb\"\n \t}}\n",
        ];
        for bytes in accepted {
            let text = crate::syntax::stand_in_for_not_utf8(bytes, Syntax::Json);
            let parsed = crate::syntax::parse_not_utf8(FileId(0), Syntax::Json, &text, bytes);
            assert!(parsed.file.is_ok(), "{bytes:x?}");
        }
    }

    /// The dotted name of a static reference (`var.x`, `path.module`).
    fn reference_name(expr: &Expr) -> Option<String> {
        match &expr.kind {
            ExprKind::Variable(name) => Some(name.clone()),
            ExprKind::Traversal { root, steps } => {
                let mut name = reference_name(root)?;
                for step in steps {
                    let TraversalStep::Attr(a) = step else {
                        return None;
                    };
                    name.push('.');
                    name.push_str(a);
                }
                Some(name)
            }
            _ => None,
        }
    }

    fn labels(block: &Block) -> Vec<&str> {
        block.labels.iter().map(|l| l.value.as_str()).collect()
    }

    #[test]
    fn root_object_with_resources_and_two_labels() {
        let text = r#"{"resource": {"aws_instance": {"web": {"ami": "x", "count": 2}, "db": {}}}, "locals": {"a": 1}}"#;
        let file = parse_ok(text);
        let kinds: Vec<_> = file.body.blocks.iter().map(|b| b.kind.as_str()).collect();
        assert_eq!(kinds, ["resource", "resource", "locals"]);
        let web = &file.body.blocks[0];
        assert_eq!(labels(web), ["aws_instance", "web"]);
        assert_eq!(labels(&file.body.blocks[1]), ["aws_instance", "db"]);
        assert_eq!(web.body.attributes.len(), 2);
        assert_eq!(
            web.body.attributes[1].expr.kind,
            ExprKind::Number("2".into())
        );
        let locals = &file.body.blocks[2];
        assert!(locals.labels.is_empty());
        assert_eq!(locals.body.attributes[0].name, "a");
    }

    #[test]
    fn root_array_is_flattened_in_order() {
        let text =
            r#"[{"variable": {"a": {}}}, {"output": {"b": {"value": 1}}, "variable": {"c": {}}}]"#;
        let file = parse_ok(text);
        let got: Vec<_> = file
            .body
            .blocks
            .iter()
            .map(|b| (b.kind.as_str(), b.label(0)))
            .collect();
        assert_eq!(
            got,
            [
                ("variable", Some("a")),
                ("output", Some("b")),
                ("variable", Some("c"))
            ]
        );
    }

    #[test]
    fn root_must_be_an_object_or_array_of_objects() {
        let error = parse_err("  42 ");
        assert_eq!(error.span.start, 2);
        assert_eq!(error.summary, "Root value must be object");
        let error = parse_err(r#"[{}, 1]"#);
        assert_eq!(error.span.start, 5);
    }

    #[test]
    fn arrays_of_blocks_at_label_and_type_levels() {
        let text = r#"{"resource": {"t": {"n": [{"a": 1}, {"a": 2}]}},
            "resource ": null,
            "module": [{"m1": {"source": "./a"}}, {"m2": {"source": "./b"}}],
            "locals": [{"x": 1}, {"y": 2}]}"#;
        let file = parse_ok(text);
        let resources: Vec<_> = file.body.blocks_of("resource").collect();
        assert_eq!(resources.len(), 2);
        for (i, block) in resources.iter().enumerate() {
            assert_eq!(labels(block), ["t", "n"]);
            let value = &block.body.attributes[0].expr;
            assert_eq!(&text[value.span.range()], (i + 1).to_string());
            assert_eq!(
                &text[block.body_span.range()],
                format!("{{\"a\": {}}}", i + 1)
            );
        }
        let modules: Vec<_> = file
            .body
            .blocks_of("module")
            .filter_map(|b| b.label(0))
            .collect();
        assert_eq!(modules, ["m1", "m2"]);
        let locals: Vec<_> = file
            .body
            .blocks_of("locals")
            .map(|b| b.body.attributes[0].name.as_str())
            .collect();
        assert_eq!(locals, ["x", "y"]);
        // An unknown key with an object value is a block, with a scalar value an attribute.
        let unknown = parse_ok(r#"{"resources": {"t": {}}, "foo": 5}"#);
        assert_eq!(unknown.body.blocks[0].kind, "resources");
        assert!(unknown.body.blocks[0].labels.is_empty());
        assert_eq!(unknown.body.attributes[0].name, "foo");
    }

    #[test]
    fn null_body_is_no_block_and_null_labels_are_an_error() {
        let file = parse_ok(r#"{"resource": {"t": {"n": null}}, "terraform": null}"#);
        assert!(file.body.blocks.is_empty());
        let error = parse_err(r#"{"variable": {}}"#);
        assert!(
            error.message.starts_with("Missing block label"),
            "{error:?}"
        );
        assert_eq!(error.span.start, 13);
    }

    #[test]
    fn nested_meta_blocks() {
        let text = r#"{"resource": {"aws_security_group": {"sg": {
            "name": "x",
            "ingress": [{"from_port": 1}],
            "lifecycle": {"prevent_destroy": true, "precondition": [{"condition": true}, {"condition": false}]},
            "provisioner": [{"local-exec": {"command": "a"}}, {"file": {"source": "b", "connection": {"host": "h"}}}],
            "connection": {"type": "ssh"},
            "dynamic": {"egress": {"for_each": [], "content": {"to_port": 1, "dynamic": {"x": {"content": {}}}}}}
        }}},
        "terraform": {"required_version": ">= 1.0",
            "backend": {"s3": {"bucket": "b"}},
            "required_providers": {"aws": {"source": "hashicorp/aws"}},
            "cloud": {"workspaces": {"name": "w"}}},
        "variable": {"v": {"validation": {"condition": true}, "default": {"a": 1}}},
        "check": {"c": {"data": {"http": {"x": {"url": "u"}}}, "assert": {"condition": true}}},
        "language": {"compatible_with": {"opentofu": ">= 1.9"}}}"#;
        let file = parse_ok(text);
        let sg = &file.body.blocks[0];
        let attrs: Vec<_> = sg.body.attributes.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(attrs, ["name", "ingress"]);
        assert!(matches!(
            sg.body.attributes[1].expr.kind,
            ExprKind::Tuple(_)
        ));
        let kinds: Vec<_> = sg.body.blocks.iter().map(|b| b.kind.as_str()).collect();
        assert_eq!(
            kinds,
            [
                "lifecycle",
                "provisioner",
                "provisioner",
                "connection",
                "dynamic"
            ]
        );
        let lifecycle = &sg.body.blocks[0];
        assert_eq!(lifecycle.body.attributes[0].name, "prevent_destroy");
        assert_eq!(lifecycle.body.blocks_of("precondition").count(), 2);
        let provisioners: Vec<_> = sg
            .body
            .blocks_of("provisioner")
            .filter_map(|b| b.label(0))
            .collect();
        assert_eq!(provisioners, ["local-exec", "file"]);
        let file_provisioner = &sg.body.blocks[2];
        assert_eq!(file_provisioner.body.blocks[0].kind, "connection");
        let dynamic = &sg.body.blocks[4];
        assert_eq!(labels(dynamic), ["egress"]);
        assert_eq!(dynamic.body.attributes[0].name, "for_each");
        let content = &dynamic.body.blocks[0];
        assert_eq!(content.kind, "content");
        assert_eq!(content.body.attributes[0].name, "to_port");
        assert_eq!(content.body.blocks[0].kind, "dynamic");

        let terraform = &file.body.blocks[1];
        assert_eq!(terraform.body.attributes[0].name, "required_version");
        let backend = &terraform.body.blocks[0];
        assert_eq!(
            (backend.kind.as_str(), backend.label(0)),
            ("backend", Some("s3"))
        );
        assert_eq!(backend.body.attributes[0].name, "bucket");
        let required = &terraform.body.blocks[1];
        assert_eq!(required.kind, "required_providers");
        assert!(required.body.blocks.is_empty());
        let aws = &required.body.attributes[0];
        assert_eq!(aws.name, "aws");
        let ExprKind::Object(items) = &aws.expr.kind else {
            panic!("not an object: {aws:?}")
        };
        assert_eq!(items[0].key.kind, ExprKind::String("source".into()));
        assert_eq!(&text[items[0].key.span.range()], "\"source\"");
        assert_eq!(items[0].value.literal_string(), Some("hashicorp/aws"));
        assert_eq!(terraform.body.blocks[2].body.blocks[0].kind, "workspaces");

        let variable = &file.body.blocks[2];
        assert_eq!(variable.body.blocks[0].kind, "validation");
        assert_eq!(variable.body.attributes[0].name, "default");
        let check = &file.body.blocks[3];
        assert_eq!(labels(&check.body.blocks[0]), ["http", "x"]);
        assert_eq!(check.body.blocks[1].kind, "assert");
        assert_eq!(file.body.blocks[4].body.blocks[0].kind, "compatible_with");
    }

    #[test]
    fn comment_keys_are_dropped_in_bodies_and_kept_at_the_root() {
        let text =
            r#"{"//": " top note ", "resource": {"t": {"//": {"//": "body comment", "a": 1}}}}"#;
        let file = parse_ok(text);
        assert_eq!(file.comments.len(), 1);
        assert_eq!(file.comments[0].text, "top note");
        assert_eq!(&text[file.comments[0].span.range()], "\" top note \"");
        assert!(file.body.attributes.is_empty());
        // At a label level `"//"` is a label; in the body it is a comment.
        let block = &file.body.blocks[0];
        assert_eq!(labels(block), ["t", "//"]);
        let names: Vec<_> = block
            .body
            .attributes
            .iter()
            .map(|a| a.name.as_str())
            .collect();
        assert_eq!(names, ["a"]);
        assert!(block.body.blocks.is_empty());
    }

    #[test]
    fn strings_literal_template_and_expression() {
        let text = r#"{"locals": {
            "lit": "plain",
            "esc": "a $${b} %%{c} \u0041",
            "tpl": "a-${var.x}",
            "dir": "%{ if true }y%{ endif }",
            "expr": "${var.x}",
            "padded": "${ var.y[0] }",
            "strip": "${~ var.z ~}",
            "two": "${a}${b}",
            "call": "${upper(\"x\")}",
            "spaced": "${ 1 +\n 2 }"
        }, "variable": {"v": {"default": {
            "bad": "${not an expr!}",
            "open": "${"
        }}}}"#;
        let file = parse_ok(text);
        let locals = &file.body.blocks[0].body;
        let get = |name: &str| &locals.attribute(name).expect(name).expr;
        assert_eq!(get("lit").kind, ExprKind::String("plain".into()));
        assert_eq!(get("lit").json_string(), Some("plain"));
        assert_eq!(get("esc").kind, ExprKind::String("a ${b} %{c} A".into()));
        assert_eq!(get("esc").json_string(), Some("a $${b} %%{c} A"));
        assert_eq!(get("tpl").kind, ExprKind::Template);
        assert_eq!(get("tpl").json_string(), Some("a-${var.x}"));
        assert_eq!(get("dir").kind, ExprKind::Template);
        let expr = get("expr");
        assert!(matches!(expr.kind, ExprKind::Traversal { .. }), "{expr:?}");
        assert_eq!(reference_name(expr).as_deref(), Some("var.x"));
        assert_eq!(expr.json_string(), Some("${var.x}"));
        assert_eq!(&text[expr.span.range()], "\"${var.x}\"");
        let ExprKind::Traversal { root, .. } = &expr.kind else {
            unreachable!()
        };
        assert_eq!(root.span, expr.span);
        let call = get("call");
        assert!(
            matches!(&call.kind, ExprKind::FunctionCall { name, .. } if &**name == "upper"),
            "{call:?}"
        );
        assert_eq!(&text[call.span.range()], r#""${upper(\"x\")}""#);
        assert!(matches!(get("padded").kind, ExprKind::Traversal { .. }));
        assert_eq!(reference_name(get("strip")).as_deref(), Some("var.z"));
        assert_eq!(get("two").kind, ExprKind::Template);
        assert_eq!(get("spaced").kind, ExprKind::Other);
        // Not templates for the tools (a variable's default is read literally): still lowered.
        let default = &file.body.blocks[1].body.attributes[0].expr;
        let ExprKind::Object(items) = &default.kind else {
            panic!("{default:?}")
        };
        assert_eq!(items[0].value.kind, ExprKind::Template);
        assert_eq!(items[1].value.kind, ExprKind::Template);
        assert_eq!(items[1].value.literal_string(), Some("${"));
    }

    /// `"${"` in JSON: an error where the tools evaluate the string as a template, nothing where
    /// they read it literally; a valid template is fine everywhere.
    #[test]
    fn invalid_templates_are_errors_where_the_tools_evaluate_them() {
        // `block` opens as many objects as it has `{`, after the root's.
        let in_block = |block: &str, attribute: &str, value: &str| {
            let closing = "}".repeat(2 + block.matches('{').count());
            format!("{{\n{block}: {{\n{attribute}: \"{value}\"\n{closing}\n")
        };
        let resource = r#""resource": {"aws_instance": {"web""#;
        let resource = |attribute: &str, value: &str| {
            format!("{{{resource}: {{\n{attribute}: \"{value}\"\n}}}}}}}}\n")
        };
        let failing = [
            (resource(r#""ami""#, "${"), "Missing expression"),
            (resource(r#""tags""#, "a-${}"), "Invalid expression"),
            (
                in_block(r#""locals""#, r#""policy""#, "${aws:username}"),
                "Extra characters after interpolation expression",
            ),
            (
                in_block(r#""output": {"o""#, r#""value""#, "${a"),
                "Unclosed template interpolation sequence",
            ),
        ];
        for (text, summary) in &failing {
            let error = parse_err(text);
            assert_eq!(error.summary, *summary, "{text}");
            assert!(!error.beyond_tool_limit);
        }
        // The span is inside the string, where HCL's template parser reports the error: an
        // unclosed sequence at its `${`, a missing expression at the end of the value (the
        // closing quote).
        let text = resource(r#""ami""#, "a ${x");
        let error = parse_err(&text);
        assert_eq!(&text[error.span.start as usize..][..4], "${x\"");
        let text = resource(r#""ami""#, "a ${");
        let error = parse_err(&text);
        assert_eq!(&text[error.span.start as usize - 2..][..3], "${\"");
        // Escapes are longer in the file than in the value.
        let text = resource(r#""ami""#, "\\n\\u00e9\\ud83d\\ude00 ${x");
        let error = parse_err(&text);
        assert_eq!(&text[error.span.start as usize..][..4], "${x\"");
        // A string opened inside the value and never closed: the tools (Terraform 1.15.5)
        // report it where the value ends, the closing quote; a quote after an interpolation's
        // expression is the parser's "Extra characters", at that quote.
        let text = resource(r#""ami""#, r#"${\"a}"#);
        let error = parse_err(&text);
        assert_eq!(error.summary, "Unterminated template string");
        assert_eq!(&text[error.span.start as usize..][..2], "\"\n");
        let text = resource(r#""ami""#, r#"${x\"a\"}"#);
        let error = parse_err(&text);
        assert_eq!(
            error.summary,
            "Extra characters after interpolation expression"
        );
        assert_eq!(&text[error.span.start as usize..][..5], r#"\"a\""#);
        // An object key is a template too.
        let key = r#"{"locals": {"m": {"${": 1}}}"#;
        assert_eq!(parse_err(key).summary, "Missing expression");
        let passing = [
            in_block(r#""variable": {"v""#, r#""description""#, "${"),
            in_block(r#""variable": {"v""#, r#""default""#, "${"),
            in_block(r#""module": {"m""#, r#""source""#, "${"),
            in_block(r#""terraform": {"backend": {"s3""#, r#""key""#, "${"),
            resource(r#""provider""#, "${"),
            resource(r#""ami""#, "a-${var.x}-%{ if true }y%{ endif }"),
            resource(r#""ami""#, "$${not a template"),
            in_block(r#""unknown_block""#, r#""a""#, "${"),
            r#"{"//": "${", "root_attribute": "${"}"#.to_string(),
        ];
        for text in &passing {
            parse_ok(text);
        }
        let terragrunt = r#"{"locals": {"a": "${"}}"#;
        assert!(parse_terragrunt(FileId(0), terragrunt).file.is_ok());
    }

    /// The same argument in both syntaxes: native strings are always templates, JSON strings
    /// only where the tools evaluate them.
    #[test]
    fn invalid_templates_native_and_json() {
        use crate::syntax::parse as parse_any;
        // (native, JSON, whether native fails, whether JSON fails)
        let table = [
            (
                "resource \"a\" \"b\" {\n  ami = \"${\"\n}\n",
                r#"{"resource": {"a": {"b": {"ami": "${"}}}}"#,
                true,
                true,
            ),
            (
                "variable \"v\" {\n  description = \"${\"\n}\n",
                r#"{"variable": {"v": {"description": "${"}}}"#,
                true,
                false,
            ),
            (
                "resource \"a\" \"b\" {\n  ami = \"a-${var.x}\"\n}\n",
                r#"{"resource": {"a": {"b": {"ami": "a-${var.x}"}}}}"#,
                false,
                false,
            ),
        ];
        for (native, json, native_fails, json_fails) in table {
            let native_result = parse_any(FileId(0), Syntax::Native, native).file;
            assert_eq!(native_result.is_err(), native_fails, "{native}");
            let json_result = parse_any(FileId(0), Syntax::Json, json).file;
            assert_eq!(json_result.is_err(), json_fails, "{json}");
        }
    }

    #[test]
    fn invalid_templates_in_terragrunt_json_are_not_judged() {
        let terragrunt = r#"{"locals": {"a": "${"}}"#;
        assert!(parse_terragrunt(FileId(0), terragrunt).file.is_ok());
    }

    #[test]
    fn scalars_and_collections() {
        let text = r#"{"locals": {"n": -1.5e3, "t": true, "f": false, "z": null, "l": [1, "a"], "o": {"k": [ ]}}}"#;
        let file = parse_ok(text);
        let locals = &file.body.blocks[0].body;
        let get = |name: &str| &locals.attribute(name).expect(name).expr;
        assert_eq!(get("n").kind, ExprKind::Number("-1.5e3".into()));
        assert_eq!(get("t").kind, ExprKind::Bool(true));
        assert_eq!(get("f").kind, ExprKind::Bool(false));
        assert!(get("z").is_null());
        let items = get("l").tuple_items().expect("tuple");
        assert_eq!(items[1].kind, ExprKind::String("a".into()));
        assert_eq!(&text[items[1].span.range()], "\"a\"");
        assert_eq!(&text[get("o").span.range()], "{\"k\": [ ]}");
    }

    #[test]
    fn spans_of_headers_labels_names_and_values() {
        let text = "{\n  \"resource\": {\n    \"aws_instance\": {\n      \"web\": {\n        \"ami\": \"ami-1\"\n      }\n    }\n  },\n  \"terraform\": {\"required_version\": \">= 1\"}\n}\n";
        let file = parse_ok(text);
        let web = &file.body.blocks[0];
        assert_eq!(
            &text[web.header_span.range()],
            "\"resource\": {\n    \"aws_instance\": {\n      \"web\""
        );
        assert_eq!(&text[web.labels[0].span.range()], "\"aws_instance\"");
        assert_eq!(&text[web.labels[1].span.range()], "\"web\"");
        assert_eq!(
            &text[web.body_span.range()],
            "{\n        \"ami\": \"ami-1\"\n      }"
        );
        let ami = &web.body.attributes[0];
        assert_eq!(&text[ami.name_span.range()], "\"ami\"");
        assert_eq!(&text[ami.expr.span.range()], "\"ami-1\"");
        assert_eq!(&text[ami.span().range()], "\"ami\": \"ami-1\"");
        let terraform = &file.body.blocks[1];
        assert_eq!(&text[terraform.header_span.range()], "\"terraform\"");
        assert_eq!(
            &text[terraform.body_span.range()],
            "{\"required_version\": \">= 1\"}"
        );
    }

    #[test]
    fn empty_file_is_missing_value() {
        for text in ["", "  \n\t "] {
            let error = parse_err(text);
            assert_eq!(error.summary, "Missing value");
            assert_eq!(error.message, "The JSON data ends prematurely.");
            assert_eq!(error.span.start as usize, text.len());
        }
    }

    #[test]
    fn strict_json_errors_are_located() {
        let error = parse_err("{\"a\": 1,\n}");
        assert_eq!(error.span.start, 7, "{error:?}");
        assert_eq!(error.summary, "Trailing comma in object");
        // Comments are not JSON: HCL's scanner stops at the `/`.
        let error = parse_err("{\n  // note\n  \"a\": 1\n}");
        assert_eq!(error.span.start, 4, "{error:?}");
        assert_eq!(error.summary, "Invalid start of value");
        // Where Terraform 1.15.5 reports each: a string's error just after the offending byte,
        // a missing comma at the token after the end of the enclosing object.
        for (text, offset) in [
            ("{'a': 1}", 1),
            ("{a: 1}", 1),
            ("{\"locals\": {\"a\": 0x1}}", 21),
            ("{\"locals\": {\"a\": +1}}", 17),
            ("{\"locals\": {\"a\": .5}}", 17),
            ("{\"locals\": {\"a\": NaN}}", 17),
            ("{\"locals\": {\"a\": \"x\ny\"}}", 19),
            ("{\"locals\": {\"a\": \"\\x41\"}}", 20),
            ("{\"a\": 1 \"b\": 2}", 15),
            ("{\u{a0}}", 1),
            ("{\u{b}}", 1),
            ("{} {}", 3),
            ("{\"a\": [1, 2}", 12),
        ] {
            let error = parse_err(text);
            assert_eq!(error.span.start, offset, "{text:?}: {error:?}");
        }
    }

    #[test]
    fn duplicate_attributes_are_kept_and_reported() {
        let text = r#"{"resource": {"t": {"n": {"a": 1, "b": 2, "a": 3}}}, "locals": [{"x": 1}, {"x": 2}]}"#;
        let parsed = parse(FileId(0), text);
        let file = parsed.file.expect("parses");
        let body = &file.body.blocks[0].body;
        assert_eq!(body.attributes.len(), 3);
        assert_eq!(
            &text[body.attribute("a").expect("a").expr.span.range()],
            "3"
        );
        assert_eq!(parsed.duplicate_attributes.len(), 1);
        let duplicate = &parsed.duplicate_attributes[0];
        assert_eq!(duplicate.name, "a");
        assert_eq!(duplicate.syntax, Syntax::Json);
        assert_eq!(&text[duplicate.first.range()], "\"a\"");
        assert!(duplicate.second.start > duplicate.first.start);
        // Two `locals` blocks are two bodies: no duplicate argument in either.
        let blocks: Vec<_> = file.body.blocks_of("locals").collect();
        assert_eq!(blocks.len(), 2);
    }

    /// Runs `check` on a thread with room for a debug build's frames (the program's own
    /// threads have room for a release build's, `cli::run`).
    fn on_large_stack<T: Send + 'static>(check: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::Builder::new()
            .stack_size(512 << 20)
            .spawn(check)
            .expect("a thread")
            .join()
            .expect("no panic")
    }

    #[test]
    fn nesting_beyond_the_parsers_limit_is_parse_limit_not_a_crash() {
        on_large_stack(|| {
            // Deeper than the limit: this parser's limit, not the user's syntax error.
            let text = "[".repeat(1_000_000);
            let error = parse_err(&text);
            assert!(error.beyond_tool_limit, "{error:?}");
            assert_eq!(error.summary, hcl::PARSER_LIMIT_SUMMARY);
            assert_eq!(error.span.start as usize, hcl::MAX_DEPTH);
            let objects = format!("{}{}", "{\"a\":".repeat(5000), "}".repeat(5000));
            assert!(parse_err(&objects).beyond_tool_limit);
            // Terraform loads 1,000 levels: they parse and lower.
            let ok = format!(
                "{{\"locals\": {{\"a\": {}1{}}}}}",
                "[{\"b\": ".repeat(499),
                "}]".repeat(499)
            );
            parse_ok(&ok);
            // A template beyond the native parser's nesting limit is kept as a template, not
            // judged.
            let deep_string = format!(
                "{{\"locals\": {{\"a\": \"${{{}1{}}}\"}}}}",
                "[".repeat(5000),
                "]".repeat(5000)
            );
            let kind = parse_ok(&deep_string).body.blocks[0].body.attributes[0]
                .expr
                .kind
                .clone();
            assert_eq!(kind, ExprKind::Template);
        });
    }

    #[test]
    fn non_object_bodies_are_errors() {
        let text = r#"{"resource": {"t": {"n": 5}}}"#;
        let error = parse_err(text);
        assert_eq!(error.message, "resource block body must be a JSON object");
        assert_eq!(&text[error.span.range()], "5");
        let error = parse_err(r#"{"resource": {"t": {"n": {"lifecycle": "x"}}}}"#);
        assert_eq!(error.message, "lifecycle block body must be a JSON object");
        let error = parse_err(r#"{"resource": {"t": ["n"]}}"#);
        assert!(error.message.contains("labels"), "{error:?}");
        let error = parse_err(r#"{"terraform": [1]}"#);
        assert_eq!(error.message, "terraform block body must be a JSON object");
    }

    #[test]
    fn garbage_never_panics() {
        let samples = [
            "{",
            "[",
            "\"",
            "{\"",
            "{\"a\"",
            "{\"a\":",
            "{\"a\":}",
            "[,]",
            "]",
            "}",
            "\"\\u",
            "\"\\ud800\"",
            "{\"a\":\"\\ud800\\u0041\"}",
            "-",
            "1e",
            "tru",
            "nul",
            "\u{feff}{}",
            "{\"resource\":{\"t\":{\"n\":[[{\"a\":1}],[1]]}}}",
            "{\"locals\":{\"a\":\"${\"}}",
            "{\"locals\":{\"a\":\"%{for x in y}\"}}",
            "\"${\"",
        ];
        for text in samples {
            let _ = parse(FileId(0), text);
        }
        // Every prefix of a realistic file.
        let text = r#"{"//": "x", "resource": {"t": {"n": [{"lifecycle": {"ignore_changes": "all"}, "v": "${a.b[0]}"}]}}, "terraform": {"backend": {"s3": {}}}}"#;
        for end in 0..=text.len() {
            if let Some(prefix) = text.get(..end) {
                let _ = parse(FileId(0), prefix);
            }
        }
    }
}
