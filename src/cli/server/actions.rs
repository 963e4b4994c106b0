//! Code actions. Every action is first a [`Proposal`], plain data (a title and byte-range
//! edits of source files), from one of the sources [`proposals`] lists; one function turns a
//! proposal into an LSP code action. The sources: the finding's own fix (what `--fix` or
//! `--unsafe-fixes` would do; a safe fix is the preferred action), and "ignore this finding".

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use lsp_types::{CodeAction, CodeActionKind, TextEdit, Url, WorkspaceEdit};

use crate::diagnostic::Diagnostic;
use crate::diagnostic::fix::{Applicability, Fix};
use crate::rules;
use crate::source::{SourceFile, SourceFiles};

use super::position::{Encoding, LineIndex};

/// Replace `range` (bytes of the text as checked) of `file` with `text`.
#[derive(Debug, Clone)]
pub(crate) struct FileEdit {
    pub(crate) file: Arc<SourceFile>,
    pub(crate) range: Range<usize>,
    pub(crate) text: String,
}

/// An action on one finding, as plain data.
#[derive(Debug, Clone)]
pub(crate) struct Proposal {
    pub(crate) title: String,
    pub(crate) edits: Vec<FileEdit>,
    /// The action the editor applies first (`isPreferred`): a safe fix; never an ignore.
    pub(crate) preferred: bool,
}

/// Every action offered for `finding`, from each source in turn; `files` are the files of the
/// check that found it, which its fix's edits are of.
pub(crate) fn proposals(finding: &Diagnostic, files: &SourceFiles) -> Vec<Proposal> {
    let fix = finding.fix.as_ref().and_then(|fix| apply_fix(fix, files));
    fix.into_iter().chain(ignore_finding(finding)).collect()
}

