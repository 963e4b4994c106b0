//! Quoted strings, heredocs and the templates inside them (hashicorp/hcl
//! `hclsyntax/parser_template.go`; the lexical rules of `hclsyntax/scan_tokens.rl`).

use super::gather::Found;
use super::{Parser, Result};
use crate::source::Span;
use crate::syntax::{Expr, ExprKind};

/// One part of a string template (`"${a}/x"`): literal text or an interpolation.
#[derive(Debug, Clone)]
pub(crate) enum TemplatePart {
    Literal(String),
    Interpolation(Expr),
    /// A `%{ if }` or `%{ for }` directive: its value is not known without evaluating it.
    Directive(Span),
}

/// A parsed template: its parts and what its sequences hold.
#[derive(Debug, Default)]
pub(crate) struct Template {
    parts: Vec<TemplatePart>,
    found: Found,
    /// Whether it has an interpolation or a directive.
    has_sequences: bool,
}

impl Template {
    pub(crate) fn into_parts(self) -> Vec<TemplatePart> {
        self.parts
    }

    pub(crate) fn into_value_template(self) -> super::ValueTemplate {
        super::ValueTemplate {
            literal: self.literal(),
            has_sequences: self.has_sequences,
            calls: self.found.calls,
            references: self.found.references,
            parts: self.parts,
        }
    }

    /// The text of a template with no sequence.
    fn literal(&self) -> String {
        let mut out = String::new();
        for part in &self.parts {
            if let TemplatePart::Literal(text) = part {
                out.push_str(text);
            }
        }
        out
    }

    /// The expression of this template, at `span`: a string if it has no sequence.
    fn into_expr(self, span: Span, dedent: bool) -> Expr {
        if self.has_sequences {
            return self.found.into_expr(ExprKind::Template, span);
        }
        let mut text = self.literal();
        if dedent {
            text = dedented(&text);
        }
        Expr::new(ExprKind::String(text), span)
    }
}

/// What kind of text a template is read from.
#[derive(Clone, Copy, PartialEq)]
enum Flavor {
    /// Between double quotes: backslash escapes, no newlines, ends at `"`.
    Quoted,
    /// A JSON string's value: ends with the text.
    Unquoted,
    /// A heredoc's body: ends before the first line, read as literal text, that holds only the
    /// marker (`text[marker]`). A `${ ... }` in the body is code to its closing brace, lines
    /// and nested heredocs included, as HCL's scanner reads it (hashicorp/hcl
    /// `hclsyntax/scan_tokens.rl`: `heredocTemplate` calls `main` for a sequence), so a marker
    /// line inside a sequence does not end the heredoc.
    Heredoc { marker: (usize, usize) },
}

/// Why a run of template parts stopped.
#[derive(Debug, PartialEq)]
enum Stop {
    /// The end of the template (the closing quote, or the end of the text).
    End,
    /// `%{ else }`, `%{ endif }` or `%{ endfor }`, starting at `at`.
    Else {
        at: usize,
    },
    EndIf {
        at: usize,
    },
    EndFor {
        at: usize,
    },
}

