//! `compatible_with { opentofu = ... }` admitting versions before 1.12, which cannot read the
//! `language` block at all: that part of the constraint can never be enforced.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::version::{Version, VersionSet};
use crate::syntax::Attribute;

use crate::lint::helpers::{compatible_with_opentofu, language_blocks, parse_constraints};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "version_constraint_ineffective",
    severity: Warning,
    default: On,
    summary: "a compatible_with constraint admitting OpenTofu versions that cannot read it",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

const NOTE: &str = "OpenTofu reads the `language` block from 1.12 on; older versions ignore it, \
                    so the part of this constraint below 1.12.0 can never be enforced. Keep a \
                    `required_version` in a `.tofu` file for them.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let first_reader = Version::new(1, 12, 0);
    for (_, language) in language_blocks(ctx) {
        // OpenTofu reads the first `compatible_with` naming it; a second one is an error of its
        // own.
        let Some(attr) = compatible_with_opentofu(language).next() else {
            continue;
        };
        let Some(Ok(constraints)) = parse_constraints(ctx.files, &attr.expr) else {
            continue;
        };
        if VersionSet::of(&constraints).admits_below(&first_reader) {
            out.push(admits_non_readers(ctx, attr));
        }
    }
}

/// `Ineffective version constraint`, on a constraint admitting OpenTofu versions before 1.12.
fn admits_non_readers(ctx: &Context, attr: &Attribute) -> Diagnostic {
    ctx.finding(&RULE, "Ineffective version constraint")
        .at(
            ctx.files,
            attr.expr.span,
            "admits OpenTofu versions before 1.12",
        )
        .with_note(NOTE)
        .with_help("start the constraint at 1.12 or later, e.g. `>= 1.12`")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, tofu_compatible_with as language};

    const PASS: &[Files] = &[
        &[("v.tofu", language!(">= 1.12, < 2.0"))],
        &[("v.tofu", language!("~> 1.12"))],
    ];
    const FAIL: &[(Files, usize)] = &[
        (&[("v.tofu", language!(">= 1.11"))], 1),
        (&[("v.tofu", language!("< 2.0"))], 1),
        (
            &[(
                "v.tofu.json",
                r#"{"language": {"compatible_with": {"opentofu": ">= 1.8"}}}"#,
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
