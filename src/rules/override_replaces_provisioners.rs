//! An override's provisioners silently drop every base provisioner.

use crate::diagnostic::Diagnostic;
use crate::lint::helpers::all_restated;
use crate::module::merge::events::Event;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_replaces_provisioners",
    severity: Warning,
    default: On,
    summary: "an override's provisioners drop every base provisioner",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for event in &ctx.module.events {
        let Event::NestedBlocksReplaced {
            address,
            kind,
            by,
            dropped,
        } = event
        else {
            continue;
        };
        if kind != "provisioner" || dropped.is_empty() {
            continue;
        }
        // Restating every base block in the override is the documented way to keep them.
        if all_restated(ctx, dropped, by) {
            continue;
        }
        let Some(&first) = by.first() else { continue };
        let plural = |n: usize| {
            if n == 1 {
                "provisioner"
            } else {
                "provisioners"
            }
        };
        let mut d = ctx
            .finding(
                &RULE,
                format!(
                    "override of {} replaces its {} base {} with {} {}",
                    address.describe(),
                    dropped.len(),
                    plural(dropped.len()),
                    by.len(),
                    plural(by.len())
                ),
            )
            .at(
                ctx.files,
                first,
                "this provisioner replaces all base provisioners",
            );
        for &span in dropped {
            d = d.with_label(ctx.files, span, "dropped: never runs");
        }
        out.push(
            d.with_note("If an override file has any `provisioner` block, it replaces all of the base block's provisioners; they are not appended or merged by type.")
                .with_help("repeat in the override every provisioner that should still run, in order"),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::check_table;

    const BASE: &str = "resource \"terraform_data\" \"a\" {\n  provisioner \"local-exec\" {\n    command = \"one\"\n  }\n}\n";

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
                // The base provisioner restated, another one added after it.
                &[
                    ("main.tf", BASE),
                    (
                        "override.tf",
                        "resource \"terraform_data\" \"a\" {\n  provisioner \"local-exec\" {\n    command = \"one\"\n  }\n  provisioner \"local-exec\" {\n    command = \"two\"\n  }\n}\n",
                    ),
                ],
                // Nothing to drop: the base had no provisioner.
                &[
                    ("main.tf", "resource \"terraform_data\" \"a\" {}\n"),
                    (
                        "override.tf",
                        "resource \"terraform_data\" \"a\" {\n  provisioner \"local-exec\" {\n    command = \"x\"\n  }\n}\n",
                    ),
                ],
            ],
            &[
                (
                    &[
                        ("main.tf", BASE),
                        (
                            "override.tf",
                            "resource \"terraform_data\" \"a\" {\n  provisioner \"file\" {\n    source = \"a\"\n    destination = \"b\"\n  }\n}\n",
                        ),
                    ],
                    1,
                ),
                (
                    &[
                        ("main.tf", BASE),
                        (
                            "a_override.tf.json",
                            r#"{"resource": {"terraform_data": {"a": {"provisioner": [{"local-exec": {"command": "two"}}]}}}}"#,
                        ),
                    ],
                    1,
                ),
            ],
        );
    }
}
