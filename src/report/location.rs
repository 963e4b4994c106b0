//! What the machine-readable formats share: paths relative to the working directory and
//! 1-based ranges.

use crate::diagnostic::fix::TextEdit;
use crate::diagnostic::{Diagnostic, Label};
use crate::source::SourceFile;

/// A 1-based range: start line/column and end line/column (end column exclusive, as SARIF).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Range {
    pub(crate) start_line: usize,
    pub(crate) start_column: usize,
    pub(crate) end_line: usize,
    pub(crate) end_column: usize,
}

impl Range {
    pub(crate) fn of(label: &Label) -> Range {
        let (start_line, start_column) = label.start();
        let (end_line, end_column) = label.end();
        // An empty range (a syntax error position) still covers one column.
        let end_column = if (end_line, end_column) == (start_line, start_column) {
            start_column + 1
        } else {
            end_column
        };
        Range {
            start_line,
            start_column,
            end_line,
            end_column,
        }
    }
}

/// The path of a label's file or a finding, relative to the working directory when it is
/// under it, `/`-separated.
pub(crate) fn relative(path: &str) -> String {
    let as_path = std::path::Path::new(path);
    if as_path.is_absolute()
        && let Ok(cwd) = std::env::current_dir()
        && let Ok(rest) = as_path.strip_prefix(&cwd)
    {
        return crate::source::display_path(rest);
    }
    path.to_string()
}

pub(crate) fn file_of(diagnostic: &Diagnostic) -> String {
    relative(
        diagnostic
            .primary
            .as_ref()
            .map_or(&diagnostic.path, |l| &l.file.display),
    )
}

/// The first paragraph of a doc's `## What it does` section (or its summary line).
pub(crate) fn doc_description(doc: &str) -> String {
    let section = doc.split("## What it does").nth(1).unwrap_or(doc);
    section
        .trim_start()
        .split("\n\n")
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The 1-based start and end (line, column) of a fix's edit, from the file among the finding's
/// labels that it edits; `None` when no label is in that file.
pub(crate) fn edit_position(
    diagnostic: &Diagnostic,
    edit: &TextEdit,
) -> Option<((usize, usize), (usize, usize))> {
    let file: &SourceFile = (diagnostic.primary.iter().chain(&diagnostic.secondary))
        .map(|l| l.file.as_ref())
        .find(|f| f.path == edit.path)?;
    Some((
        file.line_col(edit.range.start),
        file.line_col(edit.range.end),
    ))
}

/// A fix's path as the formats show it: relative to the working directory when under it.
pub(crate) fn fix_path(path: &std::path::Path) -> String {
    relative(&crate::source::display_path(path))
}
