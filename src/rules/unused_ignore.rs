//! An inline ignore comment that silences nothing: an id that reported nothing on the lines it
//! covers, `all` with nothing there, an id that is not one (misspelled?), a load error (which no
//! comment silences: the tools refuse the module), or a comment that starts like an ignore but
//! is not one. Like ruff's RUF100: an ignore that hides nothing today will silently hide a real
//! finding tomorrow. The fix removes the id, or the whole comment when none of its ids is used.

use crate::diagnostic::fix::{is_json, json_member_removal, line_removal};
use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::lint::ignore::{Directive, IgnoreProblem, Malformed, Unused, UnusedFix};
use crate::source::{SourceFiles, Span};

use crate::lint::{Check, IgnoreContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "unused_ignore",
    kind: Engine,
    severity: Warning,
    default: On,
    summary: "an inline ignore comment that silences nothing",
    fix: Safe,
    check: Check::Ignore(check),
};

fn check(ctx: &IgnoreContext, out: &mut Vec<Diagnostic>) {
    out.push(match ctx.problem {
        IgnoreProblem::Malformed { comment, problem } => malformed_ignore(ctx, *comment, *problem),
        IgnoreProblem::Unused {
            directive,
            position,
            reason,
            fix,
        } => unused_ignore(ctx, directive, *position, reason, *fix),
    });
}

/// `malformed ignore comment: no `:` after `tflint-merge-ignore`` (or: it names no rule)
fn malformed_ignore(ctx: &IgnoreContext, comment: Span, problem: Malformed) -> Diagnostic {
    let problem = match problem {
        Malformed::NoColon { marker } => format!("no `:` after `{marker}`"),
        Malformed::NoRule => "it names no rule before its reason".to_string(),
    };
    let note = "A comment that is not a well-formed ignore silences nothing: the findings it \
                was written for are still reported, or were never there.";
    ctx.finding(&RULE, format!("malformed ignore comment: {problem}"))
        .at(ctx.files, comment, "this comment")
        .with_note(note)
        .with_help("write `tflint-merge-ignore: <rule_id>, <rule_id>  <reason>`")
}

/// `unused ignore: `<id>` reported nothing here to ignore` (or why else the id is unused)
fn unused_ignore(
    ctx: &IgnoreContext,
    directive: &Directive,
    position: usize,
    reason: &Unused,
    fix: UnusedFix,
) -> Diagnostic {
    let name = directive.rules[position].as_str();
    let problem = match reason {
        Unused::Nothing => "this ignore silences nothing".to_string(),
        Unused::UnknownId(unknown) => unknown.clone(),
        Unused::LoadError => format!(
            "`{name}` is a load error: Terraform/OpenTofu refuse the module, so it cannot be \
             ignored"
        ),
        Unused::NothingReported => format!("`{name}` reported nothing here to ignore"),
    };
    let note = "An ignore that silences nothing hides nothing today, but it will silently hide \
                a real finding tomorrow.";
    let fix = match fix {
        UnusedFix::None => None,
        UnusedFix::Comment => Some(comment_removal(ctx.files, directive.span)),
        UnusedFix::Id => id_removal(ctx.files, directive, position, name),
    };
    ctx.finding(&RULE, format!("unused ignore: {problem}"))
        .at(ctx.files, directive.span, "this ignore comment")
        .with_note(note)
        .with_help(format!(
            "remove `{name}` from the comment (or the whole comment)"
        ))
        .with_fix(fix)
}

