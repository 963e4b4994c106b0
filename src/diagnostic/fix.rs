//! Fixes: what a finding proposes to change in the files, as plain data, and [`apply`], which
//! applies a list of fixes to in-memory texts. The command line's `--fix` and `--diff` use it
//! on the texts they read; an editor can use it on its buffers.
//!
//! A fix is byte edits of existing files, cut from the spans of the syntax model, plus
//! file-level operations (rename, delete, create). Edits never re-print a file: everything
//! outside the edited ranges stays byte-identical, comments and blank lines included.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::source::{SourceFiles, Span};

pub mod alignment;
pub mod layout;

use alignment::Alignment;

/// Whether a fix keeps what the tools run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Applicability {
    /// The effective module (as `tflint-merge merged` prints it) is the same before and after:
    /// `--fix` applies it.
    Safe,
    /// It changes what the tools run, as the finding asks: only `--unsafe-fixes` applies it.
    Unsafe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// Replace the bytes `range` of the file at `path` with `replacement` (an empty range inserts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    pub path: PathBuf,
    pub range: Range<usize>,
    pub replacement: String,
}

/// A change to a whole file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileOperation {
    /// Rename `from` to `to`, which must not exist.
    Rename { from: PathBuf, to: PathBuf },
    /// Delete the file.
    Delete { path: PathBuf },
    /// Create a file that must not exist.
    Create { path: PathBuf, content: String },
}

impl FileOperation {
    /// The paths it reads or writes.
    fn paths(&self) -> Vec<&Path> {
        match self {
            FileOperation::Rename { from, to } => vec![from, to],
            FileOperation::Delete { path } | FileOperation::Create { path, .. } => vec![path],
        }
    }
}

/// What a finding proposes: its edits and file operations, applied together or not at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// One line, imperative: "Remove the restated `ami`".
    pub title: String,
    pub applicability: Applicability,
    /// Byte edits of files as they were read; edits of one fix never overlap.
    pub edits: Vec<TextEdit>,
    /// Applied after the edits.
    pub operations: Vec<FileOperation>,
}

impl Fix {
    pub fn new(title: impl Into<String>, applicability: Applicability) -> Fix {
        Fix {
            title: title.into(),
            applicability,
            edits: Vec::new(),
            operations: Vec::new(),
        }
    }

    pub fn edit(mut self, path: &Path, range: Range<usize>, replacement: impl Into<String>) -> Fix {
        super::push_fitted(
            &mut self.edits,
            TextEdit {
                path: path.to_path_buf(),
                range,
                replacement: replacement.into(),
            },
        );
        self
    }

    pub fn operation(mut self, operation: FileOperation) -> Fix {
        self.operations.push(operation);
        self
    }

    /// Adds the edit that removes `span`, a setting or block from its name to its end (in JSON
    /// syntax: an object member from its key): with its lines when nothing else is on them,
    /// or, in a JSON file, with one comma.
    ///
    /// Removals from one file that meet are worked out one after the other on the text the
    /// earlier ones leave (two neighbouring JSON members share a comma), and kept as one edit
    /// (with the fix's other edits of that file).
    pub fn remove(mut self, files: &SourceFiles, span: Span) -> Fix {
        let file = files.get(span.file);
        let removal = |text: &str, range: Range<usize>| {
            if is_json(&file.path) {
                json_member_removal(text, range)
            } else {
                line_removal(text, range)
            }
        };
        let alone = removal(&file.text, span.range());
        let touches = |e: &TextEdit| {
            e.path == file.path
                && (overlap(&e.range, &alone)
                    || e.range.end == alone.start
                    || alone.end == e.range.start)
        };
        if !self.edits.iter().any(touches) {
            return self.edit(&file.path, alone, "");
        }
        let (mine, others): (Vec<TextEdit>, Vec<TextEdit>) =
            self.edits.into_iter().partition(|e| e.path == file.path);
        self.edits = others;
        // The text the fix's edits of this file leave, and where `span` is in it.
        let mut text = file.text.clone();
        let mut sorted = mine;
        sorted.sort_by_key(|e| e.range.start);
        let mut shift: isize = 0;
        for edit in &sorted {
            if edit.range.end <= span.range().start {
                shift += edit.replacement.len() as isize - edit.range.len() as isize;
            }
        }
        for edit in sorted.iter().rev() {
            text.replace_range(edit.range.clone(), &edit.replacement);
        }
        let moved = |at: usize| at.saturating_add_signed(shift);
        // One edit over the whole of what the edits and the removal change, in the original
        // text: from the start of the first to the end of the last. (Not from the first byte
        // that differs to the last: removing `"l0": 1, ` before `"l2": 3` changes the text from
        // the `0` of `"l0"` to the `l` of `"l2"`, and an edit must not cut into a string.)
        let mut start = sorted.first().map_or(usize::MAX, |e| e.range.start);
        let mut end = sorted.iter().map(|e| e.range.end).max().unwrap_or(0);
        let inside = sorted.iter().any(|e| overlap(&e.range, &span.range()));
        if !inside {
            let range = removal(&text, moved(span.range().start)..moved(span.range().end));
            start = start.min(original_position(&sorted, range.start, Side::Start));
            end = end.max(original_position(&sorted, range.end, Side::End));
            text.replace_range(range, "");
        }
        let kept_after = file.text.len() - end;
        let replacement = text[start..text.len() - kept_after].to_string();
        self.edit(&file.path, start..end, replacement)
    }

