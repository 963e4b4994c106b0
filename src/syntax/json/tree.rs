//! JSON values as HCL's JSON parser reads them (hashicorp/hcl `json/parser.go`), from the tokens
//! of [`super::scan`], with the first error HCL reports for a text that is not valid.
//!
//! HCL keeps parsing after an error, but every error it reports later depends on how it
//! recovered; Terraform shows them all, the first one first. This parser stops at the first: it
//! is the one error both agree on. Where HCL locates an error after skipping ahead (a missing
//! comma is reported at the token after the end of the enclosing object or array), the skip is
//! reproduced, since it decides the place.
//!
//! Linear by construction: each token is scanned once and looked at a bounded number of times;
//! nothing is parsed twice. Nesting deeper than [`MAX_DEPTH`] is refused as beyond this
//! parser's limit (Terraform's Go parser nests as deep as memory allows), so the recursion
//! never exhausts the stack.

use std::borrow::Cow;

use super::scan::{Token, TokenKind, Tokens};
use crate::syntax::hcl::{MAX_DEPTH, PARSER_LIMIT_SUMMARY};

/// Where a value lies: bytes `start..end` of the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TextRange {
    pub(super) start: usize,
    pub(super) end: usize,
}

fn range(start: usize, end: usize) -> TextRange {
    TextRange { start, end }
}

/// A JSON value and the bytes it spans (a string's quotes included, an object's braces too).
#[derive(Debug)]
pub(super) enum Value<'t> {
    Null(TextRange),
    Bool(bool, TextRange),
    /// The number as written.
    Number(&'t str, TextRange),
    String(StringValue<'t>),
    Array(Array<'t>),
    Object(Object<'t>),
}

#[derive(Debug)]
pub(super) struct StringValue<'t> {
    /// The string with its escapes decoded.
    pub(super) value: Cow<'t, str>,
    pub(super) range: TextRange,
}

#[derive(Debug)]
pub(super) struct Array<'t> {
    pub(super) elements: Vec<Value<'t>>,
    pub(super) range: TextRange,
}

#[derive(Debug)]
pub(super) struct Object<'t> {
    pub(super) properties: Vec<Property<'t>>,
    pub(super) range: TextRange,
}

/// One `"name": value` of an object, in the order written (repeated names included).
#[derive(Debug)]
pub(super) struct Property<'t> {
    pub(super) name: StringValue<'t>,
    pub(super) value: Value<'t>,
}

impl Value<'_> {
    pub(super) fn range(&self) -> TextRange {
        match self {
            Value::Null(range) | Value::Bool(_, range) | Value::Number(_, range) => *range,
            Value::String(s) => s.range,
            Value::Array(a) => a.range,
            Value::Object(o) => o.range,
        }
    }
}

/// The first error of a text: HCL's summary and detail, at byte `at`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ParseError {
    pub(super) summary: &'static str,
    pub(super) detail: &'static str,
    pub(super) at: usize,
    /// Beyond this parser's nesting limit rather than invalid.
    pub(super) beyond_limit: bool,
}

type Result<T> = std::result::Result<T, ParseError>;

fn error<T>(summary: &'static str, detail: &'static str, at: usize) -> Result<T> {
    Err(ParseError {
        summary,
        detail,
        at,
        beyond_limit: false,
    })
}

const NOT_A_VALUE: &str =
    "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.";

/// Parses the whole text as one JSON value (HCL's `parseFileContent`). `bytes` are the file's
/// bytes, which the tokens are scanned from: `text` itself, or, for a file that is not UTF-8,
/// what `text` stands in for byte for byte (HCL's scanner steps over them as bytes).
pub(super) fn parse<'t>(text: &'t str, bytes: &'t [u8]) -> Result<Value<'t>> {
    let mut parser = Parser::new(text, bytes);
    parser.file()
}

