//! `tflint-merge server`, driven over stdio as an editor drives it: initialize, open a buffer,
//! edit `main.tf` so that `override.tf` breaks (its diagnostics are published), fix it (they are
//! cleared), ask for a code action and a hover, then shut down and exit. Also the position
//! encodings (UTF-16 and UTF-8 columns of a line with non-ASCII text) and a real editor:
//! Neovim's built-in client, headless, when `nvim` is installed.

mod lsp_client;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use lsp_client::{Client, uri};
use serde_json::{Value, json};

fn codes(diagnostics: &[Value]) -> Vec<&str> {
    diagnostics
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect()
}

const BASE: &str = "resource \"aws_instance\" \"web\" {\n  ami           = \"ami-1\"\n  \
                    instance_type = \"t3.micro\"\n  monitoring    = true\n}\n";
const OVERRIDE: &str = "resource \"aws_instance\" \"web\" {\n  ami           = \"ami-2\"\n  \
                        instance_type = \"t3.small\"\n}\n";

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("main.tf"), BASE).expect("write main.tf");
    std::fs::write(dir.path().join("override.tf"), OVERRIDE).expect("write override.tf");
    dir
}

#[test]
fn an_edit_of_main_tf_breaks_and_fixes_override_tf() {
    let dir = workspace();
    let root = dir.path().canonicalize().expect("canonical root");
    let (main, over) = (root.join("main.tf"), root.join("override.tf"));
    let mut client = Client::start(&root, json!({}), Value::Null);
    client.open(&main, BASE);
    assert_eq!(client.diagnostics("override.tf"), Vec::<Value>::new());

    // Renaming the base resource leaves the override without a base: a finding in the other
    // file, published for it.
    client.change(&main, 2, &BASE.replace("\"web\"", "\"app\""));
    let found = client.diagnostics("override.tf");
    assert_eq!(codes(&found), ["override_without_base"], "{found:#?}");
    let d = &found[0];
    assert_eq!(d["range"]["start"], json!({"line": 0, "character": 0}));
    assert_eq!(d["severity"], 1);
    assert_eq!(d["source"], "tflint-merge");
    let link = d["codeDescription"]["href"].as_str().expect("a doc link");
    assert!(link.ends_with("/rules/override_without_base.md"), "{link}");
    assert!(
        d["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("Missing resource to override"))
    );

    // The fix clears them.
    client.change(&main, 3, BASE);
    assert_eq!(client.diagnostics("override.tf"), Vec::<Value>::new());

    // The override now sets `ami` to what the base has: a rule finding, which can be ignored.
    client.change(&main, 4, &BASE.replace("ami-1", "ami-2"));
    let found = client.diagnostics("override.tf");
    assert_eq!(codes(&found), ["override_noop"], "{found:#?}");
    let related = found[0]["relatedInformation"]
        .as_array()
        .expect("related information");
    let in_main = |r: &&Value| {
        r["location"]["uri"]
            .as_str()
            .is_some_and(|u| u.ends_with("/main.tf"))
    };
    let base = related
        .iter()
        .find(in_main)
        .expect("the base's value, in main.tf");
    assert_eq!(base["message"], "already set here");
    assert_eq!(
        base["location"]["range"]["start"],
        json!({"line": 1, "character": 2})
    );
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri(&over)},
            "range": found[0]["range"],
            "context": {"diagnostics": [found[0]]},
        }),
    );
    // First the finding's safe fix, as `--fix` would apply it: the preferred action.
    let fix = &actions[0];
    assert_eq!(fix["kind"], "quickfix", "{actions:#}");
    assert_eq!(fix["title"], "Remove the restated `ami`", "{actions:#}");
    assert_eq!(fix["isPreferred"], true);
    let removal = &fix["edit"]["changes"][uri(&over)];
    assert_eq!(
        removal,
        &json!([{"newText": "", "range": {
            "start": {"line": 1, "character": 0}, "end": {"line": 2, "character": 0}}}]),
        "the line of `ami`"
    );
    // Then "ignore this finding".
    let action = &actions[1];
    assert_eq!(action["isPreferred"], false);
    assert!(
        action["title"]
            .as_str()
            .is_some_and(|t| t.contains("override_noop"))
    );
    let edits = &action["edit"]["changes"][uri(&over)];
    assert_eq!(
        edits[0]["newText"], "# tflint-merge-ignore: override_noop\n",
        "{actions:#}"
    );
    assert_eq!(
        edits[0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );

    // Hover on `ami` in the override: the effective value and where it comes from.
    let text = client.hover(&over, 1, 3);
    // Both views say the same: said once, naming no view.
    assert!(
        text.starts_with("**resource `aws_instance.web`**")
            && text.contains(
                "`ami` = `\"ami-2\"` — override.tf:2 (override file), replacing main.tf:2"
            ),
        "{text}"
    );
    // On the base's header: every effective value.
    let text = client.hover(&main, 0, 2);
    assert!(
        text.contains("main.tf:1, overridden by override.tf:1")
            && text.contains("`monitoring` = `true` — main.tf:4 (base file)")
            && text.contains(
                "`instance_type` = `\"t3.small\"` — override.tf:3 (override file), replacing \
                 main.tf:3"
            ),
        "{text}"
    );
    // The ignore comment, applied to the buffer, silences the finding (and is used).
    let ignored = format!(
        "{}{OVERRIDE}",
        edits[0]["newText"].as_str().expect("the comment")
    );
    client.open(&over, &ignored);
    assert_eq!(client.diagnostics("override.tf"), Vec::<Value>::new());
    // The fix, applied to the buffer instead, leaves nothing to report either.
    let mut lines: Vec<&str> = OVERRIDE.split_inclusive('\n').collect();
    lines.remove(1);
    client.change(&over, 2, &lines.concat());
    assert_eq!(client.diagnostics("override.tf"), Vec::<Value>::new());
    client.shut_down();
}