    /// [`Fix::remove`] of a setting or block that goes away (not one moved elsewhere), with
    /// the comments that describe it: in native syntax, the comment lines right above it and
    /// a comment after it on its last line ([`with_its_comments`]). Comments on the lines
    /// around, which describe its neighbours, stay.
    pub fn remove_with_comments(self, files: &SourceFiles, span: Span) -> Fix {
        let file = files.get(span.file);
        if is_json(&file.path) {
            return self.remove(files, span);
        }
        let range = with_its_comments(&file.text, span.range());
        self.remove(files, Span::new(span.file, range))
    }

    /// Keeps `terraform fmt`'s alignment around the edits of native-syntax files: where the
    /// lines around an edit (the runs of consecutive attributes and trailing comments it
    /// touches) were aligned as fmt aligns them, the edit is widened over those lines and
    /// re-aligns them, as `terraform fmt` would after the change (removing the longest name of
    /// a run narrows it, adding a longer one widens it). Lines the writer aligned otherwise
    /// are left as they are. `alignment_of` gives the alignment of an edited file as read
    /// (worked out once per file, for all its fixes); `keeps_strings` says whether replacing a
    /// range of it leaves its strings whole (the widened edit must not cut into a heredoc).
    pub fn aligned<'a, 't: 'a>(
        mut self,
        alignment_of: impl Fn(&Path) -> Option<&'a Alignment<'t>>,
        mut keeps_strings: impl FnMut(&Path, &Range<usize>) -> bool,
    ) -> Fix {
        let paths: BTreeSet<PathBuf> = (self.edits.iter())
            .filter(|e| !is_json(&e.path))
            .map(|e| e.path.clone())
            .collect();
        for path in paths {
            let Some(alignment) = alignment_of(&path) else {
                continue;
            };
            let mine: Vec<TextEdit> = (self.edits.iter())
                .filter(|e| e.path == path)
                .cloned()
                .collect();
            let Some(aligned) = aligned_edits(alignment, mine, |range| keeps_strings(&path, range))
            else {
                continue;
            };
            // The file's edits, re-aligned, where its first edit was: the others keep their order.
            let first = (self.edits.iter())
                .position(|e| e.path == path)
                .unwrap_or(self.edits.len());
            self.edits.retain(|e| e.path != path);
            let at = first.min(self.edits.len());
            self.edits.splice(at..at, aligned);
        }
        self
    }

    /// Every path the fix reads or writes, each once: what [`apply`] needs in its texts.
    pub fn paths(&self) -> BTreeSet<&Path> {
        let edited = self.edits.iter().map(|e| e.path.as_path());
        edited
            .chain(self.operations.iter().flat_map(FileOperation::paths))
            .collect()
    }
}

/// The edits `mine` of `text`, each widened over the lines around it that fmt aligns, when
/// they were aligned before and the edit changes how: see [`Fix::aligned`]. `None` when no
/// edit needs widening.
fn aligned_edits(
    alignment: &Alignment,
    mut mine: Vec<TextEdit>,
    mut keeps_strings: impl FnMut(&Range<usize>) -> bool,
) -> Option<Vec<TextEdit>> {
    mine.sort_by_key(|e| (e.range.start, e.range.end));
    if mine.windows(2).any(|w| overlap(&w[0].range, &w[1].range)) {
        return None;
    }
    // The lines around each edit where fmt's runs may change, merged where they meet. The
    // lines just outside such a window are lines the edits leave as they are, with no cell:
    // the runs in the edited text end there too. Each window is worked out on its own text,
    // so that a file with many fixes is not copied once per fix, and whether it changes is
    // told from the file's alignment, so that a long run is not read again per fix.
    let text = alignment.text();
    let mut windows: Vec<Range<usize>> = Vec::new();
    for edit in &mine {
        let window = alignment.region(edit.range.clone());
        match windows.last_mut() {
            Some(last) if last.end >= window.start => last.end = last.end.max(window.end),
            _ => windows.push(window),
        }
    }
    let mut replaced: Vec<TextEdit> = Vec::new();
    for window in windows {
        let touching: Vec<&TextEdit> = mine.iter().filter(|e| in_window(e, &window)).collect();
        let straddles = |e: &&TextEdit| e.range.start < window.start || window.end < e.range.end;
        if touching.iter().any(straddles) {
            continue;
        }
        if !alignment.is_aligned(&window)
            || alignment.edits_keep_alignment(&window, &touching) == Some(true)
            || !keeps_strings(&window)
        {
            continue;
        }
        let before = &text[window.clone()];
        let mut after = before.to_string();
        for edit in touching.iter().rev() {
            let range = edit.range.start - window.start..edit.range.end - window.start;
            after.replace_range(range, &edit.replacement);
        }
        if let Some(replacement) = layout::realigned(&after) {
            replaced.push(TextEdit {
                path: mine[0].path.clone(),
                range: window,
                replacement,
            });
        }
    }
    if replaced.is_empty() {
        return None;
    }
    // The edits inside a widened one are part of it.
    mine.retain(|e| !replaced.iter().any(|r| in_window(e, &r.range)));
    mine.append(&mut replaced);
    mine.sort_by_key(|e| (e.range.start, e.range.end));
    Some(mine)
}

