//! Runs every case of `tests/conformance/` (format in its README): the load errors of each
//! view (as a multiset of summaries) and the listed parts of the effective module must match.
//! A missing or emptied conformance folder fails the test.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use tflint_merge::Kind;
use tflint_merge::Severity;
use tflint_merge::View;
use tflint_merge::effective::SourceFiles;
use tflint_merge::effective::{Address, MergedBlock, MergedBody, Module};
use tflint_merge::{ViewSelection, check_directory};

fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

#[test]
fn every_conformance_case_passes() {
    let root = conformance_dir();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("conformance cases missing at {}: {e}", root.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("expected.json").is_file())
        .collect();
    cases.sort();
    assert!(
        cases.len() >= 19,
        "expected the conformance cases, found {}",
        cases.len()
    );
    let failures: Vec<String> = cases.iter().flat_map(|case| check_case(case)).collect();
    assert!(
        failures.is_empty(),
        "{} conformance failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn check_case(case: &Path) -> Vec<String> {
    let name = case
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(case.join("expected.json")).expect("read expected.json"),
    )
    .expect("expected.json is JSON");
    let result = check_directory(case, ViewSelection::Both, &[]).expect("no rules to enable");
    let mut failures = Vec::new();
    for view in View::ALL {
        let Some(spec) = expected["views"].get(view.as_str()) else {
            continue;
        };
        let mut fail = |msg: String| failures.push(format!("{name} [{view}]: {msg}"));

        let mut want: Vec<String> = spec["errors"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(String::from))
            .collect();
        let mut got: Vec<String> = result
            .diagnostics
            .iter()
            // Load errors only: rule findings are not what the tools report.
            .filter(|d| {
                tflint_merge::find_id(d.rule.as_str()).is_some_and(|m| m.kind == Kind::LoadError)
            })
            .filter(|d| {
                d.severity == Severity::Error
                    && (d.views == view.views() || d.views.terraform && d.views.opentofu)
            })
            .map(|d| d.message.to_string())
            .collect();
        want.sort();
        got.sort();
        if want != got {
            fail(format!("errors: want {want:?}, got {got:?}"));
        }
        let Some(module) = result.modules.iter().find(|m| m.view == view) else {
            if spec["effective"].as_object().is_some_and(|o| !o.is_empty()) {
                fail("no effective module was built".into());
            }
            continue;
        };
        for (address, values) in spec["effective"].as_object().into_iter().flatten() {
            check_object(&result.files, module, address, values, &mut fail);
        }
        for address in spec["absent"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if exists(module, address) {
                fail(format!("{address} must be absent"));
            }
        }
        for (address, kinds) in spec["absent_blocks"].as_object().into_iter().flatten() {
            let Some(body) = object_body(module, address) else {
                fail(format!("{address} missing"));
                continue;
            };
            for kind in kinds
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                if !blocks_named(body, kind).is_empty() {
                    fail(format!("{address}: blocks {kind} must be gone"));
                }
            }
        }
    }
    failures
}

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn parse_address(address: &str) -> Option<Address> {
    let parts: Vec<&str> = address.split('.').collect();
    let s = |i: usize| parts.get(i).map(|p| p.to_string());
    Some(match parts[0] {
        "resource" | "data" | "ephemeral" => Address::Resource(s(0)?, s(1)?, s(2)?),
        "variable" => Address::Variable(s(1)?),
        "output" => Address::Output(s(1)?),
        "module" => Address::ModuleCall(s(1)?),
        "provider" => Address::Provider(s(1)?, s(2)),
        _ => return None,
    })
}

fn object_body<'m>(module: &'m Module, address: &str) -> Option<&'m MergedBody> {
    module.object(&parse_address(address)?).map(|o| &o.body)
}

fn exists(module: &Module, address: &str) -> bool {
    match address {
        "terraform.cloud" => module.terraform.cloud.is_some(),
        "terraform.backend" => module.terraform.backend.is_some(),
        a if a.starts_with("local.") => module.local(&a[6..]).is_some(),
        a => object_body(module, a).is_some(),
    }
}

