//! Findings as LSP diagnostics, grouped by the file they are published on.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Range, Url,
};

use crate::diagnostic::escape;
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::lint::directory::ViewSelection;

use super::position::{Encoding, LineIndex};

/// What every diagnostic says it comes from.
pub(crate) const SOURCE: &str = "tflint-merge";

/// The diagnostics of each file, by absolute path.
pub(crate) type ByFile = BTreeMap<PathBuf, Vec<lsp_types::Diagnostic>>;

/// Groups `findings` by the file of their primary label. A finding about a whole file is put at
/// its start; one about a directory (a crash, an unreadable directory) on `fallback`, the file
/// whose change caused the check.
pub(crate) fn by_file(
    findings: &[Diagnostic],
    selection: ViewSelection,
    encoding: Encoding,
    fallback: &Path,
) -> ByFile {
    let mut out = ByFile::new();
    for finding in findings {
        let (path, range) = match &finding.primary {
            Some(label) => (label.file.path.clone(), range(label, encoding)),
            None => {
                let path = PathBuf::from(&*finding.path);
                let path = if path.is_dir() {
                    fallback.to_path_buf()
                } else {
                    path
                };
                (path, Range::default())
            }
        };
        let diagnostic = to_lsp(finding, range, selection, encoding);
        out.entry(path).or_default().push(diagnostic);
    }
    out
}

fn range(label: &Label, encoding: Encoding) -> Range {
    LineIndex::new(&label.file, encoding).range(label.range.clone())
}

