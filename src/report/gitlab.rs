//! `--format gitlab`: GitLab Code Quality JSON (an array of issues with fingerprints).

use serde_json::{Value, json};

use super::location::{Range, file_of};
use crate::diagnostic::{Diagnostic, Severity};

/// One finding as a Code Quality issue, with its fingerprint among the report's
/// (`fingerprint::fingerprints`); the report is the array of them.
pub(crate) fn issue(d: &Diagnostic, fingerprint: &str) -> Value {
    let (begin, end) = d.primary.as_ref().map_or((1, 1), |l| {
        let r = Range::of(l);
        (r.start_line, r.end_line)
    });
    json!({
        "type": "issue",
        "description": format!("[{}] {}", d.rule, d.message),
        "check_name": d.rule,
        "fingerprint": fingerprint,
        "severity": match d.severity {
            Severity::Error => "major",
            Severity::Warning => "minor",
            Severity::Notice => "info",
        },
        "location": { "path": file_of(d), "lines": { "begin": begin, "end": end } },
    })
}
