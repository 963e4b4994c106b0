//! Texts that stand in for files on disk: an editor's unsaved buffers, which the language
//! server checks as if they were saved. The one reader ([`super::read`]) looks a path up here
//! before it touches the disk, so every stage sees the buffer's text and nothing is written to
//! temporary files.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::source::absolute;

/// Texts by absolute, lexically clean path. Cheap to clone: the map is shared.
#[derive(Debug, Clone, Default)]
pub(crate) struct Overlay {
    texts: Arc<HashMap<PathBuf, String>>,
}

impl Overlay {
    /// An overlay of these texts; relative paths are taken from the working directory.
    pub(crate) fn new(texts: impl IntoIterator<Item = (PathBuf, String)>) -> Overlay {
        let texts = texts
            .into_iter()
            .map(|(path, text)| (absolute(&path), text))
            .collect();
        Overlay {
            texts: Arc::new(texts),
        }
    }

    /// The text that stands in for `path`, if any.
    pub(crate) fn get(&self, path: &Path) -> Option<&str> {
        if self.texts.is_empty() {
            return None;
        }
        self.texts.get(&absolute(path)).map(String::as_str)
    }

    /// The names of the overlaid files directly in `dir`, whether or not the disk has them
    /// (a buffer that was never saved is a file of its directory too).
    pub(crate) fn names_in(&self, dir: &Path) -> impl Iterator<Item = &str> + '_ {
        let dir = (!self.texts.is_empty()).then(|| absolute(dir));
        self.texts.keys().filter_map(move |path| {
            let dir = dir.as_deref()?;
            if path.parent() != Some(dir) {
                return None;
            }
            path.file_name()?.to_str()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_matched_after_cleaning() {
        let overlay = Overlay::new([(PathBuf::from("/m/./a/../main.tf"), "x".to_string())]);
        assert_eq!(overlay.get(Path::new("/m/main.tf")), Some("x"));
        assert_eq!(overlay.get(Path::new("/m/other.tf")), None);
        let names: Vec<&str> = overlay.names_in(Path::new("/m/")).collect();
        assert_eq!(names, ["main.tf"]);
        assert_eq!(overlay.names_in(Path::new("/")).count(), 0);
    }
}
