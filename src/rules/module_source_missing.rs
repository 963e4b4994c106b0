//! A module call without `source` in a primary file: both tools check every primary block on
//! its own, before override files are merged, and refuse the module (`Missing required
//! argument`); an override cannot supply it.

use crate::diagnostic::Diagnostic;
use crate::module::merge::MergeProblem;
use crate::source::Span;

use crate::lint::helpers::missing_argument;
use crate::lint::{Check, MergeContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_source_missing",
    kind: LoadError,
    summary: "a module call without source",
    check: Check::Merge(check),
};

fn check(ctx: &MergeContext, out: &mut Vec<Diagnostic>) {
    for problem in ctx.problems {
        if let MergeProblem::ModuleSourceMissing { header } = problem {
            out.push(module_source_missing(ctx, *header));
        }
    }
}

/// `Missing required argument`
fn module_source_missing(ctx: &MergeContext, header: Span) -> Diagnostic {
    missing_argument(ctx, &RULE, header, "source")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[&[("main.tf", "module \"a\" {\n  source = \"./a\"\n}\n")]];

    const FAIL: &[(Files, usize)] = &[
        (&[("main.tf", "module \"a\" {}\n")], 1),
        // An override cannot supply it.
        (
            &[
                ("main.tf", "module \"a\" {}\n"),
                ("override.tf", "module \"a\" {\n  source = \"./a\"\n}\n"),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
