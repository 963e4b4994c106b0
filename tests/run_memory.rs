//! Memory proportional to what a run keeps (#36): each directory's files and syntax trees are
//! dropped once its check is done, and a finding keeps the lines its labels touch, not a copy
//! of its files. The peak of the bytes allocated and not yet freed is counted (the counting
//! allocator of `tests/common/counting_alloc.rs`), so the test does not depend on the
//! machine's load: a tree of ten times the directories may raise the peak by what the run keeps
//! of each directory (its findings, its path), never by its files.

use std::sync::Mutex;

#[path = "common/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::Counting;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// One measurement at a time: the counters are the process's.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The variables of each directory's `main.tf`: about 30 KB of text, whose syntax tree is
/// larger still.
const VARIABLES: usize = 200;

/// Writes `dirs` module directories, each a `main.tf` of [`VARIABLES`] variables that declares
/// the first one again at its end (one `duplicate_definition` finding, labelled at both ends of
/// the file, with no fix), then checks them as the command line does: the findings, how far
/// the bytes live rose above what they were before the check (the tree written, the pool not
/// made yet), and the size of a `main.tf`.
fn peak_of_checking(dirs: usize) -> (usize, i64, i64) {
    let root = tempfile::tempdir().expect("tempdir");
    let mut main: String = (0..VARIABLES)
        .map(|i| {
            format!(
                "variable \"v{i}\" {{\n  description = \"{}\"\n  default     = {i}\n}}\n\n",
                "a variable of this module, described at length ".repeat(2)
            )
        })
        .collect();
    main.push_str("variable \"v0\" {}\n");
    for d in 0..dirs {
        let dir = root.path().join(format!("d{d:04}"));
        std::fs::create_dir(&dir).expect("mkdir");
        std::fs::write(dir.join("main.tf"), &main).expect("write");
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let before = counting_alloc::live();
    counting_alloc::reset_peak();
    let findings = tflint_merge::fuzzing::check_tree(root.path(), 2);
    let peak = counting_alloc::peak() - before;
    (findings, peak, main.len() as i64)
}

/// Ten times the directories raise the peak by what the run keeps of each (its finding with
/// excerpts of its files, its path, its place in the run's tables), a small part of one
/// directory's `main.tf`: neither the files nor the syntax trees of the directories checked
/// stay until the run ends, and a finding labelled in a file holds its lines, not the file.
#[test]
fn the_peak_grows_with_the_findings_not_the_directories_files() {
    // Once before, so that what a first run makes once (lazy tables) is not counted.
    peak_of_checking(2);
    let (few_findings, few, file) = peak_of_checking(20);
    let (many_findings, many, _) = peak_of_checking(200);
    assert_eq!((few_findings, many_findings), (20, 200));
    // Which directories are in the checks at the peak depends on the threads' timing: a
    // quarter of a file per directory leaves room for that, and none for a file kept.
    let per_directory = (many - few) / 180;
    assert!(
        per_directory < file / 4,
        "each more directory raised the peak by {per_directory} bytes (20 directories: {few}, \
         200: {many}; a main.tf is about {file} bytes)"
    );
}
