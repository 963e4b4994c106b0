//! A later override replaces what an earlier override set, so the earlier one does nothing.

use crate::diagnostic::Diagnostic;
use crate::module::merge::events::Event;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_shadowed",
    severity: Warning,
    default: On,
    summary: "an override setting that a later override replaces",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for event in &ctx.module.events {
        let Event::AttributeReplaced {
            address,
            name,
            new,
            old,
            old_from_override: true,
            ..
        } = event
        else {
            continue;
        };
        let later = ctx.files.get(new.file).file_name();
        let same_file = new.file == old.file;
        let message = format!(
            "`{name}` set by this override of {} has no effect: {} replaces it",
            address.describe(),
            if same_file {
                "a later block in the same file".to_string()
            } else {
                format!("`{later}`")
            }
        );
        out.push(
            ctx.finding(&RULE, message)
                .at(ctx.files, *old, "has no effect")
                .with_label(ctx.files, *new, "replaced here")
                .with_note("Override files are applied in lexical order of their names, and the blocks of one file in order; the last one to set an argument wins.")
                .with_help("remove the earlier setting, or merge the two overrides into one"),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::check_table;

    const BASE: &str = "resource \"terraform_data\" \"x\" {\n  input = \"base\"\n}\n";

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[
                &[
                    ("main.tf", BASE),
                    (
                        "override.tf",
                        "resource \"terraform_data\" \"x\" {\n  input = \"o\"\n}\n",
                    ),
                ],
                // Two overrides setting different arguments.
                &[
                    ("main.tf", BASE),
                    (
                        "a_override.tf",
                        "resource \"terraform_data\" \"x\" {\n  input = \"a\"\n}\n",
                    ),
                    (
                        "b_override.tf",
                        "resource \"terraform_data\" \"x\" {\n  triggers_replace = 1\n}\n",
                    ),
                ],
            ],
            &[
                (
                    &[
                        ("main.tf", BASE),
                        (
                            "a_override.tf",
                            "resource \"terraform_data\" \"x\" {\n  input = \"a\"\n}\n",
                        ),
                        (
                            "b_override.tf",
                            "resource \"terraform_data\" \"x\" {\n  input = \"b\"\n}\n",
                        ),
                    ],
                    1,
                ),
                // In one file, and in JSON.
                (
                    &[
                        ("main.tf", BASE),
                        (
                            "override.tf.json",
                            r#"[{"resource": {"terraform_data": {"x": {"input": "a"}}}}, {"resource": {"terraform_data": {"x": {"input": "b"}}}}]"#,
                        ),
                    ],
                    1,
                ),
                // Locals and lifecycle arguments too.
                (
                    &[
                        (
                            "main.tf",
                            "locals {\n  a = 1\n}\nresource \"terraform_data\" \"x\" {\n  lifecycle {\n    prevent_destroy = false\n  }\n}\n",
                        ),
                        (
                            "a_override.tf",
                            "locals {\n  a = 2\n}\nresource \"terraform_data\" \"x\" {\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n",
                        ),
                        (
                            "b_override.tf",
                            "locals {\n  a = 3\n}\nresource \"terraform_data\" \"x\" {\n  lifecycle {\n    prevent_destroy = false\n  }\n}\n",
                        ),
                    ],
                    2,
                ),
            ],
        );
    }
}
