//! The one way a configuration file is read and parsed, for module directories, Terragrunt
//! trees and the neighbouring modules rules look at: a size limit, UTF-8, then the parser, and
//! one set of findings for everything that can go wrong.
//!
//! Reading is split in two so that Terragrunt can read and parse a wave of files in parallel:
//! [`read_and_parse`] touches only the file, [`Read::into_file`] then records the text in the
//! directory's [`SourceFiles`] and says what went wrong as [`ReadProblem`]s, which the rule of
//! each id words (`syntax_error`, `parse_limit`, `read_error`, `io_error`,
//! `duplicate_definition`).

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::input::dir_handle::{Anchor, Links};
use crate::input::overlay::Overlay;
use crate::source::{FileId, SourceFile, SourceFiles, Span, Syntax, display_path};
use crate::syntax::{self, File, Parsed};

/// Files larger than this are reported and not parsed, by default. Parsing native syntax takes
/// many times a file's size in memory, so one much larger could exhaust a small machine's.
pub(crate) const DEFAULT_MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Bytes in a MiB, as sizes are shown.
pub(crate) const MIB: f64 = 1024.0 * 1024.0;

/// In test builds only, reading a file of this name panics.
#[cfg(test)]
pub(crate) const INJECT_PANIC: &str = "inject_panic.tf";

/// Who reads the file: says what a broken file costs, in the findings' notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reader {
    /// A file of a Terraform/OpenTofu module directory.
    Module,
    /// A `.hcl` file of a Terragrunt tree.
    Terragrunt,
}

/// What went wrong reading or parsing a file, or walking or listing a directory, as data. Each
/// variant names the id whose rule words it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ReadProblem {
    /// `duplicate_definition`: an argument set twice in one body, found while parsing
    /// (`Attribute redefined`, in JSON `Duplicate argument`).
    AttributeRedefined {
        syntax: Syntax,
        name: String,
        first: Span,
        again: Span,
    },
    /// `syntax_error`: the file does not parse. `summary` is what the tools call it, `message`
    /// the parser's own detail.
    Syntax {
        summary: &'static str,
        message: String,
        at: Span,
        reader: Reader,
    },
    /// `parse_limit`: the text is beyond a limit of this tool's parser (nesting depth,
    /// backtracking), not necessarily of the tools'.
    ParseLimit {
        message: String,
        at: Span,
        reader: Reader,
    },
    /// `read_error`: not a regular file (a directory, FIFO, socket or device); `kind` says which,
    /// as [`ReadFailure::NotRegular`] does.
    NotRegular {
        path: String,
        kind: &'static str,
        reader: Reader,
    },
    /// `read_error`: larger than the limit.
    TooLarge {
        path: String,
        bytes: u64,
        limit: u64,
        reader: Reader,
    },
    /// `read_error`: a configuration file whose name is not UTF-8 (shown lossily).
    NameNotUtf8 { path: String },
    /// `read_error`: the file lies outside the checked paths (after resolving links): never
    /// opened. `path` is as the run reached it, never what it resolves to.
    Outside { path: String, reader: Reader },
    /// `io_error`: the file could not be read.
    Unreadable { path: String, error: String },
    /// `io_error`: a directory could not be walked or listed.
    Directory {
        path: String,
        step: DirectoryStep,
        error: String,
    },
}

/// What could not be done with a directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DirectoryStep {
    /// Finding its canonical path.
    Resolve,
    /// Listing its entries.
    List,
    /// Reading one of its entries.
    ListEntry,
}

impl ReadProblem {
    /// The file or directory the problem is about, as findings show it.
    pub(crate) fn shown(&self, files: &SourceFiles) -> Arc<str> {
        match self {
            ReadProblem::AttributeRedefined { again: at, .. }
            | ReadProblem::Syntax { at, .. }
            | ReadProblem::ParseLimit { at, .. } => files.get(at.file).display.clone(),
            ReadProblem::NotRegular { path, .. }
            | ReadProblem::TooLarge { path, .. }
            | ReadProblem::NameNotUtf8 { path }
            | ReadProblem::Outside { path, .. }
            | ReadProblem::Unreadable { path, .. }
            | ReadProblem::Directory { path, .. } => path.as_str().into(),
        }
    }
}

/// What reading (and parsing) one file gave.
#[derive(Debug)]
pub(crate) enum Read {
    Parsed { text: String, parsed: Parsed },
    Unreadable(ReadFailure),
}

