//! The tokens of HCL's JSON syntax, as hashicorp/hcl `json/scanner.go` marks them.
//!
//! HCL's scanner is lax on purpose: a keyword is any run of letters (and `_` after the first),
//! a number any run of `-+.eE` and digits, a string everything up to its closing quote or the
//! first control character, stepped over by grapheme clusters; the parser judges each token's
//! bytes afterwards. It scans the file's bytes, which need not be UTF-8. The first byte
//! that starts no token ends the stream: an invalid token, then the end.
//!
//! Tokens are produced on demand (the parser never looks more than one token ahead), so the
//! scan costs one pass over the text and no memory beyond the token being looked at.

use crate::syntax::grapheme;

/// What kind of token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TokenKind {
    BraceOpen,
    BraceClose,
    BracketOpen,
    BracketClose,
    Comma,
    Colon,
    /// `=`: never valid, scanned so that the parser can say JSON uses a colon.
    Equals,
    Keyword,
    String,
    Number,
    /// A byte that starts no token; the stream ends after it.
    Invalid,
    End,
}

/// A token and where it lies: `start..end` in bytes.
#[derive(Debug, Clone, Copy)]
pub(super) struct Token {
    pub(super) kind: TokenKind,
    pub(super) start: usize,
    pub(super) end: usize,
}

/// The token stream of a text, with one token of lookahead.
pub(super) struct Tokens<'t> {
    bytes: &'t [u8],
    /// Where scanning resumes.
    at: usize,
    /// Set once an invalid byte was met: everything after it is the end.
    ended_at: Option<usize>,
    peeked: Option<Token>,
    /// Tokens scanned so far, for [`super::tree::parse_steps`].
    pub(super) scanned: u64,
}

impl<'t> Tokens<'t> {
    /// The tokens of a file's bytes (which need not be UTF-8: HCL scans bytes).
    pub(super) fn new(bytes: &'t [u8]) -> Self {
        Tokens {
            bytes,
            at: 0,
            ended_at: None,
            peeked: None,
            scanned: 0,
        }
    }

    pub(super) fn peek(&mut self) -> Token {
        match self.peeked {
            Some(token) => token,
            None => {
                let token = self.scan();
                self.peeked = Some(token);
                token
            }
        }
    }

    /// The next token, consumed; the end is never consumed (HCL's `peeker.Read`).
    pub(super) fn read(&mut self) -> Token {
        let token = self.peek();
        if token.kind != TokenKind::End {
            self.peeked = None;
        }
        token
    }

    fn scan(&mut self) -> Token {
        self.scanned += 1;
        if let Some(end) = self.ended_at {
            return token(TokenKind::End, end, end);
        }
        let bytes = self.bytes;
        // JSON's whitespace, as HCL's `skipWhitespace` skips it: nothing else (no form feed,
        // no Unicode space).
        while matches!(bytes.get(self.at), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.at += 1;
        }
        let start = self.at;
        let Some(&first) = bytes.get(start) else {
            self.ended_at = Some(start);
            return token(TokenKind::End, start, start);
        };
        let kind = match first {
            b'{' => TokenKind::BraceOpen,
            b'}' => TokenKind::BraceClose,
            b'[' => TokenKind::BracketOpen,
            b']' => TokenKind::BracketClose,
            b',' => TokenKind::Comma,
            b':' => TokenKind::Colon,
            b'=' => TokenKind::Equals,
            b'"' => TokenKind::String,
            // Not `e` or `E`: those start a keyword, for a clearer message.
            b'-' | b'+' | b'.' | b'0'..=b'9' => TokenKind::Number,
            b'a'..=b'z' | b'A'..=b'Z' => TokenKind::Keyword,
            _ => TokenKind::Invalid,
        };
        self.at = match kind {
            TokenKind::String => string_end(bytes, start),
            TokenKind::Number => run_end(bytes, start, |b| {
                matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
            }),
            TokenKind::Keyword => run_end(bytes, start, |b| b.is_ascii_alphabetic() || b == b'_'),
            _ => start + 1,
        };
        if kind == TokenKind::Invalid {
            self.ended_at = Some(self.at);
        }
        token(kind, start, self.at)
    }
}

