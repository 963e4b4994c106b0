//! Runs the stages for one module directory: read → parse → load (per view) → merge.
//!
//! Each directory is independent, so directories run in parallel with no shared state.

use std::path::{Path, PathBuf};

use crate::diagnostic::{self, Diagnostic, Views};
use crate::load::{self, ConfigName, View};
use crate::merge::{self, LoadedFile, Module};
use crate::rules::{self, RuleSettings, ignore};
use crate::source::{FileId, SourceFile, SourceFiles, Span};
use crate::syntax::{self, File};
use std::sync::Arc;

/// Files larger than this are reported and not parsed, by default. Parsing native syntax takes
/// about 80 bytes of memory per byte of input, so a 16 MiB file needs over 1 GiB.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// How to check a directory.
#[derive(Debug, Clone)]
pub struct Options {
    pub views: ViewSelection,
    pub max_file_bytes: u64,
    pub settings: Arc<RuleSettings>,
}

impl Options {
    pub fn new(views: ViewSelection) -> Options {
        Options {
            views,
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            settings: Arc::new(RuleSettings::defaults()),
        }
    }
}

/// Which views to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewSelection {
    Terraform,
    OpenTofu,
    Both,
}

impl ViewSelection {
    pub fn views(self) -> &'static [View] {
        match self {
            ViewSelection::Terraform => &[View::Terraform],
            ViewSelection::OpenTofu => &[View::OpenTofu],
            ViewSelection::Both => &View::ALL,
        }
    }
}

/// Everything found in one module directory.
#[derive(Debug)]
pub struct DirectoryResult {
    pub dir: PathBuf,
    pub files: SourceFiles,
    /// The effective module of each view that could be built (no unreadable or unparsable
    /// file among the files that view loads).
    pub modules: Vec<Module>,
    pub diagnostics: Vec<Diagnostic>,
    /// Bytes read.
    pub bytes: u64,
}

/// One configuration file of the directory, as read and parsed.
struct DirFile {
    name: ConfigName,
    /// `None` when the file could not be read or parsed (a diagnostic says why) or no selected
    /// view loads it.
    parsed: Option<File>,
    /// Whether reading or parsing failed.
    broken: bool,
    /// File-level findings: read and syntax errors, repeated attributes.
    diagnostics: Vec<Diagnostic>,
}

/// Checks one directory with the default options.
pub fn check_directory(dir: &Path, selection: ViewSelection) -> DirectoryResult {
    check_directory_with(dir, &Options::new(selection))
}

pub fn check_directory_with(dir: &Path, options: &Options) -> DirectoryResult {
    let selection = options.views;
    let mut result = DirectoryResult {
        dir: dir.to_path_buf(),
        files: SourceFiles::default(),
        modules: Vec::new(),
        diagnostics: Vec::new(),
        bytes: 0,
    };
    let names = match list_config_files(dir) {
        Ok(names) => names,
        Err(error) => {
            result.diagnostics.push(
                Diagnostic::error("io_error", format!("cannot read directory: {error}"))
                    .at_path(crate::source::display_path(dir)),
            );
            return result;
        }
    };
    let views = selection.views();
    let view_files: Vec<(View, load::ViewFiles)> = views
        .iter()
        .map(|&view| (view, load::view_files(&names, view)))
        .collect();

    let mut dir_files: Vec<DirFile> = names
        .into_iter()
        .map(|name| DirFile {
            name,
            parsed: None,
            broken: false,
            diagnostics: Vec::new(),
        })
        .collect();
    for (index, file) in dir_files.iter_mut().enumerate() {
        if view_files
            .iter()
            .any(|(_, v)| v.loaded().any(|i| i == index))
        {
            read_and_parse(dir, file, options.max_file_bytes, &mut result);
        }
    }

    // Merge each view; rules run once every view is built, since some compare views.
    let mut built: Vec<(View, Vec<LoadedFile>, Vec<LoadedFile>, Module)> = Vec::new();
    for (view, files) in &view_files {
        let views = view.views();
        for index in files.loaded() {
            let file = &dir_files[index];
            result
                .diagnostics
                .extend(file.diagnostics.iter().cloned().map(|d| d.in_views(views)));
        }
        if files.loaded().any(|i| dir_files[i].broken) {
            continue;
        }
        let pick = |list: &[usize]| -> Vec<LoadedFile> {
            list.iter()
                .filter_map(|&i| {
                    let f = &dir_files[i];
                    f.parsed.as_ref().map(|file| LoadedFile {
                        file,
                        extension: f.name.extension,
                    })
                })
                .collect()
        };
        let (primary, overrides) = (pick(&files.primary), pick(&files.overrides));
        let merged = merge::merge(*view, &result.files, &primary, &overrides);
        result.diagnostics.extend(merged.diagnostics);
        built.push((*view, primary, overrides, merged.module));
    }
    let contexts: Vec<rules::Context> = built
        .iter()
        .map(|(view, primary, overrides, module)| rules::Context {
            view: *view,
            dir,
            module,
            files: &result.files,
            primary,
            overrides,
            settings: &options.settings,
        })
        .collect();
    let shadowed: Vec<(FileId, FileId)> = view_files
        .iter()
        .flat_map(|(_, files)| &files.shadowed)
        .filter_map(|&(hidden, by)| {
            Some((
                dir_files[hidden].parsed.as_ref()?.id,
                dir_files[by].parsed.as_ref()?.id,
            ))
        })
        .collect();
    // Load errors found in one view only. The same error can be worded differently by the two
    // tools, so errors are matched by id and place, not by message.
    let one_view_errors: Vec<Diagnostic> = {
        type Place = (&'static str, Option<(String, std::ops::Range<usize>)>);
        let place = |d: &Diagnostic| -> Place {
            (
                d.rule,
                d.primary
                    .as_ref()
                    .map(|l| (l.file.display.clone(), l.range.clone())),
            )
        };
        let mut seen: std::collections::HashMap<Place, Views> = std::collections::HashMap::new();
        for d in &result.diagnostics {
            let views = seen.entry(place(d)).or_default();
            *views = views.union(d.views);
        }
        let mut out: Vec<Diagnostic> = Vec::new();
        for d in &result.diagnostics {
            let views = seen.get(&place(d)).copied().unwrap_or_default();
            if views.terraform != views.opentofu && !out.iter().any(|o| place(o) == place(d)) {
                out.push(d.clone());
            }
        }
        out
    };
    let directory = rules::DirectoryContext {
        dir,
        files: &result.files,
        views: &contexts,
        shadowed: &shadowed,
        one_view_errors: &one_view_errors,
        settings: &options.settings,
    };
    let found = rules::run_all(&directory, rules::RULES);
    drop(contexts);
    result.diagnostics.extend(found);
    result.modules = built.into_iter().map(|(_, _, _, module)| module).collect();
    let mut diagnostics = diagnostic::merge_views(std::mem::take(&mut result.diagnostics));
    let directives: Vec<ignore::Directive> = dir_files
        .iter()
        .filter_map(|f| f.parsed.as_ref())
        .flat_map(|file| ignore::directives(file, &result.files))
        .collect();
    diagnostics = ignore::apply(diagnostics, &directives, &result.files, &options.settings);
    if selection != ViewSelection::Both {
        // With one view there is nothing to compare against: don't name it.
        for d in &mut diagnostics {
            d.views = Views::NONE;
        }
    }
    diagnostic::sort(&mut diagnostics);
    result.diagnostics = diagnostics;
    result
}

const MIB: f64 = 1024.0 * 1024.0;

/// The configuration files directly in `dir` (not recursive). Like the tools, a sub-directory
/// whose name looks like a configuration file is not one; a symlink to a directory is listed
/// (and fails to read, as in the tools).
fn list_config_files(dir: &Path) -> std::io::Result<Vec<ConfigName>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let Some(name) = entry.file_name().to_str().map(str::to_string) else {
            continue; // a non-UTF-8 name cannot end in a recognised extension we can report
        };
        if let Some(config) = load::classify(&name) {
            names.push(config);
        }
    }
    Ok(names)
}

