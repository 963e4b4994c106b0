//! A light lexical scan of native-syntax files, independent of the parser.
//!
//! It knows just enough of HCL's lexical structure (strings with nested interpolations,
//! heredocs, the three comment forms, brackets) to find two things:
//! - every comment, with its position, for inline-ignore annotations and comment-aware rules;
//! - the newlines inside `{ for ... }` / `[ for ... ]` expressions. Terraform ignores newlines
//!   inside `for` expressions (so a conditional may continue on a line starting with `?`), but
//!   hcl-edit treats them as the end of the expression. Replacing those newlines with spaces keeps
//!   every byte offset, so spans into the rewritten text are spans into the original.
//!
//! It also estimates how much work hcl-edit's backtracking could do on the text
//! ([`Scan::backtrack_cost`]). When an operand of a chain of binary operators (`a < b < c[...]`)
//! fails to parse, hcl-edit rewinds to the end of the last good operator and then parses that
//! operand again from the top of its loop: each such operand nested in another one doubles the
//! work, so `x = ` then 30 copies of `a<b<c[d` then `&` would take hours. The estimate weighs
//! every byte by 2 to the power of its *risky depth*: how many brackets, parentheses, strings
//! and interpolations around it were opened after a binary operator. Real configurations stay
//! at a depth of a few; see [`MAX_BACKTRACK_COST`].

use std::ops::Range;

use super::heredoc::{self, Later, Misread, ParserEnd, is_marker_byte};
use super::literals::{Recorder, StringEvents, StringLiteral};

#[derive(Debug, Default)]
pub(crate) struct Scan {
    /// Comment ranges, delimiters included.
    pub(crate) comments: Vec<Range<usize>>,
    /// Offsets of newlines that Terraform ignores but hcl-edit does not.
    pub(crate) insignificant_newlines: Vec<usize>,
    /// How far the worst case of hcl-edit's backtracking exceeds a linear parse, in units of
    /// bytes re-parsed (see the module docs). Zero for almost every real file.
    pub(crate) backtrack_cost: u64,
    /// Where the cost first went over [`MAX_BACKTRACK_COST`], if it did.
    pub(crate) backtrack_limit_at: Option<usize>,
    /// The exponent digits of number literals too large for an `f64` (`1e309`): Terraform's
    /// numbers have arbitrary precision, but hcl-edit rejects these.
    pub(crate) overflowing_exponents: Vec<Range<usize>>,
    /// Heredocs that hcl-edit ends at another line than the tools (see [`super::heredoc`]).
    pub(crate) heredoc_misreads: Vec<Misread>,
}

/// The [`Scan::backtrack_cost`] beyond which a text is not given to hcl-edit. Calibrated on the
/// doubling pattern of the module docs: at this cost that pattern still parses without a
/// noticeable wait, and each more level of risky depth doubles the time. A real file would need over 32 KiB of
/// text nested seven brackets deep after operators to reach it.
pub(crate) const MAX_BACKTRACK_COST: u64 = 1 << 15;

/// Risky depths up to this one are free: only deeper bytes count towards the cost.
const FREE_RISKY_DEPTH: u32 = 6;

/// The risky depth of the innermost open context and whether a binary operator was seen in it
/// since its start or its last `,` or newline; the same for each enclosing context, saved.
/// (The innermost one is kept apart from the stack: it is read for every run of bytes.)
struct Risk {
    depth: u32,
    after_operator: bool,
    enclosing: Vec<(u32, bool)>,
    cost: u64,
}

impl Risk {
    fn new() -> Risk {
        Risk {
            depth: 0,
            after_operator: false,
            enclosing: Vec::new(),
            cost: 0,
        }
    }

    /// A bracket, string or interpolation opens: riskier if it is an operand after an operator.
    fn open(&mut self) {
        let depth = self.depth + u32::from(self.after_operator);
        self.push(depth);
    }

    /// Like [`Risk::open`], for an interpolation: the string around it already counted.
    fn open_same_depth(&mut self) {
        self.push(self.depth);
    }

    fn push(&mut self, depth: u32) {
        self.enclosing.push((self.depth, self.after_operator));
        self.depth = depth;
        self.after_operator = false;
    }