/// Whether the edit `e` changes something of `window`: it overlaps it, or inserts in it (at its
/// start included, at its end not).
fn in_window(e: &TextEdit, window: &Range<usize>) -> bool {
    e.range.start < window.end && window.start < e.range.end.max(e.range.start + 1)
}

/// Which end of a range a position is: see [`original_position`].
#[derive(Clone, Copy, PartialEq)]
enum Side {
    Start,
    End,
}

/// Where the position `at` of the text that the edits `sorted` (in order, apart) leave is in the
/// text they were made on. A position in an edit's replacement, or at either end of it, is
/// the start of the edit's range as the start of a range and its end as the end of one, so
/// that a range mapped back covers every edit it touches.
fn original_position(sorted: &[TextEdit], at: usize, side: Side) -> usize {
    let mut shift: isize = 0;
    for edit in sorted {
        let new_start = edit.range.start.saturating_add_signed(shift);
        let new_end = new_start + edit.replacement.len();
        if at < new_start {
            break;
        }
        if at <= new_end {
            return match side {
                Side::Start => edit.range.start,
                Side::End => edit.range.end,
            };
        }
        shift += edit.replacement.len() as isize - edit.range.len() as isize;
    }
    at.saturating_add_signed(-shift)
}

/// File contents by path: `Some(text)` for a file that exists, `None` for one that does not.
/// [`apply`] needs every path of the fixes it is given ([`Fix::paths`]).
pub type Texts = BTreeMap<PathBuf, Option<String>>;

/// What [`apply`] did with each fix, by index in the list it was given.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub applied: Vec<usize>,
    /// Fixes that touch what an earlier fix of the list changes: apply them to the result
    /// (after checking the files again, since their ranges are of the old texts).
    pub deferred: Vec<usize>,
    /// Fixes that cannot apply to these texts, with why (a range beyond the text, a rename
    /// onto an existing file...).
    pub invalid: Vec<(usize, String)>,
}

/// Applies `fixes` to `texts`, in one pass: each fix whose edits overlap none of an earlier
/// applied fix's edits, and whose file operations touch no file an earlier applied fix
/// touches, is applied; the others are deferred. The result depends only on the order of
/// `fixes`. Ranges are of the texts as given: all accepted edits of a file are applied at once.
pub fn apply(texts: &mut Texts, fixes: &[&Fix]) -> Outcome {
    let mut outcome = Outcome::default();
    // Accepted edits per file, and files that accepted operations touch.
    let mut edits: BTreeMap<&Path, Vec<&TextEdit>> = BTreeMap::new();
    // The accepted edits' ranges per file, start to end: a new edit is looked up among them,
    // not compared with each (a hundred thousand fixes may edit one file).
    let mut taken: BTreeMap<&Path, BTreeMap<usize, usize>> = BTreeMap::new();
    let mut operated: BTreeSet<&Path> = BTreeSet::new();
    let mut operations: Vec<&FileOperation> = Vec::new();
    for (index, fix) in fixes.iter().enumerate() {
        if let Err(problem) = validate(fix, texts) {
            outcome.invalid.push((index, problem));
            continue;
        }
        let clashes = fix.edits.iter().any(|edit| {
            let text = texts
                .get(&edit.path)
                .and_then(Option::as_deref)
                .unwrap_or("");
            operated.contains(edit.path.as_path())
                || (taken.get(edit.path.as_path()))
                    .is_some_and(|done| clashes(done, text, &edit.range))
        }) || fix
            .operations
            .iter()
            .flat_map(FileOperation::paths)
            .any(|path| operated.contains(path) || edits.contains_key(path));
        if clashes {
            outcome.deferred.push(index);
            continue;
        }
        for edit in &fix.edits {
            edits.entry(edit.path.as_path()).or_default().push(edit);
            let ranges = taken.entry(edit.path.as_path()).or_default();
            ranges.insert(edit.range.start, edit.range.end);
        }
        for operation in &fix.operations {
            operated.extend(operation.paths());
            operations.push(operation);
        }
        outcome.applied.push(index);
    }
    for (path, mut file_edits) in edits {
        if let Some(Some(text)) = texts.get_mut(path) {
            file_edits.sort_by_key(|e| (e.range.start, e.range.end));
            // One pass over the text, not one shift of its tail per edit.
            let mut edited = String::with_capacity(text.len());
            let mut copied = 0;
            for edit in file_edits {
                edited.push_str(&text[copied..edit.range.start]);
                edited.push_str(&edit.replacement);
                copied = edit.range.end;
            }
            edited.push_str(&text[copied..]);
            *text = edited;
        }
    }
    for operation in operations {
        match operation {
            FileOperation::Rename { from, to } => {
                let text = texts.insert(from.clone(), None).flatten();
                texts.insert(to.clone(), text);
            }
            FileOperation::Delete { path } => {
                texts.insert(path.clone(), None);
            }
            FileOperation::Create { path, content } => {
                texts.insert(path.clone(), Some(content.clone()));
            }
        }
    }
    outcome
}

