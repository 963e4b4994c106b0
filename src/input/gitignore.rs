//! `.gitignore` while walking: a path a repository ignores (generated code, vendored modules,
//! `.terraform` copies under another name) is not a module of that repository. Inside a git
//! work tree, the `.gitignore` files from its root down to the directory walked apply, and
//! `.git/info/exclude`; outside one, nothing is ignored (as ripgrep and ruff do). Paths named
//! on the command line are always checked: only what a walk finds is skipped.

use std::path::{Path, PathBuf};

use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};

use crate::source::{absolute, display_path};

/// The ignore files that apply in the directory being walked, outermost first.
pub(super) struct GitIgnores {
    stack: Vec<Gitignore>,
}

impl GitIgnores {
    /// The ignore files above `root` (a directory about to be walked), or None when `root` is
    /// not in a git work tree. Problems with an ignore file go to `notes`.
    pub(super) fn above(root: &Path, notes: &mut Vec<String>) -> Option<GitIgnores> {
        let root = absolute(root);
        let work_tree = root.ancestors().find(|dir| dir.join(".git").exists())?;
        let mut ignores = GitIgnores { stack: Vec::new() };
        let info_exclude = work_tree.join(".git/info/exclude");
        ignores.push_file(work_tree, &info_exclude, notes);
        let mut between: Vec<&Path> = root
            .ancestors()
            .skip(1)
            .take_while(|dir| dir.starts_with(work_tree))
            .collect();
        between.reverse();
        for dir in between {
            ignores.push_file(dir, &dir.join(".gitignore"), notes);
        }
        Some(ignores)
    }

    /// Adds `dir/.gitignore` if there is one; says whether it did (pop it after the walk).
    pub(super) fn enter(&mut self, dir: &Path, notes: &mut Vec<String>) -> bool {
        let dir = absolute(dir);
        self.push_file(&dir, &dir.join(".gitignore"), notes)
    }

    pub(super) fn leave(&mut self) {
        self.stack.pop();
    }

    fn push_file(&mut self, dir: &Path, file: &Path, notes: &mut Vec<String>) -> bool {
        if !file.is_file() {
            return false;
        }
        let mut builder = GitignoreBuilder::new(dir);
        if let Some(error) = builder.add(file) {
            notes.push(format!("{}: {error}", display_path(file)));
        }
        match builder.build() {
            Ok(ignore) => {
                self.stack.push(ignore);
                true
            }
            Err(error) => {
                notes.push(format!("{}: {error}", display_path(file)));
                false
            }
        }
    }

    /// Whether the innermost ignore file that has a say ignores `path`.
    pub(super) fn ignores(&self, path: &Path, is_dir: bool) -> bool {
        if self.stack.is_empty() {
            return false;
        }
        let path: PathBuf = absolute(path);
        for ignore in self.stack.iter().rev() {
            match ignore.matched(&path, is_dir) {
                Match::Ignore(_) => return true,
                Match::Whitelist(_) => return false,
                Match::None => {}
            }
        }
        false
    }
}
