#!/usr/bin/env python3
"""Writes src/syntax/grapheme_tables.rs: the bytes go-textseg takes as each grapheme class.

    scripts/gen_grapheme_tables.py GraphemeBreakProperty.txt emoji-data.txt [--out FILE]
    scripts/gen_grapheme_tables.py GraphemeBreakProperty.txt emoji-data.txt --compare OLD.rs
    scripts/gen_grapheme_tables.py GraphemeBreakProperty.txt emoji-data.txt \\
        --compare-ragel grapheme_clusters_table.rl emoji_table.rl

HCL steps over the text of a JSON string (hashicorp/hcl `json/scanner.go`, `scanString`) and
counts columns a grapheme cluster at a time, with apparentlymart/go-textseg's
`ScanGraphemeClusters`. Terraform 1.15.5 links go-textseg v15.0.0 (its build information
says so), whose `textseg/generate.go` builds the classes from Unicode 15.0.0:

    https://www.unicode.org/Public/15.0.0/ucd/auxiliary/GraphemeBreakProperty.txt
    SHA-256: 5a0f8748575432f8ff95e1dd5bfaa27bda1a844809e17d6939ee912bba6568a1
    (first line `# GraphemeBreakProperty-15.0.0.txt`, 96,863 bytes)
    https://www.unicode.org/Public/15.0.0/ucd/emoji/emoji-data.txt
    SHA-256: 29071dba22c72c27783a73016afb8ffaeb025866740791f9c2d0b55cc45a3470
    (Extended_Pictographic only; 111,505 bytes, dated 2022-08-02)

Debian's `unicode-data` 15.0.0-1 package ships both files (`/usr/share/unicode/`); the hashes
agree with nixpkgs' list of the 15.0.0 files fetched from ftp.unicode.org. The script refuses
any other file, so the tables cannot drift to another Unicode version by accident.

go-textseg's ragel grammar (`textseg/grapheme_clusters.rl`) names each class as a machine that
ragel's `unicode2ragel.rb` generated from those files, byte by byte, with the same widening
`scripts/gen_ident_tables.py` describes for HCL's identifiers: where a range of code points
spans several lead bytes, the bytes after a lead range over `0x00..0xFF`, not just the
continuation bytes. So `0xEB 0x62 0x22` (a bad lead byte, `b`, a quote) is a Hangul LVT
syllable to go-textseg, and a JSON string that holds it runs on past the quote. These tables
are those machines, so that `syntax::grapheme` matches what go-textseg matches on any bytes.

The Rust file maps each lead byte to its alternatives: the ranges of the bytes after the lead
and the classes (bits) whose machines match them. Each class's alternatives are merged where
they touch (as in the identifier tables), then alternatives of several classes with the same
byte ranges are joined into one with their bits together. For a valid character the widened
machines match just the classes of its code point, so the file also has the classes by code
point (`CODE_POINTS`), which a binary search finds faster than a scan of the alternatives.

`--compare OLD` proves that the written tables give every byte sequence the same classes as
OLD (another grapheme_tables.rs, e.g. `git show REV:src/syntax/grapheme_tables.rs`);
`--compare-ragel` proves the same against go-textseg's own generated machines
(`textseg/grapheme_clusters_table.rl` and `textseg/emoji_table.rl` at tag v15.0.0), so the
widening here is unicode2ragel's.
"""

import argparse
import bisect
import hashlib
import os
import re
import sys

from gen_ident_tables import (
    compact,
    differences,
    read_property_ranges,
    scanner_alternatives,
)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(ROOT, "src", "syntax", "grapheme_tables.rs")

GRAPHEME_URL = "https://www.unicode.org/Public/15.0.0/ucd/auxiliary/GraphemeBreakProperty.txt"
GRAPHEME_SHA256 = "5a0f8748575432f8ff95e1dd5bfaa27bda1a844809e17d6939ee912bba6568a1"
EMOJI_URL = "https://www.unicode.org/Public/15.0.0/ucd/emoji/emoji-data.txt"
EMOJI_SHA256 = "29071dba22c72c27783a73016afb8ffaeb025866740791f9c2d0b55cc45a3470"

