//! What a hostile pull request can make the binary print: nothing a terminal or a CI runner
//! acts on. A backend label that holds a newline and a workflow command, ESC, OSC and BEL in a
//! file name and in a string shown in an excerpt, a NUL-separated line; in every output format,
//! with and without colour, and in `merged`, `graph`, `--diff`, `--show-settings` and on
//! stderr.

use std::path::Path;
use std::process::{Command, Output};

fn tflint_merge(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .output()
        .expect("run tflint-merge")
}

fn write(root: &Path, files: &[(&str, &[u8])]) {
    for (name, content) in files {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, content).expect("write");
    }
}

/// Every format of `check`, as its arguments, and whether it is the `github` one.
const FORMATS: [(&[&str], bool); 9] = [
    (&["--format", "human", "--color", "never"], false),
    (&["--format", "human", "--color", "always"], false),
    (&["--format", "short"], false),
    (&["--format", "json"], false),
    (&["--format", "sarif"], false),
    (&["--format", "github"], true),
    (&["--format", "checkstyle"], false),
    (&["--format", "junit"], false),
    (&["--format", "gitlab"], false),
];

/// Panics unless `output` holds no control character but newlines (and ESC only to start a
/// colour), no `##[`, and no line that starts with `::` after its leading spaces, but when
/// `commands` says how many lines, each a workflow command, there are (the `github` format).
fn assert_harmless(what: &str, output: &[u8], commands: Option<usize>) {
    let text = String::from_utf8_lossy(output);
    let lines: Vec<&str> = text
        .strip_suffix('\n')
        .unwrap_or(&text)
        .split('\n')
        .collect();
    for line in &lines {
        for (i, c) in line.char_indices() {
            let colour = c == '\x1b'
                && line[i + 1..].starts_with('[')
                && line[i + 2..]
                    .trim_start_matches(|c: char| c.is_ascii_digit() || c == ';')
                    .starts_with('m');
            let invisible = matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}');
            assert!(
                colour || !(c.is_control() || invisible),
                "{what}: raw {c:?} in {line:?}\n{text}"
            );
        }
        assert!(!line.contains("##["), "{what}: `##[` in {line:?}\n{text}");
        let command = line.trim_start().starts_with("::");
        assert_eq!(
            command,
            commands.is_some(),
            "{what}: workflow command or not in {line:?}\n{text}"
        );
    }
    if let Some(commands) = commands {
        assert_eq!(lines.len(), commands, "{what}: the commands\n{text}");
    }
}

