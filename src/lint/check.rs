//! A whole run: every module directory the walk finds and the Terragrunt tree, checked in
//! parallel, in one direction: the walk gives out module directories as it finds them (see
//! [`Walk`]), the run queues their checks on the pool in batches, and once every check is done
//! it collects the findings in output order. A check that calls a module directory of the run
//! not checked yet checks it first, on its own thread (see [`Run::check_now`]), so that the
//! module's files are read and parsed once, by its own check. A panic anywhere in one
//! directory's pipeline
//! (read, parse, load, merge, rules) becomes an `internal_error` for that directory, and every
//! other directory is still checked.

use std::cell::Cell;
use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, mpsc};

use crate::diagnostic::{self, Diagnostic, Finding};
use crate::input::discover::{DirListing, Discovery, FoundDir, Walk, is_nested_module};
use crate::input::listing::Listing;
use crate::source::display_path;
use crate::terragrunt::paths::absolute;

use super::directory::{Discovered, Options, RunShare, check_listed_directory, name_views};
use super::neighbours::{CheckNow, SharedSummaries};
use super::run::{Crash, CrashPlace, directory_crashed, panic_message, read_findings};
use super::sharded::ShardedMap;
use super::tree::{TreeResult, check_tree};

/// What a run found, in output order, and what it covered. `F` is what the run keeps of each
/// finding: the whole [`Diagnostic`] ([`whole`]), or what the report needs of it.
#[derive(Debug)]
pub(crate) struct RunResult<F = Diagnostic> {
    pub(crate) findings: Vec<F>,
    /// Module directories and Terragrunt unit directories checked.
    pub(crate) directories: usize,
    pub(crate) files: usize,
    pub(crate) bytes: u64,
    /// Files parsed for a calling directory's rules, apart from their own directory's check
    /// (each also parsed there when the run has it): work the run could not share.
    pub(crate) parsed_apart: usize,
}

/// Checks everything `found` lists, as [`walk_and_check`] does once its walk is done: for
/// tests that make discovery find something.
#[cfg(test)]
pub(crate) fn check_all<F: Finding + Send>(
    found: Discovery,
    given: &[PathBuf],
    options: &Options,
    store: &(dyn Fn(Vec<Diagnostic>) -> Vec<F> + Sync),
) -> RunResult<F> {
    let go_on = |found: &Discovery| found.missing.is_empty();
    check_walk(std::iter::empty(), |_| found, given, options, store, &go_on).1
}

/// Checks what `walk` finds: every module directory, each queued for its check as soon as the
/// walk gives it out, and the Terragrunt tree (its paths shown relative to `given`, the
/// command-line paths). Runs on the current rayon pool. `store` turns the findings of one
/// directory (and those of discovery, and of the Terragrunt tree) into what the run keeps of
/// them, on the thread that found them. `walk_done` is given the discovery (its notes, the
/// arguments that name nothing) as soon as the walk is done, and says whether to go on: if not
/// (a usage error), nothing more is checked. Returns the discovery too.
pub(crate) fn walk_and_check<F: Finding + Send>(
    walk: Walk,
    given: &[PathBuf],
    options: &Options,
    store: &(dyn Fn(Vec<Diagnostic>) -> Vec<F> + Sync),
    walk_done: &(dyn Fn(&Discovery) -> bool + Sync),
) -> (Discovery, RunResult<F>) {
    check_walk(walk, Walk::finish, given, options, store, walk_done)
}

