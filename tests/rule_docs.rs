//! Checks the user docs of the finding ids (`rules/<id>.md`): one doc per id of
//! `rules::LOAD_ERRORS` and no stale doc, the fixed section layout, and every runnable example.
//!
//! Example convention (in the `## Example` section, or anywhere in the doc):
//! - a line `<!-- fail -->` or `<!-- pass -->` starts an example; the example is the fenced code
//!   blocks after it, up to the next marker or heading;
//! - a fenced block with info string `hcl file=NAME` or `json file=NAME` is a file of the
//!   example's module directory; a block without `file=` is illustration only.
//!
//! A `fail` example must produce exactly one finding of the doc's id in each view (Terraform and
//! OpenTofu: one diagnostic when both views word it the same, one per view when the tools print
//! different summaries) and no other load error; a `pass` example must produce no load error at
//! all. Every message a `fail` example produces must be quoted somewhere in its doc.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use tflint_merge::diagnostic::{Diagnostic, Views};
use tflint_merge::pipeline::{ViewSelection, check_directory};
use tflint_merge::rules::LOAD_ERRORS;

/// The sections every doc has, in this order.
const SECTIONS: [&str; 5] = [
    "What it does",
    "Why",
    "Example",
    "How to fix",
    "Configuration",
];

/// Ids whose cause cannot be written as files in a Markdown code block (an unreadable directory
/// or file, bytes that are not UTF-8, a directory named like a file): illustration only.
const NOT_RUNNABLE: [&str; 2] = ["io_error", "read_error"];

/// Ids whose message is not a fixed text the doc can quote (it comes from the parser).
const MESSAGE_NOT_QUOTABLE: [&str; 1] = ["syntax_error"];

const CONFIGURATION_TEXT: &str =
    "None: Terraform/OpenTofu refuse to load the module, so this finding is always reported.";

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

#[test]
fn every_id_has_a_doc_and_every_doc_an_id() {
    let ids: BTreeSet<String> = LOAD_ERRORS.iter().map(|r| r.id.to_string()).collect();
    let docs: BTreeSet<String> = read_docs().into_iter().map(|d| d.id).collect();
    let missing: Vec<_> = ids.difference(&docs).collect();
    let stale: Vec<_> = docs.difference(&ids).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "ids without a doc in rules/: {missing:?}; docs without an id in LOAD_ERRORS: {stale:?}"
    );
    for rule in LOAD_ERRORS {
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
        if !summary.contains("Severity: error. Always on") {
            fail(format!(
                "the summary line after the title must say \"Severity: error. Always on\": {summary:?}"
            ));
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
        if !section(&doc.text, "Configuration").contains(CONFIGURATION_TEXT) {
            fail(format!(
                "`## Configuration` must say {CONFIGURATION_TEXT:?}"
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    Fail,
    Pass,
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
        let marker = match trimmed {
            "<!-- fail -->" => Some(Expect::Fail),
            "<!-- pass -->" => Some(Expect::Pass),
            _ => None,
        };
        if let Some(expect) = marker {
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
                "line {number}: a `file=` block outside an example (no `<!-- fail -->` or `<!-- pass -->` before it)"
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
        if file.contains('/') || file.contains('\\') || file.starts_with('.') {
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
    LOAD_ERRORS.iter().map(|r| r.id).collect()
}

fn describe(d: &Diagnostic) -> String {
    let (line, column) = d.start();
    let views = d.views.describe().unwrap_or("no view");
    format!(
        "{}:{line}:{column}: [{}] {} ({views})",
        d.path, d.rule, d.message
    )
}

/// Runs one example; returns what is wrong with it.
fn run_example(id: &str, doc: &str, example: &Example) -> Vec<String> {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, content) in &example.files {
        std::fs::write(dir.path().join(name), content).expect("write example file");
    }
    let result = check_directory(dir.path(), ViewSelection::Both);
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
    match example.expect {
        Expect::Fail => {
            for (view, name) in [
                (Views::TERRAFORM, "Terraform"),
                (Views::OPENTOFU, "OpenTofu"),
            ] {
                let n = ours
                    .iter()
                    .filter(|d| d.views.union(view) == d.views)
                    .count();
                if n != 1 {
                    problems.push(format!(
                        "expected exactly one `{id}` finding in the {name} view, got {n}; {}",
                        listing()
                    ));
                }
            }
            if !others.is_empty() {
                problems.push(format!(
                    "a fail example must show only this error, but it has other load errors; {}",
                    listing()
                ));
            }
            if !MESSAGE_NOT_QUOTABLE.contains(&id) {
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
                problems.push(format!(
                    "a pass example must load without errors; {}",
                    listing()
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
        let examples = match parse_examples(&doc.text) {
            Ok(examples) => examples,
            Err(error) => {
                failures.push(format!("rules/{}.md: {error}", doc.id));
                continue;
            }
        };
        let runnable = !NOT_RUNNABLE.contains(&doc.id.as_str());
        let fails = examples.iter().filter(|e| e.expect == Expect::Fail).count();
        let passes = examples.len() - fails;
        if runnable && (fails == 0 || passes == 0) {
            failures.push(format!(
                "rules/{}.md: needs at least one fail and one pass example (has {fails} fail, {passes} pass)",
                doc.id
            ));
        }
        for (index, example) in examples.iter().enumerate() {
            let label = format!(
                "rules/{}.md example #{} ({:?}, line {})",
                doc.id,
                index + 1,
                example.expect,
                example.line
            );
            if example.files.is_empty() {
                failures.push(format!("{label}: no `file=` blocks"));
                continue;
            }
            run += 1;
            for problem in run_example(&doc.id, &doc.text, example) {
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
