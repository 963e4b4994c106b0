#!/usr/bin/env python3
"""Writes src/syntax/hcl/ident_tables.rs, the bytes HCL's scanner takes into an identifier.

    scripts/gen_ident_tables.py DerivedCoreProperties.txt [--out src/syntax/hcl/ident_tables.rs]
    scripts/gen_ident_tables.py DerivedCoreProperties.txt --compare OLD_ident_tables.rs

The input is Unicode 9.0.0's DerivedCoreProperties.txt, the data hashicorp/hcl's
`hclsyntax/unicode_derived.rl` was generated from (HCL pins that version so that names do not
change meaning with the Unicode release of the Go toolchain):

    URL:     https://www.unicode.org/Public/9.0.0/ucd/DerivedCoreProperties.txt
    SHA-256: 6662c7e30b572df5d948c092692f52bcc79ab36d49a063a73d6435042db6fb3b
    (first line `# DerivedCoreProperties-9.0.0.txt`, 943,590 bytes)

The script refuses any other file (by its SHA-256), so the tables cannot drift to another
Unicode version by accident.

How HCL's byte ranges come out of the code points. HCL's `.rl` file was written by ragel's
`unicode2ragel.rb`, which turns each code point range of the property into byte ranges of UTF-8,
a byte position at a time, and does not produce exactly the UTF-8 encodings of the range:

- A range is first cut where the UTF-8 length changes (after U+007F, U+07FF, U+FFFF), so each
  piece has one length of encoding.
- Where the first and last code point of a piece share their leading byte, that byte is fixed
  and the rest of the encodings are treated the same way one byte further on.
- Where they differ only in the last byte, that byte becomes the range between them.
- Otherwise the piece is cut in three at the leading byte: from the first code point up to its
  leading byte followed by `0xFF` bytes; every leading byte strictly between the two, each
  later byte any of `0x00..0xFF`; and from the last leading byte followed by `0x00` bytes up to
  the last code point. The first and last parts are split further the same way.

So the bytes after a leading byte range over all 256 values, not over `0x80..0xBF`, and
sequences that are not UTF-8 (`0xE4 0x20 0x3D`) match. The scanner then takes the union of
those alternatives, which is what these tables must match: this script builds that union, then
writes it compactly (entries per leading byte, neighbouring alternatives that differ in one
contiguous range merged), so that `ident.rs` can look a leading byte up by binary search.

`--compare OLD` proves that the written tables accept the same byte sequences as OLD (another
ident_tables.rs, e.g. `git show REV:src/syntax/hcl/ident_tables.rs`): for each leading byte it
splits each later byte position into the intervals where no range of either table begins or
ends, and checks every combination of those intervals, which covers every byte sequence of
1 to 4 bytes without enumerating them one by one.
"""

import argparse
import hashlib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(ROOT, "src", "syntax", "hcl", "ident_tables.rs")

SOURCE_URL = "https://www.unicode.org/Public/9.0.0/ucd/DerivedCoreProperties.txt"
SOURCE_SHA256 = "6662c7e30b572df5d948c092692f52bcc79ab36d49a063a73d6435042db6fb3b"

PROPERTIES = ("ID_Start", "ID_Continue")

# The last code point of each UTF-8 encoding length.
LENGTH_LIMITS = (0x7F, 0x7FF, 0xFFFF, 0x10FFFF)


def read_property_ranges(text, prop):
    """The code point ranges listed for `prop`, in file order, as (first, last) pairs."""
    ranges = []
    for line in text.splitlines():
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        points, name = (field.strip() for field in data.split(";")[:2])
        if name != prop:
            continue
        first, _, last = points.partition("..")
        ranges.append((int(first, 16), int(last or first, 16)))
    if not ranges:
        sys.exit(f"no {prop} lines in the input")
    return ranges


def split_at_length_changes(first, last):
    """`first..last` cut into pieces whose code points all encode to the same UTF-8 length."""
    pieces = []
    for limit in LENGTH_LIMITS:
        if first > limit:
            continue
        if last <= limit:
            pieces.append((first, last))
            return pieces
        pieces.append((first, limit))
        first = limit + 1
    return pieces


def byte_alternatives(low, high):
    """The widened byte-range alternatives between two encodings of the same length.

    `low` and `high` are byte lists; each alternative is a list of (low, high) byte ranges, one
    per position (see the module's description of the rule).
    """
    if not low:
        return [[]]
    if low[0] == high[0]:
        return [[(low[0], low[0])] + rest for rest in byte_alternatives(low[1:], high[1:])]
    if len(low) == 1:
        return [[(low[0], high[0])]]
    tail = len(low) - 1
    alternatives = byte_alternatives(low, [low[0]] + [0xFF] * tail)
    if low[0] + 1 <= high[0] - 1:
        alternatives.append([(low[0] + 1, high[0] - 1)] + [(0x00, 0xFF)] * tail)
    alternatives += byte_alternatives([high[0]] + [0x00] * tail, high)
    return alternatives


