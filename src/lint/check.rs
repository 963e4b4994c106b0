//! A whole run: every discovered module directory and the Terragrunt tree, in parallel. A panic
//! anywhere in one directory's pipeline (read, parse, load, merge, rules) becomes an
//! `internal_error` for that directory, and every other directory is still checked.

use std::cell::Cell;
use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rayon::prelude::*;

use crate::diagnostic::{self, Diagnostic, Finding};
use crate::input::discover::Discovery;
use crate::input::listing::Listing;
use crate::input::neighbours::{CheckAhead, SharedSummaries};
use crate::source::display_path;
use crate::terragrunt::paths::absolute;

use super::directory::{Discovered, Options, check_listed_directory, name_views};
use super::run::internal_error;
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

/// Checks everything `found` lists; `given` are the command-line paths (Terragrunt paths are
/// shown relative to them). Runs on the current rayon pool. `keep` makes what the run keeps of
/// a directory's findings (and of the findings of discovery and of the Terragrunt tree), on
/// the thread that found them, as soon as they are all found.
pub(crate) fn check_all<F: Finding + Send>(
    mut found: Discovery,
    given: &[PathBuf],
    options: &Options,
    keep: &(dyn Fn(Vec<Diagnostic>) -> Vec<F> + Sync),
) -> RunResult<F> {
    // Keep only the findings of each directory: its modules and files are dropped as soon as it
    // is done. The Terragrunt tree is checked alongside, in the same pool.
    // One per directory, so that the zip below drops none (a directory with no listing is
    // listed when checked).
    // In output order, views named; each source sorted, as `merge_sorted` needs.
    let kept = |mut diagnostics: Vec<Diagnostic>| {
        // Terragrunt runs whichever tool the unit uses: its findings are about every view
        // checked; so are a crashed directory's and discovery's.
        name_views(&mut diagnostics, options.views);
        diagnostic::sort(&mut diagnostics);
        keep(diagnostics)
    };
    let discovered = kept(std::mem::take(&mut found.diagnostics));
    // The local modules the directories call, each file parsed once for all its callers, and
    // by its own directory's check when the run has it.
    let ahead = Arc::new(Ahead::new(&mut found, options));
    let shared = Arc::new(SharedSummaries::with_ahead(Arc::clone(&ahead) as _));
    let (results, (terragrunt_findings, terragrunt)) = rayon::join(
        || {
            // One directory per job (`with_max_len(1)`): rayon otherwise leaves a run of
            // directories to one thread, to go through one after the other, and the other
            // thread, done, cannot take any of them (the corpus at -j 2: one thread idle for
            // up to 6 ms at the end of a 55 ms run; now under 0.5 ms).
            (ahead.dirs.par_iter().enumerate().with_max_len(1))
                .map(|(index, dir)| {
                    // Checked already, by a caller that reached it first.
                    if ahead.started[index].swap(true, Ordering::AcqRel) {
                        return None;
                    }
                    // Its examples and tests, checked after it, most likely call it.
                    let publish = ahead.has_module_dirs_below(index) || shared.wanted();
                    let known = ahead.discovered(index);
                    let (diagnostics, files, bytes) =
                        check_directory_isolated(dir, known, options, (&shared, publish));
                    Some((kept(diagnostics), files, bytes))
                })
                .collect::<Vec<_>>()
        },
        || {
            let mut tree = check_tree_isolated(&found.terragrunt, given, options);
            (kept(std::mem::take(&mut tree.diagnostics)), tree)
        },
    );
    let mut results = results;
    for (index, (diagnostics, files, bytes)) in ahead.take_checked() {
        results[index] = Some((kept(diagnostics), files, bytes));
    }
    let mut run = RunResult {
        findings: Vec::new(),
        directories: results.len() + unit_dirs(&ahead.dirs, &terragrunt.units),
        files: terragrunt.files,
        bytes: terragrunt.bytes,
        parsed_apart: shared.parsed_apart(),
    };
    let mut sources = Vec::with_capacity(results.len() + 2);
    sources.push(discovered);
    for (findings, files, bytes) in results.into_iter().flatten() {
        run.files += files;
        run.bytes += bytes;
        sources.push(findings);
    }
    sources.push(terragrunt_findings);
    run.findings = diagnostic::merge_sorted(sources);
    run
}

/// One directory's findings, files and bytes.
type Checked = (Vec<Diagnostic>, usize, u64);

/// The module directories of a run, each checked once: in its turn, or before it by the check
/// of a directory that calls it (so that the files the caller needs are parsed once in all,
/// by their own directory's check). See [`CheckAhead`].
#[derive(Debug)]
struct Ahead {
    /// In sorted order, as discovery gives them.
    dirs: Vec<PathBuf>,
    /// Each directory's canonical path, when discovery knows it.
    canonical: Vec<Option<PathBuf>>,
    /// What discovery listed in each directory, until its check takes it.
    listings: Vec<Mutex<Option<Listing>>>,
    /// Per directory: a thread has taken it.
    started: Vec<AtomicBool>,
    /// What the checks made before their turn found, by directory index.
    checked: Mutex<Vec<(usize, Checked)>>,
    options: Options,
}

/// How many checks before their turn a thread may have in progress at once: each runs inside
/// its caller's check, on the caller's stack, and a chain of local modules can be long.
const MAX_NESTED_AHEAD: u32 = 4;

thread_local! {
    /// The checks before their turn in progress on this thread.
    static NESTED_AHEAD: Cell<u32> = const { Cell::new(0) };
}

