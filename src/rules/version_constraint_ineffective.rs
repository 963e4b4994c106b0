//! `compatible_with { opentofu = ... }` admitting versions before 1.12, which cannot read the
//! `language` block at all.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::version::{Version, VersionSet};

use crate::lint::helpers::{language_blocks, parse_constraints};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "version_constraint_ineffective",
    severity: Warning,
    default: On,
    summary: "a compatible_with constraint admitting OpenTofu versions that cannot read it",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let first_reader = Version::new(1, 12, 0);
    for (_, language) in language_blocks(ctx) {
        // OpenTofu reads the first `compatible_with` naming it; a second one is an error of its own.
        if let Some(attr) = language
            .body
            .blocks_of("compatible_with")
            .find_map(|c| c.body.attribute("opentofu"))
        {
            let Some(Ok(constraints)) = parse_constraints(ctx.files, &attr.expr) else {
                continue;
            };
            if !VersionSet::of(&constraints).admits_below(&first_reader) {
                continue;
            }
            out.push(
                ctx.finding(&RULE, "Ineffective version constraint")
                    .at(ctx.files, attr.expr.span, "admits OpenTofu versions before 1.12")
                    .with_note("OpenTofu reads the `language` block from 1.12 on; older versions ignore it, so the part of this constraint below 1.12.0 can never be enforced. Keep a `required_version` in a `.tofu` file for them.")
                    .with_help("start the constraint at 1.12 or later, e.g. `>= 1.12`"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::check_table;

    fn language(constraint: &str) -> String {
        format!("language {{\n  compatible_with {{\n    opentofu = \"{constraint}\"\n  }}\n}}\n")
    }

    #[test]
    fn table() {
        let good = language(">= 1.12, < 2.0");
        let pessimistic = language("~> 1.12");
        let bad = language(">= 1.11");
        let unbounded = language("< 2.0");
        check_table(
            &super::RULE,
            &[&[("v.tofu", &good)], &[("v.tofu", &pessimistic)]],
            &[
                (&[("v.tofu", &bad)], 1),
                (&[("v.tofu", &unbounded)], 1),
                (
                    &[(
                        "v.tofu.json",
                        r#"{"language": {"compatible_with": {"opentofu": ">= 1.8"}}}"#,
                    )],
                    1,
                ),
            ],
        );
    }
}