/// Checks the module directories `walk` gives out while it walks, then, once `finish` has
/// finished the walk and `walk_done` says to go on, the others the discovery lists, and the
/// Terragrunt tree.
fn check_walk<F, W>(
    mut walk: W,
    finish: impl FnOnce(W) -> Discovery + Send,
    given: &[PathBuf],
    options: &Options,
    store: &(dyn Fn(Vec<Diagnostic>) -> Vec<F> + Sync),
    walk_done: &(dyn Fn(&Discovery) -> bool + Sync),
) -> (Discovery, RunResult<F>)
where
    F: Finding + Send,
    W: Iterator<Item = FoundDir> + Send,
{
    // Only the findings of each directory are kept: its modules and files are dropped as soon
    // as it is done. In output order, views named; each directory's sorted, as `merge_sorted`
    // needs.
    let store = |mut diagnostics: Vec<Diagnostic>| {
        // Terragrunt runs whichever tool the unit uses: its findings are about every view
        // checked; so are a crashed directory's and discovery's.
        name_views(&mut diagnostics, options.views);
        diagnostic::sort(&mut diagnostics);
        store(diagnostics)
    };
    let (results, checked) = mpsc::channel();
    let run = Run {
        summaries: &Arc::default(),
        queued: &ShardedMap::default(),
        options,
        store: &store,
        results,
    };
    // Batches run oldest first, on every thread (`scope_fifo`): in the order the walk gives
    // the directories out, which puts most modules before the directories that call them (see
    // `Walk`).
    let (mut found, tree, order) = rayon::scope_fifo(|scope| {
        let mut batches = Batches::default();
        let mut given_out = 0;
        for dir in &mut walk {
            given_out += 1;
            let job = DirectoryJob {
                number: dir.index,
                dir: dir.dir,
                canonical: Some(dir.canonical),
                listing: dir.listing,
                dirs_below: false,
            };
            run.queue(scope, batches.add(job));
        }
        run.queue(scope, batches.finish());
        let mut found = finish(walk);
        if !walk_done(&found) {
            return (found, None, (0..given_out).collect());
        }
        let order = run.queue_not_given_out(scope, &mut found, given_out);
        // The Terragrunt tree last, on this thread: one job, which can be long, started before
        // the thread takes the batches it queued rather than left to end the run alone.
        let mut tree = check_tree_isolated(&found.terragrunt, given, options);
        let tree_findings = store(std::mem::take(&mut tree.diagnostics));
        (found, Some((tree_findings, tree)), order)
    });
    let walk_problems = std::mem::take(&mut found.problems);
    let discovered = store(read_findings(
        &walk_problems,
        &Default::default(),
        &options.settings,
    ));
    let (tree_findings, tree) = tree.unwrap_or_default();
    let mut result = collect(checked, &order, discovered, tree_findings);
    result.directories += unit_dirs(&found.dirs, &tree.units);
    result.files += tree.files;
    result.bytes += tree.bytes;
    result.parsed_apart = run.summaries.parsed_apart();
    (found, result)
}

/// The findings of a run in output order (discovery's, then each directory's in `order`, then
/// the Terragrunt tree's), and the directories, files and bytes the checks in `checked` read.
/// `order` holds the number of each directory (see [`DirectoryJob::number`]) in the order of
/// the discovery.
fn collect<F: Finding>(
    checked: mpsc::Receiver<(usize, CheckedDirectory<F>)>,
    order: &[usize],
    discovered: Vec<F>,
    tree_findings: Vec<F>,
) -> RunResult<F> {
    let mut by_number: Vec<Option<CheckedDirectory<F>>> = Vec::new();
    // Every check is done: none is still to come.
    for (number, checked) in checked.try_iter() {
        if by_number.len() <= number {
            by_number.resize_with(number + 1, || None);
        }
        by_number[number] = Some(checked);
    }
    let in_order = order
        .iter()
        .filter_map(|&number| by_number.get_mut(number)?.take());
    let mut directories: Vec<CheckedDirectory<F>> = in_order.collect();
    // Each directory the walk gave out is one the discovery lists: none is left. Were one
    // left, its findings would still be reported.
    debug_assert!(
        by_number.iter().all(Option::is_none),
        "a directory not listed"
    );
    directories.extend(by_number.into_iter().flatten());
    let mut run = RunResult {
        findings: Vec::new(),
        directories: directories.len(),
        files: 0,
        bytes: 0,
        parsed_apart: 0,
    };
    let mut sources = Vec::with_capacity(directories.len() + 2);
    sources.push(discovered);
    for directory in directories {
        run.files += directory.files;
        run.bytes += directory.bytes;
        sources.push(directory.findings);
    }
    sources.push(tree_findings);
    run.findings = diagnostic::merge_sorted(sources);
    run
}

/// What the checks of a run share.
struct Run<'a, F> {
    /// The summaries of the local module files the checks have read.
    summaries: &'a Arc<SharedSummaries>,
    /// The checks queued, by the canonical path of their directory, until one starts.
    queued: &'a ShardedMap<Arc<Queued>>,
    options: &'a Options,
    store: &'a (dyn Fn(Vec<Diagnostic>) -> Vec<F> + Sync),
    /// Where each check leaves what the run keeps of it, with its directory's number.
    results: mpsc::Sender<(usize, CheckedDirectory<F>)>,
}

