//! `merged --out DIR`: the effective module of every module directory below the given paths,
//! each written as one loadable file under DIR (at the directory's path relative to the
//! paths' common directory), and one source map for all of them (see
//! `module::source_map`). Scanners such as checkov and Trivy read override files as if they
//! were ordinary files and merge nothing; pointed at DIR they scan what the tools run, and
//! `map-sarif` moves their findings back to the user's files.
//!
//! DIR is created; an existing DIR must be empty or hold an earlier output (its source map),
//! whose files, and only those, are replaced: no user file is ever overwritten or deleted.

use std::fs;
use std::io::Write as _;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use serde_json::{Value, json};

use super::{EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, usage_error};
use crate::diagnostic::{Severity, escape};
use crate::input::discover;
use crate::input::overlay::Overlay;
use crate::input::scope::{Scope as ReadScope, ScopeFlags};
use crate::knowledge::View;
use crate::lint::directory::{self, Options, ViewSelection};
use crate::lint::{Kind, RuleSettings};
use crate::module::print::print_hcl_marked;
use crate::module::source_map::{segment_json, segments};
use crate::report;
use crate::rules;

/// The source map's name, at the top of DIR.
pub(crate) const SOURCE_MAP: &str = "tflint-merge-sourcemap.json";

/// The name of each effective module's file: `.tf`, which Terraform, OpenTofu and the
/// scanners all read, and not an override file's name.
pub(crate) const EFFECTIVE_FILE: &str = "effective.tf";

/// What `merged --out` was asked for.
pub(crate) struct MergedOut<'a> {
    pub(crate) out: &'a Path,
    pub(crate) paths: &'a [PathBuf],
    pub(crate) view: View,
}

pub(crate) fn run(request: &MergedOut) -> i32 {
    if let Err(message) = prepare_out_dir(request.out) {
        return usage_error(&message);
    }
    let out = match fs::canonicalize(request.out) {
        Ok(out) => out,
        Err(error) => return io_error(request.out, &error),
    };
    let found = discover::discover(request.paths, &discover::Excludes::default(), true);
    if let Some(missing) = found.missing.first() {
        return usage_error(&format!("no such file or directory: {}", missing.display()));
    }
    let Some(root) = common_directory(request.paths) else {
        return usage_error("cannot resolve the given paths");
    };
    let settings = RuleSettings::defaults(rules::registry());
    let mut options = Options::new(ViewSelection::only(request.view), settings);
    let scope = ReadScope::new(request.paths, &ScopeFlags::default());
    options.overlay = Overlay::default().within(Some(Arc::new(scope)));
    let mut status = EXIT_CLEAN;
    let mut written = Vec::new();
    for (dir, canonical) in found.dirs.iter().zip(&found.canonical) {
        let canonical = match canonical {
            Some(path) => path.to_path_buf(),
            None => fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf()),
        };
        // An earlier output below the checked paths is not a module of the user's.
        if canonical.starts_with(&out) {
            continue;
        }
        let Ok(relative) = canonical.strip_prefix(&root) else {
            continue;
        };
        match write_module(request, dir, relative, &out, &options) {
            Ok(Some(entry)) => {
                if entry["errors"] == json!(true) {
                    status = status.max(EXIT_FINDINGS);
                }
                written.push(entry);
            }
            Ok(None) => status = status.max(EXIT_FINDINGS),
            Err(message) => {
                eprintln!("error: {message}");
                // Whatever was written is still described by the source map.
                status = EXIT_ERROR;
                break;
            }
        }
    }
    let count = written.len();
    for entry in &mut written {
        if let Some(map) = entry.as_object_mut() {
            map.remove("errors");
        }
    }
    let map = json!({ "version": 1, "view": request.view.as_str(), "files": written });
    let text = serde_json::to_string_pretty(&map).unwrap_or_default() + "\n";
    if let Err(error) = write_new(&out.join(SOURCE_MAP), &text) {
        return io_error(&request.out.join(SOURCE_MAP), &error);
    }
    eprintln!(
        "wrote {count} effective module{} ({} view) under {}, source map {SOURCE_MAP}",
        if count == 1 { "" } else { "s" },
        request.view.tool_name(),
        escape::text(&request.out.to_string_lossy())
    );
    status
}

