//! Inline ignores: `# tflint-merge-ignore: rule_a, rule_b  reason` silences those rules for
//! findings that start on the comment's line or the next one; `tflint-merge-ignore-file:`
//! silences them in the whole file (in JSON files: a root `"//"` string). `all` names every
//! rule. An ignore that silences nothing is an [`IgnoreProblem`], which the `unused_ignore` rule
//! reports, like ruff's RUF100. Load errors are never silenced: the tools refuse the module
//! whatever a comment says. What `validate` refuses is silenced like a rule's finding: the tools
//! decide some of it while evaluating, where a static reading can be wrong.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::source::{FileId, SourceFile, SourceFiles, Span};
use crate::syntax::File;

use super::registry::Registry;
use super::run::ignore_findings;
use super::{Kind, RuleSettings};

/// What every ignore comment starts with; text starting so that is no directive is malformed.
const MARKER_WORD: &str = "tflint-merge-ignore";
const LINE_MARKER: &str = "tflint-merge-ignore:";
const FILE_MARKER: &str = "tflint-merge-ignore-file:";

/// What is wrong with an ignore comment, as data: the `unused_ignore` rule words it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum IgnoreProblem {
    /// A comment that starts like an ignore but is not one: it silences nothing.
    Malformed { comment: Span, problem: Malformed },
    /// The id at `position` of a directive silenced nothing.
    Unused {
        directive: Directive,
        position: usize,
        reason: Unused,
        fix: UnusedFix,
    },
}

impl IgnoreProblem {
    /// The file of the comment, as findings show it.
    pub(crate) fn shown(&self, files: &SourceFiles) -> std::sync::Arc<str> {
        let comment = match self {
            IgnoreProblem::Malformed { comment, .. } => *comment,
            IgnoreProblem::Unused { directive, .. } => directive.span,
        };
        files.get(comment.file).display.clone()
    }
}

/// Why a comment that starts like an ignore is not one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Malformed {
    /// No `:` after the marker (`tflint-merge-ignore` or `tflint-merge-ignore-file`).
    NoColon { marker: &'static str },
    /// No rule id before the reason.
    NoRule,
}

/// Why an id of an ignore comment silenced nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Unused {
    /// `all`, and nothing was found there.
    Nothing,
    /// Not a finding id: the engine's "unknown rule" message.
    UnknownId(String),
    /// A load error, which is never silenced.
    LoadError,
    /// A rule that found nothing there.
    NothingReported,
}

/// What removing an unused id takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UnusedFix {
    /// Nothing: a misspelled id was meant to silence something, which is the writer's call.
    None,
    /// The whole comment: none of its ids silenced anything.
    Comment,
    /// The id alone, from a comment whose other ids are kept.
    Id,
}

/// Applies the inline ignores of the comments of `parsed`: drops the findings they silence, and
/// adds the `unused_ignore` findings of the ignores that silence nothing.
pub(crate) fn apply_ignores<'a>(
    diagnostics: Vec<Diagnostic>,
    parsed: impl Iterator<Item = &'a File>,
    files: &SourceFiles,
    settings: &RuleSettings,
) -> Vec<Diagnostic> {
    let mut malformed = Vec::new();
    let found: Vec<Directive> = parsed
        .flat_map(|file| directives(file, files, &mut malformed))
        .collect();
    let (mut kept, unused) = apply(diagnostics, &found, files, settings);
    kept.extend(ignore_findings(&unused, files, settings));
    kept.extend(ignore_findings(&malformed, files, settings));
    kept
}

/// One ignore comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Directive {
    pub(crate) file: FileId,
    /// The comment, delimiters included.
    pub(crate) span: Span,
    /// 0-based line the comment ends on; `None` for a whole-file directive.
    pub(crate) line: Option<usize>,
    /// Rule ids as written (`all` included).
    pub(crate) rules: Vec<String>,
    /// Where each of `rules` is in the file, when the comment's text is as written there (in
    /// JSON, a string without escapes).
    pub(crate) rule_ranges: Option<Vec<Range<usize>>>,
}

