//! Prints the effective module: as native HCL that the tools load to the same configuration,
//! or as JSON with provenance. `tflint-merge merged` uses this.
//!
//! Native expressions are copied from their source text. JSON-syntax values are converted to
//! native syntax by what the tools do with them: where a value is read without evaluation
//! (variable `default`, `required_version`, provider `alias`, module `source`/`version`,
//! backend settings) a JSON string is a literal, so `${` becomes `$${`; where a JSON string holds
//! an expression (variable `type`, `depends_on`, `ignore_changes`, `provider`, module
//! `providers`, `moved`/`import`/`removed` addresses) it is printed bare; elsewhere it is a
//! template and is printed as a quoted template. Known limit: a JSON key whose value is an
//! object in a provider-defined body (which the provider's schema alone decides to be an
//! argument or a block) is printed as an argument.

use std::borrow::Cow;
use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::diagnostic::escape;
use crate::module::merge::{
    MergedAttribute, MergedBlock, MergedBody, MergedObject, Module, Origin,
};
use crate::module::references::{self, Use};
use crate::source::{SourceFiles, Span};
use crate::syntax::{Expr, ExprKind, def_range, quote};
use crate::types::{Converted, Type, Value as TypesValue, decode_default, parse_type};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PrintFormat {
    /// Native HCL, `terraform fmt` style.
    Hcl,
    /// JSON with provenance (schema version 1, see README).
    Json,
}

pub fn print(module: &Module, files: &SourceFiles, format: PrintFormat) -> String {
    match format {
        PrintFormat::Hcl => print_hcl(module, files),
        PrintFormat::Json => {
            let text = serde_json::to_string_pretty(&to_json(module, files)).unwrap_or_default();
            let mut text = escape::json(&text).into_owned();
            text.push('\n');
            text
        }
    }
}

/// How a JSON string value is read in the position it stands in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum JsonString {
    Template,
    Literal,
    /// Read as an expression, a keyword or a traversal (`destroy`, `aws.west`, `list(string)`):
    /// printed bare, as native syntax writes it (quoted, the tools warn "Quoted keywords are
    /// deprecated" or reject it).
    Expression,
    /// A `required_providers` entry: an object whose `configuration_aliases` are provider
    /// references and whose other values are strings.
    ProviderRequirement,
}

impl JsonString {
    /// The mode of the value under `key` in an object read in this mode.
    fn member(self, key: &str) -> JsonString {
        match (self, key) {
            (JsonString::ProviderRequirement, "configuration_aliases") => JsonString::Expression,
            (JsonString::ProviderRequirement, _) => JsonString::Template,
            (mode, _) => mode,
        }
    }
}

/// The context of a body: the chain of block types from the top level.
fn string_mode(path: &[&str], name: &str) -> JsonString {
    let top = path.first().copied().unwrap_or("");
    let here = path.last().copied().unwrap_or("");
    match (top, here, name) {
        ("variable", "variable", "default") => JsonString::Literal,
        ("variable", "variable", "type") => JsonString::Expression,
        ("terraform", "terraform", "required_version") => JsonString::Literal,
        ("terraform", "terraform", "experiments") => JsonString::Expression,
        ("terraform", "backend", _) => JsonString::Literal,
        ("provider", "provider", "alias") => JsonString::Literal,
        ("module", "module", "source" | "version") => JsonString::Literal,
        ("module", "module", "providers") => JsonString::Expression,
        ("terraform", "required_providers", _) => JsonString::ProviderRequirement,
        (_, "provisioner", "when" | "on_failure") => JsonString::Expression,
        (_, "dynamic", "iterator") => JsonString::Expression,
        (_, "language", "edition" | "experiments") => JsonString::Expression,
        ("moved", _, "from" | "to") | ("removed", _, "from") | ("import", _, "to") => {
            JsonString::Expression
        }
        (_, _, "depends_on" | "provider") => JsonString::Expression,
        (_, "lifecycle", "ignore_changes" | "replace_triggered_by") => JsonString::Expression,
        _ => JsonString::Template,
    }
}

