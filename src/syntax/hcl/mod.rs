//! Our own parser of HCL's native syntax (`.tf`, `.tofu`, Terragrunt `.hcl`), producing the
//! [`crate::syntax`] model directly.
//!
//! The grammar is hashicorp/hcl's (`hclsyntax/spec.md`; tokens as `hclsyntax/scan_tokens.rl`
//! scans them, structure as `hclsyntax/parser.go` and `hclsyntax/parser_template.go` parse it),
//! read without a separate token stream: recursive descent over the bytes, operators read as a
//! flat chain (the model keeps operator, conditional and `for` expressions as text, so their
//! precedence never shows).
//!
//! What it guarantees, by construction:
//! - **Linear work.** Every decision is made on a bounded lookahead (`{ for` or an object,
//!   `name (` or a name, `name =` or a block); nothing is parsed twice after a failed
//!   alternative; repeated attribute names are found with a hash map.
//! - **Bounded depth.** Nesting (brackets, parentheses, calls, templates, blocks, operands of
//!   unary operators) may go [`MAX_DEPTH`] levels deep, far beyond the 1,000 levels Terraform
//!   loads; deeper is reported as beyond this parser's limit, never a stack overflow.
//! - **The tools' errors.** A syntax error carries the summary HCL gives it (`Invalid
//!   expression`, `Missing newline after argument`, ...), at the place HCL reports it.

mod body;
mod expr;
mod gather;
mod ident;
mod ident_tables;
mod operation;
mod recovery;
pub(crate) mod scanner;
mod template;

#[cfg(test)]
mod tests;

use std::ops::Range;

use super::{Call, Comment, DuplicateAttribute, Expr, File, Parsed, Reference, SyntaxError};
use crate::source::{FileId, Span};

pub(crate) use gather::embed;
pub(crate) use operation::{Operation, if_condition, operation};
pub(crate) use template::{TemplatePart, heredoc_end};

/// How deeply constructs may nest. Terraform loads 1,000 levels of any of them; each level
/// costs a few frames of this parser's recursion (and of the walks of the tree after it), and
/// in a release build this many levels fit with room to spare in the stack every parse runs
/// on: the command line runs its commands, and its workers their checks, on threads of 16 MiB
/// (`cli::run`), whatever the platform gives the main thread. A debug build's frames are
/// several times larger: its tests that nest this deep parse on a thread of their own with a
/// large stack.
pub(crate) const MAX_DEPTH: usize = 2_000;

/// The summary of a text beyond this parser's limits (reported as `parse_limit`, not as the
/// user's syntax error).
pub(crate) const PARSER_LIMIT_SUMMARY: &str = "Beyond the parser's limit";

/// A syntax error as the parser finds it: HCL's summary, a detail, and where.
#[derive(Debug, Clone)]
pub(crate) struct ParseError {
    pub(crate) summary: &'static str,
    pub(crate) message: String,
    pub(crate) at: Range<usize>,
    pub(crate) beyond_limit: bool,
    /// Where HCL's parser began recovering from the error, when that is not where it reports
    /// it: the token it read in the place of an index's missing `]`, whose recovery it reports
    /// at the `]` it stops at. The token there was read before the recovery.
    pub(crate) recovered_from: Option<usize>,
}

pub(crate) type Result<T> = std::result::Result<T, ParseError>;