/// Columns are UTF-16 code units unless the client offers UTF-8: `é` is one unit or two bytes.
#[test]
fn positions_follow_the_negotiated_encoding() {
    for (offered, encoding, end) in [
        (json!(["utf-16"]), "utf-16", 29),
        (json!(["utf-8", "utf-16"]), "utf-8", 30),
    ] {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().expect("canonical root");
        std::fs::write(root.join("main.tf"), "variable \"a\" {}\n").expect("write");
        let text = "resource \"aws_instance\" \"wéb\" {\n  ami = \"x\"\n}\n";
        std::fs::write(root.join("override.tf"), text).expect("write");
        let capabilities = json!({"general": {"positionEncodings": offered}});
        let mut client = Client::start(&root, capabilities, Value::Null);
        client.open(&root.join("override.tf"), text);
        let found = client.diagnostics("override.tf");
        assert_eq!(codes(&found), ["override_without_base"], "{found:#?}");
        assert_eq!(
            found[0]["range"]["end"],
            json!({"line": 0, "character": end}),
            "{encoding}"
        );
        client.shut_down();
    }
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// `nvim` on `PATH`; outside CI, its absence is said (`skipped: ...`) and the test passes.
fn neovim() -> Option<std::path::PathBuf> {
    let found = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("nvim"))
            .find(|candidate| candidate.is_file())
    });
    if found.is_none() {
        assert!(
            !in_ci(),
            "nvim is not installed: `.ci/run` installs Debian's neovim"
        );
        // To the process's stderr, which the harness does not capture: `cargo test` must say
        // what it did not test.
        let _ = writeln!(
            std::io::stderr(),
            "skipped: nvim not installed (`bash .ci/run` installs it)"
        );
    }
    found
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read examples") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

/// `file:line:col: severity[code] message` of each finding in `dir`, as the command line reports
/// it, for comparison with what Neovim received.
fn command_line_findings(dir: &Path) -> Vec<String> {
    let output = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .args(["--format", "json", "."])
        .current_dir(dir)
        .output()
        .expect("run tflint-merge");
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    let mut lines: Vec<String> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|d| {
            let severity = match d["severity"].as_str() {
                Some("notice") => "information",
                other => other.unwrap_or("?"),
            };
            let file = d["file"]
                .as_str()
                .unwrap_or_default()
                .rsplit('/')
                .next()
                .unwrap_or("");
            format!(
                "{file}:{}:{}: {severity}[{}] {}{}",
                d["start"]["line"],
                d["start"]["column"],
                d["rule"].as_str().unwrap_or_default(),
                d["message"].as_str().unwrap_or_default(),
                match d["views"].as_array().map(Vec::len) {
                    Some(1) if d["views"][0] == "terraform" => " (Terraform only)".to_string(),
                    Some(1) => " (OpenTofu only)".to_string(),
                    _ => String::new(),
                }
            )
        })
        .collect();
    lines.sort();
    lines
}

