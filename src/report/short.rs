//! `path:line:col: severity[rule]: message`, one line per finding.

use crate::diagnostic::{Diagnostic, Views};

/// `checked` are the views of the run: a finding's view is named only when it is one of two.
/// `unsafe_fixes`: whether unsafe fixes count as fixable (`[*]`).
pub(crate) fn render(diagnostic: &Diagnostic, checked: Views, unsafe_fixes: bool) -> String {
    let location = match &diagnostic.primary {
        Some(label) => {
            let (line, col) = label.start();
            format!("{}:{line}:{col}", label.file.display)
        }
        None => diagnostic.path.clone(),
    };
    let view = match (diagnostic.views.terraform, diagnostic.views.opentofu) {
        _ if checked != Views::BOTH => "",
        (true, false) => " (terraform view)",
        (false, true) => " (opentofu view)",
        _ => "",
    };
    // One line per finding, whatever a label or file name holds.
    format!(
        "{location}: {}[{}]: {}{}{view}",
        diagnostic.severity,
        diagnostic.rule,
        super::fixable_mark(diagnostic, unsafe_fixes),
        diagnostic.message
    )
    .replace('\r', "\\r")
    .replace('\n', "\\n")
}