/// Why the bytes of a file could not be read.
#[derive(Debug)]
pub(crate) enum ReadFailure {
    /// Not a regular file (a directory, FIFO, socket or device): never read, as a FIFO blocks
    /// until a writer comes and a device may never end (opened without blocking, to see what
    /// it is).
    NotRegular(&'static str),
    /// Larger than the limit, as the metadata says or as reading found.
    TooLarge {
        bytes: u64,
        limit: u64,
    },
    /// Outside the run's [`Scope`](crate::input::scope::Scope): never opened.
    Outside,
    Io(std::io::Error),
}

/// The text of a file as it is now, for `--fix` to compare with the text that was checked
/// before it changes the file: an error when it is not a regular UTF-8 file of at most
/// `max_bytes`.
pub(crate) fn current_text(path: &Path, max_bytes: u64) -> Result<String, String> {
    match read_bytes(path, max_bytes) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|_| "not valid UTF-8".to_string()),
        Err(ReadFailure::TooLarge { bytes, limit }) => {
            Err(format!("{bytes} bytes, over the limit of {limit}"))
        }
        Err(ReadFailure::NotRegular(kind)) => Err(format!("a {kind}, not a file")),
        Err(failure @ ReadFailure::Outside) => Err(failure.describe()),
        Err(ReadFailure::Io(error)) => Err(error.to_string()),
    }
}

/// Reads the bytes of `path` when it is a regular file (following symlinks) of at most
/// `max_bytes`. Never reads more than `max_bytes + 1` bytes, whatever the metadata says: a file
/// may grow while it is read.
pub(crate) fn read_bytes(path: &Path, max_bytes: u64) -> Result<Vec<u8>, ReadFailure> {
    read_bytes_opened(path, max_bytes, open_for_reading(path, Links::Follow))
}

/// Opens `path` (through symbolic links) to read it as [`read_bytes`] does, for a caller that
/// holds the file open while it looks at it (`--fix`'s lease on a file it replaces).
pub(crate) fn open_to_read(path: &Path) -> std::io::Result<std::fs::File> {
    open_for_reading(path, Links::Follow)
}

/// Reads `file`, opened by [`open_to_read`] from `path` and not read yet, as [`read_bytes`]
/// does.
pub(crate) fn read_opened(
    path: &Path,
    file: std::fs::File,
    max_bytes: u64,
) -> Result<Vec<u8>, ReadFailure> {
    read_bytes_opened(path, max_bytes, Ok(file))
}

/// Reads `path` as [`read_bytes`] does, once it was opened (or failed to open) as `opened`.
fn read_bytes_opened(
    path: &Path,
    max_bytes: u64,
    opened: std::io::Result<std::fs::File>,
) -> Result<Vec<u8>, ReadFailure> {
    // Opened without a look at the path first (a `stat` per file would look its path up in the
    // kernel a second time), then judged by what was opened, before a byte
    // is read. A path that cannot be opened is looked at for why: a socket cannot be opened.
    let file = match opened {
        Ok(file) => file,
        Err(error) => {
            if let Ok(meta) = std::fs::metadata(path) {
                check_regular(&meta, max_bytes)?;
            }
            return Err(ReadFailure::Io(error));
        }
    };
    let meta = file.metadata().map_err(ReadFailure::Io)?;
    check_regular(&meta, max_bytes)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadFailure::Io)?;
    let read = bytes.len() as u64;
    if read > max_bytes {
        return Err(ReadFailure::TooLarge {
            bytes: read.max(meta.len()),
            limit: max_bytes,
        });
    }
    Ok(bytes)
}

/// Opens `path` to read it, without blocking: opening a FIFO for reading waits for a writer,
/// unless it is non-blocking (which changes nothing for a regular file); and a terminal
/// device is not made the process's controlling terminal.
#[cfg(unix)]
fn open_for_reading(path: &Path, links: Links) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let no_follow = if links == Links::Refuse {
        libc::O_NOFOLLOW
    } else {
        0
    };
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY | no_follow)
        .open(path)
}

/// Opens `path` to read it (no FIFOs to wait for here; links are resolved by the caller).
#[cfg(not(unix))]
fn open_for_reading(path: &Path, _links: Links) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// Whether opening with [`Links::Refuse`] failed because the path is a symlink (elsewhere
/// than on Unix, every path is resolved before it is opened).
fn is_symlink_refused(error: &std::io::Error) -> bool {
    #[cfg(unix)]
    return error.raw_os_error() == Some(libc::ELOOP);
    #[cfg(not(unix))]
    return false;
}

fn check_regular(meta: &std::fs::Metadata, max_bytes: u64) -> Result<(), ReadFailure> {
    if !meta.is_file() {
        return Err(ReadFailure::NotRegular(file_kind(meta.file_type())));
    }
    if meta.len() > max_bytes {
        return Err(ReadFailure::TooLarge {
            bytes: meta.len(),
            limit: max_bytes,
        });
    }
    Ok(())
}

