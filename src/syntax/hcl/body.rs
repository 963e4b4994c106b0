//! Bodies: arguments and blocks, each ending its line (hashicorp/hcl `hclsyntax/parser.go`:
//! `ParseBody`, `ParseBodyItem`, `finishParsingBodyAttribute`, `finishParsingBodyBlock`).

use std::hash::BuildHasher;
use std::sync::Arc;

use hashbrown::hash_table::{Entry, HashTable};

use super::{ParseError, Parser, Result, recovery, scanner};
use crate::source::{Span, Syntax};
use crate::syntax::{Attribute, Block, Body, DuplicateAttribute, Label, Labels};

/// Bodies with more attributes than this find repeated names with a map, the others by looking
/// through the attributes before (cheaper for the few arguments most blocks have).
pub(crate) const MAX_ATTRIBUTES_SEARCHED: usize = 16;

/// What stands after a name in a body.
enum Item {
    Attribute(Attribute),
    Block(Block),
}

impl Parser<'_> {
    /// The body of a whole file, up to its end.
    pub(crate) fn file_body(&mut self) -> Result<Body> {
        self.body(None)
    }

    /// A body's items, up to its closing brace (not read) or, for a file (`open` is `None`),
    /// the end of the text.
    fn body(&mut self, open: Option<usize>) -> Result<Body> {
        let mut body = Body::default();
        let mut names: Option<FirstByName> = None;
        loop {
            self.skip_trivia(true);
            match (self.peek(), open) {
                (None, None) => return Ok(body.fitted()),
                (None, Some(open)) => {
                    return Err(self.error_at(
                        open,
                        "Unclosed configuration block",
                        "there is no closing brace for this block before the end of the file",
                    ));
                }
                (Some(b'}'), Some(_)) => return Ok(body.fitted()),
                _ => {}
            }
            match self.item()? {
                Item::Attribute(attribute) => {
                    // HCL reports what stands wrongly after an argument before it reports the
                    // argument as a repeat (`ParseBody` appends the item's own diagnostics
                    // first).
                    self.end_of_item(false)?;
                    self.record_repeat(&body, &mut names, &attribute);
                    body.attributes.push(Arc::new(attribute));
                }
                Item::Block(block) => {
                    body.blocks.push(block);
                    self.end_of_item(true)?;
                }
            }
        }
    }

    /// Records `attribute` as a repeat if its name is defined before in `body`.
    fn record_repeat(
        &mut self,
        body: &Body,
        names: &mut Option<FirstByName>,
        attribute: &Attribute,
    ) {
        let earlier = &body.attributes;
        if names.is_none() && earlier.len() >= MAX_ATTRIBUTES_SEARCHED {
            let mut index = FirstByName::default();
            for (position, attribute) in earlier.iter().enumerate() {
                index.first_or_insert(earlier, position, &attribute.name);
            }
            *names = Some(index);
        }
        let first = match names {
            Some(index) => index.first_or_insert(earlier, earlier.len(), &attribute.name),
            None => earlier.iter().position(|e| e.name == attribute.name),
        }
        .map(|position| earlier[position].name_span);
        if let Some(first) = first {
            self.duplicates.push(DuplicateAttribute {
                name: attribute.name.clone(),
                first,
                second: attribute.name_span,
                syntax: Syntax::Native,
            });
        }
    }

    /// After an argument or a block: blanks, maybe a comment, then a newline or the end. What
    /// else stands there is refused as hashicorp/hcl `hclsyntax/parser.go` does
    /// (`finishParsingBodyAttribute`, `finishParsingBodyBlock`), a comma after an argument
    /// with its own summary.
    fn end_of_item(&mut self, block: bool) -> Result<()> {
        self.skip_trivia(false);
        if self.at_end() || self.newline() {
            return Ok(());
        }
        Err(if block {
            self.unexpected(
                "Missing newline after block definition",
                "a block definition must end with a newline",
            )
        } else if self.peek() == Some(b',') {
            self.error(
                "Unexpected comma after argument",
                "argument definitions are separated by newlines, not commas",
            )
        } else {
            self.unexpected(
                "Missing newline after argument",
                "an argument definition must end with a newline",
            )
        })
    }

    /// An argument (`name = value`) or a block (`type "label" { ... }`).
    fn item(&mut self) -> Result<Item> {
        let Some(name) = self.ident() else {
            // A quoted string where an item starts: HCL takes it for a quoted argument name
            // (`ParseBody`, whatever follows the string).
            if self.peek() == Some(b'"') {
                return Err(self.error(
                    "Invalid argument name",
                    "an argument's name is an identifier, without quotes",
                ));
            }
            return Err(self.unexpected(
                "Argument or block definition required",
                "an argument or block definition is required here",
            ));
        };
        let name_span = self.span(name.clone());
        let name = self.text[name].to_string();
        self.skip_trivia(false);
        match (self.peek(), self.peek_at(1)) {
            (Some(b'='), next) if !matches!(next, Some(b'=' | b'>')) => {
                self.pos += 1;
                Ok(Item::Attribute(self.attribute_value(name, name_span)?))
            }
            (Some(b'{' | b'"'), _) => Ok(Item::Block(self.block(name, name_span)?)),
            (Some(_), _) if self.ident_follows() => Ok(Item::Block(self.block(name, name_span)?)),
            _ => {
                let error = self.unexpected(
                    "Argument or block definition required",
                    "an argument (`name = value`) or a block (`type \"label\" { ... }`) is \
                     expected here",
                );
                // Not a character HCL refuses: the error is the item's, at its name.
                Err(match error.summary {
                    "Argument or block definition required" => {
                        self.error_at(name_span.start as usize, error.summary, error.message)
                    }
                    _ => error,
                })
            }
        }
    }

    /// The value of an argument, after its `=`.
    fn attribute_value(&mut self, name: String, name_span: Span) -> Result<Attribute> {
        self.skip_trivia(false);
        if matches!(self.peek(), None | Some(b'\n' | b'#'))
            || self.starts_with("\r\n")
            || self.starts_with("//")
        {
            return Err(self.invalid_expression());
        }
        let expr = self.expr(false)?;
        Ok(Attribute {
            name,
            name_span,
            expr,
        })
    }

    /// A block from its labels (or its brace) on.
    fn block(&mut self, kind: String, kind_span: Span) -> Result<Block> {
        let mut labels = Vec::new();
        loop {
            self.skip_trivia(false);
            match self.peek() {
                Some(b'{') => break,
                Some(b'"') => labels.push(self.quoted_label()?),
                _ => match self.ident() {
                    Some(label) => labels.push(Label {
                        value: self.text[label.clone()].to_string(),
                        span: self.span(label),
                    }),
                    None => {
                        return Err(self.unexpected(
                            "Invalid block definition",
                            "either a quoted string block label or an opening brace (`{`) is \
                             expected here",
                        ));
                    }
                },
            }
        }
        let header_span = labels.last().map_or(kind_span, |l| kind_span.to(l.span));
        let open = self.pos;
        self.enter()?;
        self.pos += 1;
        self.skip_trivia(false);
        let body = if self.newline() {
            let body = self.body(Some(open))?;
            self.pos += 1;
            body
        } else {
            self.single_line_body(open)?
        };
        self.leave();
        Ok(Block {
            kind,
            labels: labels.into_iter().collect::<Labels>(),
            header_span,
            body_span: self.span(open..self.pos),
            body,
        })
    }

    /// The body of a block on the line of its opening brace: empty, or one argument
    /// (hashicorp/hcl `hclsyntax/parser.go`: `parseSingleAttrBody`, then what
    /// `finishParsingBodyBlock` expects after it).
    fn single_line_body(&mut self, open: usize) -> Result<Body> {
        let mut body = Body::default();
        if self.peek() != Some(b'}') {
            let unclosed = |p: &Parser| {
                p.error_at(
                    open,
                    "Unclosed configuration block",
                    "there is no closing brace for this block before the end of the file",
                )
            };
            if self.at_end() {
                return Err(unclosed(self));
            }
            let Some(name) = self.ident() else {
                let error = self.unexpected(
                    "Argument or block definition required",
                    "an argument definition is required here",
                );
                return Err(self.single_line_item_refused((self.pos, self.pos), true, error));
            };
            let name_span = self.span(name.clone());
            let name = self.text[name].to_string();
            self.skip_trivia(false);
            if matches!(self.peek(), Some(b'{' | b'"')) || self.ident_follows() {
                let error = self.error_at(
                    name_span.start as usize,
                    "Argument definition required",
                    "a single-line block definition can contain only a single argument, not \
                     a nested block",
                );
                return Err(self.single_line_item_refused((self.pos, self.pos), false, error));
            }
            if self.peek() != Some(b'=') || matches!(self.peek_at(1), Some(b'=' | b'>')) {
                let error = self.error_at(
                    name_span.start as usize,
                    "Argument or block definition required",
                    "an argument is set with an equals sign (`=`) introducing its value",
                );
                return Err(self.single_line_item_refused((self.pos, self.pos), false, error));
            }
            self.pos += 1;
            let value_start = self.pos;
            self.soft_errors = true;
            let value = self.attribute_value(name, name_span);
            self.soft_errors = false;
            let soft = self.soft_error.take();
            let attribute = value.map_err(|error| {
                self.single_line_value_refused(value_start, soft.clone(), error)
            })?;
            body.attributes.push(Arc::new(attribute));
            self.skip_trivia(false);
            match self.peek() {
                Some(b'}') => {}
                None => return Err(unclosed(self)),
                // A comment to the end of the text is no token: the block is unclosed.
                Some(_) if self.line_comment_ends_the_text() => return Err(unclosed(self)),
                Some(_) => {
                    return Err(self.unexpected(
                        "Invalid single-argument block definition",
                        "a single-line block definition must end with a closing brace right \
                         after its single argument",
                    ));
                }
            }
            // The block closes: the value's first error is the first.
            if let Some(error) = soft {
                return Err(error);
            }
        }
        self.pos += 1;
        Ok(body.fitted())
    }

    /// The first error of a single-line block whose argument's value (from `value_start`) is
    /// refused with `error`, which HCL recovers from; `soft` is an error found before it that
    /// HCL did not recover from (see [`Parser::soft`]), which comes before it. HCL's
    /// `finishParsingBodyBlock` judges what follows the value before it appends the value's
    /// diagnostics: the brackets around the error recover to their closers and the argument
    /// to the end of its line (`finishParsingBodyAttribute`, `recoverAfterBodyItem`), as for a
    /// refused item, and a newline or comma standing there is refused first.
    #[cold]
    #[inline(never)]
    fn single_line_value_refused(
        &self,
        value_start: usize,
        soft: Option<ParseError>,
        error: ParseError,
    ) -> ParseError {
        if error.beyond_limit || scanner::SUMMARIES.contains(&error.summary) {
            return error;
        }
        // The token HCL read where an index's `]` was missing was read before it recovered;
        // so was a call's missing argument separator (`parseFunctionCall` reads the token),
        // where the others are only peeked at.
        let (at, consumed) = match error.recovered_from {
            Some(from) => (from, true),
            None => (
                error.at.start,
                error.summary == "Missing argument separator",
            ),
        };
        let over_paren = matches!(
            error.summary,
            "Missing function name" | "Missing open parenthesis"
        );
        let innermost_ended = error.message == super::expr::PARENTHESIS_NOT_CLOSED;
        let stop = recovery::after_enclosing_recoveries(
            self.read_bytes,
            value_start,
            at,
            (consumed, over_paren, innermost_ended),
            &|at| self.expression_end(at),
        );
        // The recovery goes on in the scanner's state at `stop` (inside a heredoc, say),
        // read from the value's start.
        self.single_line_item_refused((value_start, stop), false, soft.unwrap_or(error))
    }

    /// The end of the whole expression at `at`, read as in brackets (newlines are blanks);
    /// `None` if it holds an error.
    fn expression_end(&self, at: usize) -> Option<usize> {
        let mut parser = Parser::new(self.id, self.text);
        parser.read_bytes = self.read_bytes;
        parser.namespaces = self.namespaces;
        parser.whole_file = self.whole_file;
        parser.pos = at;
        parser.expr(false).ok().map(|_| parser.pos)
    }

    /// The first error of a single-line block whose item is refused with `error`, the
    /// recovery starting at `from`, the tokens read from `scan_from`, where the scanner reads
    /// code (see [`super::recovery`]): a newline or a comma where the recovery stops is
    /// refused before the item's own error.
    #[cold]
    #[inline(never)]
    fn single_line_item_refused(
        &self,
        (scan_from, from): (usize, usize),
        first_read_before: bool,
        error: ParseError,
    ) -> ParseError {
        let stop = recovery::after_body_item(self.read_bytes, (scan_from, from), first_read_before);
        match recovery::newline_or_comma(self.read_bytes, stop) {
            Some(at) if self.bytes[at] == b',' => self.error_at(
                at,
                "Invalid single-argument block definition",
                "a single-line block definition can contain only one argument definition",
            ),
            Some(at) => self.error_at(
                at,
                "Invalid single-argument block definition",
                "a single-line block definition must be closed on the line it opens",
            ),
            None => error,
        }
    }
}

/// The attributes of a long body by name, for finding repeats: each name's first position in
/// the body's list, with the name's hash. The names are read from the attributes, not copied:
/// a body of many arguments would otherwise hold a second copy of every name while it is read.
#[derive(Default)]
struct FirstByName {
    positions: HashTable<(u64, usize)>,
    hasher: foldhash::fast::RandomState,
}

impl FirstByName {
    /// The position of the first attribute named `name` among `attributes`; if there is none,
    /// records `position` (where the attribute of that name is, or is about to be pushed) as
    /// the first.
    fn first_or_insert(
        &mut self,
        attributes: &[Arc<Attribute>],
        position: usize,
        name: &str,
    ) -> Option<usize> {
        let hash = self.hasher.hash_one(name);
        let same = |&(h, i): &(u64, usize)| h == hash && attributes[i].name == name;
        match self.positions.entry(hash, same, |&(h, _)| h) {
            Entry::Occupied(first) => Some(first.get().1),
            Entry::Vacant(slot) => {
                slot.insert((hash, position));
                None
            }
        }
    }
}