impl<'a: 'scope, 'scope, F: Send> Run<'a, F> {
    /// Queues the checks of `batch`, if any, in `scope`: one job, checking them in order
    /// (those that a check of a directory that calls them has not started meanwhile).
    fn queue(&'scope self, scope: &rayon::ScopeFifo<'scope>, batch: Option<Vec<DirectoryJob>>) {
        let Some(batch) = batch else {
            return;
        };
        let batch: Vec<Arc<Queued>> = (batch.into_iter())
            .map(|job| {
                let canonical = job.canonical.clone();
                let queued = Arc::new(Queued(Mutex::new(Some(job))));
                if let Some(canonical) = canonical {
                    // A directory is listed once: a second job for it is not expected, and
                    // would only be checked in its turn.
                    self.queued
                        .get_or_insert_with(&canonical, || Arc::clone(&queued));
                }
                queued
            })
            .collect();
        scope.spawn_fifo(move |_| {
            for queued in batch {
                if let Some(job) = queued.take() {
                    self.check(job, false);
                }
            }
        });
    }

    /// Queues the checks of the directories `found` lists that the walk did not give out,
    /// numbered after the `given_out` it did, with their listings (taken from `found`).
    /// Returns the number of every directory `found` lists, in its order.
    fn queue_not_given_out(
        &'scope self,
        scope: &rayon::ScopeFifo<'scope>,
        found: &mut Discovery,
        given_out: usize,
    ) -> Vec<usize> {
        let mut order = Vec::with_capacity(found.dirs.len());
        let mut next_number = given_out;
        let mut batches = Batches::default();
        let mut listings = std::mem::take(&mut found.listings).into_iter();
        for (index, dir) in found.dirs.iter().enumerate() {
            let listing = match listings.next().unwrap_or_default() {
                DirListing::GivenOut(number) => {
                    order.push(number);
                    continue;
                }
                DirListing::Listed(listing) => Some(listing),
                DirListing::NotListed => None,
            };
            let number = next_number;
            next_number += 1;
            order.push(number);
            let job = DirectoryJob {
                number,
                dir: Arc::clone(dir),
                canonical: found.canonical.get(index).cloned().flatten(),
                listing,
                dirs_below: false,
            };
            self.queue(scope, batches.add(job));
        }
        self.queue(scope, batches.finish());
        order
    }
}

impl<F: Send> Run<'_, F> {
    /// Checks the directory of `job`. It publishes its files' summaries if a check that calls
    /// it asked for it (`called`), or if module directories (most likely its examples and
    /// tests, which call it) follow it below it; or, while the run has room for more, if it is
    /// a nested module (which the directory holding it and its siblings call) or the run has
    /// asked for summaries already.
    fn check(&self, job: DirectoryJob, called: bool) {
        let summaries = self.summaries;
        let likely_called = is_nested_module(&job.dir) || summaries.wanted();
        let check_now = |canonical: &Path| self.check_now(canonical);
        let share = RunShare {
            summaries,
            publish: called || job.dirs_below || (likely_called && summaries.has_room()),
            check_now: Some(CheckNow(&check_now)),
        };
        let known = Discovered {
            listing: job.listing.map(|listing| *listing),
            canonical: job.canonical.as_deref(),
        };
        let checked = check_directory_isolated(&job.dir, known, self.options, share);
        let checked = CheckedDirectory {
            findings: (self.store)(checked.findings),
            files: checked.files,
            bytes: checked.bytes,
        };
        // The run's end, which receives it, is still to come.
        let _ = self.results.send((job.number, checked));
    }

    /// Checks the run's directory whose canonical path is `canonical` now, on this thread, if
    /// the run has queued its check and no thread has started it: a check that calls it wants
    /// its summary, which it then publishes. Says whether it did. Which thread checks a
    /// directory, and when, changes nothing it finds: output is the same for any `-j`.
    fn check_now(&self, canonical: &Path) -> bool {
        // Each check started here stands on the stack of the one that called it, and keeps its
        // files meanwhile: a chain of calls is followed this deep, and parsed apart below.
        if CHECKS_NOW.get() >= MAX_CHECKS_NOW {
            return false;
        }
        let Some(job) = self.queued.get(canonical).and_then(|queued| queued.take()) else {
            return false;
        };
        CHECKS_NOW.set(CHECKS_NOW.get() + 1);
        self.check(job, true);
        CHECKS_NOW.set(CHECKS_NOW.get() - 1);
        true
    }
}

