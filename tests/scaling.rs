//! Inputs that were once super-linear stay linear: for each, checking an input ten times the
//! size takes well under a hundred times as long.
//!
//! Timings on a shared machine are noisy, so each size is timed as the best of a few runs and
//! the bound is generous: a linear path gives a ratio of about 10 (less, with fixed costs), a
//! quadratic one about 100. The sizes are kept small so that the suite stays quick.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tflint_merge::{ViewSelection, check_directory};

/// The largest ratio of the time at 10× the size to the time at 1× that passes.
const MAX_RATIO: f64 = 25.0;

/// Below this, a time is mostly fixed costs and noise: it is counted as this much.
const FLOOR: Duration = Duration::from_millis(5);

fn best_of_three(mut run: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
        .max(FLOOR)
}

/// Writes `files(size)` for `base` and `10 * base` and checks that `run` scales linearly.
fn assert_linear(
    what: &str,
    base: usize,
    files: impl Fn(usize) -> Vec<(String, String)>,
    run: impl Fn(&Path),
) {
    let time = |size: usize| {
        let dir = tempfile::tempdir().expect("tempdir");
        for (name, text) in files(size) {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        }
        best_of_three(|| run(dir.path()))
    };
    let small = time(base);
    let large = time(base * 10);
    let ratio = large.as_secs_f64() / small.as_secs_f64();
    eprintln!(
        "{what}: {base}: {small:?}, {}: {large:?}: {ratio:.1}×",
        base * 10
    );
    assert!(
        ratio < MAX_RATIO,
        "{what}: {base} took {small:?}, {} took {large:?}: {ratio:.1}× (at most {MAX_RATIO}×)",
        base * 10
    );
}

fn check(dir: &Path) {
    check_directory(&dir.join("m"), ViewSelection::Both, &[]).expect("check");
}

fn binary(dir: &Path, args: &[&str]) {
    let status = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("run tflint-merge");
    assert!(status.code().is_some_and(|code| code <= 2), "{status}");
}

fn one_file(name: &str, text: String) -> Vec<(String, String)> {
    vec![(format!("m/{name}"), text)]
}

#[test]
fn many_attributes_in_one_body() {
    assert_linear(
        "attributes in one locals block",
        2_000,
        |n| {
            let body: String = (0..n).map(|i| format!("  a{i} = {i}\n")).collect();
            one_file("main.tf", format!("locals {{\n{body}}}\n"))
        },
        check,
    );
}

#[test]
fn repeated_attribute_in_a_large_file() {
    assert_linear(
        "a file with 20 repeated attributes, by size",
        400,
        |n| {
            let mut text: String = (0..n)
                .map(|i| format!("resource \"x\" \"r{i}\" {{\n  v = {i}\n}}\n"))
                .collect();
            text.push_str(&"dup = 1\n".repeat(20));
            one_file("main.tf", text)
        },
        check,
    );
}

#[test]
fn one_local_repeated_in_json() {
    assert_linear(
        "one key repeated in a .tofu.json locals object",
        1_000,
        |n| {
            let pairs = vec!["\"k\": 1"; n].join(", ");
            one_file("main.tofu.json", format!("{{\"locals\": {{{pairs}}}}}"))
        },
        check,
    );
    assert_linear(
        "one local repeated in as many .tofu.json locals blocks",
        1_000,
        |n| {
            let blocks = vec!["{\"k\": 1}"; n].join(", ");
            one_file("main.tofu.json", format!("{{\"locals\": [{blocks}]}}"))
        },
        check,
    );
}

#[test]
fn findings_under_ignore_comments() {
    assert_linear(
        "findings each under an ignore comment",
        1_000,
        |n| {
            let text: String = (0..n)
                .map(|i| {
                    format!(
                        "module \"m{i}\" {{\n  # tflint-merge-ignore: module_source_not_static\n  \
                         source = var.s\n}}\n"
                    )
                })
                .collect();
            one_file("main.tf", text)
        },
        check,
    );
}

#[test]
fn deeply_nested_config_file_is_refused_before_parsing() {
    assert_linear(
        "a configuration file nested deeper and deeper",
        20_000,
        |n| {
            let nested = format!("exclude: {}{}\n", "[".repeat(n), "]".repeat(n));
            vec![
                (".tflint-merge.yaml".into(), nested),
                ("m/main.tf".into(), "variable \"a\" {}\n".into()),
            ]
        },
        |dir| binary(dir, &["."]),
    );
}

