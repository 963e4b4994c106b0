//! Output that cannot explode: a CI log or a SARIF upload is where a user meets it. How the
//! time grows with the input is measured by `scripts/bench.sh` (its scaling rows); this test
//! checks what does not depend on the machine's load, the size of what is printed.

use std::process::{Command, Stdio};

/// `tflint-merge --format FORMAT m` in `dir`: the size of its standard output.
fn output_size(dir: &std::path::Path, format: &str) -> usize {
    let output = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .args(["--format", format, "--color", "never", "m"])
        .current_dir(dir)
        .stderr(Stdio::null())
        .output()
        .expect("run tflint-merge");
    assert_eq!(output.status.code(), Some(1), "{format}");
    output.stdout.len()
}

/// Every format, each printing the source or the places of a finding in its own way.
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

/// Asserts that every format prints at most twenty times the size of `text`, written to
/// `m/NAME` of a fresh directory.
fn assert_bounded(name: &str, text: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("m")).expect("mkdir");
    std::fs::write(dir.path().join("m").join(name), text).expect("write");
    for format in FORMATS {
        let size = output_size(dir.path(), format);
        assert!(
            size <= 20 * text.len(),
            "{name}, {format}: {size} bytes from {}",
            text.len()
        );
    }
}

/// Many duplicate keys on one minified JSON line: every format's output grows with the
/// findings, not with the line times the findings (the human format shows the text around each
/// label, not the whole line), and stays under 20 times the input's size.
#[test]
fn findings_on_one_long_line_print_at_most_twenty_times_the_input() {
    let pair = format!("\"k\": \"{}\"", "x".repeat(91));
    let text = format!("{{\"locals\": {{{}}}}}", vec![pair; 2_000].join(","));
    assert_bounded("main.tf.json", &text);
}

/// Duplicate keys in a file only OpenTofu reads: `views_diverge` then names every error
/// OpenTofu alone reports in one finding, 500 labels on one line. The human format shows the
/// first few, not a row per label drawn across the columns of all the others (their square).
#[test]
fn a_finding_with_hundreds_of_places_on_one_line_prints_a_few() {
    let pair = format!("\"{}\": 1", "k".repeat(200));
    let text = format!("{{\"locals\": {{{}}}}}", vec![pair; 500].join(", "));
    assert_bounded("main.tofu.json", &text);
}
