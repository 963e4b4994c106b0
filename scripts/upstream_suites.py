#!/usr/bin/env python3
"""Run Terraform's or OpenTofu's own configuration test suites through tflint-merge.

    scripts/upstream_suites.py terraform /tmp/upstream-tf/internal/configs/testdata
    scripts/upstream_suites.py opentofu /tmp/upstream-tofu/internal/configs/testdata

The suites are the `internal/configs/testdata` folders the tools test their configuration
loader with: valid-files, valid-modules, warning-files, invalid-files, invalid-modules and
error-files. Each case is checked in the matching view (`--view terraform` or `--view
opentofu`): a `*-files` case is one file, checked alone in a directory of its own; a
`*-modules` case is a directory, checked without the directories below it.

What is expected of each case is what upstream's Go tests expect of it:
- valid-files, valid-modules, warning-files (TestParserLoadConfigFileSuccess,
  TestParserLoadConfigDirSuccess, TestParserLoadConfigFileWarning): the case loads, so it must
  get no error-level finding, unless the tool refuses it at `init` or at the core-version
  check, which the loader tests do not run (MUST_LOAD_EXCEPTIONS, each with the upstream code
  that refuses it).
- error-files (TestParserLoadConfigFileError): each `# ERROR: <summary>` comment is an error
  with that summary starting on that line.
- invalid-files and invalid-modules: upstream only asks for some error
  (TestParserLoadConfig{File,Dir}Failure), except for the `# ERROR:` comments some of them
  carry and the summaries TestParserLoadConfigFileFailureMessages lists for a few files, which
  are kept in GO_TEST_SUMMARIES below (upstream writes them in Go, not in the files).

An expected summary is either in scope of tflint-merge (the tools' own load errors, which it
reports with the tools' summaries: it must be reported) or out of scope (OUT_OF_SCOPE, with
the reason: it needs evaluation, a provider's schema, or is a check tflint-merge does not
make). Every summary is counted as matched, in scope or out of scope.

The suites are judged against the upstream tree's own version (`version/VERSION`, e.g.
`1.17.0-dev`, an experimental build for Terraform, as its tests allow experiments), or
`--target`. The exit status is 1 when a must-load case gets an error-level finding or an
in-scope summary is not reported, 2 on a usage error.

Fetching the suites (the commits last checked are in UPSTREAM below), a sparse checkout of the
two folders the script reads:

    git clone --depth 1 --filter=blob:none --sparse https://github.com/hashicorp/terraform \\
        /tmp/upstream-tf
    git -C /tmp/upstream-tf sparse-checkout set internal/configs/testdata version

(and the same with https://github.com/opentofu/opentofu into /tmp/upstream-tofu); the script
prints these commands when the suites are missing. No upstream code or test data is copied into
this repository: only the expectations' summaries and the classifications below.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter

SUITES = [
    "valid-files",
    "valid-modules",
    "warning-files",
    "invalid-files",
    "invalid-modules",
    "error-files",
]
MUST_LOAD = {"valid-files", "valid-modules", "warning-files"}
CONFIG_EXTENSIONS = (".tf", ".tf.json", ".tofu", ".tofu.json")
UPSTREAM = {
    "terraform": ("https://github.com/hashicorp/terraform", "883c7221ee", "/tmp/upstream-tf"),
    "opentofu": ("https://github.com/opentofu/opentofu", "f831fa1aa4", "/tmp/upstream-tofu"),
}

# Must-load cases the real tool refuses before or after loading, outside the loader its Go
# tests run: `init` refuses a backend type it does not have, and every command checks the core
# version. Each entry: case -> the upstream code that refuses it.
MUST_LOAD_EXCEPTIONS = {
    "terraform": {
        "valid-files/backend.tf": "backend \"example\": internal/command/init.go "
        "earlyValidateBackend (`Unsupported backend type`), also validate.go "
        "validateBackendTypeSupported",
        "valid-files/required-version.tf": "required_version = \"~> 0.12.0\": "
        "internal/configs/module.go CheckCoreVersionRequirements "
        "(`Unsupported Terraform Core version`)",
        "valid-modules/override-backend": "backend \"foo\"/\"bar\": internal/command/init.go "
        "earlyValidateBackend",
        "valid-modules/override-backend-no-base": "backend \"bar\": internal/command/init.go "
        "earlyValidateBackend",
        "valid-modules/override-cloud-with-backend": "backend \"foo\": "
        "internal/command/init.go earlyValidateBackend",
    },
    "opentofu": {
        "valid-files/backend.tf": "backend \"example\": internal/command/init.go initBackend "
        "(`Unsupported backend type`)",
        "valid-modules/override-backend": "backend \"foo\"/\"bar\": internal/command/init.go "
        "initBackend",
        "valid-modules/override-backend-no-base": "backend \"bar\": internal/command/init.go "
        "initBackend",
    },
}

# Summaries upstream's TestParserLoadConfigFileFailureMessages expects, one error per file.
GO_TEST_SUMMARIES = {
    "terraform": {
        "invalid-files/data-resource-lifecycle.tf": "Invalid data resource lifecycle argument",
        "invalid-files/variable-type-unknown.tf": "Invalid type specification",
        "invalid-files/unexpected-attr.tf": "Unsupported argument",
        "invalid-files/unexpected-block.tf": "Unsupported block type",
        "invalid-files/resource-count-and-for_each.tf":
            'Invalid combination of "count" and "for_each"',
        "invalid-files/data-count-and-for_each.tf":
            'Invalid combination of "count" and "for_each"',
        "invalid-files/resource-lifecycle-badbool.tf": "Unsuitable value type",
    },
    "opentofu": {
        "invalid-files/data-resource-lifecycle.tf": "Invalid data resource lifecycle argument",
        "invalid-files/variable-type-unknown.tf": "Invalid type specification",
        "invalid-files/unexpected-attr.tf": "Unsupported argument",
        "invalid-files/unexpected-block.tf": "Unsupported block type",
        "invalid-files/ephemeral-count-and-for_each-and-enabled.tf":
            'Invalid combination of "count", "enabled", and "for_each"',
        "invalid-files/resource-count-and-for_each.tf":
            'Invalid combination of "count" and "for_each"',
        "invalid-files/resource-count-and-for_each-and-enabled.tf":
            'Invalid combination of "count", "enabled", and "for_each"',
        "invalid-files/data-count-and-for_each.tf":
            'Invalid combination of "count" and "for_each"',
        "invalid-files/data-count-and-for_each-and-enabled.tf":
            'Invalid combination of "count", "enabled", and "for_each"',
        "invalid-files/resource-lifecycle-badbool.tf": "Unsuitable value type",
        "invalid-files/variable-complex-bad-default-inner-obj.tf":
            "Invalid default value for variable",
        "invalid-files/empty-deprecated-output-attr.tf": "Invalid `deprecated` attribute",
    },
}

# Expected error summaries tflint-merge does not report, with why: (case, summary) -> reason.
# In scope (and so required) are the tools' own load errors of issue 11, items 3-5: unknown
# blocks and arguments of tool-defined bodies, type specifications, function names, backends,
# core versions, and the newer releases' semantics (action, enabled, const variables, null module
# versions, encryption, state_store). A summary listed here that is reported after all is shown,
# so that the entry can go.
REFERENCES = ("a check of the references in an expression (what a condition or provisioner "
              "may refer to), not a construct of items 3-5")
COMMON_OUT_OF_SCOPE = {
    ("invalid-files/precondition-postcondition-badref.tf", "Invalid reference in precondition"):
        REFERENCES,
    ("invalid-files/precondition-postcondition-badref.tf", "Invalid reference in postcondition"):
        REFERENCES,
    ("error-files/precondition-postcondition-selfref.tf", "Invalid reference in precondition"):
        REFERENCES,
    ("error-files/precondition-postcondition-selfref.tf", "Invalid reference in postcondition"):
        REFERENCES,
    ("error-files/destroy-provisioners.tf", "Invalid reference from destroy provisioner"):
        REFERENCES,
    ("error-files/ignore_changes.tf", "Invalid ignore_changes wildcard"):
        "the value of ignore_changes (\"*\" for all): a value check, not a construct of "
        "items 3-5",
    ("error-files/provider-source-prefix.tf", "Invalid provider type"):
        "provider source address validation (a `terraform-provider-` prefix): not in items 3-5",
}
OUT_OF_SCOPE = {
    "terraform": COMMON_OUT_OF_SCOPE,
    "opentofu": {
        **COMMON_OUT_OF_SCOPE,
        ("invalid-files/empty-deprecated-output-attr.tf", "Invalid `deprecated` attribute"):
            "the value of `deprecated` (an empty string): a value check, not in items 3-5",
        ("error-files/duplicate-block-in-provisioner.tf", "Duplicate connection block"):
            "how many connection blocks a provisioner has: a provisioner body's own check, "
            "not in items 3-5",
        ("error-files/duplicate-block-in-provisioner.tf", "Duplicate escaping block"):
            "how many `_` escaping blocks a provisioner has: not in items 3-5",
        ("error-files/invalid-keyword-in-provisioner.tf", 'Invalid "when" keyword'):
            "the value of a provisioner's `when`: a keyword check, not in items 3-5",
        ("error-files/invalid-keyword-in-provisioner.tf", 'Invalid "on_failure" keyword'):
            "the value of a provisioner's `on_failure`: a keyword check, not in items 3-5",
        ("error-files/invalid-keyword-in-provisioner.tf",
         "Reserved block type name in provisioner block"):
            "reserved block names in a provisioner (whose body the provisioner defines): not "
            "in items 3-5",
        ("error-files/module-invalid-registry-source-with-module.tf",
         "Invalid registry module source address"):
            "registry host name validation of a module source (module_source_invalid checks "
            "the source forms, not host names): not in items 3-5",
        ("error-files/module-sensitive.tf", "Sensitive value not allowed"):
            "needs evaluation: OpenTofu evaluates `sensitive(...)` in a module source",
        ("error-files/module-sensitive.tf", "Invalid version constraint"):
            "needs evaluation: OpenTofu evaluates `sensitive(...)` in a module version",
    },
}


def fetch_instructions(tool):
    url, commit, into = UPSTREAM[tool]
    return (
        f"fetch the {tool} suites (last checked at {commit}) with:\n"
        f"  git clone --depth 1 --filter=blob:none --sparse {url} {into}\n"
        f"  git -C {into} sparse-checkout set internal/configs/testdata version\n"
        f"then run: {sys.argv[0]} {tool} {into}/internal/configs/testdata"
    )


def upstream_version(testdata):
    """The tree's own version (`version/VERSION`), if it was extracted beside the suites."""
    path = os.path.join(testdata, os.pardir, os.pardir, os.pardir, "version", "VERSION")
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().strip() or None
    except OSError:
        return None