/// Blocks named as in the README: `T` or `dynamic.T`.
fn blocks_named<'b>(body: &'b MergedBody, name: &str) -> Vec<&'b MergedBlock> {
    match name.strip_prefix("dynamic.") {
        Some(kind) => body
            .blocks
            .iter()
            .filter(|b| b.kind == "dynamic" && b.label(0) == Some(kind))
            .collect(),
        None => body.blocks.iter().filter(|b| b.kind == name).collect(),
    }
}

fn attr_text(files: &SourceFiles, body: &MergedBody, name: &str) -> Option<String> {
    body.attribute(name)
        .map(|a| collapse(files.text(a.value_span())))
}

fn check_object(
    files: &SourceFiles,
    module: &Module,
    address: &str,
    values: &Value,
    fail: &mut dyn FnMut(String),
) {
    if let Some(name) = address.strip_prefix("local.") {
        let got = module
            .local(name)
            .map(|l| collapse(files.text(l.attribute.value_span())));
        if got.as_deref() != values.as_str() {
            fail(format!("{address}: want {values}, got {got:?}"));
        }
        return;
    }
    if address == "terraform" {
        return check_terraform(files, module, values, fail);
    }
    let Some(body) = object_body(module, address) else {
        fail(format!("{address} missing"));
        return;
    };
    check_body(files, address, body, values, fail);
}

fn check_body(
    files: &SourceFiles,
    address: &str,
    body: &MergedBody,
    values: &Value,
    fail: &mut dyn FnMut(String),
) {
    for (name, want) in values.as_object().into_iter().flatten() {
        if let Some(list_name) = name.strip_suffix("[]") {
            let blocks = blocks_named(body, list_name);
            let want_list = want.as_array().cloned().unwrap_or_default();
            if blocks.len() != want_list.len() {
                fail(format!(
                    "{address}: {name} has {} blocks, want {}",
                    blocks.len(),
                    want_list.len()
                ));
                continue;
            }
            for (block, want_block) in blocks.iter().zip(&want_list) {
                check_body(
                    files,
                    &format!("{address}.{list_name}"),
                    &block.body,
                    want_block,
                    fail,
                );
            }
        } else if let Some((block, attr)) = name.split_once('.') {
            let blocks = blocks_named(body, block);
            let got = match blocks.as_slice() {
                [single] => attr_text(files, &single.body, attr),
                _ => None,
            };
            if got.as_deref() != want.as_str() {
                fail(format!(
                    "{address}: {name}: want {want}, got {got:?} ({} blocks)",
                    blocks.len()
                ));
            }
        } else {
            let got = attr_text(files, body, name);
            if got.as_deref() != want.as_str() {
                fail(format!("{address}: {name}: want {want}, got {got:?}"));
            }
        }
    }
}

fn check_terraform(
    files: &SourceFiles,
    module: &Module,
    values: &Value,
    fail: &mut dyn FnMut(String),
) {
    let tf = &module.terraform;
    for (name, want) in values.as_object().into_iter().flatten() {
        let got: Value = if name == "required_version" {
            let mut list: Vec<String> = tf
                .required_version
                .iter()
                .map(|a| collapse(files.text(a.value_span())))
                .collect();
            list.sort();
            let mut want_list: Vec<String> = want
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(String::from))
                .collect();
            want_list.sort();
            if list != want_list {
                fail(format!(
                    "terraform: required_version: want {want_list:?}, got {list:?}"
                ));
            }
            continue;
        } else if let Some(entry) = name.strip_prefix("required_providers.") {
            let by_name: BTreeMap<&str, String> = tf
                .required_providers
                .iter()
                .map(|a| (a.name(), collapse(files.text(a.value_span()))))
                .collect();
            by_name
                .get(entry)
                .map_or(Value::Null, |t| Value::String(t.clone()))
        } else if name == "backend" {
            tf.backend
                .as_ref()
                .and_then(|b| b.label(0))
                .map_or(Value::Null, |l| Value::String(l.to_string()))
        } else if let Some(arg) = name.strip_prefix("backend.") {
            tf.backend
                .as_ref()
                .and_then(|b| attr_text(files, &b.body, arg))
                .map_or(Value::Null, Value::String)
        } else {
            fail(format!("terraform: unknown name {name} in expected.json"));
            continue;
        };
        if &got != want {
            fail(format!("terraform: {name}: want {want}, got {got}"));
        }
    }
}
