//! A whole run: every discovered module directory and the Terragrunt tree, in parallel. A panic
//! anywhere in one directory's pipeline (read, parse, load, merge, rules) becomes an
//! `internal_error` for that directory, and every other directory is still checked.

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::diagnostic::{self, Diagnostic, Finding};
use crate::input::discover::Discovery;
use crate::input::listing::Listing;
use crate::input::neighbours::SharedSummaries;
use crate::source::display_path;
use crate::terragrunt::paths::absolute;

use super::directory::{Options, check_listed_directory, name_views};
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
    let mut listings = std::mem::take(&mut found.listings);
    listings.resize_with(found.dirs.len(), || None);
    // In output order, views named; each source sorted, as `merge_sorted` needs.
    let kept = |mut diagnostics: Vec<Diagnostic>| {
        // Terragrunt runs whichever tool the unit uses: its findings are about every view
        // checked; so are a crashed directory's and discovery's.
        name_views(&mut diagnostics, options.views);
        diagnostic::sort(&mut diagnostics);
        keep(diagnostics)
    };
    let discovered = kept(std::mem::take(&mut found.diagnostics));
    // The local modules the directories call, each file parsed once for all its callers.
    let shared = Arc::new(SharedSummaries::default());
    let (results, (terragrunt_findings, terragrunt)) = rayon::join(
        || {
            (found.dirs.par_iter())
                .zip(listings)
                .map(|(dir, listing)| {
                    let (diagnostics, files, bytes) =
                        check_directory_isolated(dir, listing, options, &shared);
                    (kept(diagnostics), files, bytes)
                })
                .collect::<Vec<_>>()
        },
        || {
            let mut tree = check_tree_isolated(&found.terragrunt, given, options);
            (kept(std::mem::take(&mut tree.diagnostics)), tree)
        },
    );
    let mut run = RunResult {
        findings: Vec::new(),
        directories: results.len() + unit_dirs(&found.dirs, &terragrunt.units),
        files: terragrunt.files,
        bytes: terragrunt.bytes,
    };
    let mut sources = Vec::with_capacity(results.len() + 2);
    sources.push(discovered);
    for (findings, files, bytes) in results {
        run.files += files;
        run.bytes += bytes;
        sources.push(findings);
    }
    sources.push(terragrunt_findings);
    run.findings = diagnostic::merge_sorted(sources);
    run
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
    listing: Option<Listing>,
    options: &Options,
    shared: &Arc<SharedSummaries>,
) -> (Vec<Diagnostic>, usize, u64) {
    match catch_unwind(AssertUnwindSafe(|| {
        check_listed_directory(dir, listing, options, shared)
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