/// A real editor: Neovim's built-in client, headless, opens `web/main.tf` of a copy of
/// `examples/`, receives the findings of `override.tf` (another file), then an edit of the
/// buffer renames a variable that `override.tf` overrides, and the override's new finding
/// arrives. What Neovim received is what the command line reports. Before the edit, Neovim
/// asks for the definition and the references of a use of that variable, and receives both
/// files' blocks.
#[test]
fn neovim_receives_the_findings_of_examples() {
    let Some(nvim) = neovim() else { return };
    let copy = tempfile::tempdir().expect("tempdir");
    let root = copy.path().canonicalize().expect("canonical root");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"),
        &root,
    );
    let web = root.join("web");
    let expected_opened = command_line_findings(&web);

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/nvim/lsp_client.lua");
    let mut child = Command::new(nvim)
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("TFLINT_MERGE", env!("CARGO_BIN_EXE_tflint-merge"))
        .env("ROOT", &root)
        .env("FILE", web.join("main.tf"))
        .env("RENAME_FROM", "variable \"replicas\"")
        .env("RENAME_TO", "variable \"replica_count\"")
        .env("EDIT_FINDING", "override_without_base:7")
        // `var.replicas`, which override.tf overrides.
        .env("NAVIGATE_AT", "32:32")
        .current_dir(&root)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start nvim");
    let deadline = Instant::now() + Duration::from_secs(90);
    while child.try_wait().expect("wait for nvim").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().expect("nvim's output");
    let printed = String::from_utf8_lossy(&output.stdout).into_owned();
    let context = format!(
        "{printed}\nstderr:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "nvim failed:\n{context}");

    let phase = |name: &str| -> Vec<String> {
        let start = printed.find(&format!("== {name}\n")).expect(name) + name.len() + 4;
        let rest = &printed[start..];
        let end = rest.find("== ").unwrap_or(rest.len());
        rest[..end].lines().map(str::to_string).collect()
    };
    let opened = phase("OPENED");
    assert_eq!(opened, expected_opened, "{context}");
    assert!(
        opened.iter().any(|l| l.starts_with("override.tf:")),
        "{context}"
    );

    // Go to definition on `var.replicas`: its declaration, then the override merged into it;
    // its references: the one use.
    assert_eq!(
        phase("DEFINITION"),
        ["main.tf:7:1", "override.tf:7:1"],
        "{context}"
    );
    assert_eq!(phase("REFERENCES"), ["main.tf:32:28"], "{context}");

    // Neovim's buffer was never saved: the command line sees it once it is.
    let edited_main = std::fs::read_to_string(web.join("main.tf"))
        .expect("read main.tf")
        .replace("variable \"replicas\"", "variable \"replica_count\"");
    std::fs::write(web.join("main.tf"), edited_main).expect("write main.tf");
    let edited = phase("EDITED");
    assert_eq!(edited, command_line_findings(&web), "{context}");
    assert!(
        edited
            .iter()
            .any(|l| l.starts_with("override.tf:7:1: error[override_without_base]")),
        "{context}"
    );
    assert!(printed.contains("== STOPPED"), "{context}");
}

/// A workspace where the override restates the base's `ami`: an `override_noop` warning.
fn workspace_with_noop() -> (tempfile::TempDir, std::path::PathBuf, String) {
    let dir = workspace();
    let root = dir.path().canonicalize().expect("canonical root");
    let base = BASE.replace("ami-1", "ami-2");
    std::fs::write(root.join("main.tf"), &base).expect("write main.tf");
    (dir, root, base)
}

/// `initializationOptions` set rule severities on top of the config file.
#[test]
fn initialization_options_set_severities() {
    let (_dir, root, base) = workspace_with_noop();
    let options = json!({"rules": {"override_noop": "error"}});
    let mut client = Client::start(&root, json!({}), options);
    client.open(&root.join("main.tf"), &base);
    let found = client.diagnostics("override.tf");
    assert_eq!(codes(&found), ["override_noop"], "{found:#?}");
    assert_eq!(found[0]["severity"], 1, "an error, as the options say");
    client.shut_down();
}

