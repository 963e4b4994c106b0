//! Integrations, tested against the real tools: the pre-commit hook run by `pre-commit`, SARIF
//! validated against the official SARIF 2.1.0 schema, `action.yml` and the README's CI
//! snippets checked by actionlint, check-jsonschema and `pre-commit validate-*`, the action's
//! run step executed as the runner does, and every output format snapshotted on file names and
//! messages that need escaping.
//!
//! The tools come from `$TFLINT_MERGE_CI_BIN` (where `.ci/run` installs them) or `PATH`. When
//! one is missing, a test fails under `CI=true` and otherwise prints
//! `skipped: <tool> not installed` and returns.
//!
//! `tests/sarif-schema-2.1.0.json` is the OASIS SARIF 2.1.0 schema (errata01,
//! `https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json`),
//! as `Schemata/sarif-schema-2.1.0.json` of github.com/oasis-tcs/sarif-spec at commit
//! 0a8091f7d4057e57b6d8d9b56129e5f918747b34, unmodified.
#![cfg(unix)]

use std::collections::BTreeMap;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn tflint_merge() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tflint-merge"));
    command.env_remove("NO_COLOR");
    command
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

fn find_tool(name: &str) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Some(ci_bin) = std::env::var_os("TFLINT_MERGE_CI_BIN") {
        dirs.push(ci_bin.into());
    }
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    dirs.into_iter().map(|d| d.join(name)).find(|p| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    })
}

/// The first of `names` that is installed. None (after saying so) when none is, outside CI;
/// in CI that is a failure.
fn require(names: &[&str]) -> Option<PathBuf> {
    if let Some(found) = names.iter().find_map(|n| find_tool(n)) {
        return Some(found);
    }
    let wanted = names.join(" or ");
    assert!(
        !in_ci(),
        "{wanted} is not installed: `.ci/run` installs it into $TFLINT_MERGE_CI_BIN ({:?}); \
         CI must not skip this test",
        std::env::var_os("TFLINT_MERGE_CI_BIN")
    );
    // Written to the process's stderr, not through `eprintln!`, which the test harness
    // captures and hides for a passing test: `cargo test` must say what it did not test.
    let _ = writeln!(
        std::io::stderr(),
        "skipped: {wanted} not installed (`bash .ci/run` installs it)"
    );
    None
}

fn run(command: &mut Command) -> Output {
    command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"))
}

/// Everything a command printed, for assertions and failure messages.
fn printed(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn write(root: &Path, name: &str, content: &str) {
    let path = root.join(name);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, content).expect("write");
}

// --- every format on names and messages that need escaping --------------------------------

/// `tests/fixtures/escaping/` as it is checked (see its README): stored under portable names.
const ESCAPING: [(&str, &str); 4] = [
    ("weird/main.tf", "we,ird:dir%/main.tf"),
    ("weird/override.tf", "we,ird:dir%/b,1:2%_override.tf"),
    ("weird/z_override.tf", "we,ird:dir%/z%,:_override.tf"),
    ("space/main.tf", "sp ace/main.tf"),
];

fn escaping_tree() -> tempfile::TempDir {
    let tree = tempfile::tempdir().expect("tempdir");
    let fixture = manifest().join("tests/fixtures/escaping");
    for (from, to) in ESCAPING {
        let text = std::fs::read_to_string(fixture.join(from)).expect("fixture");
        write(tree.path(), to, &text);
    }
    tree
}

/// Runs `--format FORMAT .` from the root of the escaping tree (so paths are relative).
fn render_escaping(format: &str) -> String {
    let tree = escaping_tree();
    let out = run(tflint_merge()
        .args(["--format", format, "--color", "never", "."])
        .current_dir(tree.path()));
    assert_eq!(out.status.code(), Some(1), "{}", printed(&out));
    assert!(out.stderr.is_empty(), "{}", printed(&out));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The tool's version, and SARIF's copy of every rule's documentation, are not what these
/// snapshots are about.
fn redact(format: &str, text: &str) -> String {
    let version = env!("CARGO_PKG_VERSION");
    match format {
        "json" => {
            let mut value: serde_json::Value = serde_json::from_str(text).expect("JSON");
            value["tool"]["version"] = "[version]".into();
            serde_json::to_string_pretty(&value).expect("JSON")
        }
        "sarif" => {
            let mut value: serde_json::Value = serde_json::from_str(text).expect("SARIF");
            let driver = &mut value["runs"][0]["tool"]["driver"];
            driver["version"] = "[version]".into();
            driver["semanticVersion"] = "[version]".into();
            let ids: Vec<serde_json::Value> = driver["rules"]
                .as_array()
                .expect("rules")
                .iter()
                .map(|r| r["id"].clone())
                .collect();
            driver["rules"] = format!("[{} rules: {}]", ids.len(), serde_json::Value::from(ids))
                .as_str()
                .into();
            serde_json::to_string_pretty(&value).expect("SARIF")
        }
        _ => text.replace(version, "[version]"),
    }
}

macro_rules! escaping_snapshot {
    ($($test:ident: $format:literal,)*) => {$(
        #[test]
        fn $test() {
            let text = render_escaping($format);
            insta::assert_snapshot!(concat!("escaping_", $format), redact($format, &text));
        }
    )*};
}

escaping_snapshot! {
    escaping_human: "human",
    escaping_short: "short",
    escaping_json: "json",
    escaping_sarif: "sarif",
    escaping_github: "github",
    escaping_checkstyle: "checkstyle",
    escaping_junit: "junit",
    escaping_gitlab: "gitlab",
}

/// Decodes a workflow command's `%XX` escapes, refusing anything the runner would not decode.
fn unescape_command(text: &str, property: bool) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        let code = rest.get(i + 1..i + 3).unwrap_or("");
        out.push(match code {
            "25" => '%',
            "0D" => '\r',
            "0A" => '\n',
            "3A" if property => ':',
            "2C" if property => ',',
            _ => panic!("`%{code}` is not a runner escape in {text:?}"),
        });
        rest = &rest[i + 3..];
    }
    out.push_str(rest);
    out
}