    fn close(&mut self) {
        if let Some((depth, after_operator)) = self.enclosing.pop() {
            self.depth = depth;
            self.after_operator = after_operator;
        }
    }

    fn operator(&mut self, seen: bool) {
        self.after_operator = seen;
    }

    /// Whether bytes at the current depth cost nothing.
    fn is_free(&self) -> bool {
        self.depth <= FREE_RISKY_DEPTH
    }

    /// Counts `bytes` bytes at the current depth.
    fn count(&mut self, bytes: usize) {
        let excess = self.depth.saturating_sub(FREE_RISKY_DEPTH).min(40);
        if excess > 0 {
            let weight = (1u64 << excess).saturating_mul(bytes as u64);
            self.cost = self.cost.saturating_add(weight);
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Context {
    /// Code between brackets: `(`, `[`, `{`. `for_expr` is true when the bracket opens a
    /// `for` expression.
    Bracket { close: u8, for_expr: bool },
    /// Code inside `${ ... }` or `%{ ... }` of a quoted string.
    Interpolation,
    /// The literal part of a quoted string.
    Quoted,
    /// The literal part of a template that is not quoted (a JSON string): only its
    /// interpolations end, never itself.
    Template,
}

/// Scans a native-syntax file.
pub(crate) fn scan(text: &str) -> Scan {
    scan_from(text, Vec::new(), &mut ())
}

/// Scans the text of a template that is not in quotes, such as a JSON string's value.
pub(crate) fn scan_template(text: &str) -> Scan {
    scan_from(text, vec![Context::Template], &mut ())
}

/// The quoted strings, templates and heredocs of a native-syntax file, as the scan finds them
/// (see [`super::literals`]).
pub(crate) fn string_literals(text: &str) -> Vec<StringLiteral> {
    let mut strings = Recorder::default();
    scan_from(text, Vec::new(), &mut strings);
    strings.finish(text.len())
}

/// Scans `text` from the contexts of `stack`, telling `strings` of the strings it passes (a
/// [`Recorder`] for a file that fixes edit, else `()`: the scan of every file pays nothing).
fn scan_from<S: StringEvents>(text: &str, mut stack: Vec<Context>, strings: &mut S) -> Scan {
    let bytes = text.as_bytes();
    let mut out = Scan::default();
    let mut risk = Risk::new();
    // Heredocs whose end for hcl-edit lies after the tools' end, looked for once at the end.
    let mut later_ends: Vec<Later> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        if let Some(literal @ (Context::Quoted | Context::Template)) = stack.last().copied() {
            match b {
                b'\\' if literal == Context::Quoted => i += 2,
                b'"' if literal == Context::Quoted => {
                    stack.pop();
                    risk.close();
                    i += 1;
                    strings.close_string(i);
                }
                b'$' | b'%' if bytes.get(i + 1) == Some(&b) && bytes.get(i + 2) == Some(&b'{') => {
                    i += 3; // `$${` and `%%{` are escapes, not sequences
                }
                b'$' | b'%' if bytes.get(i + 1) == Some(&b'{') => {
                    stack.push(Context::Interpolation);
                    risk.open_same_depth();
                    i += 2;
                    strings.open_sequence(i);
                }
                _ => i += 1 + literal_run(&bytes[i + 1..]),
            }
            risk.count(i.min(bytes.len()) - start);
            continue;
        }
        match b {
            b'"' => {
                stack.push(Context::Quoted);
                risk.open();
                strings.open_string(i);
                i += 1;
            }
            b'#' => i = line_comment(bytes, i, &mut out),
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = line_comment(bytes, i, &mut out),
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = find(bytes, i + 2, b"*/").map_or(bytes.len(), |e| e + 2);
                out.comments.push(i..end);
                i = end;
            }
            b'<' if bytes.get(i + 1) == Some(&b'<') => {
                risk.operator(true);
                let found = heredoc(text, i);
                match found.parser {
                    ParserEnd::Agrees => {}
                    ParserEnd::Misread(misread) => out.heredoc_misreads.push(misread),
                    ParserEnd::Later(later) => later_ends.push(later),
                }
                if let Some(end) = found.literal_end {
                    strings.heredoc(i..end);
                }
                i = found.resume;
            }
            b'(' | b'[' | b'{' => {
                let close = match b {
                    b'(' => b')',
                    b'[' => b']',
                    _ => b'}',
                };
                let for_expr = b != b'(' && starts_for(bytes, i + 1);
                stack.push(Context::Bracket { close, for_expr });
                risk.open();
                i += 1;
            }
            b')' | b']' | b'}' => {
                if let Some(Context::Bracket { .. } | Context::Interpolation) = stack.last() {
                    if let Some(Context::Interpolation) = stack.last() {
                        strings.close_sequence(i);
                    }
                    stack.pop();
                    risk.close();
                }
                i += 1;
            }
            b'\n' if matches!(stack.last(), Some(Context::Bracket { for_expr: true, .. })) => {
                out.insignificant_newlines.push(i);
                risk.operator(false);
                i += 1;
            }
            b'\n' | b',' => {
                risk.operator(false);
                i = skip_plain_code(bytes, i + 1, &stack, &mut risk);
            }
            b'<' | b'>' | b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' => {
                risk.operator(true);
                i += 1;
            }
            b'=' | b'!' if bytes.get(i + 1) == Some(&b'=') => {
                risk.operator(true);
                i += 2;
            }
            b'0'..=b'9' if !continues_a_word(bytes, i) => {
                i = number(text, i, &mut out);
            }
            _ => i = skip_plain_code(bytes, i + 1, &stack, &mut risk),
        }
        risk.count(i.min(bytes.len()) - start);
        if risk.cost > MAX_BACKTRACK_COST && out.backtrack_limit_at.is_none() {
            out.backtrack_limit_at = Some(start);
        }
    }
    out.backtrack_cost = risk.cost;
    if !later_ends.is_empty() {
        (out.heredoc_misreads).extend(heredoc::later_parser_ends(text, &later_ends));
    }
    out
}

