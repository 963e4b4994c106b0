//! `experiments` elements must be keywords naming current experiments (there are none).

use crate::diagnostic::Diagnostic;
use crate::load::View;
use crate::syntax::ExprKind;

use super::{Check, Context, Rule, RuleViews, language_blocks, rule_meta};

pub const RULE: Rule = Rule {
    meta: rule_meta!(
        "language_experiments_unknown",
        Error,
        true,
        "a language experiment that is not a current experiment keyword"
    ),
    views: RuleViews::Only(View::OpenTofu),
    options: &[],
    check: Check::View(check),
};

/// The experiments the current OpenTofu language offers.
const CURRENT_EXPERIMENTS: &[&str] = &[];

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
                    if CURRENT_EXPERIMENTS.contains(&name) {
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
    use crate::rules::testing::check_table;

    #[test]
    fn table() {
        check_table(
            "language_experiments_unknown",
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
