//! Source files and byte spans into them.
//!
//! Every span in the syntax model is a byte range into one [`SourceFile`] of a module directory,
//! named by a [`FileId`]. Line and column numbers are computed on demand from a line index, so
//! spans stay small (`Copy`, 12 bytes) and parsers never have to track lines themselves.

use std::ops::Range;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// Index of a file within one module directory's [`SourceFiles`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A byte range in one source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, range: Range<usize>) -> Span {
        Span {
            file,
            start: clamp_u32(range.start),
            end: clamp_u32(range.end),
        }
    }

    pub fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The smallest span covering both (they must be in the same file).
    pub fn to(&self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

fn clamp_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The syntax a configuration file is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Syntax {
    /// HCL native syntax (`.tf`, `.tofu`).
    Native,
    /// HCL JSON syntax (`.tf.json`, `.tofu.json`).
    Json,
    /// HCL JSON syntax with Terragrunt's blocks (`terragrunt.hcl.json`).
    TerragruntJson,
}

/// One file's text, its path and a line index; or an excerpt of it (see
/// [`SourceFile::excerpt`]). Byte offsets given to its methods are always the whole file's.
#[derive(Debug)]
pub struct SourceFile {
    /// The path as the file was found (relative to the working directory when the user gave a
    /// relative path), used in every diagnostic.
    pub path: PathBuf,
    /// The path as shown to users (`/`-separated, no leading `./`).
    pub display: Arc<str>,
    /// The file's text; in an excerpt, only the kept lines, one after the other.
    pub text: String,
    /// Where each line of `text` starts in `text`: made when first asked for (only files with a
    /// finding or a fix need it, so most files read are never indexed).
    line_starts: OnceLock<Vec<u32>>,
    /// The number of characters of `text` before each multiple of [`CHARS_BLOCK`] bytes: made
    /// when a column is first counted over a long stretch, so that counting the columns of many
    /// findings on one very long line (a minified JSON file) is not quadratic.
    char_counts: OnceLock<Vec<u32>>,
    /// In an excerpt, where its lines were in the whole file. Boxed: every file read has this
    /// field and only the few a finding keeps are excerpts, so a whole file pays one pointer,
    /// not the excerpt's three fields.
    excerpt: Option<Box<Excerpt>>,
}

/// The stretch of text whose characters [`SourceFile::chars_between`] counts one by one; over
/// longer stretches it starts from the nearest count of `char_counts`.
const CHARS_BLOCK: usize = 4096;

/// Where an excerpt's lines come from.
#[derive(Debug)]
struct Excerpt {
    /// For each kept line: its 0-based index in the whole file...
    line_numbers: Vec<u32>,
    /// ...and the byte offset at which it starts there.
    starts: Vec<u32>,
    /// The whole file's length in bytes.
    len: usize,
}

impl SourceFile {
    pub fn new(path: PathBuf, text: String) -> SourceFile {
        let display = display_path(&path);
        SourceFile {
            path,
            display: display.into(),
            text,
            line_starts: OnceLock::new(),
            char_counts: OnceLock::new(),
            excerpt: None,
        }
    }

    /// What a report needs of this file for labels at `ranges` (whole-file byte ranges): the
    /// lines each range touches and the line after it, which the human format shows between
    /// two labelled lines one line apart. Every method answers for those ranges as the whole
    /// file would. (Of an excerpt, the ranges must be on its lines.)
    pub fn excerpt(&self, ranges: impl IntoIterator<Item = Range<usize>>) -> SourceFile {
        let mut lines: Vec<usize> = Vec::new();
        for range in ranges {
            let first = self.kept_line(self.local_offset(range.start));
            let last = self.kept_line(self.local_offset(range.end)) + 1;
            lines.extend(first..=last.min(self.line_starts().len() - 1));
        }
        lines.sort_unstable();
        lines.dedup();
        let mut text = String::new();
        let mut line_starts = Vec::with_capacity(lines.len());
        for &line in &lines {
            line_starts.push(clamp_u32(text.len()));
            text.push_str(self.kept_line_text(line));
        }
        SourceFile {
            path: self.path.clone(),
            display: self.display.clone(),
            text,
            line_starts: OnceLock::from(line_starts),
            char_counts: OnceLock::new(),
            excerpt: Some(Box::new(Excerpt {
                starts: lines.iter().map(|&kept| self.whole_start(kept)).collect(),
                line_numbers: (lines.iter())
                    .map(|&kept| clamp_u32(self.line_of_local(self.line_starts()[kept] as usize)))
                    .collect(),
                len: self.len(),
            })),
        }
    }

    /// The whole file's text, `None` in an excerpt.
    pub fn whole_text(&self) -> Option<&str> {
        self.excerpt.is_none().then_some(self.text.as_str())
    }

    /// The whole file's length in bytes.
    pub fn len(&self) -> usize {
        self.excerpt.as_ref().map_or(self.text.len(), |e| e.len)
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Where a whole-file byte offset is in `text` (clamped to it). In an excerpt, the offset
    /// must be on a kept line.
    pub fn local_offset(&self, offset: usize) -> usize {
        let Some(excerpt) = &self.excerpt else {
            return offset.min(self.text.len());
        };
        let line = match excerpt.starts.binary_search(&clamp_u32(offset)) {
            Ok(line) => line,
            Err(0) => return 0,
            Err(next) => next - 1,
        };
        let local = self.line_starts()[line] as usize + (offset - excerpt.starts[line] as usize);
        local.min(self.text.len())
    }

    /// The 0-based line index in the whole file of the line holding `local`, an offset in
    /// `text`.
    pub fn line_of_local(&self, local: usize) -> usize {
        let kept = self.kept_line(local);
        self.excerpt
            .as_ref()
            .map_or(kept, |e| e.line_numbers[kept] as usize)
    }

    /// Where the line of the whole file with 0-based index `line` is in `text`, with its
    /// newline; `None` when it is not in the file (or not kept).
    pub fn local_line_range(&self, line: usize) -> Option<Range<usize>> {
        let kept = match &self.excerpt {
            None => line,
            Some(excerpt) => excerpt.line_numbers.binary_search(&clamp_u32(line)).ok()?,
        };
        let start = *self.line_starts().get(kept)? as usize;
        let end = (self.line_starts().get(kept + 1)).map_or(self.text.len(), |&s| s as usize);
        Some(start..end)
    }

    /// The index in `line_starts` of the line holding `local`, an offset in `text`.
    fn kept_line(&self, local: usize) -> usize {
        match self.line_starts().binary_search(&clamp_u32(local)) {
            Ok(line) => line,
            Err(next) => next.saturating_sub(1),
        }
    }

    /// Where the line with index `kept` in `line_starts` starts in the whole file.
    fn whole_start(&self, kept: usize) -> u32 {
        self.excerpt
            .as_ref()
            .map_or(self.line_starts()[kept], |e| e.starts[kept])
    }

    /// The text of the line with index `kept` in `line_starts`, with its newline.
    fn kept_line_text(&self, kept: usize) -> &str {
        let start = self.line_starts()[kept] as usize;
        let end = (self.line_starts().get(kept + 1)).map_or(self.text.len(), |&s| s as usize);
        self.text.get(start..end).unwrap_or("")
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = self.local_offset(offset);
        let kept = self.kept_line(offset);
        let line_start = self.line_starts()[kept] as usize;
        let column = self.chars_between(line_start..offset);
        (self.line_of_local(offset) + 1, column + 1)
    }

    /// The number of characters that start in `local` (a range of `text`, clamped to it): in
    /// constant time whatever the range's length, once `text` has been counted.
    pub fn chars_between(&self, local: Range<usize>) -> usize {
        let end = local.end.min(self.text.len());
        let start = local.start.min(end);
        if end - start <= CHARS_BLOCK {
            return count_chars(&self.text.as_bytes()[start..end]);
        }
        self.chars_before(end) - self.chars_before(start)
    }

    /// The number of characters that start before `local` in `text`.
    fn chars_before(&self, local: usize) -> usize {
        let counts = self.char_counts.get_or_init(|| {
            let blocks = self.text.as_bytes().chunks(CHARS_BLOCK);
            std::iter::once(0)
                .chain(blocks.scan(0, |total, block| {
                    *total += count_chars(block);
                    Some(clamp_u32(*total))
                }))
                .collect()
        });
        let block = local / CHARS_BLOCK;
        let from = block * CHARS_BLOCK;
        counts[block] as usize + count_chars(&self.text.as_bytes()[from..local])
    }

    /// 0-based index of the line holding `offset`.
    pub fn line_index(&self, offset: usize) -> usize {
        self.line_col(offset).0 - 1
    }

    /// Byte offsets at which each line of `text` starts in it (in an excerpt, each kept line).
    pub fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            // memchr finds the newlines with SIMD, many bytes at a time, not one by one.
            let newlines = memchr::memchr_iter(b'\n', self.text.as_bytes());
            std::iter::once(0)
                .chain(newlines.map(|i| clamp_u32(i + 1)))
                .collect()
        })
    }

    /// The text of a span (empty if the span does not fit the file).
    pub fn slice(&self, span: Span) -> &str {
        let range = match self.excerpt {
            None => span.range(),
            Some(_) => self.local_offset(span.start as usize)..self.local_offset(span.end as usize),
        };
        self.text.get(range).unwrap_or("")
    }

    /// The text of the line holding a byte offset, without its newline.
    pub fn line_text(&self, offset: usize) -> &str {
        let text = self.kept_line_text(self.kept_line(self.local_offset(offset)));
        text.strip_suffix('\n').unwrap_or(text)
    }

    /// The file's name without directories.
    pub fn file_name(&self) -> &str {
        self.path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(&self.display)
    }
}

