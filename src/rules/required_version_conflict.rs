//! OpenTofu's version constraints that contradict each other: `required_version` in `.tofu`
//! files against `language { compatible_with { opentofu } }`, or constraints (base and override
//! alike, all enforced together) that admit no version at all.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::version::VersionSet;

use crate::lint::helpers::{language_blocks, parse_constraints};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "required_version_conflict",
    severity: Warning,
    default: On,
    summary: "OpenTofu version constraints that contradict each other",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let mut required = VersionSet::all();
    for attr in &ctx.module.terraform.required_version {
        match parse_constraints(ctx.files, &attr.expr) {
            Some(Ok(constraints)) => required = required.intersect(&VersionSet::of(&constraints)),
            _ => return, // unparsable or not literal: `version_constraint_invalid`
        }
    }
    let constraints = &ctx.module.terraform.required_version;
    if constraints.len() > 1 && required.is_empty() {
        let last = &constraints[constraints.len() - 1];
        let mut d = ctx
            .finding(
                &RULE,
                "OpenTofu's `required_version` constraints admit no version at all",
            )
            .at(
                ctx.files,
                last.span(),
                "together with the others, admits nothing",
            );
        for other in &constraints[..constraints.len() - 1] {
            d = d.with_label(ctx.files, other.span(), "also enforced");
        }
        out.push(
            d.with_note("OpenTofu enforces every `required_version` of its `.tofu` files together — an override file's constraint is added to the base ones, unlike in Terraform where it replaces them — so no OpenTofu version can load this module.")
                .with_help("make the constraints agree, or drop the ones that no longer apply"),
        );
        return;
    }
    let Some(first) = constraints.first() else {
        return;
    };
    for (_, language) in language_blocks(ctx) {
        for compatible in language.body.blocks_of("compatible_with") {
            let Some(attr) = compatible.body.attribute("opentofu") else {
                continue;
            };
            let Some(Ok(parsed)) = parse_constraints(ctx.files, &attr.expr) else {
                continue;
            };
            let compatible_set = VersionSet::of(&parsed);
            let disjoint = compatible_set.intersect(&required).is_empty();
            // Only OpenTofu 1.12 and later read `compatible_with`; what it admits below that is
            // `version_constraint_ineffective`'s business. A `required_version` that is wider
            // (for older OpenTofu) is the recommended setup; one that excludes versions
            // `compatible_with` claims to support is not.
            let readers = compatible_set.intersect(&VersionSet::of(
                &crate::knowledge::version::parse(">= 1.12.0").unwrap_or_default(),
            ));
            let narrower = readers.intersect(&required) != readers;
            if !disjoint && !narrower {
                continue;
            }
            let note = if disjoint {
                "The two constraints have no version in common: no OpenTofu version can load this module."
            } else {
                "OpenTofu 1.12 and later enforce both constraints: some versions `compatible_with` claims to support are excluded by `required_version`, so readers of the `language` block are misled."
            };
            out.push(
                ctx.finding(
                    &RULE,
                    if disjoint {
                        "`required_version` and `compatible_with.opentofu` admit no common version"
                    } else {
                        "`required_version` excludes OpenTofu versions that `compatible_with.opentofu` admits"
                    },
                )
                .at(ctx.files, attr.expr.span, "compatible_with")
                .with_label(ctx.files, first.span(), "required_version")
                .with_note(note)
                .with_help("state OpenTofu's constraint once: in `compatible_with`, or in `required_version` of a `.tofu` file"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::check_table;

    fn language(c: &str) -> String {
        format!("language {{\n  compatible_with {{\n    opentofu = \"{c}\"\n  }}\n}}\n")
    }
    fn required(c: &str) -> String {
        format!("terraform {{\n  required_version = \"{c}\"\n}}\n")
    }

    #[test]
    fn table() {
        let (same_l, same_r) = (language(">= 1.12"), required(">= 1.12"));
        let (l13, r_old) = (language(">= 1.13"), required("< 1.12"));
        let (l12, r2) = (language(">= 1.12"), required(">= 1.12, < 2.0"));
        let (base, over) = (required(">= 1.12"), required("< 1.10"));
        let wider = required(">= 1.8");
        check_table(
            &super::RULE,
            &[
                &[("language.tofu", &same_l), ("versions.tofu", &same_r)],
                &[("versions.tofu", &same_r)],
                // The recommended setup: `required_version` for older OpenTofu, wider.
                &[("language.tofu", &same_l), ("versions.tofu", &wider)],
                // Terraform replaces; OpenTofu does not read .tf constraints: no conflict there.
                &[("versions.tofu", &base), ("x_override.tf", &over)],
            ],
            &[
                (&[("language.tofu", &l13), ("versions.tofu", &r_old)], 1),
                (&[("language.tofu", &l12), ("versions.tofu", &r2)], 1),
                (&[("versions.tofu", &base), ("x_override.tofu", &over)], 1),
                (
                    &[
                        (
                            "versions.tofu.json",
                            r#"{"terraform": {"required_version": ">= 1.12"}}"#,
                        ),
                        (
                            "x_override.tofu.json",
                            r#"{"terraform": {"required_version": "< 1.10"}}"#,
                        ),
                    ],
                    1,
                ),
            ],
        );
    }
}
