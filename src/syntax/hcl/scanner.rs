//! The tokens HCL's scanner refuses, wherever they are in a file.
//!
//! hashicorp/hcl scans a whole file into tokens before it parses any of it
//! (`hclsyntax/public.go`, `ParseConfig` calls `LexConfig`), and reports the tokens the
//! language has no use for (`hclsyntax/token.go`, `checkInvalidTokens`) before any error of
//! the parser: a stray `;` on the last line comes before a missing bracket on the first. Our
//! parser reads the bytes without a token stream and stops at its first error, so when a file
//! does not parse (or holds bytes that are not UTF-8) this scan finds the first such token,
//! reading the file as `hclsyntax/scan_tokens.rl` does: comments, quoted strings with their
//! escapes and template sequences, heredocs ending at a line that holds only their marker,
//! braces counted to know where a sequence ends.
//!
//! It works on bytes, not text: the scanner's idea of a character is looser than UTF-8's (an
//! overlong or surrogate encoding is a character to it, so a string or a comment may hold
//! one), and a byte that starts no character is a token of its own, `Invalid character
//! encoding`, wherever comments do not hide it.

use std::ops::Range;

use super::ident::ident_end;

/// Summaries of the tokens the scanner refuses (`checkInvalidTokens`).
const INVALID_CHARACTER: &str = "Invalid character";
const BAD_ENCODING: &str = "Invalid character encoding";
const UNSUPPORTED_OPERATOR: &str = "Unsupported operator";
const MULTI_LINE_STRING: &str = "Invalid multi-line string";

/// Every summary of a token the scanner refuses.
pub(crate) const SUMMARIES: [&str; 4] = [
    INVALID_CHARACTER,
    BAD_ENCODING,
    UNSUPPORTED_OPERATOR,
    MULTI_LINE_STRING,
];

/// A token the scanner refuses: its summary and where it starts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct InvalidToken {
    pub(crate) summary: &'static str,
    pub(crate) message: &'static str,
    pub(crate) at: usize,
}

/// What the scanner is reading (its Ragel machines).
enum Mode {
    /// Code: `main`.
    Code,
    /// Between double quotes: `stringTemplate`.
    Quoted,
    /// A heredoc's lines: `heredocTemplate`, with its marker and whether the scan stands at
    /// the start of a line (only a whole line may close it).
    Heredoc {
        marker: Range<usize>,
        start_of_line: bool,
    },
}

