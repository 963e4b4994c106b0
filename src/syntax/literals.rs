//! Where a file's strings are: each quoted string or template and each heredoc of a native
//! file, with the code of its `${ }` and `%{ }` sequences and the strings in that code, and
//! each string of a JSON file. They are found by a lexical scan ([`super::scan`]), which reads
//! heredocs as the tools do, and reads files the parser refuses: the model keeps operators and
//! templates as text.
//!
//! An edit that changes part of a string's text is what a fix must never do by accident: the
//! engine checks every fix's edits with [`touches_string`] before offering it.

use std::ops::Range;

use crate::source::Syntax;

/// A quoted string or template, a heredoc, or a JSON string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StringLiteral {
    /// From the opening quote or `<<` to the closing quote or marker (the end of the text for
    /// one that is not closed).
    pub(crate) range: Range<usize>,
    /// The code of its template sequences, in order. Native quoted strings only: a heredoc's
    /// text is taken whole, sequences and all.
    pub(crate) sequences: Vec<Sequence>,
}

/// The code of a `${ ... }` or `%{ ... }` sequence (between the opening `{` and the closing
/// `}`), and the strings in it, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Sequence {
    pub(crate) code: Range<usize>,
    pub(crate) strings: Vec<StringLiteral>,
}

/// The strings of a file of `syntax`, in order; those inside the sequences of another are in
/// its [`Sequence::strings`].
pub(crate) fn string_literals(syntax: Syntax, text: &str) -> Vec<StringLiteral> {
    match syntax {
        Syntax::Native => super::scan::string_literals(text),
        Syntax::Json | Syntax::TerragruntJson => json_strings(text),
    }
}

/// Whether replacing the bytes `edit` changes part of a string's text: it overlaps a string's
/// text, quotes or markers without covering the whole string, and does not stay within the
/// code of one of its sequences (there the strings of that code are checked). An insertion
/// changes a string when it is strictly inside it. `strings` are as [`string_literals`]
/// gives them.
pub(crate) fn touches_string(strings: &[StringLiteral], edit: &Range<usize>) -> bool {
    // The strings that end after the edit starts, up to the first that starts after it (an
    // insertion right before a string leaves it alone).
    let first = strings.partition_point(|s| s.range.end <= edit.start);
    let overlapping = strings[first..]
        .iter()
        .take_while(|s| s.range.start < edit.end || s.range.start < edit.start);
    for string in overlapping {
        let covered = edit.start <= string.range.start && string.range.end <= edit.end;
        if covered && !edit.is_empty() {
            continue;
        }
        let in_code = (string.sequences.iter())
            .find(|s| s.code.start <= edit.start && edit.end <= s.code.end);
        match in_code {
            Some(sequence) if !touches_string(&sequence.strings, edit) => {}
            _ => return true,
        }
    }
    false
}

/// What [`super::scan`] tells of the strings it passes, as it passes them: a [`Recorder`] keeps
/// them; `()` ignores them, at no cost, for the scan that every file gets.
pub(crate) trait StringEvents {
    /// A quoted string starts at `at` (its opening quote).
    fn open_string(&mut self, _at: usize) {}
    /// The innermost open quoted string ends at `end` (after its closing quote).
    fn close_string(&mut self, _end: usize) {}
    /// A sequence of the innermost open string starts, its code at `code_start`.
    fn open_sequence(&mut self, _code_start: usize) {}
    /// The open sequence of the innermost open string ends, its code at `code_end`.
    fn close_sequence(&mut self, _code_end: usize) {}
    /// A heredoc, from `<<` to the end of its closing marker.
    fn heredoc(&mut self, _range: Range<usize>) {}
}

impl StringEvents for () {}

/// Records the strings [`super::scan`] finds, as it finds them.
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    /// The strings found outside any other, in order.
    outermost: Vec<StringLiteral>,
    /// The strings open around the scan's position, innermost last.
    open: Vec<StringLiteral>,
}

/// The end of a sequence that is still open.
const OPEN: usize = usize::MAX;

impl StringEvents for Recorder {
    fn open_string(&mut self, at: usize) {
        self.open.push(StringLiteral {
            range: at..OPEN,
            sequences: Vec::new(),
        });
    }

    fn close_string(&mut self, end: usize) {
        if let Some(mut string) = self.open.pop() {
            string.range.end = end;
            self.place(string);
        }
    }

    fn open_sequence(&mut self, code_start: usize) {
        if let Some(string) = self.open.last_mut() {
            string.sequences.push(Sequence {
                code: code_start..OPEN,
                strings: Vec::new(),
            });
        }
    }

    fn close_sequence(&mut self, code_end: usize) {
        let sequence = (self.open.last_mut()).and_then(|s| s.sequences.last_mut());
        if let Some(sequence) = sequence.filter(|s| s.code.end == OPEN) {
            sequence.code.end = code_end;
        }
    }

    fn heredoc(&mut self, range: Range<usize>) {
        self.place(StringLiteral {
            range,
            sequences: Vec::new(),
        });
    }
}

