//! `--format checkstyle` and `--format junit`: XML as CI servers read it.

use std::collections::HashMap;
use std::io::{self, Write};

use super::location::{Range, file_of};
use crate::diagnostic::escape;
use crate::diagnostic::{Diagnostic, Severity};

fn position(d: &Diagnostic) -> (usize, usize) {
    d.primary.as_ref().map_or((0, 0), |l| {
        let r = Range::of(l);
        (r.start_line, r.start_column)
    })
}

/// Checkstyle 4.3: one `<file>` per file, in first-seen order.
pub(crate) fn checkstyle(out: &mut dyn Write, diagnostics: &[Diagnostic]) -> io::Result<()> {
    let mut files: Vec<(String, Vec<&Diagnostic>)> = Vec::new();
    // Each file's place in `files`: one look-up per finding, not a scan of the files.
    let mut index: HashMap<String, usize> = HashMap::new();
    for d in diagnostics {
        let file = file_of(d);
        match index.get(&file) {
            Some(&i) => files[i].1.push(d),
            None => {
                index.insert(file.clone(), files.len());
                files.push((file, vec![d]));
            }
        }
    }
    out.write_all(b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n")?;
    for (file, list) in files {
        writeln!(out, "  <file name=\"{}\">", escape::xml(&file))?;
        for d in list {
            let (line, column) = position(d);
            let severity = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Notice => "info",
            };
            writeln!(
                out,
                "    <error line=\"{line}\" column=\"{column}\" severity=\"{severity}\" message=\"{}\" source=\"tflint-merge.{}\"/>",
                escape::xml(&d.message),
                d.rule
            )?;
        }
        out.write_all(b"  </file>\n")?;
    }
    out.write_all(b"</checkstyle>\n")
}

/// JUnit: one failing test case per finding; a clean run is one passing case.
pub(crate) fn junit(out: &mut dyn Write, diagnostics: &[Diagnostic]) -> io::Result<()> {
    let failures = diagnostics.len();
    let tests = failures.max(1);
    write!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"tflint-merge\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">\n  <testsuite name=\"tflint-merge\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">\n"
    )?;
    if diagnostics.is_empty() {
        out.write_all(b"    <testcase name=\"no findings\" classname=\"tflint-merge\"/>\n")?;
    }
    for d in diagnostics {
        let file = file_of(d);
        let (line, column) = position(d);
        // The body is text for a person, as the short format with the notes: its file name,
        // message and notes escaped as the text formats escape them, one line each.
        let mut body = format!(
            "{}:{line}:{column}: {}[{}]: {}",
            escape::line_start_path(&file),
            d.severity,
            d.rule,
            escape::text(&d.message)
        );
        for note in &d.notes {
            body.push_str(&format!("\nnote: {}", escape::text(note)));
        }
        body.push_str(&format!("\nsee: {}", d.doc_link()));
        write!(
            out,
            "    <testcase name=\"{}\" classname=\"{}\" file=\"{}\" line=\"{line}\">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
            escape::xml(&format!("{}: {file}:{line}:{column}", d.rule)),
            escape::xml(&file),
            escape::xml(&file),
            escape::xml(&d.message),
            d.rule,
            escape::xml(&body)
        )?;
    }
    out.write_all(b"  </testsuite>\n</testsuites>\n")
}
