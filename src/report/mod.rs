//! The last stage: renders findings in every output format (all read the same [`Diagnostic`]
//! data), and the Terragrunt graph of `tflint-merge graph` ([`graph`]).

mod fingerprint;
mod github;
mod gitlab;
pub(crate) mod graph;
#[cfg(test)]
pub(crate) mod hostile;
mod human;
mod json;
mod location;
mod sarif;
mod short;
mod window;
mod xml;

use std::io::{self, Write};

use crate::diagnostic::escape;
use crate::diagnostic::{Diagnostic, Finding, FindingId, Severity, Tally, Views};
use crate::lint::RuleMeta;

/// Output formats of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// Annotated snippets, like rustc.
    Human,
    /// One line per finding: `path:line:col: severity[rule]: message`.
    Short,
    /// JSON, schema version 1 (see README).
    Json,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
    /// Checkstyle XML.
    Checkstyle,
    /// JUnit XML.
    Junit,
    /// GitLab Code Quality JSON.
    Gitlab,
}

/// What the run covered, for the closing summary line.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Totals {
    pub(crate) directories: usize,
    pub(crate) files: usize,
    pub(crate) bytes: u64,
    /// The views checked: human and short output name a finding's view only when it is one of
    /// two checked.
    pub(crate) views: Views,
    /// Whether unsafe fixes are applied (`--unsafe-fixes`): findings marked fixable and the
    /// summary's counts follow it.
    pub(crate) unsafe_fixes: bool,
}

/// Renders all diagnostics (already in output order) and a summary to `out`.
pub(crate) fn render(
    out: &mut dyn Write,
    format: Format,
    color: bool,
    diagnostics: &[Diagnostic],
    totals: Totals,
    catalogue: &[&RuleMeta],
) -> io::Result<()> {
    match format {
        Format::Human => {
            render_human_findings(out, color, diagnostics, totals.views, totals.unsafe_fixes)?;
            writeln!(out, "{}", summary(diagnostics, totals))
        }
        Format::Short => {
            for diagnostic in diagnostics {
                let line = short::render(diagnostic, totals.views, totals.unsafe_fixes);
                writeln!(out, "{line}")?;
            }
            Ok(())
        }
        Format::Json => json::render(out, diagnostics, totals),
        Format::Sarif => sarif::render(out, diagnostics, catalogue),
        Format::Github => github::render(out, diagnostics, &summary(diagnostics, totals)),
        Format::Checkstyle => xml::checkstyle(out, diagnostics),
        Format::Junit => xml::junit(out, diagnostics),
        Format::Gitlab => {
            let fingerprints = fingerprint::fingerprints(diagnostics);
            let issues = (diagnostics.iter().zip(&fingerprints)).map(|(d, f)| gitlab::issue(d, f));
            write_pretty_array(out, 0, issues)?;
            writeln!(out)
        }
    }
}

/// The formats a run can render each finding of as soon as it is found (the finding alone, the
/// views checked and `--unsafe-fixes` decide its bytes), keeping the bytes rather than the
/// [`Diagnostic`]: the command line's human and short output, and `--statistics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rendering {
    Human {
        color: bool,
    },
    Short,
    /// Nothing of each finding is printed (`--statistics`): its id and severity are kept.
    Nothing,
}

/// How a run renders its findings early: the format, and what [`Totals`] says of the run that
/// is known before it (the views checked, `--unsafe-fixes`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RenderStyle {
    pub(crate) format: Rendering,
    pub(crate) views: Views,
    pub(crate) unsafe_fixes: bool,
}

impl Rendering {
    /// The format's rendering finding by finding, `None` for one that needs all findings at
    /// once.
    pub(crate) fn of(format: Format, color: bool) -> Option<Rendering> {
        match format {
            Format::Human => Some(Rendering::Human { color }),
            Format::Short => Some(Rendering::Short),
            _ => None,
        }
    }
}