/// The state of one parse: the text, where the parser is, what it has collected.
pub(crate) struct Parser<'t> {
    pub(crate) text: &'t str,
    pub(crate) bytes: &'t [u8],
    /// The file's bytes as read: `text`'s own, or, in a file that is not all UTF-8, the bytes
    /// that `text` has stand-ins for. Names are cut on these (see [`ident`]).
    pub(crate) read_bytes: &'t [u8],
    pub(crate) pos: usize,
    pub(crate) id: FileId,
    /// How many nested constructs are open.
    depth: usize,
    /// Comment ranges, delimiters included, in source order.
    pub(crate) comments: Vec<Range<usize>>,
    /// The last trivia skipped: (from, newlines skipped too, to). Looking ahead past the same
    /// blanks again (after a term, for an operator, then for a `?`) reads them once.
    trivia_memo: (usize, bool, usize),
    /// Duplicate attributes found, in source order.
    pub(crate) duplicates: Vec<DuplicateAttribute>,
    /// The text is a JSON string's value, a template of its own: no file follows it, so a
    /// string opened inside it and never closed is reported where the value ends, and after it
    /// any error the parser meets first (hashicorp/hcl `json/structure.go` parses the value
    /// with `hclsyntax.ParseTemplate`).
    pub(crate) json_value: bool,
    /// Whether `::` joins the parts of a function's name (`core::upper`, `provider::p::f`):
    /// hashicorp/hcl 2.20 brought it (Terraform 1.8, OpenTofu 1.7). Without it a name ends
    /// before `::`, whose first colon is then out of place wherever the name stands, as in
    /// the releases before (see [`parse_before_namespaces`]).
    namespaces: bool,
    /// Where the innermost template being read starts (after its opening quote or its
    /// heredoc's first line): where HCL reports an interpolation left open in it.
    template_start: usize,
    /// How many terms and blank runs the parse has read: its work, for the tests and the fuzz
    /// target (`fuzz/fuzz_targets/linear_work.rs`) that pin it as linear in the input.
    pub(crate) steps: u64,
    /// Set while the value of a single-line block's argument is read: there, an error HCL's
    /// parser reports without recovering (see [`Parser::soft`]) does not end the parse, since
    /// what follows still decides which error comes first.
    soft_errors: bool,
    /// The first such error, once one is found.
    soft_error: Option<ParseError>,
    /// How many such errors were found.
    soft_count: usize,
    /// The text is a whole file, read from its start in the scanner's code mode: a recovery
    /// model may read it from there (see `recovery::closing_token`).
    pub(crate) whole_file: bool,
}

impl<'t> Parser<'t> {
    pub(crate) fn new(id: FileId, text: &'t str) -> Parser<'t> {
        Parser {
            text,
            bytes: text.as_bytes(),
            read_bytes: text.as_bytes(),
            pos: 0,
            id,
            depth: 0,
            comments: Vec::new(),
            trivia_memo: (usize::MAX, false, 0),
            duplicates: Vec::new(),
            json_value: false,
            namespaces: true,
            template_start: 0,
            steps: 0,
            soft_errors: false,
            soft_error: None,
            soft_count: 0,
            whole_file: false,
        }
    }

    /// An error that hashicorp/hcl `hclsyntax/parser.go` reports without entering its recovery
    /// mode (a conditional missing its `:`, a number `cty` cannot read, a chained legacy index,
    /// a misplaced template directive): its parser goes on as if the construct were whole.
    /// That matters only in a single-line block, whose closing check (`finishParsingBodyBlock`)
    /// is reported before the argument's errors and is skipped once recovery is on; there the
    /// error is kept and the parse goes on, elsewhere it is returned.
    pub(crate) fn soft(&mut self, error: ParseError) -> Result<()> {
        if !self.soft_errors {
            return Err(error);
        }
        self.soft_error.get_or_insert(error);
        self.soft_count += 1;
        Ok(())
    }

    pub(crate) fn span(&self, range: Range<usize>) -> Span {
        Span::new(self.id, range)
    }

    pub(crate) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    pub(crate) fn peek_at(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.pos + offset).copied()
    }

    pub(crate) fn starts_with(&self, s: &str) -> bool {
        self.bytes[self.pos.min(self.bytes.len())..].starts_with(s.as_bytes())
    }