def scanner_alternatives(code_point_ranges):
    """Every byte-range alternative HCL's scanner has for these code point ranges."""
    alternatives = []
    for first, last in code_point_ranges:
        for low, high in split_at_length_changes(first, last):
            alternatives += byte_alternatives(
                list(chr(low).encode("utf-8", "surrogatepass")),
                list(chr(high).encode("utf-8", "surrogatepass")),
            )
    return alternatives


# Compact form ---------------------------------------------------------------------------------


def merge_once(entries):
    """Merges one pair of entries equal but in one position, where their ranges touch."""
    by_shape = {}
    for index, entry in enumerate(entries):
        for position in range(len(entry)):
            key = (position, len(entry), tuple(entry[:position]), tuple(entry[position + 1 :]))
            by_shape.setdefault(key, []).append(index)
    for (position, _, _, _), indexes in by_shape.items():
        if len(indexes) < 2:
            continue
        indexes.sort(key=lambda index: entries[index][position])
        for a, b in zip(indexes, indexes[1:]):
            (a_low, a_high), (b_low, b_high) = entries[a][position], entries[b][position]
            if b_low <= a_high + 1:
                merged = list(entries[a])
                merged[position] = (a_low, max(a_high, b_high))
                rest = [entry for index, entry in enumerate(entries) if index not in (a, b)]
                return rest + [merged]
    return None


def compact(entries):
    """`entries` with touching neighbours merged until none are left to merge."""
    entries = [list(entry) for entry in entries]
    while True:
        merged = merge_once(entries)
        if merged is None:
            return entries
        entries = merged


def compact_table(alternatives):
    """The table written to Rust: alternatives grouped by leading byte, merged, sorted.

    The alternatives of each leading byte are merged among themselves first, then leading
    bytes with the same alternatives are joined into one lead range, so lead ranges never
    overlap and `ident.rs` finds a leading byte's entries together.
    """
    by_lead = {}
    for alternative in alternatives:
        (lead_low, lead_high), rest = alternative[0], alternative[1:]
        for lead in range(lead_low, lead_high + 1):
            by_lead.setdefault(lead, []).append(rest)
    tails_by_lead = {}
    for lead, tails in by_lead.items():
        lengths = {len(tail) for tail in tails}
        assert len(lengths) == 1, f"lead byte {lead:#04x} has alternatives of several lengths"
        if tails[0]:
            tails = sorted(compact(tails))
        else:
            tails = [[]]
        tails_by_lead[lead] = tails
    table = []
    leads = sorted(tails_by_lead)
    start = 0
    while start < len(leads):
        end = start
        while (
            end + 1 < len(leads)
            and leads[end + 1] == leads[end] + 1
            and tails_by_lead[leads[end + 1]] == tails_by_lead[leads[start]]
        ):
            end += 1
        for tail in tails_by_lead[leads[start]]:
            table.append([(leads[start], leads[end])] + tail)
        start = end + 1
    return table


# Rust ------------------------------------------------------------------------------------------


HEADER = """\
//! The characters HCL's scanner takes into an identifier, byte by byte.
//!
//! Generated by `scripts/gen_ident_tables.py DerivedCoreProperties.txt` (do not edit, run the
//! script) from Unicode 9.0.0's `DerivedCoreProperties.txt`:
//! <{url}>, SHA-256
//! `{sha}`.
//!
//! hashicorp/hcl builds its `Ident` token (`hclsyntax/scan_tokens.rl`: `(ID_Start | '_')
//! (ID_Continue | '-')*`) from `hclsyntax/unicode_derived.rl`, which ragel's `unicode2ragel.rb`
//! generated from that file. That generator writes a byte range for each byte of a character's
//! UTF-8 encoding, and where a range of code points spans several lead bytes it widens the bytes
//! after the lead to `0x00..0xFF`. So an identifier takes more than UTF-8 letters: `0xE4`
//! followed by any two bytes but a few is one "character" of it, a space or a newline included,
//! and a file that is not UTF-8 scans into names where a strict decoder would see bad bytes.
//! These tables are those ranges, as HCL's scanner matches them, so that our parser cuts a name
//! where Terraform does, in Unicode 9's classes rather than today's.
//!
//! Each entry is one alternative: a byte range per byte, the first the lead byte (neighbouring
//! entries that differ in one contiguous range are merged into one). Entries are in the order
//! of their lead byte, lead ranges do not overlap, and every entry of a lead byte has the same
//! length.

/// One alternative encoding: the range each byte may take, lead byte first.
pub(super) type Encoding = &'static [(u8, u8)];
"""

LINE_WIDTH = 100


