//! The tables agree with the facts of `tests/tool_versions.txt` (its header says how to read
//! it; each fact names the changelog entry or source file of the tool it comes from): the
//! release lines that brought sampled blocks, arguments, file types, namespaces and backends,
//! the built-in functions of each release line and what each line changed, and the backends.

use std::collections::BTreeSet;

use super::*;
use crate::knowledge::releases;

const FACTS: &str = include_str!("../../../tests/tool_versions.txt");

/// One fact of the file: its fields after the kind, the source (the last field) left out.
#[derive(Debug)]
struct Fact {
    line: usize,
    fields: Vec<String>,
}

const KINDS: [&str; 6] = [
    "since",
    "functions",
    "function-changes",
    "backends",
    "backends-removed",
    "removed-backend-message",
];

/// Every fact of the file, by kind. A line that is not a fact of a known kind with a source
/// fails: nothing in the file goes unchecked.
fn all_facts() -> Vec<(String, Fact)> {
    let mut lines: Vec<(usize, String)> = Vec::new();
    for (index, line) in FACTS.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if line.starts_with(' ') {
            let (_, fact) = lines
                .last_mut()
                .unwrap_or_else(|| panic!("line {}: continues nothing", index + 1));
            fact.push(' ');
            fact.push_str(line.trim());
        } else {
            lines.push((index + 1, line.to_string()));
        }
    }
    lines
        .into_iter()
        .map(|(line, text)| {
            let mut fields: Vec<String> = text.split(" | ").map(|f| f.trim().to_string()).collect();
            let kind = fields.remove(0);
            assert!(
                KINDS.contains(&kind.as_str()),
                "line {line}: unknown kind {kind:?}"
            );
            let source = fields.pop().filter(|s| !s.is_empty() && !fields.is_empty());
            assert!(
                source.is_some(),
                "line {line}: a fact needs fields and a source"
            );
            (kind, Fact { line, fields })
        })
        .collect()
}

/// The facts of one kind, each with the number of fields that kind has.
fn facts(kind: &str, width: usize) -> Vec<Fact> {
    let found: Vec<Fact> = all_facts()
        .into_iter()
        .filter(|(k, _)| k == kind)
        .map(|(_, fact)| fact)
        .collect();
    for fact in &found {
        assert_eq!(
            fact.fields.len(),
            width,
            "line {}: {kind} has {width} fields",
            fact.line
        );
    }
    assert!(!found.is_empty(), "no {kind} facts");
    found
}

/// `1.17` → release 1.17; `-` → none.
fn release(text: &str) -> Option<Release> {
    if text == "-" {
        return None;
    }
    let (major, minor) = text.split_once('.').expect("MAJOR.MINOR");
    Some(Release::new(
        major.parse().expect("a major version"),
        minor.parse().expect("a minor version"),
    ))
}

/// `terraform 1.17` → (Terraform, 1.17); `opentofu swift` → (OpenTofu, "swift").
fn tool_and(text: &str) -> (View, &str) {
    let (tool, rest) = text.split_once(' ').expect("TOOL and more");
    let view = View::ALL
        .into_iter()
        .find(|v| v.as_str() == tool)
        .unwrap_or_else(|| panic!("unknown tool {tool:?}"));
    (view, rest)
}

fn tool_release(text: &str) -> (View, Release) {
    let (view, rest) = tool_and(text);
    (view, release(rest).expect("a release line"))
}

/// The bodies as the facts name them.
const BODIES: &[(&str, Body)] = &[
    ("terraform", B::Terraform),
    ("variable", B::Variable),
    ("output", B::Output),
    ("module", B::Module),
    ("resource", B::Resource),
    ("provider", B::Provider),
    ("lifecycle", B::Lifecycle),
    ("module-lifecycle", B::ModuleLifecycle),
    ("removed-lifecycle", B::RemovedLifecycle),
    ("moved", B::Moved),
    ("import", B::Import),
    ("removed", B::Removed),
    ("check", B::Check),
    ("action", B::Action),
    ("language", B::Language),
];

/// `top-level moved`, `import.for_each`, `file .tofu`, `backend oci`, `function convert`,
/// `namespace core` → where the construct is written and its name.
fn place(text: &str) -> (Place, &str) {
    if let Some((kind, name)) = text.split_once(' ') {
        let place = match kind {
            "top-level" => TopLevel,
            "file" => FileType,
            "backend" => Backend,
            "function" => Function,
            "namespace" => FunctionNamespace,
            _ => panic!("unknown place {text:?}"),
        };
        return (place, name);
    }
    let (body, name) = text
        .split_once('.')
        .unwrap_or_else(|| panic!("a place: {text:?}"));
    let (_, body) = BODIES
        .iter()
        .find(|(written, _)| *written == body)
        .unwrap_or_else(|| panic!("unknown body {body:?}"));
    (In(*body), name)
}

fn set<'a>(names: impl IntoIterator<Item = &'a str>) -> BTreeSet<&'a str> {
    names.into_iter().collect()
}

#[test]
fn every_line_of_the_facts_is_a_fact() {
    let facts = all_facts();
    for kind in KINDS {
        assert!(facts.iter().any(|(k, _)| k == kind), "no {kind} facts");
    }
}

