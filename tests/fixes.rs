//! Acceptance of `--fix`, `--unsafe-fixes` and `--diff`, through the binary.
//!
//! Per fix: an input directory is fixed with `--fix`; the fixed files are a snapshot; they are
//! exactly what the fixes printed by `--format json` give when applied to the original bytes
//! by this file's own small applier (so nothing outside the edited ranges changed: comments,
//! blank lines and layout stay byte for byte); re-checking shows no finding the original did
//! not have, and none of the fixed rule's fixable ones. Then properties: safe fixes keep the
//! effective module of both views (generated override scenarios are in
//! `tests/override_scenarios.rs`, the corpus here), a second `--fix` changes nothing, and
//! `--diff` applied with `patch -p1` gives what `--fix` gives.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;
use tflint_merge::ViewSelection;
use tflint_merge::check_directory;
use tflint_merge::effective::semantic_form;

#[path = "common/corpus.rs"]
mod corpus;
#[path = "common/patch.rs"]
mod patch;

fn tflint_merge(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .output()
        .expect("run tflint-merge")
}

fn write(dir: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
}

/// Every file below `dir`, by `/`-separated relative path.
fn tree(dir: &Path) -> BTreeMap<String, String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("list")
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let name = path.strip_prefix(root).expect("below root");
                let name = name.to_string_lossy().replace('\\', "/");
                let bytes = std::fs::read(&path).expect("read");
                out.insert(name, String::from_utf8_lossy(&bytes).into_owned());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The findings of `--format json` in `dir`.
fn findings(dir: &Path, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["--format", "json", "-j", "1"];
    args.extend(extra);
    args.push(".");
    let out = tflint_merge(dir, &args);
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    report["findings"].as_array().cloned().unwrap_or_default()
}

/// Applies the fixes of `findings` (the safe ones, or all) to `files`, one pass, in the order
/// given, skipping a fix that touches what an earlier one touched: what `--fix` must do.
/// Returns how many applied.
fn apply_json_fixes(files: &mut BTreeMap<String, String>, findings: &[Value], all: bool) -> usize {
    let mut touched: BTreeMap<String, Vec<(usize, usize)>> = BTreeMap::new();
    let mut operated: Vec<String> = Vec::new();
    let mut edits: BTreeMap<String, Vec<(usize, usize, String)>> = BTreeMap::new();
    let mut operations: Vec<Value> = Vec::new();
    let mut applied = 0;
    for fix in findings.iter().map(|f| &f["fix"]).filter(|f| !f.is_null()) {
        if !all && fix["applicability"] != "safe" {
            continue;
        }
        let fix_edits: Vec<(String, usize, usize, String)> = (fix["edits"].as_array())
            .expect("edits")
            .iter()
            .map(|e| {
                let n = |k: &str| e[k].as_u64().expect("offset") as usize;
                let file = e["file"].as_str().expect("file").to_string();
                let text = e["replacement"].as_str().expect("replacement").to_string();
                (file, n("byte_start"), n("byte_end"), text)
            })
            .collect();
        let op_paths: Vec<String> = (fix["operations"].as_array())
            .expect("operations")
            .iter()
            .flat_map(|op| {
                let (_, body) = op.as_object().expect("op").iter().next().expect("one key");
                ["file", "from", "to"]
                    .into_iter()
                    .filter_map(|k| body[k].as_str().map(str::to_string))
                    .collect::<Vec<_>>()
            })
            .collect();
        // Edits that overlap, or meet at the start of a line between blank lines (whole-line
        // removals, each worked out alone, would keep the blank lines around both), wait for
        // the next pass.
        let clash = fix_edits.iter().any(|(file, s, e, _)| {
            let text = files.get(file).map_or("", String::as_str);
            let line_start = |at: usize| at == 0 || text.as_bytes().get(at - 1) == Some(&b'\n');
            let blank_around = |start: usize, end: usize| {
                let before = start == 0 || {
                    let previous = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
                    text[previous..start].trim().is_empty()
                };
                let after = text[end..]
                    .split('\n')
                    .next()
                    .is_none_or(|l| l.trim().is_empty());
                line_start(start) && before && after
            };
            operated.contains(file)
                || touched.get(file).is_some_and(|done| {
                    done.iter().any(|&(ds, de)| {
                        ds == *s
                            || (ds < *e && *s < de)
                            || (de == *s && line_start(de) && blank_around(ds, *e))
                            || (*e == ds && line_start(ds) && blank_around(*s, de))
                    })
                })
        }) || op_paths
            .iter()
            .any(|p| operated.contains(p) || touched.contains_key(p));
        if clash {
            continue;
        }
        for (file, s, e, text) in fix_edits {
            touched.entry(file.clone()).or_default().push((s, e));
            edits.entry(file).or_default().push((s, e, text));
        }
        operated.extend(op_paths);
        operations.extend(fix["operations"].as_array().expect("operations").clone());
        applied += 1;
    }
    for (file, mut file_edits) in edits {
        let text = files.get_mut(&file).expect("edited file exists");
        file_edits.sort_by_key(|&(s, e, _)| (s, e));
        for (s, e, replacement) in file_edits.into_iter().rev() {
            text.replace_range(s..e, &replacement);
        }
    }
    for op in operations {
        if let Some(rename) = op.get("rename") {
            let from = rename["from"].as_str().expect("from");
            let text = files.remove(from).expect("renamed file exists");
            files.insert(rename["to"].as_str().expect("to").to_string(), text);
        } else if let Some(delete) = op.get("delete") {
            files.remove(delete["file"].as_str().expect("file"));
        } else if let Some(create) = op.get("create") {
            let content = create["content"].as_str().expect("content").to_string();
            files.insert(create["file"].as_str().expect("file").to_string(), content);
        }
    }
    applied
}

/// `(rule, message)` of each finding.
fn identities(findings: &[Value]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = (findings.iter())
        .map(|f| (f["rule"].to_string(), f["message"].to_string()))
        .collect();
    out.sort();
    out
}

/// Fixes `files` as `--fix` (with `unsafe_fixes`, `--fix --unsafe-fixes`) and checks it against
/// the JSON fixes applied here; returns the fixed files for the snapshot.
fn fixed(rule: &str, files: &[(&str, &str)], unsafe_fixes: bool) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), files);
    let flag: &[&str] = if unsafe_fixes {
        &["--unsafe-fixes"]
    } else {
        &[]
    };
    let original = findings(dir.path(), flag);
    let applies =
        |f: &&Value| !f["fix"].is_null() && (unsafe_fixes || f["fix"]["applicability"] == "safe");
    assert!(
        original.iter().filter(applies).any(|f| f["rule"] == rule),
        "no fixable {rule} finding in {original:#?}"
    );
    // What the fixes printed as JSON give, pass after pass, applied by this file's applier.
    let mut expected = tree(dir.path());
    let scratch = tempfile::tempdir().expect("tempdir");
    for _ in 0..10 {
        let _ = std::fs::remove_dir_all(scratch.path());
        std::fs::create_dir_all(scratch.path()).expect("mkdir");
        let listed: Vec<(&str, &str)> = expected
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        write(scratch.path(), &listed);
        if apply_json_fixes(&mut expected, &findings(scratch.path(), flag), unsafe_fixes) == 0 {
            break;
        }
    }
    let mut args = vec!["--fix", "-j", "1", "."];
    args.extend(flag);
    let out = tflint_merge(dir.path(), &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("warning:"), "{stderr}");
    let after = tree(dir.path());
    assert_eq!(after, expected, "--fix differs from the fixes it prints");
    let rechecked = findings(dir.path(), flag);
    let before = identities(&original);
    for finding in identities(&rechecked) {
        assert!(
            before.contains(&finding),
            "new finding after --fix: {finding:?}"
        );
    }
    assert!(
        !rechecked.iter().filter(applies).any(|f| f["rule"] == rule),
        "a fixable {rule} finding is left: {rechecked:#?}"
    );
    after
        .iter()
        .map(|(name, text)| format!("--- {name}\n{text}"))
        .collect::<Vec<_>>()
        .join("\n")
}

const INSTANCE: &str = r#"# The web server.
resource "aws_instance" "web" {
  ami           = "ami-1" # pinned

  instance_type = "t3.micro"
}
"#;

