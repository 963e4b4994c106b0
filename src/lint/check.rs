//! A whole run: every discovered module directory and the Terragrunt tree, in parallel. A panic
//! anywhere in one directory's pipeline (read, parse, load, merge, rules) becomes an
//! `internal_error` for that directory, and every other directory is still checked.

use std::cell::Cell;
use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rayon::prelude::*;

use crate::diagnostic::{self, Diagnostic, Finding};
use crate::input::discover::{Discovery, Excludes, FoundAlong, discover_along};
use crate::input::listing::Listing;
use crate::input::neighbours::{CheckAhead, SharedSummaries};
use crate::source::display_path;
use crate::terragrunt::paths::absolute;

use super::directory::{Discovered, Options, check_listed_directory, name_views};
use super::preload::Preload;
use super::run::{Crash, CrashPlace, directory_crashed, panic_message, read_findings};
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
    /// Files parsed again for a calling directory's rules, apart from their own directory's
    /// check (each also parsed there when the run has it): work the run could not share.
    pub(crate) parsed_apart: usize,
}

/// Checks everything `found` lists, as [`discover_and_check`] does once its walk is done: for
/// tests that make discovery find something.
#[cfg(test)]
pub(crate) fn check_all<F: Finding + Send + 'static>(
    found: Discovery,
    given: &[PathBuf],
    options: &Options,
    keep: &(dyn Fn(Vec<Diagnostic>) -> Vec<F> + Sync),
) -> RunResult<F> {
    let said = |found: &Discovery| found.missing.is_empty();
    check_found(given, options, keep, |_| found, &said).1
}

/// Finds what `given` (the command-line paths) names and checks it: every module directory,
/// each queued for its check as soon as the walk finds it (see [`discover_along`]), and the
/// Terragrunt tree (its paths shown relative to `given`). Runs on the current rayon pool.
/// `keep` makes what the run keeps of a directory's findings (and of the findings of discovery
/// and of the Terragrunt tree), on the thread that found them, as soon as they are all found.
/// `said` is given what discovery found besides the directories (its notes, the arguments that
/// name nothing) as soon as the walk is done, and says whether to go on: if not (a usage
/// error), no more is checked. Returns that too.
pub(crate) fn discover_and_check<F: Finding + Send + 'static>(
    given: &[PathBuf],
    (exclude, respect_gitignore): (&Excludes, bool),
    options: &Options,
    keep: &(dyn Fn(Vec<Diagnostic>) -> Vec<F> + Sync),
    said: &(dyn Fn(&Discovery) -> bool + Sync),
) -> (Discovery, RunResult<F>) {
    let walk =
        |along: &mut dyn FoundAlong| discover_along(given, exclude, respect_gitignore, Some(along));
    check_found(given, options, keep, walk, said)
}