/// The work of parsing a whole text, in steps: tokens scanned plus bytes of strings and
/// numbers judged. The `linear_work` fuzz target checks that it grows linearly.
pub(crate) fn parse_steps(text: &str) -> u64 {
    let mut parser = Parser::new(text, text.as_bytes());
    // Only the work counts, not whether the text is valid.
    let _ = parser.file();
    parser.tokens.scanned + parser.judged_bytes
}

struct Parser<'t> {
    text: &'t str,
    tokens: Tokens<'t>,
    depth: usize,
    /// Bytes of string and number tokens judged, for [`parse_steps`].
    judged_bytes: u64,
}

impl<'t> Parser<'t> {
    fn new(text: &'t str, bytes: &'t [u8]) -> Self {
        debug_assert_eq!(text.len(), bytes.len());
        Parser {
            text,
            tokens: Tokens::new(bytes),
            depth: 0,
            judged_bytes: 0,
        }
    }

    fn file(&mut self) -> Result<Value<'t>> {
        let value = self.value()?;
        let next = self.tokens.peek();
        if next.kind != TokenKind::End {
            return error(
                "Extraneous data after value",
                "Extra characters appear after the JSON value.",
                next.start,
            );
        }
        Ok(value)
    }

    fn value(&mut self) -> Result<Value<'t>> {
        let token = self.tokens.peek();
        match token.kind {
            TokenKind::BraceOpen => self.nested(Self::object),
            TokenKind::BracketOpen => self.nested(Self::array),
            TokenKind::Number => {
                self.tokens.read();
                self.number(token)
            }
            TokenKind::String => {
                self.tokens.read();
                self.string(token).map(Value::String)
            }
            TokenKind::Keyword => {
                self.tokens.read();
                self.keyword(token)
            }
            TokenKind::BraceClose => error("Missing JSON value", NOT_A_VALUE, token.start),
            TokenKind::BracketClose => {
                error("Missing array element value", NOT_A_VALUE, token.start)
            }
            TokenKind::End => error(
                "Missing value",
                "The JSON data ends prematurely.",
                token.start,
            ),
            TokenKind::Comma | TokenKind::Colon | TokenKind::Equals | TokenKind::Invalid => {
                error("Invalid start of value", NOT_A_VALUE, token.start)
            }
        }
    }

    /// An object or array one level deeper; refused beyond [`MAX_DEPTH`].
    fn nested(&mut self, parse: fn(&mut Self) -> Result<Value<'t>>) -> Result<Value<'t>> {
        if self.depth == MAX_DEPTH {
            return Err(ParseError {
                summary: PARSER_LIMIT_SUMMARY,
                detail: "arrays and objects nest more than 2,000 levels deep here, beyond what \
                         tflint-merge's parser checks",
                at: self.tokens.peek().start,
                beyond_limit: true,
            });
        }
        self.depth += 1;
        let value = parse(self);
        self.depth -= 1;
        value
    }

    fn object(&mut self) -> Result<Value<'t>> {
        let open = self.tokens.read();
        let mut properties = Vec::new();
        loop {
            if self.tokens.peek().kind == TokenKind::BraceClose {
                break;
            }
            let name = match self.value()? {
                Value::String(name) => name,
                other => {
                    return error(
                        "Invalid object property name",
                        "A JSON object property name must be a string",
                        other.range().start,
                    );
                }
            };
            let colon = self.tokens.read();
            match colon.kind {
                TokenKind::Colon => {}
                TokenKind::BraceClose | TokenKind::Comma => {
                    return error(
                        "Missing object value",
                        "A JSON object attribute must have a value, introduced by a colon.",
                        colon.start,
                    );
                }
                TokenKind::Equals => {
                    return error(
                        "Missing property value colon",
                        "JSON uses a colon as its name/value delimiter, not an equals sign.",
                        colon.start,
                    );
                }
                _ => {
                    return error(
                        "Missing property value colon",
                        "A colon must appear between an object property's name and its value.",
                        colon.start,
                    );
                }
            }
            let value = self.value()?;
            properties.push(Property { name, value });
            let next = self.tokens.peek();
            match next.kind {
                TokenKind::Comma => {
                    self.tokens.read();
                    if self.tokens.peek().kind == TokenKind::BraceClose {
                        return error(
                            "Trailing comma in object",
                            "JSON does not permit a trailing comma after the final property in \
                             an object.",
                            next.start,
                        );
                    }
                }
                TokenKind::End => {
                    return error(
                        "Unclosed object",
                        "No closing brace was found for this JSON object.",
                        open.start,
                    );
                }
                // Terraform reports this at the token after the bracket.
                TokenKind::BracketClose => {
                    self.tokens.read();
                    return error(
                        "Mismatched braces",
                        "A JSON object must be closed with a brace, not a bracket.",
                        self.tokens.peek().start,
                    );
                }
                TokenKind::BraceClose => break,
                _ => {
                    let at = self.skip_past_close(TokenKind::BraceOpen, TokenKind::BraceClose);
                    return error(
                        "Missing attribute seperator comma",
                        "A comma must appear between each property definition in an object.",
                        at,
                    );
                }
            }
        }
        let close = self.tokens.read();
        Ok(Value::Object(Object {
            properties,
            range: range(open.start, close.end),
        }))
    }

    fn array(&mut self) -> Result<Value<'t>> {
        let open = self.tokens.read();
        let mut elements = Vec::new();
        loop {
            if self.tokens.peek().kind == TokenKind::BracketClose {
                break;
            }
            elements.push(self.value()?);
            let next = self.tokens.peek();
            match next.kind {
                TokenKind::Comma => {
                    self.tokens.read();
                    if self.tokens.peek().kind == TokenKind::BracketClose {
                        return error(
                            "Trailing comma in array",
                            "JSON does not permit a trailing comma after the final value in an \
                             array.",
                            next.start,
                        );
                    }
                }
                TokenKind::Colon => {
                    let at = self.skip_past_close(TokenKind::BracketOpen, TokenKind::BracketClose);
                    return error(
                        "Invalid array value",
                        "A colon is not used to introduce values in a JSON array.",
                        at,
                    );
                }
                TokenKind::End => {
                    return error(
                        "Unclosed object",
                        "No closing bracket was found for this JSON array.",
                        open.start,
                    );
                }
                // Terraform reports this at the token after the end of the array.
                TokenKind::BraceClose => {
                    let at = self.skip_past_close(TokenKind::BracketOpen, TokenKind::BracketClose);
                    return error(
                        "Mismatched brackets",
                        "A JSON array must be closed with a bracket, not a brace.",
                        at,
                    );
                }
                TokenKind::BracketClose => break,
                _ => {
                    let at = self.skip_past_close(TokenKind::BracketOpen, TokenKind::BracketClose);
                    return error(
                        "Missing attribute seperator comma",
                        "A comma must appear between each value in an array.",
                        at,
                    );
                }
            }
        }
        let close = self.tokens.read();
        Ok(Value::Array(Array {
            elements,
            range: range(open.start, close.end),
        }))
    }

    /// HCL's recovery after a misplaced token inside an object or array: tokens are skipped,
    /// the misplaced one first, up to and including the `close` that ends the construct
    /// (counting only `open` and `close`), or to the end. It reports the error at the token
    /// after that, so this returns where that token starts.
    fn skip_past_close(&mut self, open: TokenKind, close: TokenKind) -> usize {
        let mut depth = 1usize;
        let mut token = self.tokens.read();
        loop {
            if token.kind == open {
                depth += 1;
            } else if token.kind == close {
                depth -= 1;
                if depth <= 1 {
                    break;
                }
            } else if token.kind == TokenKind::End {
                break;
            }
            token = self.tokens.read();
        }
        self.tokens.peek().start
    }

    /// A number token: JSON's grammar exactly (HCL validates it with Go's `encoding/json`),
    /// with an exponent in the range Go's `big.Float` parses (HCL converts with
    /// `cty.ParseNumberVal`).
    fn number(&mut self, token: Token) -> Result<Value<'t>> {
        self.judged_bytes += (token.end - token.start) as u64;
        let written = &self.text[token.start..token.end];
        if !valid_number(written) {
            return error(
                "Invalid JSON number",
                "There is a syntax error in the given JSON number.",
                token.start,
            );
        }
        Ok(Value::Number(written, range(token.start, token.end)))
    }

    fn keyword(&self, token: Token) -> Result<Value<'t>> {
        let at = range(token.start, token.end);
        match &self.text[token.start..token.end] {
            "true" => Ok(Value::Bool(true, at)),
            "false" => Ok(Value::Bool(false, at)),
            "null" => Ok(Value::Null(at)),
            "undefined" | "NaN" | "Infinity" => error(
                "Invalid JSON keyword",
                "This JavaScript identifier cannot be used in JSON.",
                token.start,
            ),
            _ => error(
                "Invalid JSON keyword",
                "This is not a valid JSON keyword: only true, false and null are.",
                token.start,
            ),
        }
    }

    /// A string token, validated and decoded as Go's `encoding/json` does for HCL: the error
    /// is placed where Go's decoder reports it, just after the offending byte (or at the end
    /// of the token when the closing quote is missing).
    fn string(&mut self, token: Token) -> Result<StringValue<'t>> {
        self.judged_bytes += (token.end - token.start) as u64;
        let raw = &self.text[token.start..token.end];
        let fail = |offset: usize| {
            error(
                "Invalid JSON string",
                "There is a syntax error in the given JSON string.",
                token.start + offset,
            )
        };
        let bytes = raw.as_bytes();
        let mut i = 1;
        let mut decoded: Option<String> = None;
        let mut plain_from = 1;
        let close = loop {
            let Some(&b) = bytes.get(i) else {
                return fail(bytes.len());
            };
            match b {
                b'"' => break i,
                b'\\' => {
                    let out = decoded.get_or_insert_with(String::new);
                    out.push_str(&raw[plain_from..i]);
                    let Some(&escape) = bytes.get(i + 1) else {
                        return fail(bytes.len());
                    };
                    i += 2;
                    match escape {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let unit = match hex4(bytes, i) {
                                Ok(unit) => unit,
                                Err(offset) => return fail(offset),
                            };
                            i += 4;
                            out.push(self.code_point(unit, bytes, &mut i));
                        }
                        _ => return fail(i),
                    }
                    plain_from = i;
                }
                0..=0x1f => return fail(i + 1),
                _ => i += 1,
            }
        };
        // Anything after the closing quote (a quote the scanner took as text, with what its
        // cluster took after it) other than JSON's whitespace is an error after the value: Go's
        // `encoding/json`, which HCL's `parseString` (json/parser.go) decodes the token with,
        // skips spaces, tabs, newlines and carriage returns after a top-level value.
        if let Some(extra) = bytes[close + 1..]
            .iter()
            .position(|&b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            return fail(close + 1 + extra + 1);
        }
        let value = match decoded {
            Some(mut out) => {
                out.push_str(&raw[plain_from..close]);
                Cow::Owned(out)
            }
            None => Cow::Borrowed(&raw[1..close]),
        };
        Ok(StringValue {
            value,
            range: range(token.start, token.end),
        })
    }

    /// The character of UTF-16 unit `unit` (just read from a `\u` escape): a high surrogate
    /// followed by a `\u` escape of a low one is a pair (`i` moves past it); any other
    /// surrogate is U+FFFD, as Go decodes it.
    fn code_point(&self, unit: u16, bytes: &[u8], i: &mut usize) -> char {
        if let Some(c) = char::from_u32(u32::from(unit)) {
            return c;
        }
        if (0xd800..0xdc00).contains(&unit)
            && bytes.get(*i..*i + 2) == Some(b"\\u")
            && let Ok(low) = hex4(bytes, *i + 2)
            && (0xdc00..0xe000).contains(&low)
        {
            *i += 6;
            let c = 0x10000 + ((u32::from(unit) - 0xd800) << 10) + (u32::from(low) - 0xdc00);
            return char::from_u32(c).unwrap_or('\u{fffd}');
        }
        '\u{fffd}'
    }
}