/// The number of UTF-8 characters that start in `bytes`: the bytes that are not continuation
/// bytes (`10xxxxxx`).
fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// Turns a path into the form shown to users: `/`-separated, no leading `./`.
pub fn display_path(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    match text.strip_prefix("./") {
        Some(rest) if !rest.is_empty() => rest.to_string(),
        _ => text,
    }
}

/// The source files of one module directory, indexed by [`FileId`].
#[derive(Debug, Default, Clone)]
pub struct SourceFiles {
    files: Vec<Arc<SourceFile>>,
}

impl SourceFiles {
    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.files.push(Arc::new(file));
        FileId(clamp_u32(self.files.len() - 1))
    }

    pub fn get(&self, id: FileId) -> &Arc<SourceFile> {
        &self.files[id.0 as usize]
    }

    pub fn text(&self, span: Span) -> &str {
        self.get(span.file).slice(span)
    }

    pub fn iter(&self) -> impl Iterator<Item = (FileId, &Arc<SourceFile>)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(clamp_u32(i)), f))
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// `path` made absolute (against the working directory) and cleaned lexically.
pub(crate) fn absolute(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|cwd| cwd.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    };
    clean(&joined)
}

/// Removes `.` components and folds `dir/..` pairs, without touching the file system. A `..`
/// that cannot be folded (at the start of a relative path) is kept; one above the root is
/// dropped.
pub(crate) fn clean(path: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(component),
            },
            other => out.push(other),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run holds a `SourceFile` for every file of a directory until its check is done (a
    /// directory of 100,000 files holds 100,000): a whole file's struct carries no room for an
    /// excerpt's tables: nine words of paths and text, eight of the two lazily made indexes, one
    /// pointer.
    #[test]
    fn a_whole_file_keeps_no_room_for_an_excerpt() {
        let word = size_of::<usize>();
        assert!(
            size_of::<SourceFile>() <= 18 * word,
            "{} bytes",
            size_of::<SourceFile>()
        );
    }

    /// An excerpt answers for its labels' ranges as the whole file does, and keeps the line
    /// after each range.
    #[test]
    fn an_excerpt_answers_as_the_whole_file() {
        let whole = SourceFile::new("a.tf".into(), "a\nbç = 1\nc\nd\ne = 2\nf\ng".into());
        let ranges = [3..7, 15..20, 23..23];
        let excerpt = whole.excerpt(ranges.clone());
        assert_eq!(excerpt.text, "bç = 1\nc\ne = 2\nf\ng");
        assert_eq!((excerpt.len(), excerpt.whole_text()), (23, None));
        for range in ranges {
            for offset in [range.start, range.end] {
                assert_eq!(excerpt.line_col(offset), whole.line_col(offset), "{offset}");
                assert_eq!(
                    excerpt.line_text(offset),
                    whole.line_text(offset),
                    "{offset}"
                );
            }
            let span = Span::new(FileId(0), range);
            assert_eq!(excerpt.slice(span), whole.slice(span));
        }
        assert_eq!(excerpt.local_line_range(2), Some(8..10));
        assert_eq!(excerpt.local_line_range(3), None);
        assert_eq!(excerpt.line_of_local(10), 4);
    }

    /// Columns far along a long line are counted in characters, as from the line's start.
    #[test]
    fn columns_on_a_long_line_count_characters() {
        let text = "é a ".repeat(3 * CHARS_BLOCK) + "\n" + &"ç".repeat(CHARS_BLOCK);
        let file = SourceFile::new("a.tf".into(), text.clone());
        for offset in [
            0,
            5,
            CHARS_BLOCK - 1,
            CHARS_BLOCK + 4,
            7 * CHARS_BLOCK + 3,
            text.len(),
        ] {
            let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
            let expected = text[line_start..offset].chars().count() + 1;
            assert_eq!(file.line_col(offset).1, expected, "{offset}");
        }
        assert_eq!(file.chars_between(2..text.len()), text[2..].chars().count());
    }

    #[test]
    fn line_col_counts_from_one_and_in_characters() {
        let file = SourceFile::new("a.tf".into(), "ab\nçd\n\nx".to_string());
        assert_eq!(file.line_col(0), (1, 1));
        assert_eq!(file.line_col(1), (1, 2));
        assert_eq!(file.line_col(3), (2, 1));
        // `ç` is two bytes but one column.
        assert_eq!(file.line_col(5), (2, 2));
        assert_eq!(file.line_col(7), (3, 1));
        assert_eq!(file.line_col(8), (4, 1));
        assert_eq!(file.line_col(100), (4, 2));
    }

    #[test]
    fn display_path_drops_leading_dot_slash() {
        assert_eq!(display_path(Path::new("./a/b.tf")), "a/b.tf");
        assert_eq!(display_path(Path::new("a/b.tf")), "a/b.tf");
    }
}