#[test]
fn override_noop_removes_restated_settings_blocks_and_files() {
    let over = r#"# Sized for prod.
resource "aws_instance" "web" {
  # Same AMI.
  ami           = "ami-1"
  instance_type = "m5.large" # bigger
}
"#;
    let fixed_files = fixed(
        "override_noop",
        &[("main.tf", INSTANCE), ("override.tf", over)],
        false,
    );
    insta::assert_snapshot!("override_noop_setting", fixed_files);
    let empty = "resource \"aws_instance\" \"web\" {\n}\n\nvariable \"v\" {\n  default = 2\n}\n";
    let base = format!("{INSTANCE}\nvariable \"v\" {{\n  default = 1\n}}\n");
    let fixed_files = fixed(
        "override_noop",
        &[("main.tf", &base), ("override.tf", empty)],
        false,
    );
    insta::assert_snapshot!("override_noop_block", fixed_files);
    let fixed_files = fixed(
        "override_noop",
        &[("main.tf", INSTANCE), ("x_override.tf", INSTANCE)],
        false,
    );
    insta::assert_snapshot!("override_noop_file", fixed_files);
    let json_base = concat!(
        "{\n",
        "  \"variable\": {\n",
        "    \"v\": {\n",
        "      \"default\": \"a\",\n",
        "      \"description\": \"d\"\n",
        "    }\n",
        "  }\n",
        "}\n",
    );
    let json_over = concat!(
        "{\n",
        "  \"variable\": {\n",
        "    \"v\": {\n",
        "      \"description\": \"d\",\n",
        "      \"default\": \"b\"\n",
        "    }\n",
        "  }\n",
        "}\n",
    );
    let fixed_files = fixed(
        "override_noop",
        &[("main.tf.json", json_base), ("override.tf.json", json_over)],
        false,
    );
    insta::assert_snapshot!("override_noop_json", fixed_files);
}

/// A removed setting or block takes the comments that describe it (the comment lines right
/// above it, a comment after it on its line); the comments of its neighbours stay.
#[test]
fn removals_take_their_own_comments_and_leave_the_neighbours() {
    let base = concat!(
        "resource \"aws_instance\" \"web\" {\n",
        "  ami           = \"ami-1\"\n",
        "  instance_type = \"t3.micro\"\n",
        "}\n",
        "\n",
        "variable \"v\" {\n",
        "  default = 1\n",
        "}\n",
        "\n",
        "variable \"w\" {}\n",
    );
    let over = concat!(
        "# The web server, bigger.\n",
        "resource \"aws_instance\" \"web\" {\n",
        "  # Pinned AMI.\n",
        "  ami = \"ami-2\"\n",
        "  # The size, as in the base.\n",
        "  instance_type = \"t3.micro\" # same\n",
        "  # About the tags.\n",
        "  tags = {}\n",
        "}\n",
        "\n",
        "# The variable, restated.\n",
        "variable \"v\" {\n",
        "  default = 1\n",
        "} # end of v\n",
        "\n",
        "# About w.\n",
        "variable \"w\" {\n",
        "  default = 2\n",
        "}\n",
    );
    let fixed_files = fixed(
        "override_noop",
        &[("main.tf", base), ("override.tf", over)],
        false,
    );
    let expected = concat!(
        "# The web server, bigger.\n",
        "resource \"aws_instance\" \"web\" {\n",
        "  # Pinned AMI.\n",
        "  ami = \"ami-2\"\n",
        "  # About the tags.\n",
        "  tags = {}\n",
        "}\n",
        "\n",
        "# About w.\n",
        "variable \"w\" {\n",
        "  default = 2\n",
        "}\n",
    );
    assert!(
        fixed_files.ends_with(&format!("--- override.tf\n{expected}")),
        "{fixed_files}"
    );
}

#[test]
fn override_shadowed_removes_the_earlier_setting() {
    let a = concat!(
        "resource \"aws_instance\" \"web\" {\n",
        "  # first try\n",
        "  instance_type = \"m5.large\"\n",
        "\n",
        "  ami = \"ami-2\"\n",
        "}\n",
    );
    let b = "resource \"aws_instance\" \"web\" {\n  instance_type = \"m5.xlarge\"\n}\n";
    let fixed_files = fixed(
        "override_shadowed",
        &[
            ("main.tf", INSTANCE),
            ("a_override.tf", a),
            ("b_override.tf", b),
        ],
        false,
    );
    insta::assert_snapshot!("override_shadowed", fixed_files);
    let json_a = "{\"locals\": {\"tag\": \"a\", \"keep\": 1}}\n";
    let json_b = "{\"locals\": {\"tag\": \"b\"}}\n";
    let fixed_files = fixed(
        "override_shadowed",
        &[
            ("main.tf", "locals {\n  tag  = \"x\"\n  keep = 0\n}\n"),
            ("a_override.tf.json", json_a),
            ("b_override.tf.json", json_b),
        ],
        false,
    );
    insta::assert_snapshot!("override_shadowed_json", fixed_files);
}

/// A shadowed local alone in its `locals` block goes with the block, and the block with its
/// file when nothing else is in it: no empty `locals {}` and no empty file are left behind.
#[test]
fn a_shadowed_local_alone_takes_its_block_and_file() {
    let main = "locals {\n  tag = \"x\"\n  k   = 1\n}\n";
    let b = "locals {\n  tag = \"b\"\n}\n";
    let alone = "locals {\n  tag = \"a\"\n}\n";
    let fixed_files = fixed(
        "override_shadowed",
        &[
            ("main.tf", main),
            ("a_override.tf", alone),
            ("b_override.tf", b),
        ],
        false,
    );
    assert!(!fixed_files.contains("a_override.tf"), "{fixed_files}");
    // With a BOM, the file is still nothing but the block.
    let with_bom = format!("\u{feff}{alone}");
    let fixed_files = fixed(
        "override_shadowed",
        &[
            ("main.tf", main),
            ("a_override.tf", &with_bom),
            ("b_override.tf", b),
        ],
        false,
    );
    assert!(!fixed_files.contains("a_override.tf"), "{fixed_files}");
    let two_blocks = "locals {\n  tag = \"a\"\n}\n\nlocals {\n  k = 2\n}\n";
    let fixed_files = fixed(
        "override_shadowed",
        &[
            ("main.tf", main),
            ("a_override.tf", two_blocks),
            ("b_override.tf", b),
        ],
        false,
    );
    assert!(
        fixed_files.contains("--- a_override.tf\nlocals {\n  k = 2\n}\n"),
        "{fixed_files}"
    );
}

#[test]
fn unused_ignore_removes_the_id_or_the_comment() {
    let main = concat!(
        "locals {\n",
        "  # tflint-merge-ignore: override_noop, override_shadowed  both pinned\n",
        "  a = 1 # tflint-merge-ignore: override_noop\n",
        "\n",
        "  b = 2\n",
        "}\n",
    );
    let fixed_files = fixed("unused_ignore", &[("main.tf", main)], false);
    insta::assert_snapshot!("unused_ignore", fixed_files);
    let json =
        "{\n  \"//\": \"tflint-merge-ignore-file: override_noop\",\n  \"locals\": {\"a\": 1}\n}\n";
    let fixed_files = fixed("unused_ignore", &[("main.tf.json", json)], false);
    insta::assert_snapshot!("unused_ignore_json", fixed_files);
}

#[test]
fn object_duplicate_key_removes_the_earlier_entry() {
    let same = "locals {\n  sizes = {\n    min = 1, # smallest\n    max = 3\n    min = 1\n  }\n}\n";
    let fixed_files = fixed("object_duplicate_key", &[("main.tf", same)], false);
    insta::assert_snapshot!("object_duplicate_key_same", fixed_files);
    let different = "locals {\n  sizes = { min = 1, max = 3, min = 2 }\n}\n";
    let fixed_files = fixed("object_duplicate_key", &[("main.tf", different)], true);
    insta::assert_snapshot!("object_duplicate_key_different", fixed_files);
}

/// An unused local value goes from every file that sets it, override files included, with the
/// comment above it; a `locals` block none of whose values is used goes whole.
#[test]
fn unused_declaration_removes_an_unused_local_everywhere() {
    let main = "# Names.\nlocals {\n  # The old name, kept for nothing.\n  legacy = \"web-old\"\n  \
                name   = \"web\"\n}\n\nlocals {\n  only = 1\n}\n\noutput \"name\" {\n  \
                value = local.name\n}\n";
    let over = "locals {\n  legacy = \"web-older\"\n}\n\noutput \"name\" {\n  description = \"The name.\"\n}\n";
    let config = "rules:\n  unused_declaration: warning\n";
    let files = [
        ("main.tf", main),
        ("override.tf", over),
        (".tflint-merge.yaml", config),
    ];
    let fixed_files = fixed("unused_declaration", &files, false);
    insta::assert_snapshot!("unused_declaration_locals", fixed_files);
}

