//! Positions as LSP counts them: a 0-based line and a column in the code units of the
//! negotiated encoding (UTF-16 unless the client offers UTF-8, LSP 3.17's `positionEncoding`),
//! converted from and to the byte offsets every span of tflint-merge is.

use lsp_types::{Position, PositionEncodingKind, Range};

use crate::source::SourceFile;

/// The unit a position's `character` counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    Utf8,
    Utf16,
}

impl Encoding {
    /// UTF-8 when the client offers it (no conversion needed), else UTF-16, which every client
    /// must support.
    pub(crate) fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
        let offered = offered.unwrap_or_default();
        if offered.contains(&PositionEncodingKind::UTF8) {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        }
    }

    pub(crate) fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }
    }

    fn units(self, c: char) -> usize {
        match self {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
        }
    }
}

/// Converts positions of one source file (the text its spans point into).
pub(crate) struct LineIndex<'a> {
    text: &'a str,
    starts: &'a [u32],
    encoding: Encoding,
}

impl<'a> LineIndex<'a> {
    pub(crate) fn new(file: &'a SourceFile, encoding: Encoding) -> LineIndex<'a> {
        LineIndex {
            text: &file.text,
            starts: file.line_starts(),
            encoding,
        }
    }

    /// The position of a byte offset (clamped to the text, and back to a character boundary).
    pub(crate) fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self
            .starts
            .partition_point(|&start| start as usize <= offset)
            - 1;
        let start = self.starts[line] as usize;
        let character: usize = self.text[start..offset]
            .chars()
            .map(|c| self.encoding.units(c))
            .sum();
        Position::new(to_u32(line), to_u32(character))
    }

    pub(crate) fn range(&self, bytes: std::ops::Range<usize>) -> Range {
        Range::new(self.position(bytes.start), self.position(bytes.end))
    }

    /// The byte offset of a position: a column past the end of its line means the line's end
    /// (before its line break), a line past the end the end of the text, and a column inside a
    /// character that character's start.
    pub(crate) fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return self.text.len();
        };
        let line = &self.text[start as usize..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        let line = line.strip_suffix('\r').unwrap_or(line);
        let wanted = position.character as usize;
        let mut counted = 0;
        for (index, c) in line.char_indices() {
            counted += self.encoding.units(c);
            if counted > wanted {
                return start as usize + index;
            }
        }
        start as usize + line.len()
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `é` is 2 bytes and 1 UTF-16 unit; `𝄞` is 4 bytes and 2 UTF-16 units (a surrogate pair).
    const TEXT: &str = "a = \"é𝄞\" # x\r\nb\n";

    fn file() -> SourceFile {
        SourceFile::new("main.tf".into(), TEXT.to_string())
    }

    #[test]
    fn utf16_counts_code_units() {
        let file = file();
        let index = LineIndex::new(&file, Encoding::Utf16);
        let hash = TEXT.find('#').expect("a #");
        assert_eq!(index.position(hash), Position::new(0, 10));
        assert_eq!(index.offset(Position::new(0, 10)), hash);
        // Inside the surrogate pair: the character's start.
        let clef = TEXT.find('𝄞').expect("the clef");
        assert_eq!(index.position(clef), Position::new(0, 6));
        assert_eq!(index.offset(Position::new(0, 7)), clef);
        assert_eq!(
            index.position(TEXT.find('b').expect("b")),
            Position::new(1, 0)
        );
    }

    #[test]
    fn utf8_counts_bytes() {
        let file = file();
        let index = LineIndex::new(&file, Encoding::Utf8);
        let hash = TEXT.find('#').expect("a #");
        assert_eq!(index.position(hash), Position::new(0, hash as u32));
        assert_eq!(index.offset(Position::new(0, hash as u32)), hash);
        // A byte offset inside `é` goes back to its start.
        let e = TEXT.find('é').expect("é");
        assert_eq!(index.position(e + 1), Position::new(0, e as u32));
    }

    #[test]
    fn out_of_range_positions_clamp() {
        let file = file();
        let index = LineIndex::new(&file, Encoding::Utf16);
        let line_end = TEXT.find('\r').expect("CR");
        assert_eq!(index.offset(Position::new(0, 500)), line_end);
        assert_eq!(index.offset(Position::new(9, 0)), TEXT.len());
        assert_eq!(index.position(10_000), Position::new(2, 0));
    }

    #[test]
    fn utf8_is_chosen_only_when_offered() {
        let both = [PositionEncodingKind::UTF16, PositionEncodingKind::UTF8];
        assert_eq!(Encoding::negotiate(Some(&both)), Encoding::Utf8);
        let only16 = [PositionEncodingKind::UTF16];
        assert_eq!(Encoding::negotiate(Some(&only16)), Encoding::Utf16);
        assert_eq!(Encoding::negotiate(None), Encoding::Utf16);
    }
}
