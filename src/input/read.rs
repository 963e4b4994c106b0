//! The one way a configuration file is read and parsed, for module directories, Terragrunt
//! trees and the neighbouring modules rules look at: a size limit, UTF-8, then the parser, and
//! one set of findings for everything that can go wrong.
//!
//! Reading is split in two so that Terragrunt can read and parse a wave of files in parallel:
//! [`read_and_parse`] touches only the file, [`Read::into_file`] then records the text in the
//! directory's [`SourceFiles`] and turns problems into findings.

use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostic, ids};
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
    IsDirectory,
    TooLarge { bytes: u64, limit: u64 },
    Failed(std::io::Error),
}

/// Reads `path` (at most `max_bytes`) and parses it as file `id` in `syntax`.
pub(crate) fn read_and_parse(path: &Path, id: FileId, syntax: Syntax, max_bytes: u64) -> Read {
    // The engine's tests crash here on purpose, to prove one directory's crash spares the rest.
    #[cfg(test)]
    if path.file_name().is_some_and(|n| n == INJECT_PANIC) {
        panic!("injected panic while reading {}", path.display());
    }
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => return Read::IsDirectory,
        Ok(meta) if meta.len() > max_bytes => {
            return Read::TooLarge {
                bytes: meta.len(),
                limit: max_bytes,
            };
        }
        _ => {}
    }
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) => return Read::Failed(error),
    };
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
            Read::IsDirectory => out.fail(
                Diagnostic::error(ids::READ_ERROR, "Failed to read file: it is a directory")
                    .at_path(display),
            ),
            Read::TooLarge { bytes, limit } => out.fail(too_large(display, bytes, limit, reader)),
            Read::Failed(error) => out.fail(
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
    Diagnostic::error(ids::SYNTAX_ERROR, error.summary)
        .at(files, error.span, error.message.trim())
        .with_note(reader.skipped_note())
}

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
