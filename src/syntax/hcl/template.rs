//! Quoted strings, heredocs and the templates inside them (hashicorp/hcl
//! `hclsyntax/parser_template.go`; the lexical rules of `hclsyntax/scan_tokens.rl`).

use super::gather::Found;
use super::scanner::character_len;
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

/// One piece of a template as HCL's parser first reads it, in order, before it judges how the
/// directives nest (hashicorp/hcl `hclsyntax/parser_template.go`: `parseTemplateParts` reads
/// these "template tokens" to the template's end, then `templateParser` builds the structure
/// from them). Reading them first is what makes an unterminated template, or an error inside
/// a later sequence, come before a misplaced `%{ endif }`.
enum Piece {
    Literal(String),
    Interpolation(Expr),
    /// `%{ if condition }`, its `%{` at `at`.
    If {
        at: usize,
        condition: Expr,
    },
    /// `%{ for names in collection }`, its `%{` at `at`.
    For {
        at: usize,
        names: Vec<String>,
        collection: Expr,
    },
    /// `%{ else }`, `%{ endif }`, `%{ endfor }`: from its `%{` to the end of its `}`.
    Else {
        at: usize,
    },
    EndIf {
        at: usize,
        end: usize,
    },
    EndFor {
        at: usize,
        end: usize,
    },
}