/// What a byte means to the scan in code (outside strings and comments), for
/// [`skip_plain_code`].
#[derive(Clone, Copy, PartialEq)]
enum Code {
    /// No meaning: letters, blanks, `_`, `.`, `:`, `?`, non-ASCII bytes...
    Plain,
    /// A digit: plain where it continues a word (`a1`), else the start of a number.
    Digit,
    /// `=` or `!`: plain unless `=` follows (`==`, `!=`).
    Equals,
    /// `,`: ends an operand.
    Separator,
    /// Ends an operand too, but inside a `for` expression is recorded, one at a time.
    Newline,
    /// Opens or closes something, or is an operator or comment.
    Special,
}

const CODE: [Code; 256] = {
    let mut table = [Code::Plain; 256];
    let special = b"\"#/<>()[]{}+-*%&|";
    let mut i = 0;
    while i < special.len() {
        table[special[i] as usize] = Code::Special;
        i += 1;
    }
    let mut digit = b'0';
    while digit <= b'9' {
        table[digit as usize] = Code::Digit;
        digit += 1;
    }
    table[b'=' as usize] = Code::Equals;
    table[b'!' as usize] = Code::Equals;
    table[b',' as usize] = Code::Separator;
    table[b'\n' as usize] = Code::Newline;
    table
};

/// Skips the code from `from` (just after a byte already handled) up to the next byte that
/// means something to the scan, where bytes cost nothing; elsewhere skips nothing, so that bytes
/// are counted one by one and `backtrack_limit_at` is the exact byte. Most of a file is such
/// runs of names, blanks and line ends: looking at them one iteration of the scan at a time was
/// most of its cost.
fn skip_plain_code(bytes: &[u8], from: usize, stack: &[Context], risk: &mut Risk) -> usize {
    if !risk.is_free() {
        return from;
    }
    // The newlines of a `for` expression are recorded, one at a time.
    let in_for = matches!(stack.last(), Some(Context::Bracket { for_expr: true, .. }));
    let mut separated = false;
    let mut i = from;
    while let Some(&b) = bytes.get(i) {
        let code = CODE[usize::from(b)];
        // Most bytes are plain: one predictable branch for them, before the match (a jump
        // through a table for every byte was most of the scan's time).
        if code == Code::Plain {
            i += 1;
            continue;
        }
        match code {
            Code::Plain => {}
            // `from` is past a byte, so `i - 1` is in the text.
            Code::Digit if is_word_byte(bytes[i - 1]) => {}
            Code::Equals if bytes.get(i + 1) != Some(&b'=') => {}
            Code::Separator => separated = true,
            Code::Newline if !in_for => separated = true,
            Code::Digit | Code::Equals | Code::Newline | Code::Special => break,
        }
        i += 1;
    }
    if separated {
        risk.operator(false);
    }
    i
}