fn is_json(files: &SourceFiles, span: Span) -> bool {
    files.get(span.file).file_name().ends_with(".json")
}

/// The native-syntax text of an expression in its context.
fn expr_text(files: &SourceFiles, expr: &Expr, mode: JsonString) -> String {
    if !is_json(files, expr.span) {
        return files.text(expr.span).to_string();
    }
    json_to_native(files, expr, mode)
}

fn json_to_native(files: &SourceFiles, expr: &Expr, mode: JsonString) -> String {
    if let Some(s) = expr.json_string() {
        return match mode {
            JsonString::Expression => s.to_string(),
            JsonString::Literal => quote(s, true),
            JsonString::Template | JsonString::ProviderRequirement => quote(s, false),
        };
    }
    match &expr.kind {
        ExprKind::Tuple(items) => {
            let items: Vec<String> = items
                .iter()
                .map(|e| json_to_native(files, e, mode))
                .collect();
            format!("[{}]", items.join(", "))
        }
        ExprKind::Object(items) if items.is_empty() => "{}".into(),
        ExprKind::Object(items) => {
            let items: Vec<String> = items
                .iter()
                .map(|item| {
                    let key_string = item.key.json_string();
                    let key = key_string.map_or_else(
                        || files.text(item.key.span).to_string(),
                        |k| {
                            // A provider reference key (`aws.east` in `providers`) is a
                            // traversal: quoted, it would be a string and not load.
                            if is_identifier(k) || mode == JsonString::Expression && is_traversal(k)
                            {
                                k.to_string()
                            } else {
                                quote(k, mode == JsonString::Literal)
                            }
                        },
                    );
                    let value_mode = mode.member(key_string.unwrap_or_default());
                    format!("{key} = {}", json_to_native(files, &item.value, value_mode))
                })
                .collect();
            format!("{{ {} }}", items.join(", "))
        }
        _ => files.text(expr.span).to_string(),
    }
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// `name.name...`: a reference as native syntax writes it bare.
fn is_traversal(s: &str) -> bool {
    s.split('.').all(is_identifier)
}

/// Written in place of the `for_each` of a merged block that also has `count`, before the
/// `for_each` itself as a comment: the merge keeps both, `count` wins when the tools expand the
/// block, and one file holding both would be "Invalid combination of count and for_each".
const FOR_EACH_LOST_TO_COUNT: [&str; 2] = [
    "# Not in effect: merging left both count and for_each set, and count wins when the",
    "# block expands (one file with both does not load). The for_each was:",
];

/// A file's name as a comment shows it: escaped as every message (a newline would end the
/// comment).
fn file_name(files: &SourceFiles, span: Span) -> Cow<'_, str> {
    escape::text(files.get(span.file).file_name())
}

fn print_hcl(module: &Module, files: &SourceFiles) -> String {
    print_hcl_marked(module, files).0
}

/// Where a piece of the printed text comes from: the text at `out_offset` of the output is the
/// source text at `span`'s start. With `verbatim`, the text is copied from the source as it is
/// written, so each later line of it is the same line of the source (a multi-line expression).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Mark {
    pub(crate) out_offset: usize,
    pub(crate) span: Span,
    /// How many lines of the output, from `out_offset`'s, are copied verbatim from `span`.
    pub(crate) lines: usize,
}