fn read_and_parse(dir: &Path, file: &mut DirFile, max_bytes: u64, result: &mut DirectoryResult) {
    let path = dir.join(&file.name.name);
    let display = crate::source::display_path(&path);
    let fail = |file: &mut DirFile, diagnostic: Diagnostic| {
        file.diagnostics.push(diagnostic);
        file.broken = true;
    };
    let bytes = match std::fs::metadata(&path) {
        Ok(meta) if meta.is_dir() => {
            return fail(
                file,
                Diagnostic::error("read_error", "Failed to read file: it is a directory")
                    .at_path(display),
            );
        }
        Ok(meta) if meta.len() > max_bytes => {
            return fail(
                file,
                Diagnostic::error(
                    "read_error",
                    format!(
                        "file too large to check: {:.1} MiB (the limit is {:.1} MiB)",
                        meta.len() as f64 / MIB,
                        max_bytes as f64 / MIB
                    ),
                )
                .at_path(display)
                .with_note(
                    "This directory's merge checks were skipped for the views that load this file.",
                )
                .with_help(
                    "raise the limit with --max-file-size MIB, or exclude the file's directory",
                ),
            );
        }
        _ => match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(error) => {
                return fail(
                    file,
                    Diagnostic::error("io_error", format!("Failed to read file: {error}"))
                        .at_path(display),
                );
            }
        },
    };
    result.bytes += bytes.len() as u64;
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => {
            let valid_up_to = error.utf8_error().valid_up_to();
            let lossy = String::from_utf8_lossy(error.as_bytes()).into_owned();
            let id = result.files.add(SourceFile::new(path, lossy));
            let span = Span::new(id, valid_up_to..valid_up_to + 1);
            return fail(
                file,
                Diagnostic::error("read_error", "file is not valid UTF-8")
                    .at(&result.files, span, "invalid byte sequence here")
                    .with_note("Terraform and OpenTofu read configuration files as UTF-8."),
            );
        }
    };
    let id: FileId = result.files.add(SourceFile::new(path, text));
    let parsed = syntax::parse(id, file.name.extension.syntax(), &result.files.get(id).text);
    for duplicate in &parsed.duplicate_attributes {
        let summary = match duplicate.syntax {
            crate::source::Syntax::Native => "Attribute redefined",
            crate::source::Syntax::Json => "Duplicate argument",
        };
        file.diagnostics.push(
            Diagnostic::error("duplicate_definition", summary)
                .at(&result.files, duplicate.second, "defined again here")
                .with_label(&result.files, duplicate.first, "first defined here")
                .with_note(format!(
                    "The argument \"{}\" was already set. Each argument may be set only once.",
                    duplicate.name
                )),
        );
    }
    match parsed.file {
        Ok(parsed_file) => file.parsed = Some(parsed_file),
        Err(error) => fail(
            file,
            Diagnostic::error("syntax_error", error.message.trim().to_string())
                .at(&result.files, error.span, "here")
                .with_note(
                    "This directory's merge checks were skipped for the views that load this file.",
                ),
        ),
    }
}
