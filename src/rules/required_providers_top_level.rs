//! A `required_providers` block at the top level of a file, outside any `terraform` block: both
//! tools refuse it as they read the file (`Invalid required_providers block`), in primary and
//! override files alike.

use crate::diagnostic::Diagnostic;
use crate::module::merge::MergeProblem;
use crate::source::Span;

use crate::lint::{Check, MergeContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "required_providers_top_level",
    kind: LoadError,
    summary: "a required_providers block outside a terraform block",
    check: Check::Merge(check),
};

fn check(ctx: &MergeContext, out: &mut Vec<Diagnostic>) {
    for problem in ctx.problems {
        if let MergeProblem::RequiredProvidersTopLevel { block } = problem {
            out.push(required_providers_top_level(ctx, *block));
        }
    }
}

/// `Invalid required_providers block`
fn required_providers_top_level(ctx: &MergeContext, block: Span) -> Diagnostic {
    ctx.finding(&RULE, "Invalid required_providers block")
        .at(ctx.files, block, "top-level `required_providers` block")
        .with_note("A \"required_providers\" block must be nested inside a \"terraform\" block.")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[&[(
        "versions.tf",
        "terraform {\n  required_providers {\n    aws = {\n      source = \"hashicorp/aws\"\n    \
         }\n  }\n}\n",
    )]];

    const FAIL: &[(Files, usize)] = &[
        (
            &[("versions.tf", "required_providers {\n  aws = {}\n}\n")],
            1,
        ),
        (
            &[
                ("main.tf", "resource \"terraform_data\" \"a\" {}\n"),
                ("override.tf", "required_providers {}\n"),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