fn to_lsp(
    finding: &Diagnostic,
    range: Range,
    selection: ViewSelection,
    encoding: Encoding,
) -> lsp_types::Diagnostic {
    let related: Vec<DiagnosticRelatedInformation> = finding
        .secondary
        .iter()
        .filter_map(|label| {
            let uri = Url::from_file_path(&label.file.path).ok()?;
            Some(DiagnosticRelatedInformation {
                location: Location::new(uri, self::range(label, encoding)),
                message: escape::line_start(&label.message).into_owned(),
            })
        })
        .collect();
    lsp_types::Diagnostic {
        range,
        severity: Some(match finding.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Notice => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(finding.rule.as_str().to_string())),
        code_description: Url::parse(&finding.doc_link())
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some(SOURCE.to_string()),
        message: message(finding, selection),
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

/// The summary, the view when only one of the views checked has the finding, then what the
/// command line prints below it: the primary label, the notes and the help. Each part is
/// escaped as the command line escapes it: the newlines between them are the only ones, and no
/// line starts as a workflow command.
fn message(finding: &Diagnostic, selection: ViewSelection) -> String {
    let mut out = escape::line_start(&finding.message).into_owned();
    let views = finding.views;
    if selection == ViewSelection::Both
        && views.terraform != views.opentofu
        && let Some(only) = views.describe()
    {
        out.push_str(&format!(" ({only})"));
    }
    if let Some(label) = finding.primary.as_ref().filter(|l| !l.message.is_empty()) {
        out.push_str(&format!("\n{}", escape::line_start(&label.message)));
    }
    for note in &finding.notes {
        out.push_str(&format!("\nnote: {}", escape::text(note)));
    }
    if let Some(help) = &finding.help {
        out.push_str(&format!("\nhelp: {}", escape::text(help)));
    }
    out
}

#[cfg(test)]
mod tests {
    use lsp_types::Position;

    use super::*;
    use crate::diagnostic::{TEST_ID, Views};
    use crate::source::{SourceFile, SourceFiles, Span};

    #[test]
    fn a_finding_becomes_a_located_diagnostic() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut files = SourceFiles::default();
        let base = files.add(SourceFile::new(
            dir.path().join("main.tf"),
            "variable \"ü\" {}\n".to_string(),
        ));
        let over = files.add(SourceFile::new(
            dir.path().join("override.tf"),
            "# é\nvariable \"ü\" {}\n".to_string(),
        ));
        let duplicate = crate::rules::registry().find("duplicate_definition");
        let finding = Diagnostic::error(duplicate.expect("an id").id, "Duplicate variable")
            .at(&files, Span::new(over, 5..21), "defined again here")
            .with_label(&files, Span::new(base, 0..16), "first defined here")
            .with_note("why")
            .in_views(Views::OPENTOFU);
        let published = by_file(&[finding], ViewSelection::Both, Encoding::Utf16, dir.path());
        let diagnostics = &published[&dir.path().join("override.tf")];
        let [d] = diagnostics.as_slice() else {
            panic!("one diagnostic: {diagnostics:?}")
        };
        assert_eq!(
            d.range,
            Range::new(Position::new(1, 0), Position::new(1, 15))
        );
        assert_eq!(
            d.message,
            "Duplicate variable (OpenTofu only)\ndefined again here\nnote: why"
        );
        assert_eq!(
            d.code,
            Some(NumberOrString::String("duplicate_definition".into()))
        );
        assert_eq!(d.source.as_deref(), Some(SOURCE));
        let link = d
            .code_description
            .as_ref()
            .expect("a doc link")
            .href
            .as_str();
        assert!(link.ends_with("/rules/duplicate_definition.md"), "{link}");
        let related = d.related_information.as_ref().expect("related information");
        assert_eq!(related[0].message, "first defined here");
        assert!(related[0].location.uri.path().ends_with("/main.tf"));
        assert_eq!(related[0].location.range.end, Position::new(0, 15));
        // One view checked: the view is no news.
        let single = by_file(
            &[Diagnostic::error(crate::rules::IO_ERROR.id(), "x")
                .at_path(dir.path().display().to_string())],
            ViewSelection::Terraform,
            Encoding::Utf16,
            &dir.path().join("main.tf"),
        );
        assert!(single.contains_key(&dir.path().join("main.tf")));
    }

    /// Every published message and related message of `published`, checked as the command
    /// line's outputs are.
    fn check_published(what: &str, published: &ByFile) {
        use crate::report::hostile::{Printed, check};
        for (path, diagnostics) in published {
            for d in diagnostics {
                let what = format!("{what} {}", path.display());
                check(&what, d.message.as_bytes(), Printed::Text);
                for related in d.related_information.iter().flatten() {
                    check(&what, related.message.as_bytes(), Printed::Text);
                }
            }
        }
    }

    /// The cases of a hostile pull request, as an editor would get them: a backend label
    /// holding a newline and a workflow command, ESC, OSC and BEL in a file name and in a
    /// string, a NUL-separated line.
    #[test]
    fn published_messages_print_nothing_hostile() {
        let files: [(&str, &[u8]); 4] = [
            (
                "main.tf",
                b"terraform {\n  backend \"x\\n::error file=README.md,line=1::INJECTED\" {}\n}\n",
            ),
            (
                "a\x1b]0;pwned\x07_override.tf",
                b"variable \"v\x1b]8;;http://evil\x07\" {}\n",
            ),
            ("b.tf", b"locals {\n  a = \"\x1b]0;pwned\x07\" b\n}\n"),
            ("env.tf", b"A=1\0SECRET=x\0"),
        ];
        // Each in a directory of its own: a file that does not parse stops the rules.
        let mut published = ByFile::new();
        for (name, content) in files {
            let dir = tempfile::tempdir().expect("tempdir");
            std::fs::write(dir.path().join(name), content).expect("write");
            let report = crate::rules::check_with_defaults(dir.path());
            let fallback = dir.path().join(name);
            let selection = ViewSelection::Both;
            published.extend(by_file(
                &report.diagnostics,
                selection,
                Encoding::Utf16,
                &fallback,
            ));
        }
        let messages: Vec<&str> = (published.values().flatten())
            .map(|d| &*d.message)
            .collect();
        let all = messages.join("\n");
        for expected in [
            "no backend is called `x\\n::error file=README.md,line=1::INJECTED`",
            "v\\x1b]8;;http://evil\\x07",
            "Missing newline after argument",
        ] {
            assert!(all.contains(expected), "no {expected:?} in {messages:#?}");
        }
        check_published("hostile files", &published);
    }

    /// Findings whose every field is hostile text: the published messages escape it as the
    /// command line does.
    #[test]
    fn published_messages_escape_any_hostile_text() {
        use crate::report::hostile::{Rng, text};
        let dir = tempfile::tempdir().expect("tempdir");
        let mut rng = Rng::new(3939);
        for case in 0..1000 {
            let mut files = SourceFiles::default();
            let content = text(&mut rng, 20);
            let a = files.add(SourceFile::new(dir.path().join("a.tf"), content.clone()));
            let b = files.add(SourceFile::new(dir.path().join("b.tf"), content));
            let finding = Diagnostic::error(TEST_ID, text(&mut rng, 6))
                .at(&files, Span::new(a, 0..0), text(&mut rng, 4))
                .with_label(&files, Span::new(b, 0..0), text(&mut rng, 4))
                .with_note(text(&mut rng, 4))
                .with_help(text(&mut rng, 4))
                .in_views(Views::OPENTOFU);
            let published = by_file(&[finding], ViewSelection::Both, Encoding::Utf16, dir.path());
            check_published(&format!("case {case}"), &published);
        }
    }
}