/// How many checks [`Run::check_now`] may stand one on another on one thread.
const MAX_CHECKS_NOW: usize = 8;

thread_local! {
    /// How many checks [`Run::check_now`] started stand on this thread's stack.
    static CHECKS_NOW: Cell<usize> = const { Cell::new(0) };
}

/// A directory's check, queued; taken by the thread that starts it.
#[derive(Debug)]
struct Queued(Mutex<Option<DirectoryJob>>);

impl Queued {
    /// The job, unless a thread has taken it already.
    fn take(&self) -> Option<DirectoryJob> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

/// One directory's check: what the run keeps of its findings, and the files and bytes it read.
#[derive(Debug)]
struct CheckedDirectory<F> {
    findings: Vec<F>,
    files: usize,
    bytes: u64,
}

/// A module directory to check, and what discovery knows of it.
#[derive(Debug)]
struct DirectoryJob {
    /// Its place among the run's directories: first those the walk gave out, in that order,
    /// then the others, in the order of the discovery.
    number: usize,
    dir: Arc<Path>,
    canonical: Option<Arc<Path>>,
    listing: Option<Box<Listing>>,
    /// Whether module directories follow it below it (most likely its examples and tests,
    /// which call it): its check then publishes its files' summaries for theirs.
    dirs_below: bool,
}

/// How many module directories one job checks at most: a bound on how long a thread done with
/// its own jobs may wait for another's at the end of a run.
const BATCH_DIRS: usize = 4;

/// Cuts module directories, as they come (depth first, in the walk's order or the discovery's),
/// into batches, each checked by one job, in order: a directory and the module directories
/// that follow it below it (its examples and tests, which call it), up to [`BATCH_DIRS`]. The module is then checked, and publishes its
/// files' summaries, before its callers' checks ask for them, so that they need not parse its
/// files again.
#[derive(Debug, Default)]
struct Batches {
    open: Vec<DirectoryJob>,
}

impl Batches {
    /// Adds `job`, the next directory; returns the batch it closes, if any.
    fn add(&mut self, job: DirectoryJob) -> Option<Vec<DirectoryJob>> {
        if let Some(last) = self.open.last_mut() {
            last.dirs_below = is_below(&job.dir, &last.dir);
        }
        let joins = (self.open.first()).is_some_and(|first| is_below(&job.dir, &first.dir));
        if joins && self.open.len() < BATCH_DIRS {
            self.open.push(job);
            return None;
        }
        let closed = std::mem::replace(&mut self.open, vec![job]);
        (!closed.is_empty()).then_some(closed)
    }

