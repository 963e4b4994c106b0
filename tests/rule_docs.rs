//! Checks the user docs of the finding ids (`rules/<id>.md`): one doc per id of
//! `rules::catalogue()` (load errors, rules, engine findings) and no stale doc, the fixed section
//! layout and summary line, and every runnable example.
//!
//! Example convention (in the `## Example` section, or anywhere in the doc):
//! - a marker line starts an example; the example is the fenced code blocks after it, up to the
//!   next marker or heading. The markers:
//!   - `<!-- pass -->`;
//!   - `<!-- fail: ID at FILE:LINE -->`: the example gives a finding of the doc's id `ID` whose
//!     primary location starts on line `LINE` of `FILE` (a path relative to the example's root,
//!     as in its `file=`), in every view that loads one of the example's files;
//!   - `<!-- fail (terraform): ID at FILE:LINE -->` or `<!-- fail (opentofu): ID at FILE:LINE -->`:
//!     the same in the one view named (which must load at least one of the example's files), and
//!     no finding of the id in the other;
//!   - several findings: `<!-- fail: ID at a.tf:2; ID at b.tf:7 -->`.
//!
//!   A fail marker without findings (`<!-- fail -->`) is an error. `ID` must be the doc's id (it
//!   is stated so the marker reads on its own in the Markdown source). In each view counted, the
//!   (file, line) of the id's findings must be exactly the ones stated, as many times as stated:
//!   a finding on another line, a missing one or an extra one fails. A finding of no view, like
//!   `unused_ignore` or the findings of rules that compare the two views, counts in both views, so
//!   those examples use a marker without `(VIEW)`. A view that loads none of the example's files
//!   (Terraform, for `.tofu` files only) is not counted. One finding per view is the rule of thumb
//!   (both views print it once when they word it the same, once each when the tools print
//!   different summaries: both at the line stated).
//! - a fenced block with info string `hcl file=NAME` or `json file=NAME` is a file of the
//!   example's module directory (`NAME` may hold directories for a module it calls,
//!   `reports/main.tf`); a block without `file=` is illustration only. A `yaml
//!   file=.tflint-merge.yaml` block is the example's config file: its `terraform_version:` and
//!   `opentofu_version:` set the targeted releases.
//! - an example with `.hcl` files is a Terragrunt tree: `NAME` may hold directories
//!   (`hcl file=prod/us-east-1/app/terragrunt.hcl`), and the tree is checked with its
//!   `terragrunt.hcl` files as units. A tree has no views, so its fail marker has no `(VIEW)`:
//!   `<!-- fail: ID at prod/app/terragrunt.hcl:3 -->`, and the tree gives exactly the findings
//!   of the id stated.
//! - For a load error or what `validate` refuses (the tools' errors), a fail example must
//!   produce no other error of the tools, and every message it produces must be quoted somewhere
//!   in the doc; a `pass` example must produce none at all. The summary line of what `validate`
//!   refuses ends `On by default (`validate` refuses this).`.
//! - For a rule or `unused_ignore`, examples run with that id enabled (even if it is off by
//!   default). A `fail` example must produce no load error; a `pass` example no load error and no
//!   finding of the id. Findings of other rules are allowed in both.
//!
//! The fail examples of each doc also run through the binary, and its human output is an `insta`
//! snapshot per id, `tests/snapshots/rule_docs__ID.snap` (`every_fail_example_renders`; review
//! changes with `cargo insta review`, or `INSTA_UPDATE=always` and `git diff`).
//! `every_finding_id_is_in_a_rendered_snapshot` checks that every finding id shows in some
//! human-format snapshot.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tflint_merge::{
    ConfigName, Diagnostic, Kind, RuleMeta, View, ViewSelection, Views, catalogue,
    check_directory_targeting, check_terragrunt, classify, find_id, view_files,
};

/// The sections every doc has, in this order.
const SECTIONS: [&str; 5] = [
    "What it does",
    "Why",
    "Example",
    "How to fix",
    "Configuration",
];

/// Ids whose cause cannot be written as files in a Markdown code block (an unreadable directory
/// or file, a directory named like a file, a rule that crashes):
/// illustration only.
const NOT_RUNNABLE: [&str; 3] = ["io_error", "read_error", "internal_error"];

/// Ids whose message is not a fixed text the doc can quote (it comes from the parser).
const MESSAGE_NOT_QUOTABLE: [&str; 1] = ["syntax_error"];

/// The `## Configuration` text of every load error.
const CONFIGURATION_TEXT: &str =
    "None: Terraform/OpenTofu refuse to load the module, so this finding is always reported.";

/// What the `## Configuration` section of a rule or engine finding must mention (one of them).
const CONFIGURATION_MENTIONS: [&str; 3] = [".tflint-merge.yaml", "--enable-rule", "--disable-rule"];