/// Builds and writes one directory's effective module. `Ok(None)`: it could not be built
/// (said on stderr); the entry of the source map otherwise, with `errors` set when the
/// module has load errors (printed on stderr too).
fn write_module(
    request: &MergedOut,
    dir: &Path,
    relative: &Path,
    out: &Path,
    options: &Options,
) -> Result<Option<Value>, String> {
    let result = directory::check_directory(dir, options);
    let errors: Vec<_> = (result.diagnostics.iter())
        .filter(|d| d.severity == Severity::Error)
        .collect();
    for d in &errors {
        let rendered = report::render_one_human(d, request.view.views());
        eprint!("{}", String::from_utf8_lossy(&rendered));
    }
    // A module the tool does not load runs nothing: its effective module would show a
    // scanner a configuration that never applies (merging keeps one of two duplicate blocks,
    // for one), so none is written.
    let registry = rules::registry();
    let load_error = errors
        .iter()
        .any(|d| (registry.find(d.rule.as_str())).is_some_and(|meta| meta.kind == Kind::LoadError));
    let module = result.modules.first().filter(|_| !load_error);
    let Some(module) = module else {
        eprintln!(
            "error: {} does not load {}: nothing written for it",
            request.view.tool_name(),
            escape::text(&dir.to_string_lossy())
        );
        return Ok(None);
    };
    let (text, marks) = print_hcl_marked(module, &result.files);
    let target_dir = inside(out, relative)?;
    fs::create_dir_all(&target_dir).map_err(|e| format!("{}: {e}", target_dir.display()))?;
    // A link placed in DIR must not lead the write elsewhere.
    let resolved = fs::canonicalize(&target_dir).map_err(|e| format!("{e}"))?;
    if !resolved.starts_with(out) {
        return Err(format!(
            "{} leads outside the output directory",
            target_dir.display()
        ));
    }
    let file = resolved.join(EFFECTIVE_FILE);
    write_new(&file, &text).map_err(|e| format!("{}: {e}", file.display()))?;
    let path = slash_path(&relative.join(EFFECTIVE_FILE));
    Ok(Some(json!({
        "path": path,
        "module": crate::source::display_path(dir),
        "segments": segments(&text, &marks, &result.files).iter().map(segment_json).collect::<Vec<_>>(),
        "errors": !errors.is_empty(),
    })))
}

/// `out` joined with `relative`, which must hold only plain names: nothing is written outside
/// `out`.
fn inside(out: &Path, relative: &Path) -> Result<PathBuf, String> {
    let mut path = out.to_path_buf();
    for component in relative.components() {
        match component {
            Component::Normal(name) => path.push(name),
            Component::CurDir => {}
            _ => {
                return Err(format!(
                    "{} is not below the output directory",
                    relative.display()
                ));
            }
        }
    }
    Ok(path)
}

/// A path with `/` between its components, as the source map and SARIF write them.
pub(crate) fn slash_path(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

/// Creates `path` with `text`; never replaces a file that is there.
fn write_new(path: &Path, text: &str) -> std::io::Result<()> {
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    file.write_all(text.as_bytes())
}

fn io_error(path: &Path, error: &std::io::Error) -> i32 {
    eprintln!("error: {}: {error}", escape::text(&path.to_string_lossy()));
    EXIT_ERROR
}

/// Makes `out` an empty directory, or one whose earlier output is gone: refuses a file, and a
/// directory that holds anything but an earlier output.
fn prepare_out_dir(out: &Path) -> Result<(), String> {
    let shown = escape::text(&out.to_string_lossy()).into_owned();
    let entries = match fs::read_dir(out) {
        Ok(entries) => entries.flatten().count(),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return fs::create_dir_all(out).map_err(|e| format!("cannot create {shown}: {e}"));
        }
        Err(error) => return Err(format!("cannot read {shown}: {error}")),
    };
    if entries == 0 {
        return Ok(());
    }
    let map_path = out.join(SOURCE_MAP);
    let Ok(text) = fs::read_to_string(&map_path) else {
        return Err(format!(
            "{shown} is not empty and holds no earlier `merged --out` output ({SOURCE_MAP}): \
             give a new or empty directory"
        ));
    };
    let map: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{shown}/{SOURCE_MAP} is not a source map ({e}): not replaced"))?;
    let canonical = fs::canonicalize(out).map_err(|e| format!("{shown}: {e}"))?;
    // Only the files the earlier map lists, each a regular file named as written, below DIR.
    let listed = map["files"].as_array().into_iter().flatten();
    for path in listed.filter_map(|f| f["path"].as_str()) {
        let relative = Path::new(path);
        if relative.file_name() != Some(EFFECTIVE_FILE.as_ref()) {
            continue;
        }
        let Ok(file) = inside(&canonical, relative) else {
            continue;
        };
        let is_file = fs::symlink_metadata(&file).is_ok_and(|m| m.file_type().is_file());
        let parent_inside = file
            .parent()
            .and_then(|p| fs::canonicalize(p).ok())
            .is_some_and(|p| p.starts_with(&canonical));
        if is_file && parent_inside {
            fs::remove_file(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            // The directories it leaves empty (never DIR itself).
            let mut dir = file.parent();
            while let Some(d) = dir.filter(|d| *d != canonical) {
                if fs::remove_dir(d).is_err() {
                    break;
                }
                dir = d.parent();
            }
        }
    }
    fs::remove_file(&map_path).map_err(|e| format!("{}: {e}", map_path.display()))
}

/// The deepest directory holding every given path (a file stands for its directory),
/// canonical.
fn common_directory(paths: &[PathBuf]) -> Option<PathBuf> {
    let mut common: Option<PathBuf> = None;
    for path in paths {
        let dir = if path.is_file() {
            discover::parent_dir(path)
        } else {
            path.clone()
        };
        let dir = fs::canonicalize(dir).ok()?;
        common = Some(match common {
            None => dir,
            Some(mut so_far) => {
                while !dir.starts_with(&so_far) {
                    if !so_far.pop() {
                        return None;
                    }
                }
                so_far
            }
        });
    }
    common
}
