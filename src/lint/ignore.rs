//! Inline ignores: `# tflint-merge-ignore: rule_a, rule_b  reason` silences those rules for
//! findings that start on the comment's line or the next one; `tflint-merge-ignore-file:`
//! silences them in the whole file (in JSON files: a root `"//"` string). `all` names every
//! rule. An ignore that silences nothing is reported as `unused_ignore`, like ruff's RUF100.
//! Load errors are never silenced: the tools refuse the module whatever a comment says.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use crate::diagnostic::fix::{is_json, json_member_removal, line_removal};
use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::source::{FileId, SourceFile, SourceFiles, Span};
use crate::syntax::File;

use super::registry::UNUSED_IGNORE;
use super::{Kind, RuleSettings};

/// What every ignore comment starts with; text starting so that is no directive is malformed.
const MARKER_WORD: &str = "tflint-merge-ignore";
const LINE_MARKER: &str = "tflint-merge-ignore:";
const FILE_MARKER: &str = "tflint-merge-ignore-file:";

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
/// (no `:`, or no rule id after it) silences nothing: it is reported into `malformed` as
/// `unused_ignore` rather than dropped, so the writer learns the finding it meant to silence
/// is not silenced for the reason they think.
pub(crate) fn directives(
    file: &File,
    files: &SourceFiles,
    settings: &RuleSettings,
    malformed: &mut Vec<Diagnostic>,
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
                let problem = format!("no `:` after `{}`", marker.trim_end_matches(':'));
                malformed.extend(malformed_ignore(files, comment.span, &problem, settings));
            }
            continue;
        };
        let listed = rule_list(rest);
        if listed.is_empty() {
            let problem = "it names no rule before its reason".to_string();
            malformed.extend(malformed_ignore(files, comment.span, &problem, settings));
            continue;
        }
        // Where `rest` starts in the file, if the comment is written as its text reads.
        let rest_offset = source
            .slice(comment.span)
            .find(text)
            .map(|at| comment.span.start as usize + at + (text.len() - rest.len()));
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