/// The server asks to be told of changed files, and a changed `.tflint-merge.yaml` is read
/// again: the directory is checked again with it.
#[test]
fn a_changed_config_file_is_read_again() {
    let (_dir, root, base) = workspace_with_noop();
    let capabilities =
        json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}});
    let mut client = Client::start(&root, capabilities, Value::Null);
    let registration = client.wait_for("the watcher registration", |m| {
        m["method"] == "client/registerCapability"
    });
    let watched = &registration["params"]["registrations"][0];
    assert_eq!(
        watched["method"], "workspace/didChangeWatchedFiles",
        "{registration}"
    );
    client.open(&root.join("main.tf"), &base);
    assert_eq!(codes(&client.diagnostics("override.tf")), ["override_noop"]);

    let config = root.join(".tflint-merge.yaml");
    std::fs::write(&config, "rules:\n  override_noop: off\n").expect("write the config");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&config), "type": 1}]}),
    );
    assert_eq!(client.diagnostics("override.tf"), Vec::<Value>::new());

    // Saved from the editor: read again too.
    std::fs::write(&config, "rules:\n  override_noop: warning\n").expect("write the config");
    client.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri(&config)}}),
    );
    assert_eq!(codes(&client.diagnostics("override.tf")), ["override_noop"]);
    client.shut_down();
}

/// A Terragrunt `.hcl` buffer re-checks the tree, unsaved text included; its findings are
/// published for it, and cleared once fixed.
#[test]
fn an_edited_terragrunt_file_rechecks_the_tree() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical root");
    std::fs::create_dir(root.join("app")).expect("mkdir");
    let parent = "locals {\n  common = read_terragrunt_config(\"common.hcl\")\n}\n";
    std::fs::write(root.join("root.hcl"), parent).expect("write root.hcl");
    let unit = "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n";
    std::fs::write(root.join("app/terragrunt.hcl"), unit).expect("write the unit");
    let mut client = Client::start(&root, json!({}), Value::Null);
    client.open(&root.join("root.hcl"), parent);
    let found = client.diagnostics("root.hcl");
    assert_eq!(
        codes(&found),
        ["terragrunt_config_path_missing"],
        "{found:#?}"
    );
    client.change(&root.join("root.hcl"), 2, "locals {}\n");
    assert_eq!(client.diagnostics("root.hcl"), Vec::<Value>::new());
    client.shut_down();
}

/// A directory the config file excludes is not checked, as on the command line: once excluded,
/// what was published for it is cleared.
#[test]
fn excluded_directories_are_not_checked() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical root");
    let legacy = root.join("legacy");
    std::fs::create_dir(&legacy).expect("mkdir");
    std::fs::write(legacy.join("main.tf"), "variable \"a\" {}\n").expect("write");
    let text = "variable \"b\" {}\n";
    std::fs::write(legacy.join("override.tf"), text).expect("write");
    let mut client = Client::start(&root, json!({}), Value::Null);
    client.open(&legacy.join("override.tf"), text);
    assert_eq!(
        codes(&client.diagnostics("override.tf")),
        ["override_without_base"]
    );

    let config = root.join(".tflint-merge.yaml");
    std::fs::write(&config, "exclude:\n  - legacy\n").expect("write the config");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&config), "type": 1}]}),
    );
    assert_eq!(client.diagnostics("override.tf"), Vec::<Value>::new());
    client.shut_down();
}

/// The config file's `per_path` levels and file excludes apply to what the server publishes,
/// as on the command line.
#[test]
fn per_path_levels_and_excluded_files_apply_to_published_findings() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical root");
    let legacy = root.join("legacy");
    std::fs::create_dir(&legacy).expect("mkdir");
    let noop = "variable \"a\" {\n  default = 1\n}\n";
    std::fs::write(legacy.join("main.tf"), noop).expect("write");
    std::fs::write(legacy.join("override.tf"), noop).expect("write");
    let config = root.join(".tflint-merge.yaml");
    std::fs::write(&config, "per_path:\n  legacy:\n    override_noop: notice\n")
        .expect("write the config");
    let mut client = Client::start(&root, json!({}), Value::Null);
    client.open(&legacy.join("override.tf"), noop);
    let published = client.diagnostics("override.tf");
    assert_eq!(codes(&published), ["override_noop"]);
    // LSP's severity 3 is information: tflint-merge's notice.
    assert_eq!(published[0]["severity"], 3, "{published:?}");
    // An excluded file: its module is checked, its findings are not published.
    std::fs::write(&config, "exclude: [legacy/override.tf]\n").expect("write the config");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&config), "type": 2}]}),
    );
    assert_eq!(client.diagnostics("override.tf"), Vec::<Value>::new());
    client.shut_down();
}