    /// The last batch, if any.
    fn finish(&mut self) -> Option<Vec<DirectoryJob>> {
        let last = std::mem::take(&mut self.open);
        (!last.is_empty()).then_some(last)
    }
}

/// Whether `path` is `dir` or below it, comparing bytes: the paths come from one walk, joined
/// name by name, so their bytes agree where their components do. `Path::starts_with` compares
/// component by component, which made a chain of directories a thousand deep quadratic.
fn is_below(path: &Path, dir: &Path) -> bool {
    let (path, dir) = (
        path.as_os_str().as_encoded_bytes(),
        dir.as_os_str().as_encoded_bytes(),
    );
    let separator = |byte: u8| std::path::is_separator(char::from(byte));
    path.starts_with(dir)
        && (path.len() == dir.len()
            || dir.last().copied().is_some_and(separator)
            || separator(path[dir.len()]))
}

/// Keeps whole diagnostics (for fixes, and the formats that print every finding at once), each
/// with excerpts of its files: the lines its labels touch, or the whole file when a fix changes
/// it.
pub(crate) fn whole(mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diagnostic::excerpt_files(&mut diagnostics);
    // Kept until the run ends: without the room a growing vector leaves (a finding is a large
    // struct, and a vector of one has room for four).
    diagnostics.shrink_to_fit();
    diagnostics
}

/// The Terragrunt unit directories that are not module directories too.
fn unit_dirs(module_dirs: &[Arc<Path>], units: &[PathBuf]) -> usize {
    if units.is_empty() {
        return 0;
    }
    let module_dirs: BTreeSet<PathBuf> = module_dirs.iter().map(|d| absolute(d)).collect();
    (units.iter())
        .filter_map(|unit| unit.parent())
        .filter(|dir| !module_dirs.contains(*dir))
        .collect::<BTreeSet<_>>()
        .len()
}

/// Checks one directory; a panic is its `internal_error`.
fn check_directory_isolated(
    dir: &Path,
    known: Discovered,
    options: &Options,
    share: RunShare,
) -> CheckedDirectory<Diagnostic> {
    match catch_unwind(AssertUnwindSafe(|| {
        check_listed_directory(dir, known, options, share)
    })) {
        // The directory's files and modules go here, when it is done.
        Ok(result) => CheckedDirectory {
            findings: result.diagnostics,
            files: result.files.len(),
            bytes: result.bytes,
        },
        Err(panic) => CheckedDirectory {
            findings: directory_crashed(display_path(dir), panic, &options.settings),
            files: 0,
            bytes: 0,
        },
    }
}

/// Checks the tree of `units`; a panic is its `internal_error`.
fn check_tree_isolated(units: &[PathBuf], given: &[PathBuf], options: &Options) -> TreeResult {
    let check = || {
        let (max, overlay) = (options.max_file_bytes, &options.overlay);
        check_tree(units, given, &options.settings, max, overlay)
    };
    catch_unwind(AssertUnwindSafe(check)).unwrap_or_else(|panic| {
        let root = units
            .first()
            .and_then(|u| u.parent())
            .unwrap_or(Path::new("."));
        TreeResult {
            diagnostics: directory_crashed(display_path(root), panic, &options.settings),
            ..TreeResult::default()
        }
    })
}

/// Runs `work` on `path`, turning a panic into the crash `internal_error` reports: for callers
/// outside a run (the language server) that must outlive a crash, which they then report.
pub(crate) fn guarded<T>(path: &Path, work: impl FnOnce() -> T) -> Result<T, Box<Crash>> {
    let crash = |panic: Box<dyn std::any::Any + Send>| {
        Box::new(Crash {
            path: display_path(path),
            message: panic_message(&*panic),
            place: CrashPlace::Directory,
            views: crate::diagnostic::Views::NONE,
        })
    };
    catch_unwind(AssertUnwindSafe(work)).map_err(crash)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::discover::{Excludes, discover};
    use crate::lint::RuleSettings;
    use crate::lint::directory::{ViewSelection, check_directory};

    fn write_tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let root = tempfile::tempdir().expect("tempdir");
        for (path, text) in files {
            let path = root.path().join(path);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        }
        root
    }

    /// `is_below` is `Path::starts_with` on the paths a walk makes.
    #[test]
    fn below_is_starts_with_on_walked_paths() {
        let pairs = [
            ("a/b", "a"),
            ("a/b", "a/"),
            ("a", "a"),
            ("ab/c", "a"),
            ("a-b", "a"),
            ("./a/b", "./a"),
            ("/a/b", "/"),
            ("b", "a/b"),
            ("a", "a/b"),
        ];
        for (path, dir) in pairs {
            let (path, dir) = (Path::new(path), Path::new(dir));
            assert_eq!(
                is_below(path, dir),
                path.starts_with(dir),
                "{path:?} {dir:?}"
            );
        }
    }

    /// Makes `at` a symlink to `to`, both below `root`.
    #[cfg(unix)]
    fn symlink(root: &Path, to: &str, at: &str) {
        std::os::unix::fs::symlink(root.join(to), root.join(at)).expect("symlink");
    }