#[test]
fn github_lines_follow_the_runner_syntax() {
    let tree = escaping_tree();
    let out = run(tflint_merge()
        .args(["--format", "github", "."])
        .current_dir(tree.path()));
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    let (summary, findings) = lines.split_last().expect("output");
    assert_eq!(
        *summary,
        "::notice title=tflint-merge::tflint-merge: 7 errors, 2 warnings in 2 directories \
         (4 files); [*] 2 fixable with `--fix`"
    );
    let mut messages = Vec::new();
    let mut multi_line = 0;
    for line in findings {
        let rest = line.strip_prefix("::").expect("a workflow command");
        let (command, rest) = rest.split_once(' ').expect("command and properties");
        assert!(["error", "warning", "notice"].contains(&command), "{line}");
        let (properties, message) = rest.split_once("::").expect("`::` before the message");
        assert!(!message.contains(['\n', '\r']), "{line}");
        let mut values = BTreeMap::new();
        for property in properties.split(',') {
            let (key, value) = property.split_once('=').expect("key=value");
            assert!(!value.contains([':', '\n', '\r']), "{line}");
            assert!(values.insert(key, value).is_none(), "{key} twice: {line}");
        }
        let keys: Vec<&str> = properties
            .split(',')
            .map(|p| p.split_once('=').expect("key=value").0)
            .collect();
        let number = |key: &str| -> Option<usize> {
            values
                .get(key)
                .map(|v| v.parse().expect("a line or column number"))
        };
        let (line_no, end_line) = (
            number("line").expect("line"),
            number("endLine").expect("endLine"),
        );
        if line_no == end_line {
            assert_eq!(
                keys,
                ["file", "line", "col", "endLine", "endColumn", "title"],
                "{line}"
            );
            assert!(number("col") < number("endColumn"), "{line}");
        } else {
            // The runner drops columns of multi-line ranges: say only what it shows.
            assert_eq!(keys, ["file", "line", "endLine", "title"], "{line}");
            assert!(line_no < end_line);
            multi_line += 1;
        }
        let file = unescape_command(values["file"], true);
        assert!(
            tree.path().join(&file).is_file(),
            "`file` is no relative path of a checked file: {file:?}"
        );
        assert!(
            unescape_command(values["title"], true).starts_with("tflint-merge("),
            "{line}"
        );
        messages.push(unescape_command(message, false));
    }
    assert_eq!(findings.len(), 9); // three of them the invalid resource name, once per file
    assert_eq!(multi_line, 1, "the shadowed `tags` spans three lines");
    assert!(
        messages
            .iter()
            // The label's newline is escaped as in every text format: the runner unescapes
            // only those between the message's parts.
            .any(|m| m.starts_with("override of resource `aws_s3_bucket.logs:50%,\\nsecond line`")),
        "{messages:#?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("`z%,:_override.tf` replaces it")),
        "{messages:#?}"
    );
}

// --- SARIF against the official schema -----------------------------------------------------

