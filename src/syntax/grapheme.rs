//! Grapheme clusters as HCL steps over them: apparentlymart/go-textseg v15's
//! `ScanGraphemeClusters`, on any bytes.
//!
//! HCL's JSON scanner advances through a string a cluster at a time (hashicorp/hcl
//! `json/scanner.go`, `scanString`), so a quote or a backslash that a cluster takes in is text,
//! not the string's end or an escape. go-textseg finds clusters with a ragel scanner
//! (`textseg/grapheme_clusters.rl`): the longest prefix that one of its sequences matches
//! (CR LF, a control, a Hangul syllable sequence, an emoji sequence, a ZWJ sequence, a flag, a
//! run of prepends with what follows, any other character with its extenders). Its classes
//! match more than UTF-8 (see [`super::grapheme_tables`]), and when nothing matches it takes
//! one character as Go's `utf8.DecodeRune` decodes it: one byte of a sequence that is not UTF-8.

use super::grapheme_tables::{
    Alternative, BY_LEAD, CODE_POINTS, CONTROL, CR, EXTEND, EXTENDED_PICTOGRAPHIC, L, LF, LV, LVT,
    PREPEND, REGIONAL_INDICATOR, SPACING_MARK, T, V, ZWJ,
};

/// U+FFFD (`EF BF BD` exactly): a cluster of its own in go-textseg's grammar (`ControlSeq`).
const REPLACEMENT: u16 = 1 << 14;
/// A character of well-formed shape (`AnyUTF8`: a lead byte and continuation bytes) in none of
/// the classes that start a sequence of their own: go-textseg's `OtherSeq` starts with one.
const OTHER: u16 = 1 << 15;
/// The classes `OtherSeq` excludes from its first character.
const NOT_OTHER: u16 = CR
    | LF
    | CONTROL
    | REPLACEMENT
    | L
    | LV
    | V
    | LVT
    | T
    | EXTENDED_PICTOGRAPHIC
    | ZWJ
    | REGIONAL_INDICATOR
    | PREPEND;

/// The length in bytes of the grapheme cluster that starts at `at` (`at < bytes.len()`), as
/// go-textseg's `ScanGraphemeClusters(bytes[at..], true)` advances: always at least 1.
pub(crate) fn cluster_len(bytes: &[u8], at: usize) -> usize {
    match &bytes[at..] {
        [] => 0,
        [b'\r', b'\n', ..] => 2,
        // No ASCII character joins the one before it but LF after CR, so an ASCII character
        // followed by one is a cluster of its own (a lone CR or LF matches no sequence, and
        // go-textseg takes it alone too).
        [first, second, ..] if first.is_ascii() && second.is_ascii() => 1,
        [first] if first.is_ascii() => 1,
        rest => longest_match(rest).unwrap_or_else(|| decoded_len(rest)),
    }
}

/// The length of the longest prefix of `rest` that a sequence of go-textseg's grammar matches.
///
/// Every state but the start and the one after CR completes a sequence, so the match ends at
/// most one character before the character that stopped the scan: stepping over a text cluster
/// by cluster reads each character at most twice.
fn longest_match(rest: &[u8]) -> Option<usize> {
    let mut states = START;
    let mut at = 0;
    let mut matched = None;
    while let Some((classes, len)) = character(&rest[at..]) {
        states = step(states, classes);
        if states == 0 {
            break;
        }
        at += len;
        if states & ACCEPTING != 0 {
            matched = Some(at);
        }
    }
    matched
}

/// What Go's `utf8.DecodeRune` takes: a whole character when `rest` starts with one, else a
/// byte.
fn decoded_len(rest: &[u8]) -> usize {
    let len = match rest[0] {
        0x00..=0x7f => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return 1,
    };
    match rest.get(..len).map(std::str::from_utf8) {
        Some(Ok(_)) => len,
        _ => 1,
    }
}

/// The classes of the character at the start of `rest` and its length, the length set by the
/// lead byte alone (as in every class machine); `None` where no character can start (a
/// continuation byte, `F8..FF`) or `rest` ends inside one.
fn character(rest: &[u8]) -> Option<(u16, usize)> {
    let lead = *rest.first()?;
    let len = match lead {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => return None,
    };
    let tail = rest.get(1..len)?;
    // A valid character has its code point's classes; other bytes, what the widened byte
    // machines give them.
    let mut classes = match valid_char(lead, tail) {
        Some(c) => code_point_classes(c),
        None => byte_classes(lead, tail),
    };
    if rest[..len] == [0xef, 0xbf, 0xbd] {
        classes |= REPLACEMENT;
    }
    let well_formed = tail.iter().all(|&b| (0x80..=0xbf).contains(&b));
    if well_formed && classes & NOT_OTHER == 0 {
        classes |= OTHER;
    }
    Some((classes, len))
}