    pub(crate) fn at_end(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    /// An error at the current position, one character wide (none at the end).
    #[cold]
    #[inline(never)]
    pub(crate) fn error(&self, summary: &'static str, message: impl Into<String>) -> ParseError {
        self.error_at(self.pos, summary, message)
    }

    #[cold]
    #[inline(never)]
    pub(crate) fn error_at(
        &self,
        at: usize,
        summary: &'static str,
        message: impl Into<String>,
    ) -> ParseError {
        // An empty span, as the tools' diagnostics start there (the report widens it).
        let at = at.min(self.text.len());
        ParseError {
            summary,
            message: message.into(),
            at: at..at,
            beyond_limit: false,
            recovered_from: None,
        }
    }

    /// Enters one more nested construct; refused beyond [`MAX_DEPTH`].
    pub(crate) fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let mut error = self.error(
                PARSER_LIMIT_SUMMARY,
                format!(
                    "constructs nest more than {MAX_DEPTH} levels deep here, beyond what \
                     tflint-merge's parser checks"
                ),
            );
            error.beyond_limit = true;
            return Err(error);
        }
        Ok(())
    }

    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Skips blanks and comments; newlines (and line comments, which end with one) too when
    /// `newlines` is set. Where newlines end something, a line comment is left for the caller
    /// to read as the newline it ends with (as hclsyntax's peeker turns it into one).
    pub(crate) fn skip_trivia(&mut self, newlines: bool) {
        self.steps += 1;
        let (from, memo_newlines, to) = self.trivia_memo;
        if from == self.pos && memo_newlines == newlines {
            self.pos = to;
            return;
        }
        let from = self.pos;
        let bytes = self.bytes;
        let mut i = self.pos;
        while let Some(&b) = bytes.get(i) {
            match b {
                b' ' | b'\t' => i += 1,
                b'\n' if newlines => i += 1,
                b'\r' if newlines && bytes.get(i + 1) == Some(&b'\n') => i += 2,
                b'#' if newlines => i = self.line_comment(i),
                b'/' if newlines && bytes.get(i + 1) == Some(&b'/') => i = self.line_comment(i),
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    // Unterminated, it is no comment for HCL's scanner but a `/` and a `*`,
                    // which the parser then refuses where they stand.
                    let Some(close) = memchr::memmem::find(&bytes[i + 2..], b"*/") else {
                        break;
                    };
                    let end = i + 2 + close + 2;
                    self.record_comment(i..end);
                    i = end;
                }
                _ => break,
            }
        }
        self.pos = i;
        self.trivia_memo = (from, newlines, i);
    }

    /// Reads the line comment at `start`; returns where the next line starts (or the end).
    pub(crate) fn line_comment(&mut self, start: usize) -> usize {
        let bytes = self.bytes;
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |p| start + p);
        let without_cr = if end > start && bytes[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        self.record_comment(start..without_cr);
        (end + 1).min(bytes.len())
    }

    /// Records a comment once, however often the blanks around it are looked through.
    fn record_comment(&mut self, range: Range<usize>) {
        if self
            .comments
            .last()
            .is_none_or(|last| last.start < range.start)
        {
            self.comments.push(range);
        }
    }

    /// Whether a line comment (`#` or `//`) starts here and runs to the end of the text,
    /// with no newline to end it.
    pub(crate) fn line_comment_ends_the_text(&self) -> bool {
        (self.peek() == Some(b'#') || self.starts_with("//"))
            && memchr::memchr(b'\n', &self.bytes[self.pos..]).is_none()
    }

    /// Reads a newline where newlines end something: `\n`, `\r\n` or a line comment (which
    /// ends with one, or with the text). Returns whether there was one.
    pub(crate) fn newline(&mut self) -> bool {
        match self.peek() {
            Some(b'\n') => self.pos += 1,
            Some(b'\r') if self.peek_at(1) == Some(b'\n') => self.pos += 2,
            Some(b'#') => self.pos = self.line_comment(self.pos),
            Some(b'/') if self.peek_at(1) == Some(b'/') => self.pos = self.line_comment(self.pos),
            _ => return false,
        }
        true
    }

    /// The identifier at the current position (HCL's: a Unicode ID_Start or `_`, then
    /// ID_Continue characters and `-`, as its scanner matches them), consumed; `None` if there
    /// is none.
    pub(crate) fn ident(&mut self) -> Option<Range<usize>> {
        let start = self.pos;
        let end = ident::ident_end(self.read_bytes, start)?;
        // In a file that is not UTF-8, HCL's ranges may end a name inside a character of the
        // text: the bytes left of that character are no token's but a bad encoding, which the
        // scanner reports before anything the parser says (`scanner`).
        if !self.text.is_char_boundary(end) {
            return None;
        }
        self.pos = end;
        Some(start..end)
    }

    /// Whether an identifier starts at the current position.
    pub(crate) fn ident_follows(&self) -> bool {
        ident::start_len(self.read_bytes, self.pos).is_some()
    }

    /// Whether the character at `at` may continue an identifier.
    pub(crate) fn continues_ident(&self, at: usize) -> bool {
        ident::continue_len(self.read_bytes, at).is_some()
    }
}