/// An `if` or `for` directive whose closing directive is not read yet.
struct OpenDirective {
    /// Where its `%{` is.
    at: usize,
    /// The names a `for` binds (none for an `if`).
    bound: Vec<String>,
    is_for: bool,
    /// Whether an `if` has met its `else`.
    in_else: bool,
    /// What its condition or collection holds, and the branches already closed.
    found: Found,
    /// What the branch being read holds.
    branch: Found,
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
        let pieces = self.template_pieces(Flavor::Quoted)?;
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
        let template = self.assemble(pieces)?;
        self.pos += 1;
        Ok(template)
    }

    /// A block's quoted label: a string without template sequences, read as HCL reads one
    /// (hashicorp/hcl `hclsyntax/parser.go`, `parseQuotedStringLiteral`): a `${` or `%{` is
    /// "Invalid string literal" where it stands, the end of the file "Unterminated string
    /// literal" there.
    pub(crate) fn quoted_label(&mut self) -> Result<crate::syntax::Label> {
        let start = self.pos;
        self.pos += 1;
        let mut value = String::new();
        loop {
            let run_start = self.pos;
            let run_len = self.bytes[run_start..]
                .iter()
                .position(|&b| matches!(b, b'$' | b'%') || is_quoted_stop(b))
                .unwrap_or(self.bytes.len() - run_start);
            value.push_str(&self.text[run_start..run_start + run_len]);
            self.pos += run_len;
            match self.peek() {
                None => {
                    return Err(self.error(
                        "Unterminated string literal",
                        "no closing quote was found for this label before the end of the file",
                    ));
                }
                Some(b'"') => break,
                Some(b'\\') => value.push(self.escape()?),
                Some(b'\n' | b'\r') => {
                    return Err(self.error(
                        "Invalid multi-line string",
                        "quoted strings may not be split over multiple lines",
                    ));
                }
                Some(b) if self.peek_at(1) == Some(b) && self.peek_at(2) == Some(b'{') => {
                    // `$${` and `%%{` are escapes for a literal `${` and `%{`.
                    value.push(char::from(b));
                    value.push('{');
                    self.pos += 3;
                }
                Some(_) if self.peek_at(1) == Some(b'{') => {
                    return Err(self.error(
                        "Invalid string literal",
                        "a block label is a literal string: template sequences are not allowed \
                         here (`$${` and `%%{` write a literal `${` and `%{`)",
                    ));
                }
                Some(b) => {
                    value.push(char::from(b));
                    self.pos += 1;
                }
            }
        }
        self.pos += 1;
        Ok(crate::syntax::Label {
            value,
            span: self.span(start..self.pos),
        })
    }

    /// A template that is the whole text (a JSON string's value).
    pub(crate) fn unquoted_template(&mut self) -> Result<Template> {
        let pieces = self.template_pieces(Flavor::Unquoted)?;
        self.assemble(pieces)
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
        // HCL's scanner reads `<<`, a marker and a newline as one token, or else a `<` that no
        // expression starts with (hashicorp/hcl `hclsyntax/scan_tokens.rl`, BeginHeredocTmpl):
        // either way the error is at the `<<`.
        let Some(marker) = self.ident().filter(|_| self.newline_only()) else {
            return Err(self.error_at(
                start,
                "Invalid expression",
                "a heredoc starts with `<<` or `<<-`, a marker name and the end of the line",
            ));
        };
        let flavor = Flavor::Heredoc {
            marker: (marker.start, marker.end),
        };
        let pieces = if self.at_marker_line(flavor) {
            Vec::new()
        } else {
            self.template_pieces(flavor)?
        };
        if self.at_end() {
            let marker = &self.text[marker];
            return Err(self.error_at(
                self.text.len(),
                "Unterminated template string",
                format!("no line holding only `{marker}` ends this heredoc"),
            ));
        }
        let template = self.assemble(pieces)?;
        // At the marker line: the marker, after the blanks that may indent it.
        let rest = &self.text[self.pos..];
        let closing = self.pos + (rest.len() - rest.trim_start().len()) + marker.len();
        // HCL's closing token is the whole line but its newline (hashicorp/hcl
        // `hclsyntax/scan_tokens.rl`, `heredocLiteralEOL`), so the blanks after the marker,
        // Unicode's too (Go's `bytes.TrimSpace`), are read with it, not as code. A carriage
        // return among them is left where it is, for the scanner to refuse.
        let line_end =
            memchr::memchr(b'\n', &self.bytes[closing..]).map_or(self.bytes.len(), |p| closing + p);
        let trailing = self.bytes[closing..line_end]
            .strip_suffix(b"\r")
            .unwrap_or(&self.bytes[closing..line_end]);
        self.pos = if trailing.contains(&b'\r') {
            closing
        } else {
            closing + trailing.len()
        };
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
        let line = &self.text[self.pos..self.pos + line_len];
        let line = line.strip_suffix('\r').unwrap_or(line);
        // A carriage return elsewhere in the line is no blank to HCL's scanner but a character
        // it refuses (a heredoc's text holds none): such a line is no marker.
        !line.contains('\r') && line.trim() == &self.text[from..to]
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

    /// Reads the pieces of a template up to where it stops: its closing quote, its closing
    /// marker's line, the end of the text, or (in a quoted string) what may not stand in one.
    /// How its directives nest is judged afterwards ([`Parser::assemble`]).
    fn template_pieces(&mut self, flavor: Flavor) -> Result<Vec<Piece>> {
        let outer = std::mem::replace(&mut self.template_start, self.pos);
        let pieces = self.read_pieces(flavor);
        self.template_start = outer;
        pieces
    }

    /// [`Parser::template_pieces`], once the template's start is recorded.
    fn read_pieces(&mut self, flavor: Flavor) -> Result<Vec<Piece>> {
        let mut pieces = Vec::new();
        let mut literal = String::new();
        let flush = |literal: &mut String, pieces: &mut Vec<Piece>| {
            if !literal.is_empty() {
                pieces.push(Piece::Literal(std::mem::take(literal)));
            }
        };
        loop {
            let run_start = self.pos;
            let run_len = self.bytes[run_start..]
                .iter()
                .position(|&b| match flavor {
                    Flavor::Quoted => matches!(b, b'$' | b'%') || is_quoted_stop(b),
                    Flavor::Unquoted => matches!(b, b'$' | b'%'),
                    Flavor::Heredoc { .. } => matches!(b, b'$' | b'%' | b'\n' | b'\r'),
                })
                .unwrap_or(self.bytes.len() - run_start);
            literal.push_str(&self.text[run_start..run_start + run_len]);
            self.pos += run_len;
            let Some(b) = self.peek() else {
                flush(&mut literal, &mut pieces);
                return Ok(pieces);
            };
            match b {
                b'"' => {
                    flush(&mut literal, &mut pieces);
                    return Ok(pieces);
                }
                b'\n' if matches!(flavor, Flavor::Heredoc { .. }) => {
                    literal.push('\n');
                    self.pos += 1;
                    if self.at_marker_line(flavor) {
                        flush(&mut literal, &mut pieces);
                        return Ok(pieces);
                    }
                }
                b'\r' if matches!(flavor, Flavor::Heredoc { .. }) => {
                    // Only as the start of a line's end: HCL's scanner matches a lone one to
                    // nothing (hashicorp/hcl `hclsyntax/scan_tokens.rl`, `heredocTemplate`).
                    if self.peek_at(1) != Some(b'\n') {
                        return Err(self.error(
                            "Invalid character",
                            "a carriage return must be followed by a newline",
                        ));
                    }
                    literal.push('\r');
                    self.pos += 1;
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
                    flush(&mut literal, &mut pieces);
                    let expr = self.interpolation(flavor)?;
                    pieces.push(Piece::Interpolation(expr));
                }
                b'%' if self.peek_at(1) == Some(b'{') => {
                    flush(&mut literal, &mut pieces);
                    pieces.push(self.directive()?);
                }
                // In a heredoc, a `$` or `%` takes the byte after it as text when a line's end
                // starts after that byte (hashicorp/hcl `hclsyntax/scan_tokens.rl`:
                // `TemplateNotInterp` then `EndOfLine`), a carriage return too: `$\r\r\n` is a
                // line of text.
                b'$' | b'%'
                    if matches!(flavor, Flavor::Heredoc { .. })
                        && self.peek_at(1) == Some(b'\r')
                        && matches!(self.peek_at(2), Some(b'\n' | b'\r')) =>
                {
                    literal.push(char::from(b));
                    literal.push('\r');
                    self.pos += 2;
                }
                _ => {
                    literal.push(char::from(b));
                    self.pos += 1;
                }
            }
        }
    }

    /// Builds a template from its pieces, judging how its directives nest as HCL's
    /// `templateParser` does (hashicorp/hcl `hclsyntax/parser_template.go`, `parseRoot`,
    /// `parseIf`, `parseFor`): the first closing directive that closes nothing open, or
    /// closes the other kind, is the error; an `if` or `for` still open at the end is
    /// "Unexpected end of template" where the template stops (the current position).
    fn assemble(&mut self, pieces: Vec<Piece>) -> Result<Template> {
        let mut template = Template::default();
        let mut open: Vec<OpenDirective> = Vec::new();
        for piece in pieces {
            match piece {
                Piece::Literal(text) => {
                    // Inside a directive the text is not kept: the directive's value is
                    // not known without evaluating it.
                    if open.is_empty() {
                        template.parts.push(TemplatePart::Literal(text));
                    }
                }
                Piece::Interpolation(expr) => match open.last_mut() {
                    Some(directive) => directive.branch.add(&expr),
                    None => {
                        template.found.add(&expr);
                        template.parts.push(TemplatePart::Interpolation(expr));
                        template.has_sequences = true;
                    }
                },
                Piece::If { at, condition } => open.push(OpenDirective {
                    at,
                    bound: Vec::new(),
                    is_for: false,
                    in_else: false,
                    found: Found::from_expr(&condition),
                    branch: Found::default(),
                }),
                Piece::For {
                    at,
                    names,
                    collection,
                } => open.push(OpenDirective {
                    at,
                    bound: names,
                    is_for: true,
                    in_else: false,
                    found: Found::from_expr(&collection),
                    branch: Found::default(),
                }),
                Piece::Else { at } => match open.last_mut() {
                    Some(directive) if !directive.is_for && !directive.in_else => {
                        let branch = std::mem::take(&mut directive.branch);
                        directive.found.add_bound(branch, &[]);
                        directive.in_else = true;
                    }
                    _ => {
                        let error = self.error_at(
                            at,
                            "Unexpected else directive",
                            "an `else` directive belongs in an `if` directive, once",
                        );
                        self.soft(error)?;
                        return Ok(template);
                    }
                },
                Piece::EndIf { at, end } | Piece::EndFor { at, end } => {
                    let closes_for = matches!(piece, Piece::EndFor { .. });
                    let Some(directive) = open.pop().filter(|d| d.is_for == closes_for) else {
                        let (summary, message) = if closes_for {
                            (
                                "Unexpected endfor directive",
                                "no `for` directive is open here",
                            )
                        } else {
                            (
                                "Unexpected endif directive",
                                "no `if` directive is open here",
                            )
                        };
                        let error = self.error_at(at, summary, message);
                        self.soft(error)?;
                        return Ok(template);
                    };
                    let mut found = directive.found;
                    let bound: Vec<&str> = directive.bound.iter().map(String::as_str).collect();
                    found.add_bound(directive.branch, &bound);
                    match open.last_mut() {
                        Some(outer) => outer.branch.append(found),
                        None => {
                            template.found.append(found);
                            template
                                .parts
                                .push(TemplatePart::Directive(self.span(directive.at..end)));
                            template.has_sequences = true;
                        }
                    }
                }
            }
        }
        if let Some(directive) = open.last() {
            let message = if directive.is_for {
                "the `for` directive has no `endfor`"
            } else {
                "the `if` directive has no `endif`"
            };
            let error = self.error("Unexpected end of template", message);
            self.soft(error)?;
        }
        Ok(template)
    }

    /// A backslash escape of a quoted string (hashicorp/hcl `hclsyntax/scan_string_lit.rl`).
    fn escape(&mut self) -> Result<char> {
        let at = self.pos;
        match self.valid_escape() {
            Some(c) => Ok(c),
            None => {
                let error = self.error_at(
                    at,
                    "Invalid escape sequence",
                    "the only escapes here are \\n, \\r, \\t, \\\", \\\\, \\uNNNN and \\UNNNNNNNN",
                );
                // HCL finds it decoding a literal its scanner has already delimited
                // (`ParseStringLiteralToken`), without recovering: the string reads on after
                // the backslash and the character it escapes.
                self.soft(error)?;
                self.pos = match self.peek_at(1) {
                    None | Some(b'\n' | b'\r') => at + 1,
                    Some(_) => at + 1 + character_len(self.bytes, at + 1).unwrap_or(1),
                };
                Ok('\u{fffd}')
            }
        }
    }

    /// The character the escape at the current position stands for, read; `None` if the
    /// escape is not valid.
    fn valid_escape(&mut self) -> Option<char> {
        let at = self.pos;
        let c = match self.peek_at(1) {
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(kind @ (b'u' | b'U')) => {
                let len = if kind == b'u' { 4 } else { 8 };
                let hex = self.text.get(at + 2..at + 2 + len)?;
                let code = (hex.bytes().all(|b| b.is_ascii_hexdigit()))
                    .then(|| u32::from_str_radix(hex, 16).ok())
                    .flatten()
                    .and_then(char::from_u32)?;
                self.pos = at + 2 + len;
                return Some(code);
            }
            _ => return None,
        };
        self.pos = at + 2;
        Some(c)
    }

    /// `${ expr }`, with its strip markers.
    #[inline(never)]
    fn interpolation(&mut self, flavor: Flavor) -> Result<Expr> {
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
                // In a file HCL reports it at the template's first part, not at this `${`
                // (hashicorp/hcl `hclsyntax/parser_template.go`, parseTemplateParts: the
                // diagnostic's Subject is `startRange`). A JSON string's value keeps it at the
                // `${`, as the JSON side has always placed it.
                self.error_at(
                    if self.json_value {
                        open
                    } else {
                        self.template_start
                    },
                    "Unclosed template interpolation sequence",
                    "there is no closing brace for this interpolation",
                )
            } else if self.peek() == Some(b'"') && flavor == Flavor::Quoted {
                // In a quoted template a quote there suggests the sequence lacks its closing
                // brace: HCL reports it at the template's first part, as at the end of the file
                // (hashicorp/hcl `hclsyntax/parser_template.go`, parseTemplateParts: a
                // `TokenOQuote` or `TokenCQuote` where `end` is `TokenCQuote`). What the string
                // opened there holds is never parsed; the scanner's errors in it come first
                // all the same (`scanner`).
                self.error_at(
                    self.template_start,
                    "Unclosed template interpolation sequence",
                    "there is no closing brace for this interpolation before the end of the \
                     quoted template",
                )
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

    /// The end of a directive's braces: blanks, a strip marker, `}`. HCL names the keyword
    /// in the error (`Extra characters in if marker`).
    fn directive_close(&mut self, keyword: &str) -> Result<()> {
        self.skip_trivia(true);
        if self.peek() == Some(b'~') {
            self.pos += 1;
        }
        if self.peek() != Some(b'}') {
            let summary = match keyword {
                "if" => "Extra characters in if marker",
                "else" => "Extra characters in else marker",
                "endif" => "Extra characters in endif marker",
                "for" => "Extra characters in for marker",
                _ => "Extra characters in endfor marker",
            };
            return Err(
                self.unexpected(summary, "a closing brace is expected to end the directive")
            );
        }
        self.pos += 1;
        Ok(())
    }

    /// The directive at the current position (its `%{`), through its closing brace.
    #[inline(never)]
    fn directive(&mut self) -> Result<Piece> {
        let at = self.pos;
        let Some(keyword) = self.directive_keyword() else {
            // HCL reports it at the token where the keyword should be.
            return Err(self.unexpected(
                "Invalid template directive",
                "a template directive keyword (`if`, `for`, ...) is expected after `%{`",
            ));
        };
        let keyword_start = keyword.start;
        let keyword = &self.text[keyword];
        let piece = match keyword {
            "if" => {
                self.skip_trivia(true);
                let condition = self.expr(true)?;
                Piece::If { at, condition }
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
                Piece::For {
                    at,
                    names,
                    collection,
                }
            }
            "else" => Piece::Else { at },
            // The end is known once the closing brace is read.
            "endif" => Piece::EndIf { at, end: at },
            "endfor" => Piece::EndFor { at, end: at },
            _ => {
                return Err(self.error_at(
                    keyword_start,
                    "Invalid template control keyword",
                    "the directives are `if`, `else`, `endif`, `for` and `endfor`",
                ));
            }
        };
        self.directive_close(keyword)?;
        Ok(match piece {
            Piece::EndIf { at, .. } => Piece::EndIf { at, end: self.pos },
            Piece::EndFor { at, .. } => Piece::EndFor { at, end: self.pos },
            piece => piece,
        })
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
