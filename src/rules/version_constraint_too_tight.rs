//! TODO(new_rule): one paragraph: what the rule catches and why it matters.

use crate::diagnostic::Diagnostic;
use crate::source::Span;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "version_constraint_too_tight",
    severity: Warning,
    default: On,
    summary: "TODO what the rule finds, in lower case without a full stop",
    check: Check::View(RuleViews::Both, check),
};

const NOTE: &str = "TODO(new_rule): why it matters, in full sentences.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    // TODO(new_rule): find the problem in `ctx` (`ctx.module` and its merge events,
    // `ctx.primary`, `ctx.overrides`; shared queries are in `crate::lint::helpers`) and
    // push one finding per place with `out.push(version_constraint_too_tight_diagnostic(ctx, span))`.
    let found: Vec<Span> = Vec::new();
    for span in found {
        out.push(version_constraint_too_tight_diagnostic(ctx, span));
    }
}

/// `TODO(new_rule): the message`
fn version_constraint_too_tight_diagnostic(ctx: &Context, span: Span) -> Diagnostic {
    ctx.finding(&RULE, "TODO(new_rule): the message")
        .at(ctx.files, span, "TODO(new_rule): the label")
        .with_note(NOTE)
        .with_help("TODO(new_rule): how to fix it")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[&[("main.tf", "resource \"terraform_data\" \"good\" {}\n")]];

    // TODO(new_rule): a module the rule must report, as in the doc's fail example.
    const FAIL: &[(Files, usize)] = &[(
        &[("main.tf", "resource \"terraform_data\" \"bad\" {}\n")],
        1,
    )];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
