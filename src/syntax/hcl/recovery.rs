//! Where HCL's parser stands after it gives up on a body item, read over the file's bytes.
//!
//! hashicorp/hcl `hclsyntax/parser.go` reports an error in the one argument of a single-line
//! block (`parseSingleAttrBody`) only after it has looked at what follows: the item's
//! `recoverAfterBodyItem` reads tokens up to the first newline outside any bracket, string,
//! heredoc or template sequence it opened, and then `finishParsingBodyBlock` refuses a comma
//! or a newline standing there ("Invalid single-argument block definition") before it appends
//! the item's own diagnostics. So the first error of such a file can be lines below the item.
//! This reads the tokens as `hclsyntax/scan_tokens.rl` scans them (see [`super::scanner`]),
//! tracking only what the recovery counts.

use std::ops::Range;

use super::ident::ident_end;
use super::scanner::{character_len, heredoc_start, is_marker, line_comment_end};

/// What the recovery counts as open: each opening token it reads, until its closer.
#[derive(Clone, Copy, PartialEq)]
enum Opener {
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
/// at the end. `first_read_before` is set when the parser had already read the token at
/// `from`: an opener there is not counted.
pub(crate) fn after_body_item(bytes: &[u8], from: usize, first_read_before: bool) -> usize {
    let mut open: Vec<Opener> = Vec::new();
    let mut modes = vec![Mode::Code];
    // The scanner's brace count and the counts at which template sequences opened (the `}`
    // that ends one), as in `scanner::first_invalid_token`.
    let mut braces: i64 = 0;
    let mut sequence_braces: Vec<i64> = Vec::new();
    let mut uncounted = first_read_before;
    let mut i = from;
    while i < bytes.len() {
        let count = !std::mem::replace(&mut uncounted, false);
        let push = |open: &mut Vec<Opener>, opener| {
            if count {
                open.push(opener);
            }
        };
        let b = bytes[i];
        let next = bytes.get(i + 1).copied();
        match modes.last_mut() {
            None | Some(Mode::Code) => match b {
                b'\n' | b'\r' if b == b'\n' || next == Some(b'\n') => {
                    i += if b == b'\n' { 1 } else { 2 };
                    if open.is_empty() {
                        return i;
                    }
                }
                b'#' | b'/' if b == b'#' || next == Some(b'/') => {
                    match line_comment(bytes, i, &open) {
                        Ok(stop) => return stop,
                        Err(end) => i = end,
                    }
                }
                b'/' if next == Some(b'*') => {
                    i = memchr::memmem::find(&bytes[i + 2..], b"*/").map_or(i + 1, |p| i + 4 + p);
                }
                b'"' => {
                    push(&mut open, Opener::Quote);
                    modes.push(Mode::Quoted);
                    i += 1;
                }
                b'<' if next == Some(b'<') => match heredoc_start(bytes, i) {
                    Some((marker, body)) => {
                        push(&mut open, Opener::Heredoc);
                        modes.push(Mode::Heredoc {
                            marker,
                            start_of_line: true,
                        });
                        i = body;
                    }
                    None => i += 2,
                },
                b'{' => {
                    push(&mut open, Opener::Brace);
                    braces += 1;
                    i += 1;
                }
                b'}' | b'~' if b == b'}' || next == Some(b'}') => {
                    // A `}` at the count where a sequence opened ends it; a `~}` is taken for
                    // a sequence's end whatever the count (`closeTemplateSeqEatWhitespace`).
                    if sequence_braces.last() == Some(&braces) {
                        sequence_braces.pop();
                        modes.pop();
                        close(&mut open, Opener::Sequence);
                    } else if b == b'~' {
                        close(&mut open, Opener::Sequence);
                    } else {
                        close(&mut open, Opener::Brace);
                    }
                    braces -= 1;
                    i += if b == b'~' { 2 } else { 1 };
                }
                b'[' => {
                    push(&mut open, Opener::Bracket);
                    i += 1;
                }
                b'(' => {
                    push(&mut open, Opener::Paren);
                    i += 1;
                }
                b']' => {
                    close(&mut open, Opener::Bracket);
                    i += 1;
                }
                b')' => {
                    close(&mut open, Opener::Paren);
                    i += 1;
                }
                _ => {
                    // A name may run over bytes that are not UTF-8, newlines too (see
                    // `ident`); anything else is a token the recovery only steps over.
                    i = ident_end(bytes, i)
                        .or_else(|| character_len(bytes, i).map(|len| i + len))
                        .unwrap_or(i + 1);
                }
            },
            Some(Mode::Quoted) => match b {
                b'$' | b'%' if next == Some(b'{') => {
                    push(&mut open, Opener::Sequence);
                    braces += 1;
                    sequence_braces.push(braces);
                    modes.push(Mode::Code);
                    i += 2 + usize::from(bytes.get(i + 2) == Some(&b'~'));
                }
                b'$' | b'%' if next == Some(b) && bytes.get(i + 2) == Some(&b'{') => {
                    i += 3 + usize::from(bytes.get(i + 3) == Some(&b'~'));
                }
                b'"' => {
                    modes.pop();
                    close(&mut open, Opener::Quote);
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
                    push(&mut open, Opener::Sequence);
                    braces += 1;
                    sequence_braces.push(braces);
                    modes.push(Mode::Code);
                    i += 2 + usize::from(bytes.get(i + 2) == Some(&b'~'));
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
                        close(&mut open, Opener::Heredoc);
                        i = marker_end;
                    } else {
                        *start_of_line = true;
                        i = end + 1;
                    }
                }
            },
        }
    }
    bytes.len()
}

/// Reads the line comment at `start`: `Ok` with where the recovery stops if it ends with a
/// newline and nothing is open (the parser takes such a comment for a newline), else `Err`
/// with where it ends.
fn line_comment(bytes: &[u8], start: usize, open: &[Opener]) -> Result<usize, usize> {
    let end = line_comment_end(bytes, start);
    if open.is_empty() && bytes[end - 1] == b'\n' {
        Ok(end)
    } else {
        Err(end)
    }
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
