//! What a release needs from the repository: a licence that every package states, and a
//! workflow that can run.
//!
//! `.github/workflows/release.yml` can run today: every `runs-on` names a GitHub-hosted runner
//! label that exists (`tests/release/github_runner_labels.txt`, with its source), and no step
//! that runs in PowerShell reads a POSIX shell variable (`$TARGET`), which PowerShell expands to
//! nothing. A release needs every job of the workflow: one job on a retired runner waits
//! forever, and one empty variable builds the wrong target or none.

use std::collections::BTreeMap;
use std::path::Path;

use serde_yaml::Value;

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The runner table: current labels with their operating system, and retired labels.
struct RunnerTable {
    /// Label to operating system (`linux`, `windows`, `macos`).
    current: BTreeMap<String, String>,
    retired: Vec<String>,
}

fn runner_table() -> RunnerTable {
    let text = std::fs::read_to_string(manifest().join("tests/release/github_runner_labels.txt"))
        .expect("read the runner table");
    let mut table = RunnerTable {
        current: BTreeMap::new(),
        retired: Vec::new(),
    };
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        if let Some(label) = fields[0].strip_prefix("retired:") {
            table.retired.push(label.trim().to_owned());
        } else {
            assert_eq!(fields.len(), 3, "LABEL | OS | ARCHITECTURE: {line}");
            table
                .current
                .insert(fields[0].to_owned(), fields[1].to_owned());
        }
    }
    assert!(
        table.current.contains_key("ubuntu-latest"),
        "an empty table"
    );
    table
}

/// The labels a job can run on: its `runs-on`, with `${{ matrix.KEY }}` expanded over the
/// values of KEY in the matrix (its lists and its `include` entries).
fn runner_labels(job: &Value) -> Vec<String> {
    let runs_on = match &job["runs-on"] {
        Value::String(label) => vec![label.clone()],
        Value::Sequence(labels) => labels
            .iter()
            .map(|l| l.as_str().expect("a label").to_owned())
            .collect(),
        other => panic!("runs-on is neither a label nor a list of labels: {other:?}"),
    };
    let mut labels = Vec::new();
    for label in runs_on {
        let expression = label
            .strip_prefix("${{")
            .and_then(|rest| rest.strip_suffix("}}"))
            .map(str::trim);
        let Some(expression) = expression else {
            labels.push(label);
            continue;
        };
        let key = expression
            .strip_prefix("matrix.")
            .unwrap_or_else(|| panic!("runs-on expression other than matrix.KEY: {label}"));
        let matrix = &job["strategy"]["matrix"];
        if let Some(values) = matrix[key].as_sequence() {
            labels.extend(values.iter().filter_map(|v| v.as_str()).map(str::to_owned));
        }
        if let Some(include) = matrix["include"].as_sequence() {
            labels.extend(
                include
                    .iter()
                    .filter_map(|entry| entry[key].as_str())
                    .map(str::to_owned),
            );
        }
        assert!(!labels.is_empty(), "matrix.{key} has no value");
    }
    labels
}

/// The shell a `run` step runs in: its own `shell`, else the job's `defaults.run.shell`, else
/// the workflow's, else the runner's default (PowerShell Core on Windows, bash elsewhere:
/// https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#defaultsrunshell).
fn step_shell(workflow: &Value, job: &Value, step: &Value, os: &str) -> String {
    [
        &step["shell"],
        &job["defaults"]["run"]["shell"],
        &workflow["defaults"]["run"]["shell"],
    ]
    .into_iter()
    .find_map(|shell| shell.as_str())
    .map(str::to_owned)
    .unwrap_or_else(|| if os == "windows" { "pwsh" } else { "bash" }.to_owned())
}

/// PowerShell's own automatic variables written in capitals, which a script may read as `$NAME`.
const POWERSHELL_VARIABLES: [&str; 5] = ["LASTEXITCODE", "HOME", "PID", "PWD", "HOST"];

/// The `$NAME`s and `${NAME}`s of a script that look like POSIX variables (capitals, digits and
/// underscores): in PowerShell those are PowerShell variables, unset, where an environment
/// variable is `$env:NAME`. `${{ ... }}` expressions are the workflow's, not the shell's.
fn posix_variables(script: &str) -> Vec<String> {
    let bytes = script.as_bytes();
    let mut found = Vec::new();
    for (at, _) in script.match_indices('$') {
        let rest = &script[at + 1..];
        if rest.starts_with("{{") {
            continue;
        }
        let name_start = usize::from(rest.starts_with('{'));
        let name: String = rest[name_start..]
            .chars()
            .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
            .collect();
        // `$env:X` and `$Name` (mixed case) are PowerShell's; a name must start with a capital.
        let after = bytes.get(at + 1 + name_start + name.len()).copied();
        let is_identifier_tail = after.is_some_and(|b| b.is_ascii_alphanumeric() || b == b':');
        if name.starts_with(|c: char| c.is_ascii_uppercase())
            && !is_identifier_tail
            && !POWERSHELL_VARIABLES.contains(&name.as_str())
        {
            found.push(name);
        }
    }
    found
}

