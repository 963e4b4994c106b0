//! `tflint-merge merged` on a Terragrunt unit: the effective configuration, includes and imports
//! merged by their strategies, with the files each value comes from. The merged inputs of the
//! include-based fixtures are compared with values worked out by hand from Terragrunt's merge
//! (gruntwork-io/terragrunt `pkg/config/include.go`: the unit and later includes are merged
//! into each included file with that file's strategy).

use std::path::{Path, PathBuf};
use std::process::Command;

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `merged --format json` of `unit` (relative to the manifest): exit status and parsed output.
fn merged_json(unit: &str) -> (i32, serde_json::Value) {
    let output = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .current_dir(manifest())
        .args(["merged", unit, "--format", "json"])
        .output()
        .expect("runs");
    let value = serde_json::from_slice(&output.stdout).unwrap_or(serde_json::Value::Null);
    (output.status.code().unwrap_or(-1), value)
}

/// The inputs of a `merged` JSON output as (name, value text, files).
fn inputs(value: &serde_json::Value) -> Vec<(String, String, Vec<String>)> {
    (value["inputs"].as_array().into_iter().flatten())
        .map(|input| {
            let files = (input["files"].as_array().into_iter().flatten())
                .filter_map(|f| f.as_str().map(str::to_string))
                .collect();
            (
                input["name"].as_str().unwrap_or_default().to_string(),
                input["value"].as_str().unwrap_or_default().to_string(),
                files,
            )
        })
        .collect()
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_shallow_and_a_deep_include_merged_by_hand() {
    // root.hcl (shallow) sets region, tags = {team} and size; _envcommon/app.hcl (deep) sets
    // tags = {app} and vpc_id; the unit sets size and tags = {tier}. Terragrunt merges the unit
    // into _envcommon deeply (tags {app, tier}), then that into root.hcl shallowly (tags
    // replaced whole, so `team` is gone; size from the unit).
    let root = "tests/fixtures/terragrunt/merged";
    let (status, value) = merged_json(&format!("{root}/live/app"));
    assert_eq!(status, 0);
    let unit = "tests/fixtures/terragrunt/merged/live/app/terragrunt.hcl";
    let envcommon = "tests/fixtures/terragrunt/merged/_envcommon/app.hcl";
    let root_hcl = "tests/fixtures/terragrunt/merged/root.hcl";
    assert_eq!(
        inputs(&value),
        [
            (
                "region".into(),
                "\"eu-west-1\"".into(),
                strings(&[root_hcl])
            ),
            (
                "tags".into(),
                "{\n    app = \"web\"\n    tier = \"frontend\"\n  }".into(),
                strings(&[envcommon, unit]),
            ),
            ("size".into(), "3".into(), strings(&[unit])),
            (
                "vpc_id".into(),
                "dependency.vpc.outputs.vpc_id".into(),
                strings(&[envcommon]),
            ),
        ]
    );
    assert_eq!(value["inputs_complete"], true);
    let layers: Vec<(&str, &str)> = (value["layers"].as_array().into_iter().flatten())
        .map(|l| {
            (
                l["file"].as_str().unwrap_or(""),
                l["how"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        layers,
        [
            (root_hcl, "include, shallow merge"),
            (envcommon, "include, deep merge"),
            (unit, "the unit"),
        ]
    );
    // The dependency, with its mock outputs, comes from the included file.
    let blocks = value["blocks_and_attributes"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let dependency = blocks
        .iter()
        .find(|b| b["key"] == "dependency vpc")
        .expect("dependency");
    assert!(
        dependency["text"]
            .as_str()
            .unwrap_or("")
            .contains("mock_outputs")
    );
    assert_eq!(dependency["files"][0], envcommon);
}

#[test]
fn inputs_that_are_not_object_literals_are_named_not_guessed() {
    // root.hcl's inputs are `merge(local.account.locals, ...)`: merged when Terragrunt runs.
    let (status, value) = merged_json("tests/fixtures/terragrunt/includes/prod/us-east-1/app/db");
    assert_eq!(status, 0);
    let db = "tests/fixtures/terragrunt/includes/prod/us-east-1/app/db/terragrunt.hcl";
    assert_eq!(
        inputs(&value),
        [(
            "state_bucket".into(),
            "include.root.remote_state.config.bucket".into(),
            strings(&[db]),
        )]
    );
    assert_eq!(value["inputs_complete"], false);
    assert_eq!(
        value["opaque_inputs"][0]["file"],
        "tests/fixtures/terragrunt/includes/root.hcl"
    );
}

/// Every `terragrunt.hcl` below `dir`.
fn units(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            units(&path, out);
        } else if path.file_name().is_some_and(|n| n == "terragrunt.hcl") {
            out.push(path);
        }
    }
}

#[test]
fn every_unit_of_the_fixtures_and_examples_merges_in_both_formats() {
    let mut found = Vec::new();
    for root in ["tests/fixtures/terragrunt", "examples"] {
        units(&manifest().join(root), &mut found);
    }
    assert!(found.len() >= 6, "{found:?}");
    for unit in found {
        let unit = unit.to_string_lossy().into_owned();
        for format in ["hcl", "json"] {
            let output = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
                .args(["merged", &unit, "--format", format])
                .output()
                .expect("runs");
            assert_eq!(output.status.code(), Some(0), "{unit} {format}: {output:?}");
            assert!(
                output
                    .stdout
                    .starts_with(if format == "hcl" { b"# " } else { b"{" })
            );
        }
    }
}
