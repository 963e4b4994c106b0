//! `--format json`: schema version 1 (documented in the README).

use serde_json::{Value, json};

use super::Totals;
use super::location::{Range, file_of, relative};
use crate::diagnostic::{Diagnostic, Label, Severity};

fn position(label: &Label) -> (Value, Value) {
    let r = Range::of(label);
    (
        json!({ "line": r.start_line, "column": r.start_column }),
        json!({ "line": r.end_line, "column": r.end_column }),
    )
}

pub(crate) fn render(diagnostics: &[Diagnostic], totals: Totals) -> String {
    let findings: Vec<Value> = diagnostics
        .iter()
        .map(|d| {
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
            })
        })
        .collect();
    let count = |s: Severity| diagnostics.iter().filter(|d| d.severity == s).count();
    let value = json!({
        "version": 1,
        "tool": { "name": "tflint-merge", "version": env!("CARGO_PKG_VERSION") },
        "findings": findings,
        "summary": {
            "directories": totals.directories,
            "files": totals.files,
            "findings": { "error": count(Severity::Error), "warning": count(Severity::Warning), "notice": count(Severity::Notice) },
        },
    });
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}
