//! `experiments` elements must be keywords naming current experiments (there are none).

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::syntax::ExprKind;

use crate::lint::helpers::language_blocks;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "language_experiments_unknown",
    severity: Error,
    default: On,
    summary: "a language experiment that is not a current experiment keyword",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

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
            let (summary, label) = match (item.keyword(), &item.kind) {
                (Some(name), _) => {
                    if crate::knowledge::blocks::LANGUAGE_EXPERIMENTS.contains(&name) {
                        continue;
                    }
                    (
                        "Unknown experiment keyword",
                        format!("no current experiment is called `{name}`"),
                    )
                }
                (None, ExprKind::String(s)) => (
                    "Invalid experiment keyword",
                    format!("a quoted string, not the keyword `{s}`"),
                ),
                _ => continue, // not a constant: `language_settings_not_constant`
            };
            out.push(
                ctx.finding(&RULE, summary)
                    .at(ctx.files, item.span, label)
                    .with_note("Experiments are named by bare keywords, and this OpenTofu language has no current experiments: an old or misspelled experiment stops the module from loading.")
                    .with_help("remove it from `experiments`"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::check_table;

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[&[("versions.tofu", "language {\n  experiments = []\n}\n")]],
            &[
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
            ],
        );
    }
}