#[test]
fn provider_reference_quoted_removes_the_quotes() {
    let main = "provider \"aws\" {\n  alias = \"east\"\n}\nmodule \"net\" {\n  source    = \"./net\"\n  \
                providers = { aws = \"aws.east\" } # the east region\n}\n\
                data \"aws_ami\" \"a\" {\n  provider = \"aws.east\"\n}\n";
    let net =
        "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\n";
    let files = [("main.tf", main), ("net/main.tf", net)];
    let fixed_files = fixed("provider_reference_quoted", &files, true);
    insta::assert_snapshot!("provider_reference_quoted", fixed_files);
}

#[test]
fn override_depends_on_moves_into_the_base_block() {
    let main = concat!(
        "resource \"terraform_data\" \"a\" {}\n",
        "resource \"terraform_data\" \"b\" {}\n",
        "\n",
        "# The app.\n",
        "resource \"terraform_data\" \"app\" {\n",
        "  input = 1 # one\n",
        "}\n",
        "\n",
        "resource \"terraform_data\" \"db\" {\n",
        "  depends_on = [terraform_data.a]\n",
        "}\n",
    );
    let over = concat!(
        "resource \"terraform_data\" \"app\" {\n",
        "  depends_on = [terraform_data.a]\n",
        "  input      = 2\n",
        "}\n",
        "\n",
        "resource \"terraform_data\" \"db\" {\n",
        "  depends_on = [\n",
        "    terraform_data.a,\n",
        "    terraform_data.b,\n",
        "  ]\n",
        "}\n",
    );
    let fixed_files = fixed(
        "override_depends_on",
        &[("main.tf", main), ("override.tf", over)],
        true,
    );
    insta::assert_snapshot!("override_depends_on", fixed_files);
}

/// An element appended to a list goes inside its brackets, before the comment that ends the
/// line.
#[test]
fn an_appended_element_goes_before_the_trailing_comment() {
    let main = concat!(
        "resource \"terraform_data\" \"a\" {}\n",
        "resource \"terraform_data\" \"b\" {}\n",
        "\n",
        "resource \"terraform_data\" \"app\" {\n",
        "  input      = 1\n",
        "  depends_on = [terraform_data.a] # first\n",
        "}\n",
    );
    let over = "resource \"terraform_data\" \"app\" {\n  depends_on = [terraform_data.b]\n}\n";
    let fixed_files = fixed(
        "override_depends_on",
        &[("main.tf", main), ("override.tf", over)],
        true,
    );
    assert!(
        fixed_files.contains("  depends_on = [terraform_data.a, terraform_data.b] # first\n"),
        "{fixed_files}"
    );
}

#[test]
fn language_block_in_tf_file_moves_to_a_tofu_file() {
    let versions = concat!(
        "terraform {\n",
        "  required_version = \">= 1.6\"\n",
        "}\n",
        "\n",
        "# For OpenTofu.\n",
        "language {\n",
        "  compatible_with {\n",
        "    opentofu = \">= 1.12\"\n",
        "  }\n",
        "}\n",
    );
    let fixed_files = fixed(
        "language_block_in_tf_file",
        &[("versions.tf", versions), ("language.tf", "locals {}\n")],
        true,
    );
    insta::assert_snapshot!("language_block_in_tf_file", fixed_files);
}

#[test]
fn override_lookalike_filename_renames_the_file() {
    let over = concat!(
        "# Bigger in prod.\n",
        "resource \"aws_instance\" \"web\" {\n",
        "  instance_type = \"m5.large\"\n",
        "}\n",
    );
    let fixed_files = fixed(
        "override_lookalike_filename",
        &[("main.tf", INSTANCE), ("main-override.tf", over)],
        true,
    );
    insta::assert_snapshot!("override_lookalike_filename", fixed_files);
}

#[test]
fn terragrunt_deprecated_include_functions_replaces_the_parent_dir() {
    let unit = concat!(
        "import \"root\" {\n",
        "  config_path = \"../root.hcl\"\n",
        "}\n",
        "\n",
        "locals {\n",
        "  # Where the root is.\n",
        "  up  = get_parent_terragrunt_dir()\n",
        // In a template's sequence: code, which the fix may edit.
        "  mod = \"${get_parent_terragrunt_dir()}/modules # ${1}\"\n",
        "  key = \"${path_relative_to_include()}/tf.tfstate\"\n",
        "}\n",
    );
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), &[("root.hcl", ""), ("a/terragrunt.hcl", unit)]);
    let rule = "terragrunt_deprecated_include_functions";
    // Not proved (no Terragrunt configuration is evaluated again): unsafe, not applied by
    // `--fix` alone.
    let out = tflint_merge(dir.path(), &["--fix", "--enable-rule", rule, "."]);
    assert_eq!(tree(dir.path())["a/terragrunt.hcl"], unit);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("fixable with `--fix --unsafe-fixes`"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = tflint_merge(
        dir.path(),
        &["--fix", "--unsafe-fixes", "--enable-rule", rule, "."],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after = tree(dir.path());
    let expected = unit.replace("get_parent_terragrunt_dir()", "import.root.terragrunt_dir");
    assert_eq!(after["a/terragrunt.hcl"], expected);
    let left = findings(dir.path(), &["--enable-rule", rule]);
    let messages: Vec<&str> = left.iter().filter_map(|f| f["message"].as_str()).collect();
    assert_eq!(
        messages,
        ["`path_relative_to_include()` in a configuration that uses imports"]
    );
}

/// Overlapping fixes wait for the next pass, and `--fix` repeats until nothing changes: the
/// two unused ids of one comment are removed with a comma each, in two passes.
#[test]
fn overlapping_fixes_are_applied_in_later_passes() {
    let main = concat!(
        "locals {\n",
        "  # tflint-merge-ignore: object_duplicate_key, override_noop, override_shadowed\n",
        "  m = { a = 1, a = 2 }\n",
        "}\n",
    );
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), &[("main.tf", main)]);
    let diff = tflint_merge(dir.path(), &["--diff", "."]);
    assert_eq!(diff.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&diff.stderr);
    assert!(
        stderr.contains("would fix 2 findings in 2 passes"),
        "{stderr}"
    );
    let out = tflint_merge(dir.path(), &["--fix", "."]);
    assert_eq!(out.status.code(), Some(0));
    let expected =
        "locals {\n  # tflint-merge-ignore: object_duplicate_key\n  m = { a = 1, a = 2 }\n}\n";
    assert_eq!(tree(dir.path())["main.tf"], expected);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("fixed 2 findings"), "{stderr}");
}

/// A file changed since it was checked, and a link out of the tree, are left alone.
#[test]
fn links_out_of_the_tree_are_not_written_through() {
    let outside = tempfile::tempdir().expect("tempdir");
    let target = outside.path().join("override.tf");
    std::fs::write(&target, INSTANCE).expect("write");
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), &[("main.tf", INSTANCE)]);
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&target, dir.path().join("override.tf")).expect("symlink");
        // Not even read unless allowed (tests/stay_inside.rs); allowed, it is still not written.
        let allowed = outside.path().to_str().expect("UTF-8");
        let out = tflint_merge(dir.path(), &["--fix", "--allow-outside", allowed, "."]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("override.tf is (through a symbolic link)"),
            "{stderr}"
        );
        assert_eq!(std::fs::read_to_string(&target).expect("read"), INSTANCE);
        assert!(dir.path().join("override.tf").exists());
        // A fix asked for and refused: an I/O error, and the finding is not marked fixable.
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            !stdout.contains("[*]") && !stdout.contains("fixable"),
            "{stdout}"
        );

        // A linked directory leading out of the tree: the same.
        let module = outside.path().join("module");
        write(
            &module,
            &[("main.tf", INSTANCE), ("x_override.tf", INSTANCE)],
        );
        std::os::unix::fs::symlink(&module, dir.path().join("linked")).expect("symlink");
        let args = ["--fix", "--allow-outside", allowed, "--follow-links", "."];
        let out = tflint_merge(dir.path(), &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("linked/x_override.tf is (through"),
            "{stderr}"
        );
        assert!(module.join("x_override.tf").exists());

        // A link inside the tree is written through: the file it leads to changes, the link
        // stays a link.
        let inside = tempfile::tempdir().expect("tempdir");
        let ignore = "locals {\n  # tflint-merge-ignore: override_noop\n  a = 1\n}\n";
        write(inside.path(), &[("shared/locals.tf.txt", ignore)]);
        let link = inside.path().join("m/main.tf");
        std::fs::create_dir_all(link.parent().expect("parent")).expect("mkdir");
        std::os::unix::fs::symlink("../shared/locals.tf.txt", &link).expect("symlink");
        let out = tflint_merge(inside.path(), &["--fix", "."]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let written = std::fs::read_to_string(inside.path().join("shared/locals.tf.txt"));
        assert_eq!(written.expect("read"), "locals {\n  a = 1\n}\n");
        let kind = std::fs::symlink_metadata(&link).expect("link").file_type();
        assert!(kind.is_symlink());
    }
}

