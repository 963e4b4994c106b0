//! Where HCL's parser stands after it gives up on a body item or a bracket, read over the
//! file's bytes.
//!
//! hashicorp/hcl `hclsyntax/parser.go` reports an error in the one argument of a single-line
//! block (`parseSingleAttrBody`) only after it has looked at what follows: the item's
//! `recoverAfterBodyItem` reads tokens up to the first newline outside any bracket, string,
//! heredoc or template sequence it opened, and then `finishParsingBodyBlock` refuses a comma
//! or a newline standing there ("Invalid single-argument block definition") before it appends
//! the item's own diagnostics. So the first error of such a file can be lines below the item.
//! And some errors are reported where `recover` stops, not where they are found: a missing
//! `]` after an index, for one, is reported at the `]` that the recovery takes for its closer
//! (`parseExpressionTraversals` points the diagnostic at the token variable that the
//! recovery's result then replaces), which may be lines below, past strings and heredocs
//! holding brackets of their own.
//! This reads the tokens as `hclsyntax/scan_tokens.rl` scans them (see [`super::scanner`]),
//! handing on only what the recoveries count.

use std::ops::{ControlFlow, Range};

use super::ident::ident_end;
use super::scanner::{character_len, heredoc_start, is_marker, line_comment_end};

/// What the recovery counts as open: each opening token it reads, until its closer.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Opener {
    Brace,
    Bracket,
    Paren,
    Quote,
    Heredoc,
    /// `${` or `%{`.
    Sequence,
}

/// What the scanner is reading.
enum Mode {
    Code,
    Quoted,
    Heredoc {
        marker: Range<usize>,
        start_of_line: bool,
    },
}

/// Where `recoverAfterBodyItem` stops when its first read is the token at `from`: after the
/// first newline (or line comment, which the parser takes for one) read with nothing open, or
/// at the end. The tokens are read from `scan_from`, where the scanner reads code, so that a
/// `from` inside a heredoc or a string is read in the scanner's state there (the newlines of a
/// heredoc's text are no tokens). `first_read_before` is set when the parser had already read
/// the token at `from`: an opener there is not counted.
pub(crate) fn after_body_item(
    bytes: &[u8],
    (scan_from, from): (usize, usize),
    first_read_before: bool,
) -> usize {
    let mut open: Vec<Opener> = Vec::new();
    let stop = read_tokens(bytes, scan_from, |token, at, end| {
        if at < from {
            return ControlFlow::Continue(());
        }
        match token {
            Token::Newline if open.is_empty() => return ControlFlow::Break(end),
            Token::LineComment { ends_line: true } if open.is_empty() => {
                return ControlFlow::Break(end);
            }
            Token::Open(_) if first_read_before && at == from => {}
            Token::Open(opener) => open.push(opener),
            Token::Close(opener) => close(&mut open, opener),
            Token::Newline | Token::LineComment { .. } => {}
        }
        ControlFlow::Continue(())
    });
    stop.unwrap_or(bytes.len())
}

/// Where `recover` finds the closer of `opener` (`]`, `)` or `}`) when its first read is the
/// token at `from`: the first one with as many of its openers as closers read before it
/// (other brackets are not counted), or the end of the text if none is. The tokens are read
/// from `scan_from`, where the scanner reads code, so that a `from` inside a template
/// sequence is read as the scanner reads it there (the sequence's `}` ends it, and the
/// template's text after it holds no brackets).
pub(crate) fn closing_token(bytes: &[u8], scan_from: usize, from: usize, opener: Opener) -> usize {
    let mut nest = 0usize;
    let stop = read_tokens(bytes, scan_from, |token, at, _| {
        if at < from {
            return ControlFlow::Continue(());
        }
        match token {
            Token::Open(kind) if kind == opener => nest += 1,
            Token::Close(kind) if kind == opener => match nest.checked_sub(1) {
                Some(outer) => nest = outer,
                None => return ControlFlow::Break(at),
            },
            _ => {}
        }
        ControlFlow::Continue(())
    });
    stop.unwrap_or(bytes.len())
}

