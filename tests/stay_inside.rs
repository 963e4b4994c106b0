//! A run reads only inside the paths it was given (and their Git work tree): a Terragrunt
//! `read_terragrunt_config` or `include` of a system file, a committed `.tf` symlinked to the
//! process environment, and directory links to `/`, `/proc` or elsewhere are reported, never
//! read, in every output format, in `merged`, `graph` and the language server.
//! `--follow-links` walks links out (never into `/proc`), `--allow-outside` reads elsewhere.

// Shared with tests/server.rs, which uses the whole client; this file needs only part of it.
#[allow(dead_code)]
mod lsp_client;

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use lsp_client::Client;
use serde_json::json;

const SECRET: &str = "hunter2";

/// How long a run that walks a few directories may take before it is taken for a walk into `/`
/// or `/proc` that never ends: long enough that a loaded two-core CI machine never reaches it
/// (such a run takes well under a second), so that it catches a hang and nothing else.
const HANG: Duration = Duration::from_secs(120);

/// [`tflint_merge`], ended (and the test failed) if it runs longer than [`HANG`]. Its output
/// goes to files, which never fill up as a pipe does while the run is waited for.
fn tflint_merge_or_hang(dir: &Path, args: &[&str]) -> Output {
    let out = tempfile::tempfile().expect("a file for stdout");
    let err = tempfile::tempfile().expect("a file for stderr");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .args(args)
        .current_dir(dir)
        .env("SECRET_TOKEN", SECRET)
        .stdout(out.try_clone().expect("stdout"))
        .stderr(err.try_clone().expect("stderr"))
        .spawn()
        .expect("run tflint-merge");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("tflint-merge {args:?} still ran after {HANG:?}: a walk that never ends");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let read = |mut file: std::fs::File| {
        use std::io::{Read, Seek};
        let mut bytes = Vec::new();
        file.rewind().expect("rewind");
        file.read_to_end(&mut bytes).expect("read");
        bytes
    };
    Output {
        status,
        stdout: read(out),
        stderr: read(err),
    }
}

fn tflint_merge(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .args(args)
        .current_dir(dir)
        .env("SECRET_TOKEN", SECRET)
        .output()
        .expect("run tflint-merge")
}

const FORMATS: [&str; 8] = [
    "human",
    "short",
    "json",
    "sarif",
    "github",
    "checkstyle",
    "junit",
    "gitlab",
];

/// Stdout and stderr of `args` in every format, each with its format.
fn every_format(dir: &Path, args: &[&str]) -> Vec<(String, String)> {
    FORMATS
        .iter()
        .map(|format| {
            let mut all = vec!["--format", format, "--color", "never"];
            all.extend(args);
            let output = tflint_merge(dir, &all);
            let text = String::from_utf8_lossy(&output.stdout).into_owned()
                + &String::from_utf8_lossy(&output.stderr);
            (format.to_string(), text)
        })
        .collect()
}

/// Panics when an output holds `leaked`, or does not hold `expected`.
fn assert_every_format(dir: &Path, args: &[&str], leaked: &str, expected: &str) {
    for (format, text) in every_format(dir, args) {
        assert!(
            !text.contains(leaked),
            "{format}: {leaked:?} leaked:\n{text}"
        );
        assert!(
            text.contains(expected),
            "{format}: no {expected:?}:\n{text}"
        );
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

#[test]
fn read_terragrunt_config_of_the_environment_is_not_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let unit = "locals {\n  a = read_terragrunt_config(\"/proc/self/environ\")\n}\n";
    write(&dir.path().join("app/terragrunt.hcl"), unit);
    assert_every_format(dir.path(), &["."], SECRET, "outside the checked paths");
    let graph = tflint_merge(dir.path(), &["graph", "."]);
    let text = String::from_utf8_lossy(&graph.stdout) + String::from_utf8_lossy(&graph.stderr);
    assert!(!text.contains(SECRET), "graph: {text}");
}

#[test]
fn an_include_of_etc_passwd_is_not_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        &dir.path().join("app/terragrunt.hcl"),
        "include {\n  path = \"/etc/passwd\"\n}\n",
    );
    // The first line of every /etc/passwd.
    assert_every_format(dir.path(), &["."], "root:", "outside the checked paths");
}

#[test]
fn a_committed_file_linked_to_the_environment_is_not_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(&dir.path().join("m/main.tf"), "variable \"a\" {}\n");
    symlink("/proc/self/environ", dir.path().join("m/env.tf")).expect("symlink");
    assert_every_format(dir.path(), &["."], SECRET, "env.tf");
    assert_every_format(dir.path(), &["."], SECRET, "outside the checked paths");
    let merged = tflint_merge(dir.path(), &["merged", "m"]);
    let text = String::from_utf8_lossy(&merged.stdout) + String::from_utf8_lossy(&merged.stderr);
    assert!(!text.contains(SECRET), "merged: {text}");
}