def rust_table(prop, table):
    """One `static` of the Rust file: entries packed into lines of at most 100 columns."""
    lines = [
        "",
        f"/// `{prop}` of `unicode_derived.rl`.",
        "#[rustfmt::skip]",
        f"pub(super) static {prop.upper()}: &[Encoding] = &[",
    ]
    line = "   "
    for entry in table:
        item = " &[" + ", ".join(f"(0x{low:02X}, 0x{high:02X})" for low, high in entry) + "],"
        if len(line) + len(item) > LINE_WIDTH:
            lines.append(line)
            line = "   "
        line += item
    lines.append(line)
    lines.append("];")
    return "\n".join(lines) + "\n"


def rust_file(tables):
    text = HEADER.format(url=SOURCE_URL, sha=SOURCE_SHA256)
    for prop in PROPERTIES:
        text += rust_table(prop, tables[prop])
    return text


# Comparison ------------------------------------------------------------------------------------


PAIR = re.compile(r"\(0x([0-9A-Fa-f]{2}), 0x([0-9A-Fa-f]{2})\)")
ENTRY = re.compile(r"&\[([^\]]*)\]")


def parse_rust_tables(text):
    """The tables of an ident_tables.rs, by property, as lists of entries."""
    tables = {}
    for prop in PROPERTIES:
        match = re.search(
            rf"static {prop.upper()}: &\[Encoding\] = &\[(.*?)\n\];", text, re.DOTALL
        )
        if match is None:
            sys.exit(f"no {prop.upper()} table in the file to compare with")
        tables[prop] = [
            [(int(low, 16), int(high, 16)) for low, high in PAIR.findall(entry)]
            for entry in ENTRY.findall(match.group(1))
        ]
    return tables


def interval_cuts(entries, position):
    """The byte values where a range at `position` of some entry begins or ends after."""
    cuts = {0x00, 0x100}
    for entry in entries:
        low, high = entry[position]
        cuts.add(low)
        cuts.add(high + 1)
    return sorted(cuts)


def differences(old, new, prefix=(), position=0):
    """Byte-range prefixes that one table accepts and the other refuses.

    `old` and `new` are the entries that still match the prefix; each position is split into
    the intervals where no entry's range begins or ends, so every byte of an interval leads to
    the same entries, and one byte per interval stands for all of them.
    """
    old_done = [entry for entry in old if len(entry) == position]
    new_done = [entry for entry in new if len(entry) == position]
    found = []
    if bool(old_done) != bool(new_done):
        found.append((prefix, "old" if old_done else "new"))
    old = [entry for entry in old if len(entry) > position]
    new = [entry for entry in new if len(entry) > position]
    if not old and not new:
        return found
    cuts = interval_cuts(old + new, position)
    for low, end in zip(cuts, cuts[1:]):
        inside = lambda entry: entry[position][0] <= low <= entry[position][1]
        found += differences(
            [entry for entry in old if inside(entry)],
            [entry for entry in new if inside(entry)],
            prefix + ((low, end - 1),),
            position + 1,
        )
    return found


def check_shape(prop, table):
    """What `ident.rs` relies on: lead ranges in order, one length per lead byte."""
    for before, after in zip(table, table[1:]):
        if after[0][0] < before[0][0] or after[0][1] < before[0][1]:
            sys.exit(f"{prop}: entries out of lead-byte order at {after}")
    for lead in range(0x100):
        lengths = {len(entry) for entry in table if entry[0][0] <= lead <= entry[0][1]}
        if len(lengths) > 1:
            sys.exit(f"{prop}: lead byte {lead:#04x} has entries of several lengths")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("input", help="Unicode 9.0.0 DerivedCoreProperties.txt")
    parser.add_argument("--out", default=DEFAULT_OUT, help="the Rust file to write")
    parser.add_argument("--compare", metavar="OLD", help="check against another ident_tables.rs")
    args = parser.parse_args()

    data = open(args.input, "rb").read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != SOURCE_SHA256:
        sys.exit(f"{args.input}: SHA-256 {digest}, not Unicode 9.0.0's ({SOURCE_SHA256})")
    text = data.decode("utf-8")
    tables = {}
    for prop in PROPERTIES:
        tables[prop] = compact_table(scanner_alternatives(read_property_ranges(text, prop)))
        check_shape(prop, tables[prop])

    if args.compare:
        old_tables = parse_rust_tables(open(args.compare, encoding="utf-8").read())
        failed = False
        for prop in PROPERTIES:
            found = differences(old_tables[prop], tables[prop])
            for prefix, accepted_by in found[:20]:
                ranges = " ".join(f"{low:02X}..{high:02X}" for low, high in prefix)
                print(f"{prop}: {ranges} accepted only by the {accepted_by} table")
            failed |= bool(found)
            print(
                f"{prop}: {len(old_tables[prop])} old entries, {len(tables[prop])} new, "
                f"{len(found)} differences"
            )
        return 1 if failed else 0

    with open(args.out, "w", encoding="utf-8") as out:
        out.write(rust_file(tables))
    return 0


if __name__ == "__main__":
    sys.exit(main())