impl Parser<'_> {
    /// A quoted string as an expression: a string, or a template if it has sequences.
    #[inline(never)]
    pub(crate) fn quoted_string_expr(&mut self) -> Result<Expr> {
        let start = self.pos;
        let template = self.quoted_template()?;
        let span = self.span(start..self.pos);
        Ok(template.into_expr(span, false))
    }

    /// A quoted template from its opening quote to its closing quote.
    pub(crate) fn quoted_template(&mut self) -> Result<Template> {
        self.pos += 1;
        let mut template = Template::default();
        match self.template_parts(Flavor::Quoted, &mut template)? {
            Stop::End => {}
            stop => return Err(self.misplaced_directive(&stop)),
        }
        if self.peek() != Some(b'"') {
            // HCL reports it at the token that stopped the template, not at the opening
            // quote (hashicorp/hcl `hclsyntax/parser_template.go`, parseTemplateParts: the
            // diagnostic's Subject is `next.Range`): the end of the file, or the newline
            // where a string that left an interpolation open across lines stopped. In a JSON
            // string's value the tools report it where the value ends.
            let at = if self.json_value {
                self.text.len()
            } else {
                self.pos
            };
            return Err(self.error_at(
                at,
                "Unterminated template string",
                "no closing quote was found for this string",
            ));
        }
        self.pos += 1;
        Ok(template)
    }

    /// A template that is the whole text (a JSON string's value).
    pub(crate) fn unquoted_template(&mut self) -> Result<Template> {
        let mut template = Template::default();
        match self.template_parts(Flavor::Unquoted, &mut template)? {
            Stop::End => Ok(template),
            stop => Err(self.misplaced_directive(&stop)),
        }
    }

    /// A heredoc (`<<EOT` or `<<-EOT`, its lines, its closing marker) as an expression.
    #[inline(never)]
    pub(crate) fn heredoc_expr(&mut self) -> Result<Expr> {
        let start = self.pos;
        self.pos += 2;
        let indented = self.peek() == Some(b'-');
        if indented {
            self.pos += 1;
        }
        let Some(marker) = self.ident() else {
            return Err(self.error(
                "Invalid expression",
                "a heredoc needs a marker name after `<<`",
            ));
        };
        if !self.newline_only() {
            return Err(
                self.unexpected("Invalid expression", "the heredoc marker must end its line")
            );
        }
        let flavor = Flavor::Heredoc {
            marker: (marker.start, marker.end),
        };
        let mut template = Template::default();
        if !self.at_marker_line(flavor) {
            match self.template_parts(flavor, &mut template)? {
                Stop::End => {}
                stop => return Err(self.misplaced_directive(&stop)),
            }
        }
        if self.at_end() {
            let marker = &self.text[marker];
            return Err(self.error_at(
                self.text.len(),
                "Unterminated template string",
                format!("no line holding only `{marker}` ends this heredoc"),
            ));
        }
        // At the marker line: the marker, after the blanks that may indent it.
        let rest = &self.text[self.pos..];
        let closing = self.pos + (rest.len() - rest.trim_start().len()) + marker.len();
        self.pos = closing;
        Ok(template.into_expr(self.span(start..closing), indented))
    }

    /// Whether a heredoc's closing line starts here: blanks, the marker, blanks, then a
    /// newline (a marker at the very end of the file closes nothing).
    fn at_marker_line(&self, flavor: Flavor) -> bool {
        let Flavor::Heredoc { marker: (from, to) } = flavor else {
            return false;
        };
        let Some(line_len) = memchr::memchr(b'\n', &self.bytes[self.pos..]) else {
            return false;
        };
        self.text[self.pos..self.pos + line_len].trim() == &self.text[from..to]
    }

    /// Reads a `\n` or `\r\n`, nothing else.
    fn newline_only(&mut self) -> bool {
        match self.peek() {
            Some(b'\n') => self.pos += 1,
            Some(b'\r') if self.peek_at(1) == Some(b'\n') => self.pos += 2,
            _ => return false,
        }
        true
    }

    /// Reads template parts into `template` until the template ends or a directive that
    /// closes a block (`else`, `endif`, `endfor`) stands.
    fn template_parts(&mut self, flavor: Flavor, template: &mut Template) -> Result<Stop> {
        let mut literal = String::new();
        let flush = |literal: &mut String, template: &mut Template| {
            if !literal.is_empty() {
                template
                    .parts
                    .push(TemplatePart::Literal(std::mem::take(literal)));
            }
        };
        loop {
            let run_start = self.pos;
            let run_len = self.bytes[run_start..]
                .iter()
                .position(|&b| match flavor {
                    Flavor::Quoted => matches!(b, b'$' | b'%') || is_quoted_stop(b),
                    Flavor::Unquoted => matches!(b, b'$' | b'%'),
                    Flavor::Heredoc { .. } => matches!(b, b'$' | b'%' | b'\n'),
                })
                .unwrap_or(self.bytes.len() - run_start);
            literal.push_str(&self.text[run_start..run_start + run_len]);
            self.pos += run_len;
            let Some(b) = self.peek() else {
                flush(&mut literal, template);
                return Ok(Stop::End);
            };
            match b {
                b'"' => {
                    flush(&mut literal, template);
                    return Ok(Stop::End);
                }
                b'\n' if matches!(flavor, Flavor::Heredoc { .. }) => {
                    literal.push('\n');
                    self.pos += 1;
                    if self.at_marker_line(flavor) {
                        flush(&mut literal, template);
                        return Ok(Stop::End);
                    }
                }
                b'\\' => literal.push(self.escape()?),
                b'\n' | b'\r' => {
                    return Err(self.error(
                        "Invalid multi-line string",
                        "quoted strings may not be split over multiple lines: use the `\\n` \
                         escape or a heredoc",
                    ));
                }
                b'$' | b'%' if self.peek_at(1) == Some(b) && self.peek_at(2) == Some(b'{') => {
                    // `$${` and `%%{` are escapes for a literal `${` and `%{`.
                    literal.push(char::from(b));
                    literal.push('{');
                    self.pos += 3;
                }
                b'$' if self.peek_at(1) == Some(b'{') => {
                    flush(&mut literal, template);
                    let expr = self.interpolation()?;
                    template.found.add(&expr);
                    template.parts.push(TemplatePart::Interpolation(expr));
                    template.has_sequences = true;
                }
                b'%' if self.peek_at(1) == Some(b'{') => {
                    flush(&mut literal, template);
                    let start = self.pos;
                    match self.directive(flavor)? {
                        Some((found, end)) => {
                            template.found.append(found);
                            template
                                .parts
                                .push(TemplatePart::Directive(self.span(start..end)));
                            template.has_sequences = true;
                        }
                        None => {
                            self.pos = start;
                            return Ok(self.closing_directive());
                        }
                    }
                }
                _ => {
                    literal.push(char::from(b));
                    self.pos += 1;
                }
            }
        }
    }

    /// A backslash escape of a quoted string (hashicorp/hcl `hclsyntax/scan_string_lit.rl`).
    fn escape(&mut self) -> Result<char> {
        let at = self.pos;
        let invalid = |p: &Parser| {
            p.error_at(
                at,
                "Invalid escape sequence",
                "the only escapes here are \\n, \\r, \\t, \\\", \\\\, \\uNNNN and \\UNNNNNNNN",
            )
        };
        let c = match self.peek_at(1) {
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(kind @ (b'u' | b'U')) => {
                let len = if kind == b'u' { 4 } else { 8 };
                let hex = self
                    .text
                    .get(at + 2..at + 2 + len)
                    .ok_or_else(|| invalid(self))?;
                let code = (hex.bytes().all(|b| b.is_ascii_hexdigit()))
                    .then(|| u32::from_str_radix(hex, 16).ok())
                    .flatten()
                    .and_then(char::from_u32)
                    .ok_or_else(|| invalid(self))?;
                self.pos = at + 2 + len;
                return Ok(code);
            }
            _ => return Err(invalid(self)),
        };
        self.pos = at + 2;
        Ok(c)
    }

    /// `${ expr }`, with its strip markers.
    #[inline(never)]
    fn interpolation(&mut self) -> Result<Expr> {
        let open = self.pos;
        self.enter()?;
        self.pos += 2;
        if self.peek() == Some(b'~') {
            self.pos += 1;
        }
        self.skip_trivia(true);
        if self.at_end() || self.peek() == Some(b'}') {
            return Err(self.invalid_expression());
        }
        let expr = self.expr(true)?;
        self.skip_trivia(true);
        if self.peek() == Some(b'~') {
            self.pos += 1;
        }
        if self.peek() != Some(b'}') {
            return Err(if self.at_end() {
                self.error_at(
                    open,
                    "Unclosed template interpolation sequence",
                    "there is no closing brace for this interpolation",
                )
            } else if self.peek() == Some(b'"') && !self.json_value {
                // HCL's scanner opens a string there: its error comes first (in a file; in a
                // JSON string's value the parser's "Extra characters" comes first).
                let quote = self.pos;
                match self.quoted_template() {
                    Err(error) => error,
                    Ok(_) => self.error_at(
                        quote,
                        "Extra characters after interpolation expression",
                        "a closing brace is expected to end the interpolation expression",
                    ),
                }
            } else {
                self.unexpected(
                    "Extra characters after interpolation expression",
                    "a closing brace is expected to end the interpolation expression",
                )
            });
        }
        self.pos += 1;
        self.leave();
        Ok(expr)
    }

    /// The keyword of the directive at the current position (after `%{` and a strip marker).
    fn directive_keyword(&mut self) -> Option<std::ops::Range<usize>> {
        self.pos += 2;
        if self.peek() == Some(b'~') {
            self.pos += 1;
        }
        self.skip_trivia(true);
        self.ident()
    }

    /// The end of a directive's braces: blanks, a strip marker, `}`.
    fn directive_close(&mut self) -> Result<()> {
        self.skip_trivia(true);
        if self.peek() == Some(b'~') {
            self.pos += 1;
        }
        if self.peek() != Some(b'}') {
            return Err(self.unexpected(
                "Extra characters in template directive",
                "a closing brace is expected to end the directive",
            ));
        }
        self.pos += 1;
        Ok(())
    }

    /// An `if` or `for` directive through its `endif` or `endfor`: what it holds and where it
    /// ends. `None` (the position unchanged but for reading) when the directive closes a
    /// block instead.
    #[inline(never)]
    fn directive(&mut self, flavor: Flavor) -> Result<Option<(Found, usize)>> {
        let start = self.pos;
        let Some(keyword) = self.directive_keyword() else {
            return Err(self.error_at(
                start,
                "Invalid template directive",
                "a template directive keyword (`if`, `for`, ...) is expected after `%{`",
            ));
        };
        self.enter()?;
        let keyword_start = keyword.start;
        let found = match &self.text[keyword] {
            "if" => {
                self.skip_trivia(true);
                let condition = self.expr(true)?;
                self.directive_close()?;
                let mut found = Found::from_expr(&condition);
                let mut body = Template::default();
                let mut stop = self.template_parts(flavor, &mut body)?;
                found.add_bound(body.found, &[]);
                if let Stop::Else { .. } = stop {
                    self.directive_keyword();
                    self.directive_close()?;
                    let mut otherwise = Template::default();
                    stop = self.template_parts(flavor, &mut otherwise)?;
                    found.add_bound(otherwise.found, &[]);
                }
                match stop {
                    Stop::EndIf { .. } => {
                        self.directive_keyword();
                        self.directive_close()?;
                    }
                    Stop::End => {
                        return Err(self.error(
                            "Unexpected end of template",
                            "the `if` directive has no `endif`",
                        ));
                    }
                    stop => return Err(self.misplaced_directive(&stop)),
                }
                found
            }
            "for" => {
                self.skip_trivia(true);
                let mut names = Vec::new();
                let invalid = |p: &Parser| {
                    p.unexpected(
                        "Invalid 'for' directive",
                        "a `for` directive needs a variable name, `in` and a collection",
                    )
                };
                let first = self.ident().ok_or_else(|| invalid(self))?;
                names.push(self.text[first].to_string());
                self.skip_trivia(true);
                if self.peek() == Some(b',') {
                    self.pos += 1;
                    self.skip_trivia(true);
                    let second = self.ident().ok_or_else(|| invalid(self))?;
                    names.push(self.text[second].to_string());
                    self.skip_trivia(true);
                }
                if !self.keyword("in") {
                    return Err(invalid(self));
                }
                self.skip_trivia(true);
                let collection = self.expr(true)?;
                self.directive_close()?;
                let mut body = Template::default();
                let stop = self.template_parts(flavor, &mut body)?;
                match stop {
                    Stop::EndFor { .. } => {
                        self.directive_keyword();
                        self.directive_close()?;
                    }
                    Stop::End => {
                        return Err(self.error(
                            "Unexpected end of template",
                            "the `for` directive has no `endfor`",
                        ));
                    }
                    stop => return Err(self.misplaced_directive(&stop)),
                }
                let mut found = Found::from_expr(&collection);
                let bound: Vec<&str> = names.iter().map(String::as_str).collect();
                found.add_bound(body.found, &bound);
                found
            }
            "else" | "endif" | "endfor" => {
                self.leave();
                return Ok(None);
            }
            _ => {
                return Err(self.error_at(
                    keyword_start,
                    "Invalid template control keyword",
                    "the directives are `if`, `else`, `endif`, `for` and `endfor`",
                ));
            }
        };
        self.leave();
        Ok(Some((found, self.pos)))
    }

    /// Which block-closing directive stands at the current position (its `%{`).
    fn closing_directive(&mut self) -> Stop {
        let at = self.pos;
        let keyword = self.directive_keyword();
        let stop = match keyword.map(|k| &self.text[k]) {
            Some("else") => Stop::Else { at },
            Some("endif") => Stop::EndIf { at },
            _ => Stop::EndFor { at },
        };
        self.pos = at;
        stop
    }

    /// The error for a block-closing directive where no block it closes is open.
    fn misplaced_directive(&self, stop: &Stop) -> super::ParseError {
        match *stop {
            Stop::Else { at } => self.error_at(
                at,
                "Unexpected else directive",
                "an `else` directive belongs in an `if` directive",
            ),
            Stop::EndIf { at } => self.error_at(
                at,
                "Unexpected endif directive",
                "no `if` directive is open here",
            ),
            Stop::EndFor { at } => self.error_at(
                at,
                "Unexpected endfor directive",
                "no `for` directive is open here",
            ),
            Stop::End => self.error("Unexpected end of template", "the template ends here"),
        }
    }
}

