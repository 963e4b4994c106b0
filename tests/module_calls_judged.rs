//! What `terraform validate` refuses in a call's `providers` map, judged by Terraform itself:
//! each case is a caller and a local child module (`./child`, installed as `init` would record
//! it in `.terraform/modules/modules.json`), validated by the Terraform judges of
//! `target/judges` (`scripts/judge_validate.py`), whose "Provider type mismatch", "Reference
//! to undefined provider" and "Missing required provider configuration" errors must be
//! tflint-merge's findings, place for place (`module_provider_type_mismatch`,
//! `module_provider_key_undeclared`, `module_provider_alias_missing`). Without a judge the test
//! says it skipped (with `CI=true` it fails).

#[path = "common/corpus.rs"]
mod corpus;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The releases judged: the oldest and the newest the harness installs.
const RELEASES: [&str; 2] = ["1.6.6", "1.15.5"];

/// (summary, file, line, column) of an error.
type Place = (String, String, u64, u64);

const JUDGED: [(&str, &str); 3] = [
    ("Provider type mismatch", "module_provider_type_mismatch"),
    (
        "Reference to undefined provider",
        "module_provider_key_undeclared",
    ),
    (
        "Missing required provider configuration",
        "module_provider_alias_missing",
    ),
];

fn requiring(entries: &str) -> String {
    format!("terraform {{\n  required_providers {{\n{entries}  }}\n}}\n")
}

fn caller(entries: &str, map: &str) -> String {
    requiring(entries)
        + &format!(
            "module \"c\" {{\n  source = \"./child\"\n  providers = {{\n    {map}\n  }}\n}}\n"
        )
}

const EXAMPLE: &str = "    foo = { source = \"example/foo\" }\n";
const OTHER: &str = "    foo = { source = \"other/foo\" }\n";
const ALIASED: &str =
    "    foo = {\n      source = \"example/foo\"\n      configuration_aliases = [foo.x]\n    }\n";

/// Each case's files: the caller's at the top, the child's under `child/`.
fn cases() -> Vec<Vec<(&'static str, String)>> {
    let call_only =
        "module \"c\" {\n  source = \"./child\"\n  providers = {\n    foo = foo\n  }\n}\n";
    let no_map = "module \"c\" {\n  source = \"./child\"\n}\n";
    vec![
        vec![
            ("main.tf", caller(EXAMPLE, "foo = foo")),
            ("child/main.tf", requiring(OTHER)),
        ],
        // The child requires the caller's provider under another name: at the key.
        vec![
            ("main.tf", caller(EXAMPLE, "foo = foo")),
            (
                "child/main.tf",
                requiring(&format!(
                    "{OTHER}    bar = {{ source = \"example/foo\" }}\n"
                )),
            ),
        ],
        // The caller's side is judged by its entry named as the key, both ways.
        vec![
            (
                "main.tf",
                caller(
                    &format!("{EXAMPLE}    baz = {{ source = \"other/foo\" }}\n"),
                    "foo = baz",
                ),
            ),
            ("child/main.tf", requiring(OTHER)),
        ],
        vec![
            (
                "main.tf",
                caller(
                    &format!("{OTHER}    baz = {{ source = \"example/foo\" }}\n"),
                    "foo = baz",
                ),
            ),
            ("child/main.tf", requiring(OTHER)),
        ],
        // Implied `hashicorp/foo`: no entry, a version alone, an empty provider block.
        vec![
            ("main.tf", call_only.to_string()),
            ("child/main.tf", requiring(OTHER)),
        ],
        vec![
            ("main.tf", caller("    foo = \"~> 1.0\"\n", "foo = foo")),
            (
                "child/main.tf",
                requiring("    foo = { source = \"hashicorp/foo\" }\n"),
            ),
        ],
        vec![
            ("main.tf", caller(EXAMPLE, "foo = foo")),
            (
                "child/main.tf",
                "provider \"foo\" {\n  alias = \"q\"\n}\n".to_string(),
            ),
        ],
        // Aliases; the same provider in other letters.
        vec![
            ("main.tf", caller(EXAMPLE, "foo.x = foo.y")),
            (
                "child/main.tf",
                requiring(
                    "    foo = {\n      source = \"other/foo\"\n      configuration_aliases = \
                     [foo.x]\n    }\n",
                ),
            ),
        ],
        vec![
            (
                "main.tf",
                caller("    bar = { source = \"Example/Foo\" }\n", "foo = bar"),
            ),
            ("child/main.tf", requiring(EXAMPLE)),
        ],
        // Quoted references, keys and values; a key the child does not declare.
        vec![
            (
                "main.tf",
                caller(EXAMPLE, "\"foo\" = foo\n    foo.x = \"foo\""),
            ),
            ("child/main.tf", requiring(OTHER)),
        ],
        vec![
            ("main.tf", caller(EXAMPLE, "\"foo.x\" = foo")),
            ("child/main.tf", requiring(EXAMPLE)),
        ],
        // JSON, and the child's override file replacing its entry.
        vec![
            (
                "main.tf.json",
                r#"{"module": {"c": {"source": "./child", "providers": {"foo": "foo"}}}}"#
                    .to_string(),
            ),
            ("child/main.tf", requiring(EXAMPLE)),
            ("child/override.tf", requiring(OTHER)),
        ],
        vec![
            (
                "main.tf.json",
                r#"{"module": {"c": {"source": "./child", "providers": {"foo.x": "foo"}}}}"#
                    .to_string(),
            ),
            ("child/main.tf", requiring(EXAMPLE)),
        ],
        // An alias the child expects and the call does not pass; the child's override file
        // replaces the whole entry, a version alone dropping the alias with the rest.
        vec![
            ("main.tf", no_map.to_string()),
            ("child/main.tf", requiring(ALIASED)),
        ],
        vec![
            ("main.tf", no_map.to_string()),
            ("child/main.tf", requiring(ALIASED)),
            ("child/override.tf", requiring("    foo = \"~> 1.0\"\n")),
        ],
    ]
}