/// `malformed ignore comment: ...`, as `unused_ignore` (none when that is off).
fn malformed_ignore(
    files: &SourceFiles,
    comment: Span,
    problem: &str,
    settings: &RuleSettings,
) -> Option<Diagnostic> {
    if !settings.is_enabled(UNUSED_IGNORE.id) {
        return None;
    }
    let note = "A comment that is not a well-formed ignore silences nothing: the findings it \
                was written for are still reported, or were never there.";
    let finding = Diagnostic::new(
        UNUSED_IGNORE.id,
        settings.severity(&UNUSED_IGNORE),
        format!("malformed ignore comment: {problem}"),
    )
    .at(files, comment, "this comment")
    .with_note(note)
    .with_help("write `tflint-merge-ignore: <rule_id>, <rule_id>  <reason>`");
    Some(finding)
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

/// Drops the findings that directives silence and adds `unused_ignore` findings.
pub(crate) fn apply(
    diagnostics: Vec<Diagnostic>,
    directives: &[Directive],
    files: &SourceFiles,
    settings: &RuleSettings,
) -> Vec<Diagnostic> {
    if directives.is_empty() {
        return diagnostics;
    }
    // (directive index, rule id as written) pairs that silenced something.
    let mut used: HashSet<(usize, String)> = HashSet::new();
    let mut kept = Vec::with_capacity(diagnostics.len());
    let index = DirectiveIndex::new(directives, files);
    for diagnostic in diagnostics {
        let silenced_by = silencing(&diagnostic, directives, &index, settings);
        match silenced_by {
            Some((index, name)) => {
                used.insert((index, name));
            }
            None => kept.push(diagnostic),
        }
    }
    if !settings.is_enabled(UNUSED_IGNORE.id) {
        return kept;
    }
    let severity = settings.severity(&UNUSED_IGNORE);
    for (index, directive) in directives.iter().enumerate() {
        let mut unused = Vec::new();
        for (position, name) in directive.rules.iter().enumerate() {
            if used.contains(&(index, name.clone())) {
                continue;
            }
            let problem = match (name.as_str(), settings.find(name)) {
                ("all", _) => Some("this ignore silences nothing".to_string()),
                (_, Err(unknown)) => Some(unknown),
                (_, Ok(meta)) if meta.kind == Kind::LoadError => Some(format!(
                    "`{name}` is a load error: Terraform/OpenTofu refuse the module, so it \
                     cannot be ignored"
                )),
                // A rule that is off was not checked: its ignore is not known to be unused.
                (_, Ok(meta)) if !settings.is_enabled(meta.id) => None,
                (_, Ok(_)) => Some(format!("`{name}` reported nothing here to ignore")),
            };
            if let Some(problem) = problem {
                // A misspelled id was meant to silence something: the fix is the writer's call.
                let misspelled = settings.find(name).is_err() && {
                    let names = settings
                        .registry()
                        .catalogue()
                        .iter()
                        .map(|m| m.id.as_str());
                    super::helpers::closest(name, names).is_some()
                };
                unused.push((position, name, problem, !misspelled));
            }
        }
        let all_unused = unused.len() == directive.rules.len();
        let all_removable = all_unused && unused.iter().all(|(.., removable)| *removable);
        for (position, name, problem, removable) in unused {
            let finding = unused_ignore(files, directive.span, name, &problem);
            let fix = match (removable, all_removable) {
                (false, _) => None,
                (true, true) => Some(comment_removal(files, directive.span)),
                (true, false) => id_removal(files, directive, position, name),
            };
            kept.push(
                Diagnostic {
                    severity,
                    ..finding
                }
                .with_fix(fix),
            );
        }
    }
    kept
}

/// The fix that removes a whole ignore comment: its line when it is alone on it; in JSON, the
/// `"//"` property.
fn comment_removal(files: &SourceFiles, comment: Span) -> Fix {
    let file = files.get(comment.file);
    let text = &file.text;
    let range = if is_json(&file.path) {
        let key_end = text[..comment.start as usize]
            .trim_end()
            .trim_end_matches(':')
            .trim_end();
        let key_start = key_end
            .strip_suffix("\"//\"")
            .map_or(key_end.len(), str::len);
        json_member_removal(text, key_start..comment.end as usize)
    } else {
        line_removal(text, comment.range())
    };
    Fix::new("Remove the unused ignore comment", Applicability::Safe).edit(&file.path, range, "")
}

/// The fix that removes the id at `position` from a comment that keeps other ids: with the
/// comma after it, or, for the last id, the comma before it.
fn id_removal(
    files: &SourceFiles,
    directive: &Directive,
    position: usize,
    name: &str,
) -> Option<Fix> {
    let ranges = directive.rule_ranges.as_ref()?;
    let range = match (
        ranges.get(position.wrapping_sub(1)),
        ranges.get(position),
        ranges.get(position + 1),
    ) {
        (_, Some(this), Some(next)) => this.start..next.start,
        (Some(previous), Some(this), None) => previous.end..this.end,
        _ => return None,
    };
    let file = files.get(directive.file);
    let title = format!("Remove `{name}` from the ignore comment");
    Some(Fix::new(title, Applicability::Safe).edit(&file.path, range, ""))
}

/// `unused ignore: ...` on an ignore comment, about one of the ids it names.
fn unused_ignore(files: &SourceFiles, comment: Span, name: &str, problem: &str) -> Diagnostic {
    let note = "An ignore that silences nothing hides nothing today, but it will silently hide \
                a real finding tomorrow.";
    Diagnostic::new(
        UNUSED_IGNORE.id,
        UNUSED_IGNORE.severity,
        format!("unused ignore: {problem}"),
    )
    .at(files, comment, "this ignore comment")
    .with_note(note)
    .with_help(format!(
        "remove `{name}` from the comment (or the whole comment)"
    ))
}

/// A source file as findings name it: the address of its shared text.
type FileKey = *const SourceFile;

/// The directives that apply to each line of each file, so that finding the ones that apply to
/// a finding does not look at every directive (40k findings under 40k ignores stay linear).
struct DirectiveIndex {
    /// Indices of line directives by (file, line they apply to): their own line and the next.
    by_line: HashMap<(FileKey, usize), Vec<usize>>,
    /// Indices of whole-file directives by file.
    by_file: HashMap<FileKey, Vec<usize>>,
}

impl DirectiveIndex {
    fn new(directives: &[Directive], files: &SourceFiles) -> DirectiveIndex {
        let mut index = DirectiveIndex {
            by_line: HashMap::new(),
            by_file: HashMap::new(),
        };
        for (i, directive) in directives.iter().enumerate() {
            let file = Arc::as_ptr(files.get(directive.file));
            match directive.line {
                Some(line) => {
                    for applies_to in [line, line + 1] {
                        index.by_line.entry((file, applies_to)).or_default().push(i);
                    }
                }
                None => index.by_file.entry(file).or_default().push(i),
            }
        }
        index
    }

    /// The indices of the directives that apply to `line` of `file`, in directive order.
    fn applying(&self, file: FileKey, line: usize) -> Vec<usize> {
        let mut found: Vec<usize> = [self.by_line.get(&(file, line)), self.by_file.get(&file)]
            .into_iter()
            .flatten()
            .flatten()
            .copied()
            .collect();
        found.sort_unstable();
        found
    }
}

/// The directive (and the name in it) that silences this finding, if any: the first one, in
/// directive order, that applies to its line and names its rule or `all`.
fn silencing(
    diagnostic: &Diagnostic,
    directives: &[Directive],
    index: &DirectiveIndex,
    settings: &RuleSettings,
) -> Option<(usize, String)> {
    let meta = settings.registry().find(diagnostic.rule.as_str())?;
    if meta.kind != Kind::Rule {
        return None;
    }
    let primary = diagnostic.primary.as_ref()?;
    let line = primary.file.line_index(primary.range.start);
    index
        .applying(Arc::as_ptr(&primary.file), line)
        .into_iter()
        .find_map(|i| {
            directives[i]
                .rules
                .iter()
                .find(|name| *name == diagnostic.rule.as_str() || *name == "all")
                .map(|name| (i, name.clone()))
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
