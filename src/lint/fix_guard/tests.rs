//! The guard on one file, and on an edit into each form of string.

use std::path::{Path, PathBuf};

use super::*;
use crate::diagnostic::{Applicability, TEST_ID};

fn finding_with(fix: Fix) -> Diagnostic {
    Diagnostic::error(TEST_ID, "x").with_fix(fix)
}

#[test]
fn a_fix_that_cuts_into_a_string_is_withheld_and_the_finding_stays() {
    let text = "a = <<EOT\nx\n\nEOT\nb = \"q\"\n";
    let mut files = SourceFiles::default();
    files.add(SourceFile::new(PathBuf::from("/m/main.tf"), text.into()));
    let path = Path::new("/m/main.tf");
    let at = |s: &str| text.find(s).expect("in the text");
    let fix = |range| Fix::new("f", Applicability::Safe).edit(path, range, "");
    let mut findings = vec![
        // The blank line inside the heredoc.
        finding_with(fix(at("\n\nEOT") + 1..at("\n\nEOT") + 2)),
        // The whole of `b`, and the whole heredoc.
        finding_with(fix(at("b =")..text.len())),
        finding_with(fix(at("<<EOT")..at("EOT\nb") + 3)),
        // A file that is not there to check.
        finding_with(Fix::new("f", Applicability::Safe).edit(Path::new("/m/x.tf"), 0..0, "")),
    ];
    withhold_fixes_editing_strings(&mut findings, &files);
    let kept: Vec<bool> = findings.iter().map(|d| d.fix.is_some()).collect();
    assert_eq!(kept, [false, true, true, false]);
}

/// A file holding a form of string, the text `cut` in it (which a fix must not edit alone) and
/// the text `whole` around it (which a fix may remove).
struct Form {
    name: &'static str,
    text: &'static str,
    cut: &'static str,
    whole: &'static str,
}

const FORMS: &[Form] = &[
    // A quoted string holding comment markers, a brace and an escaped newline.
    Form {
        name: "main.tf",
        text: "a = \"x # y // z /* } \\n\"\nb = 1\n",
        cut: " // z /* ",
        whole: "a = \"x # y // z /* } \\n\"",
    },
    // A heredoc, and its blank line.
    Form {
        name: "main.tf",
        text: "a = <<EOT\nx\n\nEOT\nb = 1\n",
        cut: "\n\n",
        whole: "a = <<EOT\nx\n\nEOT",
    },
    // An indented heredoc whose body looks like settings and comments.
    Form {
        name: "main.tf",
        text: "a = <<-EOT\n  b = 1\n  # c\n  EOT\nb = 1\n",
        cut: "  # c\n",
        whole: "a = <<-EOT\n  b = 1\n  # c\n  EOT",
    },
    // A heredoc whose marker is followed by more text: its text runs on to the lone `EOT`
    // for the tools (a parser that ended it at `EOT)` would cut it).
    Form {
        name: "main.tf",
        text: "a = f(<<EOT\nx\nEOT)\nb = 1\nEOT\n)\n",
        cut: "b = 1\n",
        whole: "a = f(<<EOT\nx\nEOT)\nb = 1\nEOT\n)",
    },
    // A template with directives over several lines.
    Form {
        name: "main.tf",
        text: "a = \"%{ if true\n}yes # no%{ endif }\"\nb = 1\n",
        cut: "yes # no",
        whole: "a = \"%{ if true\n}yes # no%{ endif }\"",
    },
    // JSON strings, keys and values.
    Form {
        name: "main.tf.json",
        text: "{\"locals\": {\"a\": \"x, \\\"b\\\": 1\", \"b\": 1}}",
        cut: "\\\"b\\\": 1",
        whole: "\"a\": \"x, \\\"b\\\": 1\", ",
    },
];

/// For each form: an edit of text inside a string is withheld, one that removes the string
/// whole is not.
#[test]
fn edits_into_each_form_of_string_are_withheld() {
    for Form {
        name,
        text,
        cut,
        whole,
    } in FORMS
    {
        let path = PathBuf::from("/m").join(name);
        let mut files = SourceFiles::default();
        files.add(SourceFile::new(path.clone(), (*text).into()));
        let range = |part: &str| {
            let start = text.find(part).expect("in the text");
            start..start + part.len()
        };
        let removal = |part: &str| Fix::new("f", Applicability::Safe).edit(&path, range(part), "");
        let insertion =
            Fix::new("f", Applicability::Safe).edit(&path, range(cut).start..range(cut).start, "x");
        let mut findings = vec![
            finding_with(removal(cut)),
            finding_with(insertion),
            finding_with(removal(whole)),
        ];
        withhold_fixes_editing_strings(&mut findings, &files);
        let kept: Vec<bool> = findings.iter().map(|d| d.fix.is_some()).collect();
        assert_eq!(kept, [false, false, true], "{text}");
    }
}