/// A file of one module linked into another module of the run (`b/x_override.tf ->
/// ../a/x_override.tf`): the fix that is safe for `a` changes `b`, so it is unsafe; `--fix`
/// leaves both alone.
#[cfg(unix)]
#[test]
fn a_fix_to_a_file_linked_into_another_module_is_unsafe() {
    let dir = tempfile::tempdir().expect("tempdir");
    let restated = "variable \"v\" {\n  default = 1\n}\n";
    let other = "variable \"v\" {\n  default = 2\n}\n";
    write(
        dir.path(),
        &[
            ("a/main.tf", restated),
            ("a/x_override.tf", restated),
            ("b/main.tf", other),
        ],
    );
    std::os::unix::fs::symlink("../a/x_override.tf", dir.path().join("b/x_override.tf"))
        .expect("symlink");
    let before = tree(dir.path());
    let out = tflint_merge(dir.path(), &["--fix", "--unsafe-fixes", "."]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(tree(dir.path()), before, "{stdout}");
    assert!(
        stdout.contains("override_noop") && !stdout.contains("fixable"),
        "{stdout}"
    );

    // A block of the file restated, next to one that is not: its removal is an edit.
    let two = "variable \"v\" {\n  default = 1\n}\n\nvariable \"w\" {\n  default = 3\n}\n";
    let bases = "variable \"w\" {\n  default = 4\n}\n";
    write(
        dir.path(),
        &[
            ("a/x_override.tf", two),
            ("a/w.tf", bases),
            ("b/w.tf", bases),
        ],
    );
    let before = tree(dir.path());
    let out = tflint_merge(dir.path(), &["--fix", "--color", "never", "."]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(tree(dir.path()), before, "{stdout}");
    assert!(
        stdout.contains("which b/x_override.tf loads too, through a link"),
        "{stdout}"
    );
}

/// A link that a fix renames stays a link, to the same file, under its new name.
#[cfg(unix)]
#[test]
fn a_renamed_link_stays_a_link() {
    let dir = tempfile::tempdir().expect("tempdir");
    let over = "resource \"aws_instance\" \"web\" {\n  instance_type = \"m5.large\"\n}\n";
    write(
        dir.path(),
        &[("m/main.tf", INSTANCE), ("shared/web.tf.txt", over)],
    );
    let link = dir.path().join("m/main-override.tf");
    std::os::unix::fs::symlink("../shared/web.tf.txt", &link).expect("symlink");
    let out = tflint_merge(dir.path(), &["--fix", "--unsafe-fixes", "."]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("fixed 1 finding"), "{stderr}");
    let renamed = dir.path().join("m/main_override.tf");
    let kind = std::fs::symlink_metadata(&renamed)
        .expect("renamed")
        .file_type();
    assert!(kind.is_symlink());
    let leads_to = std::fs::read_link(&renamed).expect("link");
    assert_eq!(leads_to, Path::new("../shared/web.tf.txt"));
    assert!(std::fs::symlink_metadata(&link).is_err());
    assert_eq!(tree(dir.path())["shared/web.tf.txt"], over);

    // `patch` cannot rename a link: `--diff` leaves it out, says so and exits 2.
    std::fs::rename(&renamed, &link).expect("rename back");
    let out = tflint_merge(dir.path(), &["--diff", "--unsafe-fixes", "."]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("m/main-override.tf is a symbolic link"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

/// A file nobody may write (mode 0444, as `chmod a-w` leaves it) is left alone, as
/// `terraform fmt` leaves it: a message names it, nothing is written, its permissions stay,
/// the finding is not marked fixable, and the run exits 2.
#[cfg(unix)]
#[test]
fn read_only_files_are_left_alone() {
    use std::os::unix::fs::PermissionsExt;
    let text = "locals {\n  # tflint-merge-ignore: override_noop\n  a = 1\n}\n";
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), &[("main.tf", text)]);
    let path = dir.path().join("main.tf");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    for args in [&["--fix", "."][..], &["--diff", "."]] {
        let out = tflint_merge(dir.path(), args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("warning: left alone: main.tf is read-only"),
            "{stderr}"
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            !stdout.contains("[*]") && !stdout.contains("fixable"),
            "{stdout}"
        );
        assert_eq!(tree(dir.path())["main.tf"], text);
        let mode = std::fs::metadata(&path)
            .expect("metadata")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o444);
    }
    // Without `--fix`, the fix is reported as ever (for whoever may write the file).
    let out = tflint_merge(dir.path(), &["."]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("[*] 1 fixable with `--fix`"), "{stdout}");
}

/// `--diff` names files as `patch -p1` finds them from the working directory, whatever the
/// argument: `./m`, an absolute path, `../here/m`; a file outside the working directory is left
/// out of the diff with a message (no `a/../` path `patch` refuses), and the run exits 2. A
/// link is diffed as the file it leads to, which `patch` writes (it refuses to patch links).
#[test]
fn diff_paths_apply_with_patch_from_the_working_directory() {
    if !patch::available() {
        return;
    }
    let text = "locals {\n  # tflint-merge-ignore: override_noop\n  a = 1\n}\n";
    let linked = text.replace("a = 1", "b = 2");
    let files = [
        ("m/main.tf", text),
        ("m/shared/locals.tf.txt", linked.as_str()),
    ];
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = std::fs::canonicalize(tmp.path()).expect("canonical");
    let here = root.join("here");
    write(&here, &files);
    #[cfg(unix)]
    std::os::unix::fs::symlink("shared/locals.tf.txt", here.join("m/linked.tf")).expect("symlink");
    let absolute = here.join("m").display().to_string();
    for argument in ["./m", absolute.as_str(), "../here/m", "m/"] {
        let out = tflint_merge(&here, &["--diff", argument]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{argument}: {stderr}");
        let diff = String::from_utf8_lossy(&out.stdout);
        assert!(
            diff.contains("--- a/m/main.tf\n+++ b/m/main.tf\n"),
            "{argument}: {diff}"
        );
        #[cfg(unix)]
        assert!(
            diff.contains("--- a/m/shared/locals.tf.txt\n"),
            "{argument}: {diff}"
        );
        assert!(patch::dry_run(&here, &out.stdout), "{argument}: {diff}");
    }
    // From a directory beside the module: nothing `patch` could apply from there.
    let beside = root.join("beside");
    std::fs::create_dir_all(&beside).expect("mkdir");
    let out = tflint_merge(&beside, &["--diff", "../here/m"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("left out of the diff: ../here/m/main.tf is outside the working directory"),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("a/.."));
    // Applied, the diff gives what `--fix` writes, through the link too.
    let out = tflint_merge(&here, &["--diff", "./m"]);
    assert!(patch::apply(&here, &out.stdout));
    let patched = tree(&here);
    write(&here, &files);
    let out = tflint_merge(&here, &["--fix", "./m"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(tree(&here), patched);
}

/// 100 runs of `--fix` while an editor saves the file once, at a random moment of the run, in
/// place or by renaming a new file over it, in turns: no save is lost. Each run either fixes
/// the saved text (when the save came before the file was read), or leaves the file alone
/// and says so (exit 2: it changed on disk, or was open for writing in the saving program),
/// or is followed by the save. (The library's own stress test,
/// `cli::fix::tests::saves_while_fixing_are_never_lost`, makes 500 runs.)
#[cfg(target_os = "linux")]
#[test]
fn saves_while_fix_runs_are_never_lost() {
    let ignored =
        |n: u64| format!("locals {{\n  # tflint-merge-ignore: override_noop\n  a = {n}\n}}\n");
    let fixed = |n: u64| format!("locals {{\n  a = {n}\n}}\n");
    let dir = tempfile::tempdir().expect("tempdir");
    let main = dir.path().join("main.tf");
    std::fs::write(&main, ignored(0)).expect("write");
    let started = std::time::Instant::now();
    tflint_merge(dir.path(), &["--fix", "."]);
    let span = started.elapsed().as_micros() as u64 * 3 / 2;
    // xorshift: the same moments every time.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let (mut fixed_the_save, mut left_alone, mut saved_after) = (0, 0, 0);
    // Runs that lost the save, and runs that left the file alone but exited as if all was well.
    let (mut lost, mut not_an_error) = (Vec::new(), Vec::new());
    for run in 0..100 {
        let (first, saved) = (2 * run + 1, 2 * run + 2);
        std::fs::write(&main, ignored(first)).expect("write");
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let delay = std::time::Duration::from_micros(state % span.max(1));
        let (path, aside) = (main.clone(), dir.path().join(".main.tf.saving"));
        let text = ignored(saved);
        let writer = std::thread::spawn(move || {
            std::thread::sleep(delay);
            if run % 2 == 0 {
                std::fs::write(&path, text).expect("save");
            } else {
                std::fs::write(&aside, text).expect("save");
                std::fs::rename(&aside, &path).expect("save");
            }
        });
        let out = tflint_merge(dir.path(), &["--fix", "."]);
        writer.join().expect("writer");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let now = std::fs::read_to_string(&main).expect("read");
        if now == fixed(saved) {
            fixed_the_save += 1;
        } else if now == ignored(saved)
            && (stderr.contains("changed on disk") || stderr.contains("open for writing"))
        {
            if out.status.code() != Some(2) {
                not_an_error.push(format!("run {run}: {stderr}"));
            }
            left_alone += 1;
        } else if now == ignored(saved) && out.status.code() == Some(0) {
            saved_after += 1;
        } else {
            lost.push(format!("run {run}: {now:?} after {stderr}"));
        }
    }
    eprintln!(
        "fixed the save {fixed_the_save}, left alone {left_alone} ({} without exit 2), saved \
         after the fix {saved_after}, lost {}",
        not_an_error.len(),
        lost.len()
    );
    assert!(lost.is_empty(), "saves lost: {lost:#?}");
    assert!(
        not_an_error.is_empty(),
        "left alone, exit 0: {not_an_error:#?}"
    );
}

/// `--diff` changes nothing and exits 1; applied with `patch -p1` it gives what `--fix` gives,
/// fixes of later passes included (the override block left empty in `m`, the comma of `q`).
#[test]
fn diff_applies_with_patch_like_fix() {
    if !patch::available() {
        return;
    }
    let a = concat!(
        "resource \"aws_instance\" \"web\" {\n",
        "  instance_type = \"m5.large\"\n",
        "  ami = \"ami-1\"\n",
        "}\n",
    );
    let b = "resource \"aws_instance\" \"web\" {\n  instance_type = \"m5.xlarge\"\n}\n";
    let files: &[(&str, &str)] = &[
        ("m/main.tf", INSTANCE),
        ("m/a_override.tf", a),
        ("m/b_override.tf", b),
        ("p/main.tf", INSTANCE),
        ("p/x_override.tf", INSTANCE),
        (
            "m/versions.tf",
            "language {\n  compatible_with {\n    opentofu = \">= 1.12\"\n  }\n}\n",
        ),
        (
            "n/main.tf",
            "locals {\n  m = { a = 1, a = 2 } # tflint-merge-ignore: override_noop\n}\n",
        ),
        (
            "q/main.tf",
            concat!(
                "locals {\n",
                "  # tflint-merge-ignore: object_duplicate_key, override_noop, override_shadowed\n",
                "  m = { a = 1, a = 2 }\n",
                "}\n",
            ),
        ),
    ];
    for unsafe_fixes in [false, true] {
        let flag: &[&str] = if unsafe_fixes {
            &["--unsafe-fixes"]
        } else {
            &[]
        };
        let (fixed_dir, patched_dir) = (
            tempfile::tempdir().expect("tmp"),
            tempfile::tempdir().expect("tmp"),
        );
        write(fixed_dir.path(), files);
        write(patched_dir.path(), files);
        let mut args = vec!["--diff", "."];
        args.extend(flag);
        let diff = tflint_merge(patched_dir.path(), &args);
        assert_eq!(diff.status.code(), Some(1));
        assert_eq!(
            tree(patched_dir.path()),
            tree(fixed_dir.path()),
            "--diff changed files"
        );
        assert!(
            patch::apply(patched_dir.path(), &diff.stdout),
            "{}",
            String::from_utf8_lossy(&diff.stdout)
        );
        // --fix writes what --diff shows.
        let mut fix_args = vec!["--fix", "."];
        fix_args.extend(flag);
        tflint_merge(fixed_dir.path(), &fix_args);
        let (fixed_tree, patched_tree) = (tree(fixed_dir.path()), tree(patched_dir.path()));
        assert_eq!(patched_tree, fixed_tree, "unsafe fixes: {unsafe_fixes}");
    }
}

/// Real modules (the sample in the repository, and the whole corpus when it is there; see
/// `tests/common/corpus.rs`), copied: safe fixes leave what `merged` prints for each module
/// directory they change, in both views, as it was; `--fix`, and then `--fix --unsafe-fixes`,
/// run twice, change nothing the second time.
#[test]
fn corpus_fixes_keep_the_module_and_settle() {
    for corpus in corpus::roots("corpus_fixes_keep_the_module_and_settle") {
        fixes_keep_the_module_and_settle(&corpus);
    }
}

fn fixes_keep_the_module_and_settle(corpus: &Path) {
    let copy = tempfile::tempdir().expect("tempdir");
    let root = copy.path().join("corpus");
    let status = Command::new("cp")
        .arg("-R")
        .arg(corpus)
        .arg(&root)
        .status()
        .expect("run cp");
    assert!(status.success(), "cp -R failed");
    // The corpus beside the checkout may be read-only, which `--fix` respects; the copy is
    // there to be fixed.
    let status = Command::new("chmod")
        .args(["-R", "u+w"])
        .arg(&root)
        .status()
        .expect("run chmod");
    assert!(status.success(), "chmod -R u+w failed");
    let original = tree(corpus);
    let removed_locals = unused_locals(&findings(&root, &[]));
    let safe = ["--fix", "--exit-zero", "."];
    let first = tflint_merge(&root, &safe);
    let fixed = tree(&root);
    let mut changed: Vec<&str> = (original.keys().chain(fixed.keys()))
        .filter(|name| original.get(*name) != fixed.get(*name))
        .map(|name| name.rsplit_once('/').map_or(".", |(dir, _)| dir))
        .collect();
    changed.sort();
    changed.dedup();
    for dir in &changed {
        if let Some(names) = removed_locals.get(*dir) {
            same_module_but_unused_locals(&corpus.join(dir), &root.join(dir), names);
            continue;
        }
        for view in ["terraform", "opentofu"] {
            let merged = |root: &Path| {
                tflint_merge(&root.join(dir), &["merged", "--view", view, "."]).stdout
            };
            assert_eq!(
                merged(&root),
                merged(corpus),
                "{dir}, {view} view: a safe fix changed it"
            );
        }
    }
    eprintln!(
        "{} directories changed by safe fixes: {}",
        changed.len(),
        String::from_utf8_lossy(&first.stderr).trim()
    );
    let again = tflint_merge(&root, &safe);
    assert_eq!(tree(&root), fixed, "a second --fix changed files");
    assert!(String::from_utf8_lossy(&again.stderr).contains("fixed 0 findings"));
    let all = ["--fix", "--unsafe-fixes", "--exit-zero", "."];
    tflint_merge(&root, &all);
    let once = tree(&root);
    // Both hold a file whose name only looks like an override's, which an unsafe fix renames.
    assert_ne!(once, fixed, "--unsafe-fixes changed nothing");
    tflint_merge(&root, &all);
    assert_eq!(
        tree(&root),
        once,
        "a second --fix --unsafe-fixes changed files"
    );
}

/// The local values `unused_declaration` reports in `findings` (of a check of the whole tree),
/// by directory: those its safe fixes remove, the one change of the effective module a safe fix
/// may make (nothing the tools run reads them).
fn unused_locals(findings: &[Value]) -> BTreeMap<String, BTreeSet<String>> {
    let mut found: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for finding in findings
        .iter()
        .filter(|f| f["rule"] == "unused_declaration")
    {
        let (Some(file), Some(message)) = (finding["file"].as_str(), finding["message"].as_str())
        else {
            continue;
        };
        let Some(name) = (message.strip_prefix("local."))
            .and_then(|m| m.strip_suffix(" is declared but not used"))
        else {
            continue;
        };
        let dir = file.rsplit_once('/').map_or(".", |(dir, _)| dir);
        found
            .entry(dir.to_string())
            .or_default()
            .insert(name.to_string());
    }
    found
}

/// The effective modules of `before` and `after` (each view), without provenance, are the same
/// but for the local values `removed`, which `after` no longer has.
fn same_module_but_unused_locals(before: &Path, after: &Path, removed: &BTreeSet<String>) {
    for view in [ViewSelection::Terraform, ViewSelection::OpenTofu] {
        let form = |dir: &Path| {
            let report = check_directory(dir, view, &[]).expect("no rules to enable");
            (report.modules.first()).map(|module| semantic_form(module, &report.files))
        };
        let mut expected = form(before);
        if let Some(locals) = expected.as_mut().and_then(|m| m["locals"].as_array_mut()) {
            locals.retain(|l| !l["name"].as_str().is_some_and(|n| removed.contains(n)));
        }
        assert_eq!(
            form(after),
            expected,
            "{}, {view:?}: a safe fix changed more than unused local values",
            after.display()
        );
    }
}

/// `tflint-merge rules` shows which ids have fixes, and the doc of each (`explain`) says in
/// "How to fix" what `--fix` does, and `--unsafe-fixes` for an unsafe fix.
#[test]
fn rules_with_fixes_say_so_in_their_docs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let listing = String::from_utf8(tflint_merge(dir.path(), &["rules"]).stdout).expect("UTF-8");
    let mut with_fixes = Vec::new();
    for line in listing.lines().skip(1).take_while(|l| !l.is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        // id, kind (one or two words), severity, default, fix, summary...
        let kind_words = if words.get(1) == Some(&"load") { 2 } else { 1 };
        let fix = words.get(3 + kind_words).copied().expect("a FIX column");
        if fix != "-" {
            with_fixes.push((words[0].to_string(), fix.to_string()));
        }
    }
    let ids: Vec<&str> = with_fixes.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "language_block_in_tf_file",
            "object_duplicate_key",
            "override_depends_on",
            "override_lookalike_filename",
            "override_noop",
            "override_shadowed",
            "provider_reference_quoted",
            "terragrunt_deprecated_include_functions",
            "unused_declaration",
            "unused_ignore",
        ]
    );
    for (id, fix) in &with_fixes {
        let doc =
            String::from_utf8(tflint_merge(dir.path(), &["explain", id]).stdout).expect("UTF-8");
        let expected = if fix == "safe" {
            "Fix: safe"
        } else {
            "Fix: unsafe"
        };
        let said = if fix == "safe/unsafe" {
            "Fix: safe or unsafe"
        } else {
            expected
        };
        assert!(doc.ends_with(".\n") && doc.contains(said), "{id}: {doc}");
        let how = doc.split("## How to fix").nth(1).expect("How to fix");
        let how = how.split("\n## ").next().unwrap_or(how);
        assert!(
            how.contains("--fix"),
            "{id}: How to fix does not mention --fix"
        );
        if fix.contains("unsafe") {
            assert!(
                how.contains("--unsafe-fixes"),
                "{id}: How to fix does not mention --unsafe-fixes"
            );
        }
    }
}

/// A safe fix of a finding of one view only, in a file the other view loads, is unsafe: here
/// the override restates the Terraform base, and changes the OpenTofu one (`main.tofu` hides
/// `main.tf` from OpenTofu).
#[test]
fn a_fix_safe_in_one_view_only_is_unsafe() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        &[
            ("main.tf", "variable \"v\" {\n  default = 1\n}\n"),
            ("main.tofu", "variable \"v\" {\n  default = 2\n}\n"),
            ("override.tf", "variable \"v\" {\n  default = 1\n}\n"),
        ],
    );
    let found = findings(dir.path(), &[]);
    let noop: Vec<&Value> = found
        .iter()
        .filter(|f| f["rule"] == "override_noop")
        .collect();
    assert_eq!(noop.len(), 1, "{found:#?}");
    assert_eq!(noop[0]["views"], serde_json::json!(["terraform"]));
    assert_eq!(noop[0]["fix"]["applicability"], "unsafe");
    // Checking the Terraform view alone, it is safe.
    let found = findings(dir.path(), &["--view", "terraform"]);
    let noop = found
        .iter()
        .find(|f| f["rule"] == "override_noop")
        .expect("override_noop");
    assert_eq!(noop["fix"]["applicability"], "safe");
}

/// The strings of a JSON text (keys and values), as byte ranges from quote to quote.
fn json_strings(text: &str) -> Vec<std::ops::Range<usize>> {
    let bytes = text.as_bytes();
    let mut strings = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'"' {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        while i < bytes.len() && bytes[i] != b'"' {
            i += if bytes[i] == b'\\' { 2 } else { 1 };
        }
        i += 1;
        strings.push(start..i.min(bytes.len()));
    }
    strings
}

/// Safe fixes right next to each form of string (removing a restated setting before or after
/// it, an unused ignore comment, a JSON member beside it) leave every string of the files
/// whole: each form's text is still there after `--fix`, and in JSON no edit starts or ends
/// inside a string. Before the fix guard, the JSON case gave an edit from inside one key to
/// inside another (right text, cut strings); the other forms were fixed right already.
#[test]
fn safe_fixes_next_to_each_form_of_string_leave_it_whole() {
    // Quoted strings holding comment markers, braces and escapes.
    let quoted = "locals {\n  a = \"x # y // z /* } \\n\"\n  b = \"{ \\\"q\\\" }\" # b\n}\n";
    let quoted_over = "locals {\n  a = \"x # y // z /* } \\n\"\n  b = \"changed\"\n}\n";
    // Heredocs whose bodies hold blank lines, comment and ignore markers and braces.
    let heredoc = concat!(
        "locals {\n",
        "  a = <<EOT\n",
        "line\n",
        "\n",
        "# tflint-merge-ignore: override_noop\n",
        "}\n",
        "EOT\n",
        "  b = 1\n",
        "}\n",
    );
    let heredoc_over = concat!(
        "locals {\n",
        "  a = <<EOT\n",
        "line\n",
        "\n",
        "# tflint-merge-ignore: override_noop\n",
        "}\n",
        "EOT\n",
        "\n",
        "  b = 2\n",
        "}\n",
    );
    let indented = concat!(
        "locals {\n",
        "  a = <<-EOT\n",
        "    b = 1\n",
        "\n",
        "    // c\n",
        "    EOT\n",
        "  # tflint-merge-ignore: override_shadowed\n",
        "  b = 1\n",
        "}\n",
    );
    let indented_over = concat!(
        "locals {\n",
        "  a = \"changed\"\n",
        "\n",
        "  b = 1\n",
        "}\n",
    );
    // A template with directives over several lines.
    let template = concat!(
        "locals {\n",
        "  a = \"%{ if true\n",
        "  }yes # no%{ endif }\"\n",
        "  b = 1\n",
        "}\n",
    );
    let template_over = concat!(
        "locals {\n",
        "  b = 2\n",
        "  a = \"%{ if true\n",
        "  }yes # no%{ endif }\"\n",
        "}\n",
    );
    /// A directory whose safe fixes (`rule`'s among them) land next to `string`.
    struct Case<'a> {
        name: &'a str,
        files: &'a [(&'a str, &'a str)],
        rule: &'a str,
        string: &'a str,
    }
    let cases = [
        Case {
            name: "quoted",
            files: &[("main.tf", quoted), ("override.tf", quoted_over)],
            rule: "override_noop",
            string: "\"x # y // z /* } \\n\"",
        },
        Case {
            name: "heredoc",
            files: &[("main.tf", heredoc), ("override.tf", heredoc_over)],
            rule: "override_noop",
            string: "<<EOT\nline\n\n# tflint-merge-ignore: override_noop\n}\nEOT\n",
        },
        Case {
            name: "indented_heredoc",
            files: &[("main.tf", indented), ("override.tf", indented_over)],
            rule: "unused_ignore",
            string: "<<-EOT\n    b = 1\n\n    // c\n    EOT\n",
        },
        Case {
            name: "template",
            files: &[("main.tf", template), ("override.tf", template_over)],
            rule: "override_noop",
            string: "\"%{ if true\n  }yes # no%{ endif }\"",
        },
    ];
    for case in cases {
        let fixed_files = fixed(case.rule, case.files, false);
        let base = fixed_files
            .split("--- override.tf")
            .next()
            .unwrap_or_default();
        let (name, string) = (case.name, case.string);
        assert!(
            base.contains(string),
            "{name}: {string:?} cut\n{fixed_files}"
        );
        insta::assert_snapshot!(format!("strings_{name}"), fixed_files);
    }
    // JSON: neighbouring restated members, whose keys start alike and whose values hold
    // quotes, commas and braces.
    let json_base = "{\"locals\": {\"l0\": \"a\\\", }\", \"l1\": \"{\", \"l2\": \"x\"}}\n";
    let json_over = concat!(
        "{\n",
        "  \"locals\": {\n",
        "    \"l0\": \"a\\\", }\",\n",
        "    \"l1\": \"{\",\n",
        "    \"l2\": \"changed\"\n",
        "  }\n",
        "}\n",
    );
    let files = [("main.tf.json", json_base), ("override.tf.json", json_over)];
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), &files);
    let found = findings(dir.path(), &[]);
    let edits: Vec<&Value> = (found.iter())
        .filter(|f| f["rule"] == "override_noop")
        .flat_map(|f| f["fix"]["edits"].as_array().expect("edits"))
        .collect();
    assert!(!edits.is_empty(), "{found:#?}");
    for edit in edits {
        let n = |k: &str| edit[k].as_u64().expect("offset") as usize;
        let (start, end) = (n("byte_start"), n("byte_end"));
        let inside = |at: usize| {
            json_strings(json_over)
                .iter()
                .any(|s| s.start < at && at < s.end)
        };
        assert!(
            !inside(start) && !inside(end),
            "the edit {start}..{end} cuts into a string: {:?}",
            &json_over[start..end]
        );
    }
    let fixed_files = fixed("override_noop", &files, false);
    insta::assert_snapshot!("strings_json", fixed_files);
}

