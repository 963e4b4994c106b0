//! What a run prints of the text it did not write itself (file names, labels, values, source
//! lines, and the messages made of them): never a byte a terminal or a CI runner acts on.
//!
//! A control character in a file name or a string reaches a terminal as a command (ESC starts a
//! sequence that retitles the window or forges a link, BEL rings, CR returns over what was
//! printed) and reaches a CI log as a new line: the GitHub runner reads every line that starts
//! with `::` after its leading spaces, and every `##[` anywhere in a line, as a workflow command
//! (actions/runner `src/Runner.Common/ActionCommand.cs`, `TryParseV2` and `TryParse`). So every
//! format writes these characters as escapes: the text formats as visible escapes (`\n`,
//! `\x1b`, `\u{9b}`), JSON and XML with their own escapes, which keep the data exact.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::ops::Range;

/// Whether a character is written as an escape: the control characters (C0, DEL and C1), the
/// line and paragraph separators (line breaks to some readers), and the bidirectional
/// formatting characters, which make text show in another order than it is written
/// ("Trojan Source", CVE-2021-42574).
pub(crate) fn is_escaped(c: char) -> bool {
    matches!(
        c,
        '\0'..='\x1f'
            | '\x7f'..='\u{9f}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{61c}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
    )
}

/// Whether a character is default-ignorable (Unicode `Default_Ignorable_Code_Point`): drawn
/// as nothing, and skipped by the runner's comparisons by culture, so `#\u{ad}#[` reads as
/// `##[` there.
pub(crate) fn is_ignorable(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{34f}'
            | '\u{61c}'
            | '\u{115f}'..='\u{1160}'
            | '\u{17b4}'..='\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff0}'..='\u{fff8}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
    )
}

/// Whether the `[` at `i` ends a `##[`: two `#` before it, with nothing between them but
/// characters that [`is_ignorable`] and that stay raw.
fn ends_hash_hash_bracket(text: &str, i: usize) -> bool {
    let mut hashes = 0;
    for c in text[..i].chars().rev() {
        match c {
            '#' if hashes == 1 => return true,
            '#' => hashes += 1,
            c if is_ignorable(c) && !is_escaped(c) => {}
            _ => return false,
        }
    }
    false
}

/// What a format lays out with whitespace of its own, and so keeps raw in the text it escapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keep {
    /// Nothing: a file name, a label, a message are one line each.
    Nothing,
    /// A source excerpt's line breaks (a CR only as the first half of a CRLF, or at the very
    /// end) and tabs: the human format shows the lines one by one and a tab as spaces.
    LinesAndTabs,
    /// Every C0 character: JSON as `serde_json` writes it, which escapes them all in strings,
    /// so that those in its text are its layout.
    C0,
}

/// The characters of `text` to write as escapes, with their byte offsets, in order: those of
/// [`is_escaped`] except what `keep` keeps, and the `[` of every `##[`.
pub(crate) fn escapes(text: &str, keep: Keep) -> impl Iterator<Item = (usize, char)> + '_ {
    let bytes = text.as_bytes();
    // The bytes that may start such a character: C0, DEL, `[`, and the lead bytes of C1
    // (U+0080-U+009F) and of the other characters of `is_escaped` (U+061C, U+2000-U+206F).
    // A lead byte is never inside another character, so each is where a character starts.
    let may_start = move |b: u8| match b {
        0x7f | 0xc2 | 0xd8 | 0xe2 | b'[' => true,
        b => b < 0x20 && keep != Keep::C0,
    };
    // Chunk by chunk, a chunk without such a byte skipped at once (a fold without an early
    // exit is a loop the compiler vectorises).
    let mut at = 0;
    let starts = std::iter::from_fn(move || {
        while at < bytes.len() {
            if at % 64 == 0 {
                let chunk = &bytes[at..(at + 64).min(bytes.len())];
                if !chunk.iter().fold(false, |seen, &b| seen | may_start(b)) {
                    at += chunk.len();
                    continue;
                }
            }
            at += 1;
            if may_start(bytes[at - 1]) {
                return Some(at - 1);
            }
        }
        None
    });
    starts.filter_map(move |i| {
        let c = text[i..].chars().next()?;
        let escaped = match c {
            '[' => ends_hash_hash_bracket(text, i),
            '\n' | '\t' if keep == Keep::LinesAndTabs => false,
            '\r' if keep == Keep::LinesAndTabs => !matches!(bytes.get(i + 1), None | Some(b'\n')),
            c => is_escaped(c),
        };
        escaped.then_some((i, c))
    })
}

