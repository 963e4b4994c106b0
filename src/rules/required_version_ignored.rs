//! `required_version` in a `.tf` file that OpenTofu never evaluates, written in a syntax
//! Terraform rejects: the module loads in OpenTofu and fails in Terraform, and OpenTofu users
//! never see why.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::source::Span;

use crate::lint::helpers::parse_constraints;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "required_version_ignored",
    severity: Notice,
    default: On,
    summary: "an invalid required_version in a .tf file that only Terraform evaluates",
    check: Check::View(RuleViews::Only(View::Terraform), check),
};

const NOTE: &str = "OpenTofu 1.12 and later never evaluate `required_version` in `.tf` files, so \
                    this invalid constraint goes unnoticed there; Terraform evaluates it and fails \
                    with `Invalid version constraint`.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    // OpenTofu ≥ 1.12 evaluates `required_version` in none of the `.tf` files.
    for file in ctx
        .primary
        .iter()
        .chain(ctx.overrides.iter())
        .filter(|f| !f.extension.is_tofu())
    {
        for block in file.file.body.blocks_of("terraform") {
            let Some(attr) = block.body.attribute("required_version") else {
                continue;
            };
            if let Some(Err((span, message))) = parse_constraints(ctx.files, &attr.expr) {
                out.push(rejected_by_terraform(ctx, span, message));
            }
        }
    }
}

/// `` OpenTofu ignores this `required_version`, but Terraform rejects it ``, at the bad part.
fn rejected_by_terraform(ctx: &Context, span: Span, message: String) -> Diagnostic {
    let summary = "OpenTofu ignores this `required_version`, but Terraform rejects it";
    ctx.finding(&RULE, summary)
        .at(ctx.files, span, message)
        .with_note(NOTE)
        .with_help("fix the constraint, e.g. `>= 1.6, < 2.0`")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, terraform_required_version as required};

    const PASS: &[Files] = &[
        &[("versions.tf", required!(">= 1.6"))],
        // In a .tofu file OpenTofu evaluates it: `version_constraint_invalid` reports it.
        &[("versions.tofu", required!(">= one"))],
    ];
    const FAIL: &[(Files, usize)] = &[
        (&[("versions.tf", required!(">= 1.6 < 2"))], 1),
        (
            &[(
                "versions.tf.json",
                r#"{"terraform": {"required_version": "latest"}}"#,
            )],
            1,
        ),
        // Shadowed by a `.tofu` twin: OpenTofu never even reads the file.
        (
            &[
                ("versions.tf", required!(">= 1.6 and < 2")),
                ("versions.tofu", required!(">= 1.8")),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