/// Engine findings that cannot be configured, so their docs need not say how.
const NOT_CONFIGURABLE: [&str; 1] = ["internal_error"];

fn rules_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rules")
}

struct Doc {
    id: String,
    text: String,
}

fn read_docs() -> Vec<Doc> {
    let dir = rules_dir();
    let mut docs: Vec<Doc> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .map(|path| Doc {
            id: path
                .file_stem()
                .expect("file stem")
                .to_string_lossy()
                .into_owned(),
            text: std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display())),
        })
        .collect();
    docs.sort_by(|a, b| a.id.cmp(&b.id));
    docs
}

/// The catalogue entry of a doc's id (the doc set equals the id set, checked below).
fn meta(id: &str) -> Option<&'static RuleMeta> {
    find_id(id)
}

#[test]
fn every_id_has_a_doc_and_every_doc_an_id() {
    let ids: BTreeSet<String> = catalogue().iter().map(|r| r.id.to_string()).collect();
    let docs: BTreeSet<String> = read_docs().into_iter().map(|d| d.id).collect();
    let missing: Vec<_> = ids.difference(&docs).collect();
    let stale: Vec<_> = docs.difference(&ids).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "ids without a doc in rules/: {missing:?}; docs without an id in the catalogue: {stale:?}"
    );
    for rule in catalogue() {
        let on_disk = std::fs::read_to_string(rules_dir().join(format!("{}.md", rule.id)))
            .expect("doc exists");
        assert_eq!(
            rule.doc(),
            on_disk,
            "{}: embedded doc differs from rules/{}.md",
            rule.id,
            rule.id
        );
    }
}

/// A line of the doc outside fenced code blocks, with its 1-based number.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut in_fence = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if !in_fence {
            out.push((i + 1, line));
        }
    }
    out
}

/// The text of one `## ` section (without its heading), outside fences included.
fn section<'a>(text: &'a str, name: &str) -> &'a str {
    let heading = format!("\n## {name}\n");
    let Some(start) = text.find(&heading) else {
        return "";
    };
    let body = &text[start + heading.len()..];
    let end = body.find("\n## ").unwrap_or(body.len());
    &body[..end]
}

/// Errors above warnings above notices.
fn severity_rank(severity: &str) -> u8 {
    match severity {
        "error" => 2,
        "warning" => 1,
        _ => 0,
    }
}

