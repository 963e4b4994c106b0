//! Where a heredoc's body ends, as the tools read it and as hcl-edit does.
//!
//! Terraform and OpenTofu end a heredoc at the first line of its body that holds the marker
//! alone, blanks aside, followed by a newline (hashicorp/hcl `hclsyntax/scan_tokens.rl`, the
//! action `heredocLiteralEOL`): `EOT)`, `EOT,` or `EOT # note` are body text, and a marker that
//! ends the file without a newline ends nothing (hashicorp/terraform#31450, "Unterminated
//! template string"). hcl-edit ends it at the first line that starts with the marker (after
//! spaces and tabs) followed by anything but an identifier character, the end of the file
//! included; and it looks for that line from the second line of the body on, so an empty
//! heredoc (`<<EOT` right above `EOT`) reads on to the next line that starts with its marker.
//! Where the two differ, hcl-edit's tree is not the file the tools read: a fix cut from it
//! could edit what the tools read as the heredoc's text.
//!
//! Template sequences are not looked into: a `${ ... }` that spans lines is code for both
//! readings, and is taken as body text by both alike here.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

/// A heredoc whose end hcl-edit finds at another line than the tools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Misread {
    /// Where hcl-edit ends it: its closing marker and the rest of that line.
    pub(crate) parser_end: Range<usize>,
    /// Where the tools end it (their closing marker), if they do.
    pub(crate) tools_end: Option<Range<usize>>,
}

/// The end of a heredoc body as the tools read it, and how hcl-edit reads it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct BodyEnd {
    /// Just after the tools' closing marker (before its newline), or the end of the text.
    pub(crate) end: usize,
    pub(crate) parser: ParserEnd,
}

/// Where hcl-edit ends a heredoc, compared with the tools.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum ParserEnd {
    /// Where the tools do, or nowhere (hcl-edit then reports the file as a syntax error).
    Agrees,
    Misread(Misread),
    /// Not before the tools' end: hcl-edit's end is to be looked for after it
    /// ([`later_parser_ends`]).
    Later(Later),
}

/// A heredoc the tools end at a line that hcl-edit does not end it at: its first line (an
/// empty heredoc), or a marker after blanks other than spaces and tabs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Later {
    id: String,
    /// Where the line after the tools' closing marker starts.
    from: usize,
    /// The tools' closing marker.
    tools_end: Range<usize>,
    /// Where hcl-edit would end the heredoc at its first line, if no later line ends it.
    first_line: Option<Range<usize>>,
}

/// Finds the end of the body that starts at `body` (just after the newline of `<<ID` or
/// `<<-ID`), whose marker is `id`.
pub(crate) fn body_end(text: &str, body: usize, id: &str) -> BodyEnd {
    let mut first_line = None;
    let mut parser_end = None;
    let mut start = body;
    while start < text.len() {
        let line_end =
            memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |p| start + p);
        let line = &text[start..line_end];
        let closes = parser_closes(line, id).map(|at| start + at..line_end);
        if start == body {
            first_line = closes;
        } else if parser_end.is_none() {
            parser_end = closes;
        }
        if line.trim() == id && line_end < text.len() {
            let marker = start + (line.len() - line.trim_start().len());
            let tools_end = marker..marker + id.len();
            let parser = match parser_end {
                Some(parser) if parser.start == marker => ParserEnd::Agrees,
                Some(parser) => ParserEnd::Misread(Misread {
                    parser_end: parser,
                    tools_end: Some(tools_end.clone()),
                }),
                None => ParserEnd::Later(Later {
                    id: id.to_string(),
                    from: line_end + 1,
                    tools_end: tools_end.clone(),
                    first_line,
                }),
            };
            return BodyEnd {
                end: tools_end.end,
                parser,
            };
        }
        start = line_end + 1;
    }
    // No end for the tools: hcl-edit's, if it has one, is a misread.
    let parser = match parser_end.or(first_line) {
        Some(parser_end) => ParserEnd::Misread(Misread {
            parser_end,
            tools_end: None,
        }),
        None => ParserEnd::Agrees,
    };
    BodyEnd {
        end: text.len(),
        parser,
    }
}

/// hcl-edit's end of each of `heredocs` (of `text`), where it is not the tools' end. One pass
/// over the lines of the text for them all: an empty heredoc may read on to any later line.
pub(crate) fn later_parser_ends(text: &str, heredocs: &[Later]) -> Vec<Misread> {
    let ids: HashSet<&str> = heredocs.iter().map(|h| h.id.as_str()).collect();
    // The lines hcl-edit could end a heredoc of each marker at, in order.
    let mut ends: HashMap<&str, Vec<Range<usize>>> = HashMap::new();
    let mut start = 0;
    while start < text.len() {
        let line_end =
            memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |p| start + p);
        let line = &text[start..line_end];
        let rest = line.trim_start_matches([' ', '\t']);
        let word_len = rest
            .bytes()
            .position(|b| !is_marker_byte(b))
            .unwrap_or(rest.len());
        if let Some(&id) = ids.get(&rest[..word_len])
            && let Some(at) = parser_closes(line, id)
        {
            ends.entry(id).or_default().push(start + at..line_end);
        }
        start = line_end + 1;
    }
    let mut misreads = Vec::new();
    for heredoc in heredocs {
        let lines = ends.get(heredoc.id.as_str()).map_or(&[][..], Vec::as_slice);
        let after = lines.partition_point(|line| line.start < heredoc.from);
        let parser_end = lines.get(after).cloned().or_else(|| {
            // No later line: the first line, unless it is the tools' end itself.
            (heredoc.first_line.clone()).filter(|line| line.start != heredoc.tools_end.start)
        });
        if let Some(parser_end) = parser_end {
            misreads.push(Misread {
                parser_end,
                tools_end: Some(heredoc.tools_end.clone()),
            });
        }
    }
    misreads
}

