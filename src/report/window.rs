//! The parts of very long source lines that the human format leaves out: a finding in a
//! minified file or a one-line JSON document shows the text around its labels, not the
//! megabytes of the line, so that the output grows with the findings and not with the line
//! (rustc and ruff cut long lines the same way).

use std::ops::Range;

/// Lines up to this many bytes (without their line break) are shown whole.
pub(crate) const LONG_LINE: usize = 512;
/// The bytes shown on either side of each label's start and end on a longer line.
pub(crate) const CONTEXT: usize = 128;
/// Runs shorter than this are shown rather than elided: `…` would hide little of them.
const MIN_ELIDED: usize = 32;

/// The runs of `line` (a range of `text`, with its line break) to show as `…`: none when the
/// line is at most [`LONG_LINE`] bytes; else all but [`CONTEXT`] bytes around each start and
/// end of `labels` (ranges of `text`) on it, or all but its first [`CONTEXT`] bytes when none
/// is. The line break is always shown; each run is on character boundaries, in order.
pub(crate) fn elided(text: &str, line: Range<usize>, labels: &[Range<usize>]) -> Vec<Range<usize>> {
    let Some(line_text) = text.get(line.clone()) else {
        return Vec::new();
    };
    let content = line_text.trim_end_matches(['\n', '\r']);
    if content.len() <= LONG_LINE {
        return Vec::new();
    }
    let end = line.start + content.len();
    let points = (labels.iter())
        .flat_map(|label| [label.start, label.end])
        .filter(|&point| (line.start..=end).contains(&point));
    let mut shown: Vec<Range<usize>> = points
        .map(|point| point.saturating_sub(CONTEXT).max(line.start)..(point + CONTEXT).min(end))
        .collect();
    if shown.is_empty() {
        shown.push(line.start..(line.start + CONTEXT).min(end));
    }
    // The line's ends, as empty runs shown, so that a short run at either end stays.
    shown.extend([line.start..line.start, end..end]);
    shown.sort_unstable_by_key(|run| run.start);
    let mut elided = Vec::new();
    let mut shown_to = line.start;
    for run in shown {
        if run.start >= shown_to + MIN_ELIDED {
            let from = boundary_at_or_after(text, shown_to);
            let to = boundary_at_or_before(text, run.start);
            if from < to {
                elided.push(from..to);
            }
        }
        shown_to = shown_to.max(run.end);
    }
    elided
}

/// The first character boundary of `text` at or after `at` (`str::ceil_char_boundary` is
/// newer than the crate's minimum Rust version).
pub(crate) fn boundary_at_or_after(text: &str, at: usize) -> usize {
    (at..text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len())
}

/// The last character boundary of `text` at or before `at`.
pub(crate) fn boundary_at_or_before(text: &str, at: usize) -> usize {
    (0..=at.min(text.len()))
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ranges given, as a list (a one-range array literal reads like a mistake to clippy).
    fn runs<const N: usize>(ranges: [(usize, usize); N]) -> Vec<Range<usize>> {
        ranges.iter().map(|&(start, end)| start..end).collect()
    }

    /// A short line is whole; a long one keeps the context of each label's ends and its line
    /// break, on character boundaries; one without a label keeps its start.
    #[test]
    fn long_lines_keep_the_context_of_their_labels() {
        let short = "x".repeat(LONG_LINE) + "\n";
        assert!(elided(&short, 0..short.len(), &runs([(0, 1)])).is_empty());

        let long = "é".repeat(2000) + "\r\n";
        let line = 0..long.len();
        let content = long.len() - 2;
        assert_eq!(elided(&long, line.clone(), &[]), runs([(128, content)]));
        assert_eq!(
            elided(&long, line.clone(), &runs([(0, 2)])),
            runs([(130, content)])
        );
        let found = elided(&long, line.clone(), &runs([(1000, 1002), (3000, 3998)]));
        assert_eq!(found, runs([(0, 872), (1130, 2872), (3128, 3870)]));
        // Ends closer than the context share what is shown.
        assert_eq!(
            elided(&long, line.clone(), &runs([(1000, 1100)])),
            runs([(0, 872), (1228, content)])
        );
        // A label on the next line does not count.
        assert_eq!(
            elided(&long, line, &runs([(long.len(), long.len() + 1)])),
            runs([(128, content)])
        );
    }
}
