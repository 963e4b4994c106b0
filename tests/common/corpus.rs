//! The real modules that tests run on: the sample kept in the repository
//! (`tests/corpus_sample`, always there) and the whole corpus, which sits beside a development
//! checkout as `../shared/corpus` and is not part of the repository. The one place that decides
//! what a test does without the whole corpus: it says so and skips, and under CI it fails.
//!
//! Included by the integration tests (`#[path = "common/corpus.rs"] mod corpus;`) and by the
//! unit tests (`crate::syntax::corpus`).

// Each test crate that includes this file uses only part of it.
#![allow(dead_code)]

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Whether this is a CI run (`CI` set, and not to `false` or `0`): there, nothing may be
/// skipped.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// The sample of real modules in the repository (its README names where they come from).
pub fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus_sample")
}

/// The whole corpus, when it is beside the checkout. When it is not, `test` skips what needs
/// it: this says so and returns `None`, or fails the test in CI.
pub fn whole(test: &str) -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if root.is_dir() {
        return Some(root);
    }
    assert!(
        !in_ci(),
        "{test}: ../shared/corpus is absent, and CI must not skip the tests that need it"
    );
    // To the process's stderr, not through `eprintln!`, which the test harness captures and
    // hides for a passing test: `cargo test` must show what it did not test.
    let _ = writeln!(
        std::io::stderr(),
        "skipped: {test}: ../shared/corpus is absent"
    );
    None
}

/// The sample, and the whole corpus when it is there: where a test that means something on
/// either runs.
pub fn roots(test: &str) -> Vec<PathBuf> {
    std::iter::once(sample()).chain(whole(test)).collect()
}

/// Every file below `root`, sorted.
pub fn files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}