/// A document with more findings of one rule than the command line shows: the server
/// publishes as many, and one diagnostic that says how many more there are.
#[test]
fn published_diagnostics_are_bounded_per_rule_and_document() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical root");
    let pairs: Vec<String> = (0..1_510).map(|i| format!("\"k{}\":1", i % 10)).collect();
    let text = format!("{{\"locals\":{{{}}}}}", pairs.join(","));
    std::fs::write(root.join("main.tf.json"), &text).expect("write");
    let mut client = Client::start(&root, json!({}), Value::Null);
    client.open(&root.join("main.tf.json"), &text);
    let published = client.diagnostics("main.tf.json");
    assert_eq!(published.len(), 1_001);
    let more = "500 more `duplicate_definition` findings in this file are not shown";
    let said = |d: &&Value| d["message"].as_str().is_some_and(|m| m.starts_with(more));
    assert_eq!(published.iter().filter(said).count(), 1, "no `{more}`");
    client.shut_down();
}

/// A request with malformed parameters is an InvalidParams error that names the method and
/// the problem in the protocol's terms, not the server's Rust types.
#[test]
fn malformed_params_are_explained_without_type_names() {
    let dir = workspace();
    let root = dir.path().canonicalize().expect("canonical root");
    let mut client = Client::start(&root, json!({}), json!({}));
    let answer = client.answer("textDocument/hover", json!("not an object"));
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    assert_eq!(
        answer["error"]["message"],
        "textDocument/hover: invalid params: invalid type: string \"not an object\", expected \
         an object",
        "{answer}"
    );
    let answer = client.answer("textDocument/codeAction", json!({"textDocument": 1}));
    let message = answer["error"]["message"].as_str().expect("message");
    assert!(
        message.starts_with("textDocument/codeAction: invalid params: "),
        "{message}"
    );
    assert!(!message.contains("Params"), "{message}");
    assert!(!message.contains("Identifier"), "{message}");
    client.shut_down();
}

/// `exit` without `shutdown` ends the server with exit code 1, as the protocol says; after
/// `shutdown` it is 0 (every other test).
#[test]
fn exit_without_shutdown_is_exit_code_1() {
    let dir = workspace();
    let root = dir.path().canonicalize().expect("canonical root");
    let client = Client::start(&root, json!({}), json!({}));
    assert_eq!(client.exit_abruptly(), Some(1));
}

/// Diagnostics carry the version of the buffer they were found in; a file that is not open
/// has none.
#[test]
fn diagnostics_carry_the_version_of_the_buffer_checked() {
    let dir = workspace();
    let root = dir.path().canonicalize().expect("canonical root");
    let mut client = Client::start(&root, json!({}), json!({}));
    let main = root.join("main.tf");
    client.open(&main, BASE);
    assert_eq!(client.publication("main.tf")["version"], 1);
    assert_eq!(client.publication("override.tf")["version"], Value::Null);
    client.change(&main, 7, &BASE.replace("\"web\"", "\"app\""));
    assert_eq!(client.publication("main.tf")["version"], 7);
    client.shut_down();
}

/// Editing a local module checks the directories that call it again: a provider configuration
/// added to the called module makes the caller's `count` an error there.
#[test]
fn an_edit_of_a_called_module_rechecks_its_callers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical root");
    let caller = "module \"app\" {\n  source = \"../app\"\n  count  = 2\n}\n";
    let called = "variable \"name\" {\n  default = \"x\"\n}\n";
    std::fs::create_dir_all(root.join("live")).expect("mkdir live");
    std::fs::create_dir_all(root.join("app")).expect("mkdir app");
    std::fs::write(root.join("live/main.tf"), caller).expect("write the caller");
    std::fs::write(root.join("app/main.tf"), called).expect("write the module");
    let mut client = Client::start(&root, json!({}), json!({}));
    client.open(&root.join("live/main.tf"), caller);
    assert_eq!(codes(&client.diagnostics("main.tf")), Vec::<&str>::new());
    let configures = format!("{called}provider \"aws\" {{\n  region = \"eu-west-1\"\n}}\n");
    client.open(&root.join("app/main.tf"), called);
    client.change(&root.join("app/main.tf"), 2, &configures);
    let found = client.wait_for("the caller's legacy-module finding", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"]
                .as_str()
                .is_some_and(|u| u.ends_with("/live/main.tf"))
            && !m["params"]["diagnostics"]
                .as_array()
                .is_none_or(Vec::is_empty)
    });
    let diagnostics = found["params"]["diagnostics"].as_array().expect("a list");
    // One per view: the two tools word it differently.
    assert!(
        codes(diagnostics)
            .iter()
            .all(|&code| code == "legacy_module_meta_argument"),
        "{diagnostics:#?}"
    );
    client.shut_down();
}