/// The native HCL of the module and the marks saying where each piece of it comes from (in
/// the order of the output): the source map of `merged --out`.
pub(crate) fn print_hcl_marked(module: &Module, files: &SourceFiles) -> (String, Vec<Mark>) {
    let mut out = String::new();
    let mut marks = Vec::new();
    let _ = writeln!(
        out,
        "# Effective module for {}, as tflint-merge merged it. Generated: do not edit.",
        module.view.tool_name()
    );
    let tf = &module.terraform;
    let has_terraform = !tf.required_version.is_empty()
        || !tf.required_providers.is_empty()
        || tf.backend.is_some()
        || tf.cloud.is_some()
        || !tf.other.attributes.is_empty()
        || !tf.other.blocks.is_empty();
    if has_terraform {
        let sources = sources(files, tf.blocks.iter().copied());
        let _ = writeln!(out, "\n# from {sources}\nterraform {{");
        let mut body = Printer {
            files,
            out: &mut out,
            marks: &mut marks,
            depth: 1,
        };
        let path = ["terraform"];
        if !tf.required_version.is_empty() {
            // Several constraints are all enforced: one attribute holding them all.
            let texts: Vec<String> = tf
                .required_version
                .iter()
                .map(|a| {
                    let text = expr_text(files, &a.expr, JsonString::Literal);
                    text.trim_matches('"').to_string()
                })
                .collect();
            let merged = if texts.len() == 1 {
                expr_text(files, &tf.required_version[0].expr, JsonString::Literal)
            } else {
                format!("\"{}\"", texts.join(", "))
            };
            let first = &tf.required_version[0];
            body.attribute_lines(&[AttributeLine {
                name: "required_version".into(),
                value: merged,
                name_span: Some(first.name_span),
                value_span: Some(first.expr.span),
                verbatim: false,
            }]);
        }
        body.attributes(&path, &tf.other.attributes);
        if !tf.required_providers.is_empty() {
            body.blank();
            body.line("required_providers {");
            body.depth += 1;
            body.attributes(&["terraform", "required_providers"], &tf.required_providers);
            body.depth -= 1;
            body.line("}");
        }
        for block in tf.backend.iter().chain(&tf.cloud).chain(&tf.other.blocks) {
            body.blank();
            body.block(&path, block);
        }
        out.push_str("}\n");
    }
    for object in &module.objects {
        let sources = sources(
            files,
            std::iter::once(object.base_header).chain(object.overrides.iter().copied()),
        );
        let _ = writeln!(out, "\n# from {sources}");
        let header = header(
            object.kind(),
            object.labels.iter().map(|l| l.value.as_str()),
        );
        let path = [object.kind()];
        let mut printer = Printer {
            files,
            out: &mut out,
            marks: &mut marks,
            depth: 0,
        };
        let mut extras = ObjectExtras {
            default_value: object.default_value.as_deref(),
            comment: Vec::new(),
            header_span: Some(object.base_header),
            end_span: Some(object.base_span),
        };
        match for_each_lost_to_count(&object.body) {
            Some(for_each) => {
                let mut body = object.body.clone();
                body.attributes.retain(|a| a.name != "for_each");
                let value = expr_text(files, &for_each.expr, string_mode(&path, "for_each"));
                extras.comment = FOR_EACH_LOST_TO_COUNT
                    .iter()
                    .map(|l| l.to_string())
                    .collect();
                let mut lines = value.lines();
                let first = lines.next().unwrap_or_default();
                extras.comment.push(format!("#   for_each = {first}"));
                extras
                    .comment
                    .extend(lines.map(|line| format!("#   {line}")));
                printer.object_block(&header, &path, &body, &extras);
            }
            None => printer.object_block(&header, &path, &object.body, &extras),
        }
    }
    if !module.locals.is_empty() {
        // Each local's primary file, and the override file that set its value last.
        let spans = (module.locals.iter()).flat_map(|l| [l.declared, l.attribute.name_span]);
        let sources = sources(files, spans);
        let _ = writeln!(out, "\n# from {sources}\nlocals {{");
        let attributes: Vec<MergedAttribute> =
            module.locals.iter().map(|l| l.attribute.clone()).collect();
        let mut printer = Printer {
            files,
            out: &mut out,
            marks: &mut marks,
            depth: 1,
        };
        printer.attributes(&["locals"], &attributes);
        out.push_str("}\n");
    }
    for block in &module.unmerged {
        let _ = writeln!(out, "\n# from {}", file_name(files, block.header_span));
        let mut printer = Printer {
            files,
            out: &mut out,
            marks: &mut marks,
            depth: 0,
        };
        printer.block(&[], block);
    }
    (out, marks)
}

