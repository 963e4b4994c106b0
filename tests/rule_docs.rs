//! Checks the user docs of the finding ids (`rules/<id>.md`): one doc per id of
//! `rules::catalogue()` (load errors, rules, engine findings) and no stale doc, the fixed section
//! layout and summary line, and every runnable example.
//!
//! Example convention (in the `## Example` section, or anywhere in the doc):
//! - a line `<!-- fail -->` or `<!-- pass -->` starts an example; the example is the fenced code
//!   blocks after it, up to the next marker or heading;
//! - a fenced block with info string `hcl file=NAME` or `json file=NAME` is a file of the
//!   example's module directory; a block without `file=` is illustration only.
//! - an example with `.hcl` files is a Terragrunt tree: `NAME` may hold directories
//!   (`hcl file=prod/us-east-1/app/terragrunt.hcl`), and the tree is checked with its
//!   `terragrunt.hcl` files as units. Its fail examples must give exactly one finding of the id.
//!
//! A `fail` example must produce exactly one finding of the doc's id in each view (Terraform and
//! OpenTofu: one diagnostic when both views word it the same, one per view when the tools print
//! different summaries; a finding that belongs to no view, like `unused_ignore` or the findings of
//! rules that compare the two views, counts in both).
//! A view that loads none of the example's files (Terraform, for `.tofu` files only) is not
//! counted.
//! - `<!-- fail: terraform -->` or `<!-- fail: opentofu -->` marks an example that fails in one
//!   view only: exactly one finding of the id in that view (which must load at least one of the
//!   example's files) and none in the other. A finding of no view counts in both views, so the
//!   examples of rules that compare the views use plain `<!-- fail -->`.
//! - For a load error, it must produce no other load error, and every message it produces must be
//!   quoted somewhere in the doc; a `pass` example must produce no load error at all.
//! - For a rule or `unused_ignore`, examples run with that id enabled (even if it is off by
//!   default). A `fail` example must produce no load error; a `pass` example no load error and no
//!   finding of the id. Findings of other rules are allowed in both.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tflint_merge::diagnostic::{Diagnostic, Views};
use tflint_merge::load::{self, View};
use tflint_merge::pipeline::{self, Options, ViewSelection};
use tflint_merge::rules::{self, Kind, RuleMeta, RuleSettings};
use tflint_merge::terragrunt;

/// The sections every doc has, in this order.
const SECTIONS: [&str; 5] = [
    "What it does",
    "Why",
    "Example",
    "How to fix",
    "Configuration",
];

/// Ids whose cause cannot be written as files in a Markdown code block (an unreadable directory
/// or file, bytes that are not UTF-8, a directory named like a file, a rule that crashes):
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
    rules::find(id)
}

