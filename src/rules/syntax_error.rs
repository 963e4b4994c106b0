//! A configuration file that does not parse (native or JSON syntax, a module's file or a
//! Terragrunt `.hcl` file), at the first place where parsing fails, with the summary the tools
//! give (`Invalid expression`, `Argument or block definition required`...) and the parser's own
//! detail. The file contributes nothing; the directory's other files are still loaded and their
//! load errors reported.

use crate::diagnostic::Diagnostic;
use crate::input::read::{ReadProblem, Reader};
use crate::source::Span;

use crate::lint::helpers::skipped_note;
use crate::lint::{Check, ReadContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "syntax_error",
    kind: LoadError,
    summary: "a file that does not parse",
    check: Check::Read(check),
};

fn check(ctx: &ReadContext, out: &mut Vec<Diagnostic>) {
    if let ReadProblem::Syntax {
        summary,
        message,
        at,
        reader,
    } = ctx.problem
    {
        out.push(syntax_error(ctx, summary, message, *at, *reader));
    }
}

/// The tools' summary of the error, with the parser's message at the place
fn syntax_error(
    ctx: &ReadContext,
    summary: &str,
    message: &str,
    at: Span,
    reader: Reader,
) -> Diagnostic {
    ctx.finding(&RULE, summary.to_string())
        .at(ctx.files, at, message.to_string())
        .with_note(skipped_note(reader))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[&[("main.tf", "variable \"a\" {}\n")]];

    const FAIL: &[(Files, usize)] = &[
        (&[("main.tf", "variable \"a\" {\n")], 1),
        (&[("main.tf.json", "{\"variable\": ")], 1),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// A file only one view loads is reported for that view only.
    #[test]
    fn in_the_views_that_load_the_file() {
        let found = findings(&super::RULE, &[("main.tofu", "locals {\n")]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(found[0].views.opentofu && !found[0].views.terraform);
    }
}