/// The `for_each` of a body that merging left with `count` too: not in effect, as `count` wins.
fn for_each_lost_to_count(body: &MergedBody) -> Option<&MergedAttribute> {
    body.attribute("count")?;
    body.attribute("for_each")
}

/// The files a printed block comes from: `main.tf, merged with override.tf` (the primary files,
/// then the override files), each named once, in the order of `spans`.
fn sources(files: &SourceFiles, spans: impl Iterator<Item = Span>) -> String {
    let mut primaries: Vec<Cow<'_, str>> = Vec::new();
    let mut overrides: Vec<Cow<'_, str>> = Vec::new();
    for span in spans {
        let file = files.get(span.file);
        let is_override =
            crate::knowledge::files::classify(file.file_name()).is_some_and(|c| c.is_override);
        let names = if is_override {
            &mut overrides
        } else {
            &mut primaries
        };
        let name = file_name(files, span);
        if !names.contains(&name) {
            names.push(name);
        }
    }
    match (primaries.is_empty(), overrides.is_empty()) {
        (_, true) => primaries.join(", "),
        (true, false) => overrides.join(", "),
        (false, false) => format!(
            "{}, merged with {}",
            primaries.join(", "),
            overrides.join(", ")
        ),
    }
}

fn header<'a>(kind: &str, labels: impl Iterator<Item = &'a str>) -> String {
    let mut header = kind.to_string();
    for label in labels {
        header.push(' ');
        header.push_str(&quote(label, true));
    }
    header
}

/// What a top-level object prints beyond its merged body.
#[derive(Default)]
struct ObjectExtras<'a> {
    /// A variable's default as merging converted it, printed instead of its expression.
    default_value: Option<&'a str>,
    /// Comment lines (each starting with `#`) after the attributes.
    comment: Vec<String>,
    /// The header the block's first line comes from.
    header_span: Option<Span>,
    /// The block as written, whose last character is the brace its last line comes from.
    end_span: Option<Span>,
}

/// One `name = value` line to print, and where its name and value come from.
struct AttributeLine {
    name: String,
    value: String,
    name_span: Option<Span>,
    value_span: Option<Span>,
    /// Whether `value` is the source text of `value_span` as written.
    verbatim: bool,
}

struct Printer<'a> {
    files: &'a SourceFiles,
    out: &'a mut String,
    marks: &'a mut Vec<Mark>,
    depth: usize,
}