#[test]
fn every_id_has_a_doc_and_every_doc_an_id() {
    let ids: BTreeSet<String> = rules::catalogue()
        .iter()
        .map(|r| r.id.to_string())
        .collect();
    let docs: BTreeSet<String> = read_docs().into_iter().map(|d| d.id).collect();
    let missing: Vec<_> = ids.difference(&docs).collect();
    let stale: Vec<_> = docs.difference(&ids).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "ids without a doc in rules/: {missing:?}; docs without an id in the catalogue: {stale:?}"
    );
    for rule in rules::catalogue() {
        let on_disk = std::fs::read_to_string(rules_dir().join(format!("{}.md", rule.id)))
            .expect("doc exists");
        assert_eq!(
            rule.doc, on_disk,
            "{}: embedded doc differs from rules/{}.md",
            rule.id, rule.id
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
        if meta.kind == Kind::LoadError {
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
        } else if !NOT_CONFIGURABLE.contains(&meta.id)
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// A finding in every view that loads one of the example's files (`<!-- fail -->`), or in
    /// the one view named (`<!-- fail: terraform -->`, `<!-- fail: opentofu -->`) and none in the
    /// other.
    Fail(Option<View>),
    Pass,
}

impl Expect {
    /// The marker, without its comment delimiters: `fail`, `fail: opentofu`, `pass`.
    fn describe(self) -> String {
        match self {
            Expect::Fail(None) => "fail".to_string(),
            Expect::Fail(Some(view)) => format!("fail: {}", view.as_str()),
            Expect::Pass => "pass".to_string(),
        }
    }
}

/// The expectation a marker line states, if the line is a marker.
fn marker(line: &str) -> Option<Expect> {
    match line {
        "<!-- fail -->" => Some(Expect::Fail(None)),
        "<!-- fail: terraform -->" => Some(Expect::Fail(Some(View::Terraform))),
        "<!-- fail: opentofu -->" => Some(Expect::Fail(Some(View::OpenTofu))),
        "<!-- pass -->" => Some(Expect::Pass),
        _ => None,
    }
}

struct Example {
    expect: Expect,
    /// 1-based line of the marker.
    line: usize,
    files: Vec<(String, String)>,
}

/// Parses the examples of a doc. Errors are problems of the doc itself (a runnable block outside
/// an example, a bad info string, an unclosed fence...).
fn parse_examples(text: &str) -> Result<Vec<Example>, String> {
    let mut examples: Vec<Example> = Vec::new();
    let mut current: Option<Example> = None;
    let mut lines = text.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let number = i + 1;
        let trimmed = line.trim();
        if let Some(expect) = marker(trimmed) {
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
                "line {number}: a `file=` block outside an example (no `<!-- fail -->`, `<!-- fail: VIEW -->` or `<!-- pass -->` before it)"
            ));
        };
        let is_json = file.ends_with(".json");
        match language {
            "hcl" if !is_json => {}
            "json" if is_json => {}
            _ => {
                return Err(format!(
                    "line {number}: info string `{info}`: use `hcl` for .tf/.tofu files and `json` for .tf.json/.tofu.json files"
                ));
            }
        }
        if file.ends_with(".hcl") {
            if file.contains('\\')
                || file.starts_with('/')
                || file.split('/').any(|c| c.is_empty() || c.starts_with('.'))
            {
                return Err(format!(
                    "line {number}: `{file}` must be a relative path without `.` or `..`"
                ));
            }
        } else if file.contains('/') || file.contains('\\') || file.starts_with('.') {
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

fn load_error_ids() -> BTreeSet<&'static str> {
    rules::LOAD_ERRORS.iter().map(|r| r.id).collect()
}

/// Whether a doc's examples run with its id enabled: rules and `unused_ignore` (load errors are
/// always on; `internal_error` is not runnable).
fn runs_enabled(meta: &RuleMeta) -> bool {
    meta.kind == Kind::Rule || meta.id == rules::UNUSED_IGNORE.id
}

