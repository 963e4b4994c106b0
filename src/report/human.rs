//! Annotated snippets rendered by codespan-reporting, like rustc.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use codespan_reporting::diagnostic::{
    Diagnostic as CsDiagnostic, Label as CsLabel, Severity as CsSeverity,
};
use codespan_reporting::files::{Error, Files};
use codespan_reporting::term::{self, termcolor::Buffer};

use crate::diagnostic::escape::{self, Elision, Excerpt};
use crate::diagnostic::{Applicability, Diagnostic, Label, Severity, Views};
use crate::source::SourceFile;

use super::window;

/// The labels shown of one finding, its primary label included. codespan gives each label on a
/// line a row of its own, drawn across the columns of the labels left of it: a finding that
/// names thousands of places on one line (`views_diverge` on a minified JSON file full of
/// duplicate keys) would print their square.
const MAX_LABELS: usize = 20;

/// Renders one diagnostic; codespan ends it with a blank line.
/// `checked` are the views of the run (see [`super::view_note`]); `unsafe_fixes` whether unsafe
/// fixes are applied (a finding they fix is marked `[*]`).
pub(crate) fn render(
    diagnostic: &Diagnostic,
    color: bool,
    checked: Views,
    unsafe_fixes: bool,
) -> Vec<u8> {
    let shown_secondary = MAX_LABELS - usize::from(diagnostic.primary.is_some());
    let secondary = &diagnostic.secondary[..diagnostic.secondary.len().min(shown_secondary)];
    let all = diagnostic.primary.iter().chain(secondary);
    let files = LabelFiles::new(all);
    let mut labels = Vec::new();
    if let Some(primary) = &diagnostic.primary {
        let (id, range) = files.place(primary);
        labels.push(CsLabel::primary(id, range).with_message(escape::text(&primary.message)));
    }
    for secondary in secondary {
        let (id, range) = files.place(secondary);
        let message = escape::text(&secondary.message);
        labels.push(CsLabel::secondary(id, range).with_message(message));
    }
    let mark = super::fixable_mark(diagnostic, unsafe_fixes);
    let text = escape::text(&diagnostic.message);
    let message = if diagnostic.primary.is_none() && !diagnostic.path.is_empty() {
        format!("{mark}{}: {text}", escape::text(&diagnostic.path))
    } else {
        format!("{mark}{text}")
    };
    let mut notes: Vec<String> = (diagnostic.notes.iter())
        .map(|n| format!("note: {}", escape::text(n)))
        .collect();
    let hidden = diagnostic.secondary.len() - secondary.len();
    if hidden > 0 {
        notes.push(format!(
            "note: {hidden} more places are not shown here (`--format json` lists every one)"
        ));
    }
    notes.extend(super::view_note(diagnostic, checked).map(|n| format!("note: {n}")));
    notes.extend((diagnostic.help.iter()).map(|h| format!("help: {}", escape::text(h))));
    if let Some(fix) = &diagnostic.fix {
        let flags = match fix.applicability {
            Applicability::Safe => "--fix",
            Applicability::Unsafe => "--fix --unsafe-fixes",
        };
        notes.push(format!(
            "fix: {} ({}: `{flags}`)",
            escape::text(&fix.title),
            fix.applicability.as_str()
        ));
    }
    notes.push(format!("see: {}", diagnostic.doc_link()));
    let rendered = CsDiagnostic::new(severity(diagnostic.severity))
        .with_code(diagnostic.rule.as_str())
        .with_message(message)
        .with_labels(labels)
        .with_notes(notes);

    let mut buffer = if color {
        Buffer::ansi()
    } else {
        Buffer::no_color()
    };
    let config = term::Config::default();
    if term::emit_to_write_style(&mut buffer, &config, &files, &rendered).is_err() {
        // A label outside its file cannot happen for spans we made; fall back to one line.
        let line = super::short::render(diagnostic, checked, unsafe_fixes);
        return format!("{line}\n\n").into_bytes();
    }
    let bytes = buffer.into_inner();
    if diagnostic.severity == Severity::Notice {
        return notice_header(bytes, diagnostic.rule.as_str());
    }
    bytes
}