/// Whether `range` [`overlap`]s one of `taken` (ranges by start, no two overlapping) or
/// [`lines_meet`] one of them in `text`: only the ranges starting nearest before and after it
/// can (a range that ends where `range` starts, or starts where it ends, is one of those two
/// unless another overlaps `range` already).
fn clashes(taken: &BTreeMap<usize, usize>, text: &str, range: &Range<usize>) -> bool {
    let before = taken.range(..=range.start).next_back();
    let after = taken.range(range.start + 1..).next();
    (before.into_iter().chain(after)).any(|(&start, &end)| {
        let done = start..end;
        overlap(&done, range) || lines_meet(text, &done, range)
    })
}

/// Two edits overlap when their ranges share a byte, or when both start at the same place (two
/// insertions there, or an insertion and a replacement, have no one right order).
fn overlap(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start == b.start || (a.start < b.end && b.start < a.end)
}

/// Whether two edits meet at the start of a line with a blank line (or the file's start or end)
/// on either side of both: two whole-line removals computed each on its own keep both blank
/// lines (`x`, blank, `a`, `b`, blank, `y` with `a` and `b` removed leaves two blank lines in a
/// row). The later one waits for the next pass, where its removal is worked out on the text
/// the earlier one leaves. Edits that meet elsewhere apply together, as before.
fn lines_meet(text: &str, a: &Range<usize>, b: &Range<usize>) -> bool {
    let (first, second) = if a.start <= b.start { (a, b) } else { (b, a) };
    let at_line_start = |at: usize| at == 0 || text.as_bytes().get(at - 1) == Some(&b'\n');
    if first.end != second.start || !at_line_start(first.end) || !at_line_start(first.start) {
        return false;
    }
    let blank_before = first.start == 0 || {
        let previous = text[..first.start - 1].rfind('\n').map_or(0, |i| i + 1);
        text[previous..first.start].trim().is_empty()
    };
    let next = &text[second.end..];
    let blank_after = next
        .split('\n')
        .next()
        .is_none_or(|line| line.trim().is_empty());
    blank_before && blank_after
}

/// Checks a fix against the texts: every edit inside its file and on character boundaries,
/// edits of the fix disjoint, operations possible.
fn validate(fix: &Fix, texts: &Texts) -> Result<(), String> {
    let text_of = |path: &Path| texts.get(path).and_then(Option::as_ref);
    for (i, edit) in fix.edits.iter().enumerate() {
        let shown = edit.path.display();
        let Some(text) = text_of(&edit.path) else {
            return Err(format!("{shown} does not exist"));
        };
        let range = &edit.range;
        if range.start > range.end
            || !text.is_char_boundary(range.start)
            || !text.is_char_boundary(range.end)
        {
            return Err(format!(
                "{shown}: bytes {range:?} are not a range of the file"
            ));
        }
        let others = &fix.edits[i + 1..];
        if others
            .iter()
            .any(|o| o.path == edit.path && overlap(&o.range, range))
        {
            return Err(format!("{shown}: the fix's own edits overlap"));
        }
    }
    for operation in &fix.operations {
        let (must_exist, must_not_exist) = match operation {
            FileOperation::Rename { from, to } => (Some(from), Some(to)),
            FileOperation::Delete { path } => (Some(path), None),
            FileOperation::Create { path, .. } => (None, Some(path)),
        };
        if let Some(path) = must_exist.filter(|p| text_of(p).is_none()) {
            return Err(format!("{} does not exist", path.display()));
        }
        if let Some(path) = must_not_exist.filter(|p| text_of(p).is_some()) {
            return Err(format!("{} exists already", path.display()));
        }
    }
    Ok(())
}

