//! The README's list of findings (its `## Findings` section) agrees with `tflint-merge rules`:
//! every rule and engine finding is listed, with its default severity, every listed id is known
//! with that severity, and no listed id is unknown. Load errors are listed by `tflint-merge
//! rules`; the README names some of them, so that adding one (`scripts/new_rule.sh
//! --load-error`) needs no edit here.
//!
//! How the list is read: each bullet of the section is one group of ids. An id is a
//! backticked snake_case word with an underscore (`override_noop`; `language` or
//! `terragrunt.hcl` are not ids). A severity in parentheses — `(warning)`, or `(errors)` after
//! several ids — applies to the ids before it that have none yet; other parentheses (`(per
//! view)`) are prose. Ids left without one are errors when their bullet says "Always errors"
//! (the load errors). Ids after the words "off by default" in a bullet are off by default, the
//! others on.

use std::collections::BTreeMap;
use std::process::Command;

/// What the README or the binary says of one id.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Listed {
    severity: String,
    on_by_default: bool,
    /// A load error (`tflint-merge rules` only: the README need not list every one).
    load_error: bool,
}

/// The ids of `tflint-merge rules`, from its table (id, kind, severity, default, summary).
fn catalogue() -> BTreeMap<String, Listed> {
    let output = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .arg("rules")
        .output()
        .expect("run tflint-merge rules");
    assert!(output.status.success(), "tflint-merge rules failed");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let mut ids = BTreeMap::new();
    // The table ends at a blank line (the targeted-releases note follows).
    for line in text.lines().skip(1).take_while(|line| !line.is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        // The kind is one word ("rule", "engine") or two ("load error").
        let kind_words = if words.get(1) == Some(&"load") { 2 } else { 1 };
        let (Some(id), Some(severity), Some(default)) = (
            words.first(),
            words.get(1 + kind_words),
            words.get(2 + kind_words),
        ) else {
            panic!("unexpected line of `tflint-merge rules`: {line:?}");
        };
        let listed = Listed {
            severity: severity.to_string(),
            on_by_default: *default == "on",
            load_error: kind_words == 2,
        };
        ids.insert(id.to_string(), listed);
    }
    assert!(!ids.is_empty(), "`tflint-merge rules` listed nothing");
    ids
}

/// The bullets of the README's `## Findings` section, each joined into one line.
fn findings_bullets() -> Vec<String> {
    let readme = include_str!("../README.md");
    let start = readme
        .find("\n## Findings\n")
        .expect("README has a `## Findings` section");
    let section = &readme[start + 1..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let mut bullets: Vec<String> = Vec::new();
    let mut in_bullet = false;
    for line in section.lines() {
        if let Some(rest) = line.strip_prefix("- ") {
            bullets.push(rest.to_string());
            in_bullet = true;
        } else if in_bullet && line.starts_with("  ") {
            let last = bullets.last_mut().expect("a bullet");
            last.push(' ');
            last.push_str(line.trim());
        } else {
            in_bullet = false;
        }
    }
    bullets
}

/// A severity word in parentheses: `(error)`, `(errors)`, `(warning)`, `(notice)`...
fn severity_word(inside: &str) -> Option<&'static str> {
    match inside {
        "error" | "errors" => Some("error"),
        "warning" | "warnings" => Some("warning"),
        "notice" | "notices" => Some("notice"),
        _ => None,
    }
}

