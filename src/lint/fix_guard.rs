//! What the engine checks of every fix before it is offered: that none of its edits changes
//! part of a string, template or heredoc ([`crate::syntax::literals`]). A fix may remove or
//! replace a string whole (with the setting that holds it), or edit the code of a template's
//! `${ }` sequence; an edit that cuts into a string's text changes a value the fix does not
//! mean to change: a removal computed by whole lines inside a heredoc, say, or cut from a span
//! of a tree that reads the file otherwise than the tools. Such a fix is withheld: the finding
//! stays, without it. Every module directory and Terragrunt tree passes its findings through
//! here once their fixes are made.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::diagnostic::fix::{Fix, is_json};
use crate::source::{SourceFile, SourceFiles, Syntax};
use crate::syntax::literals::{StringLiteral, string_literals, touches_string};

/// Takes away the fix of each finding that has an edit changing part of a string of its file
/// (`files` holds the files as read, which the edits' ranges are of), or an edit of a file
/// that is not there to check.
pub(crate) fn withhold_fixes_editing_strings(diagnostics: &mut [Diagnostic], files: &SourceFiles) {
    let edits_something = |d: &Diagnostic| d.fix.as_ref().is_some_and(|f| !f.edits.is_empty());
    if !diagnostics.iter().any(edits_something) {
        return;
    }
    let by_path: HashMap<&Path, &Arc<SourceFile>> =
        files.iter().map(|(_, f)| (f.path.as_path(), f)).collect();
    // Each edited file's strings, found once.
    let mut strings: HashMap<&Path, Vec<StringLiteral>> = HashMap::new();
    for diagnostic in diagnostics.iter_mut() {
        let Some(fix) = &diagnostic.fix else {
            continue;
        };
        if edits_strings(fix, &by_path, &mut strings) {
            diagnostic.fix = None;
        }
    }
}

/// Whether an edit of `fix` changes part of a string, or edits a file not in `files`.
fn edits_strings<'f>(
    fix: &Fix,
    files: &HashMap<&Path, &'f Arc<SourceFile>>,
    strings: &mut HashMap<&'f Path, Vec<StringLiteral>>,
) -> bool {
    fix.edits.iter().any(|edit| {
        let Some(file) = files.get(edit.path.as_path()) else {
            return true;
        };
        let syntax = if is_json(&file.path) {
            Syntax::Json
        } else {
            Syntax::Native
        };
        let strings = (strings.entry(file.path.as_path()))
            .or_insert_with(|| string_literals(syntax, &file.text));
        touches_string(strings, &edit.range)
    })
}

#[cfg(test)]
mod tests;
