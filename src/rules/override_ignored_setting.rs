//! An override sets something the tools silently drop; the base setting stays.

use crate::diagnostic::{Diagnostic, Severity};
use crate::merge::events::Event;

use super::{Check, Context, Kind, Rule, RuleMeta, RuleViews, describe, object};

pub const RULE: Rule = Rule {
    meta: RuleMeta {
        id: "override_ignored_setting",
        kind: Kind::Rule,
        severity: Severity::Warning,
        enabled_by_default: true,
        summary: "an override setting that the tools silently drop",
        doc: include_str!("../../rules/override_ignored_setting.md"),
    },
    views: RuleViews::Both,
    options: &[],
    check: Check::View(check),
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
        let what = match address.as_str() {
            "ephemeral" | "removed" => format!("`{name}` block"),
            _ => format!("`{name}` in the override of {}", describe(address)),
        };
        let mut d = ctx
            .finding(&RULE, format!("{what} has no effect"))
            .at(ctx.files, *span, "ignored")
            .with_note(format!(
                "{}{reason}.",
                reason[..1].to_uppercase(),
                reason = &reason[1..]
            ));
        if let Some(base) = object(ctx.module, address) {
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
    use crate::rules::testing::{check_table, findings};

    const BASE: &str = "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    ignore_changes = [input]\n  }\n}\nresource \"terraform_data\" \"b\" {}\noutput \"o\" {\n  value       = 1\n  description = \"d\"\n}\n";

    #[test]
    fn table() {
        check_table(
            "override_ignored_setting",
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
            "override_ignored_setting",
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
