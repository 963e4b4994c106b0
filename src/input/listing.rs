//! Which configuration files a directory holds: the one directory listing every stage uses.

use std::path::Path;

use crate::knowledge::files::{ConfigName, classify};

/// The configuration files directly in `dir` (not recursive), in directory order. Like the
/// tools, a sub-directory whose name looks like a configuration file is not one; a symlink to a
/// directory is listed (and fails to read, as in the tools). A name that is not UTF-8 cannot end
/// in a recognised extension we could report, so it is left out.
pub(crate) fn config_files(dir: &Path) -> std::io::Result<Vec<ConfigName>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        if let Some(config) = entry.file_name().to_str().and_then(classify) {
            names.push(config);
        }
    }
    Ok(names)
}
