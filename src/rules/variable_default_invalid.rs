//! A variable whose default does not convert to its type constraint (or is null while
//! `nullable = false`), both from primary files: the tools decode every variable block with its
//! own type and refuse the module (`Invalid default value for variable`). Where an override
//! file set the default, the type or `nullable`, the finding is
//! `override_variable_default_invalid`'s.

use crate::diagnostic::Diagnostic;
use crate::module::merge::MergeProblem;
use crate::module::merge::problems::DefaultProblem;
use crate::source::Span;

use crate::lint::helpers::invalid_default;
use crate::lint::{Check, MergeContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "variable_default_invalid",
    kind: LoadError,
    summary: "a variable's default does not convert to its type",
    check: Check::Merge(check),
};

fn check(ctx: &MergeContext, out: &mut Vec<Diagnostic>) {
    for problem in ctx.problems {
        if let MergeProblem::VariableDefaultInvalid { default, problem } = problem {
            out.push(variable_default_invalid(ctx, *default, problem));
        }
    }
}

/// `Invalid default value for variable`
fn variable_default_invalid(
    ctx: &MergeContext,
    default: Span,
    problem: &DefaultProblem,
) -> Diagnostic {
    invalid_default(ctx, &RULE, default, problem)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[&[(
        "main.tf",
        "variable \"a\" {\n  type    = number\n  default = \"1\"\n}\n",
    )]];

    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf",
                "variable \"a\" {\n  type    = number\n  default = \"x\"\n}\n",
            )],
            1,
        ),
        (
            &[(
                "main.tf",
                "variable \"a\" {\n  nullable = false\n  default  = null\n}\n",
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// A variable's decode errors are found once and reported for each view that loads its
    /// block; a `.tofu` file's own block is decoded on its own (the views share what they
    /// decode by attribute, not by name).
    #[test]
    fn decode_errors_are_shared_by_the_views_that_load_the_block() {
        let variable = |name: &str, ty: &str| {
            format!("variable \"{name}\" {{\n  type    = {ty}\n  default = \"x\"\n}}\n")
        };
        let main = variable("both", "number") + &variable("typo", "nmber");
        let hidden_tf = variable("tofu_fixes", "number");
        let hidden_tofu = variable("tofu_fixes", "string");
        let files: Files = &[
            ("main.tf", &main),
            ("hidden.tf", &hidden_tf),
            ("hidden.tofu", &hidden_tofu),
        ];
        let found: Vec<(String, bool, bool)> = (findings(&super::RULE, files).iter())
            .map(|d| {
                let file = d.path.rsplit('/').next().unwrap_or_default().to_string();
                (file, d.views.terraform, d.views.opentofu)
            })
            .collect();
        assert_eq!(
            found,
            [
                ("hidden.tf".to_string(), true, false),
                ("main.tf".to_string(), true, true),
            ]
        );
    }
}
