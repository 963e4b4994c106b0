//! Where a run may read: inside its roots, after resolving links. A linter runs on pull
//! requests from strangers (CI, pre-commit, an editor), so a committed symlink or a Terragrunt
//! `include { path = "/etc/passwd" }` must not make it read, and print, what the user never
//! asked to check.
//!
//! The roots are the paths given on the command line (the workspace folders in the language
//! server), each with the Git work tree that holds it: Terragrunt's `find_in_parent_folders()`
//! and module sources like `../modules/x` reach above a checked directory, but stay in its
//! repository. `--allow-outside PATH` adds more. `/proc`, `/sys` and `/dev` are never read,
//! whatever is allowed: they hold the process's environment, and files that never end.

use std::path::{Path, PathBuf};

/// Never read, nor walked into, even when allowed.
const SYSTEM: [&str; 3] = ["/proc", "/sys", "/dev"];

/// The roots of a run, canonical.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scope {
    roots: Vec<PathBuf>,
    /// `--allow-outside` paths, canonical.
    allowed: Vec<PathBuf>,
    /// `--follow-links`: directory links are walked wherever they lead (but for [`SYSTEM`]).
    follow_links: bool,
}

/// What a run was told about where it may read.
#[derive(Debug, Clone, Default)]
pub(crate) struct ScopeFlags {
    /// `--allow-outside`.
    pub(crate) allow_outside: Vec<PathBuf>,
    /// `--follow-links`.
    pub(crate) follow_links: bool,
}

impl Scope {
    /// The scope of a run of `paths`: each path (a file stands for its directory) and the Git
    /// work tree that holds it.
    pub(crate) fn new(paths: &[PathBuf], flags: &ScopeFlags) -> Scope {
        let mut roots = Vec::new();
        for path in paths {
            let dir = match std::fs::metadata(path) {
                Ok(meta) if meta.is_dir() => path.clone(),
                // A file, or a deleted one (pre-commit passes those): its directory.
                _ => match path.parent() {
                    Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
                    _ => PathBuf::from("."),
                },
            };
            let Ok(canonical) = dir.canonicalize() else {
                continue;
            };
            if let Some(work_tree) = work_tree_of(&canonical) {
                roots.push(work_tree);
            }
            roots.push(canonical);
        }
        let allowed = (flags.allow_outside.iter())
            .filter_map(|path| path.canonicalize().ok())
            .collect();
        Scope {
            roots,
            allowed,
            follow_links: flags.follow_links,
        }
    }

    /// Whether a file may be read: its real path lies inside a root or an allowed path, and
    /// not in `/proc`, `/sys` or `/dev`. A path that does not resolve (a missing file) may be
    /// tried: opening it fails as it would anyway.
    pub(crate) fn may_read(&self, path: &Path) -> bool {
        match path.canonicalize() {
            Ok(real) => self.holds(&real),
            Err(_) => true,
        }
    }

    /// Whether a canonical path lies inside a root or an allowed path (never a system one).
    pub(crate) fn holds(&self, canonical: &Path) -> bool {
        !is_system(canonical)
            && (self.roots.iter().chain(&self.allowed)).any(|root| canonical.starts_with(root))
    }

    /// Whether the walk follows a directory link to `canonical`: inside the roots, or
    /// anywhere with `--follow-links` but for `/proc`, `/sys` and `/dev`.
    pub(crate) fn follows_link_to(&self, canonical: &Path) -> bool {
        if self.follow_links {
            !is_system(canonical)
        } else {
            self.holds(canonical)
        }
    }
}

fn is_system(canonical: &Path) -> bool {
    SYSTEM.iter().any(|system| canonical.starts_with(system))
}

/// The Git work tree holding `dir` (canonical): the nearest directory at or above it with a
/// `.git` entry (a directory, or a file in a linked work tree or submodule).
fn work_tree_of(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|ancestor| ancestor.join(".git").exists())
        .map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_directories_are_never_held_even_when_allowed() {
        let flags = ScopeFlags {
            allow_outside: vec![PathBuf::from("/")],
            follow_links: true,
        };
        let scope = Scope::new(&[], &flags);
        assert!(scope.holds(Path::new("/etc/passwd")));
        assert!(!scope.holds(Path::new("/proc/self/environ")));
        assert!(!scope.follows_link_to(Path::new("/proc")));
        assert!(!scope.may_read(Path::new("/dev/null")));
    }

    #[test]
    fn a_file_outside_the_roots_may_not_be_read() {
        let root = tempfile::tempdir().expect("tempdir");
        let outside = tempfile::tempdir().expect("tempdir");
        std::fs::write(outside.path().join("x.hcl"), "").expect("write");
        std::fs::write(root.path().join("main.tf"), "").expect("write");
        let scope = Scope::new(&[root.path().to_path_buf()], &ScopeFlags::default());
        assert!(scope.may_read(&root.path().join("main.tf")));
        assert!(!scope.may_read(&outside.path().join("x.hcl")));
        assert!(!scope.follows_link_to(&outside.path().canonicalize().expect("real")));
    }
}