/// A `Content-Length` of 10^11 is refused at once with an error answer, without the server
/// taking the memory it names; the messages after its short body are read and answered.
#[test]
fn a_huge_content_length_is_refused_and_the_session_goes_on() {
    let dir = workspace();
    let root = dir.path().canonicalize().expect("canonical root");
    let main = root.join("main.tf");
    let mut client = Client::start(&root, json!({}), json!({}));
    let body = r#"{"jsonrpc":"2.0","id":"huge","method":"textDocument/hover","params":{}}"#;
    client.send_raw(format!("Content-Length: 100000000000\r\n\r\n{body}").as_bytes());
    let answer = client.wait_for("the refusal", |m| m["id"] == "huge");
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("100000000000 bytes"), "{answer}");
    client.open(&main, BASE);
    assert_eq!(client.diagnostics("main.tf"), Vec::<Value>::new());
    assert!(
        client
            .hover(&main, 0, 2)
            .contains("overridden by override.tf:1")
    );
    if let Some(peak) = client.peak_rss_kib() {
        assert!(peak < 100 * 1024, "peak RSS {peak} KiB");
    }
    client.shut_down();
}

/// While one directory's buffer holds text whose check takes long (a few megabytes of
/// arguments), another directory is checked and its hover answered at once; an edit of the
/// slow buffer is checked without waiting for the stale check.
#[test]
fn a_slow_directory_delays_no_other() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical root");
    for sub in ["slow", "fast"] {
        std::fs::create_dir_all(root.join(sub)).expect("mkdir");
    }
    let fast = root.join("fast/main.tf");
    std::fs::write(&fast, BASE).expect("write");
    std::fs::write(root.join("fast/override.tf"), OVERRIDE).expect("write");
    let slow = root.join("slow/main.tf");
    let items: String = (0..150_000)
        .map(|i| format!("  k{i} = [for x in var.l : \"${{x}}-{i}\" if x != \"a\"]\n"))
        .collect();
    let slow_text = format!("locals {{\n{items}}}\n");
    std::fs::write(&slow, "").expect("write");
    let mut client = Client::start(&root, json!({}), json!({}));
    client.open(&slow, &slow_text);
    // Past the debounce: the slow check is under way.
    std::thread::sleep(Duration::from_millis(500));
    let start = Instant::now();
    client.open(&fast, BASE);
    // The slow check may still publish first on a fast machine: the fast one must not wait.
    let is_fast = |p: &Value| {
        p["uri"]
            .as_str()
            .is_some_and(|u| u.ends_with("fast/main.tf"))
    };
    let mut published = client.publication("main.tf");
    if !is_fast(&published) {
        published = client.publication("main.tf");
    }
    assert!(is_fast(&published), "{published}");
    assert!(
        client
            .hover(&fast, 0, 2)
            .contains("overridden by override.tf:1")
    );
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(5),
        "the other directory took {took:?}"
    );
    client.change(&slow, 2, "variable \"a\" {}\n");
    let published = client.publication("main.tf");
    assert!(
        published["uri"]
            .as_str()
            .is_some_and(|u| u.ends_with("slow/main.tf"))
    );
    client.shut_down();
}

