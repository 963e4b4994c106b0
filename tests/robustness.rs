//! No input may hang the run, exhaust memory or take super-linear time: special files, endless
//! devices, inputs that make a parser backtrack, symlink diamonds. Every run here is bounded by
//! a watchdog, so that a regression fails the test instead of hanging the suite.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Far above what any of these runs needs; only a hang reaches it.
const WATCHDOG: Duration = Duration::from_secs(60);

/// Runs the binary in `dir`, killing it (and failing the test) if it outlives the watchdog.
fn run(dir: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tflint-merge");
    let start = Instant::now();
    while child.try_wait().expect("poll the child").is_none() {
        if start.elapsed() > WATCHDOG {
            child.kill().expect("kill the hung child");
            panic!("tflint-merge {args:?} hung for more than {WATCHDOG:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("collect the output")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn write(root: &Path, files: &[(&str, &str)]) {
    for (name, content) in files {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, content).expect("write");
    }
}

/// A healthy directory with one finding, checked beside the bad input to show that its result
/// still comes.
const HEALTHY: &[(&str, &str)] = &[
    ("healthy/main.tf", "variable \"a\" {}\n"),
    ("healthy/override.tf", "variable \"missing\" {}\n"),
];

#[cfg(unix)]
fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// A module directory `m` whose `main.tf` is the special file `make` creates: the check and
/// `merged` report a read error saying it is `kind`, and the healthy directory beside it is
/// still checked.
#[cfg(unix)]
fn special_main_tf_is_a_read_error<T>(make: impl FnOnce(&Path) -> T, kind: &str) {
    let t = tempfile::tempdir().expect("tempdir");
    write(t.path(), HEALTHY);
    write(t.path(), &[("m/variables.tf", "variable \"b\" {}\n")]);
    let _special = make(&t.path().join("m/main.tf"));
    let out = run(t.path(), &["--format", "short", "."]);
    let text = stdout(&out);
    let error = format!(
        "m/main.tf: error[read_error]: Failed to read file: it is {kind}, not a regular file"
    );
    assert!(text.contains(&error), "{text}");
    assert!(text.contains("healthy/override.tf"), "{text}");
    assert_eq!(out.status.code(), Some(1));

    let merged = run(t.path(), &["merged", "m"]);
    let errors = String::from_utf8_lossy(&merged.stderr);
    assert!(errors.contains(kind), "{errors}");
}

#[cfg(unix)]
#[test]
fn a_fifo_named_like_a_configuration_file_is_a_read_error_not_a_hang() {
    special_main_tf_is_a_read_error(mkfifo, "a named pipe (FIFO)");
}

/// A socket cannot be opened at all: the read error still says what it is.
#[cfg(unix)]
#[test]
fn a_socket_named_like_a_configuration_file_is_a_read_error() {
    let bind = |path: &Path| std::os::unix::net::UnixListener::bind(path).expect("bind a socket");
    special_main_tf_is_a_read_error(bind, "a socket");
}

#[cfg(unix)]
#[test]
fn a_fifo_as_terragrunt_unit_or_config_file_is_a_read_error_not_a_hang() {
    let t = tempfile::tempdir().expect("tempdir");
    write(t.path(), HEALTHY);
    mkfifo(&t.path().join("live/app/terragrunt.hcl"));
    let out = run(t.path(), &["--format", "short", "."]);
    let text = stdout(&out);
    assert!(
        text.contains(
            "live/app/terragrunt.hcl: error[read_error]: Failed to read file: it is a named pipe"
        ),
        "{text}"
    );
    assert!(text.contains("healthy/override.tf"), "{text}");
    run(t.path(), &["graph", "live"]);

    mkfifo(&t.path().join("config.yaml"));
    let out = run(t.path(), &["--config", "config.yaml", "healthy"]);
    let errors = String::from_utf8_lossy(&out.stderr);
    assert!(
        errors.contains("cannot read: it is a named pipe (FIFO)"),
        "{errors}"
    );
    assert_eq!(out.status.code(), Some(2));
}

#[cfg(unix)]
#[test]
fn a_link_to_an_endless_device_is_a_read_error_not_a_read_until_memory_runs_out() {
    let t = tempfile::tempdir().expect("tempdir");
    write(t.path(), HEALTHY);
    write(t.path(), &[("m/variables.tf", "variable \"b\" {}\n")]);
    std::os::unix::fs::symlink("/dev/zero", t.path().join("m/main.tf")).expect("symlink");
    let out = run(t.path(), &["--format", "short", "."]);
    let text = stdout(&out);
    assert!(
        text.contains(
            "m/main.tf: error[read_error]: Failed to read file: it lies outside the checked paths"
        ),
        "{text}"
    );
    assert!(text.contains("healthy/override.tf"), "{text}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_configuration_file_whose_name_is_not_utf8_is_reported_not_skipped() {
    use std::os::unix::ffi::OsStrExt;
    let t = tempfile::tempdir().expect("tempdir");
    write(t.path(), HEALTHY);
    let name = std::ffi::OsStr::from_bytes(b"m/caf\xe9.tf");
    write(t.path(), &[("m/main.tf", "variable \"a\" {}\n")]);
    std::fs::write(t.path().join(name), "variable \"b\" {}\n").expect("write");
    let out = run(t.path(), &["--format", "short", "."]);
    let text = stdout(&out);
    assert!(
        text.contains("m/caf\u{FFFD}.tf: error[read_error]: file name is not valid UTF-8"),
        "{text}"
    );
    assert!(text.contains("healthy/override.tf"), "{text}");
    assert_eq!(out.status.code(), Some(1));
}

/// No single file can stall the run, so no directory's results are held hostage by another's:
/// every kind of input that once hung or ran for hours, side by side with a healthy directory,
/// and the healthy directory's finding comes, with each bad one reported, in well under the
/// watchdog's time.
#[cfg(unix)]
#[test]
fn no_single_file_holds_the_other_directories_results_hostage() {
    let t = tempfile::tempdir().expect("tempdir");
    write(t.path(), HEALTHY);
    let doubling = format!("x = {}&\n", "a<b<c[d".repeat(30));
    let in_json = format!(
        "{{\"locals\": {{\"x\": \"${{{}&}}\"}}}}",
        "a<b<c[d".repeat(30)
    );
    write(
        t.path(),
        &[
            ("backtracks/main.tf", doubling.as_str()),
            ("backtracks_json/main.tf.json", in_json.as_str()),
            ("endless/variables.tf", "variable \"b\" {}\n"),
        ],
    );
    mkfifo(&t.path().join("fifo/main.tf"));
    std::os::unix::fs::symlink("/dev/zero", t.path().join("endless/main.tf")).expect("symlink");
    let diamond = t.path().join("diamond");
    for level in 0..=20 {
        let dir = diamond.join(format!("level{level}"));
        std::fs::create_dir_all(&dir).expect("mkdir");
        if level > 0 {
            let above = diamond.join(format!("level{}", level - 1));
            for link in ["left", "right"] {
                std::os::unix::fs::symlink(&dir, above.join(link)).expect("symlink");
            }
        }
    }
    let start = Instant::now();
    let out = run(t.path(), &["--format", "short", "."]);
    let elapsed = start.elapsed();
    let text = stdout(&out);
    for expected in [
        "healthy/override.tf",
        "backtracks/main.tf:1:",
        "backtracks_json/main.tf.json:1:",
        "fifo/main.tf: error[read_error]",
        "endless/main.tf: error[read_error]",
    ] {
        assert!(text.contains(expected), "no {expected:?} in {text}");
    }
    assert!(elapsed < Duration::from_secs(10), "took {elapsed:?}");
}

/// `merged` parses on the thread that runs the command. Terraform loads a configuration nested
/// a thousand levels deep; the command must not depend on the main thread's stack, which the
/// platform sets (1 MiB on Windows, emulated here with `ulimit -s`).
#[test]
fn merged_parses_deep_nesting_whatever_the_main_threads_stack() {
    let dir = tempfile::tempdir().unwrap();
    let depth = 1_000;
    let value = format!("{}1{}", "[(".repeat(depth / 2), ")]".repeat(depth / 2));
    write(
        dir.path(),
        &[("main.tf", &format!("locals {{\n  deep = {value}\n}}\n"))],
    );
    let output = Command::new("sh")
        .arg("-c")
        .arg("ulimit -s 1024 && exec \"$0\" merged \"$1\"")
        .arg(env!("CARGO_BIN_EXE_tflint-merge"))
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout(&output).contains("deep"), "{}", stdout(&output));
}