/// What is wrong with a workflow: runners not in the table (or retired), and PowerShell steps
/// that read POSIX variables. Empty when it can run.
fn problems(workflow_text: &str, table: &RunnerTable) -> Vec<String> {
    let workflow: Value = serde_yaml::from_str(workflow_text).expect("release.yml is YAML");
    let jobs = workflow["jobs"].as_mapping().expect("jobs");
    assert!(!jobs.is_empty(), "no jobs");
    let mut problems = Vec::new();
    for (name, job) in jobs {
        let name = name.as_str().expect("a job name");
        let labels = runner_labels(job);
        let mut systems = Vec::new();
        for label in &labels {
            match table.current.get(label) {
                Some(os) => systems.push(os.clone()),
                None if table.retired.contains(label) => {
                    problems.push(format!("job {name}: runner {label} is retired"));
                }
                None => problems.push(format!(
                    "job {name}: runner {label} is not a GitHub-hosted runner label"
                )),
            }
        }
        let steps = job["steps"].as_sequence().map(Vec::as_slice).unwrap_or(&[]);
        for (index, step) in steps.iter().enumerate() {
            let Some(script) = step["run"].as_str() else {
                continue;
            };
            let step_name = step["name"]
                .as_str()
                .map_or(index.to_string(), str::to_owned);
            for os in &systems {
                let shell = step_shell(&workflow, job, step, os);
                if !matches!(shell.as_str(), "pwsh" | "powershell") {
                    continue;
                }
                for variable in posix_variables(script) {
                    problems.push(format!(
                        "job {name}, step {step_name:?}: runs in {shell} on {os}, where \
                         ${variable} is not the environment variable (use bash, or $env:{variable})"
                    ));
                }
            }
        }
    }
    problems.sort();
    problems.dedup();
    problems
}

#[test]
fn release_workflow_runs_on_current_runners_in_the_right_shells() {
    let text = std::fs::read_to_string(manifest().join(".github/workflows/release.yml"))
        .expect("read release.yml");
    let problems = problems(&text, &runner_table());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The checks find what broke the release before: a job on the retired `macos-13`, and the
/// Windows target installed by a PowerShell step from `"$TARGET"`.
#[test]
fn retired_runners_and_posix_variables_in_powershell_are_found() {
    let workflow = r#"
on: push
jobs:
  binaries:
    strategy:
      matrix:
        include:
          - { os: macos-13, target: x86_64-apple-darwin }
          - { os: windows-latest, target: x86_64-pc-windows-msvc }
          - { os: ubuntu-latest, target: x86_64-unknown-linux-musl }
    runs-on: ${{ matrix.os }}
    steps:
      - name: Install the Rust target
        env:
          TARGET: ${{ matrix.target }}
        run: rustup target add "$TARGET"
      - name: Fine in PowerShell
        env:
          TARGET: ${{ matrix.target }}
        run: rustup target add "$env:TARGET" ${{ matrix.target }}; exit $LASTEXITCODE
      - name: Fine in bash
        shell: bash
        run: echo "${TARGET}"
  other:
    runs-on: windows-2019-typo
    defaults:
      run:
        shell: bash
    steps:
      - run: echo "$TARGET"
"#;
    assert_eq!(
        problems(workflow, &runner_table()),
        [
            "job binaries, step \"Install the Rust target\": runs in pwsh on windows, where \
             $TARGET is not the environment variable (use bash, or $env:TARGET)",
            "job binaries: runner macos-13 is retired",
            "job other: runner windows-2019-typo is not a GitHub-hosted runner label",
        ]
    );
}

#[test]
fn posix_variables_are_told_from_powershell_ones() {
    assert_eq!(
        posix_variables(r#"a "$TARGET" ${NAME} $env:OK $Mixed ${{ x }} $LASTEXITCODE $A1_B"#),
        ["TARGET", "NAME", "A1_B"]
    );
}

// --- the licence ---------------------------------------------------------------------------

/// `MIT OR Apache-2.0`, the Rust ecosystem's convention: in Cargo.toml, in both Python
/// packages' metadata (the wheel's, packaging/pyproject.toml, and the pre-commit shim's), and
/// as the two licence files, which the wheel carries as copies.
#[test]
fn the_licence_is_stated_everywhere_and_its_files_are_there() {
    assert_eq!(env!("CARGO_PKG_LICENSE"), "MIT OR Apache-2.0");
    let read = |path: &str| {
        std::fs::read_to_string(manifest().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    let mit = read("LICENSE-MIT");
    let apache = read("LICENSE-APACHE");
    assert!(mit.starts_with("MIT License\n"), "{mit}");
    assert!(mit.contains("Permission is hereby granted, free of charge"));
    assert!(apache.contains("Apache License\n                        Version 2.0, January 2004"));
    assert!(apache.contains("END OF TERMS AND CONDITIONS"));
    for pyproject in ["pyproject.toml", "packaging/pyproject.toml"] {
        let text = read(pyproject);
        assert!(
            text.lines()
                .any(|l| l == r#"license = "MIT OR Apache-2.0""#),
            "{pyproject} states no licence"
        );
        assert!(
            text.lines()
                .any(|l| l == r#"license-files = ["LICENSE-MIT", "LICENSE-APACHE"]"#),
            "{pyproject} names no licence files"
        );
    }
    assert_eq!(
        read("packaging/LICENSE-MIT"),
        mit,
        "packaging/LICENSE-MIT is not the root's"
    );
    assert_eq!(
        read("packaging/LICENSE-APACHE"),
        apache,
        "packaging/LICENSE-APACHE is not the root's"
    );
}
