//! `terraform fmt`'s alignment of one file, worked out once for all the fixes that edit it:
//! which lines each edit's window of aligned lines spans, whether that window is aligned as
//! fmt aligns it, and whether the edit leaves it so. Each of these is answered from per-line
//! facts and per-run summaries, without reading the window again, so that many fixes in one
//! long run of attributes cost in proportion to the lines they edit, not to the run once per
//! fix. The layout rules themselves are [`super::layout`]'s.

use std::ops::Range;

use super::TextEdit;
use super::layout::{Cells, cells};

/// The alignment facts of one native-syntax file.
pub struct Alignment<'t> {
    text: &'t str,
    /// Where each line starts, as `text.split('\n')` cuts them (a text ending with a line
    /// ending has an empty last line).
    line_starts: Vec<usize>,
    /// Per line: the start of the block of consecutive lines with a cell it is in, and the end
    /// (exclusive): the lines fmt's runs around an edit may reach.
    blocks: Vec<Range<u32>>,
    /// The number of lines before each line (and one past the last) that fmt would change:
    /// lines it cannot measure, lines of runs it aligns otherwise.
    unaligned_before: Vec<u32>,
    assign: Runs,
    comment: Runs,
}

/// One kind of cell (an attribute's `=`, or a trailing comment) over the lines of a file.
struct Runs {
    /// Per line: the cell, if the line has one.
    cells: Vec<Option<Column>>,
    /// Per line with a cell: the lines of the run of consecutive such lines it is in.
    runs: Vec<Range<u32>>,
    /// The number of lines before each line (and one past the last) whose cell is tight.
    tight_before: Vec<u32>,
}

/// Where a cell starts and how wide the text before it is.
#[derive(Clone, Copy)]
struct Column {
    /// Where the cell starts on its line: fmt puts it one space after the widest text before
    /// the cells of its run.
    at: usize,
    /// The width of the text before it, trailing blanks left out.
    width: usize,
    /// Whether only spaces, at least one, stand between that text and the cell, as fmt writes.
    padded: bool,
}

impl Column {
    fn of(line: &str, at: Option<usize>) -> Option<Column> {
        let at = at?;
        let width = line[..at].trim_end().len();
        let padding = &line[width..at];
        Some(Column {
            at,
            width,
            padded: !padding.is_empty() && padding.bytes().all(|b| b == b' '),
        })
    }

    /// Whether the text before it is the widest of an aligned run: one space before the cell.
    fn tight(&self) -> bool {
        self.padded && self.at == self.width + 1
    }
}

/// A piece of an edited window as its runs see it: lines the edits leave as they are,
/// summarised, an edited line, or a line without the cell, which ends a run.
enum Item {
    /// Lines of one run of the text as read, aligned: their cells at one column.
    Kept {
        at: usize,
        tight: bool,
    },
    Edited(Column),
    Break,
}

impl Runs {
    fn new(cells: Vec<Option<Column>>) -> Runs {
        let mut runs = vec![0..0; cells.len()];
        let mut start = 0;
        for line in 0..=cells.len() {
            if cells.get(line).is_none_or(Option::is_none) {
                for run in &mut runs[start..line] {
                    *run = start as u32..line as u32;
                }
                start = line + 1;
            }
        }
        let mut tight_before = Vec::with_capacity(cells.len() + 1);
        let mut count = 0;
        tight_before.push(0);
        for cell in &cells {
            count += u32::from(cell.is_some_and(|c| c.tight()));
            tight_before.push(count);
        }
        Runs {
            cells,
            runs,
            tight_before,
        }
    }

    /// Whether fmt leaves the run of `line` as it is: every cell at one column, one space
    /// after the widest text before them.
    fn run_is_aligned(&self, run: &Range<u32>) -> bool {
        let lines = &self.cells[run.start as usize..run.end as usize];
        let widest = lines.iter().flatten().map(|c| c.width).max();
        lines
            .iter()
            .flatten()
            .all(|c| c.padded && Some(c.at) == widest.map(|w| w + 1))
    }

    fn any_tight(&self, lines: Range<usize>) -> bool {
        self.tight_before[lines.end] > self.tight_before[lines.start]
    }

