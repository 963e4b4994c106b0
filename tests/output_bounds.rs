//! Output that cannot explode: a CI log or a SARIF upload is where a user meets it. How the
//! time grows with the input is measured by `scripts/bench.sh` (its scaling rows); this test
//! checks what does not depend on the machine's load, the size of what is printed.

use std::path::Path;
use std::process::{Command, Stdio};

/// `tflint-merge ARGS m` in `dir`, colour off: its standard output, after checking that it
/// exits 1 (findings).
fn run(dir: &Path, args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .args(["--color", "never"])
        .args(args)
        .arg("m")
        .current_dir(dir)
        .stderr(Stdio::null())
        .output()
        .expect("run tflint-merge");
    assert_eq!(output.status.code(), Some(1), "{args:?}");
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// `tflint-merge --format FORMAT m` in `dir`: the size of its standard output.
fn output_size(dir: &Path, format: &str) -> usize {
    run(dir, &["--format", format]).len()
}

/// A directory holding `m/NAME` with `text`.
fn module_with(name: &str, text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("m")).expect("mkdir");
    std::fs::write(dir.path().join("m").join(name), text).expect("write");
    dir
}

/// A one-line `.tf.json` file: `locals` with `pairs` keys named `k0` to `k9` in turn, each
/// set to `value` (a JSON value): every key after the first ten is a duplicate.
fn repeated_keys(pairs: usize, value: &str) -> String {
    let pairs: Vec<String> = (0..pairs)
        .map(|i| format!("\"k{}\":{value}", i % 10))
        .collect();
    format!("{{\"locals\":{{{}}}}}", pairs.join(","))
}

/// What the finding that stands for those not shown says, for `count` duplicate keys.
fn not_shown(count: usize) -> String {
    format!("{count} more `duplicate_definition` findings in this file are not shown")
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
    let dir = module_with(name, text);
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

/// 100,000 keys of `locals` repeating ten names on one line of a 700 KB file: 99,990
/// duplicates. Past 1,000 of one rule in one file, one finding says how many more there are, in
/// every format; the summary line, JSON's summary, `--statistics` and the exit status still
/// count every one.
#[test]
fn a_hundred_thousand_duplicate_keys_print_a_thousand_and_a_count() {
    let text = repeated_keys(100_000, "1");
    assert_bounded("main.tf.json", &text);
    let dir = module_with("main.tf.json", &text);
    let more = not_shown(99_990 - 1_000);
    for format in FORMATS {
        let output = run(dir.path(), &["--format", format]);
        assert!(output.contains(&more), "{format}: no `{more}`");
    }
    let human = run(dir.path(), &["--format", "human"]);
    assert!(
        human.ends_with("99990 errors in 1 directory (1 file)\n"),
        "{human}"
    );
    assert_eq!(human.matches("error[duplicate_definition]").count(), 1_001);
    let json: serde_json::Value =
        serde_json::from_str(&run(dir.path(), &["--format", "json"])).expect("JSON");
    assert_eq!(json["summary"]["findings"]["error"], 99_990);
    let statistics = run(dir.path(), &["--statistics"]);
    assert_eq!(statistics, "99990  duplicate_definition  error\n");
}

/// `--show-all-findings` shows every finding, past the bound too.
#[test]
fn show_all_findings_lifts_the_bound() {
    let dir = module_with("main.tf.json", &repeated_keys(1_510, "1"));
    let lines = |args: &[&str]| run(dir.path(), args).lines().count();
    assert_eq!(lines(&["--format", "short"]), 1_001);
    assert_eq!(lines(&["--format", "short", "--show-all-findings"]), 1_500);
}

/// A 10 MB one-line file with 100,000 findings: every format prints at most twenty times the
/// input, the human format on its own (rendered as findings come) and the others as reports of
/// one run (`--output-file FORMAT=PATH`).
#[test]
fn ten_megabytes_on_one_line_with_a_hundred_thousand_findings_print_little() {
    let text = repeated_keys(100_000, &format!("\"{}\"", "x".repeat(92)));
    assert!(text.len() >= 10_000_000);
    let dir = module_with("main.tf.json", &text);
    let bound = 20 * text.len();
    let human = run(dir.path(), &["--format", "human"]);
    assert!(human.len() <= bound, "human: {} bytes", human.len());
    assert!(human.contains(&not_shown(99_990 - 1_000)));
    let mut args = vec!["--format".to_string(), "short".to_string()];
    for format in &FORMATS[2..] {
        args.extend(["--output-file".into(), format!("{format}=out.{format}")]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let short = run(dir.path(), &args);
    assert!(short.len() <= bound, "short: {} bytes", short.len());
    for format in &FORMATS[2..] {
        let output =
            std::fs::read_to_string(dir.path().join(format!("out.{format}"))).expect("the report");
        assert!(output.len() <= bound, "{format}: {} bytes", output.len());
        assert!(output.contains(&not_shown(99_990 - 1_000)), "{format}");
    }
}
