//! Override files that change most of a module: a sign they are used as primary configuration,
//! so readers of the primary files see a module that never runs. Off by default.

use crate::diagnostic::Diagnostic;
use crate::module::merge::Origin;
use crate::syntax::Block;

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
    out.push(mostly_overridden(
        ctx,
        first_override,
        overridden,
        total,
        share,
    ));
}

/// `override files change 3 of the module's 4 objects (75%)`
fn mostly_overridden(
    ctx: &Context,
    first_override: &Block,
    overridden: usize,
    total: usize,
    share: f64,
) -> Diagnostic {
    let names: Vec<&str> = ctx
        .overrides
        .iter()
        .map(|f| ctx.files.get(f.file.id).file_name())
        .collect();
    let message = format!(
        "override files change {overridden} of the module's {total} objects ({:.0}%)",
        share * 100.0
    );
    ctx.finding(&RULE, message)
        .at(
            ctx.files,
            first_override.header_span,
            "overrides start here",
        )
        .with_note(format!(
            "Override files ({}) are meant for small, exceptional changes; when they change most \
             of a module, readers of the primary files see a module that never runs.",
            names.join(", ")
        ))
        .with_help(
            "move these settings into the primary files, or use variables for what differs \
             between environments",
        )
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::override_fixtures::{A_INPUT_1, EMPTY_A};
    use crate::lint::testing::{Files, check_table};

    const BASE: &str = r#"resource "terraform_data" "a" {}
resource "terraform_data" "b" {}
resource "terraform_data" "c" {}
resource "terraform_data" "d" {}
"#;

    const A_AND_B: &str = r#"resource "terraform_data" "a" {
  input = 1
}
resource "terraform_data" "b" {
  input = 1
}
"#;

    const PASS: &[Files] = &[
        &[("main.tf", BASE), ("override.tf", A_INPUT_1)],
        // Half is not most.
        &[("main.tf", BASE), ("override.tf", A_AND_B)],
        // Too small to judge.
        &[("main.tf", EMPTY_A), ("override.tf", A_INPUT_1)],
    ];

    const FAIL: &[(Files, usize)] = &[(
        &[
            ("main.tf", BASE),
            ("override.tf", A_AND_B),
            (
                "c_override.tf.json",
                r#"{"resource": {"terraform_data": {"c": {"input": 1}}}}"#,
            ),
        ],
        1,
    )];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