    /// The lines `lines` of the text as read, inside an aligned window, as items.
    fn kept(&self, lines: Range<usize>, out: &mut Vec<Item>) {
        let (first, last) = (lines.start, lines.end - 1);
        let mut end_of_first = lines.start;
        if let Some(cell) = self.cells[first] {
            end_of_first = (self.runs[first].end as usize).min(lines.end);
            out.push(Item::Kept {
                at: cell.at,
                tight: self.any_tight(first..end_of_first),
            });
        }
        if end_of_first < lines.end {
            out.push(Item::Break);
            if let Some(cell) = self.cells[last] {
                let start = (self.runs[last].start as usize).max(end_of_first);
                out.push(Item::Kept {
                    at: cell.at,
                    tight: self.any_tight(start..lines.end),
                });
            }
        }
    }
}

/// Whether each run of `items` is aligned as fmt aligns it.
fn items_aligned(items: &[Item]) -> bool {
    items.split(|item| matches!(item, Item::Break)).all(|run| {
        let column = |item: &Item| match item {
            Item::Kept { at, .. } => *at,
            Item::Edited(cell) => cell.at,
            Item::Break => unreachable!("runs are split at breaks"),
        };
        let Some(first) = run.first() else {
            return true;
        };
        let at = column(first);
        let tight = |item: &Item| match item {
            Item::Kept { tight, .. } => *tight,
            Item::Edited(cell) => cell.tight(),
            Item::Break => false,
        };
        run.iter()
            .all(|item| column(item) == at && !matches!(item, Item::Edited(cell) if !cell.padded))
            && run.iter().any(tight)
    })
}