/// A header of sample output in a doc (`warning[<id>]: ...`) shows the id's default severity,
/// as the human format prints it — or a milder one that the doc's prose names (`a notice`), for
/// rules that report a milder case at a lower severity.
#[test]
fn sample_output_in_docs_shows_the_default_severity() {
    let mut failures = Vec::new();
    for doc in read_docs() {
        let Some(meta) = meta(&doc.id) else { continue };
        let expected = format!("{}[{}]: ", meta.severity.as_str(), doc.id);
        for (index, line) in doc.text.lines().enumerate() {
            let shown = ["error", "warning", "notice", "note"]
                .iter()
                .any(|s| line.starts_with(&format!("{s}[{}]: ", doc.id)));
            let milder = ["warning", "notice"].iter().any(|s| {
                line.starts_with(&format!("{s}[{}]: ", doc.id))
                    && severity_rank(s) < severity_rank(meta.severity.as_str())
                    && doc.text.contains(&format!("a {s}"))
            });
            if shown && !line.starts_with(&expected) && !milder {
                failures.push(format!("rules/{}.md:{}: {line}", doc.id, index + 1));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "sample output with another severity than the default:\n{}",
        failures.join("\n")
    );
}

/// Where a doc's prose names a severity (`Severity: error.`, `The severity is warning`, `at
/// severity notice`), it is the one the rule declares: a doc that says two severities is wrong
/// about one of them. A milder case stated in parentheses (`severity warning (equal values:
/// notice)`) names the default first.
#[test]
fn prose_names_the_default_severity() {
    let mut failures = Vec::new();
    for doc in read_docs() {
        let Some(meta) = meta(&doc.id) else { continue };
        for (number, line) in prose_lines(&doc.text) {
            for named in severities_named(line) {
                if named != meta.severity.as_str() {
                    failures.push(format!("rules/{}.md:{number}: {line}", doc.id));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "prose naming another severity than the default:\n{}",
        failures.join("\n")
    );
}

/// The severities a line names right after the word "severity" (`severity: X`, `severity is
/// X`, `severity X`).
fn severities_named(line: &str) -> Vec<&'static str> {
    let lower = line.to_ascii_lowercase();
    let mut named = Vec::new();
    for (at, _) in lower.match_indices("severity") {
        let rest = lower[at + "severity".len()..].trim_start_matches(':');
        let rest = rest.trim_start();
        let rest = rest.strip_prefix("is ").unwrap_or(rest);
        let word: String = rest.chars().take_while(char::is_ascii_alphabetic).collect();
        if let Some(severity) = ["error", "warning", "notice"]
            .into_iter()
            .find(|s| *s == word)
        {
            named.push(severity);
        }
    }
    named
}

#[test]
fn every_doc_has_the_sections_in_order() {
    let mut failures = Vec::new();
    for doc in read_docs() {
        let mut fail = |msg: String| failures.push(format!("rules/{}.md: {msg}", doc.id));
        let first = doc.text.lines().next().unwrap_or_default();
        if first != format!("# {}", doc.id) {
            fail(format!(
                "first line is {first:?}, expected \"# {}\"",
                doc.id
            ));
        }
        let summary = doc
            .text
            .lines()
            .skip(1)
            .find(|l| !l.trim().is_empty())
            .unwrap_or_default();
        let Some(meta) = meta(&doc.id) else {
            fail("no such id in the catalogue".to_string());
            continue;
        };
        if meta.kind == Kind::Validate {
            let expected = format!(
                "{} (`validate` refuses this).",
                expected_summary(meta).trim_end_matches('.')
            );
            if summary != expected {
                fail(format!(
                    "the summary line after the title is {summary:?}, expected {expected:?}"
                ));
            }
        } else if meta.kind == Kind::LoadError {
            if !summary.contains("Severity: error. Always on") {
                fail(format!(
                    "the summary line after the title must say \"Severity: error. Always on\": {summary:?}"
                ));
            }
        } else {
            let expected = expected_summary(meta);
            if summary != expected {
                fail(format!(
                    "the summary line after the title is {summary:?}, expected {expected:?}"
                ));
            }
        }
        let headings: Vec<&str> = prose_lines(&doc.text)
            .into_iter()
            .filter_map(|(_, line)| line.strip_prefix("## "))
            .map(str::trim)
            .collect();
        if headings != SECTIONS {
            fail(format!(
                "sections are {headings:?}, expected exactly {SECTIONS:?}"
            ));
        }
        let extra_titles: Vec<usize> = prose_lines(&doc.text)
            .into_iter()
            .filter(|(n, line)| *n > 1 && line.starts_with("# "))
            .map(|(n, _)| n)
            .collect();
        if !extra_titles.is_empty() {
            fail(format!("more than one `# ` title (lines {extra_titles:?})"));
        }
        let configuration = section(&doc.text, "Configuration");
        if meta.kind == Kind::LoadError {
            if !configuration.contains(CONFIGURATION_TEXT) {
                fail(format!(
                    "`## Configuration` must say {CONFIGURATION_TEXT:?}"
                ));
            }
        } else if configuration.trim().is_empty() {
            fail("`## Configuration` is missing or empty".to_string());
        } else if !NOT_CONFIGURABLE.contains(&meta.id.as_str())
            && !CONFIGURATION_MENTIONS
                .iter()
                .any(|m| configuration.contains(m))
        {
            fail(format!(
                "`## Configuration` must show how to configure it: mention one of {CONFIGURATION_MENTIONS:?}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} doc layout problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The line after the title of a rule or engine finding: its summary, default severity and
/// whether it is on by default, as in the catalogue.
fn expected_summary(meta: &RuleMeta) -> String {
    let mut chars = meta.summary.chars();
    let summary: String = chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    let default = if meta.enabled_by_default {
        "On by default.".to_string()
    } else {
        format!(
            "Off by default: enable it with `--enable-rule {}` or in `.tflint-merge.yaml`.",
            meta.id
        )
    };
    format!("{summary}. Severity: {}. {default}", meta.severity.as_str())
}

/// Where a fail example expects a finding of the doc's id: the file of its primary location,
/// relative to the example's root, and the 1-based line there (0 for a finding without a source
/// location, which no marker can state).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct At {
    file: String,
    line: usize,
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            0 => write!(f, "{} (no line)", self.file),
            line => write!(f, "{}:{line}", self.file),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Expect {
    /// `<!-- fail: ID at FILE:LINE -->`: the findings of the id expected in every view that loads
    /// one of the example's files, or (`<!-- fail (opentofu): ... -->`) in the one view named,
    /// with none in the other. Sorted.
    Fail {
        only: Option<View>,
        at: Vec<At>,
    },
    Pass,
}

impl Expect {
    fn is_fail(&self) -> bool {
        matches!(self, Expect::Fail { .. })
    }

    /// The marker, without its comment delimiters: `fail: ID at main.tf:2`,
    /// `fail (opentofu): ID at main.tofu:1; ID at b.tofu:3`, `pass`.
    fn describe(&self, id: &str) -> String {
        match self {
            Expect::Fail { only, at } => {
                let view = only.map_or(String::new(), |v| format!(" ({})", v.as_str()));
                let at: Vec<String> = at.iter().map(|a| format!("{id} at {a}")).collect();
                format!("fail{view}: {}", at.join("; "))
            }
            Expect::Pass => "pass".to_string(),
        }
    }
}

/// The expectation a marker line states: `None` if the line is no marker, an error if it is a
/// malformed one. `id` is the doc's id, which every expected finding must name.
fn marker(line: &str, id: &str) -> Option<Result<Expect, String>> {
    let inner = line.strip_prefix("<!--")?.strip_suffix("-->")?.trim();
    if inner == "pass" {
        return Some(Ok(Expect::Pass));
    }
    let rest = inner.strip_prefix("fail")?;
    Some(fail_marker(rest, id).map_err(|e| {
        format!(
            "marker `{line}`: {e}; write `<!-- fail: {id} at FILE:LINE -->` or `<!-- fail (VIEW): {id} at FILE:LINE -->` (VIEW: terraform or opentofu), several findings separated by `; `"
        )
    }))
}

/// Parses what follows `fail` in a fail marker: ` (VIEW)`, then `: `, then the findings.
fn fail_marker(rest: &str, id: &str) -> Result<Expect, String> {
    let (only, rest) = match rest.strip_prefix(" (") {
        Some(view) => {
            let (view, rest) = view
                .split_once(')')
                .ok_or_else(|| "unclosed `(`".to_string())?;
            let view = View::ALL
                .into_iter()
                .find(|v| v.as_str() == view)
                .ok_or_else(|| format!("unknown view `{view}`"))?;
            (Some(view), rest)
        }
        None => (None, rest),
    };
    let findings = rest
        .strip_prefix(": ")
        .ok_or_else(|| "no `: ` before the expected findings".to_string())?;
    let mut at = Vec::new();
    for finding in findings.split(';').map(str::trim) {
        let (rule, place) = finding
            .split_once(" at ")
            .ok_or_else(|| format!("`{finding}` is not `RULE at FILE:LINE`"))?;
        if rule != id {
            return Err(format!(
                "names `{rule}`, but the examples of this doc show `{id}`"
            ));
        }
        let (file, line) = place
            .rsplit_once(':')
            .ok_or_else(|| format!("`{place}` is not `FILE:LINE`"))?;
        let line = line
            .parse::<usize>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("`{line}` in `{place}` is not a line number"))?;
        if file.is_empty() || file.contains(char::is_whitespace) {
            return Err(format!("`{file}` in `{place}` is not a file name"));
        }
        at.push(At {
            file: file.to_string(),
            line,
        });
    }
    at.sort();
    Ok(Expect::Fail { only, at })
}

struct Example {
    expect: Expect,
    /// 1-based line of the marker.
    line: usize,
    files: Vec<(String, String)>,
}

/// Parses the examples of a doc. Errors are problems of the doc itself (a runnable block outside
/// an example, a bad info string, an unclosed fence...).
fn parse_examples(id: &str, text: &str) -> Result<Vec<Example>, String> {
    let mut examples: Vec<Example> = Vec::new();
    let mut current: Option<Example> = None;
    let mut lines = text.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let number = i + 1;
        let trimmed = line.trim();
        if let Some(expect) = marker(trimmed, id) {
            let expect = expect.map_err(|e| format!("line {number}: {e}"))?;
            examples.extend(current.take());
            current = Some(Example {
                expect,
                line: number,
                files: Vec::new(),
            });
            continue;
        }
        if line.starts_with('#') && line.trim_start_matches('#').starts_with(' ') {
            examples.extend(current.take());
            continue;
        }
        let Some(info) = trimmed.strip_prefix("```") else {
            continue;
        };
        let mut content = String::new();
        let mut closed = false;
        for (_, inner) in lines.by_ref() {
            if inner.trim() == "```" {
                closed = true;
                break;
            }
            content.push_str(inner);
            content.push('\n');
        }
        if !closed {
            return Err(format!("line {number}: unclosed code fence"));
        }
        let mut words = info.split_whitespace();
        let language = words.next().unwrap_or_default();
        let file = words.find_map(|w| w.strip_prefix("file="));
        let Some(file) = file else {
            continue; // illustration only
        };
        let Some(example) = current.as_mut() else {
            return Err(format!(
                "line {number}: a `file=` block outside an example (no `<!-- fail: ... -->` or `<!-- pass -->` before it)"
            ));
        };
        let is_json = file.ends_with(".json");
        match language {
            "yaml" if file == CONFIG_FILE => {}
            "hcl" if !is_json => {}
            "json" if is_json => {}
            _ => {
                return Err(format!(
                    "line {number}: info string `{info}`: use `hcl` for .tf/.tofu files and `json` for .tf.json/.tofu.json files"
                ));
            }
        }
        // A Terragrunt tree, or a module example's called module (`reports/main.tf`).
        if file.ends_with(".hcl") || file.contains('/') {
            if file.contains('\\')
                || file.starts_with('/')
                || file.split('/').any(|c| c.is_empty() || c.starts_with('.'))
            {
                return Err(format!(
                    "line {number}: `{file}` must be a relative path without `.` or `..`"
                ));
            }
        } else if file.contains('\\') || (file.starts_with('.') && file != CONFIG_FILE) {
            return Err(format!("line {number}: `{file}` must be a plain file name"));
        }
        if example.files.iter().any(|(name, _)| name == file) {
            return Err(format!("line {number}: `{file}` twice in one example"));
        }
        example.files.push((file.to_string(), content));
    }
    examples.extend(current);
    Ok(examples)
}

/// The ids of the tools' errors: load errors and what `validate` refuses.
fn load_error_ids() -> BTreeSet<&'static str> {
    catalogue()
        .iter()
        .filter(|m| matches!(m.kind, Kind::LoadError | Kind::Validate))
        .map(|m| m.id.as_str())
        .collect()
}

/// Whether a doc's examples run with its id enabled: rules and `unused_ignore` (load errors are
/// always on; `internal_error` is not runnable).
fn runs_enabled(meta: &RuleMeta) -> bool {
    meta.kind == Kind::Rule || meta.id.as_str() == "unused_ignore"
}

/// Whether a view loads at least one of an example's files. A view that loads none (Terraform,
/// for an example of `.tofu` files only) has nothing to report, so it is not counted.
fn loads_any(example: &Example, view: View) -> bool {
    let names: Vec<ConfigName> = example
        .files
        .iter()
        .filter_map(|(name, _)| classify(name))
        .collect();
    view_files(&names, view).loaded().next().is_some()
}

/// Whether a finding counts in a view. A finding of no view (an engine finding made after the
/// views were compared, like `unused_ignore`) counts in every view.
fn in_view(d: &Diagnostic, view: Views) -> bool {
    d.views == Views::NONE || d.views.union(view) == d.views
}

fn describe(d: &Diagnostic) -> String {
    let (line, column) = d.start();
    let views = d.views.describe().unwrap_or("no view");
    format!(
        "{}:{line}:{column}: [{}] {} ({views})",
        d.path, d.rule, d.message
    )
}

/// Where a finding is, as a fail marker states it: the file of its primary location relative to
/// the example's root `root`, and its line (0 when it has no source location).
fn at(d: &Diagnostic, root: &Path) -> At {
    let (path, line) = match &d.primary {
        Some(label) => (&*label.file.display, label.start().0),
        None => (&*d.path, 0),
    };
    let root = root.to_string_lossy();
    let file = path
        .strip_prefix(root.as_ref())
        .and_then(|p| p.strip_prefix('/'))
        .unwrap_or(path);
    At {
        file: file.to_string(),
        line,
    }
}

/// What was expected and what was found, for a failure message: "expected `ID` [in VIEW] at
/// main.tf:2, got it at main.tf:3".
fn mismatch(id: &str, view: &str, want: &[At], found: &[At]) -> String {
    let list = |at: &[At]| at.iter().map(At::to_string).collect::<Vec<_>>().join(", ");
    let expected = if want.is_empty() {
        format!("expected no `{id}` finding{view}")
    } else {
        format!("expected `{id}`{view} at {}", list(want))
    };
    if found.is_empty() {
        format!("{expected}, got none")
    } else {
        format!("{expected}, got it at {}", list(found))
    }
}

/// Writes an example's files into a new temporary directory, its root.
/// The config file an example may hold (`yaml file=.tflint-merge.yaml`): the binary reads it
/// from the example's directory, and the library run is given its targeted releases.
const CONFIG_FILE: &str = ".tflint-merge.yaml";

/// A `key: "value"` line of the example's config file.
fn config_value<'a>(example: &'a Example, key: &str) -> Option<&'a str> {
    let (_, text) = example.files.iter().find(|(name, _)| name == CONFIG_FILE)?;
    text.lines().find_map(|line| {
        let value = line.strip_prefix(key)?.strip_prefix(':')?.trim();
        Some(value.trim_matches('"'))
    })
}

fn write_example(example: &Example) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, content) in &example.files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, content).expect("write example file");
    }
    dir
}

