//! `--format github`: GitHub Actions workflow commands, escaped as the runner expects, then a
//! summary notice (the runner shows only the first 10 errors and 10 warnings of a step).
//!
//! The escapes are the toolkit's (actions/toolkit `packages/core/src/command.ts`, `escapeData`
//! and `escapeProperty`), undone by the runner (actions/runner
//! `src/Runner.Common/ActionCommand.cs`). File names, messages, notes and help are first
//! escaped as every text format escapes them ([`escape::text`]): the newlines between a
//! message's parts are the only ones the runner unescapes.

use std::io::{self, Write};

use super::location::{Range, file_of};
use crate::diagnostic::escape;
use crate::diagnostic::{Diagnostic, Severity};

/// Escapes a command's message.
pub(crate) fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a command property value.
pub(crate) fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

pub(crate) fn render(
    out: &mut dyn Write,
    diagnostics: &[Diagnostic],
    summary: &str,
) -> io::Result<()> {
    for d in diagnostics {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Notice => "notice",
        };
        let file = file_of(d);
        let mut properties = vec![format!("file={}", escape_property(&escape::text(&file)))];
        if let Some(label) = &d.primary {
            let r = Range::of(label);
            properties.push(format!("line={}", r.start_line));
            // The runner drops columns of multi-line ranges anyway; say only what it shows.
            if r.start_line == r.end_line {
                properties.push(format!("col={}", r.start_column));
            }
            properties.push(format!("endLine={}", r.end_line));
            if r.start_line == r.end_line {
                properties.push(format!("endColumn={}", r.end_column));
            }
        }
        properties.push(format!(
            "title={}",
            escape_property(&format!("tflint-merge({})", d.rule))
        ));
        let mut message = escape::text(&d.message).into_owned();
        for note in &d.notes {
            message.push_str("\nnote: ");
            message.push_str(&escape::text(note));
        }
        if let Some(help) = &d.help {
            message.push_str("\nhelp: ");
            message.push_str(&escape::text(help));
        }
        message.push_str("\nsee: ");
        message.push_str(&d.doc_link());
        writeln!(
            out,
            "::{command} {}::{}",
            properties.join(","),
            escape_data(&message)
        )?;
    }
    writeln!(
        out,
        "::notice title=tflint-merge::{}",
        escape_data(&format!("tflint-merge: {summary}"))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_the_runner() {
        assert_eq!(escape_data("50% a\r\nb:c,d"), "50%25 a%0D%0Ab:c,d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
