//! The crate's shape, checked: every top-level module under `src/` (`lib` included) depends only
//! on the stages CONTRIBUTING.md lists before it, files are read in one place, rules run in one
//! loop, finding ids are made in one place, and every finding id is a rule file named by its id.
//! Each check reads the source as text (comments skipped), so a change that breaks the shape
//! fails here with the file and line to look at.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every `src/` file (path relative to `src/`) with its code lines (1-based number, text),
/// comment lines left out.
fn code() -> Vec<(String, Vec<(usize, String)>)> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("read source");
            let lines = text
                .lines()
                .enumerate()
                .filter(|(_, line)| !line.trim_start().starts_with("//"))
                .map(|(i, line)| (i + 1, line.to_string()))
                .collect();
            let relative = path.strip_prefix(src()).expect("under src");
            (relative.to_string_lossy().replace('\\', "/"), lines)
        })
        .collect()
}

/// The top-level module a file belongs to: `lint/run.rs` → `lint`, `source.rs` → `source`.
fn module_of(file: &str) -> &str {
    file.split('/')
        .next()
        .unwrap_or(file)
        .trim_end_matches(".rs")
}

/// `crate::NAME` paths named on a line.
fn crate_paths(line: &str) -> Vec<&str> {
    line.match_indices("crate::")
        .map(|(i, _)| {
            let rest = &line[i + "crate::".len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

/// The stages in the order CONTRIBUTING.md's "The layout of the crate" lists them (each
/// `- **`name`**` item), then `lib` (the public API, above every stage) and `main`.
fn stage_order() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("CONTRIBUTING.md");
    let text = std::fs::read_to_string(&path).expect("read CONTRIBUTING.md");
    let layout = text
        .split("## The layout of the crate")
        .nth(1)
        .expect("CONTRIBUTING.md has \"## The layout of the crate\"");
    let layout = layout.split("\n## ").next().unwrap_or(layout);
    let mut order: Vec<String> = layout
        .lines()
        .filter_map(|line| line.strip_prefix("- **`"))
        .filter_map(|rest| rest.split_once("`**"))
        .map(|(name, _)| name.to_string())
        .collect();
    order.extend(["lib".to_string(), "main".to_string()]);
    order
}

/// What a `crate::NAME` path on a line of `src/` names: the top-level module `NAME`, or `lib`
/// for an item of `src/lib.rs` itself (`crate::check_directory`).
fn named_modules<'a>(line: &'a str, modules: &BTreeSet<String>) -> Vec<&'a str> {
    crate_paths(line)
        .into_iter()
        .filter(|name| !name.is_empty())
        .map(|name| if modules.contains(name) { name } else { "lib" })
        .collect()
}

#[test]
fn stages_depend_only_on_earlier_ones() {
    let order = stage_order();
    let modules: BTreeSet<String> = code()
        .iter()
        .map(|(file, _)| module_of(file).to_string())
        .collect();
    for module in &modules {
        assert!(
            order.contains(module),
            "src/{module} is not in CONTRIBUTING.md's list of stages ({order:?})"
        );
    }
    let rank = |m: &str| order.iter().position(|o| o == m).expect("a listed stage");
    let mut wrong = Vec::new();
    for (file, lines) in code() {
        let from = module_of(&file);
        for (number, line) in &lines {
            for to in named_modules(line, &modules) {
                if to != from && rank(to) > rank(from) {
                    wrong.push(format!(
                        "src/{file}:{number}: {from} -> {to}: {}",
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "a stage depends on a later one (the order is CONTRIBUTING.md's, {order:?}):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn input_never_calls_the_engine() {
    // The walk and the reader hand what they find forward; the engine pulls it. Named on its
    // own so that the failure says which promise broke.
    let found: Vec<String> = code()
        .into_iter()
        .filter(|(file, _)| file.starts_with("input/"))
        .flat_map(|(file, lines)| {
            lines
                .into_iter()
                .filter(|(_, line)| line.contains("crate::lint") || line.contains("crate::rules"))
                .map(move |(number, line)| format!("src/{file}:{number}: {}", line.trim()))
        })
        .collect();
    assert!(
        found.is_empty(),
        "input calls into the engine:\n{}",
        found.join("\n")
    );
}

/// Lines of files outside `allowed` that contain one of `needles`, as `src/FILE:LINE`.
fn found_outside(needles: &[&str], allowed: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for (file, lines) in code() {
        if allowed.contains(&file.as_str()) {
            continue;
        }
        for (number, line) in lines {
            if needles.iter().any(|n| line.contains(n)) {
                out.push(format!("src/{file}:{number}: {}", line.trim()));
            }
        }
    }
    out
}

#[test]
fn configuration_files_are_read_in_one_place() {
    // The config file (`.tflint-merge.yaml`) is read by the CLI; every Terraform, OpenTofu and
    // Terragrunt file goes through `input::read`, with its size limit and findings. The
    // scanner bridge reads no configuration: its own source map and another tool's SARIF.
    let readers = ["fs::read(", "fs::read_to_string(", "File::open("];
    let allowed = [
        "input/read.rs",
        // The primitive with which `input::read` opens a file relative to an open directory.
        "input/dir_handle.rs",
        "cli/config.rs",
        "cli/merged_out.rs",
        "cli/map_sarif.rs",
    ];
    let found = found_outside(&readers, &allowed);
    assert!(
        found.is_empty(),
        "files read outside input/read.rs:\n{}",
        found.join("\n")
    );
}

#[test]
fn rules_run_in_one_loop() {
    // `lint::run` isolates each rule; `lint::check` isolates each directory and the tree.
    let allowed = ["lint/run.rs", "lint/check.rs"];
    let found = found_outside(&["catch_unwind"], &allowed);
    assert!(
        found.is_empty(),
        "panics caught outside the engine:\n{}",
        found.join("\n")
    );
}

#[test]
fn finding_ids_are_made_in_one_place() {
    // Every id is made by `declare_rule!` from its literal, in its rule's file (the one id made
    // in `diagnostic/id.rs` is for the tests of the stages before the rules). Nowhere else does
    // a string become an id.
    let found = found_outside(&["finding_id!(\""], &["diagnostic/id.rs"]);
    assert!(
        found.is_empty(),
        "finding ids made outside diagnostic/id.rs:\n{}",
        found.join("\n")
    );
    let found = found_outside(&["FindingId::documented("], &["diagnostic/id.rs"]);
    assert!(
        found.is_empty(),
        "ids made without finding_id!:\n{}",
        found.join("\n")
    );
}

#[test]
fn every_finding_id_is_a_rule_file_named_by_it() {
    // `src/rules/<id>.rs` declares the id `<id>` (a rule, a load error or an engine finding) and
    // `src/rules/mod.rs` registers it; `declare_rule!` is used nowhere else but in the engine's
    // stand-ins for its own tests.
    let code = code();
    let text_of = |file: &str| -> String {
        let lines = &code.iter().find(|(f, _)| f == file).expect("a file").1;
        lines.iter().map(|(_, line)| format!("{line}\n")).collect()
    };
    let list = text_of("rules/mod.rs");
    let mut problems = Vec::new();
    let mut rule_files = 0;
    for (file, _) in &code {
        let Some(id) = file
            .strip_prefix("rules/")
            .and_then(|f| f.strip_suffix(".rs"))
            .filter(|id| *id != "mod" && !id.contains('/'))
        else {
            continue;
        };
        rule_files += 1;
        let text = text_of(file);
        if !text.contains(&format!("declare_rule! {{\n    id: \"{id}\",")) {
            problems.push(format!("src/{file}: does not declare the id `{id}`"));
        }
        for registered in [format!("mod {id};"), format!("&{id}::RULE,")] {
            if !list.lines().any(|line| line.trim() == registered) {
                problems.push(format!("src/rules/mod.rs: no `{registered}`"));
            }
        }
    }
    let allowed = ["lint/mod.rs", "lint/testing.rs"];
    let outside = found_outside(&["declare_rule! {"], &allowed);
    problems.extend(
        outside
            .into_iter()
            .filter(|line| !line.starts_with("src/rules/")),
    );
    assert!(rule_files > 60, "{rule_files} rule files");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