def cases(testdata, suite):
    """(case name, files to check, path given to tflint-merge or None to copy the files)."""
    base = os.path.join(testdata, suite)
    if not os.path.isdir(base):
        return
    for name in sorted(os.listdir(base)):
        path = os.path.join(base, name)
        if suite.endswith("-files"):
            if os.path.isfile(path) and name.endswith(CONFIG_EXTENSIONS):
                yield f"{suite}/{name}", [path], None
        elif os.path.isdir(path):
            files = sorted(
                os.path.join(path, f)
                for f in os.listdir(path)
                if f.endswith(CONFIG_EXTENSIONS) and os.path.isfile(os.path.join(path, f))
            )
            # A file path makes tflint-merge check the directory holding it, not those below.
            yield f"{suite}/{name}", files, files[0] if files else None


def comment_expectations(files, marker):
    """(file name, line, summary) for each `<marker>: summary` comment, as upstream reads them."""
    found = []
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, start=1):
                at = line.find(marker + ": ")
                if at != -1:
                    found.append((os.path.basename(path), number, line[at + len(marker) + 2:]
                                  .rstrip("\n")))
    return found


def run(binary, view, target, path):
    command = [binary, "--view", view, "--format", "json", "-j", "1", "--exit-zero"]
    if target:
        command += [f"--{view}-version", target]
    result = subprocess.run(command + [path], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} {path}: exit {result.returncode}\n"
                           f"{result.stderr.strip()}")
    return json.loads(result.stdout)["findings"]