/// Checks the module directories `walk` finds, those it tells `along` of while it walks, the
/// others once it is done and `said` says to go on; then the Terragrunt tree it found.
fn check_found<F: Finding + Send + 'static>(
    given: &[PathBuf],
    options: &Options,
    keep: &(dyn Fn(Vec<Diagnostic>) -> Vec<F> + Sync),
    walk: impl FnOnce(&mut dyn FoundAlong) -> Discovery + Send,
    said: &(dyn Fn(&Discovery) -> bool + Sync),
) -> (Discovery, RunResult<F>) {
    // Keep only the findings of each directory: its modules and files are dropped as soon as it
    // is done. In output order, views named; each source sorted, as `merge_sorted` needs.
    let kept = |mut diagnostics: Vec<Diagnostic>| {
        // Terragrunt runs whichever tool the unit uses: its findings are about every view
        // checked; so are a crashed directory's and discovery's.
        name_views(&mut diagnostics, options.views);
        diagnostic::sort(&mut diagnostics);
        keep(diagnostics)
    };
    // The local modules the directories call, each file parsed once for all its callers, and
    // by its own directory's check when the run has it.
    let ahead = Arc::new(Ahead::new(options));
    let shared = Arc::new(SharedSummaries::with_ahead(Arc::clone(&ahead) as _));
    // With one thread, nothing could parse units while the walk goes on: the tree's load does.
    let (max, overlay) = (options.max_file_bytes, &options.overlay);
    let preload = (rayon::current_num_threads() > 1).then(|| Preload::new(given, max, overlay));
    let run = &Run {
        ahead: &ahead,
        shared: &shared,
        preload: preload.as_ref(),
        options,
        kept: &kept,
    };
    let mut found = Discovery::default();
    let mut tree = None;
    // Each directory a job, queued as the walk finds it. The other threads take the oldest
    // first (the directories in the order found); the walk's thread, once done, starts from the
    // middle (below): so two threads seldom check a module and the examples that call it at
    // once (each would then parse the module's files).
    rayon::scope(|scope| {
        let mut along = Along {
            run,
            scope,
            walking: Vec::new(),
        };
        found = walk(&mut along);
        if !said(&found) {
            return;
        }
        for entry in ahead.complete(&mut found) {
            run.queue(scope, entry);
        }
        // The Terragrunt tree first, on the walk's thread: one job, which can be long, started
        // before the shorter ones rather than left to end the run alone.
        let mut checked = check_tree_isolated(&found.terragrunt, run.preload, given, options);
        tree = Some((kept(std::mem::take(&mut checked.diagnostics)), checked));
        // Then the directories still waiting, from the middle on and then the first half, each
        // in order: the walk's thread would take its jobs newest first, which checked modules
        // inside the checks of the examples that call them, each holding both (corpus: +1 MB
        // of peak RSS). The other threads go on from the oldest; their jobs for directories
        // taken here find them started.
        let waiting = ahead.waiting();
        // Alone, in order: a module is then checked (and publishes its summaries, once the run
        // has called one) before the directories after it that call it.
        let middle = if rayon::current_num_threads() > 1 {
            waiting.len() / 2
        } else {
            0
        };
        let (first, second) = waiting.split_at(middle);
        for half in [second, first] {
            // One directory per job: rayon otherwise leaves a run of them to one thread, which
            // the others, done, cannot take (once a 6 ms tail in a 55 ms run).
            (half.par_iter().with_max_len(1)).for_each(|entry| run.check(entry));
        }
    });
    let walk_problems = std::mem::take(&mut found.problems);
    let discovered = kept(read_findings(
        &walk_problems,
        &Default::default(),
        &options.settings,
    ));
    let run = RunResult {
        parsed_apart: shared.parsed_apart(),
        ..collect(&ahead, &kept, discovered, tree.unwrap_or_default())
    };
    (found, run)
}

/// What a run found, in output order (discovery's findings, then each directory's in the order
/// of their paths, then the Terragrunt tree's), and what it covered, once every directory in
/// `ahead` is checked. The count of files parsed apart is left to the caller.
fn collect<F: Finding>(
    ahead: &Ahead<F>,
    kept: &impl Fn(Vec<Diagnostic>) -> Vec<F>,
    discovered: Vec<F>,
    (tree_findings, tree): (Vec<F>, TreeResult),
) -> RunResult<F> {
    let entries = ahead.take_entries();
    let dirs: Vec<&Path> = entries.iter().map(|entry| &*entry.dir).collect();
    let mut run = RunResult {
        findings: Vec::new(),
        directories: entries.len() + unit_dirs(&dirs, &tree.units),
        files: tree.files,
        bytes: tree.bytes,
        parsed_apart: 0,
    };
    let mut sources = Vec::with_capacity(entries.len() + 2);
    sources.push(discovered);
    for entry in &entries {
        let done = entry.take_done();
        debug_assert!(done.is_some(), "{} was not checked", entry.dir.display());
        let (findings, files, bytes) = match done {
            Some(Done::Kept(kept)) => kept,
            // Checked before its turn, by a caller's check.
            Some(Done::Ahead((diagnostics, files, bytes))) => (kept(diagnostics), files, bytes),
            None => continue,
        };
        run.files += files;
        run.bytes += bytes;
        sources.push(findings);
    }
    sources.push(tree_findings);
    run.findings = diagnostic::merge_sorted(sources);
    run
}

/// What the checks of a run share.
struct Run<'a, F> {
    ahead: &'a Arc<Ahead<F>>,
    shared: &'a Arc<SharedSummaries>,
    /// The Terragrunt units the walk finds, each parsed in a job of its own; `None` with one
    /// thread.
    preload: Option<&'a Preload<'a>>,
    options: &'a Options,
    kept: &'a (dyn Fn(Vec<Diagnostic>) -> Vec<F> + Sync),
}

impl<'a: 'scope, 'scope, F: Send + 'static> Run<'a, F> {
    /// Queues the check of `entry` in `scope`.
    fn queue(&'scope self, scope: &rayon::Scope<'scope>, entry: Arc<Entry<F>>) {
        scope.spawn(move |_| self.check(&entry));
    }
}

