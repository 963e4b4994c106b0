//! The source map of an effective module written by `merged --out`: for each piece of the
//! printed file, the base or override file, line and column whose text it is. `map-sarif`
//! reads it back to move another tool's findings from the printed file to the user's files.
//!
//! Its JSON form (documented in the README, "Scanning the effective module"):
//!
//! ```json
//! { "version": 1, "view": "terraform",
//!   "files": [ { "path": "modules/vpc/effective.tf", "module": "modules/vpc",
//!                "segments": [ { "line": 3, "column": 1, "lines": 1,
//!                                "file": "modules/vpc/main.tf", "source_line": 1,
//!                                "source_column": 1, "origin": "base" } ] } ] }
//! ```
//!
//! A segment says that the printed text at `line`:`column` is the source text at
//! `source_line`:`source_column` of `file`, up to the next segment of the line; with `lines`
//! above one, the next `lines - 1` printed lines are copied as written from the source lines
//! after it (a multi-line expression), column for column. Lines and columns are 1-based,
//! columns counted in characters.

use serde_json::{Value, json};

use super::print::Mark;
use crate::source::SourceFiles;

/// One piece of the printed text and where it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub line: usize,
    pub column: usize,
    pub lines: usize,
    pub file: String,
    pub source_line: usize,
    pub source_column: usize,
    /// Whether `file` is an override file.
    pub is_override: bool,
}

/// The segments of a printed text, from the marks the printer left in it.
pub(crate) fn segments(text: &str, marks: &[Mark], files: &SourceFiles) -> Vec<Segment> {
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    marks
        .iter()
        .map(|mark| {
            let index = line_starts.partition_point(|&s| s <= mark.out_offset) - 1;
            let line_start = line_starts[index];
            let column = text
                .get(line_start..mark.out_offset)
                .map_or(0, |s| s.chars().count());
            let file = files.get(mark.span.file);
            let (source_line, source_column) = file.line_col(mark.span.start as usize);
            Segment {
                line: index + 1,
                column: column + 1,
                lines: mark.lines.max(1),
                file: file.display.to_string(),
                source_line,
                source_column,
                is_override: crate::knowledge::files::classify(file.file_name())
                    .is_some_and(|c| c.is_override),
            }
        })
        .collect()
}

pub fn segment_json(segment: &Segment) -> Value {
    json!({
        "line": segment.line,
        "column": segment.column,
        "lines": segment.lines,
        "file": segment.file,
        "source_line": segment.source_line,
        "source_column": segment.source_column,
        "origin": if segment.is_override { "override" } else { "base" },
    })
}

/// A segment read back from the JSON form; `None` when a field is missing or mistyped.
pub fn segment_from_json(value: &Value) -> Option<Segment> {
    let number = |key: &str| {
        value[key]
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n > 0)
    };
    Some(Segment {
        line: number("line")?,
        column: number("column")?,
        lines: number("lines")?,
        file: value["file"].as_str()?.to_string(),
        source_line: number("source_line")?,
        source_column: number("source_column")?,
        is_override: value["origin"].as_str()? == "override",
    })
}

/// A printed position mapped to its source: file, line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourcePoint<'a> {
    pub file: &'a str,
    pub line: usize,
    pub column: usize,
}

/// Where the printed `line`:`column` comes from (a column before the line's first segment,
/// such as the indentation, means that segment's start); `None` for a line no segment covers
/// (a comment, a blank line, a brace the printer added).
pub fn locate(segments: &[Segment], line: usize, column: usize) -> Option<SourcePoint<'_>> {
    let on_line: Vec<&Segment> = segments.iter().filter(|s| s.line == line).collect();
    if let Some(first) = on_line.iter().min_by_key(|s| s.column) {
        let segment = on_line
            .iter()
            .filter(|s| s.column <= column)
            .max_by_key(|s| s.column)
            .unwrap_or(first);
        return Some(SourcePoint {
            file: &segment.file,
            line: segment.source_line,
            column: (segment.source_column).saturating_add(column.saturating_sub(segment.column)),
        });
    }
    // A later line of a multi-line expression, copied as written: the same column.
    segments
        .iter()
        .find(|s| s.line < line && line < s.line.saturating_add(s.lines))
        .map(|s| SourcePoint {
            file: &s.file,
            line: s.source_line.saturating_add(line - s.line),
            column,
        })
}

/// The last printed line that a segment covers: no line after it maps.
pub fn last_line(segments: &[Segment]) -> usize {
    (segments.iter())
        .map(|s| s.line.saturating_add(s.lines - 1))
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segment(
        line: usize,
        column: usize,
        lines: usize,
        file: &str,
        at: (usize, usize),
    ) -> Segment {
        Segment {
            line,
            column,
            lines,
            file: file.into(),
            source_line: at.0,
            source_column: at.1,
            is_override: file.contains("override"),
        }
    }

    #[test]
    fn a_point_maps_through_the_segment_before_it_on_its_line() {
        let segments = [
            segment(4, 3, 1, "main.tf", (10, 3)),
            segment(4, 11, 3, "override.tf", (2, 12)),
        ];
        let at = |line, column| locate(&segments, line, column).map(|p| (p.file, p.line, p.column));
        assert_eq!(at(4, 1), Some(("main.tf", 10, 3)));
        assert_eq!(at(4, 5), Some(("main.tf", 10, 5)));
        assert_eq!(at(4, 13), Some(("override.tf", 2, 14)));
        // The expression's later lines, as written.
        assert_eq!(at(5, 7), Some(("override.tf", 3, 7)));
        assert_eq!(at(6, 1), Some(("override.tf", 4, 1)));
        assert_eq!(at(7, 1), None);
        assert_eq!(at(3, 1), None);
    }

    #[test]
    fn segments_read_back_as_written() {
        let written = segment(2, 5, 2, "x_override.tf", (7, 9));
        assert_eq!(segment_from_json(&segment_json(&written)), Some(written));
        assert_eq!(segment_from_json(&json!({"line": 1})), None);
    }
}
