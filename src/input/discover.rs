//! Finds the module directories to check from the command-line paths.
//!
//! A directory argument is walked recursively; every directory holding a configuration file is
//! a module directory. A file argument stands for the directory it is in (this is what
//! pre-commit passes), even when the file itself was deleted. Symlinked directories are
//! followed once, and a symlink loop is reported, never walked into.
//!
//! The walk also collects Terragrunt units (`terragrunt.hcl` files), checked as one tree by
//! `crate::terragrunt`; the `.hcl` files they reference are found by following references.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use globset::{GlobSet, GlobSetBuilder};

use crate::diagnostic::{Diagnostic, ids};
use crate::knowledge::files::{TERRAGRUNT_UNIT, classify};
use crate::source::display_path;

/// The module directories found, in sorted order, and what went wrong on the way.
#[derive(Debug, Default)]
pub(crate) struct Discovery {
    pub(crate) dirs: Vec<PathBuf>,
    /// The Terragrunt units (`terragrunt.hcl` files) found, in sorted order.
    pub(crate) terragrunt: Vec<PathBuf>,
    /// Walk problems (unreadable directories, symlink loops), as `io_error` findings.
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// Arguments that name nothing: a usage error.
    pub(crate) missing: Vec<PathBuf>,
}

/// Compiles `--exclude` globs; `*` does not cross `/`, `**` does.
pub(crate) fn exclude_set(globs: &[String]) -> Result<GlobSet, String> {
    let mut builder = GlobSetBuilder::new();
    // Each glob once: repeats (a config and the command line naming the same one, or a
    // generated list) would each make every match slower.
    let mut seen = HashSet::new();
    for glob in globs.iter().filter(|glob| seen.insert(glob.as_str())) {
        let trimmed = glob.trim_end_matches('/');
        for pattern in [trimmed.to_string(), format!("{trimmed}/**")] {
            let compiled = globset::GlobBuilder::new(&pattern)
                .literal_separator(true)
                .build()
                .map_err(|e| format!("invalid --exclude glob `{glob}`: {e}"))?;
            builder.add(compiled);
        }
    }
    builder
        .build()
        .map_err(|e| format!("invalid --exclude globs: {e}"))
}

pub(crate) fn discover(paths: &[PathBuf], exclude: &GlobSet) -> Discovery {
    let mut found = BTreeSet::new();
    let mut units = BTreeSet::new();
    let mut visited = HashSet::new();
    let mut out = Discovery::default();
    for path in paths {
        let walker = Walker {
            root: path,
            exclude,
        };
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                if !walker.is_excluded(path) {
                    walker.walk(
                        path,
                        &mut WalkState {
                            ancestors: Vec::new(),
                            visited: &mut visited,
                            found: &mut found,
                            units: &mut units,
                            diagnostics: &mut out.diagnostics,
                        },
                    );
                }
            }
            Ok(_) => {
                let dir = parent_dir(path);
                if !walker.is_excluded(path) && is_terragrunt_unit(path) {
                    units.insert(path.clone());
                }
                if !walker.is_excluded(path) && has_config_files(&dir) {
                    found.insert(dir);
                }
            }
            Err(_) => {
                // A deleted file (pre-commit passes staged deletions) still means its directory.
                let dir = parent_dir(path);
                let is_config_name = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| classify(n).is_some() || n == TERRAGRUNT_UNIT);
                if is_config_name && dir.is_dir() {
                    if !walker.is_excluded(path) && has_config_files(&dir) {
                        found.insert(dir);
                    }
                } else {
                    out.missing.push(path.clone());
                }
            }
        }
    }
    out.dirs = found.into_iter().collect();
    out.terragrunt = units.into_iter().collect();
    out
}

fn is_terragrunt_unit(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == TERRAGRUNT_UNIT)
}

fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn has_config_files(dir: &Path) -> bool {
    super::listing::config_files(dir).is_ok_and(|listing| !listing.is_empty())
}

/// What a walk carries from directory to directory.
struct WalkState<'a> {
    /// The canonical paths of the directories above the current one: a symlink back to one of
    /// them is a loop.
    ancestors: Vec<PathBuf>,
    /// The canonical paths of every directory walked so far, under any path: a directory that
    /// several symlinks reach (a "diamond") is walked once, so the walk stays linear in the
    /// number of real directories.
    visited: &'a mut HashSet<PathBuf>,
    found: &'a mut BTreeSet<PathBuf>,
    units: &'a mut BTreeSet<PathBuf>,
    diagnostics: &'a mut Vec<Diagnostic>,
}

