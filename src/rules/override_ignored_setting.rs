//! An override sets something the tools silently drop; the base setting stays.

use crate::diagnostic::Diagnostic;
use crate::module::merge::events::{Event, Subject};

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_ignored_setting",
    severity: Warning,
    default: On,
    summary: "an override setting that the tools silently drop",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for event in &ctx.module.events {
        let Event::IgnoredSetting {
            address,
            name,
            span,
            reason,
        } = event
        else {
            continue;
        };
        let what = match address {
            Subject::IgnoredBlock(_) => format!("`{name}` block"),
            _ => format!("`{name}` in the override of {}", address.describe()),
        };
        let mut d = ctx
            .finding(&RULE, format!("{what} has no effect"))
            .at(ctx.files, *span, "ignored")
            .with_note(format!(
                "{}{reason}.",
                reason[..1].to_uppercase(),
                reason = &reason[1..]
            ));
        if let Some(base) = address.address().and_then(|a| ctx.module.object(a)) {
            d = d.with_label(
                ctx.files,
                base.base_header,
                "the base block keeps its own setting",
            );
        }
        out.push(d.with_help("remove it from the override, or change the base block instead"));
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{check_table, findings};

    const BASE: &str = "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    ignore_changes = [input]\n  }\n}\nresource \"terraform_data\" \"b\" {}\noutput \"o\" {\n  value       = 1\n  description = \"d\"\n}\n";

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[&[
                ("main.tf", BASE),
                (
                    "override.tf",
                    "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    ignore_changes = [triggers_replace]\n  }\n}\n",
                ),
            ]],
            &[
                (
                    &[
                        ("main.tf", BASE),
                        (
                            "override.tf",
                            "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    replace_triggered_by = [terraform_data.b]\n  }\n}\n",
                        ),
                    ],
                    1,
                ),
                (
                    &[
                        ("main.tf", BASE),
                        (
                            "override.tf",
                            "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    ignore_changes = []\n  }\n}\n",
                        ),
                    ],
                    1,
                ),
                (
                    &[
                        ("main.tf", BASE),
                        ("override.tf", "output \"o\" {\n  description = \"\"\n}\n"),
                    ],
                    1,
                ),
                (
                    &[
                        ("main.tf", BASE),
                        (
                            "override.tf.json",
                            r#"{"output": {"o": {"description": ""}}}"#,
                        ),
                    ],
                    1,
                ),
                (
                    &[
                        ("main.tf", BASE),
                        (
                            "override.tf",
                            "terraform {\n  provider_meta \"aws\" {\n    module_name = \"x\"\n  }\n}\n",
                        ),
                    ],
                    1,
                ),
            ],
        );
    }

    #[test]
    fn ephemeral_override_is_dropped_by_terraform_only() {
        let found = findings(
            &super::RULE,
            &[
                (
                    "main.tf",
                    "ephemeral \"random_password\" \"p\" {\n  length = 8\n}\n",
                ),
                (
                    "override.tf",
                    "ephemeral \"random_password\" \"p\" {\n  length = 16\n}\n",
                ),
            ],
        );
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].views, crate::diagnostic::Views::TERRAFORM);
    }
}
