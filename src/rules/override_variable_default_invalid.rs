//! A variable whose default, after override files are merged, does not convert to its type
//! (or is null while `nullable = false`), where an override set one of them. The tools decode
//! each override block on its own with its own type, then convert the merged default to the
//! merged type once more (`Variable.merge`), and refuse the module (`Invalid default value for
//! variable`); the base declaration alone may be valid. With the default and the type both
//! from primary files, it is `variable_default_invalid`'s.

use crate::diagnostic::Diagnostic;
use crate::module::merge::MergeProblem;
use crate::module::merge::problems::{DefaultProblem, MergedDefault, MergedDefaultProblem};
use crate::source::Span;

use crate::lint::helpers::{INVALID_DEFAULT, NULL_NOT_NULLABLE, invalid_default};
use crate::lint::{Check, MergeContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_variable_default_invalid",
    kind: LoadError,
    summary: "an override made a variable's default invalid for its type",
    check: Check::Merge(check),
};

fn check(ctx: &MergeContext, out: &mut Vec<Diagnostic>) {
    for problem in ctx.problems {
        match problem {
            MergeProblem::OverrideDefaultInvalid { default, problem } => {
                out.push(override_default_invalid(ctx, *default, problem));
            }
            MergeProblem::MergedDefaultInvalid(merged) => {
                out.push(merged_default_invalid(ctx, merged));
            }
            _ => {}
        }
    }
}

/// `Invalid default value for variable`, for an override block's own default and type
fn override_default_invalid(
    ctx: &MergeContext,
    default: Span,
    problem: &DefaultProblem,
) -> Diagnostic {
    invalid_default(ctx, &RULE, default, problem)
}

/// `Invalid default value for variable`, for the merged default and type: the tools point at the
/// override block.
fn merged_default_invalid(ctx: &MergeContext, merged: &MergedDefault) -> Diagnostic {
    let detail = match &merged.problem {
        MergedDefaultProblem::NullNotNullable => NULL_NOT_NULLABLE.to_string(),
        MergedDefaultProblem::TypeOverridden { reason } => format!(
            "Overriding this variable's type constraint has made its default value invalid: \
             {reason}."
        ),
        MergedDefaultProblem::DefaultOverridden { reason } => format!(
            "The overridden default value for this variable is not compatible with the \
             variable's type constraint: {reason}."
        ),
        MergedDefaultProblem::NotOfType { reason } => format!(
            "This variable's default value is not compatible with its type constraint: \
             {reason}."
        ),
    };
    let mut d = ctx
        .finding(&RULE, INVALID_DEFAULT)
        .at(
            ctx.files,
            merged.block,
            "this override makes the default invalid",
        )
        .with_note(detail);
    for setting in &merged.merged {
        let whence = match setting.from_override {
            true => "override",
            false => "base",
        };
        let label = format!("merged `{}` ({whence})", setting.name);
        d = d.with_label(ctx.files, setting.span, label);
    }
    let declared = format!("{} is declared here", merged.variable.describe());
    d.with_label(ctx.files, merged.declared, declared)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const BASE: &str = "variable \"a\" {\n  type    = string\n  default = \"x\"\n}\n";

    const PASS: &[Files] = &[&[
        ("main.tf", BASE),
        ("override.tf", "variable \"a\" {\n  default = \"y\"\n}\n"),
    ]];

    const FAIL: &[(Files, usize)] = &[
        // The merged default no longer converts to the overridden type.
        (
            &[
                ("main.tf", BASE),
                ("override.tf", "variable \"a\" {\n  type = number\n}\n"),
            ],
            1,
        ),
        // The override's own default does not convert to its own type.
        (
            &[
                ("main.tf", "variable \"a\" {}\n"),
                (
                    "override.tf",
                    "variable \"a\" {\n  type    = number\n  default = \"x\"\n}\n",
                ),
            ],
            1,
        ),
        // Each override file that leaves the merged default invalid: the tools keep the
        // unconverted default and convert it again after the next file.
        (
            &[
                ("main.tf", BASE),
                ("a_override.tf", "variable \"a\" {\n  type = number\n}\n"),
                ("b_override.tf", "variable \"a\" {\n  type = bool\n}\n"),
                ("c_override.tf", "variable \"a\" {\n  type = string\n}\n"),
            ],
            2,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// The merged settings are labelled with where they came from.
    #[test]
    fn merged_settings_say_where_they_came_from() {
        let files: Files = &[
            ("main.tf", BASE),
            ("override.tf", "variable \"a\" {\n  type = number\n}\n"),
        ];
        let found = findings(&super::RULE, files);
        let labels: Vec<&str> = (found[0].secondary.iter()).map(|l| &*l.message).collect();
        assert_eq!(
            labels,
            [
                "merged `default` (base)",
                "merged `type` (override)",
                "variable `a` is declared here"
            ]
        );
        assert!(found[0].notes[0].starts_with("Overriding this variable's type constraint"));
    }
}