/// codespan names its lowest severity `note`; every other format (and `--fail-on`) says
/// `notice`. The header comes first, so the first `note[<id>]` is it.
fn notice_header(bytes: Vec<u8>, id: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(&bytes);
    let header = format!("note[{id}]");
    text.replacen(&header, &format!("notice[{id}]"), 1)
        .into_bytes()
}

fn severity(severity: Severity) -> CsSeverity {
    match severity {
        Severity::Error => CsSeverity::Error,
        Severity::Warning => CsSeverity::Warning,
        Severity::Notice => CsSeverity::Note,
    }
}

/// The files one diagnostic's labels point into, served from our own line index. codespan sees
/// each file's `text` (in an excerpt, its kept lines) with the lines it shows escaped, and the
/// whole file's line and column numbers.
struct LabelFiles<'a> {
    files: Vec<Shown<'a>>,
}

/// A file as codespan sees it.
struct Shown<'a> {
    file: &'a Arc<SourceFile>,
    name: Cow<'a, str>,
    /// The file's `text`, escaped from the first labelled line to the last (codespan shows no
    /// line outside them).
    excerpt: Excerpt<'a>,
}

impl<'a> LabelFiles<'a> {
    fn new(labels: impl Iterator<Item = &'a Label> + Clone) -> LabelFiles<'a> {
        let mut files: Vec<&'a Arc<SourceFile>> = Vec::new();
        for label in labels.clone() {
            if !files.iter().any(|f| Arc::ptr_eq(f, &label.file)) {
                files.push(&label.file);
            }
        }
        let files = (files.into_iter())
            .map(|file| {
                let ranges: Vec<Range<usize>> = (labels.clone())
                    .filter(|l| Arc::ptr_eq(&l.file, file))
                    .map(local_range)
                    .collect();
                let line = |n: usize| file.local_line_range(n);
                let lines = shown_lines(file, &ranges);
                let first = lines.first().and_then(|&n| line(n)).unwrap_or_default();
                let last = lines.last().and_then(|&n| line(n)).unwrap_or_default();
                let region = first.start..last.end;
                // The lines between those shown are left out (codespan shows none of them),
                // and long lines are cut around the labels.
                let mut elided = Vec::new();
                let mut shown_to = region.start;
                for range in lines.iter().filter_map(|&n| line(n)) {
                    if range.start > shown_to {
                        let skipped = shown_to..range.start;
                        elided.push(Elision {
                            range: skipped,
                            shown: "",
                        });
                    }
                    let cut = window::elided(&file.text, range.clone(), &ranges);
                    elided.extend(cut.into_iter().map(|range| Elision {
                        range,
                        shown: escape::ELISION,
                    }));
                    shown_to = range.end;
                }
                Shown {
                    file,
                    name: escape::text(&file.display),
                    excerpt: Excerpt::new(&file.text, region, &elided),
                }
            })
            .collect();
        LabelFiles { files }
    }

    /// The label's file id and its range in the text codespan sees.
    fn place(&self, label: &Label) -> (usize, Range<usize>) {
        let id = (self.files.iter())
            .position(|f| Arc::ptr_eq(f.file, &label.file))
            .unwrap_or_default();
        let range = local_range(label);
        let excerpt = &self.files[id].excerpt;
        (
            id,
            excerpt.to_shown(range.start)..excerpt.to_shown(range.end),
        )
    }

    fn get(&self, id: usize) -> Result<&Shown<'a>, Error> {
        self.files.get(id).ok_or(Error::FileMissing)
    }
}