/// The fix that removes a whole ignore directive: the comment's line when it is alone on it;
/// in JSON, the `"//"` property. A comment that goes on after the directive's line (a `/* */`
/// comment, a JSON string with line breaks) keeps those lines: only the directive's line of it
/// goes, since the rest is the writer's note, not the ignore.
fn comment_removal(files: &SourceFiles, comment: Span) -> Fix {
    let file = files.get(comment.file);
    let text = &file.text;
    let title = "Remove the unused ignore comment";
    if let Some((range, replacement)) = directive_line_removal(text, comment, is_json(&file.path)) {
        let title = "Remove the unused ignore from the comment";
        return Fix::new(title, Applicability::Safe).edit(&file.path, range, replacement);
    }
    let range = if is_json(&file.path) {
        let key_end = text[..comment.start as usize]
            .trim_end()
            .trim_end_matches(':')
            .trim_end();
        let key_start = key_end
            .strip_suffix("\"//\"")
            .map_or(key_end.len(), str::len);
        json_member_removal(text, key_start..comment.end as usize)
    } else {
        line_removal(text, comment.range())
    };
    Fix::new(title, Applicability::Safe).edit(&file.path, range, "")
}

/// For a comment whose text goes on past the directive's line with more than blanks: the edit
/// that removes only that line of it. In native syntax, from the directive to its line's end
/// (a `/* */` comment keeps its opening and the lines after); in JSON, the whole string
/// written again without its first line.
fn directive_line_removal(
    text: &str,
    comment: Span,
    json: bool,
) -> Option<(std::ops::Range<usize>, String)> {
    let written = &text[comment.range()];
    if json {
        let value: String = serde_json::from_str(written).ok()?;
        let (_, rest) = value.split_once('\n')?;
        if rest.trim().is_empty() {
            return None;
        }
        return Some((comment.range(), serde_json::to_string(rest).ok()?));
    }
    let body = written.strip_prefix("/*")?;
    let line_end = body.find('\n')?;
    let rest = body[line_end..].trim_end_matches("*/");
    if rest.trim().is_empty() {
        return None;
    }
    // From the end of `/*` (the blanks before the directive go with it) to the line's end
    // (a `\r` of a CRLF line ending stays).
    let start = comment.start as usize + 2;
    let first_line = &body[..line_end];
    let end = start + first_line.trim_end_matches('\r').len();
    Some((start..end, String::new()))
}

/// The fix that removes the id at `position` from a comment that keeps other ids: with the
/// comma after it, or, for the last id, the comma before it.
fn id_removal(
    files: &SourceFiles,
    directive: &Directive,
    position: usize,
    name: &str,
) -> Option<Fix> {
    let ranges = directive.rule_ranges.as_ref()?;
    let range = match (
        ranges.get(position.wrapping_sub(1)),
        ranges.get(position),
        ranges.get(position + 1),
    ) {
        (_, Some(this), Some(next)) => this.start..next.start,
        (Some(previous), Some(this), None) => previous.end..this.end,
        _ => return None,
    };
    let file = files.get(directive.file);
    let title = format!("Remove `{name}` from the ignore comment");
    Some(Fix::new(title, Applicability::Safe).edit(&file.path, range, ""))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};
    use crate::rules::override_noop;

    const NOOP: &str = "resource \"terraform_data\" \"a\" {}\n";

    const PASS: &[Files] = &[&[("main.tf", "# an ordinary comment\nvariable \"a\" {}\n")]];

    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf",
                "# tflint-merge-ignore: override_noop\nvariable \"a\" {}\n",
            )],
            1,
        ),
        (&[("main.tf", "# tflint-merge-ignore override_noop\n")], 1),
        (&[("main.tf", "# tflint-merge-ignore: nope_nope\n")], 1),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// An ignore that silences a finding is used; the same comment unused has a fix that
    /// removes it.
    #[test]
    fn used_ignores_are_not_reported() {
        let rules = [&super::RULE, &override_noop::RULE];
        let over = "# tflint-merge-ignore: override_noop  restated on purpose\n\
                    resource \"terraform_data\" \"a\" {}\n";
        let files: Files = &[("main.tf", NOOP), ("override.tf", over)];
        let found = crate::lint::testing::findings_of(&rules, files);
        assert!(found.is_empty(), "{found:#?}");
        let unused = findings(&super::RULE, &[("main.tf", "# tflint-merge-ignore: all\n")]);
        assert_eq!(
            unused[0].message,
            "unused ignore: this ignore silences nothing"
        );
        assert!(unused[0].fix.is_some());
    }
}