impl<F: Send + 'static> Run<'_, F> {
    /// Checks the directory of `entry`, unless a caller's check took it first. It publishes
    /// its files' summaries if module directories (most likely its examples and tests, checked
    /// after it, which call it) lie below it.
    fn check(&self, entry: &Entry<F>) {
        let Some(discovered) = entry.start() else {
            return;
        };
        let publish = match entry.module_dirs_below.load(Ordering::Acquire) {
            BELOW_SOME => true,
            // Started before the walk is done below it: within the budget of summaries kept
            // for callers that may come (most directories with sub-directories have no
            // module directories there).
            BELOW_MAYBE => self.shared.has_room(),
            _ => self.shared.wanted(),
        };
        let summaries = (self.shared, publish);
        let (diagnostics, files, bytes) =
            check_directory_isolated(&entry.dir, discovered, self.options, summaries);
        entry.done(Done::Kept(((self.kept)(diagnostics), files, bytes)));
    }
}

/// The walk's side of a run: each module directory it is told of is queued for its check as
/// soon as it is found, for the other threads of the pool to take while the walk goes on.
struct Along<'r, 'a, 'scope, F> {
    run: &'scope Run<'a, F>,
    scope: &'r rayon::Scope<'scope>,
    /// The directories told of that the walk is still below, innermost last.
    walking: Vec<Arc<Entry<F>>>,
}

impl<'a: 'scope, 'scope, F: Send + 'static> FoundAlong for Along<'_, 'a, 'scope, F> {
    fn module_found(
        &mut self,
        dir: &Arc<Path>,
        canonical: &Arc<Path>,
        listing: Option<Box<Listing>>,
        subdirs: bool,
    ) {
        // Until the walk is done below it, module directories may lie there if it has
        // sub-directories.
        let below = if subdirs { BELOW_MAYBE } else { BELOW_NONE };
        let entry = Arc::new(Entry::new(dir, Some(Arc::clone(canonical)), listing, below));
        self.run.ahead.add(Arc::clone(&entry));
        self.run.queue(self.scope, Arc::clone(&entry));
        self.walking.push(entry);
    }

    fn unit_found(&mut self, unit: &Path) {
        if let Some(preload) = self.run.preload {
            let unit = preload.add(unit);
            self.scope.spawn(move |_| preload.parse(&unit));
        }
    }

    fn module_walked(&mut self, dir: &Path, module_dirs_below: bool) {
        let Some(entry) = self.walking.pop() else {
            return;
        };
        debug_assert_eq!(*entry.dir, *dir);
        let below = if module_dirs_below {
            BELOW_SOME
        } else {
            BELOW_NONE
        };
        entry.module_dirs_below.store(below, Ordering::Release);
    }
}

/// One directory's findings, files and bytes.
type Checked = (Vec<Diagnostic>, usize, u64);

/// A module directory of a run, checked once: in its turn, or before it by the check of a
/// directory that calls it (so that the files the caller needs are parsed once in all, by
/// their own directory's check). See [`CheckAhead`].
#[derive(Debug)]
struct Entry<F> {
    /// As discovery names it.
    dir: Arc<Path>,
    /// Its canonical path, when discovery knows it.
    canonical: Option<Arc<Path>>,
    /// Whether module directories lie below it: `BELOW_*`.
    module_dirs_below: AtomicU8,
    state: Mutex<State<F>>,
}

/// Where the check of an [`Entry`] is.
#[derive(Debug)]
enum State<F> {
    /// Not started: what discovery listed in the directory, if it did.
    Waiting(Option<Box<Listing>>),
    Checking,
    Done(Done<F>),
    /// Its findings were taken for the run's.
    Reported,
}

/// [`Entry::module_dirs_below`]: none, some, or not known yet.
const BELOW_NONE: u8 = 0;
const BELOW_SOME: u8 = 1;
const BELOW_MAYBE: u8 = 2;

#[derive(Debug)]
enum Done<F> {
    /// Checked in its turn: what the run keeps of its findings, files and bytes.
    Kept((Vec<F>, usize, u64)),
    /// Checked before its turn, inside a caller's check (which does not know what the run
    /// keeps).
    Ahead(Checked),
}

