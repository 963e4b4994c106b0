//! Override files that change most of a module: a sign they are used as primary configuration.

use crate::diagnostic::Diagnostic;
use crate::module::merge::Origin;

use crate::lint::{Check, Context, OptionKind, OptionSpec, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_only_file",
    severity: Notice,
    default: Off,
    summary: "override files change most of the module",
    check: Check::View(RuleViews::Both, check),
    options: &[
        // Report when more than this share of the module's objects is overridden.
        OptionSpec {
            name: "threshold",
            kind: OptionKind::Fraction,
        },
        // Only judge modules with at least this many objects.
        OptionSpec {
            name: "min_objects",
            kind: OptionKind::Integer,
        },
    ],
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let threshold = ctx.number_option(&RULE, "threshold", 0.5);
    let min_objects = ctx.number_option(&RULE, "min_objects", 4.0);
    let module = ctx.module;
    let total = module.objects.len() + module.locals.len();
    let overridden = module
        .objects
        .iter()
        .filter(|o| !o.overrides.is_empty())
        .count()
        + module
            .locals
            .iter()
            .filter(|l| l.attribute.origin == Origin::Override)
            .count();
    if total == 0 || (total as f64) < min_objects {
        return;
    }
    let share = overridden as f64 / total as f64;
    if share <= threshold {
        return;
    }
    let Some(first_override) = ctx
        .overrides
        .iter()
        .find_map(|f| f.file.body.blocks.first())
    else {
        return;
    };
    let names: Vec<&str> = ctx
        .overrides
        .iter()
        .map(|f| ctx.files.get(f.file.id).file_name())
        .collect();
    out.push(
        ctx.finding(
            &RULE,
            format!(
                "override files change {overridden} of the module's {total} objects ({:.0}%)",
                share * 100.0
            ),
        )
        .at(ctx.files, first_override.header_span, "overrides start here")
        .with_note(format!(
            "Override files ({}) are meant for small, exceptional changes; when they change most of a module, readers of the primary files see a module that never runs.",
            names.join(", ")
        ))
        .with_help("move these settings into the primary files, or use variables for what differs between environments"),
    );
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::check_table;

    const BASE: &str = "resource \"terraform_data\" \"a\" {}\nresource \"terraform_data\" \"b\" {}\nresource \"terraform_data\" \"c\" {}\nresource \"terraform_data\" \"d\" {}\n";

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[
                &[
                    ("main.tf", BASE),
                    (
                        "override.tf",
                        "resource \"terraform_data\" \"a\" {\n  input = 1\n}\n",
                    ),
                ],
                // Half is not most.
                &[
                    ("main.tf", BASE),
                    (
                        "override.tf",
                        "resource \"terraform_data\" \"a\" {\n  input = 1\n}\nresource \"terraform_data\" \"b\" {\n  input = 1\n}\n",
                    ),
                ],
                // Too small to judge.
                &[
                    ("main.tf", "resource \"terraform_data\" \"a\" {}\n"),
                    (
                        "override.tf",
                        "resource \"terraform_data\" \"a\" {\n  input = 1\n}\n",
                    ),
                ],
            ],
            &[(
                &[
                    ("main.tf", BASE),
                    (
                        "override.tf",
                        "resource \"terraform_data\" \"a\" {\n  input = 1\n}\nresource \"terraform_data\" \"b\" {\n  input = 1\n}\n",
                    ),
                    (
                        "c_override.tf.json",
                        r#"{"resource": {"terraform_data": {"c": {"input": 1}}}}"#,
                    ),
                ],
                1,
            )],
        );
    }
}