    /// A run of `given` on a pool of `threads`, checking directories as the walk finds them.
    fn run_on(threads: usize, given: &[PathBuf], options: &Options) -> (Discovery, RunResult) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        pool.install(|| {
            let exclude = Excludes::default();
            let walk = Walk::new(given, &exclude, true);
            walk_and_check(walk, given, options, &whole, &|_| true)
        })
    }

    /// (path, rule, message) of each finding.
    fn described(findings: &[Diagnostic]) -> Vec<(String, &'static str, String)> {
        (findings.iter())
            .map(|d| (d.path.to_string(), d.rule.as_str(), d.message.to_string()))
            .collect()
    }

    /// A batch is a directory and the directories that follow it below it, at most
    /// `BATCH_DIRS`; each directory knows whether directories follow it below it, across
    /// batches too.
    #[test]
    fn batches_are_a_directory_and_those_below_it() {
        let dirs = [
            "./a",
            "./a/examples/e",
            "./a-b",
            "./ab",
            "./b",
            "./b/c/d",
            "./b/c/d/e",
            "./b/f",
            "./b/g",
            "./b/h",
        ];
        let mut batches = Batches::default();
        let mut closed = Vec::new();
        for (number, dir) in dirs.into_iter().enumerate() {
            let job = DirectoryJob {
                number,
                dir: Arc::from(Path::new(dir)),
                canonical: None,
                listing: None,
                dirs_below: false,
            };
            closed.extend(batches.add(job));
        }
        closed.extend(batches.finish());
        assert!(batches.finish().is_none());
        let shown: Vec<Vec<(String, bool)>> = (closed.iter())
            .map(|batch| {
                (batch.iter())
                    .map(|job| (display_path(&job.dir), job.dirs_below))
                    .collect()
            })
            .collect();
        let batch = |jobs: &[(&str, bool)]| -> Vec<(String, bool)> {
            (jobs.iter())
                .map(|(dir, below)| (dir.to_string(), *below))
                .collect()
        };
        assert_eq!(
            shown,
            [
                batch(&[("a", true), ("a/examples/e", false)]),
                batch(&[("a-b", false)]),
                batch(&[("ab", false)]),
                batch(&[
                    ("b", true),
                    ("b/c/d", true),
                    ("b/c/d/e", false),
                    ("b/f", false)
                ]),
                batch(&[("b/g", false)]),
                batch(&[("b/h", false)]),
            ]
        );
    }

    fn options() -> Options {
        // Stand-ins for the loading stages' findings, `legacy_module_meta_argument` among them.
        let registry = crate::lint::testing::stand_ins::loading();
        Options::new(ViewSelection::Both, RuleSettings::defaults(registry))
    }

    /// A module called by directories checked after it (its examples, in its batch) is parsed
    /// once, by its own check; so is one called by directories queued before it, whose check
    /// the first of them starts before it reads the module's summary. The run finds what
    /// checking each directory on its own finds, whether it checks directories as the walk
    /// finds them or once it is done, on one thread or two.
    #[test]
    fn called_modules_are_parsed_once_for_their_callers_with_the_same_findings() {
        let root = write_tree(&[
            // Checked before the module they call.
            (
                "a_caller/main.tf",
                "module \"m\" {\n  source = \"../mod\"\n  count  = 2\n}\n",
            ),
            (
                "b_caller/main.tf",
                "module \"m\" {\n  source = \"../mod/\"\n  count  = 2\n}\n",
            ),
            (
                "mod/main.tf",
                "provider \"aws\" {\n  region = \"x\"\n}\nvariable \"name\" {}\n",
            ),
            // Checked after the module it calls.
            (
                "mod/examples/e/main.tf",
                "module \"root\" {\n  source   = \"../..\"\n  for_each = {}\n}\n",
            ),
            // Checked before its example, which calls it, and called by nothing before.
            (
                "z_root/main.tf",
                "provider \"aws\" {\n  region = \"x\"\n}\n",
            ),
            (
                "z_root/examples/e/main.tf",
                "module \"root\" {\n  source   = \"../..\"\n  for_each = {}\n}\n",
            ),
        ]);
        let options = options();
        let given = [root.path().to_path_buf()];
        let found = discover(&given, &Excludes::default(), false);
        assert_eq!(found.dirs.len(), 6);
        let each_alone: Vec<Diagnostic> = (found.dirs.iter())
            .flat_map(|dir| check_directory(dir, &options).diagnostics)
            .collect();
        let one_thread = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a pool");
        let run = one_thread.install(|| check_all(found, &given, &options, &whole));

        // Not even `mod/main.tf`, which the callers queued before it call.
        assert_eq!(run.parsed_apart, 0);
        assert_eq!(run.directories, 6);
        let mut alone = described(&each_alone);
        alone.sort();
        let mut together = described(&run.findings);
        together.sort();
        assert_eq!(together, alone);
        let legacy = |(path, rule, _): &(String, &str, String)| {
            (rule == &"legacy_module_meta_argument").then(|| path.clone())
        };
        let mut callers: Vec<String> = together.iter().filter_map(legacy).collect();
        // One per view: the tools word it differently.
        callers.dedup();
        let shown = |path: &str| display_path(&root.path().join(path));
        assert_eq!(
            callers,
            [
                shown("a_caller/main.tf"),
                shown("b_caller/main.tf"),
                shown("mod/examples/e/main.tf"),
                shown("z_root/examples/e/main.tf")
            ]
        );

        // Checked as the walk finds them: the same findings, in the same order, each file
        // parsed as often on one thread.
        let stream = || {
            let exclude = Excludes::default();
            let walk = Walk::new(&given, &exclude, false);
            walk_and_check(walk, &given, &options, &whole, &|_| true).1
        };
        let streamed = one_thread.install(stream);
        assert_eq!(streamed.parsed_apart, 0);
        assert_eq!(streamed.directories, 6);
        assert_eq!(described(&streamed.findings), described(&run.findings));
        // On two threads, whichever checks a module and whenever: the same output.
        let two_threads = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a pool");
        for _ in 0..20 {
            let streamed = two_threads.install(stream);
            assert_eq!(described(&streamed.findings), described(&run.findings));
        }
    }

    /// A chain of modules, each calling the next and each checked before it: each check starts
    /// the next one's on its thread, up to [`MAX_CHECKS_NOW`] on one another; below that, a
    /// module is parsed for its caller apart. Every directory is checked once, with what it
    /// finds on its own.
    #[test]
    fn a_chain_of_calls_is_checked_in_turn_up_to_a_depth() {
        let length = MAX_CHECKS_NOW + 4;
        let files: Vec<(String, String)> = (0..length)
            .map(|i| {
                let next = if i + 1 < length {
                    format!(
                        "module \"next\" {{\n  source = \"../m{:02}\"\n  count  = 1\n}}\n",
                        i + 1
                    )
                } else {
                    "provider \"aws\" {\n  region = \"x\"\n}\n".to_string()
                };
                (
                    format!("m{i:02}/main.tf"),
                    format!("variable \"v{i}\" {{}}\n{next}"),
                )
            })
            .collect();
        let files: Vec<(&str, &str)> = (files.iter())
            .map(|(path, text)| (path.as_str(), text.as_str()))
            .collect();
        let root = write_tree(&files);
        let options = options();
        let given = [root.path().to_path_buf()];
        let found = discover(&given, &Excludes::default(), false);
        let each_alone: Vec<Diagnostic> = (found.dirs.iter())
            .flat_map(|dir| check_directory(dir, &options).diagnostics)
            .collect();
        let one_thread = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a pool");
        let run = one_thread.install(|| check_all(found, &given, &options, &whole));
        assert_eq!(run.directories, length);
        let mut alone = described(&each_alone);
        alone.sort();
        let mut together = described(&run.findings);
        together.sort();
        assert_eq!(together, alone);
        // Each caller of the module that configures a provider, however deep.
        let legacy = (together.iter())
            .filter(|(_, rule, _)| *rule == "legacy_module_meta_argument")
            .count();
        assert!(legacy >= length - 1, "{together:?}");
        // The modules below the deepest check started on the first one's thread.
        assert!(run.parsed_apart > 0, "{}", run.parsed_apart);
        assert!(
            run.parsed_apart < length - MAX_CHECKS_NOW,
            "{}",
            run.parsed_apart
        );
    }

    /// A nested module (in a `modules` directory) publishes its summaries before any check has
    /// asked for one: the examples of its siblings, which the walk gives out after it, call it
    /// without parsing its files again.
    #[test]
    fn nested_modules_are_parsed_once_for_their_siblings_examples() {
        let root = write_tree(&[
            ("modules/a/main.tf", "variable \"x\" {}\n"),
            ("modules/b/main.tf", "variable \"y\" {}\n"),
            (
                "modules/b/examples/e/main.tf",
                "module \"a\" {\n  source = \"../../../a\"\n  count  = 2\n}\n",
            ),
        ]);
        let given = [root.path().canonicalize().expect("canonical")];
        let (_, run) = run_on(1, &given, &options());
        assert_eq!(run.directories, 3);
        assert_eq!(run.parsed_apart, 0);
    }

    /// A run that checks directories as the walk finds them finds what checking the finished
    /// discovery finds, in the same order, on one thread or two: with directories the walk does
    /// not give out (through a symlink, reached twice), a walk problem, and a Terragrunt unit.
    #[cfg(unix)]
    #[test]
    fn checks_during_the_walk_find_what_checks_after_it_find() {
        let root = write_tree(&[
            ("a/main.tf", "variable \"x\" {}\n"),
            ("a/override.tf", "variable \"missing\" {}\n"),
            (
                "a/examples/e/main.tf",
                "module \"a\" {\n  source = \"../..\"\n  count  = 1\n}\n",
            ),
            ("m/x_override.tf", "resource \"a\" \"b\" {}\n"),
            ("z/main.tf", "module \"m\" {\n  source = \"../l\"\n}\n"),
            ("live/app/terragrunt.hcl", "locals {\n"),
        ]);
        let link = |to: &str, at: &str| symlink(root.path(), to, at);
        // `l` is walked before `m`, which is kept; `b/up` leads back above itself.
        link("m", "l");
        std::fs::create_dir(root.path().join("b")).expect("mkdir");
        link("b", "b/up");
        let options = options();
        let given = [root.path().to_path_buf()];
        let after = discover(&given, &Excludes::default(), true);
        let notes = after.notes.clone();
        let after = check_all(after, &given, &options, &whole);
        assert!(
            after.findings.len() >= 3,
            "{:?}",
            described(&after.findings)
        );
        for threads in [1, 2] {
            let (found, during) = run_on(threads, &given, &options);
            assert_eq!(found.notes, notes);
            assert_eq!(described(&during.findings), described(&after.findings));
            let counts = |run: &RunResult| (run.directories, run.files, run.bytes);
            assert_eq!(counts(&during), counts(&after), "{threads} threads");
        }
    }

    /// A run's Terragrunt findings, on one thread or two, are those of checking the tree on its
    /// own: with includes and dependencies resolved, files that do not parse or are not UTF-8,
    /// a unit reached through a symlinked directory and a symlinked unit file. With the rules
    /// on: `tests/terragrunt.rs`.
    #[cfg(unix)]
    #[test]
    fn a_runs_tree_findings_are_those_of_the_tree_alone() {
        let include = "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n";
        let root = write_tree(&[
            ("live/root.hcl", "locals {\n  region = \"x\"\n}\n"),
            (
                "live/a/terragrunt.hcl",
                &format!("{include}dependency \"b\" {{\n  config_path = \"../b\"\n}}\n"),
            ),
            (
                "live/b/terragrunt.hcl",
                "dependency \"a\" {\n  config_path = \"../a\"\n}\n",
            ),
            (
                "live/c/terragrunt.hcl",
                "dependency \"gone\" {\n  config_path = \"../gone\"\n}\n",
            ),
            ("live/d/terragrunt.hcl", "locals {\n"),
            ("live/f/terragrunt.hcl", include),
        ]);
        std::fs::create_dir_all(root.path().join("live/e")).expect("mkdir");
        std::fs::write(root.path().join("live/e/terragrunt.hcl"), b"\xff\xfe").expect("write");
        let link = |to: &str, at: &str| symlink(root.path(), to, at);
        link("live/c", "live/l");
        std::fs::create_dir(root.path().join("live/s")).expect("mkdir");
        link("live/f/terragrunt.hcl", "live/s/terragrunt.hcl");
        let options = options();
        let given = [root.path().to_path_buf()];
        let found = discover(&given, &Excludes::default(), true);
        let (max, overlay) = (options.max_file_bytes, &options.overlay);
        let alone = check_tree(&found.terragrunt, &given, &options.settings, max, overlay);
        let problems: BTreeSet<&str> = (alone.diagnostics.iter()).map(|d| &*d.message).collect();
        assert_eq!(problems, BTreeSet::from(["Syntax"]));
        assert_eq!(alone.units.len(), 6);
        let mut runs = Vec::new();
        for threads in [1, 2] {
            let (_, run) = run_on(threads, &given, &options);
            assert_eq!(
                described(&run.findings),
                described(&alone.diagnostics),
                "{threads} threads"
            );
            runs.push((run.directories, run.files, run.bytes));
        }
        assert_eq!(runs[0], runs[1]);
        assert_eq!(runs[0].1, alone.files);
    }
}