fn is_terragrunt(example: &Example) -> bool {
    example.files.iter().any(|(name, _)| name.ends_with(".hcl"))
}

/// Runs one example; returns what is wrong with it.
fn run_example(meta: &RuleMeta, doc: &str, example: &Example) -> Vec<String> {
    let id = meta.id.as_str();
    let dir = write_example(example);
    let root = dir.path();
    let enable: &[&str] = if runs_enabled(meta) { &[id] } else { &[] };
    let is_terragrunt = is_terragrunt(example);
    let diagnostics = if is_terragrunt {
        let units: Vec<PathBuf> = example
            .files
            .iter()
            .map(|(name, _)| root.join(name))
            .filter(|path| path.file_name().is_some_and(|n| n == "terragrunt.hcl"))
            .collect();
        check_terragrunt(&units, root, enable).expect("a known id")
    } else {
        let targets =
            ["terraform_version", "opentofu_version"].map(|key| config_value(example, key));
        check_directory_targeting(root, ViewSelection::Both, enable, targets)
            .expect("a known id and valid targets")
            .diagnostics
    };
    // What the tools refuse is worded with their texts, which the doc quotes.
    let is_load_error = matches!(meta.kind, Kind::LoadError | Kind::Validate);
    let load_errors = load_error_ids();
    let mut problems = Vec::new();
    let listing = || {
        let all: Vec<String> = diagnostics.iter().map(describe).collect();
        if all.is_empty() {
            "no findings".to_string()
        } else {
            format!("findings:\n      {}", all.join("\n      "))
        }
    };
    let ours: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.rule.as_str() == id)
        .collect();
    let others: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.rule.as_str() != id && load_errors.contains(d.rule.as_str()))
        .collect();
    // Where the findings of the id are in a view (all of them, in a Terragrunt tree), sorted.
    let found = |view: Option<View>| {
        let mut found: Vec<At> = ours
            .iter()
            .filter(|d| view.is_none_or(|v| in_view(d, v.views())))
            .map(|d| at(d, root))
            .collect();
        found.sort();
        found
    };
    let Expect::Fail { only, at: stated } = &example.expect else {
        if !ours.is_empty() || !others.is_empty() {
            let what = if is_load_error {
                "a pass example must load without errors".to_string()
            } else {
                format!("a pass example must load without errors and give no `{id}` finding")
            };
            problems.push(format!("{what}; {}", listing()));
        }
        return problems;
    };
    if is_terragrunt {
        // A Terragrunt tree has no views: a fail example gives the findings stated, and no load
        // error.
        if only.is_some() {
            problems.push("a Terragrunt tree has no views: drop the `(VIEW)`".to_string());
        }
        let found = found(None);
        if found != *stated {
            problems.push(format!(
                "{}; {}",
                mismatch(id, "", stated, &found),
                listing()
            ));
        }
        if !others.is_empty() {
            problems.push(format!(
                "a fail example must have no load error; {}",
                listing()
            ));
        }
        return problems;
    }
    let loading: Vec<View> = View::ALL
        .into_iter()
        .filter(|&view| loads_any(example, view))
        .collect();
    match only {
        None if loading.is_empty() => {
            problems.push("no view loads any of the example's files".to_string());
        }
        Some(marked) if !loading.contains(marked) => problems.push(format!(
            "marked to fail in the {} view, which loads none of the example's files",
            marked.tool_name()
        )),
        _ => {
            // The views counted, each with the findings expected in it.
            let expected: Vec<(View, &[At])> = match only {
                None => loading.iter().map(|&view| (view, &stated[..])).collect(),
                Some(marked) => View::ALL
                    .into_iter()
                    .map(|view| {
                        (
                            view,
                            if view == *marked {
                                &stated[..]
                            } else {
                                &[][..]
                            },
                        )
                    })
                    .collect(),
            };
            for (view, want) in expected {
                let found = found(Some(view));
                if found == want {
                    continue;
                }
                let hint = if only.is_some() && ours.iter().any(|d| d.views == Views::NONE) {
                    " (a finding of no view counts in both views: drop the `(VIEW)` from the marker)"
                } else {
                    ""
                };
                let view = format!(" in the {} view", view.tool_name());
                problems.push(format!(
                    "{}{hint}; {}",
                    mismatch(id, &view, want, &found),
                    listing()
                ));
            }
        }
    }
    if !others.is_empty() {
        let what = if is_load_error {
            "a fail example must show only this error, but it has other load errors"
        } else {
            "a fail example of a rule must load without errors"
        };
        problems.push(format!("{what}; {}", listing()));
    }
    if is_load_error && !MESSAGE_NOT_QUOTABLE.contains(&id) {
        for d in &ours {
            if !doc.contains(&*d.message) {
                problems.push(format!(
                    "the doc never quotes the message `{}` this example produces",
                    d.message
                ));
            }
        }
    }
    problems
}