/// What a file that is not a regular file is, for messages: "it is {kind}".
fn file_kind(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

impl ReadFailure {
    /// The failure as a sentence that follows "Failed to read file: ".
    pub(crate) fn describe(&self) -> String {
        match self {
            ReadFailure::NotRegular(kind @ ("a directory" | "not a regular file")) => {
                format!("it is {kind}")
            }
            ReadFailure::NotRegular(kind) => format!("it is {kind}, not a regular file"),
            ReadFailure::Outside => {
                "it lies outside the checked paths (after resolving links)".to_string()
            }
            ReadFailure::TooLarge { bytes, limit } => format!(
                "file too large: {:.1} MiB (the limit is {:.1} MiB)",
                *bytes as f64 / MIB,
                *limit as f64 / MIB
            ),
            ReadFailure::Io(error) => error.to_string(),
        }
    }
}

/// Reads `path` (at most `max_bytes`) and parses it as file `id` in `syntax`; the text of an
/// overlaid path is taken from `overlay` instead of the disk. For a file a configuration
/// refers to (a Terragrunt `include`, a module source): its whole path is resolved, and read
/// only inside the overlay's scope.
pub(crate) fn read_and_parse(
    path: &Path,
    id: FileId,
    syntax: Syntax,
    max_bytes: u64,
    overlay: &Overlay,
) -> Read {
    match read_file_bytes(path, None, max_bytes, overlay, Reached::Referenced) {
        Ok(bytes) => parse_bytes(bytes, id, syntax),
        Err(failure) => Read::Unreadable(failure),
    }
}

/// How the reader came to a file, which says what must be resolved to keep it in scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reached {
    /// Listed in a directory the walk entered: the directory is in scope (the walk follows no
    /// link out of it), so only a symlink as the file itself needs resolving.
    Listed,
    /// Named by a configuration: anything may lie on its path.
    Referenced,
}

/// The bytes of a configuration file listed in a directory the walk entered (or that was
/// given), as [`read_bytes`] reads them, or as `overlay` has them. With the `anchor` the walk
/// left in the directory's listing, the file is opened relative to it, not by its whole path.
pub(crate) fn read_config_bytes(
    path: &Path,
    anchor: Option<&Anchor>,
    max_bytes: u64,
    overlay: &Overlay,
) -> Result<Vec<u8>, ReadFailure> {
    read_file_bytes(path, anchor, max_bytes, overlay, Reached::Listed)
}

fn read_file_bytes(
    path: &Path,
    anchor: Option<&Anchor>,
    max_bytes: u64,
    overlay: &Overlay,
    reached: Reached,
) -> Result<Vec<u8>, ReadFailure> {
    // The engine's tests crash here on purpose, to prove one directory's crash spares the rest.
    #[cfg(test)]
    if path.file_name().is_some_and(|n| n == INJECT_PANIC) {
        panic!("injected panic while reading {}", path.display());
    }
    if let Some(stand_in) = overlay.file(path) {
        let Some(text) = stand_in else {
            return Err(ReadFailure::Io(std::io::ErrorKind::NotFound.into()));
        };
        let bytes = text.len() as u64;
        if bytes > max_bytes {
            let limit = max_bytes;
            return Err(ReadFailure::TooLarge { bytes, limit });
        }
        return Ok(text.as_bytes().to_vec());
    }
    // The same file either way: `anchor` is an open ancestor of its directory.
    let open = |links| match anchor.zip(path.file_name()) {
        Some((anchor, name)) => anchor.open_file(name, links),
        None => open_for_reading(path, links),
    };
    let Some(scope) = overlay.scope() else {
        return read_bytes_opened(path, max_bytes, open(Links::Follow));
    };
    if (reached == Reached::Referenced || cfg!(not(unix))) && !scope.may_read(path) {
        return Err(ReadFailure::Outside);
    }
    // A listed file is opened without following a link, which costs nothing; a link is
    // resolved and checked before it is opened again.
    match open(Links::Refuse) {
        Err(error) if is_symlink_refused(&error) => {
            if !scope.may_read(path) {
                return Err(ReadFailure::Outside);
            }
            read_bytes(path, max_bytes)
        }
        opened => read_bytes_opened(path, max_bytes, opened),
    }
}