/// The finding's fix as a proposal, when it only edits files the check read. A fix that
/// renames, creates or deletes a file (`override_lookalike_filename`,
/// `language_block_in_tf_file`) is left to `--fix`: editors differ in whether they apply file
/// operations, and a half-applied one would leave the module broken.
fn apply_fix(fix: &Fix, files: &SourceFiles) -> Option<Proposal> {
    if !fix.operations.is_empty() {
        return None;
    }
    let edits = (fix.edits.iter())
        .map(|edit| {
            let (_, file) = files.iter().find(|(_, file)| file.path == edit.path)?;
            Some(FileEdit {
                file: Arc::clone(file),
                range: edit.range.clone(),
                text: edit.replacement.clone(),
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let (title, preferred) = match fix.applicability {
        Applicability::Safe => (fix.title.clone(), true),
        Applicability::Unsafe => (
            format!("{} (unsafe: changes what the tools run)", fix.title),
            false,
        ),
    };
    Some(Proposal {
        title,
        edits,
        preferred,
    })
}

/// The proposal as an LSP quick fix for `diagnostic` (the finding as published).
pub(crate) fn code_action(
    proposal: Proposal,
    diagnostic: lsp_types::Diagnostic,
    encoding: Encoding,
) -> Option<CodeAction> {
    let mut changes: HashMap<Url, Vec<TextEdit>> = HashMap::new();
    for edit in &proposal.edits {
        let uri = Url::from_file_path(&edit.file.path).ok()?;
        let range = LineIndex::new(&edit.file, encoding).range(edit.range.clone());
        changes
            .entry(uri)
            .or_default()
            .push(TextEdit::new(range, edit.text.clone()));
    }
    Some(CodeAction {
        title: proposal.title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostic]),
        edit: Some(WorkspaceEdit::new(changes)),
        is_preferred: Some(proposal.preferred),
        ..CodeAction::default()
    })
}

/// What an ignore comment starts with (`src/lint/ignore.rs` reads it).
const IGNORE_MARKER: &str = "tflint-merge-ignore:";

/// "Ignore this finding": a `# tflint-merge-ignore: <id>` line above the line the finding starts
/// on, indented as that line, or the id added to the ignore comment already there. Only the
/// findings of rules and of what `validate` refuses can be ignored (never load errors), and only
/// in native syntax, which has comments.
fn ignore_finding(finding: &Diagnostic) -> Option<Proposal> {
    let meta = rules::registry().find(finding.rule.as_str())?;
    let label = finding.primary.as_ref()?;
    let file = &label.file;
    if !meta.kind.ignorable_inline() || file.file_name().ends_with(".json") {
        return None;
    }
    let id = finding.rule.as_str();
    let starts = file.line_starts();
    let line = file.line_index(label.range.start);
    let line_start = starts[line] as usize;
    let previous = line
        .checked_sub(1)
        .map(|above| &file.text[starts[above] as usize..line_start]);
    let edit = match previous.and_then(|text| existing_ignore(text, id)) {
        Some(at) => {
            let at = starts[line - 1] as usize + at;
            FileEdit {
                file: Arc::clone(file),
                range: at..at,
                text: format!(" {id},"),
            }
        }
        None => {
            let text = &file.text[line_start..];
            let indent = &text[..text.len() - text.trim_start_matches([' ', '\t']).len()];
            FileEdit {
                file: Arc::clone(file),
                range: line_start..line_start,
                text: format!("{indent}# {IGNORE_MARKER} {id}\n"),
            }
        }
    };
    Some(Proposal {
        title: format!("Ignore `{id}` here (add a tflint-merge-ignore comment)"),
        edits: vec![edit],
        preferred: false,
    })
}

/// Where to add an id in `line` when it is a line comment holding only an ignore directive:
/// the byte just after its marker. `None` when the line is something else, or already names
/// `id` (adding it again would change nothing).
fn existing_ignore(line: &str, id: &str) -> Option<usize> {
    let trimmed = line.trim_start();
    let body = trimmed
        .strip_prefix('#')
        .or_else(|| trimmed.strip_prefix("//"))?;
    let directive = body.trim_start().strip_prefix(IGNORE_MARKER)?;
    let named = directive
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|word| word == id);
    if named {
        return None;
    }
    Some(line.len() - directive.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;
    use std::path::Path;

    fn apply(file: &SourceFile, edits: &[FileEdit]) -> String {
        let mut text = file.text.clone();
        for edit in edits.iter().rev() {
            text.replace_range(edit.range.clone(), &edit.text);
        }
        text
    }

    fn finding_at(text: &str, needle: &str, id: &str) -> (Arc<SourceFile>, Diagnostic) {
        let mut files = SourceFiles::default();
        let file = files.add(SourceFile::new("/m/override.tf".into(), text.to_string()));
        let start = text.find(needle).expect("the needle");
        let meta = rules::registry().find(id).expect("a known id");
        let finding = Diagnostic::new(meta.id, meta.severity, "m").at(
            &files,
            Span::new(file, start..start + needle.len()),
            "here",
        );
        (Arc::clone(files.get(file)), finding)
    }

    #[test]
    fn ignore_inserts_a_comment_above_with_the_indentation() {
        let text = "resource \"a\" \"b\" {\n  tags = {}\n}\n";
        let (file, finding) = finding_at(text, "tags", "override_noop");
        let [proposal] = proposals(&finding, &SourceFiles::default())
            .try_into()
            .expect("one proposal");
        assert!(!proposal.preferred);
        assert_eq!(
            apply(&file, &proposal.edits),
            "resource \"a\" \"b\" {\n  # tflint-merge-ignore: override_noop\n  tags = {}\n}\n"
        );
    }

    #[test]
    fn ignore_extends_the_comment_already_there() {
        let text = "# tflint-merge-ignore: override_noop  why\nvariable \"a\" {}\n";
        let (file, finding) = finding_at(text, "variable", "override_shadowed");
        let [proposal] = proposals(&finding, &SourceFiles::default())
            .try_into()
            .expect("one proposal");
        assert_eq!(
            apply(&file, &proposal.edits),
            "# tflint-merge-ignore: override_shadowed, override_noop  why\nvariable \"a\" {}\n"
        );
        // Already named there: a new comment, as the one above does not silence it.
        let (file, finding) = finding_at(text, "variable", "override_noop");
        let [proposal] = proposals(&finding, &SourceFiles::default())
            .try_into()
            .expect("one proposal");
        assert!(apply(&file, &proposal.edits).starts_with(
            "# tflint-merge-ignore: override_noop  why\n# tflint-merge-ignore: override_noop\n"
        ));
    }

    #[test]
    fn fixes_are_offered_when_they_only_edit_checked_files() {
        let text = "variable \"a\" {\n  default = 1\n}\n";
        let mut files = SourceFiles::default();
        let id = files.add(SourceFile::new("/m/override.tf".into(), text.to_string()));
        let (file, mut finding) = finding_at(text, "default", "override_noop");
        let path = file.path.clone();
        finding = finding.with_fix(Fix::new("Remove `default`", Applicability::Unsafe).edit(
            &path,
            15..29,
            "",
        ));
        let [fix, ignore] = proposals(&finding, &files)
            .try_into()
            .expect("two proposals");
        assert_eq!(
            fix.title,
            "Remove `default` (unsafe: changes what the tools run)"
        );
        assert!(!fix.preferred && !ignore.preferred);
        assert_eq!(apply(files.get(id), &fix.edits), "variable \"a\" {\n}\n");
        // A fix that renames a file is left to `--fix`.
        finding.fix = finding.fix.map(|f| {
            Box::new(
                f.operation(crate::diagnostic::fix::FileOperation::Delete { path: path.clone() }),
            )
        });
        assert_eq!(proposals(&finding, &files).len(), 1, "the ignore only");
        // An edit of a file the check did not read cannot be placed.
        finding =
            finding.with_fix(Fix::new("x", Applicability::Safe).edit(Path::new("/x.tf"), 0..0, ""));
        assert_eq!(proposals(&finding, &files).len(), 1, "the ignore only");
    }

    #[test]
    fn load_errors_and_json_files_cannot_be_ignored() {
        let (_, finding) = finding_at("variable \"a\" {}\n", "variable", "duplicate_definition");
        assert!(proposals(&finding, &SourceFiles::default()).is_empty());
        let mut files = SourceFiles::default();
        let json = files.add(SourceFile::new("/m/a.tf.json".into(), "{}".to_string()));
        let meta = rules::registry().find("override_noop").expect("a rule");
        let finding =
            Diagnostic::new(meta.id, meta.severity, "m").at(&files, Span::new(json, 0..2), "here");
        assert!(proposals(&finding, &SourceFiles::default()).is_empty());
    }
}