impl RenderStyle {
    pub(crate) fn render(&self, diagnostic: &Diagnostic) -> Rendered {
        let (views, unsafe_fixes) = (self.views, self.unsafe_fixes);
        let bytes = match self.format {
            Rendering::Human { color } => human::render(diagnostic, color, views, unsafe_fixes),
            Rendering::Short => {
                let mut line = short::render(diagnostic, views, unsafe_fixes);
                line.push('\n');
                line.into_bytes()
            }
            Rendering::Nothing => Vec::new(),
        };
        let (path, offset, _, message) = diagnostic.sort_key();
        Rendered {
            bytes: bytes.into_boxed_slice(),
            key: [path, message].concat().into_boxed_str(),
            path_len: path.len(),
            offset,
            rule: diagnostic.rule,
            severity: diagnostic.severity,
            fixable: [diagnostic.fixable(false), diagnostic.fixable(true)],
            omitted: diagnostic.omitted.clone(),
        }
    }
}

/// A finding as the run's [`RenderStyle`] prints it, and what ordering, counting and the exit
/// status need of it: in the short format, a sixth of a [`Diagnostic`] with its excerpts.
#[derive(Debug)]
pub(crate) struct Rendered {
    bytes: Box<[u8]>,
    /// The path, then the message (for the sort key), in one allocation.
    key: Box<str>,
    path_len: usize,
    /// Of the primary label.
    offset: usize,
    rule: FindingId,
    severity: Severity,
    /// Without and with `--unsafe-fixes`.
    fixable: [bool; 2],
    /// Of the finding that stands for those of its rule and file not shown.
    omitted: Option<Box<Tally>>,
}

impl Finding for Rendered {
    fn sort_key(&self) -> (&str, usize, &'static str, &str) {
        let (path, message) = self.key.split_at(self.path_len);
        (path, self.offset, self.rule.as_str(), message)
    }

    fn rule(&self) -> FindingId {
        self.rule
    }

    fn severity(&self) -> Severity {
        self.severity
    }

    fn tally(&self) -> Tally {
        match &self.omitted {
            Some(omitted) => **omitted,
            None => Tally::one(self.severity, self.fixable),
        }
    }
}

/// Writes findings rendered early (already in output order), then for the human format the
/// summary line, unless `quiet`: the same bytes as [`render`] (and `--quiet`'s
/// [`render_human_findings`]) of their diagnostics.
pub(crate) fn write_rendered(
    out: &mut dyn Write,
    style: &RenderStyle,
    findings: &[Rendered],
    totals: Totals,
    quiet: bool,
) -> io::Result<()> {
    for finding in findings {
        out.write_all(&finding.bytes)?;
    }
    match style.format {
        Rendering::Human { .. } if !quiet => writeln!(out, "{}", summary(findings, totals)),
        _ => Ok(()),
    }
}

/// Writes `document` as `serde_json::to_string_pretty` lays it out, then a newline, with
/// `items` as the elements of its first array member named `key` (empty in `document`): each
/// item is made, written and dropped in turn, so that a report never holds every finding as a
/// JSON value (kilobytes each) nor the whole text. What `serde_json` leaves raw of the
/// characters a run never prints is escaped too ([`escape::json`]).
fn write_pretty_json(
    out: &mut dyn Write,
    document: &serde_json::Value,
    key: &str,
    items: impl Iterator<Item = serde_json::Value>,
) -> io::Result<()> {
    let text = serde_json::to_string_pretty(document).unwrap_or_default();
    let text = escape::json(&text);
    // Its own line: a string holds no raw newline, so this is the member, not a string.
    let member = format!("\"{key}\": []");
    let line = (text.match_indices('\n'))
        .map(|(i, _)| i + 1)
        .find(|&start| text[start..].trim_start_matches(' ').starts_with(&member));
    let Some(line) = line else {
        let message = format!("no `{key}` array to write the findings into");
        return Err(io::Error::other(message));
    };
    let outer = text[line..].len() - text[line..].trim_start_matches(' ').len();
    let (head, tail) = text.split_at(line + outer + member.len() - "[]".len());
    out.write_all(head.as_bytes())?;
    write_pretty_array(out, outer, items)?;
    writeln!(out, "{}", &tail["[]".len()..])
}