/// A heredoc whose closing marker is followed by more text (`EOT)`, `EOT,`, `EOT # note`), or
/// ends the file without a newline, is not closed for Terraform and OpenTofu; nor is an empty
/// heredoc read on to the next line that starts with its marker. tflint-merge's parser reads
/// heredocs as they do: such a file is a syntax error (the tools find no end) or valid, its
/// heredoc running on to the lone marker, and no fix cuts into that text: `--fix` must not
/// remove the restated-looking `a = 1` below `EOT)`, which Terraform reads as text of `local.y`.
#[test]
fn a_heredoc_the_tools_read_otherwise_gets_no_fix() {
    let base = "locals {\n  a = 1\n  y = \"base\"\n}\n";
    // The finding each override gets, if any.
    let cases: [(Option<&str>, &str); 4] = [
        (
            None,
            "locals {\n  y = format(<<EOT\nhello\nEOT)\n  a = 1\n  z = trimspace(<<EOT\nbody\nEOT\n  )\n}\n",
        ),
        (
            Some("syntax_error"),
            "locals {\n  a = 1\n  y = [<<EOT\nhello\nEOT, \"x\"]\n}\n",
        ),
        (
            Some("syntax_error"),
            "locals {\n  a = 1\n  y = <<EOT\nhello\nEOT # note\n}\n",
        ),
        (
            Some("syntax_error"),
            "locals {\n  a = 1\n  y = <<EOT\nhello\nEOT",
        ),
    ];
    for (expected, over) in cases {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), &[("main.tf", base), ("override.tf", over)]);
        let found = findings(dir.path(), &[]);
        let at_override: Vec<&Value> = (found.iter())
            .filter(|f| f["file"] == "override.tf" || f["path"] == "override.tf")
            .collect();
        match expected {
            Some(rule) => assert!(
                at_override.iter().any(|f| f["rule"] == rule),
                "{over}\n{found:#?}"
            ),
            None => assert!(
                (at_override.iter())
                    .all(|f| f["rule"] != "syntax_error" && f["rule"] != "parse_limit"),
                "{over}\n{found:#?}"
            ),
        }
        assert!(
            found.iter().all(|f| f["fix"].is_null()),
            "{over}\n{found:#?}"
        );
        let before = tree(dir.path());
        tflint_merge(dir.path(), &["--fix", "."]);
        assert_eq!(tree(dir.path()), before, "{over}");
    }

    // An empty heredoc ends at its first line: the `a = 1` after it is an argument for the
    // tools, restating the base's, and may be fixed; the heredocs' text stays as it is.
    let over = "locals {\n  y = <<EOT\nEOT\n  a = 1\n  z = <<EOT\nhello\nEOT\n}\n";
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), &[("main.tf", base), ("override.tf", over)]);
    let found = findings(dir.path(), &[]);
    assert!(
        (found.iter()).all(|f| f["rule"] != "syntax_error" && f["rule"] != "parse_limit"),
        "{found:#?}"
    );
    tflint_merge(dir.path(), &["--fix", "."]);
    let fixed = std::fs::read_to_string(dir.path().join("override.tf")).expect("read");
    assert!(fixed.contains("  y = <<EOT\nEOT\n"), "{fixed}");
    assert!(fixed.contains("  z = <<EOT\nhello\nEOT\n"), "{fixed}");
}