# The classes, in the order of their bits; the first thirteen are go-textseg's
# `GraphemeCluster` machine (`-p Prepend,CR,...`), the last its `Emoji` machine.
GRAPHEME_CLASSES = (
    "Prepend",
    "CR",
    "LF",
    "Control",
    "Extend",
    "Regional_Indicator",
    "SpacingMark",
    "L",
    "V",
    "T",
    "LV",
    "LVT",
    "ZWJ",
)
EMOJI_CLASSES = ("Extended_Pictographic",)
CLASSES = GRAPHEME_CLASSES + EMOJI_CLASSES


def rust_name(cls):
    return re.sub(r"(?<=[a-z])(?=[A-Z])", "_", cls).upper()


def read_checked(path, sha):
    data = open(path, "rb").read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != sha:
        sys.exit(f"{path}: SHA-256 {digest}, not the Unicode 15.0.0 file's ({sha})")
    return data.decode("utf-8")


def class_alternatives(grapheme_text, emoji_text):
    """Every class's widened alternatives: lists of (low, high) byte ranges, lead first."""
    alternatives = {}
    for cls in CLASSES:
        text = emoji_text if cls in EMOJI_CLASSES else grapheme_text
        alternatives[cls] = scanner_alternatives(read_property_ranges(text, cls))
    return alternatives


def code_point_table(grapheme_text, emoji_text):
    """The classes of valid characters by code point: disjoint (first, last, bits), in order.

    For a character that is valid UTF-8 the widened byte machines match exactly the classes
    its code point has (the widening adds only sequences that are not UTF-8; a test of
    `syntax::grapheme` checks every character), so `syntax::grapheme` looks valid characters
    up here, by binary search, and only bytes that are not UTF-8 in the byte tables.
    """
    ranges = []
    for index, cls in enumerate(CLASSES):
        text = emoji_text if cls in EMOJI_CLASSES else grapheme_text
        ranges += [(first, last, 1 << index) for first, last in read_property_ranges(text, cls)]
    # Cut the code points where any range begins or ends: each piece has one set of classes.
    cuts = sorted({first for first, _, _ in ranges} | {last + 1 for _, last, _ in ranges})
    classes = [0] * len(cuts)
    for first, last, bit in ranges:
        for piece in range(bisect.bisect_left(cuts, first), bisect.bisect_left(cuts, last + 1)):
            classes[piece] |= bit
    table = []
    for piece, bits in enumerate(classes[:-1]):
        first, last = cuts[piece], cuts[piece + 1] - 1
        if not bits:
            continue
        if table and table[-1][1] == first - 1 and table[-1][2] == bits:
            table[-1] = (table[-1][0], last, bits)
        else:
            table.append((first, last, bits))
    return table


def tails_by_lead(alternatives):
    """For each lead byte, the merged tails (ranges after the lead) of each class."""
    by_lead = {}
    for cls, entries in alternatives.items():
        tails = {}
        for entry in entries:
            (low, high), tail = entry[0], entry[1:]
            for lead in range(low, high + 1):
                tails.setdefault(lead, []).append(tail)
        for lead, lead_tails in tails.items():
            lengths = {len(tail) for tail in lead_tails}
            assert len(lengths) == 1, f"{cls}: lead byte {lead:#04x} has several lengths"
            merged = compact(lead_tails) if lead_tails[0] else [[]]
            by_lead.setdefault(lead, {})[cls] = merged
    return by_lead


def lead_table(by_lead):
    """For each lead byte, its alternatives as (tail, class bits), tails in order."""
    table = {}
    for lead, classes in by_lead.items():
        bits_by_tail = {}
        for cls, tails in classes.items():
            for tail in tails:
                key = tuple(tail)
                bits_by_tail[key] = bits_by_tail.get(key, 0) | (1 << CLASSES.index(cls))
        table[lead] = sorted(bits_by_tail.items())
        lengths = {len(tail) for tail, _ in table[lead]}
        assert len(lengths) == 1, f"lead byte {lead:#04x} has alternatives of several lengths"
    return table


# Rust ------------------------------------------------------------------------------------------