fn is_id(word: &str) -> bool {
    word.contains('_')
        && word
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// What the README says of each id it lists.
fn readme_list() -> BTreeMap<String, Listed> {
    let (ids, problems) = read_bullets(&findings_bullets());
    assert!(problems.is_empty(), "README.md:\n{}", problems.join("\n"));
    ids
}

/// What bullets say of each id they list, and their problems: an id without a severity, or
/// listed twice.
fn read_bullets(bullets: &[String]) -> (BTreeMap<String, Listed>, Vec<String>) {
    let mut ids = BTreeMap::new();
    let mut problems = Vec::new();
    for bullet in bullets {
        let always_errors = bullet.contains("Always errors");
        let mut off = false;
        let mut pending: Vec<(String, bool)> = Vec::new();
        let mut done: Vec<(String, bool, String)> = Vec::new();
        let mut rest = bullet.as_str();
        // The next backtick, opening parenthesis or "off by default", in order.
        while let Some(at) = rest.find(['`', '(', 'o']) {
            let tail = &rest[at..];
            if let Some(after) = tail.strip_prefix("off by default") {
                off = true;
                rest = after;
            } else if let Some(after) = tail.strip_prefix('`') {
                let end = after.find('`').unwrap_or(after.len());
                let word = &after[..end];
                if is_id(word) {
                    pending.push((word.to_string(), off));
                }
                rest = after.get(end + 1..).unwrap_or("");
            } else if let Some(after) = tail.strip_prefix('(') {
                let end = after.find(')').unwrap_or(after.len());
                if let Some(severity) = severity_word(&after[..end]) {
                    for (id, off) in pending.drain(..) {
                        done.push((id, off, severity.to_string()));
                    }
                }
                rest = &after[end..];
            } else {
                rest = &tail[1..];
            }
        }
        for (id, off) in pending {
            if always_errors {
                done.push((id, off, "error".to_string()));
            } else {
                problems.push(format!("`{id}`: the README gives no severity"));
            }
        }
        for (id, off, severity) in done {
            let listed = Listed {
                severity,
                on_by_default: !off,
                load_error: always_errors,
            };
            if ids.insert(id.clone(), listed).is_some() {
                problems.push(format!("`{id}`: listed twice"));
            }
        }
    }
    (ids, problems)
}

#[test]
fn the_readme_lists_every_finding_with_its_default_severity() {
    let catalogue = catalogue();
    let readme = readme_list();
    let mut problems = Vec::new();
    for (id, expected) in &catalogue {
        match readme.get(id) {
            None if expected.load_error => {}
            None => problems.push(format!("`{id}` ({}) is not listed", expected.severity)),
            Some(listed) if listed.severity != expected.severity => problems.push(format!(
                "`{id}` is listed as {}, its default severity is {}",
                listed.severity, expected.severity
            )),
            Some(listed) if listed.load_error != expected.load_error => {
                let (said, is) = match expected.load_error {
                    true => ("a rule", "a load error"),
                    false => ("a load error", "not one"),
                };
                problems.push(format!("`{id}` is listed as {said}, it is {is}"));
            }
            Some(listed) if listed.on_by_default != expected.on_by_default => {
                problems.push(format!(
                    "`{id}` is listed as {}, it is {}",
                    on_off(listed.on_by_default),
                    on_off(expected.on_by_default)
                ));
            }
            Some(_) => {}
        }
    }
    for id in readme.keys().filter(|id| !catalogue.contains_key(*id)) {
        problems.push(format!(
            "`{id}` is listed but `tflint-merge rules` has no such id"
        ));
    }
    assert!(
        problems.is_empty(),
        "README.md `## Findings` disagrees with `tflint-merge rules`:\n{}",
        problems.join("\n")
    );
}

fn on_off(on: bool) -> &'static str {
    if on {
        "on by default"
    } else {
        "off by default"
    }
}

#[test]
fn grouped_severities_prose_parentheses_and_off_by_default() {
    let bullets = [
        "**Rules** — `a_x` (per view), `b_x` (errors), `language` blocks: `c_x` (warning) and, \
         off by default, `d_x` (notice); `e_x`."
            .to_string(),
        "**Load errors** — `f_x`, `g_x`. Always errors.".to_string(),
    ];
    let (ids, problems) = read_bullets(&bullets);
    let listed = |severity: &str, on_by_default| Listed {
        severity: severity.to_string(),
        on_by_default,
        load_error: false,
    };
    let load_error = Listed {
        load_error: true,
        ..listed("error", true)
    };
    assert_eq!(ids["a_x"], listed("error", true));
    assert_eq!(ids["b_x"], listed("error", true));
    assert_eq!(ids["c_x"], listed("warning", true));
    assert_eq!(ids["d_x"], listed("notice", false));
    assert_eq!(ids["f_x"], load_error);
    assert_eq!(ids["g_x"], load_error);
    assert!(!ids.contains_key("language"));
    assert_eq!(problems, ["`e_x`: the README gives no severity"]);
}

