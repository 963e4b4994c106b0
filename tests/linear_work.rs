//! Work that grows with the input, measured without a clock: each input that was once
//! super-linear is checked at a size and at ten times that size through the public entry point
//! that the fuzz targets use (`tflint_merge::fuzzing::check_everything`: both views, every
//! rule, every output format, every printed form of the effective modules), and the
//! allocations made meanwhile are counted. A linear path makes about ten times as many at ten
//! times the size; a quadratic one (a line copied per finding, a body scanned per attribute, a
//! file parsed again per repeat) about a hundred. Counts do not depend on the machine's load
//! or speed, so the bounds are tight and the test cannot flake on a busy CI machine, as wall
//! times did. `scripts/bench.sh` measures the time of the same shapes.

use std::path::Path;

#[path = "common/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::Counting;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Held by each test while it counts: the counts are of the whole process, and the test
/// harness runs tests on parallel threads.
static COUNTING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The allocations (calls, bytes) of checking a directory holding `files`.
fn work(files: &[(&str, String)]) -> (u64, u64) {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    let (calls, bytes) = counting_alloc::asked();
    let rendered = tflint_merge::fuzzing::check_everything(Path::new(dir.path()));
    assert!(rendered > 0, "nothing rendered");
    let (calls_after, bytes_after) = counting_alloc::asked();
    (calls_after - calls, bytes_after - bytes)
}

/// Each input that was once super-linear, by name, as the files of a directory at size `n`.
fn inputs(n: usize) -> Vec<(&'static str, Vec<(&'static str, String)>)> {
    let pairs = |pair: &str, n: usize| vec![pair.to_string(); n].join(", ");
    vec![
        (
            "attributes in a body",
            vec![(
                "main.tf",
                format!(
                    "locals {{\n{}}}\n",
                    (0..n)
                        .map(|i| format!("  a{i} = {i}\n"))
                        .collect::<String>()
                ),
            )],
        ),
        (
            "items of an object",
            vec![(
                "main.tf",
                format!(
                    "locals {{\n  o = {{\n{}  }}\n}}\n",
                    (0..n)
                        .map(|i| format!("    k{i} = 1\n"))
                        .collect::<String>()
                ),
            )],
        ),
        (
            // #37: a million of them once took 8 GB.
            "objects in a tuple",
            vec![(
                "main.tf",
                format!(
                    "locals {{\n  t = [{}]\n}}\n",
                    vec!["{ a = 1 }"; n].join(", ")
                ),
            )],
        ),
        (
            // #37: a million of them once took 3 GB.
            "parenthesised operations",
            vec![(
                "main.tf",
                format!("locals {{\n  p = {}\n}}\n", vec!["(1 + 2)"; n].join(" * ")),
            )],
        ),
        (
            "JSON key repeated on one line",
            vec![(
                "main.tf.json",
                format!("{{\"locals\": {{{}}}}}", pairs("\"k\": 1", n)),
            )],
        ),
        (
            "JSON key repeated in a file one tool reads",
            vec![(
                "main.tofu.json",
                format!("{{\"locals\": {{{}}}}}", pairs("\"k\": 1", n)),
            )],
        ),
        (
            "JSON string with escapes",
            vec![(
                "main.tf.json",
                format!(
                    "{{\"locals\": {{\"a\": \"{}\"}}}}",
                    "\\n\\u00e9\\\"x$${a}".repeat(n)
                ),
            )],
        ),
        (
            "findings on one long line",
            vec![(
                "main.tf.json",
                format!(
                    "{{\"locals\": {{{}}}}}",
                    pairs(&format!("\"k\": \"{}\"", "x".repeat(91)), n / 10)
                ),
            )],
        ),
        (
            "ignores naming unknown rules",
            vec![(
                "main.tf",
                (0..n / 2)
                    .map(|i| {
                        format!("# tflint-merge-ignore: no_such_rule_{i}\nvariable \"v{i}\" {{}}\n")
                    })
                    .collect(),
            )],
        ),
        (
            // Each unused ignore's fix removes a trailing comment of one long run of aligned
            // attributes: fmt's alignment around each is judged without reading the run again.
            "fixes in one run of aligned lines",
            vec![(
                "main.tf",
                format!(
                    "locals {{\n{}}}\n",
                    (0..n / 10)
                        .map(|i| format!(
                            "  a{i:06} = {i:06} # tflint-merge-ignore: module_source_not_static\n"
                        ))
                        .collect::<String>()
                ),
            )],
        ),
        (
            "repeated attribute",
            vec![(
                "main.tf",
                (0..n / 5)
                    .map(|i| format!("resource \"x\" \"r{i}\" {{\n  v = {i}\n}}\n"))
                    .collect::<String>()
                    + &"dup = 1\n".repeat(20),
            )],
        ),
        (
            "nested blocks of overrides",
            vec![
                (
                    "main.tf",
                    (0..n / 10)
                        .map(|i| {
                            format!(
                                "resource \"x\" \"r{i}\" {{\n  a = 1\n  b {{\n    c = 2\n  }}\n}}\n"
                            )
                        })
                        .collect(),
                ),
                (
                    "main_override.tf",
                    (0..n / 10)
                        .map(|i| format!("resource \"x\" \"r{i}\" {{\n  a = 3\n}}\n"))
                        .collect(),
                ),
            ],
        ),
    ]
}