impl Ahead {
    /// The module directories `found` lists, with what discovery knows of each.
    fn new(found: &mut Discovery, options: &Options) -> Ahead {
        let dirs = std::mem::take(&mut found.dirs);
        let mut canonical = std::mem::take(&mut found.canonical);
        canonical.resize_with(dirs.len(), || None);
        let mut listings = std::mem::take(&mut found.listings);
        listings.resize_with(dirs.len(), || None);
        Ahead {
            started: dirs.iter().map(|_| AtomicBool::new(false)).collect(),
            dirs,
            canonical,
            listings: listings.into_iter().map(Mutex::new).collect(),
            checked: Mutex::default(),
            options: options.clone(),
        }
    }

    /// What discovery knows of the directory at `index`, for its check (which lists the
    /// directory itself when discovery did not).
    fn discovered(&self, index: usize) -> Discovered<'_> {
        let mut listing = self.listings[index]
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        Discovered {
            listing: std::mem::take(&mut *listing),
            canonical: self.canonical[index].as_deref(),
        }
    }

    /// The index of the directory a call names as `dir` (its path joined with the source),
    /// compared as the walk listed it: lexically, without `.` and `..`.
    fn index_of(&self, dir: &Path) -> Option<usize> {
        let wanted = lexically_normal(dir);
        (self.dirs)
            .binary_search_by(|listed| listed.as_path().cmp(&wanted))
            .ok()
    }

    /// Whether module directories of the run lie below the one at `index` (they follow it
    /// in sorted order).
    fn has_module_dirs_below(&self, index: usize) -> bool {
        (self.dirs.get(index + 1)).is_some_and(|next| next.starts_with(&self.dirs[index]))
    }

    fn take_checked(&self) -> Vec<(usize, Checked)> {
        let mut checked = self.checked.lock().unwrap_or_else(PoisonError::into_inner);
        std::mem::take(&mut *checked)
    }
}

impl CheckAhead for Ahead {
    fn check_ahead(&self, dir: &Path, canonical: &Path, shared: &Arc<SharedSummaries>) {
        let Some(index) = self.index_of(dir) else {
            return;
        };
        let listed = &self.dirs[index];
        // The same name may be another directory: `a/link/..` is not `a` when `link` is a
        // symlink.
        let same = || match &self.canonical[index] {
            Some(known) => known == canonical,
            None => listed.canonicalize().is_ok_and(|c| c == canonical),
        };
        let nested = NESTED_AHEAD.get();
        if nested >= MAX_NESTED_AHEAD || !same() || self.started[index].swap(true, Ordering::AcqRel)
        {
            return;
        }
        NESTED_AHEAD.set(nested + 1);
        let known = self.discovered(index);
        let checked = check_directory_isolated(listed, known, &self.options, (shared, true));
        NESTED_AHEAD.set(nested);
        let mut all = self.checked.lock().unwrap_or_else(PoisonError::into_inner);
        all.push((index, checked));
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
fn unit_dirs(module_dirs: &[PathBuf], units: &[PathBuf]) -> usize {
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
        Err(panic) => (vec![crashed(display_path(dir), panic)], 0, 0),
    }
}

fn check_tree_isolated(units: &[PathBuf], given: &[PathBuf], options: &Options) -> TreeResult {
    let check = || {
        let max = options.max_file_bytes;
        check_tree(units, given, &options.settings, max, &options.overlay)
    };
    catch_unwind(AssertUnwindSafe(check)).unwrap_or_else(|panic| {
        let root = units
            .first()
            .and_then(|u| u.parent())
            .unwrap_or(Path::new("."));
        TreeResult {
            diagnostics: vec![crashed(display_path(root), panic)],
            ..TreeResult::default()
        }
    })
}

/// Runs `work` on `path`, turning a panic into its `internal_error`: for callers outside a run
/// (the language server) that must outlive a crash, which they then report.
pub(crate) fn guarded<T>(path: &Path, work: impl FnOnce() -> T) -> Result<T, Box<Diagnostic>> {
    let crash = |panic| Box::new(crashed(display_path(path), panic));
    catch_unwind(AssertUnwindSafe(work)).map_err(crash)
}

fn crashed(path: String, panic: Box<dyn std::any::Any + Send>) -> Diagnostic {
    let note = "Checking this directory crashed, so none of its findings are reported; the \
                other directories were checked. Please report this as a bug.";
    internal_error(
        "internal error while checking this directory",
        panic,
        path,
        note.into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::discover::{Excludes, discover};
    use crate::lint::RuleSettings;
    use crate::lint::directory::{ViewSelection, check_directory};
    use crate::lint::registry::Registry;

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

    /// (path, rule, message) of each finding.
    fn described(findings: &[Diagnostic]) -> Vec<(String, &'static str, String)> {
        (findings.iter())
            .map(|d| (d.path.clone(), d.rule.as_str(), d.message.clone()))
            .collect()
    }

    #[test]
    fn module_dirs_below_follow_in_sorted_order() {
        let dirs = ["./a", "./a/examples/e", "./a-b", "./ab", "./b", "./b/c/d"];
        let mut found = Discovery {
            dirs: dirs.iter().map(PathBuf::from).collect(),
            ..Discovery::default()
        };
        let ahead = Ahead::new(&mut found, &options());
        let below: Vec<bool> = (0..dirs.len())
            .map(|index| ahead.has_module_dirs_below(index))
            .collect();
        assert_eq!(below, [true, false, false, false, true, false]);
    }

    fn options() -> Options {
        // No rule registered: the engine's own checks, `legacy_module_meta_argument` among them.
        let registry: &'static Registry = Box::leak(Box::new(Registry::new(&[])));
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
    }
}