/// How many bytes at the start of `bytes` are literal text of a string or template, with no
/// meaning to the scan: skipped in one tight loop rather than one byte per turn of the scan's
/// main loop, with its context look-up and its cost counting.
fn literal_run(bytes: &[u8]) -> usize {
    const STOPS: [bool; 256] = {
        let mut table = [false; 256];
        table[b'\\' as usize] = true;
        table[b'"' as usize] = true;
        table[b'$' as usize] = true;
        table[b'%' as usize] = true;
        table
    };
    (bytes.iter())
        .position(|&b| STOPS[usize::from(b)])
        .unwrap_or(bytes.len())
}

/// A byte of a word, which a digit after it continues: ASCII letters and digits, `_`, `.`, and
/// any byte of a non-ASCII character.
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b >= 0x80
}

/// Whether the digit at `i` continues an identifier (`a1`, `a-1`, `é1`) or a number (`1.5`,
/// the `0` of `a.0`), rather than starting a number: `-` continues a word only after one.
fn continues_a_word(bytes: &[u8], i: usize) -> bool {
    match i.checked_sub(1).map(|p| bytes[p]) {
        None => false,
        Some(b'-') => (1..i)
            .rev()
            .map(|p| bytes[p - 1])
            .find(|&b| b != b'-')
            .is_some_and(is_word_byte),
        Some(b) => is_word_byte(b),
    }
}

/// Skips the number literal at `start`; records its exponent digits if it overflows an `f64`.
fn number(text: &str, start: usize, out: &mut Scan) -> usize {
    let bytes = text.as_bytes();
    let digits_from = |mut i: usize| {
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let mut end = digits_from(start);
    if bytes.get(end) == Some(&b'.') && bytes.get(end + 1).is_some_and(u8::is_ascii_digit) {
        end = digits_from(end + 1);
    }
    if matches!(bytes.get(end), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(bytes.get(end + 1), Some(b'+' | b'-')));
        let exponent_start = end + 1 + sign;
        let exponent_end = digits_from(exponent_start);
        if exponent_end > exponent_start {
            let overflows = text[start..exponent_end]
                .parse::<f64>()
                .is_ok_and(f64::is_infinite);
            if overflows {
                out.overflowing_exponents.push(exponent_start..exponent_end);
            }
            end = exponent_end;
        }
    }
    end
}

/// A `#` or `//` comment up to (not including) the newline; returns where scanning resumes.
/// The newline that ends a line comment stays significant, or the comment would swallow the
/// next line.
fn line_comment(bytes: &[u8], start: usize, out: &mut Scan) -> usize {
    let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |p| start + p);
    let end_without_cr = if end > start && bytes[end - 1] == b'\r' {
        end - 1
    } else {
        end
    };
    out.comments.push(start..end_without_cr);
    // Skip the newline itself so it is never recorded as insignificant.
    (end + 1).min(bytes.len())
}

/// What the scan finds at `<<`.
struct FoundHeredoc {
    /// Where the scan resumes: at the newline after the closing marker, the end of the text,
    /// or after the `<<` of something that is not a heredoc.
    resume: usize,
    /// Just after the closing marker (or the end of the text), for a heredoc.
    literal_end: Option<usize>,
    parser: ParserEnd,
}