impl Recorder {
    /// The strings found, those still open (the text ends inside them) ended at `len`.
    pub(crate) fn finish(mut self, len: usize) -> Vec<StringLiteral> {
        while let Some(string) = self.open.last_mut() {
            if let Some(sequence) = string.sequences.last_mut().filter(|s| s.code.end == OPEN) {
                sequence.code.end = len;
            }
            self.close_string(len);
        }
        self.outermost
    }

    /// Puts a finished string in the open sequence around it, or among the outermost ones.
    fn place(&mut self, string: StringLiteral) {
        let around = (self.open.last_mut()).and_then(|s| s.sequences.last_mut());
        match around.filter(|s| s.code.end == OPEN) {
            Some(sequence) => sequence.strings.push(string),
            None => self.outermost.push(string),
        }
    }
}

/// The strings of a JSON text, keys and values, each taken whole (a JSON string's escapes make
/// its template sequences no ranges of the file).
fn json_strings(text: &str) -> Vec<StringLiteral> {
    let bytes = text.as_bytes();
    let mut strings = Vec::new();
    let mut i = 0;
    while let Some(quote) = memchr::memchr(b'"', &bytes[i..]).map(|p| i + p) {
        let mut end = quote + 1;
        while end < bytes.len() && bytes[end] != b'"' {
            end += if bytes[end] == b'\\' { 2 } else { 1 };
        }
        let end = (end + 1).min(bytes.len());
        strings.push(StringLiteral {
            range: quote..end,
            sequences: Vec::new(),
        });
        i = end;
    }
    strings
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of each string (outermost first, then those in its sequences), and of each
    /// sequence's code in brackets.
    fn shown(text: &str, strings: &[StringLiteral]) -> Vec<String> {
        let mut out = Vec::new();
        for string in strings {
            out.push(text[string.range.clone()].to_string());
            for sequence in &string.sequences {
                out.push(format!("[{}]", &text[sequence.code.clone()]));
                out.extend(shown(text, &sequence.strings));
            }
        }
        out
    }

    fn native(text: &str) -> Vec<String> {
        shown(text, &string_literals(Syntax::Native, text))
    }

    #[test]
    fn native_strings_with_their_sequences() {
        let text = "a = \"x ${f(\"y}\", \"#\")} // z\" # \"c\"\nb = \"%{ if q }\\\"%{ endif }\"\n";
        assert_eq!(
            native(text),
            [
                "\"x ${f(\"y}\", \"#\")} // z\"",
                "[f(\"y}\", \"#\")]",
                "\"y}\"",
                "\"#\"",
                "\"%{ if q }\\\"%{ endif }\"",
                "[ if q ]",
                "[ endif ]",
            ]
        );
        let heredocs = "a = <<-EOT\n  \"${x}\" # not a comment\n  EOT\nb = [<<X\n\"\nX\n, \"s\"]\n";
        assert_eq!(
            native(heredocs),
            [
                "<<-EOT\n  \"${x}\" # not a comment\n  EOT",
                "<<X\n\"\nX",
                "\"s\""
            ]
        );
        // Comments hold no strings; a string the text does not close ends with it.
        assert_eq!(
            native("# \"a\"\n/* \"b\" */ c = \"d ${e"),
            ["\"d ${e", "[e]"]
        );
    }

    #[test]
    fn json_strings_with_their_escapes() {
        let text = r#"{"a\"b": "c\\", "d": ["${e}", 1]}"#;
        let strings = string_literals(Syntax::Json, text);
        assert_eq!(
            shown(text, &strings),
            [r#""a\"b""#, r#""c\\""#, r#""d""#, r#""${e}""#]
        );
    }

    #[test]
    fn an_edit_touches_a_string_it_cuts_into_but_not_one_it_covers_or_leaves() {
        let text = "a = \"x${f(1)}y\"\nb = 2\n";
        let strings = string_literals(Syntax::Native, text);
        let at = |s: &str| text.find(s).expect("in the text");
        let touches = |range: Range<usize>| touches_string(&strings, &range);
        let quote = at("\"x");
        let end = at("y\"") + 2;
        // The whole attribute, the whole string, beside it, or an insertion at its ends.
        assert!(!touches(0..end + 1));
        assert!(!touches(quote..end));
        assert!(!touches(at("b = 2")..at("b = 2") + 5));
        assert!(!touches(quote..quote));
        assert!(!touches(end..end));
        // Code inside the sequence.
        assert!(!touches(at("f(1)")..at("f(1)") + 4));
        assert!(!touches(at("1)")..at("1)")));
        // Literal text, a quote, or from outside into it.
        assert!(touches(at("y\"")..at("y\"") + 1));
        assert!(touches(quote..quote + 1));
        assert!(touches(0..quote + 2));
        assert!(touches(at("f(1)") - 1..at("f(1)") + 4));
        assert!(touches(quote + 1..quote + 1));
    }
}