impl Printer<'_> {
    fn line(&mut self, text: &str) {
        self.marked_line(text, &[]);
    }

    /// A line whose text at each byte offset given comes from the start of its span (and,
    /// for `lines` above one, whose later lines are the span's later lines).
    fn marked_line(&mut self, text: &str, marks: &[(usize, Span, usize)]) {
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
        let start = self.out.len();
        for &(offset, span, lines) in marks {
            self.marks.push(Mark {
                out_offset: start + offset,
                span,
                lines,
            });
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// The closing brace of a block, from the last character of the block as written.
    fn closing_brace(&mut self, end_span: Option<Span>) {
        let marks: Vec<(usize, Span, usize)> = end_span
            .filter(|s| s.end > s.start)
            .map(|s| (0, Span::new(s.file, s.end as usize - 1..s.end as usize), 1))
            .into_iter()
            .collect();
        self.marked_line("}", &marks);
    }

    fn blank(&mut self) {
        if !self.out.ends_with("{\n") && !self.out.ends_with("\n\n") {
            self.out.push('\n');
        }
    }

    fn body_block(&mut self, header: &str, path: &[&str], block: &MergedBlock) {
        let extras = ObjectExtras {
            header_span: Some(block.header_span),
            end_span: Some(block.header_span.to(block.body_span)),
            ..ObjectExtras::default()
        };
        self.object_block(header, path, &block.body, &extras);
    }

    /// A block, with what a top-level object prints beyond its body.
    fn object_block(
        &mut self,
        header: &str,
        path: &[&str],
        body: &MergedBody,
        extras: &ObjectExtras,
    ) {
        let header_marks: Vec<(usize, Span, usize)> =
            extras.header_span.map(|s| (0, s, 1)).into_iter().collect();
        if body.attributes.is_empty() && body.blocks.is_empty() && extras.comment.is_empty() {
            self.marked_line(&format!("{header} {{}}"), &header_marks);
            return;
        }
        self.marked_line(&format!("{header} {{"), &header_marks);
        self.depth += 1;
        let lines: Vec<AttributeLine> = body
            .attributes
            .iter()
            .map(|a| match (a.name.as_str(), extras.default_value) {
                ("default", Some(value)) => AttributeLine {
                    name: a.name.clone(),
                    value: value.to_string(),
                    name_span: Some(a.name_span),
                    value_span: Some(a.expr.span),
                    verbatim: false,
                },
                _ => self.attribute_line(path, a),
            })
            .collect();
        self.attribute_lines(&lines);
        for line in &extras.comment {
            self.line(line);
        }
        for block in &body.blocks {
            self.blank();
            self.block(path, block);
        }
        self.depth -= 1;
        self.closing_brace(extras.end_span);
    }

    fn block(&mut self, parent: &[&str], block: &MergedBlock) {
        let mut path = parent.to_vec();
        path.push(block.kind.as_str());
        let header = header(&block.kind, block.labels.iter().map(|l| l.value.as_str()));
        self.body_block(&header, &path, block);
    }

    fn attributes(&mut self, path: &[&str], attributes: &[MergedAttribute]) {
        let lines: Vec<AttributeLine> = attributes
            .iter()
            .map(|a| self.attribute_line(path, a))
            .collect();
        self.attribute_lines(&lines);
    }

    fn attribute_line(&self, path: &[&str], a: &MergedAttribute) -> AttributeLine {
        let mode = string_mode(path, &a.name);
        AttributeLine {
            name: a.name.clone(),
            value: expr_text(self.files, &a.expr, mode),
            name_span: Some(a.name_span),
            value_span: Some(a.expr.span),
            verbatim: !is_json(self.files, a.expr.span),
        }
    }

    /// `name = value`, with `pad` spaces after the name, marked where its name and value
    /// come from.
    fn attribute_line_out(&mut self, line: &AttributeLine, pad: usize) {
        let text = format!("{}{} = {}", line.name, " ".repeat(pad), line.value);
        let value_at = text.len() - line.value.len();
        let value_lines = if line.verbatim {
            line.value.lines().count().max(1)
        } else {
            1
        };
        let marks: Vec<(usize, Span, usize)> = (line.name_span.map(|s| (0, s, 1)).into_iter())
            .chain(line.value_span.map(|s| (value_at, s, value_lines)))
            .collect();
        self.marked_line(&text, &marks);
    }

    /// Prints `name = value` lines, aligning the `=` of each run of attributes as
    /// `terraform fmt` does (see [`alignment`]).
    fn attribute_lines(&mut self, lines: &[AttributeLine]) {
        let mut start = 0;
        while start < lines.len() {
            // The run: attributes that align, up to one whose value's later lines end it.
            let mut end = start;
            while end < lines.len() && alignment(&lines[end].value) != Alignment::Alone {
                end += 1;
                if alignment(&lines[end - 1].value) == Alignment::AlignedLast {
                    break;
                }
            }
            let width = lines[start..end]
                .iter()
                .map(|l| l.name.chars().count())
                .max()
                .unwrap_or(0);
            for line in &lines[start..end] {
                let pad = width - line.name.chars().count();
                self.attribute_line_out(line, pad);
            }
            if end == start {
                self.attribute_line_out(&lines[end], 0);
                end += 1;
            }
            start = end;
        }
    }
}

/// How an attribute takes part in `terraform fmt`'s alignment of `=`, by its value's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Alignment {
    /// Aligned with its neighbours: a one-line value, or a heredoc (whose lines are one line
    /// to the formatter).
    Aligned,
    /// Aligned with the attributes before it, but its value's later lines end the run.
    AlignedLast,
    /// Not aligned, and ends the run: its first line opens a bracket that a later line closes.
    Alone,
}