fn token(kind: TokenKind, start: usize, end: usize) -> Token {
    Token { kind, start, end }
}

fn run_end(bytes: &[u8], start: usize, belongs: impl Fn(u8) -> bool) -> usize {
    start
        + bytes[start..]
            .iter()
            .position(|&b| !belongs(b))
            .unwrap_or(bytes.len() - start)
}

/// Where the string token starting at `start` (its opening quote) ends: after its closing
/// quote, or at the first control character or the end of the text when there is none.
///
/// HCL's `scanString` attends to escapes only to find the closing quote, and steps over the
/// rest a grapheme cluster at a time ([`grapheme::cluster_len`]). A cluster may take in a quote,
/// a backslash or a control character after its first character: after a "prepend" character
/// (U+0600 ARABIC NUMBER SIGN), or after bytes that are not UTF-8 which go-textseg's widened
/// classes take for a character (`0xEB 0x62 0x22` is a Hangul syllable to it). Those bytes are
/// then text of the string, as they are to Terraform.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    let mut escaping = false;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => {
                escaping = !escaping;
                i += 1;
            }
            b'"' => {
                i += 1;
                if !escaping {
                    break;
                }
                escaping = false;
            }
            0..=0x1f => break,
            0x20..=0x7f => {
                // A run of plain ASCII characters is a cluster each, but for the last, which a
                // non-ASCII character after it may join: the common case needs no look-up.
                let run_end = plain_ascii_end(bytes, i + 1);
                i = match bytes.get(run_end) {
                    Some(next) if !next.is_ascii() => {
                        run_end - 1 + grapheme::cluster_len(bytes, run_end - 1)
                    }
                    _ => run_end,
                };
                escaping = false;
            }
            _ => {
                i += grapheme::cluster_len(bytes, i);
                escaping = false;
            }
        }
    }
    i
}

/// Where the run of ASCII characters from `i` (at most the end) that the string scan has
/// nothing to decide about (no quote, backslash or control character) ends.
fn plain_ascii_end(bytes: &[u8], i: usize) -> usize {
    let plain = |b: &u8| matches!(b, 0x20..=0x7f) && *b != b'"' && *b != b'\\';
    i + bytes[i..]
        .iter()
        .position(|b| !plain(b))
        .unwrap_or(bytes.len() - i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(TokenKind, &str)> {
        let mut tokens = Tokens::new(text.as_bytes());
        let mut out = Vec::new();
        loop {
            let token = tokens.read();
            out.push((token.kind, &text[token.start..token.end]));
            if token.kind == TokenKind::End {
                return out;
            }
        }
    }

    #[test]
    fn tokens_are_lax_runs() {
        use TokenKind::*;
        assert_eq!(
            kinds(" {\"a\\\"b\": -1.2e+3x, tru_e]\t=:"),
            [
                (BraceOpen, "{"),
                (String, "\"a\\\"b\""),
                (Colon, ":"),
                (Number, "-1.2e+3"),
                (Keyword, "x"),
                (Comma, ","),
                (Keyword, "tru_e"),
                (BracketClose, "]"),
                (Equals, "="),
                (Colon, ":"),
                (End, ""),
            ]
        );
    }

    #[test]
    fn strings_stop_at_control_characters_and_the_end() {
        use TokenKind::*;
        assert_eq!(
            kinds("\"ab\ncd\""),
            [(String, "\"ab"), (Keyword, "cd"), (String, "\""), (End, "")]
        );
        assert_eq!(kinds("\"a\\\\\""), [(String, "\"a\\\\\""), (End, "")]);
    }

    #[test]
    fn an_invalid_byte_ends_the_stream() {
        use TokenKind::*;
        assert_eq!(
            kinds("[\u{b}1]"),
            [(BracketOpen, "["), (Invalid, "\u{b}"), (End, "")]
        );
        let mut tokens = Tokens::new(b"; 1");
        tokens.read();
        assert_eq!(tokens.read().start, 1);
    }

    #[test]
    fn a_quote_after_a_prepend_character_is_text() {
        use TokenKind::*;
        assert_eq!(
            kinds("\"\u{600}\" 1"),
            [(String, "\"\u{600}\" 1"), (End, "")]
        );
    }
}
