//! The guarantee behind a safe fix: it is offered as safe only once applying it has been shown
//! to leave the module as each tool runs it. The rules judge their fixes cheaply (an override
//! restating its base can go); this check proves each safe fix every time, in memory: the fix
//! is applied to the texts the check read, the directory is checked again over those texts, and
//! the semantic form of each view's effective module ([`crate::module::semantic`]) and the load
//! errors are compared with what the check found. A fix that changes a value, a provider
//! configuration or which load errors the tools report becomes unsafe, its title saying what
//! it changes; one that would make a view load that did not (or stop loading) is withheld: the
//! tools' verdict is what the finding is about, not something a fix may turn. Unsafe fixes
//! change the module by design, but none may bring a load error of its own: one that would is
//! withheld too.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use crate::diagnostic::fix::{self, Fix, Texts, is_json};
use crate::diagnostic::{Applicability, Diagnostic, Views};
use crate::knowledge::View;
use crate::lint::Kind;
use crate::module::merge::Module;
use crate::module::semantic::semantic_form;
use crate::source::{FileId, SourceFiles, Syntax};

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
    /// How many load errors of each id and views (their places move when a fix removes
    /// lines).
    load_errors: BTreeMap<(&'static str, Views), usize>,
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
        let mut load_errors = BTreeMap::new();
        for d in diagnostics.iter().filter(is_load_error) {
            *load_errors.entry((d.rule.as_str(), d.views)).or_default() += 1;
        }
        Semantics {
            modules: (modules.iter())
                .map(|m| (m.view, semantic_form(m, files)))
                .collect(),
            load_errors,
        }
    }

    /// Whether `view` loads: it was built (every file read and parsed) with no load error.
    fn loads(&self, view: View) -> bool {
        self.modules.iter().any(|(v, _)| *v == view)
            && !(self.load_errors.keys()).any(|(_, views)| views.union(view.views()) == *views)
    }

    /// Whether `after` has a load error this has not (or more of one id).
    fn lacks_a_load_error_of(&self, after: &Semantics) -> bool {
        (after.load_errors.iter()).any(|(key, count)| {
            self.load_errors
                .get(key)
                .is_none_or(|before| before < count)
        })
    }
}

/// What a fix would change.
enum Change {
    /// Nothing the tools run.
    None,
    /// A view's module or its load errors, named as the title of a fix says it.
    Module(String),
    /// Whether a view loads at all (with the module changed too).
    Verdict,
    /// A load error of its own, which any fix is withheld for.
    LoadError,
}

/// Proves each fix of `diagnostics` against what the check of the directory found: a safe fix
/// that changes the module becomes unsafe; a fix that changes whether a view loads, or brings
/// a load error, is withheld (for an unsafe fix, only a load error it brings counts).
///
/// The safe fixes are first proved all at once, as `--fix` applies them, and so are the unsafe
/// ones: a directory with many fixes is checked again twice, not once per fix. Only when a
/// batch changes something are its fixes proved one by one, to find which: a safe fix together
/// with the safe fixes before it that kept their place (two fixes each safe alone may not be
/// together: removing two shadowed defaults of one variable leaves a type to convert a value
/// it cannot), an unsafe one alone.
pub(crate) fn prove_fixes(diagnostics: &mut [Diagnostic], checked: Checked, o: &Options) {
    if !o.prove_fixes || !diagnostics.iter().any(|d| d.fix.is_some()) {
        return;
    }
    let before = Semantics::of(checked.modules, checked.files, diagnostics, o);
    for safe in [true, false] {
        let batch: Vec<usize> = (0..diagnostics.len())
            .filter(|&i| {
                diagnostics[i]
                    .fix
                    .as_ref()
                    .is_some_and(|f| is_safe(f) == safe)
            })
            .collect();
        prove_in_passes(diagnostics, batch, safe, &checked, &before, o);
    }
}

