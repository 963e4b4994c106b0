//! What the file system holds at a path, asked once per path while references are resolved.
//!
//! The units of a tree share their parent folders, and each unit asks them the same questions:
//! `find_in_parent_folders("root.hcl")` tests every folder above it, `get_repo_root()` every
//! folder for `.git`, the stack-template check every folder for `terragrunt.stack.hcl`. Asked of
//! the kernel each time, every unit would repeat the same `stat` calls on the same folders, each
//! with a look-up of its whole path.
//!
//! A probe is one rayon job's (`map_init`): no lock, and nothing outlives the wave it serves,
//! so a later run (the language server's, after an edit) asks the file system again.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// What is at a path, following symlinks (as `Path::metadata` does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    /// Nothing, or nothing this process may look at (as `Path::exists` says).
    Missing,
    Directory,
    /// A regular file.
    File,
    /// Anything else: a FIFO, a socket, a device.
    Other,
}

/// Answers about paths, each asked of the file system once.
#[derive(Debug, Default)]
pub(crate) struct Probe {
    known: RefCell<foldhash::HashMap<PathBuf, Entry>>,
}

impl Probe {
    fn entry(&self, path: &Path) -> Entry {
        if let Some(&entry) = self.known.borrow().get(path) {
            return entry;
        }
        let entry = match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => Entry::Directory,
            Ok(meta) if meta.is_file() => Entry::File,
            Ok(_) => Entry::Other,
            Err(_) => Entry::Missing,
        };
        self.known.borrow_mut().insert(path.to_path_buf(), entry);
        entry
    }

    /// `Path::exists`.
    pub(crate) fn exists(&self, path: &Path) -> bool {
        self.entry(path) != Entry::Missing
    }

    /// `Path::is_dir`.
    pub(crate) fn is_dir(&self, path: &Path) -> bool {
        self.entry(path) == Entry::Directory
    }

    /// `Path::is_file`.
    pub(crate) fn is_file(&self, path: &Path) -> bool {
        self.entry(path) == Entry::File
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_as_the_path_methods_do() {
        let t = tempfile::tempdir().expect("tempdir");
        let dir = t.path().join("dir");
        let file = t.path().join("file.hcl");
        std::fs::create_dir(&dir).expect("mkdir");
        std::fs::write(&file, "x = 1\n").expect("write");
        let missing = t.path().join("missing");
        let probe = Probe::default();
        for path in [&dir, &file, &missing, &dir.join("below/file")] {
            // Twice: the second answer comes from what the probe knows.
            for _ in 0..2 {
                assert_eq!(probe.exists(path), path.exists(), "{}", path.display());
                assert_eq!(probe.is_dir(path), path.is_dir(), "{}", path.display());
                assert_eq!(probe.is_file(path), path.is_file(), "{}", path.display());
            }
        }
    }

    #[test]
    fn asks_the_file_system_once_per_path() {
        let t = tempfile::tempdir().expect("tempdir");
        let file = t.path().join("root.hcl");
        let probe = Probe::default();
        assert!(!probe.exists(&file));
        // Created after the probe looked: this probe keeps its answer, a new one sees it.
        std::fs::write(&file, "").expect("write");
        assert!(!probe.exists(&file));
        assert!(Probe::default().exists(&file));
    }
}