#[test]
fn every_doc_example_behaves_as_marked() {
    let mut failures = Vec::new();
    let mut run = 0;
    for doc in read_docs() {
        let examples = match parse_examples(&doc.id, &doc.text) {
            Ok(examples) => examples,
            Err(error) => {
                failures.push(format!("rules/{}.md: {error}", doc.id));
                continue;
            }
        };
        let Some(meta) = meta(&doc.id) else {
            failures.push(format!("rules/{}.md: no such id in the catalogue", doc.id));
            continue;
        };
        let runnable = !NOT_RUNNABLE.contains(&doc.id.as_str());
        let fails = examples.iter().filter(|e| e.expect.is_fail()).count();
        let passes = examples.len() - fails;
        if runnable && (fails == 0 || passes == 0) {
            failures.push(format!(
                "rules/{}.md: needs at least one fail and one pass example (has {fails} fail, {passes} pass)",
                doc.id
            ));
        }
        for (index, example) in examples.iter().enumerate() {
            let label = format!(
                "rules/{}.md example #{} ({}, line {})",
                doc.id,
                index + 1,
                example.expect.describe(&doc.id),
                example.line
            );
            if example.files.is_empty() {
                failures.push(format!("{label}: no `file=` blocks"));
                continue;
            }
            run += 1;
            // On a thread with room for a debug build's parser frames: an example may nest as
            // deep as the parser allows (rules/parse_limit.md).
            let problems = std::thread::scope(|scope| {
                std::thread::Builder::new()
                    .stack_size(512 << 20)
                    .spawn_scoped(scope, || run_example(meta, &doc.text, example))
                    .expect("a thread")
                    .join()
                    .expect("no panic")
            });
            for problem in problems {
                failures.push(format!("{label}: {problem}"));
            }
        }
    }
    assert!(run > 0, "no doc examples found");
    assert!(
        failures.is_empty(),
        "{} doc example failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The arguments of every snapshot run: the human format, colour off, one worker thread.
const HUMAN: [&str; 6] = ["--color", "never", "--format", "human", "-j", "1"];

/// Runs the binary in `dir` on `.` (so paths print relative to `dir`) with [`HUMAN`] and `args`.
fn tflint_merge(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .args(HUMAN)
        .args(args)
        .arg(".")
        .current_dir(dir)
        .output()
        .expect("run tflint-merge")
}

/// The command line [`tflint_merge`] runs, for a snapshot's description.
fn command_line(args: &[&str]) -> String {
    let mut words = vec!["tflint-merge"];
    words.extend(HUMAN);
    words.extend(args);
    words.push(".");
    format!("`{}`", words.join(" "))
}

/// Snapshots the human output of one id (`tests/snapshots/rule_docs__ID.snap`).
fn assert_human_snapshot(id: &str, description: &str, text: &str) {
    insta::with_settings!({
        description => description,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(id, text);
    });
}

/// The binary's human output for every fail example of every doc, one snapshot per id: how each
/// finding really reads (labels, notes, help, doc link), reviewed when it changes.
#[test]
fn every_fail_example_renders() {
    let mut snapshots = 0;
    for doc in read_docs() {
        // A doc that does not parse, or an unknown id, is reported by
        // `every_doc_example_behaves_as_marked`.
        let (Ok(examples), Some(meta)) = (parse_examples(&doc.id, &doc.text), meta(&doc.id)) else {
            continue;
        };
        let enable: Vec<&str> = if runs_enabled(meta) {
            vec!["--enable-rule", meta.id.as_str()]
        } else {
            Vec::new()
        };
        let mut text = String::new();
        for example in examples.iter().filter(|e| e.expect.is_fail()) {
            let dir = write_example(example);
            let output = tflint_merge(dir.path(), &enable);
            let stdout = String::from_utf8_lossy(&output.stdout);
            let label = format!("rules/{}.md line {}", doc.id, example.line);
            assert!(
                matches!(output.status.code(), Some(0 | 1)) && output.stderr.is_empty(),
                "{label}: tflint-merge exited with {:?}; stderr:\n{}",
                output.status.code(),
                String::from_utf8_lossy(&output.stderr)
            );
            assert!(
                stdout.contains(&format!("[{}]: ", doc.id)),
                "{label}: the human output shows no `{}` finding:\n{stdout}",
                doc.id
            );
            writeln!(
                text,
                "=== {label}: <!-- {} -->",
                example.expect.describe(&doc.id)
            )
            .expect("write to a String");
            text.push_str(&stdout);
            text.push('\n');
        }
        if text.is_empty() {
            continue; // not runnable: see `ids_the_docs_cannot_run_render`
        }
        let description = format!(
            "{} in each fail example of rules/{}.md",
            command_line(&enable),
            doc.id
        );
        assert_human_snapshot(&doc.id, &description, &text);
        snapshots += 1;
    }
    assert!(snapshots > 0, "no fail examples rendered");
}

/// `read_error` and `io_error`, whose causes cannot be written in a Markdown code block, from
/// small trees made here: a `shared.tf` that is a symlink to a directory, and a `main.tf` that
/// is a dangling symlink (file permissions would not do: CI runs as root, which reads any file).
#[test]
fn ids_the_docs_cannot_run_render() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("main.tf"), "locals {\n  a = 1\n}\n").expect("write main.tf");
    std::fs::create_dir(dir.path().join("shared")).expect("mkdir shared");
    std::os::unix::fs::symlink("shared", dir.path().join("shared.tf")).expect("symlink shared.tf");
    let output = tflint_merge(dir.path(), &[]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "read_error is an error finding"
    );
    assert_human_snapshot(
        "read_error",
        &format!(
            "{} in a module whose shared.tf is a symlink to a directory",
            command_line(&[])
        ),
        &String::from_utf8_lossy(&output.stdout),
    );

    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("outputs.tf"),
        "output \"id\" {\n  value = \"x\"\n}\n",
    )
    .expect("write outputs.tf");
    std::os::unix::fs::symlink("generated/main.tf", dir.path().join("main.tf"))
        .expect("symlink main.tf");
    let output = tflint_merge(dir.path(), &[]);
    assert_eq!(output.status.code(), Some(2), "io_error exits 2");
    assert_human_snapshot(
        "io_error",
        &format!(
            "{} in a module whose main.tf is a dangling symlink",
            command_line(&[])
        ),
        &String::from_utf8_lossy(&output.stdout),
    );
}

