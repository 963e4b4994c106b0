//! A light lexical scan of native-syntax files, independent of the parser: where their
//! strings are ([`string_literals`], for the check every fix's edits get) and the names an
//! expression's text refers to ([`references`]).
//!
//! It knows just enough of HCL's lexical structure (strings with nested interpolations,
//! heredocs ended as the tools end them, the three comment forms, brackets): it reads files
//! the parser may refuse, and every byte once.

use super::literals::{Recorder, StringEvents, StringLiteral};

#[derive(Debug, Clone, Copy, PartialEq)]
enum Context {
    /// Code between brackets: `(`, `[`, `{`.
    Bracket,
    /// Code inside `${ ... }` or `%{ ... }` of a quoted string.
    Interpolation,
    /// The literal part of a quoted string.
    Quoted,
}

/// The quoted strings, templates and heredocs of a native-syntax file (see
/// [`super::literals`]).
pub(crate) fn string_literals(text: &str) -> Vec<StringLiteral> {
    let mut strings = Recorder::default();
    let bytes = text.as_bytes();
    let mut stack: Vec<Context> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if stack.last() == Some(&Context::Quoted) {
            match b {
                b'\\' => i += 2,
                b'"' => {
                    stack.pop();
                    i += 1;
                    strings.close_string(i);
                }
                b'$' | b'%' if bytes.get(i + 1) == Some(&b) && bytes.get(i + 2) == Some(&b'{') => {
                    i += 3; // `$${` and `%%{` are escapes, not sequences
                }
                b'$' | b'%' if bytes.get(i + 1) == Some(&b'{') => {
                    stack.push(Context::Interpolation);
                    i += 2;
                    strings.open_sequence(i);
                }
                _ => i += 1 + literal_run(&bytes[i + 1..]),
            }
            continue;
        }
        match b {
            b'"' => {
                stack.push(Context::Quoted);
                strings.open_string(i);
                i += 1;
            }
            b'#' => i = line_end(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = line_end(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = memchr::memmem::find(&bytes[i + 2..], b"*/").map_or(bytes.len(), |p| i + 4 + p);
            }
            b'<' if bytes.get(i + 1) == Some(&b'<') => match heredoc(text, i) {
                Some(end) => {
                    strings.heredoc(i..end);
                    i = end;
                }
                None => i += 2,
            },
            b'(' | b'[' | b'{' => {
                stack.push(Context::Bracket);
                i += 1;
            }
            b')' | b']' | b'}' => {
                if let Some(Context::Bracket | Context::Interpolation) = stack.last() {
                    if let Some(Context::Interpolation) = stack.last() {
                        strings.close_sequence(i);
                    }
                    stack.pop();
                }
                i += 1;
            }
            _ => i += 1 + code_run(&bytes[i + 1..]),
        }
    }
    strings.finish(text.len())
}

/// How many bytes at the start of `bytes` are literal text of a quoted string, with no
/// meaning to the scan.
fn literal_run(bytes: &[u8]) -> usize {
    (bytes.iter())
        .position(|&b| matches!(b, b'\\' | b'"' | b'$' | b'%'))
        .unwrap_or(bytes.len())
}

/// How many bytes at the start of `bytes` are code with no meaning to the scan.
fn code_run(bytes: &[u8]) -> usize {
    (bytes.iter())
        .position(|&b| {
            matches!(
                b,
                b'"' | b'#' | b'/' | b'<' | b'(' | b'[' | b'{' | b')' | b']' | b'}'
            )
        })
        .unwrap_or(bytes.len())
}

/// Where the line comment at `start` ends (its newline, or the end of the text).
fn line_end(bytes: &[u8], start: usize) -> usize {
    memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |p| start + p)
}

/// The end of the heredoc at `start` (`<<ID` or `<<-ID`, a newline, lines, then the closing
/// marker): just after its closing marker, or the end of the text if none closes it. `None`
/// when the `<<` there starts no heredoc.
fn heredoc(text: &str, start: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = start + 2;
    if bytes.get(i) == Some(&b'-') {
        i += 1;
    }
    let id_start = i;
    while i < bytes.len()
        && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'-')
    {
        i += 1;
    }
    let id = &text[id_start..i];
    if id.is_empty() {
        return None;
    }
    while i < bytes.len() && matches!(bytes[i], b'\r' | b' ' | b'\t') {
        i += 1;
    }
    if bytes.get(i) != Some(&b'\n') {
        return None;
    }
    Some(super::hcl::heredoc_end(text, i + 1, id).map_or(text.len(), |(_, end)| end))
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