/// Whether `text` has nothing to escape, found fast (most text is ASCII with no `##[`): no
/// byte beyond ASCII or DEL, no C0 byte but what `keep` keeps, no `##[`.
fn is_plain(text: &str, keep: Keep) -> bool {
    let kept = |b: u8| match keep {
        Keep::Nothing => false,
        Keep::LinesAndTabs => b == b'\n' || b == b'\t',
        Keep::C0 => true,
    };
    let suspect = |b: u8| b >= 0x7f || (b < 0x20 && !kept(b));
    // A fold without an early exit over each chunk is a loop the compiler vectorises.
    let bytes = text.as_bytes();
    !(bytes.chunks(64)).any(|chunk| chunk.iter().fold(false, |seen, &b| seen | suspect(b)))
        && !memchr::memchr_iter(b'[', bytes).any(|i| bytes[..i].ends_with(b"##"))
}

/// Appends the visible escape of `c`: `\0`, `\t`, `\n`, `\r`, `\x1b` for the other ASCII
/// characters, `\u{9b}` beyond.
pub(crate) fn push_visible(out: &mut String, c: char) {
    match c {
        '\0' => out.push_str("\\0"),
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        c if c.is_ascii() => {
            let _ = write!(out, "\\x{:02x}", u32::from(c));
        }
        c => {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
    }
}

/// `text` with every character of [`escapes`] replaced by `write`, borrowed when there is none.
fn replace<'a>(
    text: &'a str,
    keep: Keep,
    mut write: impl FnMut(&mut String, char),
) -> Cow<'a, str> {
    if is_plain(text, keep) {
        return Cow::Borrowed(text);
    }
    let mut escapes = escapes(text, keep).peekable();
    if escapes.peek().is_none() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut copied = 0;
    for (i, c) in escapes {
        out.push_str(&text[copied..i]);
        write(&mut out, c);
        copied = i + c.len_utf8();
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// A file name, label, message, note or help as the text formats print it: on one line, every
/// character of [`escapes`] visibly escaped.
pub(crate) fn text(text: &str) -> Cow<'_, str> {
    replace(text, Keep::Nothing, push_visible)
}

/// Text that starts a line, escaped as [`text`]: when it would start with a `:` after spaces
/// and characters beyond ASCII (the runner trims leading spaces, Unicode ones included, then
/// looks for `::` comparing by culture, where the characters of [`is_ignorable`] count for
/// nothing), that `:` is written `\x3a`.
pub(crate) fn line_start(text: &str) -> Cow<'_, str> {
    let escaped = self::text(text);
    let rest = escaped.trim_start_matches(|c: char| c.is_whitespace() || !c.is_ascii());
    let lead = escaped.len() - rest.len();
    if !rest.starts_with(':') {
        return escaped;
    }
    Cow::Owned(format!("{}\\x3a{}", &escaped[..lead], &escaped[lead + 1..]))
}

/// A path written at the start of a line, escaped as [`text`]: with `./` in front when it would
/// start with a `:`, a space or a character beyond ASCII (the runner trims leading spaces,
/// Unicode ones included, and compares by culture, where some invisible characters count for
/// nothing, before it looks for `::`).
pub(crate) fn line_start_path(path: &str) -> Cow<'_, str> {
    let escaped = text(path);
    match escaped.chars().next() {
        Some(c) if c == ':' || c.is_whitespace() || !c.is_ascii() => {
            Cow::Owned(format!("./{escaped}"))
        }
        _ => escaped,
    }
}

