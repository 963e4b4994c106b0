//! An override that changes nothing: an argument set to the value it already has, or an
//! override block with nothing in it.

use crate::diagnostic::Diagnostic;
use crate::module::merge::Address;
use crate::module::merge::events::Event;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_noop",
    severity: Warning,
    default: On,
    summary: "an override that changes nothing",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for event in &ctx.module.events {
        match event {
            // A provider override must restate `alias`: it is how the override names its target.
            Event::AttributeReplaced { address, name, .. } if name == "alias" && matches!(address.address(), Some(Address::Provider(..))) => {}
            Event::AttributeReplaced { address, name, new, old, identical: true, .. } => out.push(
                ctx.finding(
                    &RULE,
                    format!("override of {} sets `{name}` to the value it already has", address.describe()),
                )
                .at(ctx.files, *new, "same as the base")
                .with_label(ctx.files, *old, "already set here")
                .with_note("An override that restates the base value changes nothing, and hides the next real change to the base: the override will silently keep the old value.")
                .with_help(format!("remove `{name}` from the override")),
            ),
            Event::OverrideApplied { address, override_header, override_span, base_header }
                if is_empty_block(ctx, *override_span) =>
            {
                out.push(
                    ctx.finding(&RULE, format!("empty override of {} changes nothing", address.describe()))
                        .at(ctx.files, *override_header, "empty override block")
                        .with_label(ctx.files, *base_header, "base block")
                        .with_note("An override block only changes what it sets; this one sets nothing.")
                        .with_help("remove the empty override block"),
                );
            }
            _ => {}
        }
    }
}

/// Whether an override block (found by its span among the override files) has an empty body.
fn is_empty_block(ctx: &Context, span: crate::source::Span) -> bool {
    ctx.overrides
        .iter()
        .filter(|f| f.file.id == span.file)
        .flat_map(|f| &f.file.body.blocks)
        .find(|b| b.span() == span)
        .is_some_and(|b| b.body.attributes.is_empty() && b.body.blocks.is_empty())
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::check_table;

    const BASE: &str = "resource \"terraform_data\" \"x\" {\n  input = [1, 2]\n}\n";

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[
                &[
                    ("main.tf", BASE),
                    (
                        "override.tf",
                        "resource \"terraform_data\" \"x\" {\n  input = [1, 3]\n}\n",
                    ),
                ],
                // Same value written differently is still a change of text we don't judge.
                &[
                    ("main.tf", BASE),
                    (
                        "override.tf",
                        "resource \"terraform_data\" \"x\" {\n  input = tolist([1, 2])\n}\n",
                    ),
                ],
            ],
            &[
                (
                    &[
                        ("main.tf", BASE),
                        (
                            "override.tf",
                            "resource \"terraform_data\" \"x\" {\n  input = [ 1,2 ]\n}\n",
                        ),
                    ],
                    1,
                ),
                (
                    &[
                        ("main.tf", BASE),
                        ("override.tf", "resource \"terraform_data\" \"x\" {}\n"),
                    ],
                    1,
                ),
                // An aliased provider override restates its alias: only `region` is a no-op.
                (
                    &[
                        (
                            "main.tf",
                            "provider \"aws\" {\n  alias  = \"us\"\n  region = \"us-east-1\"\n}\n",
                        ),
                        (
                            "override.tf",
                            "provider \"aws\" {\n  alias  = \"us\"\n  region = \"us-east-1\"\n}\n",
                        ),
                    ],
                    1,
                ),
                (
                    &[
                        ("main.tf", BASE),
                        (
                            "override.tf.json",
                            r#"{"resource": {"terraform_data": {"x": {}}}}"#,
                        ),
                    ],
                    1,
                ),
                // A JSON value equal to the JSON base value.
                (
                    &[
                        ("main.tf.json", r#"{"variable": {"v": {"default": "a"}}}"#),
                        (
                            "override.tf.json",
                            r#"{"variable": {"v": {"default": "a"}}}"#,
                        ),
                    ],
                    1,
                ),
            ],
        );
    }
}