/// Ids that no snapshot of these tests shows, each with the test that covers it instead. The
/// list removes itself: an id here that some snapshot shows fails the test below. Empty today:
/// `internal_error`, which needs a panic that cannot be caused from outside the crate, is
/// rendered by the unit test `cli::tests::injected_panic_is_one_directorys_internal_error`
/// (`src/cli/snapshots/`).
const RENDERED_ELSEWHERE: [(&str, &str); 0] = [];

/// The `.snap` files of the crate: `tests/snapshots/`, and the `snapshots/` directories of unit
/// tests under `src/`.
fn snapshot_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, in_snapshots: bool, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                let is_snapshots = path.file_name().is_some_and(|n| n == "snapshots");
                walk(&path, is_snapshots, out);
            } else if in_snapshots && path.extension().is_some_and(|e| e == "snap") {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk(&root.join("tests/snapshots"), true, &mut files);
    walk(&root.join("src"), false, &mut files);
    files.sort();
    files
}

/// Whether a snapshot shows a finding of `id` in the human format: a line
/// `error[ID]: `, `warning[ID]: ` or `note[ID]: `.
fn shows_human(snapshot: &str, id: &str) -> bool {
    snapshot.lines().any(|line| {
        ["error", "warning", "notice"]
            .iter()
            .any(|severity| line.starts_with(&format!("{severity}[{id}]: ")))
    })
}

