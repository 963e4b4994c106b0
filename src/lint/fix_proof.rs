//! The guarantee behind a safe fix: it is offered as safe only once applying it has been shown
//! to leave the module as each tool runs it. The rules judge their fixes cheaply (an override
//! restating its base can go); this check proves each safe fix every time, in memory: the fix
//! is applied to the texts the check read, the directory is checked again over those texts, and
//! the semantic form of each view's effective module ([`crate::module::semantic`]) and the load
//! errors are compared with what the check found. A fix that changes a value, a provider
//! configuration or which load errors the tools report becomes unsafe, its title saying what
//! it changes; one that would make a view load that did not (or stop loading) is withheld: the
//! tools' verdict is what the finding is about, not something a fix may turn.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::diagnostic::fix::{self, Fix, Texts};
use crate::diagnostic::{Applicability, Diagnostic, Views};
use crate::knowledge::View;
use crate::lint::Kind;
use crate::module::merge::Module;
use crate::module::semantic::semantic_form;
use crate::source::SourceFiles;

use super::directory::{Discovered, Options, RunShare, check_listed_directory};

/// What the check of one directory found, which each safe fix is proved against.
pub(crate) struct Checked<'a> {
    pub(crate) dir: &'a Path,
    pub(crate) files: &'a SourceFiles,
    /// The effective module of each view that loads completely.
    pub(crate) modules: &'a [Module],
}

/// The part of a check's result that a safe fix must keep.
#[derive(PartialEq)]
struct Semantics {
    /// Each complete view and the semantic form of its module.
    modules: Vec<(View, Vec<String>)>,
    /// Each load error's id and views (their places move when a fix removes lines).
    load_errors: BTreeSet<(&'static str, Views)>,
}

impl Semantics {
    fn of(
        modules: &[Module],
        files: &SourceFiles,
        diagnostics: &[Diagnostic],
        o: &Options,
    ) -> Self {
        let registry = o.settings.registry();
        let is_load_error = |d: &&Diagnostic| {
            (registry.find(d.rule.as_str())).is_some_and(|meta| meta.kind == Kind::LoadError)
        };
        Semantics {
            modules: (modules.iter())
                .map(|m| (m.view, semantic_form(m, files)))
                .collect(),
            load_errors: (diagnostics.iter().filter(is_load_error))
                .map(|d| (d.rule.as_str(), d.views))
                .collect(),
        }
    }

    /// Whether `view` loads: it was built (every file read and parsed) with no load error.
    fn loads(&self, view: View) -> bool {
        self.modules.iter().any(|(v, _)| *v == view)
            && !(self.load_errors.iter()).any(|(_, views)| views.union(view.views()) == *views)
    }
}

/// What a fix would change, as its title says it.
enum Change {
    /// Nothing the tools run: the fix is safe.
    None,
    /// A view's module or its load errors, named.
    Module(String),
    /// Whether a view loads at all.
    Verdict,
}

/// Proves each safe fix of `diagnostics` against what the check of the directory found: a fix
/// that changes the module becomes unsafe; one that changes whether a view loads is withheld.
pub(crate) fn prove_safe_fixes(diagnostics: &mut [Diagnostic], checked: Checked, o: &Options) {
    let is_safe = |d: &Diagnostic| d.fixable(false);
    if !o.prove_fixes || !diagnostics.iter().any(is_safe) {
        return;
    }
    let before = Semantics::of(checked.modules, checked.files, diagnostics, o);
    for diagnostic in diagnostics.iter_mut().filter(|d| is_safe(d)) {
        let Some(fix) = &mut diagnostic.fix else {
            continue;
        };
        match change(fix, &checked, &before, o) {
            Change::None => {}
            Change::Module(what) => {
                fix.applicability = Applicability::Unsafe;
                fix.title = format!("{} (unsafe: it changes {what})", fix.title);
            }
            Change::Verdict => diagnostic.fix = None,
        }
    }
}

/// What applying `fix` alone changes, found by checking the directory again over the texts
/// the fix leaves.
fn change(fix: &Fix, checked: &Checked, before: &Semantics, o: &Options) -> Change {
    // A file of another directory is loaded by a module this check does not build.
    let elsewhere = |path: &&Path| path.parent() != Some(checked.dir);
    if fix.paths().iter().any(elsewhere) {
        return Change::Module("files outside this module directory".to_string());
    }
    // A link's file may be loaded by other module directories, which this check does not
    // build (`--fix` writes through a link to the file it leads to).
    let linked = |path: &&Path| (path.symlink_metadata()).is_ok_and(|m| m.file_type().is_symlink());
    if fix.paths().iter().any(linked) {
        return Change::Module("a linked file, which other modules may load".to_string());
    }
    let mut texts: Texts = (fix.paths().into_iter())
        .map(|path| (path.to_path_buf(), text_of(path, checked.files, o)))
        .collect();
    if fix::apply(&mut texts, &[fix]).applied.is_empty() {
        // It cannot apply: `--fix` reports it and changes nothing.
        return Change::None;
    }
    let proving = Options {
        overlay: o.overlay.and(texts),
        prove_fixes: false,
        ..o.clone()
    };
    let alone = RunShare {
        summaries: &Default::default(),
        publish: false,
    };
    let after = check_listed_directory(checked.dir, Discovered::default(), &proving, alone);
    let after = Semantics::of(&after.modules, &after.files, &after.diagnostics, o);
    if *before == after {
        return Change::None;
    }
    if (o.views.views().iter()).any(|&view| before.loads(view) != after.loads(view)) {
        return Change::Verdict;
    }
    Change::Module(difference(before, &after))
}

/// The text the check read for `path`, or what stands in for it, or `None` for a file that
/// is not there (a fix's rename target).
fn text_of(path: &Path, files: &SourceFiles, o: &Options) -> Option<String> {
    let read = files.iter().find(|(_, f)| f.path == path);
    if let Some((_, file)) = read {
        return Some(file.text.to_string());
    }
    match o.overlay.file(path) {
        Some(text) => text.map(str::to_string),
        None => std::fs::read_to_string(PathBuf::from(path)).ok(),
    }
}

/// What differs, for the fix's title: the first setting of a view's module that differs, or
/// the load errors.
fn difference(before: &Semantics, after: &Semantics) -> String {
    for (view, lines) in &before.modules {
        let Some((_, after_lines)) = after.modules.iter().find(|(v, _)| v == view) else {
            continue;
        };
        let first = (lines.iter().zip(after_lines)).find(|(a, b)| a != b);
        let differing = match first {
            Some((line, _)) => Some(line),
            None if lines.len() != after_lines.len() => lines
                .get(after_lines.len())
                .or(after_lines.get(lines.len())),
            None => None,
        };
        if let Some(line) = differing {
            // `variable.v default = ...` names `variable.v default`; a block's line, its path.
            let setting = match line.split_once(" = ") {
                Some((setting, _)) => setting,
                None => line.split(' ').next().unwrap_or(line),
            };
            let tool = match view {
                View::Terraform => "Terraform",
                View::OpenTofu => "OpenTofu",
            };
            return format!("`{setting}` for {tool}");
        }
    }
    "the load errors".to_string()
}

#[cfg(test)]
mod tests;
