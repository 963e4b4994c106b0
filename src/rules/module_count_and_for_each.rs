//! OpenTofu's module `lifecycle { enabled }` together with `count` or `for_each`.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::module::merge::Address;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_count_and_for_each",
    severity: Error,
    default: On,
    summary: "a module call with enabled and count or for_each",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

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
            let Some(other) = object.body.attribute(name) else {
                continue;
            };
            out.push(
                ctx.finding(&RULE, format!("Invalid combination of \"{name}\" and \"enabled\""))
                    .at(ctx.files, enabled.span(), "`enabled` set here")
                    .with_label(ctx.files, other.span(), format!("`{name}` set here"))
                    .with_note("OpenTofu's `lifecycle { enabled }` makes a module call conditional on its own; like `count` and `for_each`, it decides how many instances exist, so only one of them may be used. This is checked after override files are merged.")
                    .with_help(format!("use either `enabled` or `{name}`")),
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
            &[&[(
                "main.tofu",
                "module \"a\" {\n  source = \"./\"\n  lifecycle {\n    enabled = var.on\n  }\n}\n",
            )]],
            &[
                (
                    &[(
                        "main.tofu",
                        "module \"a\" {\n  source = \"./\"\n  count  = 2\n  lifecycle {\n    enabled = var.on\n  }\n}\n",
                    )],
                    1,
                ),
                (
                    &[
                        (
                            "main.tofu",
                            "module \"a\" {\n  source = \"./\"\n  lifecycle {\n    enabled = var.on\n  }\n}\n",
                        ),
                        (
                            "a_override.tofu.json",
                            r#"{"module": {"a": {"for_each": "${var.items}"}}}"#,
                        ),
                    ],
                    1,
                ),
            ],
        );
    }
}