/// Writes `items` as `serde_json::to_string_pretty` lays out an array on a line indented by
/// `outer` spaces, each item made, written and dropped in turn (and escaped as
/// [`write_pretty_json`] says).
fn write_pretty_array(
    out: &mut dyn Write,
    outer: usize,
    items: impl Iterator<Item = serde_json::Value>,
) -> io::Result<()> {
    let indent = format!("\n{}", " ".repeat(outer + 2));
    let mut separator = "[";
    for item in items {
        let item = serde_json::to_string_pretty(&item).unwrap_or_default();
        let item = escape::json(&item);
        write!(out, "{separator}{indent}{}", item.replace('\n', &indent))?;
        separator = ",";
    }
    match separator {
        "[" => out.write_all(b"[]"),
        _ => write!(out, "{}]", &indent[..indent.len() - 2]),
    }
}

/// `2 errors, 1 warning in 3 directories (7 files)`.
pub(crate) fn summary<F: Finding>(diagnostics: &[F], totals: Totals) -> String {
    let mut all = Tally::default();
    diagnostics.iter().for_each(|d| all.add(&d.tally()));
    let count = |s: Severity| all.of(s).found;
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    let found = if diagnostics.is_empty() {
        "no findings".to_string()
    } else {
        [
            (count(Severity::Error), "error"),
            (count(Severity::Warning), "warning"),
            (count(Severity::Notice), "notice"),
        ]
        .into_iter()
        .filter(|&(n, _)| n > 0)
        .map(|(n, w)| plural(n, w))
        .collect::<Vec<_>>()
        .join(", ")
    };
    format!(
        "{found} in {} ({}){}",
        plural(totals.directories, "directory").replace("directorys", "directories"),
        plural(totals.files, "file"),
        fixable_summary(diagnostics, totals.unsafe_fixes)
    )
}

/// "only in the OpenTofu view" when a finding concerns one view of the two `checked`.
fn view_note(diagnostic: &Diagnostic, checked: Views) -> Option<String> {
    match (diagnostic.views.terraform, diagnostic.views.opentofu) {
        _ if checked != Views::BOTH => None,
        (true, false) => Some("found in the Terraform view only".into()),
        (false, true) => Some("found in the OpenTofu view only".into()),
        _ => None,
    }
}

/// One diagnostic in the human format, without colour (for stderr), of a run of `checked`.
/// The human format's findings, without the closing summary line (`--quiet` uses it alone).
pub(crate) fn render_human_findings(
    out: &mut dyn Write,
    color: bool,
    diagnostics: &[Diagnostic],
    checked: Views,
    unsafe_fixes: bool,
) -> io::Result<()> {
    for diagnostic in diagnostics {
        out.write_all(&human::render(diagnostic, color, checked, unsafe_fixes))?;
    }
    Ok(())
}

pub(crate) fn render_one_human(diagnostic: &Diagnostic, checked: Views) -> Vec<u8> {
    human::render(diagnostic, false, checked, false)
}

/// `[*] ` before the message of a finding that the fixes of this run (`--fix`, with
/// `unsafe_fixes` `--unsafe-fixes` too) can fix, as ruff marks them.
fn fixable_mark(diagnostic: &Diagnostic, unsafe_fixes: bool) -> &'static str {
    if diagnostic.fixable(unsafe_fixes) {
        "[*] "
    } else {
        ""
    }
}