/// The ignore directives in one file's comments. A comment that looks like one but is not
/// (no `:`, or no rule id after it) silences nothing: it goes into `malformed` (for
/// `unused_ignore`) rather than being dropped, so the writer learns the finding it meant to
/// silence is not silenced for the reason they think.
fn directives(
    file: &File,
    files: &SourceFiles,
    malformed: &mut Vec<IgnoreProblem>,
) -> Vec<Directive> {
    let source = files.get(file.id);
    let mut found = Vec::new();
    for comment in &file.comments {
        let text = comment.text.trim_start();
        let (rest, whole_file) = if let Some(rest) = text.strip_prefix(FILE_MARKER) {
            (rest, true)
        } else if let Some(rest) = text.strip_prefix(LINE_MARKER) {
            (rest, false)
        } else {
            // `tflint-merge-ignore rule_a` or a bare `tflint-merge-ignore`, not a longer word.
            let word_ends = |rest: &str| rest.chars().next().is_none_or(char::is_whitespace);
            let without_colon = match text.strip_prefix(MARKER_WORD) {
                Some(rest) if rest.strip_prefix("-file").is_some_and(word_ends) => {
                    Some(FILE_MARKER)
                }
                Some(rest) if word_ends(rest) => Some(LINE_MARKER),
                _ => None,
            };
            if let Some(marker) = without_colon {
                malformed.push(IgnoreProblem::Malformed {
                    comment: comment.span,
                    problem: Malformed::NoColon {
                        marker: marker.trim_end_matches(':'),
                    },
                });
            }
            continue;
        };
        let listed = rule_list(rest);
        if listed.is_empty() {
            malformed.push(IgnoreProblem::Malformed {
                comment: comment.span,
                problem: Malformed::NoRule,
            });
            continue;
        }
        // Where `rest` starts in the file, if the comment is written as its text reads: most
        // often the comment's text runs to its end (`# ...`), found without a search.
        let written = source.slice(comment.span);
        let text_at = match written.strip_suffix(text) {
            Some(before) => Some(before.len()),
            None => written.find(text),
        };
        let rest_offset =
            text_at.map(|at| comment.span.start as usize + at + (text.len() - rest.len()));
        let rule_ranges = rest_offset.map(|offset| {
            (listed.iter())
                .map(|(_, r)| offset + r.start..offset + r.end)
                .collect()
        });
        found.push(Directive {
            file: file.id,
            span: comment.span,
            line: (!whole_file).then(|| source.line_index(comment.span.end as usize)),
            rules: listed.into_iter().map(|(name, _)| name).collect(),
            rule_ranges,
        });
    }
    found
}

/// `a, b, c  reason`: ids separated by commas; the first id not followed by a comma ends the
/// list and the rest is the reason. Each id with its byte range in `text`.
fn rule_list(text: &str) -> Vec<(String, Range<usize>)> {
    let mut rules = Vec::new();
    let mut rest = text.trim_start();
    loop {
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end == 0 {
            break;
        }
        let start = text.len() - rest.len();
        rules.push((rest[..end].to_string(), start..start + end));
        let after = rest[end..].trim_start();
        match after.strip_prefix(',') {
            Some(more) => rest = more.trim_start(),
            None => break,
        }
    }
    rules
}

/// Drops the findings that directives silence; with them, the ids of the directives that
/// silenced nothing.
fn apply(
    mut diagnostics: Vec<Diagnostic>,
    directives: &[Directive],
    files: &SourceFiles,
    settings: &RuleSettings,
) -> (Vec<Diagnostic>, Vec<IgnoreProblem>) {
    if directives.is_empty() {
        return (diagnostics, Vec::new());
    }
    // (directive index, rule id as written) pairs that silenced something: the names borrowed
    // from the directives, not copied per silenced finding.
    // foldhash, not the default SipHash: a file may hold a directive on every other line.
    let mut used: foldhash::HashSet<(usize, &str)> = foldhash::HashSet::default();
    let index = DirectiveIndex::new(directives, files);
    // Filtered in place: a file full of findings is not held twice while the kept ones are
    // copied into a second list.
    diagnostics.retain(
        |diagnostic| match silencing(diagnostic, directives, &index, settings) {
            Some(silenced_by) => {
                used.insert(silenced_by);
                false
            }
            None => true,
        },
    );
    let kept = diagnostics;
    let mut problems = Vec::new();
    for (index, directive) in directives.iter().enumerate() {
        let mut unused = Vec::new();
        for (position, name) in directive.rules.iter().enumerate() {
            if used.contains(&(index, name.as_str())) {
                continue;
            }
            let registry = settings.registry();
            let found = registry.find(name);
            // The did-you-mean search reads every id: done once, for the message and the fix.
            let closest = match found {
                None if name != "all" => registry.closest(name),
                _ => None,
            };
            let reason = match (name.as_str(), found) {
                ("all", _) => Some(Unused::Nothing),
                (_, None) => Some(Unused::UnknownId(Registry::unknown_with(name, closest))),
                (_, Some(meta)) if meta.kind == Kind::LoadError => Some(Unused::LoadError),
                // A rule that is off was not checked: its ignore is not known to be unused.
                (_, Some(meta)) if !settings.is_enabled(meta.id) => None,
                (_, Some(_)) => Some(Unused::NothingReported),
            };
            if let Some(reason) = reason {
                // A misspelled id was meant to silence something: the fix is the writer's call.
                let misspelled = closest.is_some();
                unused.push((position, reason, !misspelled));
            }
        }
        let all_unused = unused.len() == directive.rules.len();
        let all_removable = all_unused && unused.iter().all(|(.., removable)| *removable);
        for (position, reason, removable) in unused {
            let fix = match (removable, all_removable) {
                (false, _) => UnusedFix::None,
                (true, true) => UnusedFix::Comment,
                (true, false) => UnusedFix::Id,
            };
            problems.push(IgnoreProblem::Unused {
                directive: directive.clone(),
                position,
                reason,
                fix,
            });
        }
    }
    (kept, problems)
}