#[test]
fn sarif_validates_against_the_sarif_2_1_0_schema() {
    let Some(check_jsonschema) = require(&["check-jsonschema"]) else {
        return;
    };
    let schema = manifest().join("tests/sarif-schema-2.1.0.json");
    let out_dir = tempfile::tempdir().expect("tempdir");

    // The README's command, from the checkout root.
    let examples = run(tflint_merge()
        .args(["--format", "sarif", "examples/"])
        .current_dir(manifest()));
    assert_eq!(examples.status.code(), Some(1), "{}", printed(&examples));
    let escaping = render_escaping("sarif");
    let clean_tree = tempfile::tempdir().expect("tempdir");
    write(
        clean_tree.path(),
        "m/main.tf",
        "resource \"terraform_data\" \"a\" {}\n",
    );
    let clean = run(tflint_merge()
        .args(["--format", "sarif", "."])
        .current_dir(clean_tree.path()));
    assert_eq!(clean.status.code(), Some(0), "{}", printed(&clean));

    // Fixes of every kind: edits, a deletion, a new file (a rename has no SARIF form).
    let fixes_tree = tempfile::tempdir().expect("tempdir");
    let instance = "resource \"terraform_data\" \"a\" {\n  input = 1\n}\n";
    write(fixes_tree.path(), "m/main.tf", instance);
    write(fixes_tree.path(), "m/x_override.tf", instance);
    write(
        fixes_tree.path(),
        "m/versions.tf",
        "language {\n  compatible_with {\n    opentofu = \">= 1.12\"\n  }\n}\n",
    );
    write(fixes_tree.path(), "m/main-override.tf", "locals {}\n");
    let fixes = run(tflint_merge()
        .args(["--format", "sarif", "--unsafe-fixes", "."])
        .current_dir(fixes_tree.path()));
    let fixes = String::from_utf8(fixes.stdout).expect("UTF-8");
    assert_eq!(fixes.matches("\"fixes\"").count(), 2, "{fixes}");

    let logs = [
        (
            "examples.sarif",
            String::from_utf8(examples.stdout).expect("UTF-8"),
        ),
        ("fixes.sarif", fixes),
        ("escaping.sarif", escaping.clone()),
        (
            "clean.sarif",
            String::from_utf8(clean.stdout).expect("UTF-8"),
        ),
    ];
    for (name, text) in &logs {
        std::fs::write(out_dir.path().join(name), text).expect("write");
        // What GitHub code scanning needs beyond the schema: one run, and every result's
        // ruleIndex naming its rule.
        let value: serde_json::Value = serde_json::from_str(text).expect("JSON");
        assert_eq!(value["runs"].as_array().map(Vec::len), Some(1), "{name}");
        let rules = value["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .expect("rules");
        for result in value["runs"][0]["results"].as_array().expect("results") {
            let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
            assert_eq!(rules[index]["id"], result["ruleId"], "{name}");
        }
    }
    let validate = run(Command::new(&check_jsonschema)
        .arg("--schemafile")
        .arg(&schema)
        .args(logs.iter().map(|(name, _)| name))
        .current_dir(out_dir.path()));
    assert!(validate.status.success(), "{}", printed(&validate));

    // The validator checks formats (jsonschema's format-nongpl extra): an unencoded path, as
    // the SARIF writer once emitted, is refused.
    let broken = escaping.replace("we%2Cird%3Adir%25/", "we,ird:dir%/");
    assert_ne!(broken, escaping);
    std::fs::write(out_dir.path().join("unencoded.sarif"), broken).expect("write");
    let refused = run(Command::new(&check_jsonschema)
        .arg("--schemafile")
        .arg(&schema)
        .arg("unencoded.sarif")
        .current_dir(out_dir.path()));
    assert!(!refused.status.success(), "{}", printed(&refused));
    assert!(
        printed(&refused).contains("uri-reference"),
        "{}",
        printed(&refused)
    );
}

// --- GitHub Actions, GitLab CI and pre-commit files ----------------------------------------

/// `action.yml`'s steps as a reusable workflow taking the action's inputs.
fn action_as_workflow() -> String {
    let action: serde_yaml::Value = serde_yaml::from_str(
        &std::fs::read_to_string(manifest().join("action.yml")).expect("read"),
    )
    .expect("YAML");
    let mut inputs = serde_yaml::Mapping::new();
    for (name, input) in action["inputs"].as_mapping().expect("inputs") {
        let mut spec = serde_yaml::Mapping::new();
        spec.insert("type".into(), "string".into());
        spec.insert("required".into(), input["required"].clone());
        spec.insert("default".into(), input["default"].clone());
        inputs.insert(name.clone(), spec.into());
    }
    let workflow = serde_yaml::to_value(BTreeMap::from([
        (
            "on",
            serde_yaml::to_value(BTreeMap::from([(
                "workflow_call",
                BTreeMap::from([("inputs", inputs)]),
            )]))
            .expect("YAML"),
        ),
        (
            "jobs",
            serde_yaml::to_value(BTreeMap::from([(
                "action",
                BTreeMap::from([
                    ("runs-on", "ubuntu-latest".into()),
                    ("steps", action["runs"]["steps"].clone()),
                ]),
            )]))
            .expect("YAML"),
        ),
    ]))
    .expect("YAML");
    serde_yaml::to_string(&workflow).expect("YAML")
}

#[test]
fn example_workflow_passes_actionlint() {
    // A current actionlint (`.ci/run` installs it): one that knows GitHub's runner labels
    // today, so that a retired runner in release.yml fails here too.
    let Some(actionlint) = require(&["actionlint"]) else {
        return;
    };
    let lint = |dir: &Path, file: &str| {
        run(Command::new(&actionlint)
            .arg("-no-color")
            .arg(file)
            .current_dir(dir))
    };
    // The README's workflow, the release workflow, and the action's steps as the steps of a
    // reusable workflow with the action's inputs (actionlint reads workflows, not actions).
    let scratch = tempfile::tempdir().expect("tempdir");
    write(scratch.path(), "action-steps.yml", &action_as_workflow());
    for (dir, file) in [
        (manifest(), "tests/integrations/workflow.yml"),
        (manifest(), ".github/workflows/release.yml"),
        (scratch.path(), "action-steps.yml"),
    ] {
        let out = lint(dir, file);
        assert!(out.status.success(), "{file}: {}", printed(&out));
    }

    // It knows which runners exist: the retired macos-13 fails.
    let retired = std::fs::read_to_string(manifest().join(".github/workflows/release.yml"))
        .expect("release.yml")
        .replace("macos-15-intel", "macos-13");
    write(scratch.path(), "retired-runner.yml", &retired);
    let out = lint(scratch.path(), "retired-runner.yml");
    assert!(!out.status.success(), "{}", printed(&out));
    assert!(
        printed(&out).contains(r#"label "macos-13" is unknown"#),
        "{}",
        printed(&out)
    );

    // The action's steps are really checked: a reference to a step that does not exist fails.
    let broken = action_as_workflow().replace("steps.python.outputs", "steps.pythn.outputs");
    write(scratch.path(), "broken-action-steps.yml", &broken);
    let out = lint(scratch.path(), "broken-action-steps.yml");
    assert!(!out.status.success(), "{}", printed(&out));
    assert!(
        printed(&out).contains(r#"property "pythn" is not defined"#),
        "{}",
        printed(&out)
    );

    // It does find problems: an injection of untrusted input into a script.
    let scratch = tempfile::tempdir().expect("tempdir");
    write(
        scratch.path(),
        "bad.yml",
        "on: pull_request\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      \
         - run: echo \"${{ github.event.pull_request.title }}\"\n",
    );
    let out = lint(scratch.path(), "bad.yml");
    assert!(!out.status.success(), "{}", printed(&out));
    assert!(
        printed(&out).contains("potentially untrusted"),
        "{}",
        printed(&out)
    );
}

#[test]
fn action_and_ci_files_match_their_schemas() {
    let Some(check_jsonschema) = require(&["check-jsonschema"]) else {
        return;
    };
    for (schema, file) in [
        ("vendor.github-actions", "action.yml"),
        ("vendor.github-workflows", "tests/integrations/workflow.yml"),
        ("vendor.gitlab-ci", "tests/integrations/gitlab-ci.yml"),
    ] {
        let out = run(Command::new(&check_jsonschema)
            .args(["--builtin-schema", schema, file])
            .current_dir(manifest()));
        assert!(out.status.success(), "{file}: {}", printed(&out));
    }
}

#[test]
fn pre_commit_manifest_and_example_config_are_valid() {
    let hooks: serde_yaml::Value = serde_yaml::from_str(
        &std::fs::read_to_string(manifest().join(".pre-commit-hooks.yaml")).expect("read"),
    )
    .expect("YAML");
    // Three ways to install the same hook, and the same three of the fixing hook: every other
    // key is the same.
    let hooks = hooks.as_sequence().expect("a list of hooks");
    let ids: Vec<&str> = hooks.iter().filter_map(|h| h["id"].as_str()).collect();
    assert_eq!(
        ids,
        [
            "tflint-merge",
            "tflint-merge-system",
            "tflint-merge-rust",
            "tflint-merge-fix",
            "tflint-merge-fix-system",
            "tflint-merge-fix-rust"
        ]
    );
    let languages: Vec<&str> = hooks
        .iter()
        .filter_map(|h| h["language"].as_str())
        .collect();
    assert_eq!(
        languages,
        ["python", "system", "rust", "python", "system", "rust"]
    );
    for hook in hooks {
        let fixes = hook["id"].as_str().is_some_and(|id| id.contains("-fix"));
        let entry = if fixes {
            "tflint-merge --fix"
        } else {
            "tflint-merge"
        };
        assert_eq!(hook["entry"], entry);
        // The whole repository on every commit: deletions and Terragrunt trees included.
        assert_eq!(hook["always_run"], true);
        assert_eq!(hook["pass_filenames"], false);
        assert_eq!(hook["require_serial"], true);
        // Warnings are shown even when the hook passes.
        assert_eq!(hook["verbose"], true);
        assert!(hook.get("files").is_none() && hook.get("exclude").is_none());
    }

    let Some(pre_commit) = require(&["pre-commit"]) else {
        return;
    };
    for args in [
        ["validate-manifest", ".pre-commit-hooks.yaml"],
        [
            "validate-config",
            "tests/integrations/pre-commit-config.yaml",
        ],
    ] {
        let out = run(Command::new(&pre_commit).args(args).current_dir(manifest()));
        assert!(out.status.success(), "{args:?}: {}", printed(&out));
    }
}

/// Every version the snippets and the pre-commit shim pin is Cargo.toml's: the tag the release
/// workflow publishes (it refuses a tag that is not `v` + Cargo.toml's version).
#[test]
fn snippets_and_the_pre_commit_shim_pin_the_released_version() {
    let version = env!("CARGO_PKG_VERSION");
    let shim = std::fs::read_to_string(manifest().join("pyproject.toml")).expect("pyproject");
    assert!(
        shim.contains(&format!("\nversion = \"{version}\"\n")),
        "{shim}"
    );
    assert!(
        shim.contains(&format!("dependencies = [\"tflint-merge=={version}\"]")),
        "{shim}"
    );
    let release = std::fs::read_to_string(manifest().join(".github/workflows/release.yml"))
        .expect("release workflow");
    assert!(
        release.contains(r#"if [ "$TAG" != "v$version" ]"#),
        "{release}"
    );
    for file in ["workflow.yml", "gitlab-ci.yml", "pre-commit-config.yaml"] {
        let text = std::fs::read_to_string(manifest().join("tests/integrations").join(file))
            .expect("snippet");
        // `@v0.1.0`, `rev: v0.1.0`, `tflint-merge==0.1.0`: a version after `v` or `==`.
        let pinned: Vec<&str> = ["v", "=="]
            .iter()
            .flat_map(|prefix| text.match_indices(prefix).map(|(i, p)| i + p.len()))
            .map(|start| {
                let rest = &text[start..];
                &rest[..rest
                    .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                    .unwrap_or(rest.len())]
            })
            .filter(|v| v.contains('.') && v.starts_with(|c: char| c.is_ascii_digit()))
            .collect();
        assert!(!pinned.is_empty(), "{file} pins no version");
        assert!(
            pinned.iter().all(|v| *v == version),
            "{file}: {pinned:?} vs {version}"
        );
    }
}

#[test]
fn readme_shows_the_tested_snippets() {
    let readme = std::fs::read_to_string(manifest().join("README.md")).expect("README");
    for file in ["workflow.yml", "gitlab-ci.yml", "pre-commit-config.yaml"] {
        let text = std::fs::read_to_string(manifest().join("tests/integrations").join(file))
            .expect("snippet");
        assert!(
            readme.contains(&format!("```yaml\n{text}```\n")),
            "README.md must show tests/integrations/{file} verbatim"
        );
    }
}

// --- the action's steps, run as the runner runs them ----------------------------------------

/// The `run` script and `env` names of the action step with this id.
fn action_step(id: &str) -> (String, Vec<String>) {
    let action: serde_yaml::Value = serde_yaml::from_str(
        &std::fs::read_to_string(manifest().join("action.yml")).expect("read"),
    )
    .expect("YAML");
    let steps = action["runs"]["steps"].as_sequence().expect("steps");
    let step = steps.iter().find(|s| s["id"] == id).expect("step");
    assert_eq!(step["shell"], "bash");
    let env = step["env"]
        .as_mapping()
        .map(|m| {
            m.keys()
                .filter_map(|k| k.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    (step["run"].as_str().expect("run").to_string(), env)
}

/// `PATH` with the directory of the binary under test first, as if it were installed.
fn path_with_the_binary_first() -> std::ffi::OsString {
    let binary_dir = Path::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .parent()
        .map(Path::to_path_buf);
    let mut path = binary_dir.into_iter().collect::<Vec<_>>();
    path.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(&path).expect("PATH")
}

/// Runs a step script with `bash --noprofile --norc -eo pipefail`, as a `shell: bash` step,
/// with the directory of the binary under test first on `PATH` (as the install step leaves
/// it). Returns what the step printed and wrote to `$GITHUB_OUTPUT` and `$GITHUB_PATH`.
fn run_step(script: &str, dir: &Path, env: &[(&str, &str)]) -> (Output, String, String) {
    let scratch = tempfile::tempdir().expect("tempdir");
    let output_file = scratch.path().join("github_output");
    let path_file = scratch.path().join("github_path");
    std::fs::write(&output_file, "").expect("write");
    std::fs::write(&path_file, "").expect("write");
    let path = path_with_the_binary_first();
    let mut command = Command::new("bash");
    command
        .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
        .current_dir(dir)
        .env("GITHUB_OUTPUT", &output_file)
        .env("GITHUB_PATH", &path_file)
        .env("PATH", &path)
        .env_remove("NO_COLOR");
    for (key, value) in env {
        command.env(key, value);
    }
    let out = run(&mut command);
    (
        out,
        std::fs::read_to_string(&output_file).expect("read"),
        std::fs::read_to_string(&path_file).expect("read"),
    )
}

fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

#[test]
fn action_run_step_passes_inputs_writes_sarif_and_propagates_the_exit_code() {
    let (script, env) = action_step("check");
    assert_eq!(
        env,
        [
            "INPUT_PATHS",
            "INPUT_ARGS",
            "INPUT_FORMAT",
            "INPUT_SARIF_FILE"
        ]
    );
    // One run gives the log and the SARIF file (`--output-file sarif=...`).
    let runs = (script.lines())
        .filter(|line| line.trim_start().starts_with("tflint-merge "))
        .count();
    assert_eq!(runs, 1, "{script}");
    let root = tempfile::tempdir().expect("tempdir");
    let workspace = root.path().join("workspace");
    write(
        &workspace,
        "ok/main.tf",
        "resource \"terraform_data\" \"a\" {}\n",
    );
    let broken = "resource \"x\" \"a\" {}\nresource \"x\" \"a\" {}\n";
    write(&workspace, "bad dir/main.tf", broken);
    write(&workspace, "two/main.tf", broken);
    let step = |paths: &str, args: &str, format: &str, sarif: &str| {
        let (out, outputs, _) = run_step(
            &script,
            &workspace,
            &[
                ("INPUT_PATHS", paths),
                ("INPUT_ARGS", args),
                ("INPUT_FORMAT", format),
                ("INPUT_SARIF_FILE", sarif),
            ],
        );
        (out, outputs)
    };

    let (out, outputs) = step("ok", "", "github", "");
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    assert_eq!(outputs, "exit-code=0\n");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "::notice title=tflint-merge::tflint-merge: no findings in 1 directory (1 file)\n"
    );

    // Findings: annotations, the SARIF file written anyway, and the step fails with 1.
    let (out, outputs) = step(".", "", "github", "results/tflint-merge.sarif");
    assert_eq!(out.status.code(), Some(1), "{}", printed(&out));
    assert_eq!(outputs, "exit-code=1\n");
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .starts_with("::error file=bad dir/main.tf,line=2,col=1,"),
        "{}",
        printed(&out)
    );
    let sarif = read_json(&workspace.join("results/tflint-merge.sarif"));
    assert_eq!(
        sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "bad%20dir/main.tf"
    );

    // `args` are shell words: the quoted glob with a space stays one argument.
    let (out, _) = step(
        " .\n",
        "--exclude 'bad dir/**' --exclude two --fail-on warning",
        "short",
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));

    // An apostrophe: inside double quotes it is part of a word; unmatched, the step fails with
    // 2 and says why, rather than run with the words before it.
    write(&workspace, "it's/main.tf", broken);
    let (out, _) = step("ok", "--fail-on warning \"it's\"", "short", "");
    assert_eq!(out.status.code(), Some(1), "{}", printed(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("it's/main.tf:2:1: error"),
        "{}",
        printed(&out)
    );
    let (out, outputs) = step(
        ".",
        "--exclude don't --exclude two --exclude 'bad dir'",
        "short",
        "",
    );
    assert_eq!(out.status.code(), Some(2), "{}", printed(&out));
    assert_eq!(outputs, "exit-code=2\n");
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .starts_with("::error title=tflint-merge::the args input is not shell words"),
        "{}",
        printed(&out)
    );
    std::fs::remove_dir_all(workspace.join("it's")).expect("remove");

    // Several paths, separated by spaces or newlines; a name with a space goes in `args`.
    let (out, _) = step("ok\n  two\n", "", "short", "");
    assert_eq!(out.status.code(), Some(1), "{}", printed(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .starts_with("two/main.tf:2:1: error[duplicate_definition]"),
        "{}",
        printed(&out)
    );
    let (out, _) = step("ok", "'bad dir'", "short", "");
    assert_eq!(out.status.code(), Some(1), "{}", printed(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .starts_with("bad dir/main.tf:2:1: error[duplicate_definition]"),
        "{}",
        printed(&out)
    );

    // A usage error is 2, and no SARIF file hides it: the log says why.
    let (out, outputs) = step("missing", "", "github", "out.sarif");
    assert_eq!(out.status.code(), Some(2), "{}", printed(&out));
    assert_eq!(outputs, "exit-code=2\n");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("error: no such file or directory: missing"),
        "{}",
        printed(&out)
    );

    // `--format` in `args` sets the log's format and leaves the SARIF file SARIF.
    let (out, outputs) = step("two", "--format short", "github", "args.sarif");
    assert_eq!(out.status.code(), Some(1), "{}", printed(&out));
    assert_eq!(outputs, "exit-code=1\n");
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .starts_with("two/main.tf:2:1: error[duplicate_definition]"),
        "{}",
        printed(&out)
    );
    let sarif = read_json(&workspace.join("args.sarif"));
    assert_eq!(sarif["version"], "2.1.0");
}

/// The wheels `.ci/run` built (`$TFLINT_MERGE_WHEELS`: the tflint-merge wheel, and
/// setuptools for the pre-commit shim), for installing with `--no-index`. None (after saying
/// so) when not set, outside CI; in CI that is a failure.
fn wheels() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("TFLINT_MERGE_WHEELS") {
        return Some(dir.into());
    }
    assert!(
        !in_ci(),
        "$TFLINT_MERGE_WHEELS is not set: `.ci/run` builds the wheel with maturin"
    );
    let _ = writeln!(
        std::io::stderr(),
        "skipped: no wheel built (`bash .ci/run` builds it into $TFLINT_MERGE_WHEELS)"
    );
    None
}

/// pip installing only from the wheels `.ci/run` built.
fn offline_pip(wheels: &Path) -> [(&'static str, String); 3] {
    [
        ("PIP_NO_INDEX", "1".to_string()),
        ("PIP_FIND_LINKS", wheels.display().to_string()),
        ("PIP_DISABLE_PIP_VERSION_CHECK", "1".to_string()),
    ]
}

/// The install step creates a venv, installs the wheel of Cargo.toml's version (never a
/// source build) and puts its `bin` on `PATH`.
#[test]
fn action_install_step_installs_the_wheel_and_puts_it_on_path() {
    let (Some(wheels), Some(python)) = (wheels(), require(&["python3"])) else {
        return;
    };
    let (script, env) = action_step("install");
    assert_eq!(env, ["ACTION_PATH", "PYTHON", "VENV"]);
    assert!(script.contains("--only-binary tflint-merge"), "{script}");
    let scratch = tempfile::tempdir().expect("tempdir");
    let venv = scratch.path().join("venv");
    let mut vars: Vec<(&str, String)> = vec![
        ("ACTION_PATH", manifest().display().to_string()),
        ("PYTHON", python.display().to_string()),
        ("VENV", venv.display().to_string()),
    ];
    vars.extend(offline_pip(&wheels));
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (out, _, path) = run_step(&script, scratch.path(), &vars);
    assert!(out.status.success(), "{}", printed(&out));
    assert_eq!(path, format!("{}\n", venv.join("bin").display()));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("tflint-merge {}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// The wheel maturin built installs into a fresh venv and runs: a smoke test of what
/// `pip install tflint-merge` gives.
#[test]
fn wheel_installs_into_a_fresh_venv_and_checks_a_module() {
    let (Some(wheels), Some(python)) = (wheels(), require(&["python3"])) else {
        return;
    };
    let scratch = tempfile::tempdir().expect("tempdir");
    let venv = scratch.path().join("venv");
    let out = run(Command::new(&python).arg("-m").arg("venv").arg(&venv));
    assert!(out.status.success(), "{}", printed(&out));
    let out = run(Command::new(venv.join("bin/pip"))
        .args(["install", "--quiet", "tflint-merge"])
        .envs(offline_pip(&wheels)));
    assert!(out.status.success(), "{}", printed(&out));
    // The licence, as pip and PyPI read it from the wheel's metadata.
    let out = run(Command::new(venv.join("bin/python")).args([
        "-c",
        "import importlib.metadata as m; d = m.metadata('tflint-merge'); \
         print(d['License-Expression']); print(sorted(d.get_all('License-File')))",
    ]));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "MIT OR Apache-2.0\n['LICENSE-APACHE', 'LICENSE-MIT']\n",
        "{}",
        printed(&out)
    );
    let installed = venv.join("bin/tflint-merge");
    let version = run(Command::new(&installed).arg("--version"));
    assert_eq!(
        String::from_utf8_lossy(&version.stdout),
        format!("tflint-merge {}\n", env!("CARGO_PKG_VERSION"))
    );
    write(
        scratch.path(),
        "m/main.tf",
        "resource \"x\" \"a\" {}\nresource \"x\" \"a\" {}\n",
    );
    let out = run(Command::new(&installed)
        .args(["--format", "short", "m"])
        .current_dir(scratch.path()));
    assert_eq!(out.status.code(), Some(1), "{}", printed(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "m/main.tf:2:1: error[duplicate_definition]: Duplicate resource \"x\" configuration\n"
    );
}

// --- the pre-commit hook, installed and run by pre-commit -----------------------------------

fn git(dir: &Path, args: &[&str]) -> String {
    let out = run(Command::new("git")
        .args(args)
        .current_dir(dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_INDEX_FILE")
        .env_remove("GIT_WORK_TREE")
        .env("GIT_AUTHOR_DATE", "2000-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2000-01-01T00:00:00Z"));
    assert!(out.status.success(), "git {args:?}: {}", printed(&out));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A git repository at `dir` with one commit of this checkout's files as they are on disk
/// (tracked and untracked, not ignored). The same files give the same commit, so pre-commit's
/// cache of the built hook is reused across local runs. Returns the commit.
fn snapshot_checkout(dir: &Path) -> String {
    if dir.exists() {
        std::fs::remove_dir_all(dir).expect("clear the snapshot");
    }
    std::fs::create_dir_all(dir).expect("mkdir");
    let listing = git(
        manifest(),
        &[
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ],
    );
    for file in listing.split('\0').filter(|f| !f.is_empty()) {
        let from = manifest().join(file);
        if !from.is_file() {
            continue; // deleted, not yet staged
        }
        let to = dir.join(file);
        std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
        std::fs::copy(&from, &to).expect("copy");
    }
    git(dir, &["init", "-q"]);
    git(dir, &["add", "-A"]);
    git(
        dir,
        &[
            "-c",
            "user.name=tflint-merge tests",
            "-c",
            "user.email=tests@tflint-merge.invalid",
            "-c",
            "commit.gpgsign=false",
            "commit",
            "-q",
            "-m",
            "snapshot",
        ],
    );
    git(dir, &["rev-parse", "HEAD"])
}

/// The README's `.pre-commit-config.yaml` (tests/integrations/pre-commit-config.yaml), with
/// the hook repository and revision replaced and `hook_id` for the hook.
fn pre_commit_config(hook_repo: &Path, rev: &str, hook_id: &str) -> String {
    let snippet =
        std::fs::read_to_string(manifest().join("tests/integrations/pre-commit-config.yaml"))
            .expect("snippet");
    let release = format!("v{}", env!("CARGO_PKG_VERSION"));
    let repository = "https://github.com/tflint-merge/tflint-merge";
    let (rev_line, id_line) = (format!("rev: {release}"), "id: tflint-merge\n");
    // Counted in the snippet itself: the hook repository's path (under this checkout's
    // target/, in a directory that may well be called `tflint-merge`) may hold either name.
    for needle in [repository, rev_line.as_str(), id_line] {
        assert_eq!(
            snippet.matches(needle).count(),
            1,
            "the snippet names the repository, `rev: {release}` and `id: tflint-merge` once \
             each: {snippet}"
        );
    }
    snippet
        .replace(repository, &hook_repo.display().to_string())
        .replace(&rev_line, &format!("rev: {rev}"))
        .replace(id_line, &format!("id: {hook_id}\n"))
}

/// pre-commit, a scratch directory `work` (in the target directory) named `name`, and the
/// revision of the checkout's snapshot as a hook repository in `work/hook-repo`; `None` (after
/// saying so) without pre-commit or git.
fn hook_repository(name: &str) -> Option<(PathBuf, PathBuf, String)> {
    let pre_commit = require(&["pre-commit"])?;
    require(&["git"])?;
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let rev = snapshot_checkout(&work.join("hook-repo"));
    Some((pre_commit, work, rev))
}

/// `pre-commit run` in `project`, with the binary under test first on PATH (for the
/// `language: system` hooks) and `home` as pre-commit's cache.
fn run_system_hook(pre_commit: &Path, project: &Path, home: &Path) -> Output {
    run(Command::new(pre_commit)
        .args(["run", "--color", "never"])
        .current_dir(project)
        .env("PATH", path_with_the_binary_first())
        .env("PRE_COMMIT_HOME", home)
        .env_remove("GIT_DIR")
        .env_remove("GIT_INDEX_FILE")
        .env_remove("GIT_WORK_TREE")
        .env_remove("NO_COLOR"))
}

/// pre-commit runs the hook on the whole repository: a staged deletion (which pre-commit
/// never passes to hooks) and a Terragrunt tree are checked, and warnings are shown even when
/// the hook passes. The `language: system` hook runs the binary under test; the other two
/// hooks differ from it only in how they install tflint-merge (checked by
/// `pre_commit_manifest_and_example_config_are_valid`).
#[test]
fn pre_commit_hook_checks_the_repository_with_deletions_terragrunt_and_warnings() {
    let Some((pre_commit, work, rev)) = hook_repository("pre-commit") else {
        return;
    };
    let project = hook_project(&work, &rev, "tflint-merge-system");
    let project = project.path();
    write(
        project,
        "infra/main.tf",
        "resource \"aws_instance\" \"web\" {\n  ami = \"ami-123\"\n}\n\n\
         variable \"size\" {\n  type    = number\n  default = 1\n}\n",
    );
    // A typo in the label: the override has no base block.
    write(
        project,
        "infra/override.tf",
        "resource \"aws_instance\" \"webb\" {\n  ami = \"ami-456\"\n}\n",
    );
    // Hidden directories are never walked: never checked, broken as it is.
    write(
        project,
        ".terraform/modules/vpc/main.tf",
        "resource \"x\" \"a\" {}\nresource \"x\" \"a\" {}\n",
    );
    git(project, &["add", "-A"]);

    let pre_commit_run = || run_system_hook(&pre_commit, project, &work.join("home"));
    let commit = |message: &str| git(project, &["commit", "-q", "--no-verify", "-m", message]);

    let out = pre_commit_run();
    let text = printed(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("error[override_without_base]"), "{text}");
    assert!(text.contains("infra/override.tf:1:1"), "{text}");
    assert!(!text.contains(".terraform"), "{text}");

    // Fixed: the hook passes.
    write(
        project,
        "infra/override.tf",
        "resource \"aws_instance\" \"web\" {\n  ami = \"ami-456\"\n}\n",
    );
    git(project, &["add", "infra/override.tf"]);
    let out = pre_commit_run();
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    assert!(printed(&out).contains("Passed"), "{}", printed(&out));
    commit("infra");

    // Defect 4: a warning does not fail the commit, but the committer sees it.
    write(
        project,
        "infra/override.tf",
        "resource \"aws_instance\" \"web\" {\n  ami = \"ami-123\"\n}\n",
    );
    git(project, &["add", "infra/override.tf"]);
    let out = pre_commit_run();
    let text = printed(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("Passed"), "{text}");
    assert!(text.contains("warning[override_noop]"), "{text}");
    assert!(text.contains("infra/override.tf:1:"), "{text}");
    git(project, &["checkout", "HEAD", "--", "infra/override.tf"]);

    // Defect 2: the base file deleted, nothing else staged. pre-commit passes no deleted
    // names to hooks; the override left behind has no base.
    git(project, &["rm", "-q", "infra/main.tf"]);
    assert_eq!(
        git(project, &["diff", "--cached", "--name-status"]),
        "D\tinfra/main.tf"
    );
    let out = pre_commit_run();
    let text = printed(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("error[override_without_base]"), "{text}");
    assert!(text.contains("infra/override.tf:1:1"), "{text}");
    git(project, &["reset", "-q", "HEAD", "--", "infra/main.tf"]);
    git(project, &["checkout", "HEAD", "--", "infra/main.tf"]);

    // Defect 3: a Terragrunt dependency cycle, staged as `.hcl` files only.
    for (unit, other) in [("vpc", "db"), ("db", "vpc")] {
        write(
            project,
            &format!("live/{unit}/terragrunt.hcl"),
            &format!("dependency \"{other}\" {{\n  config_path = \"../{other}\"\n}}\n"),
        );
    }
    git(project, &["add", "live"]);
    let out = pre_commit_run();
    let text = printed(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("error[terragrunt_dependency_cycle]"),
        "{text}"
    );
}

/// A git work tree whose `.pre-commit-config.yaml` runs `hook` of the hook repository that
/// [`hook_repository`] made in `work`, at `rev`.
fn hook_project(work: &Path, rev: &str, hook: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let project = dir.path();
    git(project, &["init", "-q"]);
    git(project, &["config", "user.name", "tflint-merge tests"]);
    git(
        project,
        &["config", "user.email", "tests@tflint-merge.invalid"],
    );
    git(project, &["config", "commit.gpgsign", "false"]);
    let config = pre_commit_config(&work.join("hook-repo"), rev, hook);
    write(project, ".pre-commit-config.yaml", &config);
    dir
}

/// The `tflint-merge-fix` hook (its `language: system` twin, on the binary under test) applies
/// the safe fixes: pre-commit fails the run because a file changed, and passes the next one.
#[test]
fn pre_commit_fix_hook_applies_the_safe_fixes() {
    let Some((pre_commit, work, rev)) = hook_repository("pre-commit-fix") else {
        return;
    };
    let project = hook_project(&work, &rev, "tflint-merge-fix-system");
    let project = project.path();
    let base = "# The web server.\nresource \"aws_instance\" \"web\" {\n  ami = \"ami-1\"\n}\n";
    write(project, "infra/main.tf", base);
    write(
        project,
        "infra/override.tf",
        "resource \"aws_instance\" \"web\" {\n  ami = \"ami-1\" # same\n}\n",
    );
    git(project, &["add", "-A"]);
    let pre_commit_run = || run_system_hook(&pre_commit, project, &work.join("home"));
    let out = pre_commit_run();
    let text = printed(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("files were modified by this hook"), "{text}");
    assert!(!project.join("infra/override.tf").exists(), "{text}");
    let main = std::fs::read_to_string(project.join("infra/main.tf")).expect("read");
    assert_eq!(main, base, "untouched");
    git(project, &["add", "-A"]);
    let out = pre_commit_run();
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
}

/// The default hook (`language: python`) installs the wheel, never compiling: pre-commit
/// installs the repository's pyproject.toml shim, which depends on the `tflint-merge` wheel
/// (here from the wheels `.ci/run` built, pip offline), and runs it.
#[test]
fn pre_commit_default_hook_installs_the_wheel() {
    let (Some(pre_commit), Some(wheels)) = (require(&["pre-commit"]), wheels()) else {
        return;
    };
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pre-commit-wheel");
    let hook_repo = work.join("hook-repo");
    let rev = snapshot_checkout(&hook_repo);
    let project = tempfile::tempdir().expect("tempdir");
    let project = project.path();
    git(project, &["init", "-q"]);
    write(
        project,
        ".pre-commit-config.yaml",
        &pre_commit_config(&hook_repo, &rev, "tflint-merge"),
    );
    write(
        project,
        "infra/main.tf",
        "resource \"x\" \"a\" {}\nresource \"x\" \"a\" {}\n",
    );
    git(project, &["add", "-A"]);
    let home = tempfile::tempdir().expect("tempdir");
    let started = std::time::Instant::now();
    let out = run(Command::new(&pre_commit)
        .args(["run", "--color", "never"])
        .current_dir(project)
        .env("PRE_COMMIT_HOME", home.path())
        .envs(offline_pip(&wheels))
        // No Rust: the hook must not need it.
        .env("CARGO", "/nonexistent")
        .env("RUSTUP_TOOLCHAIN", "/nonexistent")
        .env_remove("GIT_DIR")
        .env_remove("GIT_INDEX_FILE")
        .env_remove("GIT_WORK_TREE"));
    let text = printed(&out);
    let _ = writeln!(
        std::io::stderr(),
        "pre-commit installed and ran the wheel hook in {:.1?}",
        started.elapsed()
    );
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("error[duplicate_definition]"), "{text}");
    assert!(text.contains("infra/main.tf:2:1"), "{text}");
}

/// Without the tools, `cargo test` says what it did not test: the tool-driven tests print
/// `skipped: ...` to the process's stderr (outside CI, where a missing tool fails instead).
#[test]
fn missing_tools_are_reported_as_skipped() {
    let empty = tempfile::tempdir().expect("tempdir");
    let me = std::env::current_exe().expect("the test binary");
    let out = run(Command::new(me)
        .args(["--exact", "example_workflow_passes_actionlint"])
        .env_remove("CI")
        .env("TFLINT_MERGE_CI_BIN", empty.path())
        .env("PATH", empty.path()));
    assert!(out.status.success(), "{}", printed(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("skipped: ") && stderr.contains("not installed"),
        "no skip message on stderr:\n{stderr}"
    );
}
