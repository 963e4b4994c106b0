#!/usr/bin/env python3
"""Seeds a fuzz corpus: scripts/fuzz_seeds.py TARGET DIR.

parse_native gets every .tf, .tofu and .hcl file of tests/conformance, tests/corpus_sample,
tests/fixtures and, when it is beside the checkout, the whole corpus ../shared/corpus;
parse_json every .tf.json and .tofu.json file; directory one input per directory holding
configuration files, in the format of tflint_merge::fuzzing::check_files: up to four parts
separated by NUL bytes, each a byte naming the file (an index into its FILE_NAMES) and then
the text; linear_work every native file of at most 4 KiB behind two bytes that cut it into a
prefix, a unit and a suffix (tflint_merge::fuzzing::super_linear_growth), plus the shapes of
tests/fuzz_regressions/linear_work.
"""
import hashlib
import os
import sys

ROOTS = ["tests/conformance", "tests/corpus_sample", "tests/fixtures"]
# The whole corpus of real modules is not part of the repository; it seeds more when it is there.
if os.path.isdir("../shared/corpus"):
    ROOTS.append("../shared/corpus")
# Index in FILE_NAMES (src/lib.rs, module fuzzing) of the name a file of this kind takes.
NAME_INDEX = [
    ("_override.tf.json", 6),
    ("override.tf.json", 6),
    (".tofu.json", 7),
    (".tf.json", 5),
    ("_override.tofu", 4),
    ("override.tofu", 4),
    (".tofu", 3),
    ("_override.tf", 2),
    ("override.tf", 1),
    ("terragrunt.hcl", 8),
    (".hcl", 9),
    (".tf", 0),
]
MAX_BYTES = 64 * 1024


def kind(name):
    for suffix, index in NAME_INDEX:
        if name.endswith(suffix):
            return index
    return None


def files():
    for root in ROOTS:
        for dirpath, _, names in os.walk(root):
            for name in sorted(names):
                path = os.path.join(dirpath, name)
                if kind(name) is not None and os.path.getsize(path) <= MAX_BYTES:
                    yield dirpath, name, path


def write(out, data):
    digest = hashlib.sha1(data).hexdigest()
    with open(os.path.join(out, digest), "wb") as f:
        f.write(data)


def main():
    target, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    if target == "directory":
        by_dir = {}
        for dirpath, name, path in files():
            by_dir.setdefault(dirpath, []).append((name, path))
        for entries in by_dir.values():
            parts = []
            for name, path in entries[:4]:
                with open(path, "rb") as f:
                    parts.append(bytes([kind(name)]) + f.read().replace(b"\0", b""))
            write(out, b"\0".join(parts))
        return
    if target == "linear_work":
        for _, name, path in files():
            if name.endswith((".tf", ".tofu", ".hcl")) and os.path.getsize(path) <= 4096:
                with open(path, "rb") as f:
                    write(out, bytes([64, 160]) + f.read())
        regressions = "tests/fuzz_regressions/linear_work"
        for name in sorted(os.listdir(regressions)):
            with open(os.path.join(regressions, name), "rb") as f:
                write(out, f.read())
        return
    json = target == "parse_json"
    for _, name, path in files():
        if name.endswith(".json") == json and not name.endswith(".hcl") or (
            not json and name.endswith(".hcl")
        ):
            with open(path, "rb") as f:
                write(out, f.read())


main()