/// The first token of `bytes` that HCL's scanner refuses, if any.
pub(crate) fn first_invalid_token(bytes: &[u8]) -> Option<InvalidToken> {
    let invalid = |summary, message, at| {
        Some(InvalidToken {
            summary,
            message,
            at,
        })
    };
    let mut i = if bytes.starts_with("\u{feff}".as_bytes()) {
        3
    } else {
        0
    };
    let mut modes = vec![Mode::Code];
    // Open braces, and the counts at which each template sequence opened (where its `}` ends
    // it); the scanner's `braces` and `retBraces`, which may go below zero on a stray `}`.
    let mut braces: i64 = 0;
    let mut sequence_braces: Vec<i64> = Vec::new();
    while i < bytes.len() {
        let b = bytes[i];
        let next = bytes.get(i + 1).copied();
        match modes.last_mut() {
            None | Some(Mode::Code) => match b {
                b' ' | b'\t' | b'\n' => i += 1,
                b'\r' if next == Some(b'\n') => i += 2,
                b'#' => i = line_comment_end(bytes, i),
                b'/' if next == Some(b'/') => i = line_comment_end(bytes, i),
                b'/' if next == Some(b'*') => {
                    i = memchr::memmem::find(&bytes[i + 2..], b"*/").map_or(i + 1, |p| i + 4 + p);
                }
                b'&' if next == Some(b'&') => i += 2,
                b'|' if next == Some(b'|') => i += 2,
                b'~' if next == Some(b'}') => {
                    // `~}` ends a template sequence where one is open at this count of braces,
                    // else it is taken as a brace (and the parser refuses it).
                    if sequence_braces.last() == Some(&braces) {
                        sequence_braces.pop();
                        modes.pop();
                    }
                    braces -= 1;
                    i += 2;
                }
                b'&' | b'|' | b'^' | b'~' => {
                    return invalid(
                        UNSUPPORTED_OPERATOR,
                        "bitwise operators are not supported",
                        i,
                    );
                }
                b';' => {
                    return invalid(
                        INVALID_CHARACTER,
                        "a semicolon is not valid: newlines separate arguments and blocks",
                        i,
                    );
                }
                b'\'' => {
                    return invalid(
                        INVALID_CHARACTER,
                        "single quotes are not valid: strings are in double quotes (`\"`)",
                        i,
                    );
                }
                b'`' => {
                    return invalid(
                        INVALID_CHARACTER,
                        "a backtick is not valid: a multi-line string is a heredoc (`<<EOT`)",
                        i,
                    );
                }
                b'<' if next == Some(b'<') => match heredoc_start(bytes, i) {
                    Some((marker, body)) => {
                        modes.push(Mode::Heredoc {
                            marker,
                            start_of_line: true,
                        });
                        i = body;
                    }
                    // No heredoc: a `<` of its own, and the next `<` may open one.
                    None => i += 1,
                },
                b'[' | b']' | b'(' | b')' | b'.' | b',' | b'*' | b'/' | b'%' | b'+' | b'-'
                | b'=' | b'<' | b'>' | b'!' | b'?' | b':' => i += 1,
                b'0'..=b'9' => i = number_token_end(bytes, i),
                b'{' => {
                    braces += 1;
                    i += 1;
                }
                b'}' => {
                    if sequence_braces.last() == Some(&braces) {
                        sequence_braces.pop();
                        modes.pop();
                    }
                    braces -= 1;
                    i += 1;
                }
                b'"' => {
                    modes.push(Mode::Quoted);
                    i += 1;
                }
                _ => match ident_end(bytes, i) {
                    Some(end) => i = end,
                    None => {
                        return match character_len(bytes, i) {
                            Some(_) => invalid(
                                INVALID_CHARACTER,
                                "this character is not used within the language",
                                i,
                            ),
                            None => invalid(BAD_ENCODING, "this byte is not UTF-8", i),
                        };
                    }
                },
            },
            Some(Mode::Quoted) => match b {
                b'$' | b'%' if next == Some(b'{') => {
                    braces += 1;
                    sequence_braces.push(braces);
                    modes.push(Mode::Code);
                    i += 2 + usize::from(bytes.get(i + 2) == Some(&b'~'));
                }
                b'"' => {
                    modes.pop();
                    i += 1;
                }
                b'$' | b'%' => match next {
                    // An escape, `$${` or `%%{`, with the strip marker it may have.
                    Some(n) if n == b && bytes.get(i + 2) == Some(&b'{') => {
                        i += 3 + usize::from(bytes.get(i + 3) == Some(&b'~'));
                    }
                    Some(_) => i += 1,
                    // The scanner needs the next character to tell a sequence from text.
                    None => {
                        return invalid(
                            INVALID_CHARACTER,
                            "this character is not used within the language",
                            i,
                        );
                    }
                },
                b'\n' | b'\r' => {
                    return invalid(
                        MULTI_LINE_STRING,
                        "quoted strings may not be split over multiple lines",
                        i,
                    );
                }
                b'\\' => match next {
                    Some(b'\n' | b'\r') | None => {
                        return invalid(
                            INVALID_CHARACTER,
                            "this character is not used within the language",
                            i,
                        );
                    }
                    Some(_) => match character_len(bytes, i + 1) {
                        Some(len) => i += 1 + len,
                        None => {
                            return invalid(
                                INVALID_CHARACTER,
                                "this character is not used within the language",
                                i,
                            );
                        }
                    },
                },
                _ => match character_len(bytes, i) {
                    Some(len) => i += len,
                    None => return invalid(BAD_ENCODING, "this byte is not UTF-8", i),
                },
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
                    i += 2 + usize::from(bytes.get(i + 2) == Some(&b'~'));
                }
                // As in a quoted string, the scanner needs the next character to tell a
                // sequence from text: at the end of the file there is none.
                b'$' | b'%' if next.is_none() => {
                    return invalid(
                        INVALID_CHARACTER,
                        "this character is not used within the language",
                        i,
                    );
                }
                b'$' | b'%' => {
                    *start_of_line = false;
                    let escape = next == Some(b) && bytes.get(i + 2) == Some(&b'{');
                    // `$` or `%` then any one byte but `{` is a text token of its own
                    // (`TemplateNotInterp`, `TemplateNotControl`), which gives the byte back
                    // unless a newline or a carriage return follows it (the start of the line's
                    // end that `HeredocStringLiteral EndOfLine` reads on to): then the byte is
                    // text, even a byte that is no UTF-8, and a carriage return alone after it
                    // is what the scanner refuses.
                    let byte_is_text = matches!(bytes.get(i + 2..), Some([b'\n' | b'\r', ..]));
                    i += if escape {
                        3 + usize::from(bytes.get(i + 3) == Some(&b'~'))
                    } else if byte_is_text {
                        2
                    } else {
                        1
                    };
                }
                _ => {
                    // A run of text up to a sequence, a line's end or a byte that is no
                    // character.
                    let start = i;
                    let mut end = i;
                    while let Some(&c) = bytes.get(end) {
                        if matches!(c, b'$' | b'%' | b'\n' | b'\r') {
                            break;
                        }
                        match character_len(bytes, end) {
                            Some(len) => end += len,
                            None => break,
                        }
                    }
                    let eol = match bytes.get(end) {
                        Some(b'\n') => Some(1),
                        Some(b'\r') if bytes.get(end + 1) == Some(&b'\n') => Some(2),
                        _ => None,
                    };
                    match eol {
                        Some(len) => {
                            let line = &bytes[start..end];
                            if *start_of_line && is_marker(line, &bytes[marker.clone()]) {
                                // The closing marker: its newline is code's again.
                                modes.pop();
                                i = end;
                            } else {
                                *start_of_line = true;
                                i = end + len;
                            }
                        }
                        None => {
                            if end > start {
                                *start_of_line = false;
                                i = end;
                                continue;
                            }
                            return match bytes.get(end) {
                                // A carriage return alone matches nothing: the scan stops and
                                // the rest of the file is one invalid token.
                                Some(b'\r') => invalid(
                                    INVALID_CHARACTER,
                                    "a carriage return must be followed by a newline",
                                    end,
                                ),
                                Some(_) => invalid(BAD_ENCODING, "this byte is not UTF-8", end),
                                None => None,
                            };
                        }
                    }
                }
            },
        }
    }
    None
}