/// Proves the fixes at `batch` (all safe, or all unsafe) in passes, as `--fix` applies them:
/// each pass applies the fixes still unproved together; those that wait for another (their
/// edits overlap one applied in the pass) make the next pass, so that many fixes that overlap
/// in pairs (an unused ignore comment on the line of an unused declaration) cost a few passes,
/// not a check of the directory per fix. A pass that changes something is proved fix by fix.
fn prove_in_passes(
    diagnostics: &mut [Diagnostic],
    mut batch: Vec<usize>,
    safe: bool,
    checked: &Checked,
    before: &Semantics,
    o: &Options,
) {
    while !batch.is_empty() {
        let fixes: Vec<&Fix> = batch
            .iter()
            .filter_map(|&i| diagnostics[i].fix.as_deref())
            .collect();
        let proven = match change(&fixes, checked, before, o) {
            (Change::None, applied) => applied,
            (Change::Module(_) | Change::Verdict, applied) if !safe => applied,
            _ => Vec::new(),
        };
        let proven: BTreeSet<usize> = proven.into_iter().map(|i| batch[i]).collect();
        if proven.is_empty() {
            if safe {
                prove_in_turn(diagnostics, &batch, checked, before, o);
            } else {
                for &index in &batch {
                    prove_alone(&mut diagnostics[index], checked, before, o);
                }
            }
            return;
        }
        batch.retain(|i| !proven.contains(i));
    }
}

/// Proves the safe fixes at `batch` in turn, each applied with those before it that stayed
/// safe; one that waits for another (their edits overlap) is proved alone.
fn prove_in_turn(
    diagnostics: &mut [Diagnostic],
    batch: &[usize],
    checked: &Checked,
    before: &Semantics,
    o: &Options,
) {
    let mut kept: Vec<usize> = Vec::new();
    for &index in batch {
        let fixes: Vec<&Fix> = (kept.iter().chain([&index]))
            .filter_map(|&i| diagnostics[i].fix.as_deref())
            .collect();
        let (change, applied) = change(&fixes, checked, before, o);
        if !applied.contains(&kept.len()) {
            prove_alone(&mut diagnostics[index], checked, before, o);
            continue;
        }
        let Some(fix) = &mut diagnostics[index].fix else {
            continue;
        };
        match change {
            Change::None => kept.push(index),
            Change::Module(what) => {
                fix.applicability = Applicability::Unsafe;
                fix.title = format!("{} (unsafe: it changes {what})", fix.title);
            }
            Change::Verdict | Change::LoadError => diagnostics[index].fix = None,
        }
    }
}

fn is_safe(fix: &Fix) -> bool {
    fix.applicability == Applicability::Safe
}

/// Proves the fix of `diagnostic` on its own.
fn prove_alone(diagnostic: &mut Diagnostic, checked: &Checked, before: &Semantics, o: &Options) {
    let Some(fix) = &mut diagnostic.fix else {
        return;
    };
    let safe = is_safe(fix);
    match change(&[fix], checked, before, o).0 {
        Change::None => {}
        // What an unsafe fix is for; making a module load is what some are for.
        Change::Module(_) | Change::Verdict if !safe => {}
        Change::Module(what) => {
            fix.applicability = Applicability::Unsafe;
            fix.title = format!("{} (unsafe: it changes {what})", fix.title);
        }
        Change::Verdict | Change::LoadError => diagnostic.fix = None,
    }
}

