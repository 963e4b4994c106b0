//! Every input a fuzzer found (or that the issue tracker reported as a hang or a false error),
//! kept for good: `tests/fuzz_regressions/TARGET/*` goes through the same entry point as the
//! fuzz target of that name (`fuzz/fuzz_targets/`), and must finish without a panic, in time.
//! `scripts/fuzz.sh` copies each new crash or timeout here.

use std::path::Path;
use std::time::{Duration, Instant};

/// libFuzzer's `-timeout=2` is for an optimised build; this leaves room for a debug build on a
/// loaded machine while still catching a hang.
const LIMIT: Duration = Duration::from_secs(20);

fn each_input(target: &str, run: impl Fn(&[u8])) {
    let dir = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fuzz_regressions"
    ))
    .join(target);
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .expect("the regression inputs")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no inputs in {}", dir.display());
    for input in inputs {
        let data = std::fs::read(&input).expect("read the input");
        let start = Instant::now();
        run(&data);
        let elapsed = start.elapsed();
        assert!(elapsed < LIMIT, "{} took {elapsed:?}", input.display());
    }
}

#[test]
fn parse_native() {
    each_input("parse_native", |data| {
        if let Ok(text) = std::str::from_utf8(data) {
            tflint_merge::fuzzing::parse_native(text);
        }
    });
}

#[test]
fn parse_json() {
    each_input("parse_json", |data| {
        if let Ok(text) = std::str::from_utf8(data) {
            tflint_merge::fuzzing::parse_json(text);
        }
    });
}

#[test]
fn directory() {
    each_input("directory", |data| {
        tflint_merge::fuzzing::check_files(data);
    });
}

/// The shapes that once grew super-linearly (#37: operators that made hcl-edit backtrack, in
/// parentheses and in a heredoc; large objects; a repeated argument; deep nesting), as inputs
/// of the `linear_work` target: a prefix, a unit repeated, a suffix.
#[test]
fn linear_work() {
    each_input("linear_work", |data| {
        if let Some(growth) = tflint_merge::fuzzing::super_linear_growth(data) {
            panic!("{growth}");
        }
    });
}
