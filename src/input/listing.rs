//! Which configuration files a directory holds: the one directory listing every stage uses.

use std::path::{Path, PathBuf};

use crate::knowledge::files::{ConfigName, classify};

/// The configuration files directly in a directory (not recursive), in directory order.
#[derive(Debug, Default)]
pub(crate) struct Listing {
    pub(crate) names: Vec<ConfigName>,
    /// Files whose name is not UTF-8 but ends in a configuration extension: the tools load
    /// them, tflint-merge cannot name them, so they are reported rather than skipped.
    pub(crate) not_utf8: Vec<PathBuf>,
}

impl Listing {
    pub(crate) fn is_empty(&self) -> bool {
        self.names.is_empty() && self.not_utf8.is_empty()
    }
}

/// Lists `dir`. Like the tools, a sub-directory whose name looks like a configuration file is
/// not one; a symlink to a directory is listed (and fails to read, as in the tools).
pub(crate) fn config_files(dir: &Path) -> std::io::Result<Listing> {
    let mut listing = Listing::default();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let name = entry.file_name();
        match name.to_str() {
            Some(name) => listing.names.extend(classify(name)),
            // The extensions are ASCII, so the lossy name ends in one exactly when the name does.
            None if classify(&name.to_string_lossy()).is_some() => {
                listing.not_utf8.push(entry.path());
            }
            None => {}
        }
    }
    // Files that `--diff`'s fixes would create, rename or delete.
    for (name, exists) in super::overlay::names_in(dir) {
        listing.names.retain(|n| n.name != name);
        if exists {
            listing.names.extend(classify(&name));
        }
    }
    Ok(listing)
}