/// What applying `fixes` together changes, found by checking the directory again over the
/// texts they leave, and which of them applied (by index in `fixes`; one that cannot apply, or
/// overlaps an earlier one, waits, as with `--fix`).
fn change(
    fixes: &[&Fix],
    checked: &Checked,
    before: &Semantics,
    o: &Options,
) -> (Change, Vec<usize>) {
    let paths: BTreeSet<&Path> = fixes.iter().flat_map(|f| f.paths()).collect();
    // A file of another directory is loaded by a module this check does not build.
    if paths.iter().any(|path| path.parent() != Some(checked.dir)) {
        let what = "files outside this module directory".to_string();
        return (Change::Module(what), Vec::new());
    }
    // A link's file may be loaded by other module directories, which this check does not
    // build (`--fix` writes an edit through a link to the file it leads to; it deletes or
    // renames the link itself): only a fix that edits its comments alone is sure to change
    // none of them.
    let linked = |path: &Path| (path.symlink_metadata()).is_ok_and(|m| m.file_type().is_symlink());
    let beyond_comments = |path: &Path| {
        let text = text_of(path, checked.files, o).unwrap_or_default();
        !fixes
            .iter()
            .all(|fix| edits_only_comments(fix, path, &text))
    };
    if paths
        .iter()
        .any(|&path| linked(path) && beyond_comments(path))
    {
        let what = "a linked file, which other modules may load".to_string();
        return (Change::Module(what), Vec::new());
    }
    let mut texts: Texts = (paths.into_iter())
        .map(|path| (path.to_path_buf(), text_of(path, checked.files, o)))
        .collect();
    let applied = fix::apply(&mut texts, fixes).applied;
    if applied.is_empty() {
        // None can apply: `--fix` reports them and changes nothing.
        return (Change::None, applied);
    }
    // Only the load errors are compared: the rules need not run.
    let mut load_errors_only = (*o.settings).clone();
    // With no names, nothing to refuse.
    let _ = load_errors_only.only(&[]);
    let proving = Options {
        overlay: o.overlay.and(texts),
        prove_fixes: false,
        settings: Arc::new(load_errors_only),
        ..o.clone()
    };
    let alone = RunShare {
        summaries: &Default::default(),
        publish: false,
        check_now: None,
    };
    let after = check_listed_directory(checked.dir, Discovered::default(), &proving, alone);
    let after = Semantics::of(&after.modules, &after.files, &after.diagnostics, o);
    let change = if *before == after {
        Change::None
    } else if before.lacks_a_load_error_of(&after) {
        Change::LoadError
    } else if (o.views.views().iter()).any(|&view| before.loads(view) != after.loads(view)) {
        Change::Verdict
    } else {
        Change::Module(difference(before, &after))
    };
    (change, applied)
}

/// Whether every edit `fix` makes to `path` (whose text is `text`) lies within one comment, or
/// removes only comments and the blank space around them: a change no module that loads the
/// file can see. JSON comments (`"//"` members) are values of the root object: not these.
fn edits_only_comments(fix: &Fix, path: &Path, text: &str) -> bool {
    if fix.edits.iter().all(|e| e.path != path) {
        return true;
    }
    if is_json(path) {
        return false;
    }
    let Ok(file) = crate::syntax::parse(FileId(0), Syntax::Native, text).file else {
        return false;
    };
    let spans: Vec<Range<usize>> = (file.comments.iter())
        .map(|c| c.span.start as usize..c.span.end as usize)
        .collect();
    let inside = |at: usize| spans.iter().any(|s| s.contains(&at));
    fix.edits.iter().filter(|e| e.path == path).all(|edit| {
        let Some(removed) = text.get(edit.range.clone()) else {
            return false;
        };
        let within_one =
            (spans.iter()).any(|s| s.start <= edit.range.start && edit.range.end <= s.end);
        let blank_or_comment = (removed.char_indices())
            .all(|(i, c)| c.is_whitespace() || inside(edit.range.start + i));
        within_one || (blank_or_comment && edit.replacement.trim().is_empty())
    })
}

/// The text the check read for `path`, or what stands in for it, or `None` for a file that
/// is not there (a fix's rename target). A file there that the check did not read is no
/// configuration file of the directory: as far as its modules go, it is not there.
fn text_of(path: &Path, files: &SourceFiles, o: &Options) -> Option<String> {
    let read = files.iter().find(|(_, f)| f.path == path);
    if let Some((_, file)) = read {
        return Some(file.text.to_string());
    }
    o.overlay.file(path).flatten().map(str::to_string)
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