/// Where HCL's parser stands once the constructs around an error at `at` in an expression
/// that starts at `from` have recovered: each construct open at `at` goes on to its closer,
/// innermost first, read on one token stream. A bracket (a tuple's, an object's, a call's, an
/// index's, parentheses) recovers to its closer (`recover`, counting only its own kind of
/// opener); a template sequence likewise to its end (`parseTemplateParts` recovers to
/// `TokenTemplateSeqEnd`); a string or heredoc template reads its parts on to its closing
/// quote or marker. `consumed` is set when the parser had read the token at `at` before
/// recovering (a call's missing argument separator). `over_paren` is set when the error first recovers over
/// the next parenthesised group (`recoverOver(TokenOParen)`, after a function call's name
/// that is missing its name or its `(`, whose token at `at` was read). `innermost_ended` is
/// set when the innermost construct open at `at` ends there without recovering: parentheses
/// whose `)` is missing (`parseExpressionTerm` reports the token standing there, reads it as
/// if it were the `)` and returns in recovery mode), so the constructs around them recover
/// from the token after it: a template sequence's `}` read so is not its end. Between two
/// recoveries, the indexes after a construct that recovered read tokens of their own (see
/// [`indexes_read_while_recovering`], which `expression_end` serves).
pub(crate) fn after_enclosing_recoveries(
    bytes: &[u8],
    from: usize,
    at: usize,
    (consumed, over_paren, innermost_ended): (bool, bool, bool),
    expression_end: &dyn Fn(usize) -> Option<usize>,
) -> usize {
    let mut open: Vec<Opener> = Vec::new();
    let mut recovering = false;
    let mut awaiting_paren = over_paren;
    // How many of the innermost open construct's own kind opened since it began recovering.
    let mut nest = 0usize;
    // The end of the indexes read after a construct that recovered: their tokens are no
    // openers or closers of the constructs around.
    let mut read_by_indexes = 0usize;
    let stop = read_tokens(bytes, from, |token, start, end| {
        if !recovering && start >= at {
            recovering = true;
            if innermost_ended {
                open.pop();
            }
            let read = (consumed && matches!(token, Token::Open(_) | Token::Close(_)))
                || awaiting_paren
                || innermost_ended;
            let read_at = start == at && read;
            if open.is_empty() && !awaiting_paren {
                return ControlFlow::Break(if read_at { end } else { start });
            }
            if read_at {
                return ControlFlow::Continue(());
            }
        }
        if recovering && awaiting_paren {
            if let Token::Open(Opener::Paren) = token {
                awaiting_paren = false;
                open.push(Opener::Paren);
            }
            return ControlFlow::Continue(());
        }
        if !recovering {
            match token {
                Token::Open(opener) => open.push(opener),
                Token::Close(opener) => close(&mut open, opener),
                Token::Newline | Token::LineComment { .. } => {}
            }
            return ControlFlow::Continue(());
        }
        let Some(&innermost) = open.last() else {
            return ControlFlow::Break(start);
        };
        if start < read_by_indexes {
            return ControlFlow::Continue(());
        }
        match token {
            Token::Open(kind) if kind == innermost => nest += 1,
            Token::Close(kind) if kind == innermost => match nest.checked_sub(1) {
                Some(outer) => nest = outer,
                None => {
                    open.pop();
                    if open.is_empty() {
                        return ControlFlow::Break(end);
                    }
                    if kind != Opener::Sequence {
                        read_by_indexes = indexes_read_while_recovering(bytes, end, expression_end);
                    }
                }
            },
            _ => {}
        }
        ControlFlow::Continue(())
    });
    stop.unwrap_or(bytes.len())
}

/// Where the indexes that follow a term at `at` end when HCL's parser reads them while
/// recovering; `at` when none does. A construct that recovered to its closer is a term, and
/// `parseExpressionTraversals` goes on after it with diagnostics off (`p.recovery`): an index
/// reads its key, then the next token as its `]`, whatever it is. A key that is no expression
/// is a placeholder that reads nothing (`[}`), a splat's `*` is one token. So the `}` of
/// `${[*][}` ends the index, not the template sequence, which then recovers on to its next
/// end. `expression_end` gives the end of a whole expression at a position (`None` if it
/// holds an error, whose recovery is not followed here: the indexes stop before it).
fn indexes_read_while_recovering(
    bytes: &[u8],
    at: usize,
    expression_end: &dyn Fn(usize) -> Option<usize>,
) -> usize {
    let mut end = at;
    loop {
        let mut i = skip_blanks_and_comments(bytes, end);
        if bytes.get(i) != Some(&b'[') {
            return end;
        }
        i = skip_blanks_and_comments(bytes, i + 1);
        let key_end = match bytes.get(i) {
            Some(b'*') => i + 1,
            Some(&b) if starts_expression(bytes, i, b) => match expression_end(i) {
                Some(key_end) => key_end,
                None => return end,
            },
            _ => i,
        };
        i = skip_blanks_and_comments(bytes, key_end);
        // The token read as the `]`. One that opens something would be read as an opener by
        // the scanner and as a closer by the parser: not followed.
        end = match bytes.get(i) {
            Some(b'~') if bytes.get(i + 1) == Some(&b'}') => i + 2,
            Some(b'(' | b'[' | b'{' | b'"' | b'<' | b'~' | b'$' | b'%') | None => return end,
            Some(_) => i + character_len(bytes, i).unwrap_or(1),
        };
    }
}

