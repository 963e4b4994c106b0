//! `path:line:col: severity[rule]: message`, one line per finding.

use crate::diagnostic::escape;
use crate::diagnostic::{Diagnostic, Views};

/// `checked` are the views of the run: a finding's view is named only when it is one of two.
/// `unsafe_fixes`: whether unsafe fixes count as fixable (`[*]`).
pub(crate) fn render(diagnostic: &Diagnostic, checked: Views, unsafe_fixes: bool) -> String {
    let location = match &diagnostic.primary {
        Some(label) => {
            let (line, col) = label.start();
            format!(
                "{}:{line}:{col}",
                escape::line_start_path(&label.file.display)
            )
        }
        None => escape::line_start_path(&diagnostic.path).into_owned(),
    };
    let view = match (diagnostic.views.terraform, diagnostic.views.opentofu) {
        _ if checked != Views::BOTH => "",
        (true, false) => " (terraform view)",
        (false, true) => " (opentofu view)",
        _ => "",
    };
    // One line per finding, whatever a message or file name holds.
    format!(
        "{location}: {}[{}]: {}{}{view}",
        diagnostic.severity,
        diagnostic.rule,
        super::fixable_mark(diagnostic, unsafe_fixes),
        escape::text(&diagnostic.message)
    )
}