/// Where the line comment at `start` ends: after its newline, or at the end of the text.
pub(crate) fn line_comment_end(bytes: &[u8], start: usize) -> usize {
    memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |p| start + p + 1)
}

/// The length of the character at `at` as the scanner reads one (`AnyUTF8`: a lead byte and
/// its continuation bytes, overlong and surrogate encodings included); `None` for a byte that
/// starts none (`BrokenUTF8`).
pub(crate) fn character_len(bytes: &[u8], at: usize) -> Option<usize> {
    let len = match *bytes.get(at)? {
        0x00..=0x7f => return Some(1),
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => return None,
    };
    let continuation = bytes.get(at + 1..at + len)?;
    continuation
        .iter()
        .all(|&b| (0x80..=0xbf).contains(&b))
        .then_some(len)
}

/// Where the number token that starts at `start` (a digit) ends, as HCL's scanner reads one
/// (hashicorp/hcl `hclsyntax/scan_tokens.rl`, NumberLit): a digit, then digits, dots and
/// exponents (`e`, a sign maybe, a digit), the longest run that does not end with a dot. So
/// `0.1` after a traversal's dot is one token, as is `1e3`.
pub(crate) fn number_token_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    let mut end = i;
    loop {
        match bytes.get(i) {
            Some(b'0'..=b'9') => {
                i += 1;
                end = i;
            }
            Some(b'.') => i += 1,
            Some(b'e' | b'E') => {
                let sign = usize::from(matches!(bytes.get(i + 1), Some(b'+' | b'-')));
                if !bytes.get(i + 1 + sign).is_some_and(u8::is_ascii_digit) {
                    return end;
                }
                i += 2 + sign;
                end = i;
            }
            _ => return end,
        }
    }
}

