//! Fixes fitted to the layout of the files they edit: where an edit changes a run of
//! attributes that `terraform fmt` aligns, the fix re-aligns the run as fmt would
//! ([`Fix::aligned`]), so that a file `terraform fmt -check` accepted before a fix still
//! passes after it. Every module directory and Terragrunt tree passes its findings through
//! here once their fixes are made, before the fixes are checked and proved.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::diagnostic::fix::alignment::Alignment;
use crate::diagnostic::fix::is_json;
use crate::source::{SourceFiles, Syntax};
use crate::syntax::literals::{StringLiteral, string_literals, touches_string};

/// Re-aligns around the edits of each fix in `diagnostics` (`files` holds the files as read).
pub(crate) fn align_fixes(diagnostics: &mut [Diagnostic], files: &SourceFiles) {
    if !diagnostics
        .iter()
        .any(|d| d.fix.as_ref().is_some_and(|f| !f.edits.is_empty()))
    {
        return;
    }
    // The alignment of each file a fix edits, worked out once for all its fixes.
    let edited: HashSet<&Path> = (diagnostics.iter())
        .filter_map(|d| d.fix.as_ref())
        .flat_map(|f| f.edits.iter().map(|e| e.path.as_path()))
        .collect();
    let by_path: HashMap<&Path, Alignment> = (files.iter())
        .filter(|(_, f)| edited.contains(f.path.as_path()) && !is_json(&f.path))
        .map(|(_, f)| (f.path.as_path(), Alignment::new(&f.text)))
        .collect();
    // The strings of each native file a widened edit would replace, found once.
    let mut strings: HashMap<&Path, Vec<StringLiteral>> = HashMap::new();
    for diagnostic in diagnostics.iter_mut() {
        let Some(fix) = diagnostic.fix.take() else {
            continue;
        };
        let keeps_strings = |path: &Path, range: &std::ops::Range<usize>| {
            let Some((path, text)) = by_path.get_key_value(path) else {
                return false;
            };
            let strings = (strings.entry(path))
                .or_insert_with(|| string_literals(Syntax::Native, text.text()));
            !touches_string(strings, range)
        };
        let fix = fix.aligned(|path| by_path.get(path), keeps_strings);
        diagnostic.fix = Some(Box::new(fix));
    }
}