/// The sample output at the top of the README is what `tflint-merge examples/` prints.
#[test]
fn sample_output_is_what_the_examples_give() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    let start = readme
        .find("```text\nerror[")
        .expect("a sample finding in a ```text block");
    let body = &readme[start + "```text\n".len()..];
    let sample = &body[..body.find("```\n").expect("the end of the sample")];
    let output = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .args(["--color", "never", "examples/"])
        .current_dir(root)
        .env_remove("NO_COLOR")
        .output()
        .expect("run tflint-merge");
    let printed = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(
        printed.contains(&format!("{sample}\n")),
        "README.md's sample output is not in `tflint-merge examples/`:\n{sample}"
    );
}

/// The README is also the PyPI page, where a relative link leads nowhere: every link is
/// absolute. It starts with the two set-up commands, and says what is not published yet.
#[test]
fn readme_links_are_absolute_and_it_starts_with_the_setup_commands() {
    let readme = include_str!("../README.md");
    let relative: Vec<&str> = readme
        .match_indices("](")
        .map(|(at, _)| &readme[at + 2..])
        .filter(|target| !target.starts_with("https://") && !target.starts_with("http://"))
        .map(|target| target.split(')').next().unwrap_or(target))
        .collect();
    assert!(relative.is_empty(), "relative links: {relative:?}");
    assert!(
        readme.starts_with("```sh\ncargo run --release -- examples/\ncargo test\n```\n"),
        "the README does not start with the two set-up commands"
    );
    let status = readme
        .split("\n## Status: not released yet\n")
        .nth(1)
        .expect("a Status section");
    for said in [
        "no `v0.1.0` tag",
        "on PyPI",
        "cargo install --locked --git",
        "maturin build",
    ] {
        assert!(
            status.contains(said),
            "the Status section does not say {said:?}"
        );
    }
}

/// The README's JSON example is what `tflint-merge --format json examples/` prints, keeping
/// only the findings it shows: every key, position, byte offset and count.
#[test]
fn json_example_is_what_the_examples_give() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    let section = readme
        .find("### JSON output")
        .expect("the JSON output section");
    let body = &readme[section..];
    let start = body.find("```json\n").expect("its example") + "```json\n".len();
    let example = &body[start..start + body[start..].find("```\n").expect("its end")];
    let example: serde_json::Value = serde_json::from_str(example).expect("the example is JSON");
    let output = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .args(["--format", "json", "examples/"])
        .current_dir(root)
        .output()
        .expect("run tflint-merge");
    let mut printed: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("JSON output");
    let shown = example["findings"].as_array().expect("findings");
    assert!(!shown.is_empty());
    let findings = printed["findings"].as_array_mut().expect("findings");
    // The README's findings by rule, file and line only, so that a wrong column is reported
    // as a difference rather than as a finding not found.
    let line_key = |f: &serde_json::Value| {
        (
            f["rule"].clone(),
            f["file"].clone(),
            f["start"]["line"].clone(),
        )
    };
    let line_keys: Vec<_> = shown.iter().map(line_key).collect();
    findings.retain(|f| line_keys.contains(&line_key(f)));
    assert_eq!(
        findings.len(),
        line_keys.len(),
        "each finding of the README's example once in the output"
    );
    assert_eq!(
        printed, example,
        "README.md's JSON example differs from `tflint-merge --format json examples/`"
    );
}
