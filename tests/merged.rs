//! `tflint-merge merged`: the printed module parses with our own parser and, loaded and merged
//! again, is the same module (a fixed point), for every example, fixture and conformance case.

use std::path::{Path, PathBuf};

use serde_json::json;
use tflint_merge::View;
use tflint_merge::effective::{PrintFormat, print, semantic_form};
use tflint_merge::{ViewSelection, check_directory, check_directory_targeting};

fn module_dirs(root: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    if entries.iter().any(|p| {
        p.is_file()
            && tflint_merge::classify(&p.file_name().unwrap_or_default().to_string_lossy())
                .is_some()
    }) {
        out.push(root.to_path_buf());
    }
    for entry in entries.into_iter().filter(|p| p.is_dir()) {
        module_dirs(&entry, out);
    }
}

fn selection(view: View) -> ViewSelection {
    match view {
        View::Terraform => ViewSelection::Terraform,
        View::OpenTofu => ViewSelection::OpenTofu,
    }
}

#[test]
fn printed_module_is_a_fixed_point() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = Vec::new();
    for root in ["examples", "tests/fixtures", "tests/conformance"] {
        module_dirs(&manifest.join(root), &mut dirs);
    }
    assert!(
        dirs.len() > 20,
        "found only {} module directories",
        dirs.len()
    );
    let mut checked = 0;
    let mut failures = Vec::new();
    for dir in &dirs {
        for view in View::ALL {
            let first = check_directory(dir, selection(view), &[]).expect("no rules to enable");
            let Some(module) = first.modules.first() else {
                continue;
            };
            let printed = print(module, &first.files, PrintFormat::Hcl);
            let scratch = tempfile::tempdir().expect("tempdir");
            // OpenTofu reads required_version only from .tofu files.
            let name = if view == View::OpenTofu {
                "merged.tofu"
            } else {
                "merged.tf"
            };
            std::fs::write(scratch.path().join(name), &printed).expect("write");
            let second =
                check_directory(scratch.path(), selection(view), &[]).expect("no rules to enable");
            // The scratch directory has only the printed file: local module calls find nothing.
            let errors: Vec<String> = second
                .diagnostics
                .iter()
                .filter(|d| d.rule.as_str() != "module_local_source_missing")
                .map(|d| format!("{}: {}", d.rule, d.message))
                .collect();
            let Some(again) = second.modules.first() else {
                failures.push(format!(
                    "{} [{view}]: printed module does not load: {errors:?}\n{printed}",
                    dir.display()
                ));
                continue;
            };
            if !errors.is_empty() && first.diagnostics.is_empty() {
                failures.push(format!(
                    "{} [{view}]: printed module has findings {errors:?}\n{printed}",
                    dir.display()
                ));
            }
            let (want, got) = (
                semantic_form(module, &first.files),
                semantic_form(again, &second.files),
            );
            if want != got {
                failures.push(format!(
                    "{} [{view}]: not a fixed point\n--- printed\n{printed}\n--- first\n{}\n--- again\n{}",
                    dir.display(),
                    serde_json::to_string_pretty(&want).unwrap_or_default(),
                    serde_json::to_string_pretty(&got).unwrap_or_default()
                ));
            }
            checked += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(checked > 30, "checked only {checked}");
}

#[test]
fn hcl_output_of_the_web_example() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/web");
    let result = check_directory(&dir, ViewSelection::Terraform, &[]).expect("no rules to enable");
    let module = result.modules.first().expect("module");
    insta::assert_snapshot!(
        "web_terraform_hcl",
        print(module, &result.files, PrintFormat::Hcl)
    );
}