HEADER = """\
//! The bytes go-textseg takes as each class of Unicode's grapheme cluster rules.
//!
//! Generated by `scripts/gen_grapheme_tables.py GraphemeBreakProperty.txt emoji-data.txt` (do
//! not edit, run the script) from Unicode 15.0.0's
//! <{grapheme_url}>
//! (SHA-256 `{grapheme_sha}`) and
//! <{emoji_url}>
//! (SHA-256 `{emoji_sha}`),
//! the data apparentlymart/go-textseg v15.0.0 was generated from.
//!
//! go-textseg's grammar (`textseg/grapheme_clusters.rl`) matches each class with a machine that
//! ragel's `unicode2ragel.rb` wrote byte by byte: where a range of code points spans several
//! lead bytes, the bytes after the lead range over `0x00..0xFF`, so bytes that are not UTF-8
//! (a bad lead byte followed by a quote or a newline) match a class too. These tables are those
//! machines: [`BY_LEAD`] gives each lead byte its alternatives, each the classes (bits) it
//! matches and the range each byte after the lead may take; every alternative of a lead byte
//! has the same length. A valid character's bytes match the classes of its code point and no
//! other (the widening adds only sequences that are not UTF-8), which [`CODE_POINTS`] lists
//! for a faster look-up.

/// One alternative: the classes it matches, and the range of each byte after the lead.
pub(super) type Alternative = (u16, &'static [(u8, u8)]);
"""

LINE_WIDTH = 100


def rust_code_points(code_points):
    """The code point table of the Rust file, packed into lines of at most 100 columns."""
    lines = [
        "",
        "/// The classes of valid characters: (first, last, classes), disjoint, in order.",
        "#[rustfmt::skip]",
        "pub(super) static CODE_POINTS: &[(u32, u32, u16)] = &[",
    ]
    line = "   "
    for first, last, bits in code_points:
        item = f" (0x{first:04X}, 0x{last:04X}, 0x{bits:04X}),"
        if len(line) + len(item) > LINE_WIDTH:
            lines.append(line)
            line = "   "
        line += item
    lines.append(line)
    lines.append("];")
    return "\n".join(lines) + "\n"


def rust_file(table, code_points):
    text = HEADER.format(
        grapheme_url=GRAPHEME_URL,
        grapheme_sha=GRAPHEME_SHA256,
        emoji_url=EMOJI_URL,
        emoji_sha=EMOJI_SHA256,
    )
    text += "\n"
    for index, cls in enumerate(CLASSES):
        text += f"pub(super) const {rust_name(cls)}: u16 = 1 << {index};\n"
    # Lead bytes with the same alternatives share one static.
    names = {}
    statics = []
    for lead in range(0x100):
        alternatives = tuple(table.get(lead, ()))
        if not alternatives or alternatives in names:
            continue
        name = f"LEAD_{lead:02X}"
        names[alternatives] = name
        lines = ["", "#[rustfmt::skip]", f"static {name}: &[Alternative] = &["]
        line = "   "
        for tail, bits in alternatives:
            ranges = ", ".join(f"(0x{low:02X}, 0x{high:02X})" for low, high in tail)
            item = f" (0x{bits:04X}, &[{ranges}]),"
            if len(line) + len(item) > LINE_WIDTH:
                lines.append(line)
                line = "   "
            line += item
        lines.append(line)
        lines.append("];")
        statics.append("\n".join(lines) + "\n")
    text += "".join(statics)
    text += "\n/// The alternatives of each lead byte.\n#[rustfmt::skip]\n"
    text += "pub(super) static BY_LEAD: [&[Alternative]; 256] = [\n"
    for row in range(0, 0x100, 8):
        items = []
        for lead in range(row, row + 8):
            alternatives = tuple(table.get(lead, ()))
            items.append(names[alternatives] if alternatives else "&[]")
        text += "    " + ", ".join(items) + ",\n"
    text += "];\n"
    text += rust_code_points(code_points)
    return text


# Comparison ------------------------------------------------------------------------------------

PAIR = re.compile(r"\(0x([0-9A-Fa-f]{2}), 0x([0-9A-Fa-f]{2})\)")


def entries_of_table(table):
    """A lead table back as each class's entries, lead range first (for `differences`)."""
    by_class = {cls: [] for cls in CLASSES}
    for lead, alternatives in table.items():
        for tail, bits in alternatives:
            for index, cls in enumerate(CLASSES):
                if bits & (1 << index):
                    by_class[cls].append([(lead, lead)] + list(tail))
    return by_class