#[test]
fn every_finding_id_is_in_a_rendered_snapshot() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let listing = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .arg("rules")
        .output()
        .expect("run tflint-merge rules");
    assert_eq!(listing.status.code(), Some(0), "tflint-merge rules failed");
    let listing = String::from_utf8(listing.stdout).expect("UTF-8 rules listing");
    let ids: Vec<&str> = listing
        .lines()
        .skip(1)
        .take_while(|line| !line.is_empty()) // the table ends at the targeted-releases note
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert!(
        ids.len() > 1,
        "`tflint-merge rules` lists no ids:\n{listing}"
    );
    let snapshots: Vec<(String, String)> = snapshot_files()
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let name = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .display()
                .to_string();
            (name, text)
        })
        .collect();
    let mut failures = Vec::new();
    for id in &ids {
        let shown_in: Vec<&str> = snapshots
            .iter()
            .filter(|(_, text)| shows_human(text, id))
            .map(|(name, _)| name.as_str())
            .collect();
        let elsewhere = RENDERED_ELSEWHERE.iter().find(|(listed, _)| listed == id);
        match elsewhere {
            None if shown_in.is_empty() => failures.push(format!(
                "`{id}` is in no human-format snapshot: give rules/{id}.md a fail example, or render it in a test"
            )),
            Some((_, covered_by)) => {
                let named: Vec<&str> = snapshots
                    .iter()
                    .filter(|(name, text)| name.contains(id) || text.contains(&format!("[{id}]")))
                    .map(|(name, _)| name.as_str())
                    .collect();
                if !named.is_empty() {
                    failures.push(format!(
                        "`{id}` is listed in RENDERED_ELSEWHERE (covered by {covered_by}), but {} already show(s) it: remove it from the list",
                        named.join(", ")
                    ));
                }
            }
            None => {}
        }
    }
    for (listed, _) in RENDERED_ELSEWHERE {
        if !ids.contains(&listed) {
            failures.push(format!(
                "RENDERED_ELSEWHERE lists `{listed}`, which `tflint-merge rules` does not list"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} problems with the rendered snapshots of the finding ids:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