/// Runs every format of `check` on `dir` (under `root`), checks each output and stderr, and
/// returns the outputs of the human format without colour, the short format and the github
/// format.
fn check_every_format(root: &Path, dir: &str, findings: usize) -> [String; 3] {
    let mut kept = Vec::new();
    for (i, (args, github)) in FORMATS.into_iter().enumerate() {
        let args: Vec<&str> = args.iter().copied().chain([dir]).collect();
        let out = tflint_merge(root, &args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {out:?}");
        let what = format!("{args:?}");
        assert_harmless(&what, &out.stdout, github.then_some(findings + 1));
        assert_harmless(&format!("{what} stderr"), &out.stderr, None);
        if matches!(i, 0 | 2 | 5) {
            kept.push(String::from_utf8_lossy(&out.stdout).into_owned());
        }
    }
    kept.try_into().expect("three outputs")
}

/// A backend label that ends a line and starts a workflow command of its own.
#[test]
fn an_injected_label_starts_no_command() {
    let t = tempfile::tempdir().expect("tempdir");
    let label = b"terraform {\n  backend \"x\\n::error file=README.md,line=1::INJECTED\" {}\n}\n";
    write(t.path(), &[("m/main.tf", label)]);
    let [human, _, github] = check_every_format(t.path(), "m", 1);
    let shown = "no backend is called `x\\n::error file=README.md,line=1::INJECTED`";
    assert!(human.contains(shown), "{human}");
    let data = "There is no backend type named \"x\\n::error file=README.md,line=1::INJECTED\"";
    assert!(github.contains(data), "{github}");
}

/// ESC, OSC and BEL in a file name: shown escaped, in every format.
#[test]
fn a_file_name_retitles_no_terminal() {
    let t = tempfile::tempdir().expect("tempdir");
    let name = "m/a\x1b]0;pwned\x07_override.tf";
    write(t.path(), &[(name, b"variable \"a\" {}\n")]);
    let [human, short, github] = check_every_format(t.path(), "m", 1);
    let shown = "m/a\\x1b]0;pwned\\x07_override.tf";
    assert!(human.contains(&format!("┌─ {shown}:1:1")), "{human}");
    assert!(short.starts_with(&format!("{shown}:1:1: ")), "{short}");
    assert!(github.contains(&format!("file={shown},")), "{github}");
}

/// ESC, OSC and BEL in a string on a line an excerpt shows: escaped in the excerpt, the
/// carets still under the label, and the column counted in the file.
#[test]
fn a_string_in_an_excerpt_retitles_no_terminal() {
    let t = tempfile::tempdir().expect("tempdir");
    let content = b"terraform {\n  backend \"x\x1b]0;pwned\x07\xc2\x9b31m\" {}\n}\n";
    write(t.path(), &[("m/main.tf", content)]);
    let [human, short, _] = check_every_format(t.path(), "m", 1);
    // The finding is on the backend's type label, whose escaped text the carets span.
    let excerpt = "2 │   backend \"x\\x1b]0;pwned\\x07\\u{9b}31m\" {}\n  │           ";
    assert!(human.contains(excerpt), "{human}");
    assert!(
        human.contains(&format!("{excerpt}{} ", "^".repeat(28))),
        "{human}"
    );
    assert!(human.contains("┌─ m/main.tf:2:11"), "{human}");
    assert!(short.starts_with("m/main.tf:2:11: "), "{short}");
}

/// A file of NUL-separated settings (as `/proc/self/environ` reads) that does not parse: its
/// line is shown with each NUL escaped, in one line.
#[test]
fn a_nul_separated_line_is_shown_escaped() {
    let t = tempfile::tempdir().expect("tempdir");
    write(t.path(), &[("m/env.tf", b"A=1\0SECRET=x\0")]);
    let [human, _, _] = check_every_format(t.path(), "m", 1);
    assert!(human.contains("1 │ A=1\\0SECRET=x\\0\n"), "{human}");
}

/// A file name that holds a newline and a command, in the commands that print file names
/// besides `check`: the comments of `merged`, the headers of `--diff` (quoted as git quotes
/// them, which `git apply` reads), the nodes of `graph`.
#[test]
fn other_commands_start_no_command() {
    let t = tempfile::tempdir().expect("tempdir");
    let variable: &[u8] = b"variable \"a\" {\n  default = 1\n}\n";
    write(
        t.path(),
        &[
            ("m/main.tf", variable),
            ("m/x\n::error::y\x1b_override.tf", variable),
            (
                "live/a\n::error::x\x07/terragrunt.hcl",
                b"include {\n  path = \"../root.hcl\"\n}\n",
            ),
            ("live/root.hcl", b"locals {}\n"),
        ],
    );
    for args in [
        &["merged", "m"][..],
        &["merged", "m", "--format", "json"],
        &["--diff", "m"],
        &["graph", "live"],
        &["graph", "live", "--format", "json"],
    ] {
        let out = tflint_merge(t.path(), args);
        assert_harmless(&format!("{args:?}"), &out.stdout, None);
        assert_harmless(&format!("{args:?} stderr"), &out.stderr, None);
    }
    let merged = tflint_merge(t.path(), &["merged", "m"]);
    let comment = "# from main.tf, merged with x\\n::error::y\\x1b_override.tf\n";
    assert!(String::from_utf8_lossy(&merged.stdout).contains(comment));
    let diff = tflint_merge(t.path(), &["--diff", "m"]);
    let header = "--- \"a/m/x\\n::error::y\\033_override.tf\"\n+++ /dev/null\n";
    assert!(String::from_utf8_lossy(&diff.stdout).starts_with(header));
    let graph = tflint_merge(t.path(), &["graph", "live"]);
    let node = "\"live/a\\\\n::error::x\\\\x07/terragrunt.hcl\"";
    assert!(String::from_utf8_lossy(&graph.stdout).contains(node));
}

/// What the command line and the config file give is printed escaped too: `--show-settings`,
/// a missing path, an unknown rule.
#[test]
fn settings_and_usage_errors_start_no_command() {
    let t = tempfile::tempdir().expect("tempdir");
    let config = b"exclude:\n  - \"a\\n::error::x\\e\"\n";
    write(
        t.path(),
        &[(".tflint-merge.yaml", config), ("m/main.tf", b"")],
    );
    let runs = [
        tflint_merge(t.path(), &["--show-settings", "m"]),
        tflint_merge(
            t.path(),
            &["--exclude", "b\n::error::y", "--show-settings", "m"],
        ),
        tflint_merge(t.path(), &["missing\n::error::z\x1b"]),
        tflint_merge(t.path(), &["explain", "x\n::error::w"]),
    ];
    for out in &runs {
        assert_harmless("stdout", &out.stdout, None);
        assert_harmless("stderr", &out.stderr, None);
    }
    let settings = String::from_utf8_lossy(&runs[1].stdout);
    assert!(
        settings.contains("exclude: a\\n::error::x\\x1b  ("),
        "{settings}"
    );
    assert!(
        settings.contains("exclude: b\\n::error::y  ("),
        "{settings}"
    );
}