/// hclwrite's rule (hashicorp/hcl `hclwrite/format.go`, `linesForFormat` and `formatCells`):
/// a line's `=` is aligned when the rest of the line opens no more brackets than it closes,
/// counting up to a heredoc's opening marker; any line without such an `=` ends the run, and a
/// heredoc's body and closing marker are part of the line that opens it.
fn alignment(value: &str) -> Alignment {
    let first_line = value.lines().next().unwrap_or_default();
    if brackets_opened(first_line) != 0 {
        return Alignment::Alone;
    }
    if !value.contains('\n') || is_heredoc(value) {
        Alignment::Aligned
    } else {
        Alignment::AlignedLast
    }
}

/// Whether the value is one heredoc: `<<EOT` or `<<-EOT` alone on its first line, its marker
/// alone on its last.
fn is_heredoc(value: &str) -> bool {
    let first_line = value.lines().next().unwrap_or_default();
    let Some(marker) = first_line.strip_prefix("<<") else {
        return false;
    };
    let marker = marker.strip_prefix('-').unwrap_or(marker);
    !marker.is_empty()
        && marker.chars().all(|c| c.is_alphanumeric() || c == '_')
        && value.lines().last().is_some_and(|l| l.trim() == marker)
}

/// Brackets (and template interpolations) the line opens minus those it closes, up to a
/// heredoc's opening marker or a comment. Quoted strings' text is skipped, their `${` and `%{`
/// counted as hclwrite's tokens are.
fn brackets_opened(line: &str) -> i32 {
    #[derive(PartialEq)]
    enum Mode {
        Code,
        String,
    }
    // The modes entered: a string inside an interpolation inside a string...
    let mut modes = vec![Mode::Code];
    let mut net = 0;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match modes.last() {
            Some(Mode::String) => match c {
                '\\' => {
                    chars.next();
                }
                '"' => {
                    modes.pop();
                }
                '$' | '%' if chars.peek() == Some(&c) => {
                    // `$${` and `%%{` are literal text.
                    chars.next();
                    if chars.peek() == Some(&'{') {
                        chars.next();
                    }
                }
                '$' | '%' if chars.peek() == Some(&'{') => {
                    chars.next();
                    net += 1;
                    modes.push(Mode::Code);
                }
                _ => {}
            },
            _ => match c {
                '"' => modes.push(Mode::String),
                '<' if chars.peek() == Some(&'<') => return net,
                '{' | '[' | '(' => {
                    net += 1;
                    if c == '{' {
                        modes.push(Mode::Code);
                    }
                }
                '}' | ']' | ')' => {
                    net -= 1;
                    if c == '}' && modes.len() > 1 {
                        modes.pop();
                    }
                }
                '#' => break,
                '/' if chars.peek() == Some(&'/') => break,
                _ => {}
            },
        }
    }
    net
}

fn location(files: &SourceFiles, span: Span) -> Value {
    let file = files.get(span.file);
    let (line, column) = file.line_col(span.start as usize);
    json!({ "file": &*file.display, "line": line, "column": column })
}