#[test]
fn constructs_came_in_the_releases_the_facts_say() {
    let mut checked = 0;
    for fact in facts("since", 3) {
        let (terraform, opentofu) = (release(&fact.fields[1]), release(&fact.fields[2]));
        for (place, name) in fact.fields[0].split(", ").map(place) {
            let row = find(place, name)
                .unwrap_or_else(|| panic!("line {}: no row for {name}", fact.line));
            assert_eq!(
                row.terraform.since(),
                terraform,
                "line {}: Terraform {name}",
                fact.line
            );
            assert_eq!(
                row.opentofu.since(),
                opentofu,
                "line {}: OpenTofu {name}",
                fact.line
            );
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked} constructs");
}

/// The functions the facts list (each release's `internal/lang/functions.go`) that a module
/// cannot call: `type` is registered only in console mode (`terraform console`, `tofu
/// console`), and every judged Terraform release answers "Call to unknown function" for it.
const CONSOLE_ONLY: &[&str] = &["type"];

/// How many of [`CONSOLE_ONLY`] the function table of `release` has: `type` came with
/// Terraform 1.1 (the `function-changes` facts) and is in every OpenTofu release line.
fn console_only_in(view: View, release: Release) -> usize {
    usize::from(view == View::OpenTofu || release >= Release::new(1, 1))
}

#[test]
fn functions_of_each_release_match_the_facts() {
    for fact in facts("functions", 3) {
        let (view, release) = tool_release(&fact.fields[0]);
        let count: usize = fact.fields[1].parse().expect("a count");
        let ours = names(view, release, Function);
        let callable = count - console_only_in(view, release);
        assert_eq!(ours.len(), callable, "line {}: {view} {release}", fact.line);
        if fact.fields[2] != "-" {
            let mut listed = set(fact.fields[2].split(' '));
            assert_eq!(
                listed.len(),
                count,
                "line {}: the list has the count",
                fact.line
            );
            listed.retain(|name| !CONSOLE_ONLY.contains(name));
            assert_eq!(set(ours), listed, "line {}: {view} {release}", fact.line);
        }
    }
}

/// Each release line's functions are the line before's with the changes the facts give, and
/// each added or removed function's row names that line.
#[test]
fn functions_change_between_releases_as_the_facts_say() {
    let changes = facts("function-changes", 2);
    let mut changed = 0;
    for view in View::ALL {
        let lines: Vec<Release> = releases::all(view).iter().map(|(r, _)| *r).collect();
        for pair in lines.windows(2) {
            let (before, release) = (pair[0], pair[1]);
            let fact = changes
                .iter()
                .find(|f| tool_release(&f.fields[0]) == (view, release))
                .unwrap_or_else(|| panic!("no function-changes fact for {view} {release}"));
            let mut expected = set(names(view, before, Function));
            for change in fact.fields[1].split(' ').filter(|c| *c != "none") {
                let (name, added) = match (change.strip_prefix('+'), change.strip_prefix('-')) {
                    (Some(name), _) => (name, true),
                    (_, Some(name)) => (name, false),
                    _ => panic!("line {}: {change:?} is not +NAME or -NAME", fact.line),
                };
                let row = find(Function, name)
                    .unwrap_or_else(|| panic!("line {}: no row for {name}", fact.line));
                changed += 1;
                if CONSOLE_ONLY.contains(&name) {
                    assert_eq!(accepts(view, release, Function, name), Some(false));
                    continue;
                }
                let availability = row.availability(view);
                if added {
                    assert_eq!(availability.since(), Some(release), "{view} {name}");
                    expected.insert(name);
                } else {
                    assert_eq!(availability.until(), Some(release), "{view} {name}");
                    expected.remove(name);
                }
            }
            assert_eq!(
                set(names(view, release, Function)),
                expected,
                "line {}: {view} {release} against {before}",
                fact.line
            );
        }
    }
    assert_eq!(changed, 11 + 7 + 12, "every change the facts list");
}

#[test]
fn backends_match_the_facts() {
    for fact in facts("backends", 2) {
        let (view, release) = tool_release(&fact.fields[0]);
        let listed = set(fact.fields[1].split(' '));
        assert_eq!(
            set(names(view, release, Backend)),
            listed,
            "line {}",
            fact.line
        );
    }
    for fact in facts("backends-removed", 2) {
        let (view, release) = tool_release(&fact.fields[0]);
        let before = Release::new(release.major, release.minor - 1);
        for name in fact.fields[1].split(' ') {
            assert!(is_removed_backend(name), "line {}: {name}", fact.line);
            assert_eq!(
                accepts(view, before, Backend, name),
                Some(true),
                "{name} in {before}"
            );
            assert_eq!(
                accepts(view, release, Backend, name),
                Some(false),
                "{name} in {release}"
            );
        }
    }
    for fact in facts("removed-backend-message", 2) {
        let (view, name) = tool_and(&fact.fields[0]);
        assert_eq!(
            removed_backend_message(view, name),
            fact.fields[1],
            "line {}",
            fact.line
        );
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