/// Whether a view loads at least one of an example's files. A view that loads none (Terraform,
/// for an example of `.tofu` files only) has nothing to report, so it is not counted.
fn loads_any(example: &Example, view: View) -> bool {
    let names: Vec<load::ConfigName> = example
        .files
        .iter()
        .filter_map(|(name, _)| load::classify(name))
        .collect();
    load::view_files(&names, view).loaded().next().is_some()
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

/// What an example gave.
struct Checked {
    diagnostics: Vec<Diagnostic>,
}

/// Runs one example; returns what is wrong with it.
fn run_example(meta: &RuleMeta, doc: &str, example: &Example) -> Vec<String> {
    let id = meta.id;
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, content) in &example.files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, content).expect("write example file");
    }
    let mut settings = RuleSettings::defaults();
    if runs_enabled(meta) {
        settings.enable(id).expect("a known id");
    }
    let is_terragrunt = example.files.iter().any(|(name, _)| name.ends_with(".hcl"));
    let diagnostics = if is_terragrunt {
        let units: Vec<PathBuf> = example
            .files
            .iter()
            .map(|(name, _)| dir.path().join(name))
            .filter(|path| path.file_name().is_some_and(|n| n == "terragrunt.hcl"))
            .collect();
        terragrunt::check(
            &units,
            &[dir.path().to_path_buf()],
            &settings,
            pipeline::DEFAULT_MAX_FILE_BYTES,
        )
        .diagnostics
    } else {
        let options = Options {
            settings: Arc::new(settings),
            ..Options::new(ViewSelection::Both)
        };
        pipeline::check_directory_with(dir.path(), &options).diagnostics
    };
    let result = Checked { diagnostics };
    let is_load_error = meta.kind == Kind::LoadError;
    let load_errors = load_error_ids();
    let mut problems = Vec::new();
    let listing = || {
        let all: Vec<String> = result.diagnostics.iter().map(describe).collect();
        if all.is_empty() {
            "no findings".to_string()
        } else {
            format!("findings:\n      {}", all.join("\n      "))
        }
    };
    let ours: Vec<&Diagnostic> = result.diagnostics.iter().filter(|d| d.rule == id).collect();
    let others: Vec<&Diagnostic> = result
        .diagnostics
        .iter()
        .filter(|d| d.rule != id && load_errors.contains(d.rule))
        .collect();
    if is_terragrunt {
        // A Terragrunt tree has no views: a fail example gives exactly one finding of the id, a
        // pass example none, and neither a load error.
        let want = usize::from(example.expect != Expect::Pass);
        if ours.len() != want || !others.is_empty() {
            problems.push(format!(
                "expected {want} `{id}` finding(s) and no load error in the Terragrunt tree; {}",
                listing()
            ));
        }
        return problems;
    }
    match example.expect {
        Expect::Fail(only) => {
            let loading: Vec<View> = View::ALL
                .into_iter()
                .filter(|&view| loads_any(example, view))
                .collect();
            // The views counted, each with the number of findings expected in it.
            let expected: Vec<(View, usize)> = match only {
                None => loading.iter().map(|&view| (view, 1)).collect(),
                Some(marked) => View::ALL
                    .into_iter()
                    .map(|view| (view, usize::from(view == marked)))
                    .collect(),
            };
            match only {
                None if loading.is_empty() => {
                    problems.push("no view loads any of the example's files".to_string());
                }
                Some(marked) if !loading.contains(&marked) => problems.push(format!(
                    "marked to fail in the {} view, which loads none of the example's files",
                    marked.tool_name()
                )),
                _ => {
                    for (view, want) in expected {
                        let n = ours.iter().filter(|d| in_view(d, view.views())).count();
                        if n == want {
                            continue;
                        }
                        let hint = if only.is_some() && ours.iter().any(|d| d.views == Views::NONE)
                        {
                            " (a finding of no view counts in both views: mark the example `<!-- fail -->`)"
                        } else {
                            ""
                        };
                        problems.push(format!(
                            "expected {} `{id}` finding in the {} view, got {n}{hint}; {}",
                            if want == 1 { "exactly one" } else { "no" },
                            view.tool_name(),
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
                    if !doc.contains(&d.message) {
                        problems.push(format!(
                            "the doc never quotes the message `{}` this example produces",
                            d.message
                        ));
                    }
                }
            }
        }
        Expect::Pass => {
            if !ours.is_empty() || !others.is_empty() {
                let what = if is_load_error {
                    "a pass example must load without errors".to_string()
                } else {
                    format!("a pass example must load without errors and give no `{id}` finding")
                };
                problems.push(format!("{what}; {}", listing()));
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
        let examples = match parse_examples(&doc.text) {
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
        let fails = examples
            .iter()
            .filter(|e| matches!(e.expect, Expect::Fail(_)))
            .count();
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
                example.expect.describe(),
                example.line
            );
            if example.files.is_empty() {
                failures.push(format!("{label}: no `file=` blocks"));
                continue;
            }
            run += 1;
            for problem in run_example(meta, &doc.text, example) {
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