/// Whether the byte `b` at `at` starts an expression (`parseExpressionTerm`): a literal, a
/// name, a string or heredoc, brackets, a sign or a negation.
fn starts_expression(bytes: &[u8], at: usize, b: u8) -> bool {
    matches!(b, b'(' | b'[' | b'{' | b'"' | b'-' | b'!' | b'0'..=b'9')
        || (b == b'<' && heredoc_start(bytes, at).is_some())
        || ident_end(bytes, at).is_some()
}

/// The first byte at or after `at` that is not a space, tab, newline or comment: inside
/// brackets and template sequences the parser reads no newline (`PushIncludeNewlines(false)`)
/// and never a comment.
fn skip_blanks_and_comments(bytes: &[u8], at: usize) -> usize {
    let mut i = at;
    loop {
        match bytes.get(i) {
            Some(b' ' | b'\t' | b'\n') => i += 1,
            Some(b'\r') if bytes.get(i + 1) == Some(&b'\n') => i += 2,
            Some(b'#') => i = line_comment_end(bytes, i),
            Some(b'/') if bytes.get(i + 1) == Some(&b'/') => i = line_comment_end(bytes, i),
            Some(b'/') if bytes.get(i + 1) == Some(&b'*') => {
                match memchr::memmem::find(&bytes[i + 2..], b"*/") {
                    Some(p) => i += 4 + p,
                    None => return i,
                }
            }
            _ => return i,
        }
    }
}

/// What the recoveries see of a token.
enum Token {
    Newline,
    /// A line comment; `ends_line` when it ends with a newline (the parser takes it for one).
    LineComment {
        ends_line: bool,
    },
    Open(Opener),
    Close(Opener),
}

