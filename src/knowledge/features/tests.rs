//! The tables agree with `../shared/spec/tool-versions.md`: the function and backend lists and
//! per-version function diffs are parsed from the spec; the feature rows are matched by the
//! text of their first cell, and the release each tool added them in is read from the spec.

use std::collections::BTreeSet;

use super::*;

const SPEC: &str = include_str!("../../../../shared/spec/tool-versions.md");

const TERRAFORM_HEAD: Release = Release::new(1, 17);
const OPENTOFU_HEAD: Release = Release::new(1, 13);

/// The backquoted names of a line: "- `local`, `remote`" → local, remote.
fn quoted(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// The lines after the first line that starts with `heading`, up to the next blank line.
fn paragraph_after<'a>(heading: &str) -> Vec<&'a str> {
    let mut lines = SPEC.lines().skip_while(|l| !l.starts_with(heading)).skip(1);
    let mut out = Vec::new();
    for line in lines.by_ref() {
        if line.trim().is_empty() {
            if out.is_empty() {
                continue;
            }
            break;
        }
        out.push(line);
    }
    assert!(!out.is_empty(), "spec has a paragraph after {heading:?}");
    out
}

fn set<'a>(names: impl IntoIterator<Item = &'a str>) -> BTreeSet<&'a str> {
    names.into_iter().collect()
}

#[test]
fn functions_at_head_match_the_spec_lists() {
    let terraform_list = paragraph_after("**Terraform HEAD** has 122 names");
    let mut terraform: BTreeSet<&str> = terraform_list[0]
        .trim_start_matches("> ")
        .split(", ")
        .collect();
    assert_eq!(terraform.len(), 122);
    // The spec lists `type`, which only the console has (see `console_only_functions`).
    assert!(terraform.remove("type"));
    assert_eq!(
        set(names(View::Terraform, TERRAFORM_HEAD, Function)),
        terraform
    );

    let extra = paragraph_after("**OpenTofu HEAD** has 137 names");
    let opentofu_extra: Vec<&str> = extra.iter().take(2).flat_map(|l| quoted(l)).collect();
    assert_eq!(opentofu_extra.len(), 15);
    let opentofu: BTreeSet<&str> = terraform.iter().copied().chain(opentofu_extra).collect();
    assert_eq!(
        set(names(View::OpenTofu, OPENTOFU_HEAD, Function)),
        opentofu
    );

    // "At the last OpenTofu release … the set is OpenTofu HEAD minus `convert` and the 12
    // `assume*` functions: 124 names"; "The baseline at TF v1.0.0 is 113 map keys".
    // The spec's counts include `type`, which a module cannot call.
    assert_eq!(
        names(View::OpenTofu, Release::new(1, 12), Function).len(),
        124 - 1
    );
    assert_eq!(
        names(View::Terraform, Release::new(1, 0), Function).len(),
        113
    );
    assert_eq!(
        names(View::OpenTofu, Release::new(1, 6), Function).len(),
        118 - 1
    );
    assert_eq!(
        names(View::Terraform, Release::new(1, 6), Function).len(),
        118 - 1
    );
}

/// `type` is a function of `terraform console` (and `tofu console`) only: Terraform 1.6 to
/// 1.15 answer "Call to unknown function" when a module calls it (scripts/differential.py).
#[test]
fn console_only_functions() {
    for view in View::ALL {
        for (release, _) in super::super::releases::all(view) {
            assert_eq!(accepts(view, *release, Function, "type"), Some(false));
        }
    }
    assert_eq!(
        accepts(
            View::Terraform,
            Release::new(1, 15),
            Function,
            "plantimestamp"
        ),
        Some(true)
    );
}

/// "  - 1.3.0: +`endswith`, `startswith`, `timecmp`; −`defaults`" → (1.3, added, removed).
fn diff_line(line: &str) -> Option<(Release, Vec<&str>, Vec<&str>)> {
    let (version, changes) = line.trim().strip_prefix("- ")?.split_once(": ")?;
    let version = version.trim_start_matches("HEAD (").trim_end_matches(')');
    let mut numbers = version.split(['.', '-']);
    let major = numbers.next()?.parse().ok()?;
    let minor = numbers.next()?.parse().ok()?;
    let (added, removed) = changes.split_once('−').unwrap_or((changes, ""));
    Some((Release::new(major, minor), quoted(added), quoted(removed)))
}