/// Whether a byte ends a literal run of a quoted string.
fn is_quoted_stop(b: u8) -> bool {
    matches!(b, b'"' | b'\\' | b'\n' | b'\r')
}

/// Where the body of the heredoc that starts at `body` ends (the start of its closing line)
/// and where its closing marker ends. Terraform and OpenTofu end a heredoc at the first line
/// of its body that holds the marker alone, blanks aside, followed by a newline (hashicorp/hcl
/// `hclsyntax/scan_tokens.rl`, the action `heredocLiteralEOL`): `EOT)` or `EOT # note` are body
/// text, and a marker that ends the file without a newline ends nothing
/// (hashicorp/terraform#31450).
pub(crate) fn heredoc_end(text: &str, body: usize, marker: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut start = body;
    while start < text.len() {
        let line_end = memchr::memchr(b'\n', &bytes[start..]).map(|p| start + p)?;
        let line = &text[start..line_end];
        if line.trim() == marker {
            let marker_start = start + (line.len() - line.trim_start().len());
            return Some((start, marker_start + marker.len()));
        }
        start = line_end + 1;
    }
    None
}

/// A `<<-` heredoc's text without the indentation its lines share, as hcl-edit removes it
/// (its `Template::dedent`: the fewest leading blanks of a non-empty line, counted in
/// characters, unless a line has none).
fn dedented(text: &str) -> String {
    let mut indent: Option<usize> = None;
    for line in text.lines() {
        if line.is_empty() {
            continue;
        }
        let leading = line.chars().take_while(|c| c.is_whitespace()).count();
        if leading == 0 {
            return text.to_string();
        }
        indent = Some(indent.map_or(leading, |i| i.min(leading)));
    }
    let Some(indent) = indent else {
        return text.to_string();
    };
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        if !line.is_empty() {
            out.extend(line.chars().skip(indent));
        }
        out.push('\n');
    }
    if out.ends_with('\n') && !text.ends_with('\n') {
        out.pop();
    }
    out
}