#[test]
fn json_output_has_provenance() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/web");
    let result = check_directory(&dir, ViewSelection::Terraform, &[]).expect("no rules to enable");
    let module = result.modules.first().expect("module");
    let json: serde_json::Value =
        serde_json::from_str(&print(module, &result.files, PrintFormat::Json)).expect("valid JSON");
    assert_eq!(json["version"], 1);
    let instance = json["objects"]
        .as_array()
        .and_then(|objects| {
            objects
                .iter()
                .find(|o| o["address"] == "resource.aws_instance.web")
        })
        .expect("aws_instance.web");
    let file = |v: &serde_json::Value| {
        v["file"]
            .as_str()
            .unwrap_or_default()
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(file(&instance["location"]), "main.tf");
    assert_eq!(instance["location"]["line"], 31);
    let overrides: Vec<String> = instance["overrides"]
        .as_array()
        .into_iter()
        .flatten()
        .map(file)
        .collect();
    assert_eq!(overrides, ["override.tf", "web_override.tf.json"]);
    let tags = instance["body"]["attributes"]
        .as_array()
        .and_then(|a| a.iter().find(|a| a["name"] == "tags"))
        .expect("tags");
    assert_eq!(tags["origin"], "override");
    assert_eq!(file(&tags["location"]), "web_override.tf.json");
    // override.tf set tags first; the JSON override, applied after it, replaced that.
    assert_eq!(file(&tags["replaced"]), "override.tf");
    assert_eq!(tags["replaced"]["line"], 25);
    assert_eq!(
        tags["expression"],
        "{ Name = \"web-${terraform.workspace}\", Environment = \"staging\" }"
    );
}

/// Terraform (1.14 and later) merges override `action` blocks: `count` replaces, `config`
/// merges argument by argument; an override action without a base is "Missing resource to
/// override" (Terraform's `TestModuleOverride_action_and_trigger`).
#[test]
fn terraform_merges_action_blocks_from_overrides() {
    let dir = tempfile::tempdir().expect("tempdir");
    let write =
        |name: &str, text: &str| std::fs::write(dir.path().join(name), text).expect("write");
    write(
        "main.tf",
        "action \"aws_lambda_invoke\" \"a\" {\n  config {\n    function_name = \"x\"\n    \
         payload = \"p\"\n  }\n}\n",
    );
    write(
        "override.tf",
        "action \"aws_lambda_invoke\" \"a\" {\n  count = 2\n  config {\n    function_name = \
         \"y\"\n  }\n}\naction \"aws_lambda_invoke\" \"b\" {}\n",
    );
    let report = check_directory(dir.path(), ViewSelection::Terraform, &[]).expect("checked");
    let messages: Vec<&str> = report.diagnostics.iter().map(|d| &*d.message).collect();
    assert_eq!(messages, ["Missing resource to override"], "{messages:?}");
    let module = report.modules.first().expect("the Terraform module");
    let printed = print(module, &report.files, PrintFormat::Hcl);
    assert!(printed.contains("count = 2"), "{printed}");
    assert!(printed.contains("function_name = \"y\""), "{printed}");
    assert!(
        printed.contains("payload       = \"p\"") || printed.contains("payload = \"p\""),
        "{printed}"
    );
    assert!(!printed.contains("\"x\""), "{printed}");
}

/// Checks these files in the Terraform view, targeting `version`.
fn check_terraform(
    files: &[(&str, &str)],
    version: &str,
) -> (tempfile::TempDir, tflint_merge::DirectoryReport) {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    let targets = [Some(version), None];
    let report = check_directory_targeting(dir.path(), ViewSelection::Terraform, &[], targets)
        .expect("checked");
    (dir, report)
}

/// Terraform's state storage is one of `backend`, `cloud` and the `state_store` its
/// experimental builds decode: an override file's replaces the base's, whichever kind each is
/// (Terraform's `Module.mergeFile`), in native and JSON override files.
#[test]
fn terraform_state_storage_kinds_replace_each_other_in_overrides() {
    let printed = |files: &[(&str, &str)]| {
        let (dir, report) = check_terraform(files, "1.17.0-dev");
        let module = report.modules.first().expect("the Terraform module");
        let text = print(module, &report.files, PrintFormat::Hcl);
        drop(dir);
        text
    };
    let backend = "terraform {\n  backend \"s3\" {}\n}\n";
    let state_store = "terraform {\n  state_store \"x\" {\n    provider \"p\" {}\n  }\n}\n";
    let text = printed(&[("main.tf", backend), ("override.tf", state_store)]);
    assert!(
        text.contains("state_store \"x\"") && !text.contains("backend"),
        "{text}"
    );
    let json = r#"{"terraform": {"state_store": {"x": {"provider": {"p": {}}}}}}"#;
    let text = printed(&[("main.tf", backend), ("override.tf.json", json)]);
    assert!(
        text.contains("state_store \"x\"") && !text.contains("backend"),
        "{text}"
    );
    let cloud = "terraform {\n  cloud {}\n}\n";
    let text = printed(&[("main.tf", state_store), ("override.tf", cloud)]);
    assert!(
        text.contains("cloud {}") && !text.contains("state_store"),
        "{text}"
    );
}