/// Reads the tokens from `from` as `hclsyntax/scan_tokens.rl` scans them, handing each that a
/// recovery counts to `visit` with where it starts and ends, until `visit` breaks (its value
/// returned) or the text ends (`None`).
fn read_tokens(
    bytes: &[u8],
    from: usize,
    mut visit: impl FnMut(Token, usize, usize) -> ControlFlow<usize>,
) -> Option<usize> {
    let mut modes = vec![Mode::Code];
    // The scanner's brace count and the counts at which template sequences opened (the `}`
    // that ends one), as in `scanner::first_invalid_token`.
    let mut braces: i64 = 0;
    let mut sequence_braces: Vec<i64> = Vec::new();
    let mut i = from;
    // Hands a token to `visit`, returning what it breaks with.
    macro_rules! token {
        ($token:expr, $at:expr, $end:expr) => {
            if let ControlFlow::Break(stop) = visit($token, $at, $end) {
                return Some(stop);
            }
        };
    }
    while i < bytes.len() {
        let b = bytes[i];
        let next = bytes.get(i + 1).copied();
        match modes.last_mut() {
            None | Some(Mode::Code) => match b {
                b'\n' | b'\r' if b == b'\n' || next == Some(b'\n') => {
                    let end = i + if b == b'\n' { 1 } else { 2 };
                    token!(Token::Newline, i, end);
                    i = end;
                }
                b'#' | b'/' if b == b'#' || next == Some(b'/') => {
                    let end = line_comment_end(bytes, i);
                    let ends_line = bytes[end - 1] == b'\n';
                    token!(Token::LineComment { ends_line }, i, end);
                    i = end;
                }
                b'/' if next == Some(b'*') => {
                    i = memchr::memmem::find(&bytes[i + 2..], b"*/").map_or(i + 1, |p| i + 4 + p);
                }
                b'"' => {
                    modes.push(Mode::Quoted);
                    token!(Token::Open(Opener::Quote), i, i + 1);
                    i += 1;
                }
                b'<' if next == Some(b'<') => match heredoc_start(bytes, i) {
                    Some((marker, body)) => {
                        modes.push(Mode::Heredoc {
                            marker,
                            start_of_line: true,
                        });
                        token!(Token::Open(Opener::Heredoc), i, body);
                        i = body;
                    }
                    // No heredoc: a `<` of its own, and the next `<` may open one (`<<<EOT`),
                    // as in the scanner.
                    None => i += 1,
                },
                b'{' => {
                    braces += 1;
                    token!(Token::Open(Opener::Brace), i, i + 1);
                    i += 1;
                }
                b'}' | b'~' if b == b'}' || next == Some(b'}') => {
                    // A `}` at the count where a sequence opened ends it; a `~}` is taken for
                    // a sequence's end whatever the count (`closeTemplateSeqEatWhitespace`).
                    let closed = if sequence_braces.last() == Some(&braces) {
                        sequence_braces.pop();
                        modes.pop();
                        Opener::Sequence
                    } else if b == b'~' {
                        Opener::Sequence
                    } else {
                        Opener::Brace
                    };
                    braces -= 1;
                    let end = i + if b == b'~' { 2 } else { 1 };
                    token!(Token::Close(closed), i, end);
                    i = end;
                }
                b'[' | b'(' | b']' | b')' => {
                    let token = match b {
                        b'[' => Token::Open(Opener::Bracket),
                        b'(' => Token::Open(Opener::Paren),
                        b']' => Token::Close(Opener::Bracket),
                        _ => Token::Close(Opener::Paren),
                    };
                    token!(token, i, i + 1);
                    i += 1;
                }
                _ => {
                    // A name may run over bytes that are not UTF-8, newlines too (see
                    // `ident`); anything else is a token the recoveries only step over.
                    i = ident_end(bytes, i)
                        .or_else(|| character_len(bytes, i).map(|len| i + len))
                        .unwrap_or(i + 1);
                }
            },
            Some(Mode::Quoted) => match b {
                b'$' | b'%' if next == Some(b'{') => {
                    braces += 1;
                    sequence_braces.push(braces);
                    modes.push(Mode::Code);
                    let end = i + 2 + usize::from(bytes.get(i + 2) == Some(&b'~'));
                    token!(Token::Open(Opener::Sequence), i, end);
                    i = end;
                }
                b'$' | b'%' if next == Some(b) && bytes.get(i + 2) == Some(&b'{') => {
                    i += 3 + usize::from(bytes.get(i + 3) == Some(&b'~'));
                }
                b'"' => {
                    modes.pop();
                    token!(Token::Close(Opener::Quote), i, i + 1);
                    i += 1;
                }
                b'\\' => i += 1 + character_len(bytes, i + 1).unwrap_or(1),
                _ => i += 1,
            },
            Some(Mode::Heredoc {
                marker,
                start_of_line,
            }) => match b {
                b'$' | b'%' if next == Some(b'{') => {
                    *start_of_line = false;
                    braces += 1;
                    sequence_braces.push(braces);
                    modes.push(Mode::Code);
                    let end = i + 2 + usize::from(bytes.get(i + 2) == Some(&b'~'));
                    token!(Token::Open(Opener::Sequence), i, end);
                    i = end;
                }
                b'$' | b'%' => {
                    *start_of_line = false;
                    let escape = next == Some(b) && bytes.get(i + 2) == Some(&b'{');
                    i += if escape {
                        3 + usize::from(bytes.get(i + 3) == Some(&b'~'))
                    } else {
                        1
                    };
                }
                _ => {
                    let end = memchr::memchr3(b'$', b'%', b'\n', &bytes[i..])
                        .map_or(bytes.len(), |p| i + p);
                    if bytes.get(end) != Some(&b'\n') {
                        *start_of_line = false;
                        i = end;
                    } else if *start_of_line && is_marker(&bytes[i..end], &bytes[marker.clone()]) {
                        // The closing marker; its newline is code's again, read next.
                        let marker_end = if end > i && bytes[end - 1] == b'\r' {
                            end - 1
                        } else {
                            end
                        };
                        modes.pop();
                        token!(Token::Close(Opener::Heredoc), i, marker_end);
                        i = marker_end;
                    } else {
                        *start_of_line = true;
                        i = end + 1;
                    }
                }
            },
        }
    }
    None
}

/// Closes the innermost `opener` the recovery counts, and everything opened inside it; with
/// none open, everything (`recoverAfterBodyItem` pops until it finds it).
fn close(open: &mut Vec<Opener>, opener: Opener) {
    while let Some(top) = open.pop() {
        if top == opener {
            break;
        }
    }
}

/// Where the next token after `at` is a newline (a line comment that ends with one counts) or
/// a comma, as the parser sees tokens in a body.
pub(crate) fn newline_or_comma(bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = at;
    loop {
        match bytes.get(i)? {
            b' ' | b'\t' => i += 1,
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = i + 4 + memchr::memmem::find(&bytes[i + 2..], b"*/")?;
            }
            b'\n' | b',' => return Some(i),
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => return Some(i),
            b'#' => return (bytes[line_comment_end(bytes, i) - 1] == b'\n').then_some(i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                return (bytes[line_comment_end(bytes, i) - 1] == b'\n').then_some(i);
            }
            _ => return None,
        }
    }
}