/// The judge of `release`, when it is installed.
fn judge(release: &str) -> Option<PathBuf> {
    let python = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/judges")
        .join(format!("terraform-{release}"))
        .join("bin/python");
    python.exists().then_some(python)
}

fn judged_errors(python: &Path, dir: &Path) -> BTreeSet<Place> {
    let out = Command::new(python)
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scripts/judge_validate.py"
        ))
        .arg(dir)
        .output()
        .expect("run the judge");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = String::from_utf8(out.stdout).expect("UTF-8");
    (lines.lines())
        .map(|line| serde_json::from_str::<serde_json::Value>(line).expect("JSON"))
        .filter(|d| d["severity"] == "error")
        .filter(|d| JUDGED.iter().any(|(summary, _)| d["summary"] == *summary))
        .map(|d| {
            (
                d["summary"].as_str().unwrap_or_default().to_string(),
                d["file"].as_str().unwrap_or_default().to_string(),
                d["line"].as_u64().unwrap_or_default(),
                d["column"].as_u64().unwrap_or_default(),
            )
        })
        .collect()
}

fn our_findings(dir: &Path) -> BTreeSet<Place> {
    let out = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .args(["--format", "json", "--view", "terraform", "-j", "1", "."])
        .current_dir(dir)
        .output()
        .expect("run tflint-merge");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let findings = report["findings"].as_array().cloned().unwrap_or_default();
    (findings.iter())
        .filter(|f| JUDGED.iter().any(|(_, rule)| f["rule"] == *rule))
        .map(|f| {
            (
                f["message"].as_str().unwrap_or_default().to_string(),
                f["file"].as_str().unwrap_or_default().to_string(),
                f["start"]["line"].as_u64().unwrap_or_default(),
                f["start"]["column"].as_u64().unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn providers_maps_as_terraform_validates_them() {
    let judges: Vec<_> = (RELEASES.iter())
        .filter_map(|release| Some((release, judge(release)?)))
        .collect();
    if judges.len() < RELEASES.len() {
        assert!(
            !corpus::in_ci(),
            "the Terraform judges are missing from target/judges"
        );
        eprintln!("skipped: providers_maps_as_terraform_validates_them: no Terraform judge");
        return;
    }
    let mut errors = 0;
    for (i, files) in cases().iter().enumerate() {
        let dir = tempfile::tempdir().expect("tempdir");
        for (name, text) in files {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        }
        let manifest = dir.path().join(".terraform/modules");
        std::fs::create_dir_all(&manifest).expect("mkdir");
        std::fs::write(
            manifest.join("modules.json"),
            r#"{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"c","Source":"./child","Dir":"child"}]}"#,
        )
        .expect("write");
        let ours = our_findings(dir.path());
        for (release, python) in &judges {
            let theirs = judged_errors(python, dir.path());
            assert_eq!(ours, theirs, "case {i}, Terraform {release}: {files:#?}");
        }
        errors += ours.len();
    }
    // The cases are not all clean: the comparison can fail.
    assert!(errors >= 10, "{errors}");
}
