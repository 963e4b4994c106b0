//! An argument the tools require in a block, missing from it in a primary file: an output's
//! `value`, a condition block's `condition` or `error_message` (`checkRuleBlockSchema`). Both
//! tools check every primary block on its own, before override files are merged, and refuse the
//! module (`Missing required argument`); an override cannot supply it. A module call's `source`
//! is `module_source_missing`'s.

use crate::diagnostic::Diagnostic;
use crate::module::merge::MergeProblem;
use crate::source::Span;

use crate::lint::helpers::missing_argument;
use crate::lint::{Check, MergeContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "missing_required_argument",
    kind: LoadError,
    summary: "an output without value, or a condition block without condition or error_message",
    check: Check::Merge(check),
};

fn check(ctx: &MergeContext, out: &mut Vec<Diagnostic>) {
    for problem in ctx.problems {
        if let MergeProblem::MissingRequiredArgument { header, argument } = problem {
            out.push(missing_required_argument(ctx, *header, argument));
        }
    }
}

/// `Missing required argument`
fn missing_required_argument(ctx: &MergeContext, header: Span, argument: &str) -> Diagnostic {
    missing_argument(ctx, &RULE, header, argument)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[&[("main.tf", "output \"a\" {\n  value = 1\n}\n")]];

    const FAIL: &[(Files, usize)] = &[
        (&[("main.tf", "output \"a\" {}\n")], 1),
        (
            &[(
                "main.tf",
                "variable \"a\" {\n  validation {\n    condition = true\n  }\n}\n",
            )],
            1,
        ),
        // Both arguments of a condition block missing: one finding each.
        (&[("main.tf", "check \"a\" {\n  assert {}\n}\n")], 2),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
