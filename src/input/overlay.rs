//! Texts that stand in for files on disk: an editor's unsaved buffers, which the language
//! server checks as if they were saved, and the files `--diff`'s fixes would change, create or
//! delete, which it checks pass after pass without writing them. The one reader
//! ([`super::read`]) and the directory listing look a path up here before they touch the disk,
//! so every stage sees the stand-in and nothing is written to temporary files. An overlay is
//! passed down with the options of a check: there is no global state. It also carries the
//! run's [`Scope`], where the reader may read: every read passes here.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::input::scope::Scope;
use crate::source::absolute;

/// Stand-ins by absolute, lexically clean path: a text, or `None` for a file that is gone.
/// Cheap to clone: the map is shared.
#[derive(Debug, Clone, Default)]
pub(crate) struct Overlay {
    files: Arc<HashMap<PathBuf, Option<String>>>,
    /// Where files may be read from disk; `None` reads anywhere (tests, tools' own files).
    scope: Option<Arc<Scope>>,
}

impl Overlay {
    /// An overlay of these texts; relative paths are taken from the working directory.
    pub(crate) fn new(texts: impl IntoIterator<Item = (PathBuf, String)>) -> Overlay {
        Overlay::with_deletions(texts.into_iter().map(|(path, text)| (path, Some(text))))
    }

    /// An overlay of texts and of files that are gone (`None`).
    pub(crate) fn with_deletions(
        files: impl IntoIterator<Item = (PathBuf, Option<String>)>,
    ) -> Overlay {
        let files = files
            .into_iter()
            .map(|(path, text)| (absolute(&path), text))
            .collect();
        Overlay {
            files: Arc::new(files),
            scope: None,
        }
    }

    /// These stand-ins with `files` added (replacing any for the same paths), in the same
    /// scope: what a fix would leave, over what the check already reads instead of the disk.
    pub(crate) fn and(
        &self,
        files: impl IntoIterator<Item = (PathBuf, Option<String>)>,
    ) -> Overlay {
        let mut all = (*self.files).clone();
        all.extend(
            files
                .into_iter()
                .map(|(path, text)| (absolute(&path), text)),
        );
        Overlay {
            files: Arc::new(all),
            scope: self.scope.clone(),
        }
    }

    /// The same stand-ins, reading from disk only inside `scope`.
    pub(crate) fn within(mut self, scope: Option<Arc<Scope>>) -> Overlay {
        self.scope = scope;
        self
    }

    /// Where files may be read from disk, if anywhere is not allowed.
    pub(crate) fn scope(&self) -> Option<&Arc<Scope>> {
        self.scope.as_ref()
    }

    /// What stands in for `path`: `Some(Some(text))`, `Some(None)` for a file that is gone,
    /// `None` when nothing does (read the disk).
    pub(crate) fn file(&self, path: &Path) -> Option<Option<&str>> {
        if self.files.is_empty() {
            return None;
        }
        self.files.get(&absolute(path)).map(Option::as_deref)
    }

    /// The names of the overlaid files directly in `dir`, each with whether it exists (a
    /// buffer that was never saved is a file of its directory too; a deleted one is not).
    pub(crate) fn names_in(&self, dir: &Path) -> impl Iterator<Item = (&str, bool)> + '_ {
        let dir = (!self.files.is_empty()).then(|| absolute(dir));
        self.files.iter().filter_map(move |(path, text)| {
            let dir = dir.as_deref()?;
            if path.parent() != Some(dir) {
                return None;
            }
            Some((path.file_name()?.to_str()?, text.is_some()))
        })
    }

    /// Whether a file exists, as it stands in or else on disk.
    pub(crate) fn exists(&self, path: &Path) -> bool {
        self.file(path)
            .map_or_else(|| path.exists(), |text| text.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_matched_after_cleaning() {
        let overlay = Overlay::new([(PathBuf::from("/m/./a/../main.tf"), "x".to_string())]);
        assert_eq!(overlay.file(Path::new("/m/main.tf")), Some(Some("x")));
        assert_eq!(overlay.file(Path::new("/m/other.tf")), None);
        let names: Vec<_> = overlay.names_in(Path::new("/m/")).collect();
        assert_eq!(names, [("main.tf", true)]);
        assert_eq!(overlay.names_in(Path::new("/")).count(), 0);
    }

    #[test]
    fn deleted_files_do_not_exist() {
        let dir = tempfile::tempdir().expect("tempdir");
        let old = dir.path().join("old.tf");
        std::fs::write(&old, "b = 1\n").expect("write");
        let overlay = Overlay::with_deletions([(old.clone(), None)]);
        assert_eq!(overlay.file(&old), Some(None));
        assert!(!overlay.exists(&old));
        assert!(Overlay::default().exists(&old));
        let names: Vec<_> = overlay.names_in(dir.path()).collect();
        assert_eq!(names, [("old.tf", false)]);
    }
}