/// The four hex digits at `at`, or Go's error offset (just after the first byte that is not
/// one, or the end of the token).
fn hex4(bytes: &[u8], at: usize) -> std::result::Result<u16, usize> {
    let mut unit = 0u16;
    for k in 0..4 {
        let Some(&b) = bytes.get(at + k) else {
            return Err(bytes.len());
        };
        let digit = (b as char).to_digit(16).ok_or(at + k + 1)?;
        unit = unit * 16 + digit as u16;
    }
    Ok(unit)
}

/// Whether `written` is a JSON number (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`) that
/// Go's `big.ParseFloat` converts: its exponent must fit in 64 bits, and, for a number other
/// than zero, the binary exponent Go derives before scaling (the bits of the digits as an
/// integer, less the digits after the point, plus the exponent) must fit in 32 bits.
fn valid_number(written: &str) -> bool {
    let bytes = written.as_bytes();
    let mut i = usize::from(bytes.first() == Some(&b'-'));
    let digits = |i: usize| {
        bytes[i.min(bytes.len())..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let integer = digits(i);
    if integer == 0 || (integer > 1 && bytes[i] == b'0') {
        return false;
    }
    let integer_digits = &written[i..i + integer];
    i += integer;
    let mut fraction_digits = "";
    if bytes.get(i) == Some(&b'.') {
        let n = digits(i + 1);
        if n == 0 {
            return false;
        }
        fraction_digits = &written[i + 1..i + 1 + n];
        i += 1 + n;
    }
    let mut exponent = 0i128;
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        let negative = bytes.get(i) == Some(&b'-');
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let n = digits(i);
        if n == 0 {
            return false;
        }
        let magnitude = written[i..i + n].trim_start_matches('0');
        // Go parses the exponent as an int64 (`strconv.ParseInt`).
        if magnitude.len() > 19 {
            return false;
        }
        let magnitude: i128 = magnitude.parse().unwrap_or(0);
        exponent = if negative { -magnitude } else { magnitude };
        if exponent > i128::from(i64::MAX) || exponent < i128::from(i64::MIN) {
            return false;
        }
        i += n;
    }
    if i != bytes.len() {
        return false;
    }
    let significant = format!("{integer_digits}{fraction_digits}");
    let significant = significant.trim_start_matches('0');
    if significant.is_empty() {
        return true;
    }
    let binary_exponent = bit_length(significant) - fraction_digits.len() as i128 + exponent;
    (i128::from(i32::MIN)..=i128::from(i32::MAX)).contains(&binary_exponent)
}

/// The number of bits of the decimal integer `digits` (no leading zero). Exact up to 38
/// digits; beyond, from the logarithm, which is off only for a number within a rounding error
/// of a power of two.
fn bit_length(digits: &str) -> i128 {
    if let Ok(n) = digits.parse::<u128>() {
        return i128::from(128 - n.leading_zeros());
    }
    let lead: f64 = digits[..17].parse().unwrap_or(1.0);
    let log2 = lead.log2() + (digits.len() - 17) as f64 * std::f64::consts::LOG2_10;
    log2.floor() as i128 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_error(text: &str) -> (&'static str, usize) {
        match parse(text, text.as_bytes()) {
            Ok(value) => panic!("{text:?} parsed: {value:?}"),
            Err(error) => (error.summary, error.at),
        }
    }

    /// Each case's summary and byte offset are Terraform 1.15.5's (`load_config_dir` on a
    /// `.tf.json` file holding the text).
    #[test]
    fn first_errors_are_hcls() {
        let cases: &[(&str, &str, usize)] = &[
            ("", "Missing value", 0),
            (" \n", "Missing value", 2),
            (
                "{\"a\": 1 \"b\": 2}",
                "Missing attribute seperator comma",
                15,
            ),
            (
                "{\"a\": {\"b\": 1 \"c\": 2}, \"d\": 3}",
                "Missing attribute seperator comma",
                21,
            ),
            ("[1 2] ", "Missing attribute seperator comma", 6),
            ("{\"a\": 1 ;}", "Missing attribute seperator comma", 9),
            ("{\"a\" 1}", "Missing property value colon", 5),
            ("{\"a\" = 1}", "Missing property value colon", 5),
            ("{\"a\"}", "Missing object value", 4),
            ("{\"a\", \"b\": 1}", "Missing object value", 4),
            ("{\"a\": }", "Missing JSON value", 6),
            ("[1, ]", "Trailing comma in array", 2),
            ("{\"a\": 1,}", "Trailing comma in object", 7),
            ("{\"a\": 1]", "Mismatched braces", 8),
            ("{\"a\": 1]  }", "Mismatched braces", 10),
            ("[1}", "Mismatched brackets", 3),
            ("[1}  ]", "Mismatched brackets", 6),
            (
                "{\"locals\": {\"a\": 0x1}}",
                "Missing attribute seperator comma",
                21,
            ),
            ("{\"a\": \"\u{600}\" 1}", "Invalid JSON string", 12),
            ("{\"a\": 1e2147483647}", "Invalid JSON number", 6),
            ("{\"a\": \"x\\", "Invalid JSON string", 9),
            ("{\"a\": \"\\u12\"}", "Invalid JSON string", 12),
            ("[1: 2] 3", "Invalid array value", 7),
            ("{\"a\": [1", "Unclosed object", 6),
            ("{\"a\": 1", "Unclosed object", 0),
            ("{1: 2}", "Invalid object property name", 1),
            ("{a: 1}", "Invalid JSON keyword", 1),
            ("{\"a\": True}", "Invalid JSON keyword", 6),
            ("{\"a\": NaN}", "Invalid JSON keyword", 6),
            ("{\"a\": 01}", "Invalid JSON number", 6),
            ("{\"a\": 1.}", "Invalid JSON number", 6),
            ("{\"a\": .5}", "Invalid JSON number", 6),
            ("{\"a\": +1}", "Invalid JSON number", 6),
            ("{\"a\": 1e999999999999}", "Invalid JSON number", 6),
            ("{\"a\": \"x\\qy\"}", "Invalid JSON string", 10),
            ("{\"a\": \"x\\u12g4\"}", "Invalid JSON string", 13),
            ("{\"a\": \"x\ny\"}", "Invalid JSON string", 8),
            ("{\"a\": \"x", "Invalid JSON string", 8),
            ("{} {}", "Extraneous data after value", 3),
            ("{'a': 1}", "Invalid start of value", 1),
            ("{\u{a0}}", "Invalid start of value", 1),
            ("]", "Missing array element value", 0),
        ];
        for &(text, summary, at) in cases {
            assert_eq!(first_error(text), (summary, at), "{text:?}");
        }
    }

    #[test]
    fn values_and_their_ranges() {
        let text = r#"{"a\n\u00e9\ud83d\ude00\ud800x": [1.5e3, true, null, "b"], "c": {}}"#;
        let Ok(Value::Object(object)) = parse(text, text.as_bytes()) else {
            panic!("not an object");
        };
        assert_eq!(object.range, range(0, text.len()));
        let first = &object.properties[0];
        assert_eq!(first.name.value, "a\né😀\u{fffd}x");
        assert_eq!(
            &text[first.name.range.start..first.name.range.end],
            r#""a\n\u00e9\ud83d\ude00\ud800x""#
        );
        let Value::Array(array) = &first.value else {
            panic!("not an array");
        };
        assert_eq!(
            &text[array.range.start..array.range.end],
            r#"[1.5e3, true, null, "b"]"#
        );
        assert!(matches!(array.elements[0], Value::Number("1.5e3", _)));
        assert!(matches!(array.elements[1], Value::Bool(true, _)));
        assert!(matches!(array.elements[2], Value::Null(_)));
        assert!(matches!(&array.elements[3], Value::String(s) if s.value == "b"));
    }

    #[test]
    fn numbers_as_go_converts_them() {
        for valid in [
            "0",
            "-0",
            "1E400",
            "1e-999999999",
            "0e99999999999999",
            "12345678901234567890123",
            "-1.25e+2",
        ] {
            assert!(valid_number(valid), "{valid}");
        }
        for invalid in [
            "-",
            "1e",
            "1e+",
            "00",
            "1.e3",
            "1e99999999999999999999",
            "1e2147483647",
            "1-2",
            "--1",
        ] {
            assert!(!valid_number(invalid), "{invalid}");
        }
    }

    /// On a thread with room for a debug build's frames, as the program's own threads have
    /// for a release build's (`cli::run`).
    #[test]
    fn nesting_beyond_the_limit_is_the_parsers_limit() {
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(|| {
                let deep = "[".repeat(MAX_DEPTH + 1);
                let error = parse(&deep, deep.as_bytes()).expect_err("too deep");
                assert!(error.beyond_limit);
                assert_eq!(error.at, MAX_DEPTH);
                let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
                assert!(parse(&ok, ok.as_bytes()).is_ok());
                // Far deeper input: the limit comes first.
                let deeper = "{\"a\":".repeat(1_000_000);
                assert!(
                    parse(&deeper, deeper.as_bytes())
                        .expect_err("too deep")
                        .beyond_limit
                );
            })
            .expect("a thread")
            .join()
            .expect("no panic");
    }

    /// The work for ten times the input is at most eleven times the work (`parse_steps`).
    fn assert_linear(name: &str, shape: impl Fn(usize) -> String, n: usize) {
        let (small, large) = (parse_steps(&shape(n)), parse_steps(&shape(10 * n)));
        assert!(
            large <= 11 * small,
            "{name}: {small} steps for {n} units, {large} for {}",
            10 * n
        );
    }

    #[test]
    fn work_is_linear_in_the_input() {
        assert_linear(
            "keys in one object",
            |n| format!("{{\"locals\": {{{}\"z\": 0}}}}", "\"k\": 1, ".repeat(n)),
            10_000,
        );
        assert_linear(
            "a long string with escapes",
            |n| {
                format!(
                    "{{\"a\": \"{}\"}}",
                    "\\n\\u00e9\\ud83d\\ude00\\\"x${a}".repeat(n)
                )
            },
            10_000,
        );
        assert_linear(
            "missing comma, recovery",
            |n| {
                format!(
                    "{{\"a\": 1 \"b\": {}}}",
                    "{\"c\": [1, {\"d\": 2}]}, ".repeat(n)
                )
            },
            10_000,
        );
    }

    /// 1,000,000 nested arrays or objects: the parse stops at the nesting limit, having
    /// scanned only the tokens up to it, with memory for those levels only.
    /// (On a thread with room for a debug build's frames.)
    #[test]
    fn a_million_nested_levels_stop_at_the_limit() {
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(|| {
                for unit in ["[", "{\"a\": "] {
                    let text = unit.repeat(1_000_000);
                    let steps = parse_steps(&text);
                    assert!(steps < 10 * MAX_DEPTH as u64, "{unit}: {steps} steps");
                }
            })
            .expect("a thread")
            .join()
            .expect("no panic");
    }
}