/// Parses the bytes of a file as file `id` in `syntax`. Bytes that are not UTF-8 do not stop
/// the tools: HCL's scanners read bytes, and where a comment or a JSON string holds them the
/// file loads; elsewhere they are the syntax error the tools report there. The text kept for
/// the file has a stand-in for each such byte, so that every offset is the file's; `--fix`
/// never writes a file that is not UTF-8 (it reads the file again, as UTF-8, before it
/// changes it).
pub(crate) fn parse_bytes(bytes: Vec<u8>, id: FileId, syntax: Syntax) -> Read {
    match String::from_utf8(bytes) {
        Ok(text) => {
            let parsed = syntax::parse(id, syntax, &text);
            Read::Parsed { text, parsed }
        }
        Err(error) => {
            let bytes = error.into_bytes();
            let text = syntax::stand_in_for_not_utf8(&bytes, syntax);
            let parsed = syntax::parse_not_utf8(id, syntax, &text, &bytes);
            Read::Parsed { text, parsed }
        }
    }
}

/// A file as the later stages see it.
#[derive(Debug, Default)]
pub(crate) struct LoadedSource {
    /// Its id in the [`SourceFiles`], when its text (or a lossy copy) was recorded.
    pub(crate) id: Option<FileId>,
    /// The syntax tree, when the file was read and parsed.
    pub(crate) parsed: Option<File>,
    /// Read and syntax errors, repeated attributes.
    pub(crate) problems: Vec<ReadProblem>,
    /// Whether reading or parsing failed: checks that need the whole file are skipped.
    pub(crate) broken: bool,
    /// Bytes of text read.
    pub(crate) bytes: u64,
}

impl Read {
    /// Records the text under the name `shown` (the id given to [`read_and_parse`] must be the
    /// next id of `files`) and says what went wrong.
    pub(crate) fn into_file(
        self,
        shown: PathBuf,
        files: &mut SourceFiles,
        reader: Reader,
    ) -> LoadedSource {
        let path = display_path(&shown);
        let mut out = LoadedSource::default();
        match self {
            Read::Parsed { text, parsed } => {
                out.bytes = text.len() as u64;
                let id = files.add(SourceFile::new(shown, text));
                out.id = Some(id);
                let duplicates = parsed.duplicate_attributes.iter();
                out.problems
                    .extend(duplicates.map(|duplicate| ReadProblem::AttributeRedefined {
                        syntax: duplicate.syntax,
                        name: duplicate.name.clone(),
                        first: duplicate.first,
                        again: duplicate.second,
                    }));
                match parsed.file {
                    Ok(file) => out.parsed = Some(file),
                    Err(error) if error.beyond_tool_limit => out.fail(ReadProblem::ParseLimit {
                        message: error.message.trim().to_string(),
                        at: error.span,
                        reader,
                    }),
                    Err(error) => out.fail(ReadProblem::Syntax {
                        summary: error.summary,
                        message: error.message.trim().to_string(),
                        at: error.span,
                        reader,
                    }),
                }
            }
            Read::Unreadable(ReadFailure::NotRegular(kind)) => {
                out.fail(ReadProblem::NotRegular { path, kind, reader })
            }
            Read::Unreadable(ReadFailure::TooLarge { bytes, limit }) => {
                out.fail(ReadProblem::TooLarge {
                    path,
                    bytes,
                    limit,
                    reader,
                })
            }
            Read::Unreadable(ReadFailure::Outside) => {
                out.fail(ReadProblem::Outside { path, reader })
            }
            Read::Unreadable(ReadFailure::Io(error)) => out.fail(ReadProblem::Unreadable {
                path,
                error: error.to_string(),
            }),
        }
        out
    }
}

impl LoadedSource {
    fn fail(&mut self, problem: ReadProblem) {
        self.problems.push(problem);
        self.broken = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::tests::{calls_both_ways, corpus_files};

    /// The walks for calls skip the parts of expressions that hold none (`Expr::holds_calls`):
    /// on every file of the corpus of real modules they find what a walk of every expression
    /// finds.
    #[test]
    fn walks_for_calls_find_every_call_of_the_corpus() {
        let mut calls = 0;
        let (files, _) = corpus_files("walks_for_calls_find_every_call_of_the_corpus");
        for path in files {
            let name = path.to_string_lossy();
            let syntax = if name.ends_with(".tf.json") || name.ends_with(".tofu.json") {
                Syntax::Json
            } else if name.ends_with(".tf") || name.ends_with(".tofu") {
                Syntax::Native
            } else {
                continue;
            };
            let overlay = Overlay::default();
            let read = read_config_bytes(&path, None, DEFAULT_MAX_FILE_BYTES, &overlay);
            let Some(text) = read.ok().and_then(|bytes| String::from_utf8(bytes).ok()) else {
                continue;
            };
            let (found, every) = calls_both_ways(syntax, &text);
            assert_eq!(found, every, "{name}");
            calls += found.len();
        }
        assert!(calls > 0, "no call found in the corpus");
    }
}
