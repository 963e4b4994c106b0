//! Terragrunt trees end to end: the canonical `prod/us-east-1/app/vpc` hierarchy (account →
//! region → env → unit, chained imports) and an include-style tree give no findings; each broken
//! variant gives exactly the expected finding; `graph` prints the hierarchy; Terragrunt units and
//! Terraform modules are checked in one run.

use std::path::Path;
use std::process::{Command, Output};

fn tflint_merge(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run tflint-merge")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn fixtures() -> &'static Path {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/terragrunt"
    ))
}

/// Copies a fixture tree into a temp dir.
fn copy_fixture(name: &str) -> tempfile::TempDir {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("mkdir");
        for entry in std::fs::read_dir(from).expect("read fixture") {
            let entry = entry.expect("entry");
            let target = to.join(entry.file_name());
            if entry.file_type().expect("type").is_dir() {
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).expect("copy");
            }
        }
    }
    let t = tempfile::tempdir().expect("tempdir");
    copy(&fixtures().join(name), t.path());
    t
}

/// `path:line:col: severity[rule]: message` lines, every rule on.
fn short_findings(dir: &Path) -> Vec<String> {
    let out = tflint_merge(
        dir,
        &[
            "--format",
            "short",
            "--fail-on",
            "notice",
            "--enable-rule",
            "terragrunt_deprecated_include_functions",
            ".",
        ],
    );
    let text = stdout(&out);
    let lines: Vec<String> = text
        .lines()
        .filter(|l| l.contains(": error[") || l.contains(": warning[") || l.contains(": notice["))
        .map(str::to_string)
        .collect();
    assert_eq!(
        out.status.code(),
        Some(if lines.is_empty() { 0 } else { 1 }),
        "{text}"
    );
    lines
}

#[test]
fn canonical_hierarchies_are_clean() {
    for name in ["canonical", "includes"] {
        let t = copy_fixture(name);
        assert_eq!(short_findings(t.path()), Vec::<String>::new(), "{name}");
    }
}

fn edit(root: &Path, file: &str, from: &str, to: &str) {
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.contains(from), "{file} has no `{from}`");
    std::fs::write(path, text.replacen(from, to, 1)).expect("write");
}

fn append(root: &Path, file: &str, text: &str) {
    let path = root.join(file);
    let mut content = std::fs::read_to_string(&path).unwrap_or_default();
    content.push_str(text);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, content).expect("write");
}

const VPC: &str = "prod/us-east-1/app/vpc/terragrunt.hcl";
const DB: &str = "prod/us-east-1/app/db/terragrunt.hcl";