/// A one-line JSON file whose every key repeats the first: a finding every 100 bytes of one
/// line, each with two labels, the first far from the second. Every format's output grows
/// with the findings, not with the line (the human format shows the text around each label,
/// not the line), and stays under 20 times the input's size.
#[test]
fn findings_on_one_long_line_render_in_output_linear_in_them() {
    let line = |n: usize| {
        let pair = format!("\"k\": \"{}\"", "x".repeat(91));
        let pairs = vec![pair; n].join(",");
        one_file("main.tf.json", format!("{{\"locals\": {{{pairs}}}}}"))
    };
    let output_size = |dir: &Path, format: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
            .args(["--format", format, "--color", "never", "m"])
            .current_dir(dir)
            .stderr(Stdio::null())
            .output()
            .expect("run tflint-merge");
        assert_eq!(output.status.code(), Some(1), "{format}");
        output.stdout.len()
    };
    let all = [
        "human",
        "short",
        "json",
        "sarif",
        "github",
        "checkstyle",
        "junit",
        "gitlab",
    ];
    for (n, formats) in [(1_000, &all[..]), (10_000, &all[..3])] {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut input = 0;
        for (name, text) in line(n) {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            input += text.len();
            std::fs::write(path, text).expect("write");
        }
        for format in formats {
            let size = output_size(dir.path(), format);
            assert!(size <= 20 * input, "{format}: {size} bytes from {input}");
        }
    }
    // SARIF and GitLab are left out of the timing: their fingerprints hash each finding's
    // whole line, which is for the fingerprints to bound.
    for format in ["human", "short", "json", "github", "checkstyle", "junit"] {
        assert_linear(
            &format!("{format} output of findings on one long line"),
            1_000,
            line,
            |dir| _ = output_size(dir, format),
        );
    }
}

#[test]
fn many_files_in_one_directory() {
    assert_linear(
        "files in one directory",
        2_000,
        |n| {
            (0..n)
                .map(|i| (format!("m/v{i}.tf"), format!("variable \"v{i}\" {{}}\n")))
                .collect()
        },
        check,
    );
}

/// Ignore comments naming rules that do not exist are reported in time linear in their
/// number.
#[test]
fn ignore_comments_naming_unknown_rules() {
    let comments = |n: usize| {
        let text: String = (0..n)
            .map(|i| format!("# tflint-merge-ignore: no_such_rule_{i}\nvariable \"v{i}\" {{}}\n"))
            .collect();
        one_file("main.tf", text)
    };
    assert_linear(
        "ignore comments naming unknown rules",
        500,
        comments,
        |dir| binary(dir, &["m"]),
    );
}

/// `--fix` applies many fixes to one file (one per unused ignore comment, say) in time linear
/// in their number: an edit is looked up among those accepted, and the text is rebuilt once.
#[test]
fn many_fixes_of_one_file() {
    use std::path::PathBuf;
    use tflint_merge::fix::{Applicability, Fix, Texts, apply};
    let time = |n: usize| {
        let line = "# tflint-merge-ignore: x\n";
        let path = PathBuf::from("main.tf");
        let fixes: Vec<Fix> = (0..n)
            .map(|i| {
                let range = i * line.len()..(i + 1) * line.len();
                Fix::new("remove", Applicability::Safe).edit(&path, range, "")
            })
            .collect();
        let fixes: Vec<&Fix> = fixes.iter().collect();
        best_of_three(|| {
            let mut texts: Texts = [(path.clone(), Some(line.repeat(n)))].into_iter().collect();
            let outcome = apply(&mut texts, &fixes);
            assert_eq!(outcome.applied.len(), n);
            assert_eq!(texts[&path].as_deref(), Some(""));
        })
    };
    let (small, large) = (time(5_000), time(50_000));
    let ratio = large.as_secs_f64() / small.as_secs_f64();
    eprintln!("fixes of one file: 5000: {small:?}, 50000: {large:?}: {ratio:.1}×");
    assert!(ratio < MAX_RATIO, "{ratio:.1}× (at most {MAX_RATIO}×)");
}
