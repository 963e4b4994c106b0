//! Checks a Terragrunt tree: load it ([`crate::terragrunt`]), run the Terragrunt rules, apply
//! inline ignores.

use std::path::PathBuf;

use crate::diagnostic::{self, Diagnostic};
use crate::input::overlay::Overlay;
use crate::terragrunt::Tree;
use crate::terragrunt::paths::Displayer;

use super::run::{Target, read_findings, run_rules};
use super::unit_modules::load_unit_modules;
use super::{RuleSettings, TreeContext, ignore};

/// What checking a tree gives.
#[derive(Debug, Default)]
pub(crate) struct TreeResult {
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// The units checked (an included parent `terragrunt.hcl` is not one).
    pub(crate) units: Vec<PathBuf>,
    pub(crate) files: usize,
    pub(crate) bytes: u64,
}

/// Loads the tree of `units` (paths of `terragrunt.hcl` files), runs the enabled Terragrunt
/// rules, applies inline ignores, and returns the sorted findings. Paths are shown relative to
/// the `given` command-line paths; overlaid files are read from `overlay`.
pub(crate) fn check_tree(
    units: &[PathBuf],
    given: &[PathBuf],
    settings: &RuleSettings,
    max_file_bytes: u64,
    overlay: &Overlay,
) -> TreeResult {
    if units.is_empty() {
        return TreeResult::default();
    }
    let tree = Tree::load(units, Displayer::new(given), max_file_bytes, overlay);
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    for f in tree.live_file_indexes() {
        let problems = &tree.files[f].problems;
        diagnostics.extend(read_findings(problems, &tree.sources, settings));
    }
    let unit_modules = load_unit_modules(&tree, settings, max_file_bytes, overlay);
    run_rules(
        Target::Tree(&TreeContext {
            tree: &tree,
            settings,
            unit_modules: &unit_modules,
        }),
        &mut diagnostics,
    );
    let parsed = (tree.live_file_indexes()).filter_map(|f| tree.files[f].parsed.as_ref());
    let mut diagnostics = ignore::apply_ignores(diagnostics, parsed, &tree.sources, settings);
    super::fix_layout::align_fixes(&mut diagnostics, &tree.sources);
    super::fix_guard::withhold_fixes_editing_strings(&mut diagnostics, &tree.sources);
    unproved_fixes_are_unsafe(&mut diagnostics);
    diagnostic::sort(&mut diagnostics);
    let result = TreeResult {
        diagnostics,
        units: tree.units().map(|f| tree.files[f].path.clone()).collect(),
        files: tree.live_file_indexes().count(),
        bytes: tree.live_file_indexes().map(|f| tree.files[f].bytes).sum(),
    };
    // Freed in a job of its own, as nothing needs to wait for it: its syntax trees are a myriad
    // of small allocations. Where directories are still to check, it is one more job of the
    // run; in a run of units alone, the process may end before the job is done, which loses
    // nothing: the tree holds only memory, and a detached job does not keep the process alive.
    rayon::spawn(move || drop(tree));
    result
}

/// A safe fix is one proved to leave what the tools run as it is (`super::fix_proof`, for
/// modules); nothing evaluates a Terragrunt configuration again with a fix applied, so a fix of
/// the tree is never offered as safe, whatever its rule claims.
fn unproved_fixes_are_unsafe(diagnostics: &mut [Diagnostic]) {
    for fix in diagnostics.iter_mut().filter_map(|d| d.fix.as_mut()) {
        if fix.applicability == crate::diagnostic::Applicability::Safe {
            fix.applicability = crate::diagnostic::Applicability::Unsafe;
        }
    }
}