/// A module whose variable and local value an override file sets again, a local module call
/// whose output is read, and uses in both files.
fn navigation_workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    write(
        "main.tf",
        "variable \"size\" {\n  default = \"small\"\n}\nlocals {\n  name = \"web\"\n}\n\
         module \"net\" {\n  source = \"./net\"\n}\n\
         resource \"aws_instance\" \"web\" {\n  instance_type = var.size\n  \
         tags          = { Name = local.name }\n  subnet_id     = module.net.subnet\n}\n",
    );
    write(
        "override.tf",
        "variable \"size\" {\n  default = \"large\"\n}\nlocals {\n  name = \"app\"\n}\n\
         output \"size\" {\n  value = var.size\n}\n",
    );
    write(
        "net/main.tf",
        "output \"subnet\" {\n  value = \"subnet-1\"\n}\n",
    );
    dir
}

/// Where each location of a `Location[]` answer is: (file name, line, character).
fn places(answer: &Value) -> Vec<(String, u64, u64)> {
    (answer.as_array().into_iter().flatten())
        .map(|location| {
            let uri = location["uri"].as_str().unwrap_or_default();
            let name = uri.rsplit('/').next().unwrap_or_default().to_string();
            let start = &location["range"]["start"];
            let at = |key: &str| start[key].as_u64().unwrap_or(u64::MAX);
            (name, at("line"), at("character"))
        })
        .collect()
}

fn place(name: &str, line: u64, character: u64) -> (String, u64, u64) {
    (name.to_string(), line, character)
}

#[test]
fn definition_and_references_cross_override_files() {
    let dir = navigation_workspace();
    let root = dir.path().canonicalize().expect("canonical root");
    let (main, over) = (root.join("main.tf"), root.join("override.tf"));
    let mut client = Client::start(&root, json!({}), Value::Null);
    let main_text = std::fs::read_to_string(&main).expect("main.tf");
    client.open(&main, &main_text);
    client.diagnostics("main.tf");
    let at = |path: &Path, line: u32, character: u32| {
        json!({
            "textDocument": {"uri": uri(path)},
            "position": {"line": line, "character": character},
        })
    };

    // `var.size` in main.tf: the declaration, then the override block merged into it.
    let found = client.request("textDocument/definition", at(&main, 10, 22));
    assert_eq!(
        places(&found),
        [place("main.tf", 0, 0), place("override.tf", 0, 0)],
        "{found:#}"
    );
    // `local.name`: the override's definition, in effect, first.
    let found = client.request("textDocument/definition", at(&main, 11, 30));
    assert_eq!(
        places(&found),
        [place("override.tf", 4, 2), place("main.tf", 4, 2)],
        "{found:#}"
    );
    // `module.net.subnet`: the output block of the called module.
    let found = client.request("textDocument/definition", at(&main, 12, 30));
    assert_eq!(places(&found), [place("main.tf", 0, 0)], "{found:#}");
    let target = found[0]["uri"].as_str().unwrap_or_default();
    assert!(target.ends_with("/net/main.tf"), "{target}");
    // `module.net` alone: the call.
    let found = client.request("textDocument/definition", at(&main, 12, 20));
    assert_eq!(places(&found), [place("main.tf", 6, 0)], "{found:#}");

    // Every use of the variable, in both files, from the override's use of it.
    let mut params = at(&over, 7, 12);
    params["context"] = json!({"includeDeclaration": false});
    let found = client.request("textDocument/references", params.clone());
    assert_eq!(
        places(&found),
        [place("main.tf", 10, 18), place("override.tf", 7, 10)],
        "{found:#}"
    );
    // With the declarations, first; and from the declaration's header.
    params["context"] = json!({"includeDeclaration": true});
    params["position"] = json!({"line": 0, "character": 3});
    let found = client.request("textDocument/references", params);
    assert_eq!(
        places(&found),
        [
            place("main.tf", 0, 0),
            place("override.tf", 0, 0),
            place("main.tf", 10, 18),
            place("override.tf", 7, 10),
        ],
        "{found:#}"
    );

    // Hover on a reference: what each override contributed to what it names.
    let text = client.hover(&main, 10, 22);
    assert!(
        text.starts_with("**variable `size`**: main.tf:1, overridden by override.tf:1")
            && text.contains(
                "`default` = `\"large\"` — override.tf:2 (override file), replacing main.tf:2"
            ),
        "{text}"
    );
    let text = client.hover(&main, 11, 30);
    assert!(
        text.contains("**local value `name`**: main.tf:5")
            && text.contains(
                "`name` = `\"app\"` — override.tf:5 (override file), replacing main.tf:5"
            ),
        "{text}"
    );
    client.shut_down();
}