/// The character `lead` and `tail` encode when they are valid UTF-8 (no overlong encoding, no
/// surrogate, nothing beyond U+10FFFF); `lead` is a lead byte of `tail.len() + 1` bytes.
fn valid_char(lead: u8, tail: &[u8]) -> Option<char> {
    let mut c = u32::from(lead) & (0x7f >> tail.len());
    for &b in tail {
        if b & 0xc0 != 0x80 {
            return None;
        }
        c = c << 6 | u32::from(b & 0x3f);
    }
    let shortest = match c {
        0..=0x7f => 0,
        0x80..=0x7ff => 1,
        0x800..=0xffff => 2,
        _ => 3,
    };
    if shortest != tail.len() {
        return None;
    }
    char::from_u32(c)
}

/// The classes whose byte machines match `lead` followed by `tail`.
fn byte_classes(lead: u8, tail: &[u8]) -> u16 {
    BY_LEAD[usize::from(lead)]
        .iter()
        .filter(|alternative| matches(alternative, tail))
        .fold(0, |classes, (bits, _)| classes | bits)
}

/// The classes of a character's code point.
fn code_point_classes(c: char) -> u16 {
    let c = u32::from(c);
    let at = CODE_POINTS.partition_point(|&(_, last, _)| last < c);
    match CODE_POINTS.get(at) {
        Some(&(first, _, classes)) if first <= c => classes,
        _ => 0,
    }
}

fn matches((_, ranges): &Alternative, tail: &[u8]) -> bool {
    ranges.len() == tail.len()
        && ranges
            .iter()
            .zip(tail)
            .all(|(&(low, high), &b)| (low..=high).contains(&b))
}

// The states of go-textseg's sequences, as bits: the scanner follows every sequence at once.
/// Nothing read yet.
const START: u16 = 1 << 0;
/// After CR: only LF may follow (`CRLFSeq`).
const AFTER_CR: u16 = 1 << 1;
/// A sequence that takes nothing more (CR LF, a control, U+FFFD).
const DONE: u16 = 1 << 2;
/// In `L+` of `HangulSeq`.
const HANGUL_L: u16 = 1 << 3;
/// After an LV syllable that starts a sequence: `LV V* T*`.
const HANGUL_LV: u16 = 1 << 4;
/// After `L+ LV`: only V may follow (`L+ LV? V+ T*`), not T.
const HANGUL_L_LV: u16 = 1 << 5;
/// In `V+` (`V+ T*`).
const HANGUL_V: u16 = 1 << 6;
/// In `T*`, after an LVT syllable or a V.
const HANGUL_T: u16 = 1 << 7;
/// In `Extension` (Extend, SpacingMark, ZWJ, an Extended_Pictographic after a ZWJ), after a
/// Hangul or emoji sequence or a flag.
const EXTENSION: u16 = 1 << 8;
/// In `Extension`, just after a ZWJ: an Extended_Pictographic may follow (`ZWJGlue`).
const EXTENSION_ZWJ: u16 = 1 << 9;
/// After one regional indicator: a second may follow, then `Extension`.
const FLAG: u16 = 1 << 10;
/// In `ZWJSeq` or `OtherSeq`: ZWJ, Extend and SpacingMark may follow.
const MARKS: u16 = 1 << 11;
/// In `Prepend+`: any sequence but CR LF and a control may follow.
const PREPENDS: u16 = 1 << 12;

/// The states where a sequence is complete.
const ACCEPTING: u16 = !(START | AFTER_CR);
/// The states where `Extension` may follow.
const EXTENDABLE: u16 =
    HANGUL_L | HANGUL_LV | HANGUL_L_LV | HANGUL_V | HANGUL_T | EXTENSION | EXTENSION_ZWJ | FLAG;