/// The lines of `file` (0-based, in the whole file) that codespan may show for labels at
/// `ranges` (of its `text`), in order: each label's lines, and the line after them, which it
/// shows between two labelled lines one line apart.
fn shown_lines(file: &SourceFile, ranges: &[Range<usize>]) -> Vec<usize> {
    let mut lines: Vec<usize> = ranges
        .iter()
        .flat_map(|range| file.line_of_local(range.start)..=file.line_of_local(range.end) + 1)
        .filter(|&n| file.local_line_range(n).is_some())
        .collect();
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// A label's range in its file's `text`.
fn local_range(label: &Label) -> Range<usize> {
    let file = &label.file;
    file.local_offset(label.range.start)..file.local_offset(label.range.end)
}

impl<'a> Files<'a> for LabelFiles<'a> {
    type FileId = usize;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<&'a str, Error> {
        Ok(&self.get(id)?.name)
    }

    fn source(&'a self, id: usize) -> Result<&'a str, Error> {
        Ok(&self.get(id)?.excerpt.text)
    }

    fn line_index(&'a self, id: usize, byte_index: usize) -> Result<usize, Error> {
        let shown = self.get(id)?;
        Ok(shown
            .file
            .line_of_local(shown.excerpt.to_original(byte_index)))
    }

    fn line_range(&'a self, id: usize, line_index: usize) -> Result<Range<usize>, Error> {
        let shown = self.get(id)?;
        let range = shown
            .file
            .local_line_range(line_index)
            .ok_or(Error::LineTooLarge {
                given: line_index,
                max: shown.file.line_starts().len() - 1,
            })?;
        Ok(shown.excerpt.to_shown(range.start)..shown.excerpt.to_shown(range.end))
    }

    /// Counted in the file, as every other format counts it, not in its escaped text.
    fn column_number(
        &'a self,
        id: usize,
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, Error> {
        let shown = self.get(id)?;
        let line = shown.file.local_line_range(line_index).unwrap_or_default();
        let offset = shown.excerpt.to_original(byte_index).min(line.end);
        Ok(shown.file.chars_between(line.start..offset) + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::TEST_ID;

    /// The human header says `notice`, as every other format, coloured or not.
    #[test]
    fn notices_are_called_notice() {
        let notice = Diagnostic::new(TEST_ID, Severity::Notice, "a message");
        for color in [false, true] {
            let text =
                String::from_utf8(render(&notice, color, Views::BOTH, false)).expect("UTF-8");
            assert!(text.contains("notice[syntax_error]"), "{text:?}");
            assert!(!text.contains("note[syntax_error]"), "{text:?}");
        }
    }

    /// A label on a very long line shows the text around it between `…` marks, with the
    /// column counted in the whole line (in characters), the caret under the label's text and
    /// a hostile character near it escaped; a label on a short line shows it whole.
    #[test]
    fn a_long_line_is_shown_around_its_labels() {
        use crate::source::{SourceFile, SourceFiles, Span};
        let before = "é".repeat(5000);
        let text = format!("{before}\x1b here = 1 {}\nshort = 2\n", "x".repeat(5000));
        let mut files = SourceFiles::default();
        let file = files.add(SourceFile::new("a.tf".into(), text.clone()));
        let at = before.len() + 2;
        let short = text.find("short").expect("short");
        let diagnostic = Diagnostic::error(TEST_ID, "a message")
            .at(&files, Span::new(file, at..at + 4), "the label")
            .with_label(&files, Span::new(file, short..short + 5), "other");
        let shown =
            String::from_utf8(render(&diagnostic, false, Views::BOTH, false)).expect("UTF-8");
        assert!(shown.contains("a.tf:1:5003\n"), "{shown}");
        let lines: Vec<&str> = shown.lines().collect();
        let source = lines.iter().find(|l| l.contains("here")).expect("the line");
        let context = "é".repeat(window::CONTEXT / 2 - 1);
        let expected = format!(
            "1 │ …{context}\\x1b here = 1 {}…",
            "x".repeat(window::CONTEXT - 5)
        );
        assert_eq!(*source, expected);
        let caret = lines
            .iter()
            .find(|l| l.contains("^^^^"))
            .expect("the caret");
        let column = |line: &str, part: &str| line[..line.find(part).expect(part)].chars().count();
        assert_eq!(column(caret, "^^^^"), column(source, "here"));
        assert!(shown.contains("2 │ short = 2\n"), "{shown}");
        assert!(shown.len() < 2000, "{}", shown.len());
    }
}
