//! `--format json`: schema version 1 (documented in the README).

use std::io::{self, Write};

use serde_json::{Value, json};

use super::Totals;
use super::location::{Range, edit_position, file_of, fix_path, relative};
use crate::diagnostic::fix::FileOperation;
use crate::diagnostic::{Applicability, Diagnostic, Label, Severity, Tally};

fn position(label: &Label) -> (Value, Value) {
    let r = Range::of(label);
    (
        json!({ "line": r.start_line, "column": r.start_column }),
        json!({ "line": r.end_line, "column": r.end_column }),
    )
}

/// A finding's fix: its title, whether it is safe, its edits (byte ranges, and line and column
/// where the file is one of the finding's), and its file operations.
fn fix(d: &Diagnostic) -> Value {
    let Some(fix) = &d.fix else {
        return Value::Null;
    };
    let edits: Vec<Value> = (fix.edits.iter())
        .map(|edit| {
            let (start, end) =
                edit_position(d, edit).map_or((Value::Null, Value::Null), |(s, e)| {
                    (
                        json!({ "line": s.0, "column": s.1 }),
                        json!({ "line": e.0, "column": e.1 }),
                    )
                });
            json!({
                "file": fix_path(&edit.path),
                "byte_start": edit.range.start,
                "byte_end": edit.range.end,
                "start": start,
                "end": end,
                "replacement": edit.replacement,
            })
        })
        .collect();
    let operations: Vec<Value> = (fix.operations.iter())
        .map(|operation| match operation {
            FileOperation::Rename { from, to } => {
                json!({ "rename": { "from": fix_path(from), "to": fix_path(to) } })
            }
            FileOperation::Delete { path } => json!({ "delete": { "file": fix_path(path) } }),
            FileOperation::Create { path, content } => {
                json!({ "create": { "file": fix_path(path), "content": content } })
            }
        })
        .collect();
    json!({
        "title": fix.title,
        "applicability": fix.applicability.as_str(),
        "edits": edits,
        "operations": operations,
    })
}

pub(crate) fn render(
    out: &mut dyn Write,
    diagnostics: &[Diagnostic],
    totals: Totals,
) -> io::Result<()> {
    let findings = diagnostics.iter().map(|d| {
            let (start, end) = d.primary.as_ref().map_or((Value::Null, Value::Null), position);
            let views: Vec<&str> = [(d.views.terraform, "terraform"), (d.views.opentofu, "opentofu")]
                .into_iter()
                .filter_map(|(on, name)| on.then_some(name))
                .collect();
            json!({
                "rule": d.rule,
                "severity": d.severity.as_str(),
                "message": d.message,
                "file": file_of(d),
                "start": start,
                "end": end,
                "secondary": d.secondary.iter().map(|l| {
                    let (start, end) = position(l);
                    json!({ "file": relative(&l.file.display), "start": start, "end": end, "message": l.message })
                }).collect::<Vec<_>>(),
                "notes": d.notes,
                "help": d.help,
                "doc": d.doc_link(),
                "views": views,
                "fix": fix(d),
            })
        });
    // Every finding counted, those a finding stands for that are not shown too.
    let mut tally = Tally::default();
    diagnostics.iter().for_each(|d| tally.add(&d.tally()));
    let count = |s: Severity| tally.of(s).found;
    let fixable = |a: Applicability| match a {
        Applicability::Safe => tally.fixable(false),
        Applicability::Unsafe => tally.fixable(true) - tally.fixable(false),
    };
    let value = json!({
        "version": 1,
        "tool": { "name": "tflint-merge", "version": env!("CARGO_PKG_VERSION") },
        "findings": [],
        "summary": {
            "directories": totals.directories,
            "files": totals.files,
            "findings": { "error": count(Severity::Error), "warning": count(Severity::Warning), "notice": count(Severity::Notice) },
            "fixable": { "safe": fixable(Applicability::Safe), "unsafe": fixable(Applicability::Unsafe) },
        },
    });
    super::write_pretty_json(out, &value, "findings", findings)
}
