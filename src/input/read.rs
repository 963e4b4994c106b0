//! The one way a configuration file is read and parsed, for module directories, Terragrunt
//! trees and the neighbouring modules rules look at: a size limit, UTF-8, then the parser, and
//! one set of findings for everything that can go wrong.
//!
//! Reading is split in two so that Terragrunt can read and parse a wave of files in parallel:
//! [`read_and_parse`] touches only the file, [`Read::into_file`] then records the text in the
//! directory's [`SourceFiles`] and turns problems into findings.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostic, ids};
use crate::input::overlay::Overlay;
use crate::source::{FileId, SourceFile, SourceFiles, Span, Syntax, display_path};
use crate::syntax::{self, File, Parsed};

/// Files larger than this are reported and not parsed, by default. Parsing native syntax takes
/// about 80 bytes of memory per byte of input, so a 16 MiB file needs over 1 GiB.
pub(crate) const DEFAULT_MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

const MIB: f64 = 1024.0 * 1024.0;

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

impl Reader {
    fn skipped_note(self) -> &'static str {
        match self {
            Reader::Module => {
                "This file contributes nothing: the directory's other files are still loaded and \
                 merged, as the tools do, and their load errors reported (except an override's \
                 missing base, which this file may define); rules do not run on the views that \
                 load this file."
            }
            Reader::Terragrunt => "The Terragrunt checks of this file were skipped.",
        }
    }

    fn utf8_note(self) -> &'static str {
        match self {
            Reader::Module => "Terraform and OpenTofu read configuration files as UTF-8.",
            Reader::Terragrunt => "Terragrunt reads configuration files as UTF-8.",
        }
    }
}

/// What reading (and parsing) one file gave.
#[derive(Debug)]
pub(crate) enum Read {
    Parsed { text: String, parsed: Parsed },
    NotUtf8 { lossy: String, valid_up_to: usize },
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
        Err(ReadFailure::Io(error)) => Err(error.to_string()),
    }
}

