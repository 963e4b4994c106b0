//! The local modules a directory's module calls name (`source = "../vpc"`), read once per
//! directory check however many rules and views ask, through the same reader and size limit as
//! the directory itself.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::knowledge::View;
use crate::knowledge::files::ConfigName;
use crate::module::views::view_files;
use crate::source::{FileId, Syntax};
use crate::syntax::File;

use super::listing::config_files;
use super::overlay::Overlay;
use super::read::{Read, read_and_parse};

/// What a local module directory holds, as far as rules need it.
#[derive(Debug)]
pub(crate) struct LocalModule {
    /// The directory exists (following symlinks).
    pub(crate) exists: bool,
    /// Its configuration files; empty when it cannot be listed.
    pub(crate) files: Vec<ConfigName>,
}

/// The variables a module declares, or `None` when they cannot be known.
type Variables = Option<Rc<[String]>>;

/// A cache of the local modules one directory's checks look at.
#[derive(Debug)]
pub(crate) struct Neighbours {
    max_file_bytes: u64,
    overlay: Overlay,
    modules: RefCell<HashMap<PathBuf, Rc<LocalModule>>>,
    variables: RefCell<HashMap<(PathBuf, View), Variables>>,
}

impl Neighbours {
    pub(crate) fn new(max_file_bytes: u64) -> Neighbours {
        Neighbours {
            max_file_bytes,
            overlay: Overlay::default(),
            modules: RefCell::default(),
            variables: RefCell::default(),
        }
    }

    /// Reads the files `overlay` holds from it rather than from the disk.
    pub(crate) fn with_overlay(mut self, overlay: Overlay) -> Neighbours {
        self.overlay = overlay;
        self
    }

    /// The module directory at `dir`.
    pub(crate) fn module(&self, dir: &Path) -> Rc<LocalModule> {
        if let Some(found) = self.modules.borrow().get(dir) {
            return Rc::clone(found);
        }
        let exists = dir.is_dir();
        let files = if exists {
            config_files(dir).unwrap_or_default().names
        } else {
            Vec::new()
        };
        let module = Rc::new(LocalModule { exists, files });
        self.modules
            .borrow_mut()
            .insert(dir.to_path_buf(), Rc::clone(&module));
        module
    }

    /// Whether `view`'s tool loads at least one file of the module at `dir`.
    pub(crate) fn has_configuration(&self, dir: &Path, view: View) -> bool {
        let module = self.module(dir);
        view_files(&module.files, view).loaded().next().is_some()
    }

    /// The variables the module at `dir` declares in `view`, or `None` when it has no files or
    /// one of them cannot be read or parsed (then nothing should be judged).
    pub(crate) fn variables(&self, dir: &Path, view: View) -> Variables {
        let key = (dir.to_path_buf(), view);
        if let Some(found) = self.variables.borrow().get(&key) {
            return found.clone();
        }
        let found = self.read_variables(dir, view).map(Rc::from);
        self.variables.borrow_mut().insert(key, found.clone());
        found
    }

    fn read_variables(&self, dir: &Path, view: View) -> Option<Vec<String>> {
        let files = self.parsed_files(dir, view)?;
        let declared = files.iter().flat_map(|file| {
            file.body
                .blocks_of("variable")
                .filter_map(|b| b.label(0).map(str::to_string))
        });
        Some(declared.collect())
    }

    /// The name of the first provider configuration the module at `dir` configures itself in
    /// `view` (a `provider` block with an argument or block besides `alias` and `for_each`):
    /// a "legacy module", which calls with `count`, `for_each`, `depends_on` or (OpenTofu 1.12
    /// and later) `enabled` may not use. `None` when it has none, no files, or one of them cannot
    /// be read or parsed.
    pub(crate) fn configured_provider(&self, dir: &Path, view: View) -> Option<String> {
        let files = self.parsed_files(dir, view)?;
        let configured = files
            .iter()
            .flat_map(|f| f.body.blocks_of("provider"))
            .find(|p| {
                !p.body.blocks.is_empty()
                    || (p.body.attributes.iter())
                        .any(|a| !matches!(a.name.as_str(), "alias" | "for_each"))
            })?;
        configured.label(0).map(str::to_string)
    }

    /// The files `view`'s tool loads from the module at `dir`, parsed; `None` when there are
    /// none or one cannot be read or parsed (then nothing should be judged).
    fn parsed_files(&self, dir: &Path, view: View) -> Option<Vec<File>> {
        let module = self.module(dir);
        if module.files.is_empty() {
            return None;
        }
        view_files(&module.files, view)
            .loaded()
            .map(|index| {
                let name = &module.files[index];
                let syntax: Syntax = name.extension.syntax();
                let path = dir.join(&name.name);
                match read_and_parse(&path, FileId(0), syntax, self.max_file_bytes, &self.overlay) {
                    Read::Parsed { parsed, .. } => parsed.file.ok(),
                    _ => None,
                }
            })
            .collect()
    }
}