/// The line that counts the findings fixed also names the files the fixes deleted or renamed:
/// a file gone from its place is what a user looks for first.
#[test]
fn the_summary_names_files_deleted_and_renamed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let noop = "variable \"a\" {\n  default = 1\n}\n";
    write(
        dir.path(),
        &[
            ("m/main.tf", noop),
            ("m/override.tf", noop),
            ("n/main.tf", "resource \"a\" \"b\" {}\n"),
            (
                "n/main-override.tf",
                "resource \"a\" \"b\" {\n  count = 1\n}\n",
            ),
        ],
    );
    let out = tflint_merge(dir.path(), &["--fix", "."]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("fixed 1 finding (deleted m/override.tf)\n"),
        "{stderr}"
    );
    assert!(!dir.path().join("m/override.tf").exists());
    let out = tflint_merge(dir.path(), &["--fix", "--unsafe-fixes", "."]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("fixed 1 finding (renamed n/main-override.tf to n/main_override.tf)\n"),
        "{stderr}"
    );
}

/// The files of `files` after `--fix --unsafe-fixes`.
fn fixed_tree(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), files);
    tflint_merge(dir.path(), &["--fix", "--unsafe-fixes", "-j", "1", "."]);
    tree(dir.path())
}

/// Fixes that insert lines, create a file or remove lines in CRLF files write CRLF.
#[test]
fn fixes_keep_crlf_line_endings() {
    let crlf = |text: &str| text.replace('\n', "\r\n");
    let main = crlf(concat!(
        "resource \"terraform_data\" \"a\" {}\n",
        "\n",
        "resource \"terraform_data\" \"app\" {\n",
        "  input = 1\n",
        "}\n",
        "\n",
        "language {\n",
        "  compatible_with {\n",
        "    opentofu = \">= 1.12\"\n",
        "  }\n",
        "}\n",
    ));
    let over = crlf(concat!(
        "resource \"terraform_data\" \"app\" {\n",
        "  depends_on = [terraform_data.a]\n",
        "  input      = 1\n",
        "}\n",
    ));
    let before = BTreeMap::from([
        ("main.tf".to_string(), main.clone()),
        ("override.tf".to_string(), over.clone()),
    ]);
    let after = fixed_tree(&[("main.tf", &main), ("override.tf", &over)]);
    assert_ne!(after, before, "nothing was fixed");
    assert!(after.contains_key("language.tofu"), "{after:#?}");
    assert!(after["main.tf"].contains("depends_on"), "{after:#?}");
    for (name, text) in &after {
        let bare = text.replace("\r\n", "").contains('\n');
        assert!(!bare, "{name} has an LF line ending after --fix: {text:?}");
    }
}

