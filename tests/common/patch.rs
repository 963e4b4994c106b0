//! GNU `patch`, for the tests that apply `tflint-merge --diff` output (Debian's `patch`
//! package; CI must have it).

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

/// Whether `patch` can run; when not, says so on the process's stderr (the harness hides
/// `eprintln!` of a passing test), and fails in CI, which must not skip.
pub fn available() -> bool {
    if Command::new("patch").arg("--version").output().is_ok() {
        return true;
    }
    assert!(std::env::var_os("CI").is_none(), "`patch` is not installed");
    let _ = writeln!(std::io::stderr(), "skipped: `patch` is not installed");
    false
}

/// Applies `diff` in `dir` with `patch -p1`; whether it applied cleanly.
pub fn apply(dir: &Path, diff: &[u8]) -> bool {
    run(dir, diff, &["-p1", "--quiet"])
}

/// Whether `patch -p1 --dry-run` in `dir` would apply `diff` cleanly (it changes nothing).
#[allow(dead_code)] // Not every test file that includes this module checks without applying.
pub fn dry_run(dir: &Path, diff: &[u8]) -> bool {
    run(dir, diff, &["-p1", "--quiet", "--dry-run"])
}

fn run(dir: &Path, diff: &[u8], args: &[&str]) -> bool {
    let mut patch = Command::new("patch")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .spawn()
        .expect("run patch");
    let mut stdin = patch.stdin.take().expect("stdin");
    stdin.write_all(diff).expect("feed patch");
    drop(stdin);
    patch.wait().expect("patch").success()
}
