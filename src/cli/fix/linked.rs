//! Safe fixes to a file that another module directory of the run loads too, through a symbolic
//! link (`b/x_override.tf -> ../a/x_override.tf`): the proof of a fix re-merges the directory
//! whose finding it is (see `lint::fix_proof`), and a fix made there would change the other
//! module unseen. Such a fix is made unsafe, its title naming the link, before `--fix` or
//! `--diff` plans anything; with `--unsafe-fixes` it applies, as the user then chose. A fix
//! that deletes or renames the file is withheld: it would leave the link dangling, and the
//! other module unreadable to the tools.
//!
//! The links are found by listing the run's module directories once, and only when a safe fix
//! is on the table: a run without one costs nothing.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diagnostic::fix::FileOperation;
use crate::diagnostic::{Applicability, Diagnostic};
use crate::knowledge::files::classify;
use crate::source::display_path;

/// Makes unsafe every safe fix of `diagnostics` that changes a file which a configuration file
/// of one of `dirs` (the run's module directories) links to, and withholds one that deletes or
/// renames it.
pub(crate) fn unsafe_where_linked(diagnostics: &mut [Diagnostic], dirs: &[Arc<Path>]) {
    let is_safe = |d: &Diagnostic| {
        (d.fix.as_ref()).is_some_and(|fix| fix.applicability == Applicability::Safe)
    };
    if !diagnostics.iter().any(is_safe) {
        return;
    }
    let links = links_by_target(dirs);
    if links.is_empty() {
        return;
    }
    for d in diagnostics.iter_mut().filter(|d| is_safe(d)) {
        let Some(fix) = &mut d.fix else { continue };
        let removes = |path: &Path| {
            (fix.operations.iter()).any(|operation| match operation {
                FileOperation::Delete { path: gone } | FileOperation::Rename { from: gone, .. } => {
                    gone == path
                }
                FileOperation::Create { .. } => false,
            })
        };
        // Any link to the file counts, in its own directory too: the proof re-checks the
        // fixed text under the file's own name only, and a link reads the file on disk.
        let linked = fix.paths().into_iter().find_map(|path| {
            let target = fs::canonicalize(path).ok()?;
            let link = links
                .get(&target)?
                .iter()
                .find(|link| link.as_path() != path)?;
            Some((path.to_path_buf(), link.clone()))
        });
        if let Some((path, link)) = linked {
            if removes(&path) {
                d.fix = None;
                continue;
            }
            fix.applicability = Applicability::Unsafe;
            fix.title = format!(
                "{} (unsafe: it changes {}, which {} loads too, through a link)",
                fix.title,
                display_path(&path),
                display_path(&link)
            );
        }
    }
}

/// The configuration files of `dirs` that are symbolic links, by the file each leads to.
fn links_by_target(dirs: &[Arc<Path>]) -> BTreeMap<PathBuf, Vec<PathBuf>> {
    let mut links: BTreeMap<PathBuf, Vec<PathBuf>> = BTreeMap::new();
    for dir in dirs {
        let Ok(entries) = fs::read_dir(dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let is_link = entry.file_type().is_ok_and(|t| t.is_symlink());
            if !is_link || classify(&entry.file_name().to_string_lossy()).is_none() {
                continue;
            }
            let link = entry.path();
            if let Ok(target) = fs::canonicalize(&link) {
                links.entry(target).or_default().push(link);
            }
        }
    }
    links
}