#[test]
fn each_broken_variant_gives_exactly_its_finding() {
    type Break = fn(&Path);
    let variants: [(&str, Break, &str); 9] = [
        (
            "import cycle",
            |r| {
                append(
                    r,
                    "prod/account.hcl",
                    "\nimport \"env\" {\n  config_path = \"us-east-1/app/env.hcl\"\n}\n",
                )
            },
            "prod/account.hcl:7:17: error[terragrunt_import_cycle]: Terragrunt configuration cycle: `prod/account.hcl` → `prod/us-east-1/app/env.hcl` → `prod/us-east-1/region.hcl` → `prod/account.hcl`",
        ),
        (
            "missing import target",
            |r| {
                edit(
                    r,
                    "prod/us-east-1/region.hcl",
                    "../account.hcl",
                    "../acount.hcl",
                )
            },
            "prod/us-east-1/region.hcl:2:17: error[terragrunt_config_path_missing]: import target `prod/acount.hcl` does not exist",
        ),
        (
            "chain never reaches the root",
            |r| {
                edit(
                    r,
                    DB,
                    "find_in_parent_folders(\"root.hcl\")",
                    "find_in_parent_folders()",
                )
            },
            "prod/us-east-1/app/db/terragrunt.hcl:2:17: error[terragrunt_config_path_missing]: no folder above `prod/us-east-1/app/db` holds `terragrunt.hcl`",
        ),
        (
            "include and import",
            |r| {
                append(
                    r,
                    VPC,
                    "\ninclude \"account\" {\n  path = find_in_parent_folders(\"account.hcl\")\n}\n",
                )
            },
            "prod/us-east-1/app/vpc/terragrunt.hcl:1:1: error[terragrunt_include_and_import]: `include` and `import` blocks in one file",
        ),
        (
            "merge and deep_merge",
            |r| {
                edit(
                    r,
                    VPC,
                    "  deep_merge  = true\n",
                    "  deep_merge  = true\n  merge       = true\n",
                )
            },
            "prod/us-east-1/app/vpc/terragrunt.hcl:3:3: error[terragrunt_merge_conflict]: import \"root\" sets both `merge` and `deep_merge`",
        ),
        (
            "dependency cycle",
            |r| {
                append(
                    r,
                    VPC,
                    "\ndependency \"db\" {\n  config_path = \"../db\"\n}\n",
                )
            },
            "prod/us-east-1/app/db/terragrunt.hcl:16:17: error[terragrunt_dependency_cycle]: Terragrunt dependency cycle: `prod/us-east-1/app/db` → `prod/us-east-1/app/vpc` → `prod/us-east-1/app/db`",
        ),
        (
            "missing dependency",
            |r| {
                edit(
                    r,
                    DB,
                    "config_path = \"../vpc\"",
                    "config_path = \"../vpcs\"",
                )
            },
            "prod/us-east-1/app/db/terragrunt.hcl:16:17: error[terragrunt_config_path_missing]: dependency target `prod/us-east-1/app/vpcs` does not exist",
        ),
        (
            "unresolvable path",
            |r| {
                edit(
                    r,
                    DB,
                    "\"${get_terragrunt_dir()}/../env.hcl\"",
                    "\"${local.env_dir}/env.hcl\"",
                )
            },
            "prod/us-east-1/app/db/terragrunt.hcl:7:20: notice[terragrunt_unresolvable_path]: cannot resolve the path of this import statically",
        ),
        (
            "deprecated include function",
            |r| {
                edit(
                    r,
                    VPC,
                    "key = \"prod/us-east-1/app/vpc/terraform.tfstate\"",
                    "key = \"${path_relative_to_include()}/terraform.tfstate\"",
                )
            },
            "prod/us-east-1/app/vpc/terragrunt.hcl:16:14: notice[terragrunt_deprecated_include_functions]: `path_relative_to_include()` in a configuration that uses imports",
        ),
    ];
    for (name, break_it, expected) in variants {
        let t = copy_fixture("canonical");
        break_it(t.path());
        assert_eq!(short_findings(t.path()), [expected], "variant: {name}");
    }
}