/// The states after a character of `classes` from `states`.
fn step(states: u16, classes: u16) -> u16 {
    let is = |class: u16| classes & class != 0;
    let from = |state: u16| states & state != 0;
    let mut next = 0;
    let mut to = |state: u16, condition: bool| {
        if condition {
            next |= state;
        }
    };
    if from(START | PREPENDS) {
        // The sequences a run of prepends may precede, and the same from the start.
        to(HANGUL_L, is(L));
        to(HANGUL_LV, is(LV));
        to(HANGUL_V, is(V));
        to(HANGUL_T, is(LVT | T));
        to(EXTENSION, is(EXTENDED_PICTOGRAPHIC));
        to(MARKS, is(ZWJ | OTHER));
        to(FLAG, is(REGIONAL_INDICATOR));
        to(PREPENDS, is(PREPEND));
    }
    if from(START) {
        to(AFTER_CR, is(CR));
        to(DONE, is(CONTROL | REPLACEMENT));
    }
    to(DONE, from(AFTER_CR) && is(LF));
    if from(HANGUL_L) {
        to(HANGUL_L, is(L));
        to(HANGUL_L_LV, is(LV));
        to(HANGUL_V, is(V));
        to(HANGUL_T, is(LVT));
    }
    to(HANGUL_V, from(HANGUL_LV | HANGUL_L_LV | HANGUL_V) && is(V));
    to(HANGUL_T, from(HANGUL_LV | HANGUL_V | HANGUL_T) && is(T));
    if from(EXTENDABLE) {
        to(EXTENSION, is(EXTEND | SPACING_MARK));
        to(EXTENSION_ZWJ, is(ZWJ));
    }
    to(EXTENSION, from(EXTENSION_ZWJ) && is(EXTENDED_PICTOGRAPHIC));
    to(EXTENSION, from(FLAG) && is(REGIONAL_INDICATOR));
    to(MARKS, from(MARKS) && is(ZWJ | EXTEND | SPACING_MARK));
    next
}

#[cfg(test)]
mod tests {
    use super::{byte_classes, cluster_len, code_point_classes, decoded_len, longest_match};

    /// The lengths of the clusters of `bytes`, one after another.
    fn clusters(bytes: &[u8]) -> Vec<usize> {
        let mut at = 0;
        let mut out = Vec::new();
        while at < bytes.len() {
            let len = cluster_len(bytes, at);
            out.push(len);
            at += len;
        }
        out
    }

    /// Each case with the clusters go-textseg finds, checked on Terraform 1.15.5: unless a
    /// comment says otherwise, as the text of the JSON string in `{"a": "TEXT" 1}`, whose
    /// error (`Missing attribute seperator comma`, at the end of the file) is at column 12 plus
    /// the number of clusters, since HCL counts a string's columns by cluster.
    const CASES: &[(&str, &[u8], &[usize])] = &[
        // Column 15.
        ("ASCII", b"abc", &[1, 1, 1]),
        // Column 13: one cluster.
        ("Hangul L V T", "\u{1100}\u{1161}\u{11a8}".as_bytes(), &[9]),
        // Column 14.
        ("Hangul syllables", "\u{d55c}\u{ad6d}".as_bytes(), &[3, 3]),
        // Column 14: go-textseg's `L+ LV? V+` lets no T follow `L LV` (Unicode's rules do).
        (
            "Hangul L LV T",
            "\u{1100}\u{ac00}\u{11a8}".as_bytes(),
            &[6, 3],
        ),
        // Column 13.
        ("Hangul LV T", "\u{ac00}\u{11a8}".as_bytes(), &[6]),
        // Column 13: man ZWJ woman ZWJ girl, one cluster.
        (
            "emoji ZWJ sequence",
            "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}".as_bytes(),
            &[18],
        ),
        // Column 14: two flags.
        (
            "regional indicators",
            "\u{1f1fa}\u{1f1f8}\u{1f1eb}\u{1f1f7}".as_bytes(),
            &[8, 8],
        ),
        // Column 14: a flag and a lone indicator.
        (
            "three regional indicators",
            "\u{1f1fa}\u{1f1f8}\u{1f1eb}".as_bytes(),
            &[8, 4],
        ),
        // Column 14.
        ("combining accent", "e\u{301}x".as_bytes(), &[3, 1]),
        // Column 14: U+FFFD takes no extender (`ControlSeq`); the accent alone is `OtherSeq`.
        (
            "replacement character",
            "\u{fffd}\u{301}".as_bytes(),
            &[3, 2],
        ),
        // Column 13: overlong, but of UTF-8's shape (`AnyUTF8`).
        ("overlong encoding", b"\xc0\xaf", &[2]),
        // Column 13.
        ("surrogate encoding", b"\xed\xa0\x80", &[3]),
        // Column 14: no sequence starts with a continuation byte; `DecodeRune` takes one.
        ("continuation bytes", b"\x80\x80", &[1, 1]),
        // `{"a": "\u{600}" 1}`: `Invalid JSON string` at byte 12, the quote taken as text.
        ("prepend and quote", "\u{600}\"".as_bytes(), &[3]),
        // `{"a\xEBb": "x"}`: `Invalid JSON string` at byte 7: `EB 62 22` is a widened LVT.
        ("bad lead byte, letter, quote", b"\xebb\"", &[3]),
        // `{"a": "x\xCD"}`: `Invalid JSON string` at byte 11: `CD 22` is a widened Extend.
        ("bad byte before a quote", b"x\xcd\"", &[3]),
        // `{"a": "\xEB\nb"}`: `Invalid JSON string` at byte 9 (Go's decoder refusing the
        // newline the string took in), line 1.
        ("bad byte before a newline", b"\xeb\nb", &[3]),
        // Native `a = 1\r\nb = ;`: `Invalid character` at line 2, column 5 (CR LF is one
        // line break, `CRLFSeq`); a lone CR matches no sequence.
        ("CRLF", b"\r\r\n", &[1, 2]),
    ];

