//! Renders diagnostics. Every format reads the same [`Diagnostic`] data.

mod human;
mod short;

use std::io::{self, Write};

use crate::diagnostic::{Diagnostic, Severity};

/// Output formats of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Annotated snippets, like rustc.
    Human,
    /// One line per finding: `path:line:col: severity[rule]: message`.
    Short,
}

/// What the run covered, for the closing summary line.
#[derive(Debug, Clone, Copy, Default)]
pub struct Totals {
    pub directories: usize,
    pub files: usize,
    pub bytes: u64,
}

/// Renders all diagnostics (already in output order) and a summary to `out`.
pub fn render(
    out: &mut dyn Write,
    format: Format,
    color: bool,
    diagnostics: &[Diagnostic],
    totals: Totals,
) -> io::Result<()> {
    match format {
        Format::Human => {
            for diagnostic in diagnostics {
                out.write_all(&human::render(diagnostic, color))?;
            }
            writeln!(out, "{}", summary(diagnostics, totals))
        }
        Format::Short => {
            for diagnostic in diagnostics {
                writeln!(out, "{}", short::render(diagnostic))?;
            }
            Ok(())
        }
    }
}

/// `2 errors, 1 warning in 3 directories (7 files)`.
pub fn summary(diagnostics: &[Diagnostic], totals: Totals) -> String {
    let count = |s: Severity| diagnostics.iter().filter(|d| d.severity == s).count();
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
        "{found} in {} ({})",
        plural(totals.directories, "directory").replace("directorys", "directories"),
        plural(totals.files, "file")
    )
}

/// "only in the OpenTofu view" when a finding concerns one view of two.
fn view_note(diagnostic: &Diagnostic) -> Option<String> {
    match (diagnostic.views.terraform, diagnostic.views.opentofu) {
        (true, false) => Some("found in the Terraform view only".into()),
        (false, true) => Some("found in the OpenTofu view only".into()),
        _ => None,
    }
}

/// One diagnostic in the human format, without colour (for stderr).
pub fn render_one_human(diagnostic: &Diagnostic) -> Vec<u8> {
    human::render(diagnostic, false)
}
