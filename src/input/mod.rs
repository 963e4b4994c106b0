//! The first stage: find what to check, and read it.
//!
//! - [`dir_handle`]: open directories, to list and read relative to (a deep chain).
//! - [`discover`]: module directories and Terragrunt units below the command-line paths,
//!   skipping what `.gitignore` files ignore ([`gitignore`]).
//! - [`listing`]: the configuration files of one directory.
//! - [`read`]: the one reader (size limit, UTF-8, parse) and its findings.
//! - [`overlay`]: texts that stand in for files on disk (an editor's unsaved buffers, the
//!   files `--diff` checks what its fixes leave in).
//! - [`scope`]: where a run may read (inside its roots, after resolving links).

pub(crate) mod dir_handle;
pub(crate) mod discover;
mod gitignore;
pub(crate) mod listing;
pub(crate) mod overlay;
pub(crate) mod read;
pub(crate) mod scope;