/// A byte of a heredoc marker as [`super::scan`] reads one: ASCII letters, digits, `_`, `-`.
pub(crate) fn is_marker_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// Where in `line` hcl-edit's closing marker starts, if it takes the line as the end of a
/// heredoc whose marker is `id`: after spaces and tabs, the marker, then the end of the line or
/// a character that does not continue an identifier.
fn parser_closes(line: &str, id: &str) -> Option<usize> {
    let rest = line.trim_start_matches([' ', '\t']);
    let after = rest.strip_prefix(id)?;
    // hcl-edit's own test of an identifier character, on the marker and that character.
    let continues = (after.chars().next())
        .is_some_and(|c| hcl_edit::Ident::try_new(format!("{id}{c}")).is_ok());
    (!continues).then_some(line.len() - rest.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What [`body_end`] and [`later_parser_ends`] find for the heredoc `<<EOT` at the start of
    /// `text`: the heredoc as the tools read it, and where they read it otherwise, the text at
    /// hcl-edit's end and at the tools' end.
    fn read(text: &str) -> (&str, Option<(&str, Option<&str>)>) {
        let body = text.find('\n').expect("the opener's newline") + 1;
        let found = body_end(text, body, "EOT");
        let misread = match found.parser {
            ParserEnd::Agrees => None,
            ParserEnd::Misread(misread) => Some(misread),
            ParserEnd::Later(later) => later_parser_ends(text, &[later]).pop(),
        };
        let shown = misread.map(|m| (&text[m.parser_end], m.tools_end.map(|r| &text[r])));
        (&text[..found.end], shown)
    }

    #[test]
    fn a_marker_alone_on_its_line_ends_the_heredoc_for_both() {
        assert_eq!(read("<<EOT\nhi\nEOT\nx"), ("<<EOT\nhi\nEOT", None));
        assert_eq!(read("<<EOT\nhi\n  EOT \r\nx"), ("<<EOT\nhi\n  EOT", None));
        assert_eq!(read("<<EOT\nEOT\nx = 1\n"), ("<<EOT\nEOT", None));
        // Identifier characters after the marker make another word: text for both.
        let text = "<<EOT\nEOTX\nEOT-2\nEOTé\nEOT\n";
        assert_eq!(read(text), (text.trim_end(), None));
        // An unterminated heredoc is a syntax error for both.
        assert_eq!(read("<<EOT\nhi\n"), ("<<EOT\nhi\n", None));
    }

    #[test]
    fn hcl_edit_ends_a_heredoc_where_the_tools_do_not() {
        let text = "<<EOT\nhi\nEOT)\nmore\nEOT\n";
        assert_eq!(read(text), (text.trim_end(), Some(("EOT)", Some("EOT")))));
        let text = "<<EOT\nhi\n  EOT # note\n";
        assert_eq!(read(text), (text, Some(("EOT # note", None))));
        // At the end of the file without a newline: no end for the tools.
        let text = "<<EOT\nhi\nEOT";
        assert_eq!(read(text), (text, Some(("EOT", None))));
        // A marker indented with a no-break space ends it for the tools only.
        let text = "<<EOT\nhi\n\u{a0}EOT\nEOT\n";
        assert_eq!(
            read(text),
            ("<<EOT\nhi\n\u{a0}EOT", Some(("EOT", Some("EOT"))))
        );
    }

    #[test]
    fn an_empty_heredoc_reads_on_for_hcl_edit() {
        let text = "<<EOT\nEOT\ny = <<EOT\nhi\nEOT\n";
        let body = text.find('\n').expect("newline") + 1;
        let ParserEnd::Later(later) = body_end(text, body, "EOT").parser else {
            panic!("not looked for after the tools' end");
        };
        let misreads = later_parser_ends(text, &[later]);
        let last = text.rfind("EOT").expect("the last marker");
        assert_eq!(misreads[0].parser_end, last..last + 3);
        assert_eq!(misreads[0].tools_end, Some(6..9));
        // With no later line that starts with its marker, hcl-edit ends it at its first line.
        assert_eq!(read("<<EOT\nEOT\nx = 1\n").1, None);
    }

    #[test]
    fn a_first_line_ends_the_heredoc_for_hcl_edit_only_when_no_later_line_does() {
        // `EOT)` on the first line, then the marker: both end at the marker.
        assert_eq!(read("<<EOT\nEOT)\nEOT\n"), ("<<EOT\nEOT)\nEOT", None));
        // `EOT)` on the first line and no end after it: hcl-edit ends there.
        let text = "<<EOT\nEOT)\n";
        assert_eq!(read(text), (text, Some(("EOT)", None))));
    }
}