/// Where Terraform decodes `state_store` (its experimental builds), a second one is a duplicate
/// and one beside a backend or `cloud` block conflicts, with Terraform's summaries
/// (`Module.appendFile`); elsewhere the block is only "Unsupported block type".
#[test]
fn terraform_state_store_conflicts_in_experimental_builds() {
    let messages = |files: &[(&str, &str)], version: &str| -> Vec<String> {
        let (_dir, report) = check_terraform(files, version);
        let mut found: Vec<String> = report
            .diagnostics
            .into_iter()
            .map(|d| d.message.into_owned())
            .filter(|m| m != "Unsupported backend type")
            .collect();
        found.sort();
        found
    };
    let store = "terraform {\n  state_store \"x\" {\n    provider \"p\" {}\n  }\n}\n";
    let store_json = r#"{"terraform": {"state_store": {"y": {"provider": {"p": {}}}}}}"#;
    let backend = "terraform {\n  backend \"s3\" {}\n}\n";
    let cloud = "terraform {\n  cloud {}\n}\n";
    let dev = "1.17.0-dev";
    assert_eq!(
        messages(&[("a.tf", store), ("b.tf.json", store_json)], dev),
        ["Duplicate 'state_store' configuration block"]
    );
    assert_eq!(
        messages(&[("a.tf", backend), ("b.tf.json", store_json)], dev),
        ["Conflicting 'state_store' and 'backend' configuration blocks are present"]
    );
    assert_eq!(
        messages(&[("a.tf", cloud), ("b.tf", store)], dev),
        ["Conflicting 'cloud' and 'state_store' configuration blocks are present"]
    );
    assert_eq!(
        messages(&[("a.tf", cloud), ("b.tf", store), ("c.tf", backend)], dev),
        ["Only one of 'cloud', 'state_store', or 'backend' configuration blocks are allowed"]
    );
    // A stable build does not decode it.
    assert_eq!(
        messages(&[("a.tf", cloud), ("b.tf", store)], "1.15.0"),
        ["Unsupported block type"]
    );
}

/// `--format json` lists what each block and local uses, as merged: an override's expression
/// where it replaced the base's, JSON templates at their place in the file, nested blocks, and
/// neither a `dynamic` block's iterator nor what the tools read literally.
#[test]
fn json_output_lists_each_blocks_references() {
    let main = r#"variable "ports" {
  type = list(number)
}
locals {
  name = "app-${var.env}"
}
resource "aws_security_group" "sg" {
  name = local.base
  depends_on = [terraform_data.x]
  dynamic "ingress" {
    for_each = var.ports
    content {
      from_port = ingress.value
      cidr      = [for c in var.cidrs : c if c != local.skip]
    }
  }
}
"#;
    let override_json =
        r#"{"resource": {"aws_security_group": {"sg": {"name": "\n${local.name}"}}}}"#;
    let (_dir, report) = check_terraform(
        &[("main.tf", main), ("sg_override.tf.json", override_json)],
        "1.15.5",
    );
    let module = report.modules.first().expect("module");
    let json: serde_json::Value =
        serde_json::from_str(&print(module, &report.files, PrintFormat::Json)).expect("JSON");
    let listed = |value: &serde_json::Value| -> Vec<String> {
        (value["references"].as_array().into_iter().flatten())
            .map(|r| {
                let at = &r["location"];
                let file = at["file"].as_str().unwrap_or_default();
                let file = file.rsplit('/').next().unwrap_or_default();
                format!(
                    "{} {file}:{}:{}",
                    r["reference"].as_str().unwrap_or_default(),
                    at["line"],
                    at["column"]
                )
            })
            .collect()
    };
    let objects = json["objects"].as_array().expect("objects");
    let sg = objects
        .iter()
        .find(|o| o["address"] == "resource.aws_security_group.sg")
        .expect("the security group");
    assert_eq!(
        listed(sg),
        [
            "local.name sg_override.tf.json:1:58",
            "var.ports main.tf:11:16",
            "var.cidrs main.tf:14:29",
            "local.skip main.tf:14:51",
        ]
    );
    let ports = objects
        .iter()
        .find(|o| o["address"] == "variable.ports")
        .expect("ports");
    assert!(listed(ports).is_empty());
    assert_eq!(listed(&json["locals"][0]), ["var.env main.tf:5:17"]);
}

