//! `--format sarif`: SARIF 2.1.0 as GitHub code scanning ingests it — one run for the whole
//! invocation, every rule in `tool.driver.rules`, repo-relative URIs, partial fingerprints.

use std::io::{self, Write};

use serde_json::{Value, json};

use super::location::{Range, doc_description, edit_position, file_of, fix_path, relative};
use crate::diagnostic::fix::FileOperation;
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::lint::RuleMeta;

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Notice => "note",
    }
}

/// A path as a URI reference (RFC 3986): every byte but unreserved characters and `/`
/// percent-encoded, so `%`, `:`, `,`, spaces and non-ASCII names stay valid and unambiguous
/// (a `:` in a relative reference's first segment would read as a scheme).
fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(char::from(byte))
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// A relative path is relative to `%SRCROOT%` (the repository root for code scanning); a path
/// outside the working directory is an absolute `file://` URI.
fn artifact_location(path: &str) -> Value {
    if path.starts_with('/') {
        json!({ "uri": format!("file://{}", encode_path(path)) })
    } else {
        json!({ "uri": encode_path(path), "uriBaseId": "%SRCROOT%" })
    }
}

fn physical(path: &str, label: Option<&Label>) -> Value {
    let mut location = json!({ "artifactLocation": artifact_location(path) });
    if let Some(label) = label {
        let r = Range::of(label);
        location["region"] = json!({
            "startLine": r.start_line,
            "startColumn": r.start_column,
            "endLine": r.end_line,
            "endColumn": r.end_column,
        });
    }
    location
}

/// A finding's fix as a SARIF `fix`: one `artifactChange` per file, each edit a `replacement`
/// (its `deletedRegion` by line and column where the file is one of the finding's, else by
/// byte offset); a deleted file is the deletion of all its text, a new file an insertion into
/// an empty one. A rename has no SARIF form: a fix with one is left out, and so is the deletion
/// of a file the finding does not name.
fn sarif_fix(d: &Diagnostic) -> Option<Value> {
    let fix = d.fix.as_ref()?;
    let mut changes: Vec<(String, Vec<Value>)> = Vec::new();
    let mut change = |path: &std::path::Path, replacement: Value| {
        let uri = fix_path(path);
        match changes.iter_mut().find(|(u, _)| *u == uri) {
            Some((_, replacements)) => replacements.push(replacement),
            None => changes.push((uri, vec![replacement])),
        }
    };
    for edit in &fix.edits {
        let region = match edit_position(d, edit) {
            Some(((start_line, start_column), (end_line, end_column))) => json!({
                "startLine": start_line, "startColumn": start_column,
                "endLine": end_line, "endColumn": end_column,
            }),
            None => json!({
                "byteOffset": edit.range.start,
                "byteLength": edit.range.len(),
            }),
        };
        let replacement = json!({
            "deletedRegion": region,
            "insertedContent": { "text": edit.replacement },
        });
        change(&edit.path, replacement);
    }
    for operation in &fix.operations {
        match operation {
            FileOperation::Rename { .. } => return None,
            FileOperation::Delete { path } => {
                // The file is one the finding names (it is what the fix deletes).
                let labels = d.primary.iter().chain(&d.secondary);
                let file = labels.map(|l| &l.file).find(|f| f.path == *path)?;
                let length = file.len();
                let whole = json!({ "deletedRegion": { "byteOffset": 0, "byteLength": length } });
                change(path, whole);
            }
            FileOperation::Create { path, content } => {
                let empty = json!({ "byteOffset": 0, "byteLength": 0 });
                let insertion = json!({
                    "deletedRegion": empty,
                    "insertedContent": { "text": content },
                });
                change(path, insertion);
            }
        }
    }
    let artifact_changes: Vec<Value> = (changes.into_iter())
        .map(|(uri, replacements)| {
            json!({
                "artifactLocation": artifact_location(&uri),
                "replacements": replacements,
            })
        })
        .collect();
    Some(json!({
        "description": { "text": format!("{} ({})", fix.title, fix.applicability.as_str()) },
        "artifactChanges": artifact_changes,
    }))
}

pub(crate) fn render(
    out: &mut dyn Write,
    diagnostics: &[Diagnostic],
    catalogue: &[&RuleMeta],
) -> io::Result<()> {
    let rule_entries: Vec<Value> = catalogue
        .iter()
        .map(|meta| {
            json!({
                "id": meta.id,
                "name": meta.id,
                "shortDescription": { "text": meta.summary },
                "fullDescription": { "text": doc_description(meta.doc()) },
                "helpUri": format!("{}/{}.md", crate::diagnostic::RULES_DOC_BASE, meta.id),
                "help": { "text": meta.doc(), "markdown": meta.doc() },
                "defaultConfiguration": { "level": level(meta.severity), "enabled": meta.enabled_by_default },
            })
        })
        .collect();
    let fingerprints = super::fingerprint::fingerprints(diagnostics);
    let results = diagnostics
        .iter()
        .zip(fingerprints)
        .map(|(d, fingerprint)| {
            let message = d.message_with_notes("\n\n", "\n\nHelp: ");
            let mut result = json!({
                "ruleId": d.rule,
                "level": level(d.severity),
                "message": { "text": message },
                "locations": [ { "physicalLocation": physical(&file_of(d), d.primary.as_ref()) } ],
                "partialFingerprints": { "tflintMergeFingerprint/v1": fingerprint },
            });
            if let Some(index) = catalogue.iter().position(|m| m.id == d.rule) {
                result["ruleIndex"] = json!(index);
            }
            if let Some(fix) = sarif_fix(d) {
                result["fixes"] = json!([fix]);
            }
            if !d.secondary.is_empty() {
                result["relatedLocations"] = Value::Array(
                    d.secondary
                        .iter()
                        .enumerate()
                        .map(|(i, l)| {
                            json!({
                                "id": i + 1,
                                "physicalLocation": physical(&relative(&l.file.display), Some(l)),
                                "message": { "text": l.message },
                            })
                        })
                        .collect(),
                );
            }
            result
        });
    let value = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [ {
            "tool": { "driver": {
                "name": "tflint-merge",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": crate::diagnostic::PROJECT_URL,
                "rules": rule_entries,
            } },
            "columnKind": "unicodeCodePoints",
            "results": [],
        } ],
    });
    super::write_pretty_json(out, &value, "results", results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_uri_references() {
        assert_eq!(encode_path("a/b_c-d.tf"), "a/b_c-d.tf");
        assert_eq!(
            encode_path("we,ird:dir%/a b.tf"),
            "we%2Cird%3Adir%25/a%20b.tf"
        );
        assert_eq!(encode_path("é.tf"), "%C3%A9.tf");
        assert_eq!(
            artifact_location("/abs/x y.tf"),
            json!({ "uri": "file:///abs/x%20y.tf" })
        );
    }
}
