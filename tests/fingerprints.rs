//! Fingerprints (GitLab Code Quality's `fingerprint`, SARIF's `partialFingerprints`) are the
//! identity of a finding across runs: GitLab shows findings that share one as a single finding,
//! so no two findings of a report may share one, and an edit elsewhere in a file (a blank line
//! inserted at its top) must change none, or every alert reopens as new.

#[path = "common/corpus.rs"]
mod corpus;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// `--enable-rule` for every rule (the rules off by default find the most), so that the
/// report holds every finding the trees have.
fn every_rule() -> Vec<String> {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    let mut ids: Vec<String> = std::fs::read_dir(&rules)
        .expect("src/rules")
        .filter_map(|entry| {
            let name = entry.expect("an entry").file_name();
            let id = name.to_str()?.strip_suffix(".rs")?.to_owned();
            (id != "mod").then_some(id)
        })
        .collect();
    ids.sort();
    assert!(ids.len() > 50, "{ids:?}");
    ids.into_iter()
        .flat_map(|id| ["--enable-rule".to_owned(), id])
        .collect()
}

/// Each finding's fingerprint, in report order, from `--format FORMAT` run in `cwd` on `tree`.
fn fingerprints(cwd: &Path, tree: &str, format: &str) -> Vec<(String, String)> {
    let out = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .args(every_rule())
        .args(["--format", format, tree])
        .current_dir(cwd)
        .output()
        .expect("run tflint-merge");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    let described = |rule: &Value, fingerprint: &Value, path: &Value, line: &Value| {
        (
            format!("{} {}:{}", rule.as_str().unwrap_or("?"), path, line),
            fingerprint
                .as_str()
                .expect("a fingerprint string")
                .to_owned(),
        )
    };
    match format {
        "gitlab" => report
            .as_array()
            .expect("an array of issues")
            .iter()
            .map(|issue| {
                described(
                    &issue["check_name"],
                    &issue["fingerprint"],
                    &issue["location"]["path"],
                    &issue["location"]["lines"]["begin"],
                )
            })
            .collect(),
        "sarif" => report["runs"][0]["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|result| {
                let location = &result["locations"][0]["physicalLocation"];
                described(
                    &result["ruleId"],
                    &result["partialFingerprints"]["tflintMergeFingerprint/v1"],
                    &location["artifactLocation"]["uri"],
                    &location["region"]["startLine"],
                )
            })
            .collect(),
        _ => unreachable!("{format}"),
    }
}

fn assert_unique(found: &[(String, String)], what: &str) {
    let mut by_fingerprint = std::collections::BTreeMap::<&str, Vec<&str>>::new();
    for (finding, fingerprint) in found {
        by_fingerprint.entry(fingerprint).or_default().push(finding);
    }
    let shared: Vec<_> = by_fingerprint.values().filter(|f| f.len() > 1).collect();
    assert!(
        shared.is_empty(),
        "{what}: {} of {} fingerprints are shared: {shared:?}",
        shared.len(),
        found.len()
    );
}

/// Copies `from` to `to`, with a blank line inserted at the top of every configuration file.
fn copy_shifted(from: &Path, to: &Path) {
    for file in corpus::files(from) {
        let relative = file.strip_prefix(from).expect("below the root");
        let target = to.join(relative);
        std::fs::create_dir_all(target.parent().expect("a parent")).expect("mkdir");
        let bytes = std::fs::read(&file).expect("read");
        let name = file.to_string_lossy();
        let configuration = [".tf", ".tofu", ".tf.json", ".tofu.json", ".hcl"]
            .iter()
            .any(|extension| name.ends_with(extension));
        let bytes = if configuration {
            [b"\n".as_slice(), &bytes].concat()
        } else {
            bytes
        };
        std::fs::write(&target, bytes).expect("write");
    }
}

/// The trees: the bundled examples, the corpus sample, and the whole corpus when it is there.
/// Each as (the directory to run in, the tree's name there).
fn trees() -> Vec<(std::path::PathBuf, String)> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut trees = vec![(manifest.to_path_buf(), "examples".to_owned())];
    for root in corpus::roots("fingerprints") {
        let parent = root.parent().expect("a parent").to_path_buf();
        let name = root
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        trees.push((parent, name));
    }
    trees
}

#[test]
fn every_finding_has_its_own_fingerprint() {
    for (cwd, tree) in trees() {
        for format in ["gitlab", "sarif"] {
            let found = fingerprints(&cwd, &tree, format);
            assert!(!found.is_empty(), "{tree}: no findings to fingerprint");
            assert_unique(&found, &format!("{tree} ({format})"));
        }
    }
}

#[test]
fn a_line_inserted_above_changes_no_fingerprint() {
    for (cwd, tree) in trees() {
        let scratch = tempfile::tempdir().expect("tempdir");
        copy_shifted(&cwd.join(&tree), &scratch.path().join(&tree));
        for format in ["gitlab", "sarif"] {
            let before = fingerprints(&cwd, &tree, format);
            let after = fingerprints(scratch.path(), &tree, format);
            assert_eq!(before.len(), after.len(), "{tree}: the findings changed");
            for ((finding, old), (moved, new)) in before.iter().zip(&after) {
                assert_eq!(old, new, "{tree} ({format}): {finding} became {moved}");
            }
        }
    }
}

/// Findings alike in rule, file, message and line text (three identical resources give two
/// identical duplicate_definition findings) are told apart by their occurrence, and the
/// numbering follows the order in the file, so a line inserted above keeps them.
#[test]
fn identical_findings_are_told_apart_by_their_occurrence() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let module = scratch.path().join("m");
    std::fs::create_dir(&module).expect("mkdir");
    let block = "resource \"x\" \"a\" {}\n";
    std::fs::write(module.join("main.tf"), block.repeat(4)).expect("write");
    for format in ["gitlab", "sarif"] {
        let found = fingerprints(scratch.path(), "m", format);
        let lines: Vec<&str> = found.iter().map(|(finding, _)| finding.as_str()).collect();
        assert_eq!(
            lines,
            [
                "duplicate_definition \"m/main.tf\":2",
                "duplicate_definition \"m/main.tf\":3",
                "duplicate_definition \"m/main.tf\":4"
            ]
        );
        assert_unique(&found, format);

        std::fs::write(module.join("main.tf"), format!("\n\n{}", block.repeat(4))).expect("write");
        let shifted = fingerprints(scratch.path(), "m", format);
        let old: Vec<&String> = found.iter().map(|(_, f)| f).collect();
        let new: Vec<&String> = shifted.iter().map(|(_, f)| f).collect();
        assert_eq!(old, new, "{format}");
        std::fs::write(module.join("main.tf"), block.repeat(4)).expect("write");
    }
}
