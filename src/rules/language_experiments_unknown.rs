//! A `language` block's `experiments` element that is not a keyword naming a current experiment
//! (there are none): an old or misspelled experiment, or a quoted string, stops the module from
//! loading.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::blocks::LANGUAGE_EXPERIMENTS;
use crate::syntax::{Expr, ExprKind};

use crate::lint::helpers::language_blocks;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "language_experiments_unknown",
    severity: Error,
    default: On,
    summary: "a language experiment that is not a current experiment keyword",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

const NOTE: &str = "Experiments are named by bare keywords, and this OpenTofu language has no \
                    current experiments: an old or misspelled experiment stops the module from \
                    loading.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (_, language) in language_blocks(ctx) {
        let Some(items) = language
            .body
            .attribute("experiments")
            .and_then(|a| a.expr.tuple_items())
        else {
            continue;
        };
        for item in items {
            match (item.keyword(), &item.kind) {
                (Some(name), _) if LANGUAGE_EXPERIMENTS.contains(&name) => {}
                (Some(name), _) => out.push(unknown_experiment(ctx, item, name)),
                (None, ExprKind::String(s)) => out.push(quoted_experiment(ctx, item, s)),
                _ => {} // not a constant: `language_settings_not_constant`
            }
        }
    }
}

/// `Unknown experiment keyword`, on a keyword no current experiment has.
fn unknown_experiment(ctx: &Context, item: &Expr, name: &str) -> Diagnostic {
    let label = format!("no current experiment is called `{name}`");
    experiment_finding(ctx, "Unknown experiment keyword", item, label)
}

/// `Invalid experiment keyword`, on a quoted string.
fn quoted_experiment(ctx: &Context, item: &Expr, value: &str) -> Diagnostic {
    let label = format!("a quoted string, not the keyword `{value}`");
    experiment_finding(ctx, "Invalid experiment keyword", item, label)
}

/// What the two findings share: the place, the note and the help.
fn experiment_finding(ctx: &Context, summary: &str, item: &Expr, label: String) -> Diagnostic {
    ctx.finding(&RULE, summary)
        .at(ctx.files, item.span, label)
        .with_note(NOTE)
        .with_help("remove it from `experiments`")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[&[("versions.tofu", "language {\n  experiments = []\n}\n")]];
    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "versions.tofu",
                "language {\n  experiments = [module_variable_optional_attrs]\n}\n",
            )],
            1,
        ),
        (
            &[(
                "versions.tofu",
                "language {\n  experiments = [\"a\", b]\n}\n",
            )],
            2,
        ),
        (
            &[(
                "versions.tofu.json",
                r#"{"language": {"experiments": ["x"]}}"#,
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