/// Whether a path is a JSON-syntax configuration file (`.tf.json`, `.tofu.json`, `.hcl.json`).
pub fn is_json(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "json")
}

/// The range that removes the text `range` of `text` with its whole lines, when nothing but
/// blanks shares them, and a blank line next to them where removing only the lines would leave
/// two blank lines in a row, or one right after an opening brace or before a closing one (so
/// that removing a paragraph leaves the layout a person would have written); else `range`
/// itself, with the blanks that separated it from the rest of its line.
pub fn line_removal(text: &str, range: Range<usize>) -> Range<usize> {
    let line_start = text[..range.start].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..range.start];
    let line_end = text[range.end..]
        .find('\n')
        .map_or(text.len(), |i| range.end + i + 1);
    let after = &text[range.end..line_end];
    let blank = |s: &str| s.trim().is_empty();
    if !(blank(before) && blank(after)) {
        if blank(before) {
            let blanks_after = after.len() - after.trim_start().len();
            return range.start..range.end + blanks_after;
        }
        let blanks_before = before.len() - before.trim_end().len();
        return range.start - blanks_before..range.end;
    }
    // The line before (its start and text) and the line after, if any.
    let previous = (line_start > 0).then(|| {
        let start = text[..line_start - 1].rfind('\n').map_or(0, |i| i + 1);
        (start, &text[start..line_start])
    });
    let next_end = text[line_end..]
        .find('\n')
        .map_or(text.len(), |i| line_end + i + 1);
    let next = (line_end < text.len()).then(|| &text[line_end..next_end]);
    let previous_blank = previous.is_none_or(|(_, line)| blank(line));
    let opener = previous.is_some_and(|(_, l)| l.trim_end().ends_with(['{', '[', '(']));
    let closer = next.is_none_or(|l| l.trim_start().starts_with(['}', ']', ')']));
    match (previous, next) {
        (_, Some(line)) if blank(line) && (previous_blank || opener) => line_start..next_end,
        (Some((start, line)), _) if blank(line) && closer => start..line_end,
        _ => line_start..line_end,
    }
}

/// The range that removes an element of a comma-separated list (an object's `key = value`,
/// written from `range`) with the comma after it, if any: with its line when nothing else is
/// on it, else with the blanks that separated it from the next element.
pub fn list_item_removal(text: &str, range: Range<usize>) -> Range<usize> {
    let rest = &text[range.end..];
    let spaces = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    if !rest[spaces..].starts_with(',') {
        return line_removal(text, range);
    }
    let after_comma = &rest[spaces + 1..];
    let blanks = after_comma.len() - after_comma.trim_start_matches([' ', '\t']).len();
    let end = range.end + spaces + 1 + blanks;
    let line_start = text[..range.start].rfind('\n').map_or(0, |i| i + 1);
    let alone = text[line_start..range.start].trim().is_empty()
        && text[end..]
            .split('\n')
            .next()
            .is_some_and(|s| s.trim().is_empty());
    if alone {
        line_removal(text, range.start..end)
    } else {
        range.start..end
    }
}

/// `range` (a setting or block of a native-syntax file, from its name to its end) widened
/// over the comments that describe it: the comment lines right above it
/// ([`leading_comments_start`]), and the comments that follow it on its last line when
/// nothing else does (`# ...`, `// ...`, `/* ... */` closed on that line).
pub fn with_its_comments(text: &str, range: Range<usize>) -> Range<usize> {
    let start = leading_comments_start(text, range.start);
    let line_end = text[range.end..]
        .find('\n')
        .map_or(text.len(), |i| range.end + i);
    let after = text[range.end..line_end].trim_end();
    // The comments after it, one after the other, up to the end of the line: anything else
    // there (a comma, another setting) and it keeps its end.
    let mut rest = after.trim_start();
    let only_comments = loop {
        if rest.is_empty() {
            break true;
        }
        if rest.starts_with('#') || rest.starts_with("//") {
            break true;
        }
        match rest
            .strip_prefix("/*")
            .and_then(|inner| inner.find("*/").map(|c| &inner[c + 2..]))
        {
            Some(next) => rest = next.trim_start(),
            None => break false,
        }
    };
    let end = if only_comments {
        range.end + after.len()
    } else {
        range.end
    };
    start..end
}

/// Where the comment lines right above the line of `start` begin (`#` and `//` lines, with no
/// blank line between them and it): a block's own comments, which go where the block goes.
/// `start` itself when there are none or something precedes `start` on its line.
pub fn leading_comments_start(text: &str, start: usize) -> usize {
    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |i| i + 1);
    let mut first = line_start(start);
    if !text[first..start].trim().is_empty() {
        return start;
    }
    let mut found = None;
    while first > 0 {
        let previous = line_start(first - 1);
        let line = text[previous..first].trim();
        if !(line.starts_with('#') || line.starts_with("//")) {
            break;
        }
        found = Some(previous);
        first = previous;
    }
    found.map_or(start, |at| {
        at + (text[at..].len() - text[at..].trim_start().len())
    })
}

