//! `--add-ignore REASON`: a bulk baseline, as ruff's `--add-noqa`. Above each line where a rule
//! finding starts, a `# tflint-merge-ignore: <ids>  REASON` comment, indented as the line (or
//! the ids added to the ignore comment already there), so that the next run reports nothing
//! the comments silence: running it again adds nothing.
//!
//! Load errors are never silenced, and JSON files have no comments: their findings are left.
//! A comment that would not be one where it goes (the line starts inside a multi-line string or
//! a heredoc, where it would be text) is not written: the file is parsed again with it, and a
//! place where the new comment is not a comment is named in a warning and left alone.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use super::fix::{disk, not_written};
use crate::diagnostic::Diagnostic;
use crate::lint::Kind;
use crate::rules;
use crate::source::{FileId, Syntax, display_path};

/// What an ignore comment starts with (`crate::lint::ignore` reads it).
const IGNORE_MARKER: &str = "tflint-merge-ignore:";

/// What was added, and what could not be.
#[derive(Debug, Default)]
pub(super) struct Added {
    /// Comments written or extended.
    pub(super) comments: usize,
    /// Findings left as they are (load errors, JSON files, places where a comment would be
    /// text), one message per place.
    pub(super) warnings: Vec<String>,
    /// Files that could not be read or written: an I/O error of the run.
    pub(super) failed: Vec<String>,
}

/// A reason is one line of text, and cannot start with a `,` (the ids' separator).
pub(super) fn check_reason(reason: &str) -> Result<&str, String> {
    let reason = reason.trim();
    if reason.contains(['\n', '\r']) || reason.starts_with(',') {
        return Err(format!(
            "--add-ignore `{reason}`: the reason is one line, not starting with `,`"
        ));
    }
    Ok(reason)
}

/// Adds the comments for `findings`, file by file (each read again, of at most `max_bytes`, and
/// replaced only if it is still as read, as `--fix` does).
pub(super) fn add(findings: &[Diagnostic], reason: &str, max_bytes: u64) -> Added {
    let mut added = Added::default();
    // For each file, for each 0-based line, the ids of the findings starting there.
    let mut places: BTreeMap<PathBuf, BTreeMap<usize, BTreeSet<&str>>> = BTreeMap::new();
    for finding in findings {
        let Some(label) = finding.primary.as_ref() else {
            continue;
        };
        let is_rule = rules::registry()
            .find(finding.rule.as_str())
            .is_some_and(|meta| meta.kind == Kind::Rule);
        if !is_rule {
            continue;
        }
        if label.file.file_name().ends_with(".json") {
            added.warnings.push(format!(
                "{}: `{}` left: a JSON file has no comments",
                label.file.display,
                finding.rule.as_str()
            ));
            continue;
        }
        let line = label.file.line_index(label.range.start);
        (places.entry(label.file.path.clone()).or_default())
            .entry(line)
            .or_default()
            .insert(finding.rule.as_str());
    }
    for (path, lines) in places {
        let shown = display_path(&path);
        // A link is left alone: writing through it would change a file elsewhere, and
        // replacing it would turn it into a file (as `--fix`, which writes only links inside
        // the checked paths).
        if std::fs::symlink_metadata(&path).is_ok_and(|meta| meta.file_type().is_symlink()) {
            added
                .warnings
                .push(format!("{shown}: left alone: a symbolic link"));
            continue;
        }
        let (text, identity) = match disk::read(&path, max_bytes) {
            Ok(read) => read,
            Err(failure) => {
                added.failed.push(not_written(&path, failure));
                continue;
            }
        };
        let mut new_text = text.clone();
        // From the last line up, so that the offsets of the lines above stay as read.
        for (line, ids) in lines.iter().rev() {
            let ids: Vec<&str> = ids.iter().copied().collect();
            match with_ignore(&new_text, *line, &ids, reason) {
                Some(next) => {
                    new_text = next;
                    added.comments += 1;
                }
                None => added.warnings.push(format!(
                    "{shown}:{}: `{}` left: a comment there would be part of a string",
                    line + 1,
                    ids.join("`, `")
                )),
            }
        }
        let seen = disk::Version {
            text: text.as_bytes(),
            identity,
        };
        if new_text != text
            && let Err(failure) = disk::replace(&path, new_text.as_bytes(), &seen)
        {
            added.failed.push(not_written(&path, failure));
        }
    }
    added
}