/// A module with links to `/`, `/proc` and a directory outside with a broken file.
fn module_with_links(links: &[(&str, &Path)]) -> (tempfile::TempDir, tempfile::TempDir) {
    let root = tempfile::tempdir().expect("tempdir");
    let outside = tempfile::tempdir().expect("tempdir");
    write(&outside.path().join("mod/broken.tf"), "variable {\n");
    write(&root.path().join("m/main.tf"), "variable \"a\" {}\n");
    for (name, target) in links {
        let target = if target.is_relative() {
            outside.path().join(target)
        } else {
            target.to_path_buf()
        };
        symlink(target, root.path().join("m").join(name)).expect("symlink");
    }
    (root, outside)
}

#[test]
fn directory_links_out_are_noted_once_and_not_walked() {
    let links: [(&str, &Path); 3] = [
        ("rootfs", Path::new("/")),
        ("proc", Path::new("/proc")),
        ("elsewhere", Path::new("mod")),
    ];
    let (root, _outside) = module_with_links(&links);
    let output = tflint_merge_or_hang(root.path(), &["--format", "json", "."]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(!stdout.contains("broken.tf"), "{stdout}");
    for (name, _) in links {
        let notice = format!("notice: m/{name}: a link to ");
        assert_eq!(stderr.matches(&notice).count(), 1, "{name}: {stderr}");
    }
    assert_eq!(stderr.matches("notice:").count(), 3, "{stderr}");
    for (format, text) in every_format(root.path(), &["."]) {
        assert!(!text.contains("broken.tf"), "{format}: {text}");
        assert!(!text.contains("/etc/"), "{format}: {text}");
    }
}

#[test]
fn follow_links_walks_out_but_never_into_proc() {
    let links: [(&str, &Path); 2] = [
        ("proc", Path::new("/proc")),
        ("elsewhere", Path::new("mod")),
    ];
    let (root, _outside) = module_with_links(&links);
    let output = tflint_merge_or_hang(root.path(), &["--format", "json", "--follow-links", "."]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stdout.contains("m/elsewhere/broken.tf"),
        "{stdout}\n{stderr}"
    );
    assert!(!stdout.contains("m/proc"), "{stdout}");
    assert_eq!(stderr.matches("notice: m/proc: a link to /proc").count(), 1);
    assert_eq!(stderr.matches("notice:").count(), 1, "{stderr}");
}

#[test]
fn allow_outside_reads_an_include_elsewhere() {
    let root = tempfile::tempdir().expect("tempdir");
    let outside = tempfile::tempdir().expect("tempdir");
    let common = outside.path().join("common.hcl");
    write(&common, "locals {\n");
    let include = format!("include {{\n  path = \"{}\"\n}}\n", common.display());
    write(&root.path().join("app/terragrunt.hcl"), &include);
    let refused = tflint_merge(root.path(), &["--format", "json", "."]);
    let refused = String::from_utf8_lossy(&refused.stdout);
    assert!(refused.contains("outside the checked paths"), "{refused}");
    assert!(!refused.contains("syntax_error"), "{refused}");
    let allow = outside.path().to_str().expect("UTF-8");
    let read = tflint_merge(
        root.path(),
        &["--format", "json", "--allow-outside", allow, "."],
    );
    let read = String::from_utf8_lossy(&read.stdout);
    assert!(read.contains("syntax_error"), "{read}");
    assert!(!read.contains("outside the checked paths"), "{read}");
}

/// The language server reads nothing outside its workspace: a `.tf` linked to a file outside
/// is a `read_error`, never parsed (a parse error would quote it).
#[test]
fn the_language_server_reads_nothing_outside_the_workspace() {
    let workspace = tempfile::tempdir().expect("tempdir");
    let outside = tempfile::tempdir().expect("tempdir");
    let root = workspace.path().canonicalize().expect("canonical");
    write(
        &outside.path().join("secret.tf"),
        "SECRET_TOKEN=hunter2 {\n",
    );
    let main = "variable \"a\" {}\n";
    write(&root.join("main.tf"), main);
    symlink(outside.path().join("secret.tf"), root.join("env.tf")).expect("symlink");
    let mut client = Client::start(&root, json!({}), json!({}));
    client.open(&root.join("main.tf"), main);
    let found = client.diagnostics("env.tf");
    let text = serde_json::to_string(&found).expect("JSON");
    assert!(!text.contains(SECRET), "{text}");
    assert!(text.contains("read_error"), "{text}");
    assert!(text.contains("outside the checked paths"), "{text}");
    client.shut_down();
}

/// A committed config file linked to the environment is not read (its parse error quoted it).
#[test]
fn a_config_file_linked_to_the_environment_is_not_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(&dir.path().join("m/main.tf"), "variable \"a\" {}\n");
    symlink("/proc/self/environ", dir.path().join(".tflint-merge.yaml")).expect("symlink");
    let output = tflint_merge(dir.path(), &["m"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains(SECRET), "{stderr}");
    assert!(stderr.contains("outside the checked paths"), "{stderr}");
}