/// A JSON document as `serde_json` writes it, with what it leaves raw in strings escaped as
/// `\uXXXX` too (DEL, C1, the separators and bidirectional characters of [`is_escaped`], the
/// `[` of `##[`): the same data, read back, without those bytes. `serde_json` already escapes
/// every C0 character in a string, so a C0 character in `json` is the layout's own whitespace.
pub(crate) fn json(json: &str) -> Cow<'_, str> {
    if is_plain(json, Keep::C0) {
        return Cow::Borrowed(json);
    }
    let mut out = String::new();
    let mut copied = 0;
    for (i, c) in escapes(json, Keep::C0) {
        out.push_str(&json[copied..i]);
        let _ = write!(out, "\\u{:04x}", u32::from(c));
        copied = i + c.len_utf8();
    }
    if copied == 0 {
        return Cow::Borrowed(json);
    }
    out.push_str(&json[copied..]);
    Cow::Owned(out)
}

/// Text in an XML attribute or element: markup characters as entities; newlines, CRs and tabs
/// as character references (the data stays exact); DEL, C1, the separators and bidirectional
/// characters and the `[` of `##[` as character references too; and the other C0 characters,
/// which XML 1.0 does not allow even as references, as visible escapes.
pub(crate) fn xml(text: &str) -> String {
    let mut escapes = escapes(text, Keep::Nothing).peekable();
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        let escaped = escapes.next_if(|&(at, _)| at == i).is_some();
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' | '\r' | '\t' => {
                let _ = write!(out, "&#{};", u32::from(c));
            }
            c if escaped && c <= '\x1f' => push_visible(&mut out, c),
            c if escaped => {
                let _ = write!(out, "&#x{:x};", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// A source excerpt with its hostile characters visibly escaped and the elided parts of very
/// long lines replaced by `…`, and how to find a place of the original in it: offsets move by
/// what each escape adds and each elision removes.
#[derive(Debug)]
pub(crate) struct Excerpt<'a> {
    /// The region of the original, escaped and elided.
    pub(crate) text: Cow<'a, str>,
    /// Where the region starts in the original.
    start: usize,
    /// Where `text` differs from the original, in order: each escaped character and each
    /// elided run.
    changes: Vec<Change>,
}

/// A piece of the original written differently in an [`Excerpt`].
#[derive(Debug, Clone, PartialEq, Eq)]
struct Change {
    original: Range<usize>,
    shown: Range<usize>,
}

/// What an elided run of a long line is shown as.
pub(crate) const ELISION: &str = "…";

/// A run of the original an [`Excerpt`] leaves out, and what it shows instead: [`ELISION`]
/// inside a line, nothing for whole lines that are not shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Elision {
    pub(crate) range: Range<usize>,
    pub(crate) shown: &'static str,
}

