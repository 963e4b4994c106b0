//! An override that changes nothing: an argument set to the value it already has, or an
//! override block with nothing in it. Both hide the next real change to the base.

use crate::diagnostic::Diagnostic;
use crate::lint::helpers::override_blocks_in;
use crate::module::merge::Address;
use crate::module::merge::events::{Event, Subject};
use crate::source::Span;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_noop",
    severity: Warning,
    default: On,
    summary: "an override that changes nothing",
    check: Check::View(RuleViews::Both, check),
};

const RESTATED_NOTE: &str = "An override that restates the base value changes nothing, and \
                             hides the next real change to the base: the override will \
                             silently keep the old value.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for event in &ctx.module.events {
        match event {
            // A provider override must restate `alias`: it is how the override names its target.
            Event::AttributeReplaced { address, name, .. } if is_provider_alias(address, name) => {}
            Event::AttributeReplaced {
                address,
                name,
                new,
                old,
                identical: true,
                ..
            } => out.push(restated_setting(ctx, address, name, *new, *old)),
            Event::OverrideApplied {
                address,
                override_header,
                override_span,
                base_header,
            } if is_empty_block(ctx, *override_span) => {
                out.push(empty_override(ctx, address, *override_header, *base_header));
            }
            _ => {}
        }
    }
}

/// Whether `name` is the `alias` of a provider configuration.
fn is_provider_alias(address: &Subject, name: &str) -> bool {
    name == "alias" && matches!(address.address(), Some(Address::Provider(..)))
}

/// Whether an override block (found by its span among the override files) has an empty body.
fn is_empty_block(ctx: &Context, span: Span) -> bool {
    override_blocks_in(ctx, span.file)
        .find(|b| b.span() == span)
        .is_some_and(|b| b.body.attributes.is_empty() && b.body.blocks.is_empty())
}

/// `` override of resource `x.y` sets `a` to the value it already has ``
fn restated_setting(
    ctx: &Context,
    address: &Subject,
    name: &str,
    new: Span,
    old: Span,
) -> Diagnostic {
    let message = format!(
        "override of {} sets `{name}` to the value it already has",
        address.describe()
    );
    ctx.finding(&RULE, message)
        .at(ctx.files, new, "same as the base")
        .with_label(ctx.files, old, "already set here")
        .with_note(RESTATED_NOTE)
        .with_help(format!("remove `{name}` from the override"))
}

/// `` empty override of resource `x.y` changes nothing ``
fn empty_override(ctx: &Context, address: &Subject, header: Span, base_header: Span) -> Diagnostic {
    let message = format!("empty override of {} changes nothing", address.describe());
    ctx.finding(&RULE, message)
        .at(ctx.files, header, "empty override block")
        .with_label(ctx.files, base_header, "base block")
        .with_note("An override block only changes what it sets; this one sets nothing.")
        .with_help("remove the empty override block")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const BASE: &str = "resource \"terraform_data\" \"x\" {\n  input = [1, 2]\n}\n";

    const PROVIDER: &str = "provider \"aws\" {\n  alias  = \"us\"\n  region = \"us-east-1\"\n}\n";

    const JSON_VARIABLE: &str = r#"{"variable": {"v": {"default": "a"}}}"#;

    const PASS: &[Files] = &[
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
    ];

    const FAIL: &[(Files, usize)] = &[
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
        (&[("main.tf", PROVIDER), ("override.tf", PROVIDER)], 1),
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
                ("main.tf.json", JSON_VARIABLE),
                ("override.tf.json", JSON_VARIABLE),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