struct Walker<'a> {
    root: &'a Path,
    exclude: &'a GlobSet,
}

impl Walker<'_> {
    /// Excluded when the glob matches the path as shown, or relative to the walk root.
    fn is_excluded(&self, path: &Path) -> bool {
        if self.exclude.is_empty() {
            return false;
        }
        let shown = display_path(path);
        let relative = path
            .strip_prefix(self.root)
            .ok()
            .map(display_path)
            .filter(|r| !r.is_empty());
        self.exclude.is_match(&shown) || relative.is_some_and(|r| self.exclude.is_match(r))
    }

    /// Walks `dir`, unless the real directory it is was walked already.
    fn walk(&self, dir: &Path, state: &mut WalkState) {
        let diagnostics = &mut *state.diagnostics;
        let canonical = match dir.canonicalize() {
            Ok(c) => c,
            Err(error) => {
                diagnostics.push(io_error(dir, &format!("cannot resolve directory: {error}")));
                return;
            }
        };
        if state.ancestors.contains(&canonical) {
            diagnostics.push(
                io_error(
                    dir,
                    &format!(
                        "symlink loop: this directory is {} again; not walked into",
                        display_path(&canonical)
                    ),
                )
                .with_help("remove the symlink or add it to --exclude"),
            );
            return;
        }
        if !state.visited.insert(canonical.clone()) {
            return;
        }
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(error) => {
                diagnostics.push(io_error(dir, &format!("cannot read directory: {error}")));
                return;
            }
        };
        let mut names: Vec<(String, PathBuf)> = Vec::new();
        for entry in entries {
            match entry {
                Ok(entry) => names.push((
                    entry.file_name().to_string_lossy().into_owned(),
                    entry.path(),
                )),
                Err(error) => diagnostics.push(io_error(
                    dir,
                    &format!("cannot read directory entry: {error}"),
                )),
            }
        }
        names.sort();
        state.ancestors.push(canonical);
        let mut is_module = false;
        for (name, path) in names {
            // `metadata` follows symlinks; a dangling one is not a directory.
            let is_dir = std::fs::metadata(&path).is_ok_and(|m| m.is_dir());
            if is_dir {
                if !name.starts_with('.') && !self.is_excluded(&path) {
                    self.walk(&path, state);
                }
            } else if classify(&name).is_some() && !self.is_excluded(&path) {
                is_module = true;
            } else if name == TERRAGRUNT_UNIT && !self.is_excluded(&path) {
                state.units.insert(path);
            }
        }
        state.ancestors.pop();
        if is_module {
            state.found.insert(dir.to_path_buf());
        }
    }
}