    #[test]
    fn clusters_as_go_textseg_finds_them() {
        for (name, bytes, expected) in CASES {
            assert_eq!(clusters(bytes), *expected, "{name}: {bytes:x?}");
        }
    }

    /// The ASCII shortcut of [`cluster_len`] gives what the whole grammar gives.
    #[test]
    fn the_ascii_shortcut_agrees_with_the_grammar() {
        for first in 0..0x80u8 {
            for second in 0..0x80u8 {
                let bytes = [first, second];
                let full = longest_match(&bytes).unwrap_or_else(|| decoded_len(&bytes));
                assert_eq!(cluster_len(&bytes, 0), full, "{bytes:x?}");
            }
            let full = longest_match(&[first]).unwrap_or_else(|| decoded_len(&[first]));
            assert_eq!(cluster_len(&[first], 0), full, "{first:x?}");
        }
    }

    /// What lets [`super::character`] look a valid character up by its code point: the
    /// widened byte machines give every valid character the classes of its code point.
    #[test]
    fn valid_characters_have_their_code_points_classes() {
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let mut buffer = [0; 4];
            let bytes = c.encode_utf8(&mut buffer).as_bytes();
            assert_eq!(
                byte_classes(bytes[0], &bytes[1..]),
                code_point_classes(c),
                "{c:?}"
            );
        }
    }

    /// The decoding [`super::character`] relies on agrees with Rust's on every sequence of
    /// up to four bytes in the shapes that matter (each byte drawn from its boundary values).
    #[test]
    fn valid_char_is_utf8() {
        use super::valid_char;
        let edges = [
            0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed,
            0xef, 0xf0, 0xf4, 0xf5, 0xf7,
        ];
        for &lead in &edges {
            // The lengths `character` gives lead bytes (a continuation byte leads nothing).
            let len = match lead {
                0x00..=0x7f => 1,
                0xc0..=0xdf => 2,
                0xe0..=0xef => 3,
                0xf0..=0xf7 => 4,
                _ => continue,
            };
            let mut tails: Vec<Vec<u8>> = vec![Vec::new()];
            for _ in 1..len {
                tails = tails
                    .iter()
                    .flat_map(|tail| edges.iter().map(move |&b| [&tail[..], &[b]].concat()))
                    .collect();
            }
            for tail in tails {
                let bytes = [&[lead][..], &tail].concat();
                let rust = std::str::from_utf8(&bytes)
                    .ok()
                    .and_then(|s| s.chars().next());
                assert_eq!(valid_char(lead, &tail), rust, "{bytes:x?}");
            }
        }
    }

    /// Any bytes: a cluster is never empty and never runs past the end.
    #[test]
    fn every_byte_sequence_advances() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..20_000 {
            let mut bytes = Vec::new();
            for _ in 0..(state % 9) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                bytes.push((state >> 24) as u8);
            }
            let mut at = 0;
            while at < bytes.len() {
                let len = cluster_len(&bytes, at);
                assert!(len >= 1 && at + len <= bytes.len(), "{bytes:x?} at {at}");
                at += len;
            }
        }
    }
}