/// `text` with `ids` ignored on its 0-based `line`: added to the ignore comment on the line
/// above when that line is one, else on a new comment line above. `None` when the comment
/// would not be a comment there.
fn with_ignore(text: &str, line: usize, ids: &[&str], reason: &str) -> Option<String> {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(at, _)| at + 1))
        .collect();
    let line_start = *starts.get(line)?;
    let above = line
        .checked_sub(1)
        .map(|above| &text[starts[above]..line_start]);
    // Where the text goes, the text, and a byte of the comment it is in once inserted.
    let (at, insert, probe) = match above.and_then(existing_ignore) {
        Some(after_marker) => {
            let at = starts[line - 1] + after_marker;
            let listed: String = ids.iter().map(|id| format!(" {id},")).collect();
            (at, listed, at)
        }
        None => {
            let rest = &text[line_start..];
            let indent = &rest[..rest.len() - rest.trim_start_matches([' ', '\t']).len()];
            let newline = if rest.split('\n').next()?.ends_with('\r') {
                "\r\n"
            } else {
                "\n"
            };
            let reason = match reason {
                "" => String::new(),
                reason => format!("  {reason}"),
            };
            let comment = format!(
                "{indent}# {IGNORE_MARKER} {}{reason}{newline}",
                ids.join(", ")
            );
            (line_start, comment, line_start + indent.len())
        }
    };
    let mut next = String::with_capacity(text.len() + insert.len());
    next.push_str(&text[..at]);
    next.push_str(&insert);
    next.push_str(&text[at..]);
    // The new text is a comment only where the parser sees one: not inside a string.
    let parsed = crate::syntax::parse(FileId(0), Syntax::Native, &next)
        .file
        .ok()?;
    let comment_at = |offset: usize| {
        (parsed.comments.iter()).any(|c| {
            (c.span.start as usize..=c.span.end as usize).contains(&offset)
                && c.text.contains(IGNORE_MARKER)
        })
    };
    comment_at(probe).then_some(next)
}

/// Where to add ids in `line` when it is a line comment holding only an ignore directive:
/// the byte just after its marker.
fn existing_ignore(line: &str) -> Option<usize> {
    let trimmed = line.trim_start();
    let body = trimmed
        .strip_prefix('#')
        .or_else(|| trimmed.strip_prefix("//"))?;
    let directive = body.trim_start().strip_prefix(IGNORE_MARKER)?;
    Some(line.len() - directive.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_goes_above_indented_or_joins_the_one_there() {
        let text = "resource \"a\" \"b\" {\n  tags = {}\n}\n";
        assert_eq!(
            with_ignore(text, 1, &["x", "y"], "why").as_deref(),
            Some("resource \"a\" \"b\" {\n  # tflint-merge-ignore: x, y  why\n  tags = {}\n}\n")
        );
        let text = "# tflint-merge-ignore: z  old\nvariable \"a\" {}\n";
        assert_eq!(
            with_ignore(text, 1, &["x"], "new").as_deref(),
            Some("# tflint-merge-ignore: x, z  old\nvariable \"a\" {}\n")
        );
        let crlf = "locals {\r\n  a = 1\r\n}\r\n";
        assert_eq!(
            with_ignore(crlf, 1, &["x"], "").as_deref(),
            Some("locals {\r\n  # tflint-merge-ignore: x\r\n  a = 1\r\n}\r\n")
        );
    }

    #[test]
    fn never_inside_a_heredoc_or_a_string() {
        let heredoc = "locals {\n  a = <<EOT\nhello\n${x}\nEOT\n}\n";
        assert_eq!(with_ignore(heredoc, 3, &["x"], "why"), None);
        let indented = "locals {\n  a = <<-EOT\n    hello\n    ${x}\n  EOT\n}\n";
        assert_eq!(with_ignore(indented, 3, &["x"], "why"), None);
        // Inside `${ }` the tools read comments: one there is a comment.
        let interpolation = "locals {\n  a = \"${\n  x\n}\"\n}\n";
        assert!(with_ignore(interpolation, 2, &["x"], "why").is_some());
    }
}
