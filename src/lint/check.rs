//! A whole run: every discovered module directory and the Terragrunt tree, in parallel. A panic
//! anywhere in one directory's pipeline (read, parse, load, merge, rules) becomes an
//! `internal_error` for that directory, and every other directory is still checked.

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::diagnostic::{self, Diagnostic};
use crate::input::discover::Discovery;
use crate::input::listing::Listing;
use crate::input::neighbours::SharedSummaries;
use crate::source::display_path;
use crate::terragrunt::paths::absolute;

use super::directory::{Options, check_listed_directory, name_views};
use super::run::internal_error;
use super::tree::{TreeResult, check_tree};

/// What a run found, in output order, and what it covered.
#[derive(Debug, Default)]
pub(crate) struct RunResult {
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// Module directories and Terragrunt unit directories checked.
    pub(crate) directories: usize,
    pub(crate) files: usize,
    pub(crate) bytes: u64,
}

/// Checks everything `found` lists; `given` are the command-line paths (Terragrunt paths are
/// shown relative to them). Runs on the current rayon pool.
pub(crate) fn check_all(mut found: Discovery, given: &[PathBuf], options: &Options) -> RunResult {
    // Keep only the findings of each directory: its modules and files are dropped as soon as it
    // is done. A finding keeps an excerpt of its files (the lines its labels touch) for the
    // report, or the whole file when a fix changes it. The Terragrunt tree is checked
    // alongside, in the same pool.
    // One per directory, so that the zip below drops none (a directory with no listing is
    // listed when checked).
    let mut listings = std::mem::take(&mut found.listings);
    listings.resize_with(found.dirs.len(), || None);
    // The local modules the directories call, each file parsed once for all its callers.
    let shared = Arc::new(SharedSummaries::default());
    let (results, terragrunt): (Vec<(Vec<Diagnostic>, usize, u64)>, TreeResult) = rayon::join(
        || {
            (found.dirs.par_iter())
                .zip(listings)
                .map(|(dir, listing)| check_directory_isolated(dir, listing, options, &shared))
                .collect()
        },
        || check_tree_isolated(&found.terragrunt, given, options),
    );
    let module_dirs: BTreeSet<PathBuf> = found.dirs.iter().map(|d| absolute(d)).collect();
    let unit_dirs = terragrunt
        .units
        .iter()
        .filter_map(|unit| unit.parent())
        .filter(|dir| !module_dirs.contains(*dir))
        .collect::<BTreeSet<_>>()
        .len();
    let mut run = RunResult {
        directories: results.len() + unit_dirs,
        files: results.iter().map(|r| r.1).sum::<usize>() + terragrunt.files,
        bytes: results.iter().map(|r| r.2).sum::<u64>() + terragrunt.bytes,
        diagnostics: found.diagnostics,
    };
    // One allocation of the right size rather than doubling with copies.
    let count = results.iter().map(|r| r.0.len()).sum::<usize>() + terragrunt.diagnostics.len();
    run.diagnostics.reserve_exact(count);
    run.diagnostics
        .extend(results.into_iter().flat_map(|r| r.0));
    let mut terragrunt_diagnostics = terragrunt.diagnostics;
    diagnostic::excerpt_files(&mut terragrunt_diagnostics);
    run.diagnostics.extend(terragrunt_diagnostics);
    // Terragrunt runs whichever tool the unit uses: its findings are about every view checked.
    name_views(&mut run.diagnostics, options.views);
    diagnostic::sort(&mut run.diagnostics);
    run
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
        Ok(mut result) => {
            // The directory's files go when it is done: its findings keep excerpts of them.
            diagnostic::excerpt_files(&mut result.diagnostics);
            // Kept until the run ends: without the room a growing vector leaves (a finding is
            // about 300 bytes, and a vector of one has room for four).
            result.diagnostics.shrink_to_fit();
            (result.diagnostics, result.files.len(), result.bytes)
        }
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