/// A line inserted into a tab-indented block is indented with tabs, as its neighbours are.
#[test]
fn inserted_lines_copy_the_indentation_of_their_neighbours() {
    let main = concat!(
        "resource \"terraform_data\" \"a\" {}\n",
        "\n",
        "resource \"terraform_data\" \"app\" {\n",
        "\tinput = 1\n",
        "}\n",
    );
    let over = "resource \"terraform_data\" \"app\" {\n\tdepends_on = [terraform_data.a]\n}\n";
    let after = fixed_tree(&[("main.tf", main), ("override.tf", over)]);
    let expected = concat!(
        "resource \"terraform_data\" \"a\" {}\n",
        "\n",
        "resource \"terraform_data\" \"app\" {\n",
        "\tinput      = 1\n",
        "\tdepends_on = [terraform_data.a]\n",
        "}\n",
    );
    assert_eq!(after["main.tf"], expected);
    // A block with no line inside copies the file's unit of indentation.
    let main = concat!(
        "resource \"terraform_data\" \"a\" {\n",
        "\tinput = 1\n",
        "}\n",
        "\n",
        "resource \"terraform_data\" \"app\" {\n",
        "}\n",
    );
    let after = fixed_tree(&[("main.tf", main), ("override.tf", over)]);
    assert!(
        after["main.tf"].ends_with("{\n\tdepends_on = [terraform_data.a]\n}\n"),
        "{:?}",
        after["main.tf"]
    );
}