/// Where the tools place a top-level block (its `DeclRange`): the header in native syntax; in
/// JSON the opening brace of the object its last label's key holds (`"web": {...}` of
/// `resource.aws_instance.web`), which hashicorp/hcl's `json/structure.go` (`unpackBlock`:
/// `DefRange: tv.OpenRange`) makes the block's place, on the line of that key unless the brace
/// is written on a line of its own.
fn declared_at(files: &SourceFiles, header: Span, labels: &[crate::syntax::Label]) -> Span {
    let file = files.get(header.file);
    let Some(label) = labels.last() else {
        return header;
    };
    if !crate::diagnostic::fix::is_json(&file.path) {
        return header;
    }
    let after = label.span.end as usize;
    let rest = file.text.get(after..).unwrap_or_default();
    let skipped = rest.len()
        - rest
            .trim_start_matches(|c: char| c == '"' || c == ':' || c.is_whitespace())
            .len();
    match rest[skipped..].starts_with('{') {
        true => Span::new(header.file, after + skipped..after + skipped + 1),
        false => label.span,
    }
}

fn origin(origin: Origin) -> &'static str {
    match origin {
        Origin::Base => "base",
        Origin::Override => "override",
    }
}

fn attribute_json(files: &SourceFiles, path: &[&str], a: &MergedAttribute) -> Value {
    json!({
        "name": a.name,
        "expression": expr_text(files, &a.expr, string_mode(path, &a.name)),
        "location": location(files, a.name_span),
        "origin": origin(a.origin),
        "replaced": a.replaced.map(|s| location(files, s)),
    })
}

fn body_json(files: &SourceFiles, path: &[&str], body: &MergedBody) -> Value {
    json!({
        "attributes": body.attributes.iter().map(|a| attribute_json(files, path, a)).collect::<Vec<_>>(),
        "blocks": body.blocks.iter().map(|b| block_json(files, path, b)).collect::<Vec<_>>(),
    })
}

fn block_json(files: &SourceFiles, parent: &[&str], block: &MergedBlock) -> Value {
    let mut path = parent.to_vec();
    path.push(block.kind.as_str());
    json!({
        "type": block.kind,
        "labels": block.labels.iter().map(|l| l.value.clone()).collect::<Vec<_>>(),
        "location": location(files, def_range(files, block.header_span, block.body_span)),
        "origin": origin(block.origin),
        "body": body_json(files, &path, &block.body),
    })
}

/// What the module's uses name, in order: each reference the tools evaluate (but for `dynamic`
/// iterators, which name no object), as written and where.
fn references_json(files: &SourceFiles, walk: impl FnOnce(&mut dyn FnMut(Use))) -> Value {
    let mut found = Vec::new();
    walk(&mut |used: Use| {
        if !used.iterator {
            found.push(json!({
                "reference": used.reference.text(),
                "location": location(files, used.reference.span),
            }));
        }
    });
    Value::Array(found)
}

/// The documented JSON form (schema version 1).
/// A variable's `default` attribute with `"value"`: the value the tools hold, the default
/// converted to the variable's type with its `optional()` defaults applied (hashicorp/terraform
/// `internal/configs/named_values.go`, `decodeVariableBlock` and `Variable.merge`), in native
/// syntax; `null` when the default is not a literal or does not convert. Where an override's
/// type or default does not convert (a load error), merging keeps the default as written, and
/// so does the value.
/// The `"expression"` stays the source text, at its location.
fn with_default_value(mut body: Value, object: &MergedObject) -> Value {
    if object.kind() != "variable" {
        return body;
    }
    let value = default_value(object);
    let attributes = body["attributes"].as_array_mut().into_iter().flatten();
    for attribute in attributes.filter(|a| a["name"] == "default") {
        attribute["value"] = json!(value);
    }
    body
}

/// The value of a variable's default as merging left it: merging records it where an override
/// changed the type or the default; otherwise it is the `default` expression decoded with the
/// `type`.
fn default_value(object: &MergedObject) -> Option<String> {
    if let Some(value) = &object.default_value {
        return Some(value.to_string());
    }
    let default = object.body.attribute("default")?;
    let ty = match object.body.attribute("type") {
        Some(attr) => parse_type(&attr.expr).ok()?,
        None => Type::Any,
    };
    match decode_default(&TypesValue::of_literal(&default.expr)?, &ty) {
        Converted::Ok(value) => Some(value.to_native()),
        Converted::Invalid(_) | Converted::Unknown => None,
    }
}