impl<F> Entry<F> {
    /// `below`: whether module directories lie below it (`BELOW_*`).
    fn new(
        dir: &Arc<Path>,
        canonical: Option<Arc<Path>>,
        listing: Option<Box<Listing>>,
        below: u8,
    ) -> Entry<F> {
        Entry {
            dir: Arc::clone(dir),
            canonical,
            module_dirs_below: AtomicU8::new(below),
            state: Mutex::new(State::Waiting(listing)),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State<F>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn is_waiting(&self) -> bool {
        matches!(*self.state(), State::Waiting(_))
    }

    /// Takes the directory for its check, unless a thread has taken it: what discovery knows
    /// of it (the check lists the directory itself when discovery did not).
    fn start(&self) -> Option<Discovered<'_>> {
        let mut state = self.state();
        let State::Waiting(listing) = &mut *state else {
            return None;
        };
        let listing = listing.take().map(|listing| *listing);
        *state = State::Checking;
        Some(Discovered {
            listing,
            canonical: self.canonical.as_deref(),
        })
    }

    fn done(&self, done: Done<F>) {
        *self.state() = State::Done(done);
    }

    fn take_done(&self) -> Option<Done<F>> {
        match std::mem::replace(&mut *self.state(), State::Reported) {
            State::Done(done) => Some(done),
            _ => None,
        }
    }
}

/// The module directories of a run, for the checks of their callers to find: those the walk
/// has told of so far, then every one discovery lists.
struct Ahead<F> {
    /// Sorted by path, as the walk finds them and discovery lists them. Locked to add a
    /// directory (once per directory), to look one up (once per local module a check calls),
    /// and once or twice a run to go through them all; never while a directory is checked.
    entries: Mutex<Vec<Arc<Entry<F>>>>,
    options: Options,
}

/// How many checks before their turn a thread may have in progress at once: each runs inside
/// its caller's check, on the caller's stack, and a chain of local modules can be long.
const MAX_NESTED_AHEAD: u32 = 4;

thread_local! {
    /// The checks before their turn in progress on this thread.
    static NESTED_AHEAD: Cell<u32> = const { Cell::new(0) };
}

impl<F> std::fmt::Debug for Ahead<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ahead")
            .field("directories", &self.entries().len())
            .finish_non_exhaustive()
    }
}

impl<F> Ahead<F> {
    fn new(options: &Options) -> Ahead<F> {
        Ahead {
            entries: Mutex::default(),
            options: options.clone(),
        }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, Vec<Arc<Entry<F>>>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds a directory the walk found (after those it found before, which sort before it).
    fn add(&self, entry: Arc<Entry<F>>) {
        let mut entries = self.entries();
        debug_assert!(entries.last().is_none_or(|last| last.dir < entry.dir));
        entries.push(entry);
    }

    /// Once the walk is done: every directory `found` lists, in its order, those the walk told
    /// of as they are; returns the others, to be checked, each with what discovery knows of it.
    fn complete(&self, found: &mut Discovery) -> Vec<Arc<Entry<F>>> {
        let dirs = std::mem::take(&mut found.dirs);
        let mut canonical = std::mem::take(&mut found.canonical);
        canonical.resize_with(dirs.len(), || None);
        let mut listings = std::mem::take(&mut found.listings);
        listings.resize_with(dirs.len(), || None);
        let mut entries = self.entries();
        // The walk told of some of `dirs`, under the same paths, in the same order (see
        // `discover_along`): a merge of two sorted lists. One told of and not listed (which
        // `discover_along` rules out) is kept all the same, so that its findings are not lost.
        let mut told = std::mem::take(&mut *entries).into_iter().peekable();
        let mut rest = Vec::new();
        let listed = dirs.iter().zip(canonical.into_iter().zip(listings));
        for (index, (dir, (canonical, listing))) in listed.enumerate() {
            while let Some(entry) = told.next_if(|entry| entry.dir < *dir) {
                debug_assert!(false, "told of {}, not listed", entry.dir.display());
                entries.push(entry);
            }
            if let Some(entry) = told.next_if(|entry| entry.dir == *dir) {
                entries.push(entry);
                continue;
            }
            // Module directories below it follow it in sorted order.
            let below = dirs
                .get(index + 1)
                .is_some_and(|next| next.starts_with(dir));
            let below = if below { BELOW_SOME } else { BELOW_NONE };
            let entry = Arc::new(Entry::new(dir, canonical, listing, below));
            entries.push(Arc::clone(&entry));
            rest.push(entry);
        }
        debug_assert!(told.peek().is_none(), "told of a directory not listed");
        entries.extend(told);
        rest
    }

    /// The directories not started, in order.
    fn waiting(&self) -> Vec<Arc<Entry<F>>> {
        let entries = self.entries();
        let waiting = entries.iter().filter(|entry| entry.is_waiting());
        waiting.cloned().collect()
    }

    /// Every directory, in output order, once the run is done.
    fn take_entries(&self) -> Vec<Arc<Entry<F>>> {
        std::mem::take(&mut *self.entries())
    }

    /// The entry of the directory a call names as `dir` (its path joined with the source),
    /// compared as the walk listed it: lexically, without `.` and `..`.
    fn find(&self, dir: &Path) -> Option<Arc<Entry<F>>> {
        let wanted = lexically_normal(dir);
        let entries = self.entries();
        let found = entries.binary_search_by(|entry| (*entry.dir).cmp(&wanted));
        found.ok().map(|index| Arc::clone(&entries[index]))
    }
}

impl<F: Send + 'static> CheckAhead for Ahead<F> {
    fn check_ahead(&self, dir: &Path, canonical: &Path, shared: &Arc<SharedSummaries>) {
        let Some(entry) = self.find(dir) else {
            return;
        };
        // The same name may be another directory: `a/link/..` is not `a` when `link` is a
        // symlink.
        let same = || match &entry.canonical {
            Some(known) => **known == *canonical,
            None => entry.dir.canonicalize().is_ok_and(|c| c == canonical),
        };
        let nested = NESTED_AHEAD.get();
        if nested >= MAX_NESTED_AHEAD || !same() {
            return;
        }
        let Some(discovered) = entry.start() else {
            return;
        };
        NESTED_AHEAD.set(nested + 1);
        let checked =
            check_directory_isolated(&entry.dir, discovered, &self.options, (shared, true));
        NESTED_AHEAD.set(nested);
        entry.done(Done::Ahead(checked));
    }
}