/// At ten times the size, at most this many times the allocation calls: a linear path's ratio
/// is about 10 (a little more where a vector doubles once more), a quadratic one's about 100.
const MAX_CALLS_RATIO: f64 = 12.0;
/// The same for the bytes asked for: a vector that doubles past a power of two at one size and
/// not at the other moves this ratio more than the calls', so its bound is looser. A quadratic
/// copy hidden under a large linear part still passes it: the fingerprints' copy of the whole
/// line per finding (since fixed) made 22.7x on the JSON line of 1,000 keys.
const MAX_BYTES_RATIO: f64 = 15.0;

#[test]
fn work_grows_linearly_with_the_input() {
    let _counting = COUNTING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    const BASE: usize = 1_000;
    let small = inputs(BASE);
    let large = inputs(10 * BASE);
    let mut failures = Vec::new();
    for ((name, small), (_, large)) in small.iter().zip(&large) {
        let (small_calls, small_bytes) = work(small);
        let (large_calls, large_bytes) = work(large);
        let calls = large_calls as f64 / small_calls.max(1) as f64;
        let bytes = large_bytes as f64 / small_bytes.max(1) as f64;
        println!(
            "{name}: {small_calls} -> {large_calls} allocations ({calls:.1}x), \
             {small_bytes} -> {large_bytes} bytes ({bytes:.1}x)"
        );
        if calls > MAX_CALLS_RATIO || bytes > MAX_BYTES_RATIO {
            failures.push(format!(
                "{name}: {calls:.1}x allocations, {bytes:.1}x bytes"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "super-linear at 10x the input: {failures:#?}"
    );
}

/// #37: `--diff` of a fix on every line, by the lines `old` and `new` of a file at size `n`:
/// every line of a run of aligned attributes losing its unused ignore, and an unused ignore
/// line deleted above every variable. Myers' diff of the whole text took time in the lines
/// times the lines changed, which a fix on every line makes quadratic.
fn fixed_files(n: usize) -> Vec<(&'static str, String, String)> {
    let aligned = |comment: &str| -> String {
        let body: String = (0..n)
            .map(|i| format!("  a{i:06} = {i:06}{comment}\n"))
            .collect();
        format!("locals {{\n{body}}}\n")
    };
    let ignored = |ignore: &str| -> String {
        (0..n)
            .map(|i| format!("{ignore}variable \"v{i}\" {{}}\n"))
            .collect()
    };
    vec![
        (
            "an ignore removed from every aligned line",
            aligned(" # tflint-merge-ignore: module_source_not_static"),
            aligned(""),
        ),
        (
            "an ignore line deleted above every block",
            ignored("# tflint-merge-ignore: module_source_not_static\n"),
            ignored(""),
        ),
    ]
}

#[test]
fn the_diff_of_a_fix_on_every_line_grows_linearly() {
    let _counting = COUNTING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    const BASE: usize = 1_000;
    // The allocations (calls, bytes) and the lines compared or looked up for one diff.
    let work = |old: &str, new: &str| {
        let (calls, bytes) = counting_alloc::asked();
        let (diff, steps) = tflint_merge::fuzzing::unified_diff(old, new);
        let (calls_after, bytes_after) = counting_alloc::asked();
        assert!(diff.starts_with("--- a/main.tf\n"), "no diff");
        (calls_after - calls, bytes_after - bytes, steps)
    };
    let mut failures = Vec::new();
    for ((name, old, new), (_, large_old, large_new)) in
        fixed_files(BASE).iter().zip(&fixed_files(10 * BASE))
    {
        let (small_calls, small_bytes, small_steps) = work(old, new);
        let (large_calls, large_bytes, large_steps) = work(large_old, large_new);
        let calls = large_calls as f64 / small_calls.max(1) as f64;
        let bytes = large_bytes as f64 / small_bytes.max(1) as f64;
        let steps = large_steps as f64 / small_steps.max(1) as f64;
        println!(
            "{name}: {small_calls} -> {large_calls} allocations ({calls:.1}x), \
             {small_bytes} -> {large_bytes} bytes ({bytes:.1}x), \
             {small_steps} -> {large_steps} steps ({steps:.1}x)"
        );
        if calls > MAX_CALLS_RATIO || bytes > MAX_BYTES_RATIO || steps > MAX_CALLS_RATIO {
            failures.push(format!(
                "{name}: {calls:.1}x allocations, {bytes:.1}x bytes, {steps:.1}x steps"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "super-linear at 10x the input: {failures:#?}"
    );
}