/// `; 3 fixable with `--fix` (1 more with `--unsafe-fixes`)`, or nothing when none is.
fn fixable_summary<F: Finding>(diagnostics: &[F], unsafe_fixes: bool) -> String {
    let mut tally = Tally::default();
    diagnostics.iter().for_each(|d| tally.add(&d.tally()));
    let (safe, all) = (tally.fixable(false), tally.fixable(true));
    match (unsafe_fixes, safe, all) {
        (_, _, 0) => String::new(),
        (true, _, all) => format!("; [*] {all} fixable with `--fix --unsafe-fixes`"),
        (false, 0, all) => format!("; {all} fixable with `--fix --unsafe-fixes`"),
        (false, safe, all) if safe == all => format!("; [*] {safe} fixable with `--fix`"),
        (false, safe, all) => format!(
            "; [*] {safe} fixable with `--fix` ({} more with `--unsafe-fixes`)",
            all - safe
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Findings written one by one into a document's array give the bytes of the whole
    /// document pretty-printed at once: none, one and several, at the top and nested, with a
    /// string before the array that looks like it, and an array alone.
    #[test]
    fn json_written_item_by_item_is_the_pretty_document() {
        use serde_json::json;
        let item =
            |n: usize| json!({ "n": n, "nested": { "list": [n, { "s": "a\nb" }] }, "e": [] });
        for count in [0, 1, 3] {
            let items: Vec<_> = (0..count).map(item).collect();
            let documents = [
                (
                    "findings",
                    json!({ "a": "\"findings\": []", "findings": [], "z": { "k": 1 } }),
                ),
                (
                    "results",
                    json!({ "runs": [{ "a": 1, "results": [], "tool": [] }] }),
                ),
            ];
            for (key, document) in documents {
                let mut whole = document.clone();
                let array = match whole.get_mut("runs") {
                    Some(runs) => &mut runs[0][key],
                    None => &mut whole[key],
                };
                *array = serde_json::Value::Array(items.clone());
                let expected = serde_json::to_string_pretty(&whole).expect("JSON") + "\n";
                let mut written = Vec::new();
                write_pretty_json(&mut written, &document, key, items.clone().into_iter())
                    .expect("write");
                assert_eq!(String::from_utf8_lossy(&written), expected);
            }
            // An array alone (the GitLab format).
            let expected = serde_json::to_string_pretty(&items).expect("JSON");
            let mut written = Vec::new();
            write_pretty_array(&mut written, 0, items.into_iter()).expect("write");
            assert_eq!(String::from_utf8_lossy(&written), expected);
        }
    }
    use crate::diagnostic::{Applicability, Fix, TEST_ID, excerpt_files};
    use crate::source::{SourceFile, SourceFiles, Span};

    /// Every format prints the same bytes from the excerpts a run keeps as from the whole
    /// files: labels one line apart, two apart (the human format shows the line between), far
    /// apart, over several lines, at the end of a file without a final newline, in two files;
    /// and the file a fix changes stays whole.
    #[test]
    fn excerpts_render_as_the_whole_files() {
        let mut files = SourceFiles::default();
        let lines: Vec<String> = (1..=30)
            .map(|n| format!("  line_{n} = \"ç{n}\"\n"))
            .collect();
        let a = files.add(SourceFile::new("dir/a.tf".into(), lines.concat() + "last"));
        let b = files.add(SourceFile::new("dir/b.tf".into(), "b = 1\nc = 2\n".into()));
        let line = |n: usize| {
            let start: usize = lines[..n - 1].iter().map(String::len).sum();
            Span::new(a, start + 2..start + 8)
        };
        let end = files.get(a).text.len();
        let mut diagnostics = vec![
            Diagnostic::error(TEST_ID, "several labels")
                .at(&files, line(3), "primary")
                .with_label(&files, line(4), "next line")
                .with_label(&files, line(6), "two lines on")
                .with_label(&files, line(20), "far")
                .with_label(&files, line(24).to(line(27)), "several lines")
                .with_label(&files, Span::new(a, end..end), "at the end")
                .with_label(&files, Span::new(b, 6..11), "other file"),
            Diagnostic::error(TEST_ID, "fixed")
                .at(&files, Span::new(b, 0..5), "here")
                .with_fix(Fix::new("edit", Applicability::Safe).edit(
                    &files.get(b).path,
                    0..1,
                    "d",
                )),
        ];
        let render_all = |diagnostics: &[Diagnostic]| {
            let catalogue = crate::rules::registry().catalogue();
            let formats = [
                Format::Human,
                Format::Short,
                Format::Json,
                Format::Sarif,
                Format::Github,
                Format::Checkstyle,
                Format::Junit,
                Format::Gitlab,
            ];
            let mut out = Vec::new();
            for format in formats {
                let totals = Totals::default();
                render(&mut out, format, false, diagnostics, totals, catalogue).expect("render");
            }
            String::from_utf8(out).expect("UTF-8")
        };
        let whole = render_all(&diagnostics);
        excerpt_files(&mut diagnostics);
        let primary = |d: &Diagnostic| d.primary.clone().expect("a primary label");
        assert!(primary(&diagnostics[0]).file.whole_text().is_none());
        assert!(primary(&diagnostics[1]).file.whole_text().is_some());
        assert!(primary(&diagnostics[0]).file.text.len() < end / 2);
        assert_eq!(render_all(&diagnostics), whole);
    }
}