pub(crate) fn to_json(module: &Module, files: &SourceFiles) -> Value {
    let tf = &module.terraform;
    let terraform_path = ["terraform"];
    json!({
        "version": 1,
        "view": module.view.as_str(),
        "objects": module.objects.iter().map(|o| json!({
            "address": o.address.to_string(),
            "type": o.kind(),
            "labels": o.labels.iter().map(|l| l.value.clone()).collect::<Vec<_>>(),
            "location": location(files, declared_at(files, o.base_header, &o.labels)),
            "overrides": o.overrides.iter().map(|&s| location(files, s)).collect::<Vec<_>>(),
            "body": with_default_value(body_json(files, &[o.kind()], &o.body), o),
            "references": references_json(files, |f| {
                references::for_each_use(&[o.kind()], &o.body, &mut |u| f(u));
            }),
        })).collect::<Vec<_>>(),
        "locals": module.locals.iter().map(|l| {
            let mut local = attribute_json(files, &["locals"], &l.attribute);
            local["declared"] = location(files, l.declared);
            local["references"] = references_json(files, |f| {
                l.attribute.expr.for_each_reference(&mut |reference| {
                    f(Use { reference, iterator: false, in_dynamic: false, self_bound: false });
                });
            });
            local
        }).collect::<Vec<_>>(),
        "terraform": {
            "required_version": tf.required_version.iter().map(|a| attribute_json(files, &terraform_path, a)).collect::<Vec<_>>(),
            "required_providers": tf.required_providers.iter().map(|a| attribute_json(files, &["terraform", "required_providers"], a)).collect::<Vec<_>>(),
            "backend": tf.backend.as_ref().map(|b| block_json(files, &terraform_path, b)),
            "cloud": tf.cloud.as_ref().map(|b| block_json(files, &terraform_path, b)),
            "body": body_json(files, &terraform_path, &tf.other),
        },
        "unmerged": module.unmerged.iter().map(|b| block_json(files, &[], b)).collect::<Vec<_>>(),
    })
}

/// The module without provenance: what must stay the same when the printed module is loaded
/// and merged again. Expression text has its whitespace collapsed; a `for_each` that `count`
/// wins over is left out; a variable's default is the value merging converted it to, where
/// that differs from what its expression gives.
pub fn semantic_form(module: &Module, files: &SourceFiles) -> Value {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.remove("location");
                map.remove("origin");
                map.remove("replaced");
                map.remove("overrides");
                map.remove("declared");
                // A default's value: the expression below stands for it.
                map.remove("value");
                if let Some(Value::String(text)) = map.get_mut("expression") {
                    *text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                }
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut value = to_json(module, files);
    let objects = value["objects"].as_array_mut().into_iter().flatten();
    for (object, merged) in objects.zip(&module.objects) {
        let Some(attributes) = object["body"]["attributes"].as_array_mut() else {
            continue;
        };
        // A for_each that count wins over is not in effect, and is printed only as a comment.
        if attributes.iter().any(|a| a["name"] == "count") {
            attributes.retain(|a| a["name"] != "for_each");
        }
        // A variable's default is the value merging converted it to.
        if let Some(default_value) = &merged.default_value {
            for attribute in attributes.iter_mut().filter(|a| a["name"] == "default") {
                attribute["expression"] = json!(default_value);
            }
        }
    }
    // Several required_version constraints print as one combined constraint.
    if let Some(list) = value
        .pointer_mut("/terraform/required_version")
        .and_then(Value::as_array_mut)
    {
        let texts: Vec<String> = list
            .iter()
            .filter_map(|a| {
                a["expression"]
                    .as_str()
                    .map(|t| t.trim_matches('"').to_string())
            })
            .collect();
        *list = if texts.is_empty() {
            vec![]
        } else {
            vec![
                json!({ "name": "required_version", "expression": format!("\"{}\"", texts.join(", ")) }),
            ]
        };
    }
    strip(&mut value);
    value
}