/// Fix scenarios whose files `terraform fmt` accepts: restated and shadowed settings that are
/// the longest name of their run, a `depends_on` moved into a block it widens, ignore comments
/// aligned with their neighbours', a block removed between two runs.
const FMT_CLEAN_SCENARIOS: &[&[(&str, &str)]] = &[
    &[
        ("main.tf", INSTANCE),
        (
            "override.tf",
            concat!(
                "resource \"aws_instance\" \"web\" {\n",
                "  ami           = \"ami-2\" # newer\n",
                "  instance_type = \"t3.micro\"\n",
                "  tags          = {} # none\n",
                "}\n",
            ),
        ),
    ],
    &[
        ("main.tf", INSTANCE),
        (
            "a_override.tf",
            "resource \"aws_instance\" \"web\" {\n  instance_type = \"m5.large\"\n  ami           = \"ami-2\"\n}\n",
        ),
        (
            "b_override.tf",
            "resource \"aws_instance\" \"web\" {\n  instance_type = \"m5.xlarge\"\n}\n",
        ),
    ],
    &[
        (
            "main.tf",
            "resource \"terraform_data\" \"a\" {}\n\nresource \"terraform_data\" \"app\" {\n  input = 1\n}\n",
        ),
        (
            "override.tf",
            "resource \"terraform_data\" \"app\" {\n  depends_on = [terraform_data.a]\n}\n",
        ),
    ],
    &[(
        "main.tf",
        concat!(
            "locals {\n",
            "  a   = 1 # tflint-merge-ignore: override_noop\n",
            "  bbb = 2 # two\n",
            "}\n",
        ),
    )],
];

/// `terraform fmt -check -list` of the newest Terraform judge on the files of `dir` that
/// `files` names: the names of those it would change. `None` without a judge.
fn fmt_unclean(dir: &Path) -> Option<Vec<String>> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut judges: Vec<_> = std::fs::read_dir(manifest.join("target/judges"))
        .ok()?
        .flatten()
        .map(|e| e.path().join("bin/python"))
        .filter(|p| p.exists())
        .collect();
    judges.sort_by_key(|p| {
        let release = p
            .parent()?
            .parent()?
            .file_name()?
            .to_str()?
            .strip_prefix("terraform-")?;
        release
            .split('.')
            .map(|n| n.parse::<u32>().ok())
            .collect::<Option<Vec<u32>>>()
    });
    let python = judges.pop()?;
    let out = Command::new(python)
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/judge_fmt.py"))
        .arg(dir)
        .output()
        .expect("run the judge");
    let listed = String::from_utf8_lossy(&out.stdout);
    Some(listed.lines().map(str::to_string).collect())
}

/// A fix re-aligns the `=` of the run of attributes it edits, and the trailing comments
/// after them, as `terraform fmt` does.
#[test]
fn fixes_keep_terraform_fmt_alignment() {
    let after = fixed_tree(FMT_CLEAN_SCENARIOS[0]);
    let expected = concat!(
        "resource \"aws_instance\" \"web\" {\n",
        "  ami  = \"ami-2\" # newer\n",
        "  tags = {}      # none\n",
        "}\n",
    );
    assert_eq!(after["override.tf"], expected);
    let after = fixed_tree(FMT_CLEAN_SCENARIOS[2]);
    let expected = concat!(
        "resource \"terraform_data\" \"app\" {\n",
        "  input      = 1\n",
        "  depends_on = [terraform_data.a]\n",
        "}\n",
    );
    assert!(
        after["main.tf"].ends_with(expected),
        "{:?}",
        after["main.tf"]
    );
    // What the writer aligned otherwise stays as it is.
    let over = "resource \"aws_instance\" \"web\" {\n  ami           = \"ami-2\"\n  instance_type = \"t3.micro\"\n  tags = {}\n}\n";
    let after = fixed_tree(&[("main.tf", INSTANCE), ("override.tf", over)]);
    assert_eq!(
        after["override.tf"],
        "resource \"aws_instance\" \"web\" {\n  ami           = \"ami-2\"\n  tags = {}\n}\n"
    );
}

/// Property, judged by Terraform's own `fmt`: each file `terraform fmt` accepted before the
/// fixes still passes after them, over the scenarios above and the other fix scenarios.
#[test]
fn files_fmt_clean_before_a_fix_are_fmt_clean_after() {
    let json_free_scenarios: &[&[(&str, &str)]] = &[
        &[("main.tf", INSTANCE), ("x_override.tf", INSTANCE)],
        &[
            ("main.tf", "locals {\n  tag  = \"x\"\n  keep = 0\n}\n"),
            ("a_override.tf", "locals {\n  tag  = \"a\"\n  keep = 1\n}\n"),
            ("b_override.tf", "locals {\n  tag = \"b\"\n}\n"),
        ],
    ];
    let mut clean_files = 0;
    for files in FMT_CLEAN_SCENARIOS.iter().chain(json_free_scenarios) {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), files);
        let Some(before) = fmt_unclean(dir.path()) else {
            assert!(!corpus::in_ci(), "no Terraform judge in target/judges");
            eprintln!("skipped: files_fmt_clean_before_a_fix_are_fmt_clean_after: no judge");
            return;
        };
        let original = tree(dir.path());
        tflint_merge(dir.path(), &["--fix", "--unsafe-fixes", "-j", "1", "."]);
        let fixed = tree(dir.path());
        assert_ne!(fixed, original, "nothing was fixed in {original:#?}");
        let after = fmt_unclean(dir.path()).expect("the judge");
        for name in original.keys().filter(|name| !before.contains(name)) {
            assert!(
                !after.contains(name),
                "{name} was fmt-clean before the fixes, not after: {fixed:#?}"
            );
            clean_files += 1;
        }
    }
    assert!(clean_files >= FMT_CLEAN_SCENARIOS.len(), "{clean_files}");
}

/// Neighbouring lines removed by separate fixes leave no two blank lines in a row.
#[test]
fn removals_leave_no_double_blank_lines() {
    let main = concat!(
        "locals {\n",
        "  a = 1\n",
        "\n",
        "  # tflint-merge-ignore: override_noop\n",
        "  # tflint-merge-ignore: override_shadowed\n",
        "\n",
        "  b = 2\n",
        "}\n",
    );
    let fixed_files = fixed("unused_ignore", &[("main.tf", main)], false);
    assert_eq!(
        fixed_files,
        "--- main.tf\nlocals {\n  a = 1\n\n  b = 2\n}\n",
    );
}

/// An unused ignore in a comment that goes on with the writer's notes (a `/* */` comment, a
/// JSON `"//"` string with line breaks) loses its directive line only; an id of several goes
/// alone, with the reason kept.
#[test]
fn unused_ignore_keeps_the_rest_of_the_comment() {
    let main = concat!(
        "locals {\n",
        "  /* tflint-merge-ignore: override_noop  restated\n",
        "     DO NOT EDIT: generated */\n",
        "  a = 1\n",
        "}\n",
    );
    let json = "{\n  \"//\": \"tflint-merge-ignore-file: override_noop\\nDO NOT EDIT\",\n  \"locals\": {\"b\": 1}\n}\n";
    let fixed_files = fixed(
        "unused_ignore",
        &[("main.tf", main), ("gen.tf.json", json)],
        false,
    );
    let expected = concat!(
        "--- gen.tf.json\n",
        "{\n  \"//\": \"DO NOT EDIT\",\n  \"locals\": {\"b\": 1}\n}\n",
        "\n--- main.tf\n",
        "locals {\n  /*\n     DO NOT EDIT: generated */\n  a = 1\n}\n",
    );
    assert_eq!(fixed_files, expected);
    let over = concat!(
        "# tflint-merge-ignore: override_shadowed, override_noop  same on purpose\n",
        "resource \"terraform_data\" \"a\" {}\n",
    );
    let fixed_files = fixed(
        "unused_ignore",
        &[
            ("main.tf", "resource \"terraform_data\" \"a\" {}\n"),
            ("override.tf", over),
        ],
        false,
    );
    assert!(
        fixed_files.contains("# tflint-merge-ignore: override_noop  same on purpose\n"),
        "{fixed_files}"
    );
}
