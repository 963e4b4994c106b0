//! Annotated snippets rendered by codespan-reporting, like rustc.

use std::ops::Range;
use std::sync::Arc;

use codespan_reporting::diagnostic::{
    Diagnostic as CsDiagnostic, Label as CsLabel, Severity as CsSeverity,
};
use codespan_reporting::files::{Error, Files};
use codespan_reporting::term::{self, termcolor::Buffer};

use crate::diagnostic::{Applicability, Diagnostic, Label, Severity, Views};
use crate::source::SourceFile;

/// Renders one diagnostic; codespan ends it with a blank line.
/// `checked` are the views of the run (see [`super::view_note`]); `unsafe_fixes` whether unsafe
/// fixes are applied (a finding they fix is marked `[*]`).
pub(crate) fn render(
    diagnostic: &Diagnostic,
    color: bool,
    checked: Views,
    unsafe_fixes: bool,
) -> Vec<u8> {
    let mut files = LabelFiles::default();
    let mut labels = Vec::new();
    if let Some(primary) = &diagnostic.primary {
        let (id, range) = files.add(primary);
        labels.push(CsLabel::primary(id, range).with_message(&primary.message));
    }
    for secondary in &diagnostic.secondary {
        let (id, range) = files.add(secondary);
        labels.push(CsLabel::secondary(id, range).with_message(&secondary.message));
    }
    let mark = super::fixable_mark(diagnostic, unsafe_fixes);
    let message = if diagnostic.primary.is_none() && !diagnostic.path.is_empty() {
        format!("{mark}{}: {}", diagnostic.path, diagnostic.message)
    } else {
        format!("{mark}{}", diagnostic.message)
    };
    let mut notes: Vec<String> = diagnostic
        .notes
        .iter()
        .map(|n| format!("note: {n}"))
        .collect();
    notes.extend(super::view_note(diagnostic, checked).map(|n| format!("note: {n}")));
    notes.extend(diagnostic.help.iter().map(|h| format!("help: {h}")));
    if let Some(fix) = &diagnostic.fix {
        let flags = match fix.applicability {
            Applicability::Safe => "--fix",
            Applicability::Unsafe => "--fix --unsafe-fixes",
        };
        notes.push(format!(
            "fix: {} ({}: `{flags}`)",
            fix.title,
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
/// each file's `text` (in an excerpt, its kept lines) and the whole file's line numbers.
#[derive(Default)]
struct LabelFiles<'a> {
    files: Vec<&'a Arc<SourceFile>>,
}

impl<'a> LabelFiles<'a> {
    /// The label's file id and its range in the file's `text`.
    fn add(&mut self, label: &'a Label) -> (usize, Range<usize>) {
        let file = &label.file;
        let range = file.local_offset(label.range.start)..file.local_offset(label.range.end);
        match self.files.iter().position(|f| Arc::ptr_eq(f, file)) {
            Some(id) => (id, range),
            None => {
                self.files.push(file);
                (self.files.len() - 1, range)
            }
        }
    }

    fn get(&self, id: usize) -> Result<&'a SourceFile, Error> {
        self.files
            .get(id)
            .copied()
            .map(Arc::as_ref)
            .ok_or(Error::FileMissing)
    }
}

impl<'a> Files<'a> for LabelFiles<'a> {
    type FileId = usize;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<&'a str, Error> {
        Ok(&self.get(id)?.display)
    }

    fn source(&'a self, id: usize) -> Result<&'a str, Error> {
        Ok(&self.get(id)?.text)
    }

    fn line_index(&'a self, id: usize, byte_index: usize) -> Result<usize, Error> {
        Ok(self.get(id)?.line_of_local(byte_index))
    }

    fn line_range(&'a self, id: usize, line_index: usize) -> Result<Range<usize>, Error> {
        let file = self.get(id)?;
        file.local_line_range(line_index)
            .ok_or(Error::LineTooLarge {
                given: line_index,
                max: file.line_starts().len() - 1,
            })
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
}