def check_case(binary, view, target, files, path):
    if path is not None:
        return run(binary, view, target, path)
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            shutil.copy(f, tmp)
        return run(binary, view, target, tmp)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("tool", choices=sorted(UPSTREAM))
    parser.add_argument("testdata", nargs="?", help="the internal/configs/testdata folder")
    parser.add_argument("--bin", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), os.pardir, "target", "release",
        "tflint-merge"), help="the tflint-merge binary (default: target/release/tflint-merge)")
    parser.add_argument("--target", help="the tool version to judge against (default: the "
                        "tree's version/VERSION; '' for each case's own constraints)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also list matched and out-of-scope summaries")
    args = parser.parse_args()
    tool = args.tool
    testdata = args.testdata or os.path.join(UPSTREAM[tool][2], "internal", "configs",
                                             "testdata")
    if not all(os.path.isdir(os.path.join(testdata, s)) for s in SUITES):
        print(f"{testdata}: not an internal/configs/testdata folder with the suites "
              f"{', '.join(SUITES)}", file=sys.stderr)
        print(fetch_instructions(tool), file=sys.stderr)
        return 2
    if not os.access(args.bin, os.X_OK):
        print(f"{args.bin}: no such binary; build it with `cargo build --release` or pass "
              "--bin", file=sys.stderr)
        return 2
    target = args.target if args.target is not None else upstream_version(testdata)
    print(f"{tool} suites in {testdata}, judged against {target or 'the module constraints'}")

    exceptions = MUST_LOAD_EXCEPTIONS[tool]
    go_summaries = GO_TEST_SUMMARIES[tool]
    out_of_scope = OUT_OF_SCOPE[tool]
    used = set()
    failed = False
    totals = Counter()
    for suite in SUITES:
        counts = Counter()
        lines = []
        for case, files, path in cases(testdata, suite):
            counts["cases"] += 1
            try:
                findings = check_case(args.bin, tool, target, files, path)
            except (RuntimeError, ValueError, KeyError) as error:
                counts["tflint-merge failed"] += 1
                lines.append(f"  FAILED {case}: {error}")
                failed = True
                continue
            errors = [f for f in findings if f["severity"] == "error"]
            if suite in MUST_LOAD:
                if case in exceptions:
                    used.add(case)
                    counts["refused at init/version check"] += 1
                    lines.append(f"  excepted {case}: {exceptions[case]}")
                elif errors:
                    counts["must load, got errors"] += 1
                    failed = True
                    for f in errors:
                        lines.append(f"  ERROR ON MUST-LOAD {case}: {f['rule']}: "
                                     f"{f['message']} (line {f['start']['line']})")
                for _, line, summary in comment_expectations(files, "WARNING"):
                    counts["# WARNING: expected"] += 1
                    if any(f["message"] == summary and f["start"]["line"] == line
                           for f in findings):
                        counts["# WARNING: reported"] += 1
                continue
            if errors:
                counts["cases with an error"] += 1
            elif args.verbose:
                lines.append(f"  no error (upstream wants one): {case}")
            expected = [(name, line, summary)
                        for name, line, summary in comment_expectations(files, "ERROR")]
            if case in go_summaries:
                expected.append((None, None, go_summaries[case]))
            for name, line, summary in expected:
                counts["summaries"] += 1
                key = (case, summary)
                reported = any(
                    f["message"] == summary
                    and (line is None or (os.path.basename(f["file"]) == name
                                          and f["start"]["line"] == line))
                    for f in errors
                )
                where = f"{case}:{line}" if line else f"{case} (Go test)"
                if key in out_of_scope:
                    used.add(key)
                    counts["out of scope"] += 1
                    if reported:
                        lines.append(f"  now reported, drop from OUT_OF_SCOPE: {where}: "
                                     f"{summary}")
                    elif args.verbose:
                        lines.append(f"  out of scope {where}: {summary}: {out_of_scope[key]}")
                    continue
                counts["in scope"] += 1
                if reported:
                    counts["in scope, reported"] += 1
                    if args.verbose:
                        lines.append(f"  reported {where}: {summary}")
                else:
                    failed = True
                    got = sorted({(f["message"], f["start"]["line"]) for f in errors})
                    lines.append(f"  MISSED {where}: {summary}; errors reported: {got}")
        totals.update(counts)
        print(f"== {suite}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
        for line in lines:
            print(line)
    stale = [k for k in list(exceptions) + list(out_of_scope) if k not in used]
    for key in stale:
        print(f"  stale entry (no such case or summary): {key}")
    print("== total: " + ", ".join(f"{k} {v}" for k, v in totals.items()))
    return 1 if failed or stale else 0


if __name__ == "__main__":
    sys.exit(main())