impl<'t> Alignment<'t> {
    pub fn new(text: &'t str) -> Alignment<'t> {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(at, _)| at + 1));
        let lines: Vec<&str> = (0..line_starts.len())
            .map(|i| line_of(text, &line_starts, i))
            .collect();
        let all: Vec<Cells> = lines.iter().map(|line| cells(line)).collect();
        let assign = Runs::new(
            (lines.iter().zip(&all))
                .map(|(line, c)| Column::of(line, c.equals))
                .collect(),
        );
        let comment = Runs::new(
            (lines.iter().zip(&all))
                .map(|(line, c)| Column::of(line, c.comment))
                .collect(),
        );
        let mut blocks = vec![0..0; lines.len()];
        let mut start = 0;
        for line in 0..=lines.len() {
            if all.get(line).is_none_or(|c| !c.any()) {
                for block in &mut blocks[start..line] {
                    *block = start as u32..line as u32;
                }
                start = line + 1;
            }
        }
        // A line fmt would change: one it cannot measure, or one of a run it aligns otherwise.
        // (Comment runs are judged on the text as read: a window whose attributes fmt would
        // move is not aligned whatever its comments are.)
        let mut unaligned = vec![false; lines.len()];
        for (line, c) in all.iter().enumerate() {
            unaligned[line] |= !c.measurable;
        }
        for runs in [&assign, &comment] {
            let mut line = 0;
            while line < lines.len() {
                if runs.cells[line].is_none() {
                    line += 1;
                    continue;
                }
                let run = runs.runs[line].clone();
                if !runs.run_is_aligned(&run) {
                    unaligned[run.start as usize..run.end as usize].fill(true);
                }
                line = run.end as usize;
            }
        }
        let mut unaligned_before = Vec::with_capacity(lines.len() + 1);
        let mut count = 0;
        unaligned_before.push(0);
        for &line in &unaligned {
            count += u32::from(line);
            unaligned_before.push(count);
        }
        Alignment {
            text,
            line_starts,
            blocks,
            unaligned_before,
            assign,
            comment,
        }
    }

    pub fn text(&self) -> &'t str {
        self.text
    }

    /// The line `at` is on.
    fn line_at(&self, at: usize) -> usize {
        self.line_starts.partition_point(|&start| start <= at) - 1
    }

    /// Where the line after `line` starts (the text's end for the last line).
    fn line_end(&self, line: usize) -> usize {
        self.line_starts
            .get(line + 1)
            .copied()
            .unwrap_or(self.text.len())
    }

    /// The whole lines around `range`: from the start of the first line it touches to the end
    /// (line ending included) of the last, widened over the neighbouring lines that have an
    /// assign or comment cell, where fmt's runs of aligned lines may go on.
    pub fn region(&self, range: Range<usize>) -> Range<usize> {
        let mut first = self.line_at(range.start);
        if first > 0 && self.has_cells(first - 1) {
            first = self.blocks[first - 1].start as usize;
        }
        let start = self.line_starts[first];
        // The line after the edit: an edit ending with a line ending ends before it.
        let after = if range.end > range.start && self.text[..range.end].ends_with('\n') {
            self.line_at(range.end)
        } else {
            self.line_at(range.end.max(start)) + 1
        };
        let mut end = self
            .line_starts
            .get(after)
            .copied()
            .unwrap_or(self.text.len());
        if end < self.text.len() && self.has_cells(after) {
            end = self.line_end(self.blocks[after].end as usize - 1);
        }
        start..end
    }

    fn has_cells(&self, line: usize) -> bool {
        let block = &self.blocks[line];
        (block.start..block.end).contains(&(line as u32))
    }

    /// The lines a window (whole lines, as [`Alignment::region`] gives) holds.
    fn lines_of(&self, window: &Range<usize>) -> Range<usize> {
        let first = self.line_at(window.start);
        let end = if window.end >= self.text.len() {
            self.line_starts.len()
        } else {
            self.line_at(window.end)
        };
        first..end
    }

    /// Whether the window is aligned as `terraform fmt` aligns it.
    pub fn is_aligned(&self, window: &Range<usize>) -> bool {
        let lines = self.lines_of(window);
        self.unaligned_before[lines.end] == self.unaligned_before[lines.start]
    }

    /// Whether fmt would leave the aligned `window` as it is once `edits` (inside it, in order,
    /// apart) are made: `Some(true)` when it would, or cannot measure a line the edits write;
    /// `Some(false)` when it would re-align something; `None` when this cannot tell without
    /// the window's edited text (an edit that joins its last line to the line after it).
    pub fn edits_keep_alignment(&self, window: &Range<usize>, edits: &[&TextEdit]) -> Option<bool> {
        let window_lines = self.lines_of(window);
        // The lines each edit touches, merged where they meet, with their edits.
        let mut spans: Vec<(Range<usize>, Range<usize>)> = Vec::new();
        for (index, edit) in edits.iter().enumerate() {
            let first = self.line_at(edit.range.start);
            let end = if edit.range.end > edit.range.start
                && self.text[..edit.range.end].ends_with('\n')
            {
                self.line_at(edit.range.end)
            } else {
                self.line_at(edit.range.end) + 1
            };
            match spans.last_mut() {
                Some((lines, mine)) if lines.end >= first => {
                    lines.end = lines.end.max(end);
                    mine.end = index + 1;
                }
                _ => spans.push((first..end, index..index + 1)),
            }
        }
        // Each span's text once edited.
        let mut texts: Vec<String> = Vec::with_capacity(spans.len());
        for (lines, mine) in &spans {
            let bytes = self.line_starts[lines.start]..self.line_end(lines.end - 1);
            let mut edited = String::new();
            let mut copied = bytes.start;
            for edit in &edits[mine.clone()] {
                edited.push_str(&self.text[copied..edit.range.start]);
                edited.push_str(&edit.replacement);
                copied = edit.range.end;
            }
            edited.push_str(&self.text[copied..bytes.end]);
            let joins_next = bytes.end < self.text.len() && !edited.is_empty();
            if joins_next && !edited.ends_with('\n') {
                return None;
            }
            texts.push(edited);
        }
        let edited_lines = |edited: &str| -> Vec<String> {
            let mut lines: Vec<&str> = edited.split('\n').collect();
            if edited.ends_with('\n') || edited.is_empty() {
                lines.pop();
            }
            (lines.iter())
                .map(|l| l.trim_end_matches('\r').to_string())
                .collect()
        };
        let mut written: Vec<Vec<String>> = Vec::new();
        for edited in &texts {
            let lines = edited_lines(edited);
            if lines.iter().any(|line| !cells(line).measurable) {
                return Some(true);
            }
            written.push(lines);
        }
        for (runs, cell_of) in [
            (
                &self.assign,
                (|c: &Cells| c.equals) as fn(&Cells) -> Option<usize>,
            ),
            (&self.comment, |c: &Cells| c.comment),
        ] {
            let mut items = Vec::new();
            let mut next = window_lines.start;
            for ((lines, _), written) in spans.iter().zip(&written) {
                if next < lines.start {
                    runs.kept(next..lines.start, &mut items);
                }
                for line in written {
                    items.push(match Column::of(line, cell_of(&cells(line))) {
                        Some(cell) => Item::Edited(cell),
                        None => Item::Break,
                    });
                }
                next = lines.end;
            }
            if next < window_lines.end {
                runs.kept(next..window_lines.end, &mut items);
            }
            if !items_aligned(&items) {
                return Some(false);
            }
        }
        Some(true)
    }
}