/// `path` without `.` components but a leading one (the walk lists `./a` under `.`), and with
/// each `..` taking away the name before it (leading ones stay).
fn lexically_normal(path: &Path) -> PathBuf {
    let mut normal = PathBuf::new();
    for (at, component) in path.components().enumerate() {
        match component {
            Component::CurDir if at > 0 => {}
            Component::ParentDir
                if matches!(normal.components().next_back(), Some(Component::Normal(_))) =>
            {
                normal.pop();
            }
            other => normal.push(other),
        }
    }
    normal
}

/// Keeps whole diagnostics (for fixes, and the formats that print every finding at once), each
/// with excerpts of its files: the lines its labels touch, or the whole file when a fix changes
/// it.
pub(crate) fn whole(mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diagnostic::excerpt_files(&mut diagnostics);
    // Kept until the run ends: without the room a growing vector leaves (a finding is about 300
    // bytes, and a vector of one has room for four).
    diagnostics.shrink_to_fit();
    diagnostics
}

/// The Terragrunt unit directories that are not module directories too.
fn unit_dirs(module_dirs: &[&Path], units: &[PathBuf]) -> usize {
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

/// One directory's findings, files and bytes; a panic is its `internal_error`.
fn check_directory_isolated(
    dir: &Path,
    known: Discovered,
    options: &Options,
    summaries: (&Arc<SharedSummaries>, bool),
) -> Checked {
    match catch_unwind(AssertUnwindSafe(|| {
        check_listed_directory(dir, known, options, summaries)
    })) {
        // The directory's files and modules go here, when it is done.
        Ok(result) => (result.diagnostics, result.files.len(), result.bytes),
        Err(panic) => (
            directory_crashed(display_path(dir), panic, &options.settings),
            0,
            0,
        ),
    }
}

/// Checks the tree of `units`, those of them in `preload` parsed there.
fn check_tree_isolated(
    units: &[PathBuf],
    preload: Option<&Preload>,
    given: &[PathBuf],
    options: &Options,
) -> TreeResult {
    let check = || {
        let (max, overlay) = (options.max_file_bytes, &options.overlay);
        // Here, so that a panic in a unit's parse is the tree's crash, as in its load.
        let preparsed = preload.map(Preload::finish).unwrap_or_default();
        check_tree(units, preparsed, given, &options.settings, max, overlay)
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
    use crate::input::discover::discover;
    use crate::lint::RuleSettings;
    use crate::lint::directory::{ViewSelection, check_directory};

    #[test]
    fn lexically_normal_paths() {
        for (path, normal) in [
            ("a/b/../c", "a/c"),
            ("a/./b/", "a/b"),
            ("./a/b/../..", "."),
            ("./a/../b", "./b"),
            ("../shared/corpus/m/examples/e/../..", "../shared/corpus/m"),
            ("../../x", "../../x"),
            ("/r/a/../b", "/r/b"),
            ("/..", "/.."),
        ] {
            assert_eq!(
                lexically_normal(Path::new(path)),
                Path::new(normal),
                "{path}"
            );
        }
    }

    fn write_tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let root = tempfile::tempdir().expect("tempdir");
        for (path, text) in files {
            let path = root.path().join(path);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        }
        root
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
            let walk = (&Excludes::default(), true);
            discover_and_check(given, walk, options, &whole, &|_| true)
        })
    }

    /// (path, rule, message) of each finding.
    fn described(findings: &[Diagnostic]) -> Vec<(String, &'static str, String)> {
        (findings.iter())
            .map(|d| (d.path.clone(), d.rule.as_str(), d.message.clone()))
            .collect()
    }

    /// Directories the walk did not tell of: whether module directories lie below each comes
    /// from the sorted list, where they follow it.
    #[test]
    fn module_dirs_below_follow_in_sorted_order() {
        let dirs = ["./a", "./a/examples/e", "./a-b", "./ab", "./b", "./b/c/d"];
        let mut found = Discovery {
            dirs: dirs.iter().map(|dir| Arc::from(Path::new(dir))).collect(),
            ..Discovery::default()
        };
        let ahead = Ahead::<Diagnostic>::new(&options());
        let rest = ahead.complete(&mut found);
        let below: Vec<u8> = (rest.iter())
            .map(|entry| entry.module_dirs_below.load(Ordering::Relaxed))
            .collect();
        let (yes, no) = (BELOW_SOME, BELOW_NONE);
        assert_eq!(below, [yes, no, no, no, yes, no]);
        assert_eq!(ahead.take_entries().len(), dirs.len());
    }

    fn options() -> Options {
        // Stand-ins for the loading stages' findings, `legacy_module_meta_argument` among them.
        let registry = crate::lint::testing::stand_ins::loading();
        Options::new(ViewSelection::Both, RuleSettings::defaults(registry))
    }

    /// A module called by a directory checked before it, and modules called by directories below
    /// them, checked after them: on one thread, each file is parsed once, and the run finds
    /// what checking each directory on its own finds.
    #[test]
    fn called_modules_are_parsed_once_with_the_same_findings() {
        let root = write_tree(&[
            // Checked before the module it calls.
            (
                "a_caller/main.tf",
                "module \"m\" {\n  source = \"../mod\"\n  count  = 2\n}\n",
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
        assert_eq!(found.dirs.len(), 5);
        let each_alone: Vec<Diagnostic> = (found.dirs.iter())
            .flat_map(|dir| check_directory(dir, &options).diagnostics)
            .collect();
        let one_thread = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a pool");
        let run = one_thread.install(|| check_all(found, &given, &options, &whole));

        assert_eq!(run.parsed_apart, 0);
        assert_eq!(run.directories, 5);
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
                shown("mod/examples/e/main.tf"),
                shown("z_root/examples/e/main.tf")
            ]
        );

        // Checked as the walk finds them: the same findings, in the same order, each file
        // parsed once on one thread.
        let streamed = one_thread.install(|| {
            let walk = (&Excludes::default(), false);
            discover_and_check(&given, walk, &options, &whole, &|_| true).1
        });
        assert_eq!(streamed.parsed_apart, 0);
        assert_eq!(streamed.directories, 5);
        assert_eq!(described(&streamed.findings), described(&run.findings));
    }

    /// A run that checks directories as the walk finds them finds what checking the finished
    /// discovery finds, in the same order, on one thread or two: with directories the walk does
    /// not tell of (through a symlink, reached twice), a walk problem, and a Terragrunt unit.
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

    /// Units parsed while the walk goes on (two threads; see [`Preload`]) give the findings the
    /// tree's own load gives (one thread), and those of checking the tree on its own: with
    /// includes and dependencies resolved, files that do not parse or are not UTF-8, a unit
    /// reached through a symlinked directory (not parsed during the walk) and a symlinked unit
    /// file (parsed during the walk, then not a unit of its own). With the rules on:
    /// `tests/terragrunt.rs`.
    #[cfg(unix)]
    #[test]
    fn units_parsed_during_the_walk_give_the_findings_of_the_load() {
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
        let alone = check_tree(
            &found.terragrunt,
            Vec::new(),
            &given,
            &options.settings,
            max,
            overlay,
        );
        let problems: BTreeSet<&str> = (alone.diagnostics.iter()).map(|d| &*d.message).collect();
        assert_eq!(problems, BTreeSet::from(["NotUtf8", "Syntax"]));
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