impl<'a> Excerpt<'a> {
    /// `region` of `source`, with the characters of [`escapes`] (keeping line breaks and tabs)
    /// escaped and each run of `elided` (in order, apart, inside `region`, on character
    /// boundaries) shown as it says. Its cost follows the text kept, not the text elided.
    pub(crate) fn new(source: &'a str, region: Range<usize>, elided: &[Elision]) -> Excerpt<'a> {
        let start = region.start.min(source.len());
        let end = region.end.clamp(start, source.len());
        let mut excerpt = Excerpt {
            text: Cow::Borrowed(source.get(start..end).unwrap_or("")),
            start,
            changes: Vec::new(),
        };
        // The kept runs between the elided ones, each with whether an elision follows it.
        let mut kept = Vec::with_capacity(elided.len() + 1);
        let mut at = start;
        for elision in elided {
            kept.push((at..elision.range.start, Some(elision)));
            at = elision.range.end;
        }
        kept.push((at..end, None));
        let mut text = String::new();
        let mut copied = start;
        for (run, elision) in kept {
            let Some(part) = source.get(run.clone()) else {
                continue;
            };
            let mut escaped: Vec<(usize, char)> = if is_plain(part, Keep::LinesAndTabs) {
                Vec::new()
            } else {
                escapes(part, Keep::LinesAndTabs).collect()
            };
            // A CR ends a run raw only at the end of the region (see `Keep`): before an
            // elision it would return over the line.
            if elision.is_some()
                && part.ends_with('\r')
                && escaped.last().is_none_or(|&(i, _)| i + 1 != part.len())
            {
                escaped.push((part.len() - 1, '\r'));
            }
            for (i, c) in escaped {
                let at = run.start + i;
                text.push_str(&source[copied..at]);
                let shown = text.len();
                push_visible(&mut text, c);
                copied = at + c.len_utf8();
                excerpt.changes.push(Change {
                    original: at..copied,
                    shown: shown..text.len(),
                });
            }
            if let Some(elision) = elision {
                text.push_str(&source[copied..elision.range.start]);
                let shown = text.len();
                text.push_str(elision.shown);
                copied = elision.range.end;
                excerpt.changes.push(Change {
                    original: elision.range.clone(),
                    shown: shown..text.len(),
                });
            }
        }
        if !excerpt.changes.is_empty() {
            text.push_str(&source[copied..end]);
            excerpt.text = Cow::Owned(text);
        }
        excerpt
    }

    /// Where an offset of the original is in `text` (an escaped character's start is its
    /// escape's; a place in an elided run is its `…`'s start).
    pub(crate) fn to_shown(&self, original: usize) -> usize {
        let original = original.max(self.start);
        let shown = match self
            .changes
            .partition_point(|c| c.original.start <= original)
        {
            0 => original - self.start,
            n => {
                let change = &self.changes[n - 1];
                match original < change.original.end {
                    true => change.shown.start,
                    false => change.shown.end + (original - change.original.end),
                }
            }
        };
        shown.min(self.text.len())
    }

    /// Where an offset of `text` made by [`Excerpt::to_shown`] is in the original.
    pub(crate) fn to_original(&self, shown: usize) -> usize {
        match self.changes.partition_point(|c| c.shown.start <= shown) {
            0 => self.start + shown,
            n => {
                let change = &self.changes[n - 1];
                match shown < change.shown.end {
                    true => change.original.start,
                    false => change.original.end + (shown - change.shown.end),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_escapes_what_a_terminal_or_runner_acts_on() {
        assert_eq!(text("plain ü text [x] #[a] ##"), "plain ü text [x] #[a] ##");
        assert!(matches!(text("plain"), Cow::Borrowed(_)));
        assert_eq!(
            text("a\nb\r\t\0\x1b]0;t\x07\x7f\u{9b}\u{85}\u{2028}\u{202e}"),
            "a\\nb\\r\\t\\0\\x1b]0;t\\x07\\x7f\\u{9b}\\u{85}\\u{2028}\\u{202e}"
        );
        assert_eq!(text("x ##[error]y ###[z"), "x ##\\x5berror]y ###\\x5bz");
        assert_eq!(
            text("#\u{ad}#\u{200b}[ #\u{202e}#["),
            "#\u{ad}#\u{200b}\\x5b #\\u{202e}#["
        );
    }

    /// What the fast check lets through has nothing to escape.
    #[test]
    fn the_fast_check_misses_nothing() {
        let texts = [
            "plain",
            "a\nb\tc",
            "a\x1b",
            "é\u{9b}",
            "x\u{7f}",
            "##[",
            "#\u{ad}#[",
            "a\rb",
            "a\r\n",
            "\u{2028}",
            "\u{61c}",
            "\u{202e}",
            "ü",
        ];
        for text in texts {
            for keep in [Keep::Nothing, Keep::LinesAndTabs, Keep::C0] {
                let found: Vec<_> = escapes(text, keep).collect();
                assert!(
                    !is_plain(text, keep) || found.is_empty(),
                    "{text:?} {keep:?}"
                );
            }
        }
    }

    #[test]
    fn text_at_a_line_start_never_starts_a_command() {
        assert_eq!(line_start("a :: b"), "a :: b");
        assert_eq!(line_start(": a"), "\\x3a a");
        assert_eq!(line_start("a: b"), "a: b");
        assert_eq!(line_start("::error x"), "\\x3a:error x");
        assert_eq!(line_start(" \u{a0}\u{ad}::x"), " \u{a0}\u{ad}\\x3a:x");
        assert_eq!(line_start("\n::x"), "\\n::x");
    }

    #[test]
    fn a_path_at_a_line_start_never_starts_a_command() {
        assert_eq!(line_start_path("a/b.tf"), "a/b.tf");
        assert_eq!(line_start_path("../b.tf"), "../b.tf");
        assert_eq!(line_start_path("/abs/b.tf"), "/abs/b.tf");
        assert_eq!(line_start_path("::error x.tf"), "./::error x.tf");
        assert_eq!(line_start_path(" ::a.tf"), "./ ::a.tf");
        assert_eq!(line_start_path("\u{ad}::a.tf"), "./\u{ad}::a.tf");
        assert_eq!(line_start_path("\n::a.tf"), "\\n::a.tf");
    }

    #[test]
    fn json_escapes_what_serde_json_leaves_raw() {
        let value = serde_json::json!({ "s": "a\u{7f}\u{9b}\u{2028}\u{202e}\x1b\n ##[x" });
        let written = serde_json::to_string_pretty(&value).expect("JSON");
        let escaped = json(&written);
        assert_eq!(
            escaped,
            "{\n  \"s\": \"a\\u007f\\u009b\\u2028\\u202e\\u001b\\n ##\\u005bx\"\n}"
        );
        let back: serde_json::Value = serde_json::from_str(&escaped).expect("JSON");
        assert_eq!(back, value);
        assert!(matches!(json("{\n  \"a\": 1\n}"), Cow::Borrowed(_)));
    }

    #[test]
    fn xml_keeps_the_data_where_xml_can() {
        assert_eq!(
            xml("<a & \"b\" 'c'>\n\r\t\x1b\u{9b} ##[e"),
            "&lt;a &amp; &quot;b&quot; &apos;c&apos;&gt;&#10;&#13;&#9;\\x1b&#x9b; ##&#x5b;e"
        );
    }

    /// An excerpt keeps its lines, CRLF endings and tabs; offsets map both ways around the
    /// escapes, from the region's start.
    #[test]
    fn excerpt_offsets_move_by_the_escapes() {
        let source = "x\x1b\nA=1\0B=\x07\r\n\tt\r\n\x1b";
        let region = 2..source.len() - 1;
        let excerpt = Excerpt::new(source, region, &[]);
        assert_eq!(excerpt.text, "\nA=1\\0B=\\x07\r\n\tt\r\n");
        for (original, shown) in [(2, 0), (3, 1), (6, 4), (7, 6), (9, 8), (10, 12), (15, 17)] {
            assert_eq!(excerpt.to_shown(original), shown, "{original}");
            assert_eq!(excerpt.to_original(shown), original, "{shown}");
        }
        assert!(matches!(
            Excerpt::new("a\tb\r\nc\r", 0..7, &[]).text,
            Cow::Borrowed(_)
        ));
        assert_eq!(Excerpt::new("a\rb", 0..3, &[]).text, "a\\rb");
    }

    /// An elided run is one `…`: a place in it is the `…`'s start, places after it move back by
    /// what it hides; a CR before it is escaped, an escape in it is not looked for.
    #[test]
    fn excerpt_offsets_move_by_the_elisions() {
        let source = "0123456789\x1b123\r456789\x07\n";
        let elided = [3..8, 15..20].map(|range| Elision {
            range,
            shown: ELISION,
        });
        let excerpt = Excerpt::new(source, 1..source.len(), &elided);
        assert_eq!(excerpt.text, "12…89\\x1b123\\r…9\\x07\n");
        let pairs = [
            (1, 0),
            (3, 2),
            (8, 5),
            (10, 7),
            (11, 11),
            (14, 14),
            (15, 16),
            (20, 19),
            (21, 20),
            (22, 24),
        ];
        for (original, shown) in pairs {
            assert_eq!(excerpt.to_shown(original), shown, "{original}");
            assert_eq!(excerpt.to_original(shown), original, "{shown}");
        }
        assert_eq!(excerpt.to_shown(5), 2);
        assert_eq!(excerpt.to_original(3), 3);
        let middle = Elision {
            range: 2..4,
            shown: ELISION,
        };
        let plain = Excerpt::new("abcdef", 0..6, std::slice::from_ref(&middle));
        assert_eq!(plain.text, "ab…ef");
        // Whole lines left out show nothing.
        let lines = Elision {
            range: 2..6,
            shown: "",
        };
        let excerpt = Excerpt::new("a\nb\nc\nd\n", 0..8, std::slice::from_ref(&lines));
        assert_eq!(excerpt.text, "a\nd\n");
        assert_eq!((excerpt.to_shown(6), excerpt.to_original(2)), (2, 6));
    }
}