/// Reads the bytes of `path` when it is a regular file (following symlinks) of at most
/// `max_bytes`. Never reads more than `max_bytes + 1` bytes, whatever the metadata says: a file
/// may grow while it is read.
pub(crate) fn read_bytes(path: &Path, max_bytes: u64) -> Result<Vec<u8>, ReadFailure> {
    // Opened without a look at the path first (a `stat` per file, with its path look-up in the
    // kernel, was a measurable part of a run), then judged by what was opened, before a byte
    // is read. A path that cannot be opened is looked at for why: a socket cannot be opened.
    let file = match open_for_reading(path) {
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
fn open_for_reading(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
}

/// Opens `path` to read it (no FIFOs to wait for here).
#[cfg(not(unix))]
fn open_for_reading(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
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
/// overlaid path is taken from `overlay` instead of the disk.
pub(crate) fn read_and_parse(
    path: &Path,
    id: FileId,
    syntax: Syntax,
    max_bytes: u64,
    overlay: &Overlay,
) -> Read {
    match read_config_bytes(path, max_bytes, overlay) {
        Ok(bytes) => parse_bytes(bytes, id, syntax),
        Err(failure) => Read::Unreadable(failure),
    }
}

/// The bytes of a configuration file, as [`read_bytes`] reads them, or as `overlay` has them.
pub(crate) fn read_config_bytes(
    path: &Path,
    max_bytes: u64,
    overlay: &Overlay,
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
    read_bytes(path, max_bytes)
}

/// Parses the bytes of a file as file `id` in `syntax`, when they are UTF-8.
pub(crate) fn parse_bytes(bytes: Vec<u8>, id: FileId, syntax: Syntax) -> Read {
    match String::from_utf8(bytes) {
        Ok(text) => {
            let parsed = syntax::parse(id, syntax, &text);
            Read::Parsed { text, parsed }
        }
        Err(error) => Read::NotUtf8 {
            valid_up_to: error.utf8_error().valid_up_to(),
            lossy: String::from_utf8_lossy(error.as_bytes()).into_owned(),
        },
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
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// Whether reading or parsing failed: checks that need the whole file are skipped.
    pub(crate) broken: bool,
    /// Bytes of text read.
    pub(crate) bytes: u64,
}

impl Read {
    /// Records the text under the name `shown` (the id given to [`read_and_parse`] must be the
    /// next id of `files`) and turns what went wrong into findings.
    pub(crate) fn into_file(
        self,
        shown: PathBuf,
        files: &mut SourceFiles,
        reader: Reader,
    ) -> LoadedSource {
        let display = display_path(&shown);
        let mut out = LoadedSource::default();
        match self {
            Read::Parsed { text, parsed } => {
                out.bytes = text.len() as u64;
                let id = files.add(SourceFile::new(shown, text));
                out.id = Some(id);
                out.diagnostics.extend(
                    parsed
                        .duplicate_attributes
                        .iter()
                        .map(|duplicate| attribute_redefined(files, duplicate)),
                );
                match parsed.file {
                    Ok(file) => out.parsed = Some(file),
                    Err(error) => out.fail(syntax_error(files, &error, reader)),
                }
            }
            Read::NotUtf8 { lossy, valid_up_to } => {
                let id = files.add(SourceFile::new(shown, lossy));
                out.id = Some(id);
                let span = Span::new(id, valid_up_to..valid_up_to + 1);
                out.fail(not_utf8(files, span, reader));
            }
            Read::Unreadable(ReadFailure::NotRegular(kind)) => out.fail(
                Diagnostic::error(
                    ids::READ_ERROR,
                    format!(
                        "Failed to read file: {}",
                        ReadFailure::NotRegular(kind).describe()
                    ),
                )
                .at_path(display)
                .with_note(reader.skipped_note()),
            ),
            Read::Unreadable(ReadFailure::TooLarge { bytes, limit }) => {
                out.fail(too_large(display, bytes, limit, reader))
            }
            Read::Unreadable(ReadFailure::Io(error)) => out.fail(
                Diagnostic::error(ids::IO_ERROR, format!("Failed to read file: {error}"))
                    .at_path(display),
            ),
        }
        out
    }
}

impl LoadedSource {
    fn fail(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
        self.broken = true;
    }
}

fn attribute_redefined(files: &SourceFiles, duplicate: &syntax::DuplicateAttribute) -> Diagnostic {
    let summary = match duplicate.syntax {
        Syntax::Native => "Attribute redefined",
        Syntax::Json | Syntax::TerragruntJson => "Duplicate argument",
    };
    let note = format!(
        "The argument \"{}\" was already set. Each argument may be set only once.",
        duplicate.name
    );
    Diagnostic::error(ids::DUPLICATE_DEFINITION, summary)
        .at(files, duplicate.second, "defined again here")
        .with_label(files, duplicate.first, "first defined here")
        .with_note(note)
}

fn syntax_error(files: &SourceFiles, error: &syntax::SyntaxError, reader: Reader) -> Diagnostic {
    if error.beyond_tool_limit {
        return Diagnostic::error(ids::PARSE_LIMIT, error.message.trim().to_string())
            .at(files, error.span, "beyond the parser's limit here")
            .with_note(PARSE_LIMIT_NOTE)
            .with_note(reader.skipped_note());
    }
    Diagnostic::error(ids::SYNTAX_ERROR, error.summary)
        .at(files, error.span, error.message.trim())
        .with_note(reader.skipped_note())
}

const PARSE_LIMIT_NOTE: &str = "This is a limit of tflint-merge, not necessarily an error in \
    the file: Terraform and OpenTofu may accept it.";

fn not_utf8(files: &SourceFiles, span: Span, reader: Reader) -> Diagnostic {
    Diagnostic::error(ids::READ_ERROR, "file is not valid UTF-8")
        .at(files, span, "invalid byte sequence here")
        .with_note(reader.utf8_note())
}

fn too_large(display: String, bytes: u64, limit: u64, reader: Reader) -> Diagnostic {
    let message = format!(
        "file too large to check: {:.1} MiB (the limit is {:.1} MiB)",
        bytes as f64 / MIB,
        limit as f64 / MIB
    );
    Diagnostic::error(ids::READ_ERROR, message)
        .at_path(display)
        .with_note(reader.skipped_note())
        .with_help("raise the limit with --max-file-size MIB, or exclude the file's directory")
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
            let read = read_config_bytes(&path, DEFAULT_MAX_FILE_BYTES, &overlay);
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