/// Skips a heredoc (`<<ID` or `<<-ID`, a newline, lines, then the closing marker: see
/// [`super::heredoc`]). Anything else starting with `<<` is skipped as two characters.
fn heredoc(text: &str, start: usize) -> FoundHeredoc {
    let bytes = text.as_bytes();
    let not_one = FoundHeredoc {
        resume: start + 2,
        literal_end: None,
        parser: ParserEnd::Agrees,
    };
    let mut i = start + 2;
    if bytes.get(i) == Some(&b'-') {
        i += 1;
    }
    let id_start = i;
    while i < bytes.len() && is_marker_byte(bytes[i]) {
        i += 1;
    }
    let id = &text[id_start..i];
    if id.is_empty() {
        return not_one;
    }
    while i < bytes.len() && (bytes[i] == b'\r' || bytes[i] == b' ' || bytes[i] == b'\t') {
        i += 1;
    }
    if bytes.get(i) != Some(&b'\n') {
        return not_one;
    }
    let body = heredoc::body_end(text, i + 1, id);
    let resume = memchr::memchr(b'\n', &bytes[body.end..]).map_or(bytes.len(), |p| body.end + p);
    FoundHeredoc {
        resume,
        literal_end: Some(body.end),
        parser: body.parser,
    }
}

/// Whether the bracket content starting at `i` begins with the keyword `for`.
fn starts_for(bytes: &[u8], mut i: usize) -> bool {
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    bytes.get(i..i + 3) == Some(b"for") && bytes.get(i + 3).is_some_and(|b| b.is_ascii_whitespace())
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(bytes.get(from..)?, needle).map(|p| from + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comments(text: &str) -> Vec<&str> {
        scan(text).comments.into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn finds_all_comment_forms() {
        let text = "# a\nx = 1 // b\n/* c\n d */ y = \"# not\" # e\n";
        assert_eq!(comments(text), ["# a", "// b", "/* c\n d */", "# e"]);
    }

    #[test]
    fn comment_markers_in_strings_and_heredocs_are_not_comments() {
        let text = "x = \"${\"#\"} // \"\ny = <<EOT\n# no\nEOT\n# yes\n";
        assert_eq!(comments(text), ["# yes"]);
    }

    #[test]
    fn newlines_inside_for_expressions_are_insignificant() {
        let text = "x = { for k, v in m : k => c\n ? 1\n : 2 }\ny = {\n a = 1\n}\n";
        let newlines = scan(text).insignificant_newlines;
        assert_eq!(newlines, [28, 33]);
    }

    #[test]
    fn newline_ending_a_comment_inside_for_stays_significant() {
        let text = "x = [for v in l : # c\n v]\n";
        assert!(scan(text).insignificant_newlines.is_empty());
    }

    /// Eight `(` opened after operators: a risky depth of 8, two over the free depth, so each
    /// byte costs 4.
    fn eight_deep(inner: &str) -> (String, Scan) {
        let text = format!("x = {}{inner}{}\n", "a<(".repeat(8), ")".repeat(8));
        let scanned = scan(&text);
        (text, scanned)
    }

    #[test]
    fn runs_of_names_and_string_text_cost_what_their_bytes_cost() {
        let cost = |inner: &str| eight_deep(inner).1.backtrack_cost;
        assert_eq!(cost(&"b".repeat(20)) - cost(&"b".repeat(10)), 40);
        let string = |n: usize| format!("\"{}\"", "s ".repeat(n));
        assert_eq!(cost(&string(20)) - cost(&string(10)), 80);
    }

    #[test]
    fn the_backtrack_limit_is_found_at_its_byte_inside_a_long_name() {
        let (text, scanned) = eight_deep(&"b".repeat(20_000));
        let name = text.find('b').expect("the name");
        let at = scanned.backtrack_limit_at.expect("over the limit");
        // 4 per byte: the limit is passed about 8,192 bytes into the name, not at its start.
        assert!(
            at > name + 8_000 && at < name + 8_200,
            "{at} (name at {name})"
        );
    }

    #[test]
    fn object_inside_for_keeps_its_newlines() {
        let text = "x = { for k in l : k => {\n a = 1\n} }\n";
        assert!(scan(text).insignificant_newlines.is_empty());
    }
}

/// The names an expression's source text refers to, outside string literals: `var.x`,
/// `aws_instance.web.id`, `module.m.out`, `path.module`, and provider functions as
/// `provider::NAME::FUNC`. Plain function names, keywords and object keys are left out.
pub(crate) fn references(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    // Each entry: true when that level is a quoted string's literal part.
    let mut quoted: Vec<bool> = Vec::new();
    let mut braces: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if quoted.last() == Some(&true) {
            match c {
                '\\' => i += 2,
                '"' => {
                    quoted.pop();
                    i += 1;
                }
                '$' | '%' if chars.get(i + 1) == Some(&'{') => {
                    quoted.push(false);
                    braces.push(0);
                    i += 2;
                }
                _ => i += 1,
            }
            continue;
        }
        match c {
            '"' => {
                quoted.push(true);
                i += 1;
            }
            '{' => {
                if let Some(depth) = braces.last_mut() {
                    *depth += 1;
                }
                i += 1;
            }
            '}' => {
                match braces.last_mut() {
                    Some(0) => {
                        braces.pop();
                        quoted.pop();
                    }
                    Some(depth) => *depth -= 1,
                    None => {}
                }
                i += 1;
            }
            c if c.is_alphabetic() || c == '_' => {
                let start = i;
                while i < chars.len()
                    && (chars[i].is_alphanumeric()
                        || chars[i] == '_'
                        || chars[i] == '-'
                        || chars[i] == '.'
                        || chars[i] == ':')
                {
                    i += 1;
                }
                let word: String = chars[start..i]
                    .iter()
                    .collect::<String>()
                    .trim_end_matches(['.', ':'])
                    .to_string();
                let next_at = (i..chars.len()).find(|&j| !chars[j].is_whitespace());
                let next = next_at.map(|j| chars[j]);
                let after_next = next_at.and_then(|j| chars.get(j + 1)).copied();
                let is_call = next == Some('(');
                let is_key = (next == Some('=') && after_next != Some('='))
                    || (next == Some(':') && !word.contains('.'));
                let keyword = matches!(
                    word.as_str(),
                    "true" | "false" | "null" | "for" | "in" | "if" | "else" | "endif" | "endfor"
                );
                if word.starts_with("provider::") || (!is_call && !is_key && !keyword) {
                    out.push(word);
                }
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod reference_tests {
    use super::references;

    #[test]
    fn finds_references_outside_literals() {
        assert_eq!(references("\"./modules/${var.name}\""), ["var.name"]);
        assert_eq!(references("format(\"%s/x\", local.base)"), ["local.base"]);
        assert_eq!(references("\"${path.module}/a.b\""), ["path.module"]);
        assert_eq!(references("aws_s3_bucket.b.id"), ["aws_s3_bucket.b.id"]);
        assert_eq!(
            references("provider::aws::arn_parse(var.a)"),
            ["provider::aws::arn_parse", "var.a"]
        );
        assert_eq!(references("{ a = module.m.out }"), ["module.m.out"]);
        assert_eq!(references("var.x == null ? \"a\" : \"b\""), ["var.x"]);
    }
}

#[cfg(test)]
mod backtrack_tests {
    use std::time::{Duration, Instant};

    use super::{MAX_BACKTRACK_COST, scan};
    use crate::source::{FileId, Syntax};
    use crate::syntax::{Parsed, SyntaxError, parse};

    /// `x = ` then `copies` of `unit` then `tail`: each copy nests one operand deeper.
    fn doubling(unit: &str, copies: usize, tail: &str) -> String {
        format!("x = {}{tail}\n", unit.repeat(copies))
    }

    fn error(parsed: Parsed) -> SyntaxError {
        match parsed.file {
            Ok(_) => panic!("expected an error"),
            Err(error) => error,
        }
    }

    /// Each of these doubles hcl-edit's parse time per copy: at 30 copies, hours.
    #[test]
    fn doubling_patterns_are_reported_as_a_limit_at_once() {
        let patterns = [
            ("a<b<c[d", "&"),
            ("a<b<c[d", "!e"),
            ("a<b<c[d", "|"),
            ("a<b<c[d", "<<e"),
            ("a<b<(c", "&"),
            ("a<b<\"${c", "&"),
        ];
        for (unit, tail) in patterns {
            let text = doubling(unit, 30, tail);
            let start = Instant::now();
            let error = error(parse(FileId(0), Syntax::Native, &text));
            let elapsed = start.elapsed();
            assert!(error.beyond_tool_limit, "{text}: {error:?}");
            assert!(elapsed < Duration::from_secs(1), "{text}: took {elapsed:?}");
        }
    }

    #[test]
    fn doubling_pattern_in_a_json_template_is_reported_as_a_limit() {
        let template = doubling("a<b<c[d", 30, "&");
        let text = format!(
            "{{\"locals\": {{\"x\": \"${{{}}}\"}}}}",
            template.trim_end()
        );
        let start = Instant::now();
        let error = error(parse(FileId(0), Syntax::Json, &text));
        assert!(error.beyond_tool_limit, "{error:?}");
        assert!(start.elapsed() < Duration::from_secs(1));
    }

    /// Shallow versions of the pattern are ordinary syntax errors, and real nesting is free.
    #[test]
    fn ordinary_text_costs_nothing() {
        let shallow = error(parse(
            FileId(0),
            Syntax::Native,
            &doubling("a<b<c[d", 6, "&"),
        ));
        assert!(!shallow.beyond_tool_limit, "{shallow:?}");
        let real = |n: usize| {
            format!(
                "x{n} = length(var.a) > 0 ? [for v in var.a : v + (v * (2 - (v / 3)))] : []\n\
                 y{n} = \"${{a + (b - (c * \"${{d}}\"))}}\"\n"
            )
        };
        assert_eq!(scan(&real(0)).backtrack_cost, 0);
        let big: String = (0..10_000).map(real).collect();
        assert!(scan(&big).backtrack_cost < MAX_BACKTRACK_COST);
        assert!(parse(FileId(0), Syntax::Native, &big).file.is_ok());
    }

    #[test]
    fn nesting_beyond_the_parsers_limit_is_a_limit_not_a_syntax_error() {
        let text = format!("x = {}{}\n", "[".repeat(70), "]".repeat(70));
        let error = error(parse(FileId(0), Syntax::Native, &text));
        assert!(error.beyond_tool_limit, "{error:?}");
        let within = format!("x = {}{}\n", "[".repeat(60), "]".repeat(60));
        assert!(parse(FileId(0), Syntax::Native, &within).file.is_ok());
    }
}

/// Text that Terraform accepts and hcl-edit alone would not: the rewrites of
/// `native::parser_text`, driven by this scan.
#[cfg(test)]
mod rewrite_tests {
    use crate::source::{FileId, Syntax};
    use crate::syntax::{ExprKind, File, parse};

    fn parse_ok(text: &str) -> File {
        match parse(FileId(0), Syntax::Native, text).file {
            Ok(file) => file,
            Err(error) => panic!("{text:?}: {error:?}"),
        }
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let text = "\u{feff}variable \"a\" {}\n";
        let file = parse_ok(text);
        assert_eq!(file.body.blocks[0].label(0), Some("a"));
        assert_eq!(
            &text[file.body.blocks[0].header_span.range()],
            "variable \"a\""
        );
    }

    #[test]
    fn numbers_beyond_f64_parse_and_keep_their_text() {
        let text = "a = 1e309\nb = [-1.5E+400, 2e3]\nc = \"1e999\"\nd = x1e999\n";
        let file = parse_ok(text);
        let number = |i: usize| match &file.body.attributes[i].expr.kind {
            ExprKind::Number(n) => n.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(number(0), "1e309");
        let ExprKind::Tuple(items) = &file.body.attributes[1].expr.kind else {
            panic!("a tuple");
        };
        assert!(matches!(
            &items[0].kind,
            ExprKind::Other | ExprKind::Number(_)
        ));
        assert_eq!(&text[items[0].span.range()], "-1.5E+400");
        assert_eq!(super::scan(text).overflowing_exponents.len(), 2);
    }
}