#[test]
fn per_version_function_diffs_match_the_spec() {
    let mut checked = 0;
    for (tool, view) in [
        ("- **Terraform**:", View::Terraform),
        ("- **OpenTofu**:", View::OpenTofu),
    ] {
        for line in paragraph_after(tool)
            .into_iter()
            .take_while(|l| l.starts_with("  "))
        {
            let Some((release, added, removed)) = diff_line(line) else {
                continue; // "no change" lines
            };
            for name in added {
                if name == "type" {
                    continue; // the console's only (see `console_only_functions`)
                }
                if let Some(prefix) = name.strip_suffix('*') {
                    // "the 12 `assume*` functions"
                    let rows = FEATURES
                        .iter()
                        .filter(|f| f.place == Function && f.name.starts_with(prefix));
                    for row in rows {
                        assert_eq!(row.availability(view).since(), Some(release), "{prefix}*");
                        checked += 1;
                    }
                    continue;
                }
                let row = find(Function, name).expect("a row per added function");
                assert_eq!(
                    row.availability(view).since(),
                    Some(release),
                    "{view} {name}"
                );
                checked += 1;
            }
            for name in removed {
                let row = find(Function, name).expect("a row per removed function");
                assert_eq!(
                    row.availability(view).until(),
                    Some(release),
                    "{view} {name}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 10 + 7 + 12, "every change of the spec's lists");
}

#[test]
fn backends_at_head_match_the_spec() {
    for (heading, view, head) in [
        (
            "**Terraform HEAD (1.17.0-dev)**",
            View::Terraform,
            TERRAFORM_HEAD,
        ),
        (
            "**OpenTofu HEAD (1.13.0-dev)**",
            View::OpenTofu,
            OPENTOFU_HEAD,
        ),
    ] {
        let lines = paragraph_after(heading);
        let current = set(quoted(lines[0]));
        assert_eq!(set(names(view, head, Backend)), current, "{view}");
    }
    for name in ["artifactory", "etcd", "etcdv3", "manta", "swift", "azure"] {
        assert!(is_removed_backend(name));
        assert_eq!(
            accepts(View::Terraform, Release::new(1, 2), Backend, name),
            Some(true)
        );
        assert_eq!(
            accepts(View::Terraform, Release::new(1, 3), Backend, name),
            Some(false)
        );
    }
    assert_eq!(
        removed_backend_message(View::Terraform, "etcd"),
        "The \"etcd\" backend is not supported in Terraform v1.3 or later."
    );
}

/// The release a cell of the spec's "added" columns names: `≤1.0` → 1.0, `1.10.0 …` → 1.10,
/// `— …` → none.
fn added_in(cell: &str) -> Option<Release> {
    let cell = cell.trim();
    if cell.starts_with('—') {
        return None;
    }
    let version = cell.trim_start_matches('≤');
    let mut numbers = version.split(|c: char| !c.is_ascii_digit());
    let major = numbers.next()?.parse().ok()?;
    let minor = numbers.next()?.parse().ok()?;
    Some(Release::new(major, minor))
}

/// Rows of the spec's §1 tables, by the start of their first cell, and the rows of ours they
/// describe.
const SAMPLE: &[(&str, &[(Place, &str)])] = &[
    (
        "`moved` (`from`, `to`)",
        &[(TopLevel, "moved"), (In(B::Moved), "from")],
    ),
    (
        "`import` (`to`, `id`, `provider`)",
        &[(TopLevel, "import"), (In(B::Import), "id")],
    ),
    ("`import` `for_each`", &[(In(B::Import), "for_each")]),
    ("`import` `identity`", &[(In(B::Import), "identity")]),
    (
        "`check` (nested",
        &[(TopLevel, "check"), (In(B::Check), "assert")],
    ),
    (
        "`removed` |",
        &[(TopLevel, "removed"), (In(B::Removed), "from")],
    ),
    (
        "`removed` → nested `lifecycle`",
        &[(In(B::Removed), "lifecycle")],
    ),
    ("`ephemeral \"<type>\"", &[(TopLevel, "ephemeral")]),
    (
        "`action \"<type>\"",
        &[(TopLevel, "action"), (In(B::Action), "config")],
    ),
    (
        "`lifecycle { action_trigger",
        &[(In(B::Lifecycle), "action_trigger")],
    ),
    (
        "`language { edition",
        &[(TopLevel, "language"), (In(B::Language), "edition")],
    ),
    (
        "`.tofu`, `.tofu.json`",
        &[(FileType, ".tofu"), (FileType, ".tofu.json")],
    ),
    ("`.tftest.hcl`", &[(FileType, ".tftest.hcl")]),
    ("`.tfquery.hcl`", &[(FileType, ".tfquery.hcl")]),
    ("`cloud` |", &[(In(B::Terraform), "cloud")]),
    ("`encryption`", &[(In(B::Terraform), "encryption")]),
    (
        "Module `ignore_nested_deprecations`",
        &[(In(B::Module), "ignore_nested_deprecations")],
    ),
    (
        "Module `lifecycle { enabled }`",
        &[(In(B::ModuleLifecycle), "enabled")],
    ),
    (
        "`enabled` inside `lifecycle`",
        &[(In(B::Lifecycle), "enabled")],
    ),
    (
        "Lifecycle `replace_triggered_by`",
        &[(In(B::Lifecycle), "replace_triggered_by")],
    ),
    (
        "Lifecycle `precondition`",
        &[(In(B::Lifecycle), "postcondition")],
    ),
    (
        "Lifecycle `destroy = false`",
        &[(In(B::Lifecycle), "destroy")],
    ),
    ("Provider `for_each`", &[(In(B::Provider), "for_each")]),
    ("Variable `nullable`", &[(In(B::Variable), "nullable")]),
    ("Variable `ephemeral`", &[(In(B::Variable), "ephemeral")]),
    ("Variable `deprecated`", &[(In(B::Variable), "deprecated")]),
    ("Variable `const`", &[(In(B::Variable), "const")]),
    ("Output `ephemeral`", &[(In(B::Output), "ephemeral")]),
    ("Output `type`", &[(In(B::Output), "type")]),
    ("`core::NAME`", &[(FunctionNamespace, "core")]),
    (
        "Provider-defined functions",
        &[(FunctionNamespace, "provider")],
    ),
    ("`oci`", &[(Backend, "oci")]),
    (
        "`startswith`, `endswith`",
        &[(Function, "startswith"), (Function, "endswith")],
    ),
    ("`templatestring`", &[(Function, "templatestring")]),
    ("`convert`", &[(Function, "convert")]),
];

#[test]
fn sampled_feature_rows_match_the_spec() {
    for (start, ours) in SAMPLE {
        let needle = format!("| {start}");
        let line = SPEC
            .lines()
            .find(|l| l.starts_with(&needle))
            .unwrap_or_else(|| panic!("the spec has a row starting {needle:?}"));
        let cells: Vec<&str> = line.split(" | ").collect();
        let (terraform, opentofu) = (added_in(cells[2]), added_in(cells[3]));
        for (place, name) in *ours {
            let row = find(*place, name).unwrap_or_else(|| panic!("a row for {name}"));
            assert_eq!(
                row.terraform.since(),
                terraform,
                "Terraform {name} ({start})"
            );
            assert_eq!(row.opentofu.since(), opentofu, "OpenTofu {name} ({start})");
        }
    }
}

#[test]
fn every_row_is_unique() {
    let mut seen = std::collections::HashSet::new();
    for f in FEATURES {
        assert!(seen.insert((f.place, f.name)), "{} twice", f.name);
    }
    for name in BASE_FUNCTIONS {
        assert!(find(Function, name).is_none(), "{name} both base and a row");
    }
}
