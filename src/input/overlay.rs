//! Texts that stand in for files on disk while they are set: `--diff` checks, pass after pass,
//! what its fixes would leave, without writing it. The one listing and the one reader consult
//! them, so every stage sees them; nothing else sets them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

/// File texts by path (as the checked files are named: a directory joined with a name);
/// `None` for a file that is gone.
pub(crate) type Files = BTreeMap<PathBuf, Option<String>>;

static OVERLAY: RwLock<Option<Arc<Files>>> = RwLock::new(None);

/// Runs `f` with `files` standing in for the files on disk.
pub(crate) fn with<T>(files: Files, f: impl FnOnce() -> T) -> T {
    set(Some(Arc::new(files)));
    let result = f();
    set(None);
    result
}

fn set(files: Option<Arc<Files>>) {
    // A poisoned lock only means a reader panicked: the value is still whole.
    let mut slot = OVERLAY
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    *slot = files;
}

fn current() -> Option<Arc<Files>> {
    let slot = OVERLAY
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    slot.clone()
}

/// What stands in for `path`: `Some(Some(text))`, `Some(None)` for a file that is gone, `None`
/// when nothing does (read the disk).
pub(crate) fn file(path: &Path) -> Option<Option<String>> {
    current()?.get(path).cloned()
}

/// The names of the files directly in `dir` that stand in for files, each with whether it
/// exists.
pub(crate) fn names_in(dir: &Path) -> Vec<(String, bool)> {
    let Some(files) = current() else {
        return Vec::new();
    };
    (files.iter())
        .filter(|(path, _)| path.parent() == Some(dir))
        .filter_map(|(path, text)| {
            let name = path.file_name()?.to_str()?.to_string();
            Some((name, text.is_some()))
        })
        .collect()
}

/// Whether a file exists, as it stands in or else on disk.
pub(crate) fn exists(path: &Path) -> bool {
    file(path).map_or_else(|| path.exists(), |text| text.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::listing::config_files;
    use crate::input::read::current_text;

    /// While set, the listing and the reader see the stand-ins: a new file, a changed one and
    /// a deleted one; afterwards, the disk again.
    #[test]
    fn the_listing_and_the_reader_see_the_stand_ins() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("main.tf"), "a = 1\n").expect("write");
        std::fs::write(dir.path().join("old.tf"), "b = 1\n").expect("write");
        let files: Files = [
            (dir.path().join("main.tf"), Some("a = 2\n".to_string())),
            (dir.path().join("old.tf"), None),
            (dir.path().join("new.tofu"), Some("c = 3\n".to_string())),
        ]
        .into_iter()
        .collect();
        let names = |dir: &Path| -> Vec<String> {
            let mut names: Vec<String> = (config_files(dir).expect("listing").names)
                .into_iter()
                .map(|n| n.name)
                .collect();
            names.sort();
            names
        };
        let seen = with(files, || {
            let text = current_text(&dir.path().join("main.tf"), 100);
            let gone = current_text(&dir.path().join("old.tf"), 100);
            (names(dir.path()), text, gone.is_err())
        });
        assert_eq!(seen.0, ["main.tf", "new.tofu"]);
        assert_eq!(seen.1.as_deref(), Ok("a = 2\n"));
        assert!(seen.2, "old.tf is gone");
        assert_eq!(names(dir.path()), ["main.tf", "old.tf"]);
    }
}