#[test]
fn findings_can_be_ignored_inline_and_configured() {
    let t = copy_fixture("canonical");
    edit(
        t.path(),
        "prod/us-east-1/region.hcl",
        "  config_path = \"../account.hcl\"",
        "  # tflint-merge-ignore: terragrunt_config_path_missing  created by the bootstrap job\n  config_path = \"../acount.hcl\"",
    );
    assert_eq!(short_findings(t.path()), Vec::<String>::new());
    edit(
        t.path(),
        "prod/us-east-1/region.hcl",
        "terragrunt_config_path_missing",
        "terragrunt_import_cycle",
    );
    let found = short_findings(t.path());
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].contains("unused_ignore"), "{found:#?}");
    assert!(
        found[1].contains("terragrunt_config_path_missing"),
        "{found:#?}"
    );
    let out = tflint_merge(
        t.path(),
        &[
            "--format",
            "short",
            "--disable-rule",
            "terragrunt_config_path_missing",
            "--disable-rule",
            "unused_ignore",
            ".",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn units_and_modules_are_checked_in_one_run() {
    let t = copy_fixture("canonical");
    append(
        t.path(),
        "modules/vpc/main.tf",
        "resource \"terraform_data\" \"a\" {}\nresource \"terraform_data\" \"a\" {}\n",
    );
    append(
        t.path(),
        "prod/us-east-1/region.hcl",
        "\nimport \"nope\" {\n  config_path = \"nope.hcl\"\n}\n",
    );
    let out = tflint_merge(t.path(), &["--format", "short", "-j", "2", "."]);
    let text = stdout(&out);
    let rules: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split('[').nth(1)?.split(']').next())
        .collect();
    assert_eq!(
        rules,
        ["duplicate_definition", "terragrunt_config_path_missing"],
        "{text}"
    );
    let out = tflint_merge(t.path(), &["--color", "never", "."]);
    let text = stdout(&out);
    assert!(
        text.trim_end()
            .ends_with("2 errors in 3 directories (7 files)"),
        "{text}"
    );
}

/// A tree gives the same findings, in the same order, on one thread and on two, for every
/// format: references resolved (a dependency cycle, a missing dependency), a file that does
/// not parse, one that is not UTF-8 (a syntax error, as HCL reads it), and units reached through
/// symlinks.
#[cfg(unix)]
#[test]
fn a_tree_gives_the_same_findings_on_one_thread_and_two() {
    let t = tempfile::tempdir().expect("tempdir");
    let include = "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n";
    let dependency = |on: &str| format!("dependency \"d\" {{\n  config_path = \"../{on}\"\n}}\n");
    let files: [(&str, Vec<u8>); 6] = [
        ("live/root.hcl", b"locals {\n  region = \"x\"\n}\n".to_vec()),
        (
            "live/a/terragrunt.hcl",
            format!("{include}{}", dependency("b")).into_bytes(),
        ),
        ("live/b/terragrunt.hcl", dependency("a").into_bytes()),
        ("live/c/terragrunt.hcl", dependency("gone").into_bytes()),
        ("live/d/terragrunt.hcl", b"locals {\n".to_vec()),
        ("live/e/terragrunt.hcl", b"\xff\xfe".to_vec()),
    ];
    for (path, bytes) in files {
        let path = t.path().join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    }
    std::os::unix::fs::symlink(t.path().join("live/c"), t.path().join("live/l")).expect("link");
    std::fs::create_dir(t.path().join("live/s")).expect("mkdir");
    let unit = t.path().join("live/a/terragrunt.hcl");
    std::os::unix::fs::symlink(unit, t.path().join("live/s/terragrunt.hcl")).expect("link");

    for format in ["short", "json", "sarif"] {
        let run = |threads: &str| {
            let args = [
                "--format",
                format,
                "--fail-on",
                "notice",
                "-j",
                threads,
                ".",
            ];
            let out = tflint_merge(t.path(), &args);
            assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
            stdout(&out)
        };
        let one = run("1");
        for rule in [
            "terragrunt_dependency_cycle",
            "terragrunt_config_path_missing",
            "syntax_error",
        ] {
            assert!(one.contains(rule), "{format}: no {rule} in\n{one}");
        }
        assert_eq!(run("2"), one, "{format}");
    }
}

#[test]
fn graph_prints_the_hierarchy() {
    let out = tflint_merge(fixtures(), &["graph", "canonical", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let graph: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let edges: Vec<String> = graph["edges"]
        .as_array()
        .expect("edges")
        .iter()
        .map(|e| format!("{} -{}-> {}", e["from"], e["kind"], e["to"]).replace('"', ""))
        .collect();
    assert_eq!(
        edges,
        [
            "canonical/prod/us-east-1/app/db/terragrunt.hcl -import-> canonical/root.hcl",
            "canonical/prod/us-east-1/app/db/terragrunt.hcl -import-> canonical/prod/us-east-1/app/env.hcl",
            "canonical/prod/us-east-1/app/db/terragrunt.hcl -dependency-> canonical/prod/us-east-1/app/vpc/terragrunt.hcl",
            "canonical/prod/us-east-1/app/env.hcl -import-> canonical/prod/us-east-1/region.hcl",
            "canonical/prod/us-east-1/app/vpc/terragrunt.hcl -import-> canonical/root.hcl",
            "canonical/prod/us-east-1/app/vpc/terragrunt.hcl -import-> canonical/prod/us-east-1/app/env.hcl",
            "canonical/prod/us-east-1/region.hcl -import-> canonical/prod/account.hcl",
        ]
    );
    assert_eq!(graph["unresolved"].as_array().map(Vec::len), Some(0));

    // An included root is resolved for each unit: its reads lead to each unit's files.
    let out = tflint_merge(fixtures(), &["graph", "includes", "--format", "json"]);
    let graph: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let reads: Vec<&serde_json::Value> = graph["edges"]
        .as_array()
        .expect("edges")
        .iter()
        .filter(|e| e["from"] == "includes/root.hcl")
        .collect();
    assert_eq!(reads.len(), 6, "{reads:#?}");
    assert_eq!(
        reads[0]["for_units"],
        serde_json::json!([
            "includes/prod/us-east-1/app/db/terragrunt.hcl",
            "includes/prod/us-east-1/app/vpc/terragrunt.hcl"
        ])
    );

    let out = tflint_merge(fixtures(), &["graph", "canonical"]);
    let dot = stdout(&out);
    assert!(dot.starts_with("digraph terragrunt {"), "{dot}");
    assert!(
        dot.contains("\"canonical/prod/us-east-1/region.hcl\" -> \"canonical/prod/account.hcl\" [label=\"import \\\"account\\\" (no merge)\", style=bold];"),
        "{dot}"
    );
    let out = tflint_merge(fixtures(), &["graph", "nope"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Imports are shown with their merge, and the dependencies of a cycle that only merged imports
/// create are marked: in orange in DOT, `merge_only_cycle` in JSON.
#[test]
fn graph_shows_merges_and_cycles_that_only_merging_creates() {
    let t = tempfile::tempdir().expect("tempdir");
    let write = |path: &str, text: &str| {
        let path = t.path().join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    write(
        "shared.hcl",
        "dependency \"app\" {\n  config_path = \"app\"\n}\n",
    );
    write(
        "db/terragrunt.hcl",
        "import \"s\" {\n  config_path = \"../vpc.hcl\"\n  deep_merge = true\n}\n",
    );
    write("vpc.hcl", "");
    write(
        "vpc/terragrunt.hcl",
        "import \"shared\" {\n  config_path = \"../shared.hcl\"\n  merge = true\n}\n",
    );
    write(
        "app/terragrunt.hcl",
        "dependency \"vpc\" {\n  config_path = \"../vpc\"\n}\n",
    );
    let out = tflint_merge(t.path(), &["graph", ".", "--format", "json"]);
    let graph: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let edges: Vec<String> = (graph["edges"].as_array().expect("edges").iter())
        .map(|e| {
            format!(
                "{} -{}-> {} merge={} cycle={}",
                e["from"], e["kind"], e["to"], e["merge"], e["merge_only_cycle"]
            )
            .replace('"', "")
        })
        .collect();
    assert_eq!(
        edges,
        [
            "app/terragrunt.hcl -dependency-> vpc/terragrunt.hcl merge=null cycle=true",
            "db/terragrunt.hcl -import-> vpc.hcl merge=deep_merge = true cycle=null",
            "shared.hcl -dependency-> app/terragrunt.hcl merge=null cycle=true",
            "vpc/terragrunt.hcl -import-> shared.hcl merge=merge = true cycle=null",
        ]
    );
    let out = tflint_merge(t.path(), &["graph", "."]);
    let dot = stdout(&out);
    assert!(
        dot.contains("\"shared.hcl\" -> \"app/terragrunt.hcl\" [label=\"dependency \\\"app\\\" [cycle once merged]\", style=dotted, color=orange, penwidth=2];"),
        "{dot}"
    );
    assert!(
        dot.contains("[label=\"import \\\"shared\\\" (merge = true)\", style=bold];"),
        "{dot}"
    );
}

/// A file of the tree that cannot be parsed (or read) is in the graph without its references:
/// `graph` says so on stderr and exits 1 (2 for an I/O error), the graph itself still printed.
#[test]
fn graph_reports_files_it_cannot_read_or_parse() {
    let t = tempfile::tempdir().expect("tempdir");
    let unit = t.path().join("app/terragrunt.hcl");
    std::fs::create_dir_all(unit.parent().expect("parent")).expect("mkdir");
    std::fs::write(&unit, "include \"root\" {\n  path = \"../root.hcl\"\n}\n").expect("write");
    std::fs::write(t.path().join("root.hcl"), "locals {\n  x = \n}\n").expect("write");
    let out = tflint_merge(t.path(), &["graph", "."]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("error[syntax_error]"), "{stderr}");
    assert!(stderr.contains("root.hcl"), "{stderr}");
    assert!(
        stdout(&out).starts_with("digraph terragrunt {"),
        "{}",
        stdout(&out)
    );

    std::fs::write(t.path().join("root.hcl"), "locals {\n  x = 1\n}\n").expect("write");
    let out = tflint_merge(t.path(), &["graph", "."]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