fn io_error(path: &Path, message: &str) -> Diagnostic {
    Diagnostic::error(ids::IO_ERROR, message).at_path(display_path(path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn tree(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        for file in files {
            let path = dir.path().join(file);
            fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            fs::write(path, "").expect("write");
        }
        dir
    }

    fn rel(root: &Path, dirs: &[PathBuf]) -> Vec<String> {
        dirs.iter()
            .map(|d| display_path(d.strip_prefix(root).unwrap_or(d)))
            .collect()
    }

    #[test]
    fn finds_module_dirs_recursively_sorted_skipping_hidden() {
        let t = tree(&[
            "b/main.tf",
            "a/x.tofu.json",
            "a/sub/override.tf",
            "a/sub/deeper/README.md",
            ".terraform/modules/m/main.tf",
            ".git/x.tf",
            "c/.hidden/main.tf",
            "c/notes.tf.bak",
        ]);
        let found = discover(&[t.path().to_path_buf()], &GlobSet::empty());
        assert_eq!(rel(t.path(), &found.dirs), ["a", "a/sub", "b"]);
        assert!(found.diagnostics.is_empty());
    }

    #[test]
    fn file_argument_means_its_directory_even_when_deleted() {
        let t = tree(&["m/main.tf", "m/variables.tf"]);
        let paths = [
            t.path().join("m/main.tf"),
            t.path().join("m/variables.tf"),
            t.path().join("m/gone.tf"),
        ];
        let found = discover(&paths, &GlobSet::empty());
        assert_eq!(rel(t.path(), &found.dirs), ["m"]);
        assert!(found.missing.is_empty());
        let found = discover(&[t.path().join("nope")], &GlobSet::empty());
        assert_eq!(found.missing.len(), 1);
    }

    #[test]
    fn exclude_globs_do_not_cross_separators_with_single_star() {
        let t = tree(&[
            "examples/a/main.tf",
            "modules/x/main.tf",
            "modules/x/test/main.tf",
        ]);
        let root = t.path().to_path_buf();
        let found = discover(
            std::slice::from_ref(&root),
            &exclude_set(&["examples".into()]).expect("glob"),
        );
        assert_eq!(rel(t.path(), &found.dirs), ["modules/x", "modules/x/test"]);
        let found = discover(
            std::slice::from_ref(&root),
            &exclude_set(&["*/test".into()]).expect("glob"),
        );
        assert_eq!(
            rel(t.path(), &found.dirs),
            ["examples/a", "modules/x", "modules/x/test"]
        );
        let found = discover(&[root], &exclude_set(&["**/test".into()]).expect("glob"));
        assert_eq!(rel(t.path(), &found.dirs), ["examples/a", "modules/x"]);
    }

    #[cfg(unix)]
    #[test]
    fn symlink_loop_is_reported_not_followed_forever() {
        let t = tree(&["a/main.tf"]);
        std::os::unix::fs::symlink(t.path().join("a"), t.path().join("a/loop")).expect("symlink");
        let found = discover(&[t.path().to_path_buf()], &GlobSet::empty());
        assert_eq!(rel(t.path(), &found.dirs), ["a"]);
        assert_eq!(found.diagnostics.len(), 1);
        assert!(found.diagnostics[0].message.contains("symlink loop"));
    }

    /// Two links per level to the next level's directory: 2^20 paths, 21 real directories.
    #[cfg(unix)]
    #[test]
    fn symlink_diamond_walks_each_real_directory_once() {
        const LEVELS: usize = 20;
        let t = tree(&[]);
        let level = |n: usize| t.path().join(format!("level{n}"));
        for n in 0..=LEVELS {
            fs::create_dir_all(level(n)).expect("mkdir");
            fs::write(level(n).join("main.tf"), "").expect("write");
            if n > 0 {
                for link in ["left", "right"] {
                    std::os::unix::fs::symlink(level(n), level(n - 1).join(link)).expect("link");
                }
            }
        }
        let start = std::time::Instant::now();
        let found = discover(&[t.path().to_path_buf()], &GlobSet::empty());
        let elapsed = start.elapsed();
        assert_eq!(
            found.dirs.len(),
            LEVELS + 1,
            "{:?}",
            rel(t.path(), &found.dirs)
        );
        assert!(found.diagnostics.is_empty());
        assert!(
            elapsed < std::time::Duration::from_secs(1),
            "took {elapsed:?}"
        );
    }

    #[test]
    fn finds_terragrunt_units_but_not_as_modules() {
        let t = tree(&[
            "live/prod/app/terragrunt.hcl",
            "live/prod/env.hcl",
            "live/root.hcl",
            "live/.terragrunt-cache/x/terragrunt.hcl",
            "modules/vpc/main.tf",
        ]);
        let found = discover(&[t.path().to_path_buf()], &GlobSet::empty());
        assert_eq!(rel(t.path(), &found.dirs), ["modules/vpc"]);
        assert_eq!(
            rel(t.path(), &found.terragrunt),
            ["live/prod/app/terragrunt.hcl"]
        );
        let unit = t.path().join("live/prod/app/terragrunt.hcl");
        let found = discover(std::slice::from_ref(&unit), &GlobSet::empty());
        assert_eq!(found.terragrunt, [unit]);
        let deleted = discover(&[t.path().join("live/terragrunt.hcl")], &GlobSet::empty());
        assert!(deleted.missing.is_empty() && deleted.terragrunt.is_empty());
    }

    #[test]
    fn repeated_globs_are_compiled_once() {
        let globs = vec!["examples/**".to_string(); 1000];
        // Each glob compiles to two patterns: itself and everything below it.
        assert_eq!(exclude_set(&globs).expect("glob").len(), 2);
    }

    #[test]
    fn invalid_glob_is_an_error() {
        assert!(exclude_set(&["a[".into()]).is_err());
    }
}