/// The line `index` of `text` without its line ending.
fn line_of<'t>(text: &'t str, line_starts: &[usize], index: usize) -> &'t str {
    let end = line_starts
        .get(index + 1)
        .map_or(text.len(), |next| next - 1);
    text[line_starts[index]..end].trim_end_matches('\r')
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::super::layout::{alignment_region, is_fmt_aligned, realigned};
    use super::*;

    /// Files with runs of attributes and trailing comments, aligned and not, with lines fmt
    /// cannot measure and CRLF line endings.
    const TEXTS: &[&str] = &[
        "locals {\n  a    = 1\n  long = 2 # c\n  bb   = 3 # d\n}\n",
        "locals {\n  a  = 1 # x\n  bb = 2 # y\n\n  ccc = 3\n  d   = 4\n}\n",
        "a   = 1 # one\nbbb = 2 # two\n# lone\nc = 3   # three\ndd = 44 # four\n",
        "locals {\r\n  a  = 1\r\n  bb = 2\r\n}\r\n",
        "locals {\n  a = <<EOT\nx = 1\nEOT\n  b = 2\n}\n",
        "x = 1\ny = 2",
        "locals {\n  a = 1\n  long = 2\n  bb   = 3\n}\n",
        "a  = 1 # tflint-merge-ignore: x\nbb = 2 # tflint-merge-ignore: y\n",
    ];

    /// Every edit of the kinds fixes make: removing a line, a trailing comment, the end of a
    /// line and its line ending, an insertion of a longer or shorter attribute.
    fn edits(text: &str) -> Vec<Range<usize>> {
        let mut found = Vec::new();
        let mut start = 0;
        for line in text.split_inclusive('\n') {
            let end = start + line.len();
            found.push(start..end);
            found.push(start..start);
            if let Some(at) = line.find('#') {
                found.push(start + at..start + line.trim_end().len());
            }
            if line.ends_with('\n') {
                found.push(end - 1..end);
            }
            start = end;
        }
        found.push(text.len()..text.len());
        found
    }

    /// The index answers as reading the window does (`layout`'s own functions): the window,
    /// whether it is aligned, and whether an edit leaves it so.
    #[test]
    fn answers_as_reading_the_window_does() {
        for text in TEXTS {
            let alignment = Alignment::new(text);
            for range in edits(text) {
                for replacement in ["", "  longer_name = 5\n", "  z = 6\n", "\n", "  q = 7"] {
                    let window = alignment.region(range.clone());
                    assert_eq!(
                        window,
                        alignment_region(text, range.clone()),
                        "{text:?} {range:?}"
                    );
                    let before = &text[window.clone()];
                    assert_eq!(
                        alignment.is_aligned(&window),
                        is_fmt_aligned(before),
                        "{text:?}"
                    );
                    if !is_fmt_aligned(before) {
                        continue;
                    }
                    let edit = TextEdit {
                        path: PathBuf::from("main.tf"),
                        range: range.clone(),
                        replacement: replacement.to_string(),
                    };
                    let mut after = before.to_string();
                    after.replace_range(
                        range.start - window.start..range.end - window.start,
                        replacement,
                    );
                    let keeps = realigned(&after).is_none();
                    if let Some(answer) = alignment.edits_keep_alignment(&window, &[&edit]) {
                        assert_eq!(answer, keeps, "{text:?} {range:?} {after:?}");
                    }
                }
            }
        }
    }
}
