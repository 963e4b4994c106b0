//! OpenTofu's version constraints that contradict each other: `required_version` in `.tofu`
//! files against `language { compatible_with { opentofu } }`, or constraints (base and override
//! alike, all enforced together) that admit no version at all.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::version::VersionSet;
use crate::module::merge::MergedAttribute;
use crate::syntax::Attribute;

use crate::lint::helpers::{opentofu_compatible_with, parse_constraints};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "required_version_conflict",
    severity: Warning,
    default: On,
    summary: "OpenTofu version constraints that contradict each other",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

const NO_VERSION_NOTE: &str = "OpenTofu enforces every `required_version` of its `.tofu` files \
                               together — an override file's constraint is added to the base \
                               ones, unlike in Terraform where it replaces them — so no OpenTofu \
                               version can load this module.";

const DISJOINT_NOTE: &str = "The two constraints have no version in common: no OpenTofu version \
                             can load this module.";

const NARROWER_NOTE: &str = "OpenTofu 1.12 and later enforce both constraints: some versions \
                             `compatible_with` claims to support are excluded by \
                             `required_version`, so readers of the `language` block are misled.";

const DISJOINT: &str = "`required_version` and `compatible_with.opentofu` admit no common version";

const NARROWER: &str =
    "`required_version` excludes OpenTofu versions that `compatible_with.opentofu` admits";

const STATE_ONCE: &str = "state OpenTofu's constraint once: in `compatible_with`, or in \
                          `required_version` of a `.tofu` file";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let mut required = VersionSet::all();
    for attr in &ctx.module.terraform.required_version {
        match parse_constraints(ctx.files, &attr.expr) {
            Some(Ok(constraints)) => required = required.intersect(&VersionSet::of(&constraints)),
            _ => return, // unparsable or not literal: `version_constraint_invalid`
        }
    }
    let constraints = &ctx.module.terraform.required_version;
    if let Some((last, others)) = constraints.split_last()
        && !others.is_empty()
        && required.is_empty()
    {
        out.push(no_version_at_all(ctx, last, others));
        return;
    }
    let Some(first) = constraints.first() else {
        return;
    };
    for attr in opentofu_compatible_with(ctx) {
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
        if disjoint || narrower {
            out.push(against_compatible_with(ctx, attr, first, disjoint));
        }
    }
}

/// `` OpenTofu's `required_version` constraints admit no version at all ``: at the last
/// constraint, every other one labelled.
fn no_version_at_all(
    ctx: &Context,
    last: &MergedAttribute,
    others: &[MergedAttribute],
) -> Diagnostic {
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
    for other in others {
        d = d.with_label(ctx.files, other.span(), "also enforced");
    }
    d.with_note(NO_VERSION_NOTE)
        .with_help("make the constraints agree, or drop the ones that no longer apply")
}

/// `required_version` against `compatible_with.opentofu`: no common version (`disjoint`), or
/// versions `compatible_with` admits that `required_version` excludes.
fn against_compatible_with(
    ctx: &Context,
    compatible: &Attribute,
    required: &MergedAttribute,
    disjoint: bool,
) -> Diagnostic {
    let (message, note) = if disjoint {
        (DISJOINT, DISJOINT_NOTE)
    } else {
        (NARROWER, NARROWER_NOTE)
    };
    ctx.finding(&RULE, message)
        .at(ctx.files, compatible.expr.span, "compatible_with")
        .with_label(ctx.files, required.span(), "required_version")
        .with_note(note)
        .with_help(STATE_ONCE)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{
        Files, TOFU_COMPATIBLE_1_12, check_table, terraform_required_version as required,
        tofu_compatible_with as language,
    };

    const REQUIRED_1_12: &str = required!(">= 1.12");
    const OVER: &str = required!("< 1.10");

    const PASS: &[Files] = &[
        &[
            ("language.tofu", TOFU_COMPATIBLE_1_12),
            ("versions.tofu", REQUIRED_1_12),
        ],
        &[("versions.tofu", REQUIRED_1_12)],
        // The recommended setup: `required_version` for older OpenTofu, wider.
        &[
            ("language.tofu", TOFU_COMPATIBLE_1_12),
            ("versions.tofu", required!(">= 1.8")),
        ],
        // Terraform replaces; OpenTofu does not read .tf constraints: no conflict there.
        &[("versions.tofu", REQUIRED_1_12), ("x_override.tf", OVER)],
    ];
    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("language.tofu", language!(">= 1.13")),
                ("versions.tofu", required!("< 1.12")),
            ],
            1,
        ),
        (
            &[
                ("language.tofu", language!(">= 1.12")),
                ("versions.tofu", required!(">= 1.12, < 2.0")),
            ],
            1,
        ),
        (
            &[("versions.tofu", REQUIRED_1_12), ("x_override.tofu", OVER)],
            1,
        ),
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
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