/// A source file as findings name it: the address of its shared text.
type FileKey = *const SourceFile;

/// The directives that apply to each line of each file, so that finding the ones that apply to
/// a finding does not look at every directive (many findings under many ignores stay linear).
struct DirectiveIndex {
    /// (file address, line, directive index) for each line directive and each line it applies
    /// to (its own and the next), sorted: a line's directives are found by a binary search, in
    /// directive order. One list, not a map of lists: a file may hold a directive on every
    /// other line, and a list per line was most of the memory the directives took.
    by_line: Vec<(usize, usize, usize)>,
    /// Indices of whole-file directives by file.
    by_file: HashMap<FileKey, Vec<usize>>,
}

impl DirectiveIndex {
    fn new(directives: &[Directive], files: &SourceFiles) -> DirectiveIndex {
        let mut index = DirectiveIndex {
            by_line: Vec::new(),
            by_file: HashMap::new(),
        };
        for (i, directive) in directives.iter().enumerate() {
            let file = Arc::as_ptr(files.get(directive.file));
            match directive.line {
                Some(line) => {
                    for applies_to in [line, line + 1] {
                        index.by_line.push((file.addr(), applies_to, i));
                    }
                }
                None => index.by_file.entry(file).or_default().push(i),
            }
        }
        // Each entry is distinct (one directive, two lines): an unstable sort gives the order.
        index.by_line.sort_unstable();
        index
    }

    /// The first directive, in directive order, that applies to `line` of `file` and for which
    /// `pick` gives something. Each list is in directive order (indices pushed as they come), so
    /// the first of the two lists' first picks is the first overall: no merged list is built
    /// per finding.
    fn first_applying<T>(
        &self,
        file: FileKey,
        line: usize,
        mut pick: impl FnMut(usize) -> Option<T>,
    ) -> Option<T> {
        let at = (file.addr(), line);
        let start = self.by_line.partition_point(|&(f, l, _)| (f, l) < at);
        let on_line = first_picked(
            (self.by_line[start..].iter())
                .take_while(|&&(f, l, _)| (f, l) == at)
                .map(|&(_, _, i)| i),
            &mut pick,
        );
        let in_file = first_picked(
            self.by_file.get(&file).into_iter().flatten().copied(),
            &mut pick,
        );
        match (on_line, in_file) {
            (Some(a), Some(b)) => Some(if a.0 <= b.0 { a.1 } else { b.1 }),
            (a, b) => a.or(b).map(|(_, found)| found),
        }
    }
}

/// The first of `list` (directive indices, in order) for which `pick` gives something, with it.
fn first_picked<T>(
    mut list: impl Iterator<Item = usize>,
    pick: &mut impl FnMut(usize) -> Option<T>,
) -> Option<(usize, T)> {
    list.find_map(|i| pick(i).map(|found| (i, found)))
}

/// The directive (and the name in it) that silences this finding, if any: the first one, in
/// directive order, that applies to its line and names its rule or `all`.
fn silencing<'d>(
    diagnostic: &Diagnostic,
    directives: &'d [Directive],
    index: &DirectiveIndex,
    settings: &RuleSettings,
) -> Option<(usize, &'d str)> {
    let meta = settings.registry().find(diagnostic.rule.as_str())?;
    if !meta.kind.ignorable_inline() {
        return None;
    }
    let primary = diagnostic.primary.as_ref()?;
    let line = primary.file.line_index(primary.range.start);
    index.first_applying(Arc::as_ptr(&primary.file), line, |i| {
        directives[i]
            .rules
            .iter()
            .find(|name| *name == diagnostic.rule.as_str() || *name == "all")
            .map(|name| (i, name.as_str()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_lists_and_reasons() {
        let names = |text: &str| -> Vec<String> {
            rule_list(text).into_iter().map(|(name, _)| name).collect()
        };
        assert_eq!(names(" a, b_c  because reasons"), ["a", "b_c"]);
        assert_eq!(names("all"), ["all"]);
        assert_eq!(names("a b c"), ["a"]);
        assert_eq!(names(""), Vec::<String>::new());
        assert_eq!(names("a,b,"), ["a", "b"]);
        assert_eq!(rule_list(" a, b_c x")[1].1, 4..7);
    }
}