/// A variable's default as the tools hold it, beside its source text: converted to the type,
/// with the `optional()` defaults of the type it is decoded with, and a JSON default read
/// literally.
#[test]
fn json_output_gives_each_default_its_converted_value() {
    let main = r#"variable "port" {
  type    = string
  default = 5
}
variable "ids" {
  type    = list(number)
  default = ["1", 2]
}
variable "computed" {
  default = upper("x")
}
variable "settings" {
  type    = any
  default = { a = "x" }
}
"#;
    let settings_override = r#"variable "settings" {
  type    = object({ a = string, b = optional(string, "dflt") })
  default = { a = "x" }
}
"#;
    let literal = r#"{"variable": {"template": {"default": "$${x}"}}}"#;
    let (_dir, report) = check_terraform(
        &[
            ("main.tf", main),
            ("settings_override.tf", settings_override),
            ("template.tf.json", literal),
        ],
        "1.15.5",
    );
    let module = report.modules.first().expect("module");
    let json: serde_json::Value =
        serde_json::from_str(&print(module, &report.files, PrintFormat::Json)).expect("JSON");
    let default = |name: &str| -> (serde_json::Value, serde_json::Value) {
        let object = (json["objects"].as_array().into_iter().flatten())
            .find(|o| o["address"] == format!("variable.{name}"))
            .expect("variable");
        let attribute = (object["body"]["attributes"]
            .as_array()
            .into_iter()
            .flatten())
        .find(|a| a["name"] == "default")
        .expect("default");
        (attribute["expression"].clone(), attribute["value"].clone())
    };
    assert_eq!(default("port"), (json!("5"), json!("\"5\"")));
    assert_eq!(default("ids"), (json!("[\"1\", 2]"), json!("[1, 2]")));
    // Not a literal: the value is only known when the tools evaluate it.
    assert_eq!(default("computed"), (json!("upper(\"x\")"), json!(null)));
    // The override's default, decoded with its own type: `b` gets its optional() default.
    assert_eq!(
        default("settings"),
        (json!("{ a = \"x\" }"), json!("{ a = \"x\", b = \"dflt\" }"))
    );
    // A JSON default is read literally: the string `$${x}`, written `"$$${x}"` natively.
    assert_eq!(default("template").1, json!("\"$$${x}\""));
}

/// In JSON files a block is where Terraform places it (its `DeclRange`, HCL's `DefRange`): the
/// opening brace of the object its last label's key holds, and of each block of an array its
/// own object's; checked against Terraform 1.15.5's loader (`load_config_dir`), which places
/// `resource.terraform_data.web` on line 5 (its brace, not its key), `variable.v` on line 9 and
/// the backend on line 14, and its provisioners on lines 5 and 6.
#[test]
fn json_blocks_are_placed_where_terraform_places_them() {
    let main = r#"{
  "resource": {
    "terraform_data":
      {"web":
        {"provisioner": [{"local-exec": {"command": "a"}},
          {"local-exec": {"command": "b"}}]}}
  },
  "variable": {
    "v": {}
  },
  "terraform": {
    "backend": {
      "local":
        {}
    }
  }
}
"#;
    let (_dir, report) = check_terraform(&[("main.tf.json", main)], "1.15.5");
    let module = report.modules.first().expect("module");
    let json: serde_json::Value =
        serde_json::from_str(&print(module, &report.files, PrintFormat::Json)).expect("JSON");
    let line_of = |address: &str| {
        let objects = json["objects"].as_array().expect("objects");
        let object = objects
            .iter()
            .find(|o| o["address"] == address)
            .expect(address);
        object["location"]["line"].clone()
    };
    assert_eq!(line_of("resource.terraform_data.web"), 5);
    assert_eq!(line_of("variable.v"), 9);
    let web = (json["objects"].as_array().into_iter().flatten())
        .find(|o| o["address"] == "resource.terraform_data.web")
        .expect("web");
    let provisioners: Vec<serde_json::Value> = (web["body"]["blocks"].as_array())
        .into_iter()
        .flatten()
        .map(|b| b["location"]["line"].clone())
        .collect();
    assert_eq!(provisioners, [5, 6]);
    assert_eq!(json["terraform"]["backend"]["location"]["line"], 14);
}