/// Where a heredoc that `<<` opens at `at` has its marker, and where its lines start: `<<` or
/// `<<-`, an identifier, a newline; `None` if that is not what follows.
pub(crate) fn heredoc_start(bytes: &[u8], at: usize) -> Option<(Range<usize>, usize)> {
    let mut i = at + 2;
    if bytes.get(i) == Some(&b'-') {
        i += 1;
    }
    let end = ident_end(bytes, i)?;
    let body = if bytes.get(end) == Some(&b'\n') {
        end + 1
    } else if bytes.get(end..end + 2) == Some(b"\r\n") {
        end + 2
    } else {
        return None;
    };
    Some((i..end, body))
}

/// Whether a heredoc's line is its closing marker: the marker alone, blanks aside (Go's
/// `bytes.TrimSpace`, Unicode's white space).
pub(crate) fn is_marker(line: &[u8], marker: &[u8]) -> bool {
    std::str::from_utf8(line).is_ok_and(|line| line.trim().as_bytes() == marker)
}

#[cfg(test)]
mod tests {
    use super::first_invalid_token;

    fn first(text: &[u8]) -> Option<(&'static str, usize)> {
        first_invalid_token(text).map(|token| (token.summary, token.at))
    }

    #[test]
    fn finds_what_the_scanner_refuses_anywhere() {
        assert_eq!(first(b"a = [\nb = 1;\n"), Some(("Invalid character", 11)));
        assert_eq!(first(b"a = 1 & 2\n"), Some(("Unsupported operator", 6)));
        assert_eq!(first(b"a = ~1\n"), Some(("Unsupported operator", 4)));
        assert_eq!(
            first(b"a = \"x\ny\"\n"),
            Some(("Invalid multi-line string", 6))
        );
        assert_eq!(first(b"a = \"x\\\n"), Some(("Invalid character", 6)));
        assert_eq!(first(b"a = \"x$"), Some(("Invalid character", 6)));
        assert_eq!(first(b"a = <<EOT"), None);
        assert_eq!(first(b"a = <<"), None);
        assert_eq!(
            first(b"a = 1 \xff\n"),
            Some(("Invalid character encoding", 6))
        );
        assert_eq!(first(b"a = 1 \xc0\xaf\n"), Some(("Invalid character", 6)));
        assert_eq!(
            first(b"a = <<EOT\n\xff\nEOT\n"),
            Some(("Invalid character encoding", 10))
        );
    }

    #[test]
    fn comments_strings_and_heredocs_hide_what_they_hold() {
        assert_eq!(first(b"a = 1 # ; \xff\n/* \xed\xa0\x80 ' */\n// `\n"), None);
        assert_eq!(first(b"a = \"; ' & \xc0\xaf $${x} ${b && c}\"\n"), None);
        assert_eq!(
            first(b"a = <<EOT\n; ${x} ' \xed\xa0\x80\n  EOT\nb = 1\n"),
            None
        );
        assert_eq!(first(b"a = \"${ {b = \"}\"} }\" \n"), None);
        // The heredoc ends at its marker: what follows is code again.
        assert_eq!(
            first(b"a = <<EOT\nEOT\nb = ;\n"),
            Some(("Invalid character", 18))
        );
        // A marker inside a sequence is code, not the end.
        assert_eq!(first(b"a = <<EOT\n${\nEOT\n}\n;\nEOT\n"), None);
    }
}
