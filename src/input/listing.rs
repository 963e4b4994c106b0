//! Which configuration files a directory holds: the one directory listing every stage uses.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::dir_handle::{Anchor, DirHandle, EntryKind};
use crate::knowledge::files::{ConfigName, classify};

/// The configuration files directly in a directory (not recursive), in directory order.
#[derive(Debug, Default)]
pub(crate) struct Listing {
    pub(crate) names: Vec<ConfigName>,
    /// Files whose name is not UTF-8 but ends in a configuration extension: the tools load
    /// them, tflint-merge cannot name them, so they are reported rather than skipped.
    pub(crate) not_utf8: Vec<PathBuf>,
    /// Override files saved with a `.txt` extension (`main_override.tf.txt`, as some editors
    /// save them), in name order: neither tool reads them (`override_lookalike_filename`).
    /// Found in the same listing, so that the directory is not read again for them.
    pub(crate) text_override_copies: Vec<String>,
    /// Where the directory's files are read from, when the walk that listed it holds an
    /// ancestor open (see [`Anchor`]); else they are read by path.
    pub(crate) anchor: Option<Anchor>,
}

impl Listing {
    pub(crate) fn is_empty(&self) -> bool {
        self.names.is_empty() && self.not_utf8.is_empty()
    }

    /// Adds one entry of the directory (in directory order), `name` of kind `kind` in `dir`.
    /// Like the tools, a sub-directory whose name looks like a configuration file is not one; a
    /// symlink to a directory is listed (and fails to read, as in the tools).
    pub(crate) fn add(&mut self, dir: &Path, name: &OsStr, kind: EntryKind) {
        if let Some(copy) = name.to_str().filter(|name| is_text_override_copy(name)) {
            self.text_override_copies.push(copy.to_string());
        }
        if kind == EntryKind::Directory {
            return;
        }
        match name.to_str() {
            Some(name) => self.names.extend(classify(name)),
            // The extensions are ASCII, so the lossy name ends in one exactly when the name does.
            None if classify(&name.to_string_lossy()).is_some() => {
                self.not_utf8.push(dir.join(name));
            }
            None => {}
        }
    }

    /// The listing once every entry is added.
    pub(crate) fn finish(mut self) -> Listing {
        self.text_override_copies.sort();
        // Kept from the walk until the directory is checked, for every directory at once.
        self.names.shrink_to_fit();
        self
    }
}

/// Lists `dir` (see [`Listing::add`]).
pub(crate) fn config_files(dir: &Path) -> std::io::Result<Listing> {
    let mut listing = Listing::default();
    for entry in DirHandle::open(dir)?.entries()? {
        let entry = entry?;
        listing.add(dir, &entry.name, entry.kind);
    }
    Ok(listing.finish())
}

fn is_text_override_copy(name: &str) -> bool {
    let config = name.strip_suffix(".txt").and_then(classify);
    config.is_some_and(|c| c.is_override)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_text_copies_of_override_files_in_name_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        for name in [
            "z_override.tf.txt",
            "main.tf",
            "override.tf.json.txt",
            "notes.txt",
        ] {
            std::fs::write(dir.path().join(name), "").expect("write");
        }
        std::fs::create_dir(dir.path().join("b_override.tofu.txt")).expect("mkdir");
        let listing = config_files(dir.path()).expect("listed");
        assert_eq!(
            listing.text_override_copies,
            [
                "b_override.tofu.txt",
                "override.tf.json.txt",
                "z_override.tf.txt"
            ]
        );
        let names: Vec<&str> = listing.names.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["main.tf"]);
    }
}
