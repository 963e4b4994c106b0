//! OpenTofu's module `lifecycle { enabled }` together with `count` or `for_each`, after override
//! files are merged: all three decide how many instances exist, so only one may be used.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::module::merge::{Address, MergedAttribute};

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_count_and_for_each",
    severity: Error,
    default: On,
    summary: "a module call with enabled and count or for_each",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

const NOTE: &str = "OpenTofu's `lifecycle { enabled }` makes a module call conditional on its \
                    own; like `count` and `for_each`, it decides how many instances exist, so \
                    only one of them may be used. This is checked after override files are \
                    merged.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for object in &ctx.module.objects {
        if !matches!(object.address, Address::ModuleCall(_)) {
            continue;
        }
        let Some(enabled) = object
            .body
            .blocks_of("lifecycle")
            .find_map(|l| l.body.attribute("enabled"))
        else {
            continue;
        };
        for name in ["count", "for_each"] {
            if let Some(other) = object.body.attribute(name) {
                out.push(enabled_and(ctx, enabled, name, other));
            }
        }
    }
}

/// `Invalid combination of "count" and "enabled"` (OpenTofu's own wording)
fn enabled_and(
    ctx: &Context,
    enabled: &MergedAttribute,
    name: &str,
    other: &MergedAttribute,
) -> Diagnostic {
    ctx.finding(
        &RULE,
        format!("Invalid combination of \"{name}\" and \"enabled\""),
    )
    .at(ctx.files, enabled.span(), "`enabled` set here")
    .with_label(ctx.files, other.span(), format!("`{name}` set here"))
    .with_note(NOTE)
    .with_help(format!("use either `enabled` or `{name}`"))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const ENABLED: &str = r#"module "a" {
  source = "./"
  lifecycle {
    enabled = var.on
  }
}
"#;

    const ENABLED_AND_COUNT: &str = r#"module "a" {
  source = "./"
  count  = 2
  lifecycle {
    enabled = var.on
  }
}
"#;

    const PASS: &[Files] = &[&[("main.tofu", ENABLED)]];

    const FAIL: &[(Files, usize)] = &[
        (&[("main.tofu", ENABLED_AND_COUNT)], 1),
        (
            &[
                ("main.tofu", ENABLED),
                (
                    "a_override.tofu.json",
                    r#"{"module": {"a": {"for_each": "${var.items}"}}}"#,
                ),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