/// The range that removes a JSON object member (`"key": value`, from the key's opening quote
/// to the value's end) with one comma: the one after it and the blanks up to the next member,
/// or, for the last member, the comma before it and the blanks before that comma's member's
/// end. The rest of the object keeps its layout.
pub fn json_member_removal(text: &str, member: Range<usize>) -> Range<usize> {
    let rest = &text[member.end..];
    let after_blanks = rest.len() - rest.trim_start().len();
    if rest[after_blanks..].starts_with(',') {
        let after_comma = &rest[after_blanks + 1..];
        let next = after_comma.len() - after_comma.trim_start().len();
        return member.start..member.end + after_blanks + 1 + next;
    }
    let head = &text[..member.start];
    let trimmed = head.trim_end();
    match trimmed.strip_suffix(',') {
        Some(before_comma) => before_comma.len()..member.end,
        None => member,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(files: &[(&str, Option<&str>)]) -> Texts {
        (files.iter())
            .map(|(p, t)| (PathBuf::from(p), t.map(str::to_string)))
            .collect()
    }

    fn removal(title: &str, path: &str, range: Range<usize>) -> Fix {
        Fix::new(title, Applicability::Safe).edit(Path::new(path), range, "")
    }

    #[test]
    fn disjoint_edits_apply_in_one_pass_and_overlapping_ones_wait() {
        let mut files = texts(&[("a.tf", Some("0123456789"))]);
        let first = removal("a", "a.tf", 1..3);
        let second = removal("b", "a.tf", 5..7);
        let overlapping = removal("c", "a.tf", 2..6);
        let outcome = apply(&mut files, &[&first, &second, &overlapping]);
        assert_eq!(outcome.applied, [0, 1]);
        assert_eq!(outcome.deferred, [2]);
        assert_eq!(files[Path::new("a.tf")].as_deref(), Some("034789"));
    }

    /// Looking a range up among the accepted ones finds a clash exactly where comparing it with
    /// each of them does: ranges of every length (insertions too), in many orders.
    #[test]
    fn accepted_ranges_are_looked_up_as_compared_with_each() {
        let mut seed: u64 = 7;
        let mut next = |below: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            usize::try_from((seed >> 33) % below).expect("small")
        };
        for _ in 0..200 {
            let mut files = texts(&[("a.tf", Some("0123456789abcdefghij"))]);
            let fixes: Vec<Fix> = (0..8)
                .map(|i| {
                    let start = next(20);
                    let end = (start + next(4)).min(20);
                    removal(&i.to_string(), "a.tf", start..end)
                })
                .collect();
            let mut accepted: Vec<Range<usize>> = Vec::new();
            let mut expected = Vec::new();
            for (i, fix) in fixes.iter().enumerate() {
                let range = &fix.edits[0].range;
                if accepted.iter().any(|a| overlap(a, range)) {
                    expected.push(i);
                } else {
                    accepted.push(range.clone());
                }
            }
            let outcome = apply(&mut files, &fixes.iter().collect::<Vec<_>>());
            assert_eq!(outcome.deferred, expected, "{:?}", fixes);
        }
    }

    #[test]
    fn insertions_at_one_place_are_ordered_by_the_list() {
        let mut files = texts(&[("a.tf", Some("ab"))]);
        let x = Fix::new("x", Applicability::Safe).edit(Path::new("a.tf"), 1..1, "x");
        let y = Fix::new("y", Applicability::Safe).edit(Path::new("a.tf"), 1..1, "y");
        let outcome = apply(&mut files, &[&x, &y]);
        assert_eq!((outcome.applied, outcome.deferred), (vec![0], vec![1]));
        assert_eq!(files[Path::new("a.tf")].as_deref(), Some("axb"));
    }

    #[test]
    fn file_operations_apply_after_edits_and_wait_for_a_touched_file() {
        let mut files = texts(&[
            ("a.tf", Some("language {}\nx = 1\n")),
            ("language.tofu", None),
            ("b.tf", Some("b")),
            ("b_override.tf", None),
        ]);
        let moved = removal("move", "a.tf", 0..12).operation(FileOperation::Create {
            path: "language.tofu".into(),
            content: "language {}\n".into(),
        });
        let renamed = Fix::new("rename", Applicability::Unsafe).operation(FileOperation::Rename {
            from: "b.tf".into(),
            to: "b_override.tf".into(),
        });
        let edits_renamed = removal("later", "b.tf", 0..1);
        let outcome = apply(&mut files, &[&moved, &renamed, &edits_renamed]);
        assert_eq!((outcome.applied, outcome.deferred), (vec![0, 1], vec![2]));
        let expected = texts(&[
            ("a.tf", Some("x = 1\n")),
            ("language.tofu", Some("language {}\n")),
            ("b.tf", None),
            ("b_override.tf", Some("b")),
        ]);
        assert_eq!(files, expected);
    }

    #[test]
    fn impossible_fixes_are_invalid_not_applied() {
        let mut files = texts(&[("a.tf", Some("é")), ("b.tf", Some(""))]);
        let inside_a_character = removal("x", "a.tf", 1..2);
        let missing = removal("y", "c.tf", 0..0);
        let onto_existing = Fix::new("z", Applicability::Unsafe).operation(FileOperation::Rename {
            from: "a.tf".into(),
            to: "b.tf".into(),
        });
        let outcome = apply(&mut files, &[&inside_a_character, &missing, &onto_existing]);
        assert!(outcome.applied.is_empty());
        let invalid: Vec<usize> = outcome.invalid.iter().map(|(i, _)| *i).collect();
        assert_eq!(invalid, [0, 1, 2]);
        assert_eq!(files[Path::new("a.tf")].as_deref(), Some("é"));
    }

    #[test]
    fn line_removal_takes_whole_lines_only_when_alone_on_them() {
        let text = "a = 1\n  b = 2\nc = 3 # c\n";
        let b = text.find("b = 2").expect("b");
        assert_eq!(&text[line_removal(text, b..b + 5)], "  b = 2\n");
        let comment = text.find("# c").expect("comment");
        assert_eq!(&text[line_removal(text, comment..comment + 3)], " # c");
        let a = text.find("a = 1").expect("a");
        let mut trailing = "a = 1 # one\n".to_string();
        trailing.replace_range(line_removal(&trailing, a..a + 5), "");
        assert_eq!(trailing, "# one\n");
        let cut = |text: &str, what: &str| {
            let at = text.find(what).expect("what");
            let mut kept = text.to_string();
            kept.replace_range(line_removal(text, at..at + what.len()), "");
            kept
        };
        assert_eq!(
            cut("a = 1\n\nb = 2\n\nc = 3\n", "b = 2"),
            "a = 1\n\nc = 3\n"
        );
        assert_eq!(cut("a = 1\n\nb = 2\n", "b = 2"), "a = 1\n");
        assert_eq!(
            cut("x {\n  a = 1\n\n  b = 2\n}\n", "a = 1"),
            "x {\n  b = 2\n}\n"
        );
        assert_eq!(
            cut("x {\n  a = 1\n\n  b = 2\n}\n", "b = 2"),
            "x {\n  a = 1\n}\n"
        );
        assert_eq!(cut("a\r\n\r\nb\r\n", "b"), "a\r\n");
    }

    #[test]
    fn leading_comments_go_with_their_block() {
        let text = "a = 1\n\n# About b.\n// More.\nb {\n}\n";
        let b = text.find("b {").expect("b");
        assert_eq!(
            &text[leading_comments_start(text, b)..b],
            "# About b.\n// More.\n"
        );
        let after_blank = "# Not b's.\n\nb {}\n";
        let b = after_blank.find("b {").expect("b");
        assert_eq!(leading_comments_start(after_blank, b), b);
    }

    #[test]
    fn a_removal_takes_the_comments_that_describe_it() {
        let text = concat!(
            "x {\n",
            "  # About a.\n",
            "  a = 1\n",
            "  # About b.\n",
            "  // And more.\n",
            "  b = 2 # two\r\n",
            "  c = 3 /* three */\n",
            "  d = 4 /* four */ # four\n",
            "  e = 5 /* not closed\n",
            "  */\n",
            "}\n",
        );
        let widened = |what: &str| {
            let at = text.find(what).expect("what");
            &text[with_its_comments(text, at..at + what.len())]
        };
        assert_eq!(
            widened("b = 2"),
            "# About b.\n  // And more.\n  b = 2 # two"
        );
        assert_eq!(widened("a = 1"), "# About a.\n  a = 1");
        assert_eq!(widened("c = 3"), "c = 3 /* three */");
        assert_eq!(widened("d = 4"), "d = 4 /* four */ # four");
        assert_eq!(widened("e = 5"), "e = 5");
        let mut kept = text.to_string();
        let at = text.find("b = 2").expect("b");
        kept.replace_range(line_removal(text, with_its_comments(text, at..at + 5)), "");
        assert!(
            kept.starts_with("x {\n  # About a.\n  a = 1\n  c = 3"),
            "{kept}"
        );
    }

    #[test]
    fn list_item_removal_takes_its_comma() {
        let cut = |text: &str, item: &str| {
            let start = text.find(item).expect("item");
            let mut kept = text.to_string();
            kept.replace_range(list_item_removal(text, start..start + item.len()), "");
            kept
        };
        assert_eq!(cut("{ a = 1, a = 2 }", "a = 1"), "{ a = 2 }");
        assert_eq!(cut("{\n  a = 1,\n  a = 2\n}", "a = 1"), "{\n  a = 2\n}");
        assert_eq!(cut("{\n  a = 1\n  a = 2\n}", "a = 1"), "{\n  a = 2\n}");
    }

    #[test]
    fn neighbouring_removals_of_one_fix_become_one_edit() {
        let text = "{\"count\": 2, \"ebs\": 3, \"x\": 4}";
        let mut files = SourceFiles::default();
        let id = files.add(crate::source::SourceFile::new(
            "a.tf.json".into(),
            text.into(),
        ));
        let member = |key: &str, len: usize| {
            let start = text.find(key).expect("key");
            Span::new(id, start..start + len)
        };
        let fix = Fix::new("both", Applicability::Safe)
            .remove(&files, member("\"count\"", 10))
            .remove(&files, member("\"ebs\"", 8));
        assert_eq!(fix.edits.len(), 1);
        let mut kept = text.to_string();
        kept.replace_range(fix.edits[0].range.clone(), &fix.edits[0].replacement);
        assert_eq!(kept, "{\"x\": 4}");
        // Neighbours whose keys start alike: the edit still takes whole members, never from
        // inside one key to inside another.
        let text = "{\"l0\": 1, \"l1\": 2, \"l2\": 3}";
        let mut files = SourceFiles::default();
        let id = files.add(crate::source::SourceFile::new(
            "b.tf.json".into(),
            text.into(),
        ));
        let member = |key: &str| {
            let start = text.find(key).expect("key");
            Span::new(id, start..start + 7)
        };
        let fix = Fix::new("both", Applicability::Safe)
            .remove(&files, member("\"l0\""))
            .remove(&files, member("\"l1\""));
        let edit = &fix.edits[0];
        assert_eq!(&text[edit.range.clone()], "\"l0\": 1, \"l1\": 2, ");
        assert_eq!(edit.replacement, "");
    }

    #[test]
    fn json_member_removal_takes_one_comma() {
        let text = "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3\n}";
        let cut = |key: &str| {
            let start = text.find(key).expect("key");
            let mut kept = text.to_string();
            kept.replace_range(json_member_removal(text, start..start + 6), "");
            kept
        };
        assert_eq!(cut("\"a\""), "{\n  \"b\": 2,\n  \"c\": 3\n}");
        assert_eq!(cut("\"b\""), "{\n  \"a\": 1,\n  \"c\": 3\n}");
        assert_eq!(cut("\"c\""), "{\n  \"a\": 1,\n  \"b\": 2\n}");
        assert_eq!(json_member_removal("{\"a\": 1}", 1..7), 1..7);
    }

    /// A removal of the longest name of a run re-aligns the run; one in a run the writer
    /// aligned otherwise, or where the widened edit would cut into a string, does not.
    #[test]
    fn aligned_fixes_realign_the_runs_they_change() {
        let path = Path::new("main.tf");
        let text = "locals {\n  a    = 1\n  long = 2\n  bb   = 3\n}\n";
        let removal = |text: &str| {
            let start = text.find("  long").expect("long");
            let end = start + text[start..].find('\n').expect("line") + 1;
            Fix::new("Remove `long`", Applicability::Safe).edit(path, start..end, "")
        };
        let fixed = |text: &str, keeps_strings: bool| {
            let alignment = Alignment::new(text);
            let fix = removal(text).aligned(|_| Some(&alignment), |_, _| keeps_strings);
            let mut texts = texts(&[("main.tf", Some(text))]);
            apply(&mut texts, &[&fix]);
            texts[path].clone().expect("text")
        };
        assert_eq!(fixed(text, true), "locals {\n  a  = 1\n  bb = 3\n}\n");
        assert_eq!(fixed(text, false), "locals {\n  a    = 1\n  bb   = 3\n}\n");
        let unaligned = "locals {\n  a = 1\n  long = 2\n  bb   = 3\n}\n";
        assert_eq!(fixed(unaligned, true), "locals {\n  a = 1\n  bb   = 3\n}\n");
    }

    /// Whole-line removals of two fixes that meet: the later waits for the next pass.
    #[test]
    fn removals_that_meet_at_a_line_start_wait() {
        let text = "a\n\nb\nc\n\nd\n";
        let mut files = texts(&[("f.tf", Some(text))]);
        let b = removal("b", "f.tf", 3..5);
        let c = removal("c", "f.tf", 5..7);
        let outcome = apply(&mut files, &[&b, &c]);
        assert_eq!((outcome.applied, outcome.deferred), (vec![0], vec![1]));
        // Within a line, removals that meet apply together.
        let mut files = texts(&[("f.tf", Some("abcd\n"))]);
        let outcome = apply(
            &mut files,
            &[&removal("b", "f.tf", 1..2), &removal("c", "f.tf", 2..3)],
        );
        assert_eq!(outcome.applied, vec![0, 1]);
    }
}