def parse_rust_table(text):
    """The lead table of a grapheme_tables.rs."""
    statics = {}
    for name, body in re.findall(
        r"static (LEAD_[0-9A-F]{2}): &\[Alternative\] = &\[(.*?)\n\];", text, re.DOTALL
    ):
        statics[name] = [
            ([(int(a, 16), int(b, 16)) for a, b in PAIR.findall(ranges)], int(bits, 16))
            for bits, ranges in re.findall(r"\(0x([0-9A-F]{4}), &\[([^\]]*)\]\)", body)
        ]
    match = re.search(r"static BY_LEAD: \[&\[Alternative\]; 256\] = \[(.*?)\n\];", text, re.DOTALL)
    if match is None:
        sys.exit("no BY_LEAD table in the file to compare with")
    leads = re.findall(r"LEAD_[0-9A-F]{2}|&\[\]", match.group(1))
    if len(leads) != 0x100:
        sys.exit(f"BY_LEAD has {len(leads)} entries, not 256")
    return {lead: statics[name] for lead, name in enumerate(leads) if name != "&[]"}


RAGEL_BYTE = r"0x([0-9A-F]{2})(?:\.\.0x([0-9A-F]{2}))?"


def parse_ragel(text):
    """The alternatives of each machine of a unicode2ragel `.rl` file."""
    machines = {}
    current = None
    for line in text.splitlines():
        code = line.split("#", 1)[0].strip()
        header = re.fullmatch(r"(\w+) =", code)
        if header:
            current = machines.setdefault(header.group(1), [])
            continue
        if current is None or not code or code == ";":
            continue
        entry = [
            (int(low, 16), int(high or low, 16))
            for low, high in re.findall(RAGEL_BYTE, code.lstrip("|"))
        ]
        if entry:
            current.append(entry)
    return machines


def report(label, old, new):
    """Prints the differences of each class; 1 when there are any."""
    failed = False
    for cls in CLASSES:
        found = differences(old[cls], new[cls])
        for prefix, accepted_by in found[:20]:
            ranges = " ".join(f"{low:02X}..{high:02X}" for low, high in prefix)
            who = f"the {label}" if accepted_by == "old" else "the new"
            print(f"{cls}: {ranges} matched only by {who} tables")
        failed |= bool(found)
        print(
            f"{cls}: {len(old[cls])} {label} entries, {len(new[cls])} new, "
            f"{len(found)} differences"
        )
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("grapheme", help="Unicode 15.0.0 GraphemeBreakProperty.txt")
    parser.add_argument("emoji", help="Unicode 15.0.0 emoji-data.txt")
    parser.add_argument("--out", default=DEFAULT_OUT, help="the Rust file to write")
    parser.add_argument("--compare", metavar="OLD", help="check against another grapheme_tables.rs")
    parser.add_argument(
        "--compare-ragel",
        nargs=2,
        metavar=("GRAPHEME_RL", "EMOJI_RL"),
        help="check against go-textseg v15.0.0's grapheme_clusters_table.rl and emoji_table.rl",
    )
    args = parser.parse_args()

    grapheme_text = read_checked(args.grapheme, GRAPHEME_SHA256)
    emoji_text = read_checked(args.emoji, EMOJI_SHA256)
    table = lead_table(tails_by_lead(class_alternatives(grapheme_text, emoji_text)))

    if args.compare:
        old = parse_rust_table(open(args.compare, encoding="utf-8").read())
        return report("old", entries_of_table(old), entries_of_table(table))
    if args.compare_ragel:
        machines = {}
        for path in args.compare_ragel:
            machines.update(parse_ragel(open(path, encoding="utf-8").read()))
        missing = [cls for cls in CLASSES if cls not in machines]
        if missing:
            sys.exit(f"no machine for {', '.join(missing)} in the ragel files")
        return report("ragel", {cls: machines[cls] for cls in CLASSES}, entries_of_table(table))

    with open(args.out, "w", encoding="utf-8") as out:
        out.write(rust_file(table, code_point_table(grapheme_text, emoji_text)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