/// The work of parsing a whole native-syntax file, in parse steps (see [`Parser::steps`]).
pub(crate) fn parse_steps(text: &str) -> u64 {
    let mut parser = Parser::new(FileId(0), text);
    // Whether it parses does not matter here: only how much it read to find out.
    let _ = parser.file_body();
    parser.steps
}

/// Parses a whole native-syntax file.
pub(crate) fn parse(id: FileId, text: &str) -> Parsed {
    parse_read(id, text, None)
}

/// Parses a native-syntax file read from `bytes` that are not all UTF-8: `text` is `bytes`
/// with each byte that is not replaced by [`NOT_UTF8_STAND_IN`], so that every offset is the
/// file's. HCL's scanner decides what those bytes are: nothing in a comment (the file loads),
/// an error anywhere else.
pub(crate) fn parse_not_utf8(id: FileId, text: &str, bytes: &[u8]) -> Parsed {
    parse_read(id, text, Some(bytes))
}

/// What stands in the parsed text for a byte of a native file that is not UTF-8: a control
/// character, which no construct but a comment or a string takes.
pub(crate) const NOT_UTF8_STAND_IN: u8 = 0x1a;

fn parse_read(id: FileId, text: &str, not_utf8: Option<&[u8]>) -> Parsed {
    let mut parser = Parser::new(id, text);
    parser.whole_file = true;
    if let Some(bytes) = not_utf8 {
        parser.read_bytes = bytes;
    }
    // Terraform skips a UTF-8 byte-order mark at the start of a file.
    if text.starts_with('\u{feff}') {
        parser.pos = '\u{feff}'.len_utf8();
    }
    let mut body = parser.file_body();
    // The tokens HCL's scanner refuses come before any error of its parser, wherever they are
    // (see `scanner`); with bytes that are not UTF-8, the scanner alone tells whether they
    // stand where the tools refuse them.
    if body.is_err() || not_utf8.is_some() {
        let bytes = not_utf8.unwrap_or(text.as_bytes());
        if let Some(token) = scanner::first_invalid_token(bytes) {
            body = Err(parser.error_at(token.at, token.summary, token.message));
        }
    }
    let comments = parser
        .comments
        .iter()
        .map(|range| Comment {
            text: strip_comment_delimiters(&text[range.clone()]).to_string(),
            span: Span::new(id, range.clone()),
        })
        .collect();
    match body {
        Ok(body) => Parsed {
            file: Ok(File { id, body, comments }),
            duplicate_attributes: parser.duplicates,
        },
        Err(error) => Parsed {
            file: Err(SyntaxError {
                summary: error.summary,
                message: error.message,
                span: Span::new(id, error.at),
                beyond_tool_limit: error.beyond_limit,
            }),
            // Those found before the error: HCL's parser reports them too, as it meets them.
            duplicate_attributes: parser.duplicates,
        },
    }
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

/// The syntax error the native text gets from a parser without function namespaces (hashicorp/hcl
/// before 2.20, in Terraform before 1.8 and OpenTofu before 1.7, scans `::` as two colons): the
/// first place where a `::` in a function's name stands, in the words of the construct that
/// meets its first colon (`Missing newline after argument`, `Missing item separator`, `Extra
/// characters after interpolation expression`...). `None` when the text parses that way (it
/// has no such name) or fails earlier for another reason, which the ordinary parse reports.
pub(crate) fn parse_before_namespaces(id: FileId, text: &str) -> Option<SyntaxError> {
    let mut parser = Parser::new(id, text);
    parser.whole_file = true;
    parser.namespaces = false;
    if text.starts_with('\u{feff}') {
        parser.pos = '\u{feff}'.len_utf8();
    }
    let error = parser.file_body().err()?;
    Some(SyntaxError {
        summary: error.summary,
        message: error.message,
        span: Span::new(id, error.at),
        beyond_tool_limit: error.beyond_limit,
    })
}

/// Parses a JSON string's value as a template without function namespaces (see
/// [`parse_before_namespaces`]): the error, at its offset in the value.
pub(crate) fn parse_value_template_before_namespaces(value: &str) -> Option<ParseError> {
    let mut parser = Parser::new(FileId(0), value);
    parser.json_value = true;
    parser.namespaces = false;
    parser.unquoted_template().err()
}

/// Parses a native-syntax expression embedded elsewhere (the `${...}` of a JSON string, a JSON
/// `type` string). Every span in the result is `span`; it holds no calls or references of its
/// own (its embedding records them where they are in the file).
pub(crate) fn parse_expr_at(source: &str, span: Span) -> Option<Expr> {
    // A heredoc may close at the end of an embedded text, as hcl-edit reads it: the line of
    // its marker is ended here.
    let ended;
    let source = if source.ends_with('\n') {
        source
    } else {
        ended = format!("{source}\n");
        &ended
    };
    let mut parser = Parser::new(span.file, source);
    parser.skip_trivia(true);
    let expr = parser.expr(true).ok()?;
    parser.skip_trivia(true);
    if !parser.at_end() {
        return None;
    }
    Some(gather::embed(expr, span))
}

/// The parts of the quoted string template at `span` of a native file, with spans in that
/// file. `None` when the text there is not a quoted string template.
pub(crate) fn template_parts(id: FileId, text: &str, span: Span) -> Option<Vec<TemplatePart>> {
    let range = span.range();
    if text.as_bytes().get(range.start) != Some(&b'"') {
        return None;
    }
    let mut parser = Parser::new(id, text);
    parser.pos = range.start;
    let template = parser.quoted_template().ok()?;
    (parser.pos == range.end).then(|| template.into_parts())
}

/// The parts of a string template expression of either syntax: read from the file's text in a
/// native file, from the string's value in a JSON file (where every part has the string's span:
/// escapes make offsets into the value differ from offsets into the file).
pub(crate) fn expr_template_parts(expr: &Expr, text: &str) -> Option<Vec<TemplatePart>> {
    let Some(value) = expr.json_string() else {
        return template_parts(expr.span.file, text, expr.span);
    };
    let mut parser = Parser::new(expr.span.file, value);
    let template = parser.unquoted_template().ok()?;
    Some(
        template
            .into_parts()
            .into_iter()
            .map(|part| match part {
                TemplatePart::Interpolation(e) => {
                    TemplatePart::Interpolation(gather::embed(e, expr.span))
                }
                TemplatePart::Directive(_) => TemplatePart::Directive(expr.span),
                literal @ TemplatePart::Literal(_) => literal,
            })
            .collect(),
    )
}

/// A template read from a JSON string's value (HCL's JSON syntax evaluates its strings as
/// templates): its parts, and what it evaluates, with spans the ranges in the value (of no
/// file: the caller places them).
#[derive(Debug)]
pub(crate) struct ValueTemplate {
    pub(crate) parts: Vec<TemplatePart>,
    pub(crate) calls: Vec<Call>,
    pub(crate) references: Vec<Reference>,
    /// Whether it has an interpolation or a directive (else it is a string, `literal`).
    pub(crate) has_sequences: bool,
    /// The text of a template without sequences, escapes (`$${`) read.
    pub(crate) literal: String,
}

/// Parses a JSON string's value as a template.
pub(crate) fn parse_value_template(value: &str) -> Result<ValueTemplate> {
    let mut parser = Parser::new(FileId(0), value);
    parser.json_value = true;
    let template = parser.unquoted_template()?;
    Ok(template.into_value_template())
}
