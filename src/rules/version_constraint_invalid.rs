//! Version constraints that do not parse: `required_version`, `compatible_with.opentofu`,
//! `required_providers.*.version` and module `version`. The tools refuse to load a module with
//! one (where they evaluate it: OpenTofu ≥ 1.12 never reads `required_version` in `.tf` files).

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::source::Span;
use crate::syntax::{Expr, ExprKind};

use crate::lint::helpers::{
    compatible_with_opentofu, constraint_span, parse_constraints, top_level_blocks_of,
};
use crate::lint::targets::OPENTOFU_TOFU_ONLY_REQUIRED_VERSION;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "version_constraint_invalid",
    severity: Error,
    default: On,
    summary: "a version constraint that does not parse",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (file, block) in top_level_blocks_of(ctx, &["terraform", "language", "module"]) {
        match block.kind.as_str() {
            // OpenTofu ≥ 1.12 never evaluates `required_version` in a `.tf` file; a targeted
            // OpenTofu 1.6–1.11 does.
            "terraform" => {
                if let Some(attr) = block.body.attribute("required_version")
                    && (ctx.view == View::Terraform
                        || file.extension.is_tofu()
                        || ctx.targets.lowest() < OPENTOFU_TOFU_ONLY_REQUIRED_VERSION)
                {
                    judge(ctx, &attr.expr, "required_version", out);
                }
                for providers in block.body.blocks_of("required_providers") {
                    for entry in &providers.body.attributes {
                        if let ExprKind::Object(items) = &entry.expr.kind
                            && let Some(version) = items.iter().find(|i| key_is(&i.key, "version"))
                        {
                            judge(
                                ctx,
                                &version.value,
                                &format!("required_providers.{}.version", entry.name),
                                out,
                            );
                        }
                    }
                }
            }
            // Read by OpenTofu 1.12 and later only (older ones refuse the unknown block).
            "language"
                if ctx.view == View::OpenTofu
                    && ctx.targets.newest() >= OPENTOFU_TOFU_ONLY_REQUIRED_VERSION =>
            {
                for attr in compatible_with_opentofu(block) {
                    judge(ctx, &attr.expr, COMPATIBLE_WITH, out);
                }
            }
            "module" => {
                if let Some(attr) = block.body.attribute("version")
                    && !attr.expr.is_null()
                {
                    judge(ctx, &attr.expr, "version", out);
                }
            }
            _ => {}
        }
    }
}

fn key_is(key: &Expr, name: &str) -> bool {
    matches!(&key.kind, ExprKind::Variable(k) | ExprKind::String(k) if k == name)
}

const COMPATIBLE_WITH: &str = "compatible_with.opentofu";

const PRE_RELEASE_NOTE: &str = "`required_version` cannot name a pre-release version: \
                                pre-releases are matched only exactly, which makes the constraint \
                                useless for releases.";

fn judge(ctx: &Context, expr: &Expr, what: &str, out: &mut Vec<Diagnostic>) {
    // The tools evaluate `required_version` with no variables and no functions.
    if what == "required_version"
        && let Some(summary) = not_a_constant(expr)
    {
        out.push(not_constant(ctx, expr.span, summary));
        return;
    }
    match parse_constraints(ctx.files, expr) {
        Some(Err((span, message))) => out.push(invalid_constraint(ctx, span, message, what)),
        // The tools accept no pre-release in `required_version` at all, nor OpenTofu in
        // `compatible_with` (opentofu/opentofu `internal/configs/language.go`,
        // `validateOpenTofuCoreVersionConstraint`).
        Some(Ok(constraints)) if what == "required_version" || what == COMPATIBLE_WITH => {
            if let Some(pre) = constraints.iter().find(|c| c.version.pre.is_some()) {
                let span = constraint_span(ctx.files, expr, pre.range.clone());
                let note = if what == COMPATIBLE_WITH {
                    format!(
                        "Prerelease version constraints are not supported: {}. Remove the \
                         prerelease information from the constraint. Prerelease versions of \
                         OpenTofu will match constraints using their version core only.",
                        pre.version
                    )
                } else {
                    PRE_RELEASE_NOTE.to_string()
                };
                out.push(pre_release_required(ctx, span, note));
            }
        }
        _ => {}
    }
}

/// What evaluating `expr` without variables or functions reports, if it needs either.
fn not_a_constant(expr: &Expr) -> Option<&'static str> {
    match &expr.kind {
        ExprKind::Variable(name) if !matches!(name.as_str(), "null" | "true" | "false") => {
            Some("Variables not allowed")
        }
        ExprKind::Traversal { .. } => Some("Variables not allowed"),
        ExprKind::FunctionCall { .. } => Some("Function calls not allowed"),
        ExprKind::Parenthesis(inner) => not_a_constant(inner),
        _ => None,
    }
}

/// `Variables not allowed` (or `Function calls not allowed`) on a `required_version`.
fn not_constant(ctx: &Context, span: Span, summary: &'static str) -> Diagnostic {
    ctx.finding(&RULE, summary)
        .at(ctx.files, span, "evaluated before anything else is")
        .with_note(
            "`required_version` is read while the module is loaded, before any variable, local \
             value or function exists: it must be a literal string.",
        )
        .with_help("write the constraint as a string, e.g. `\">= 1.6\"`")
}

/// `Invalid required_version constraint`, at a pre-release version.
fn pre_release_required(ctx: &Context, span: Span, note: String) -> Diagnostic {
    ctx.finding(&RULE, "Invalid required_version constraint")
        .at(ctx.files, span, "a pre-release version")
        .with_note(note)
        .with_help("name a release, e.g. `>= 1.8.0`")
}

/// `Invalid version constraint`, at the part that does not parse (`what` names the setting).
fn invalid_constraint(ctx: &Context, span: Span, message: String, what: &str) -> Diagnostic {
    ctx.finding(&RULE, "Invalid version constraint")
        .at(ctx.files, span, message)
        .with_note(format!(
            "`{what}` must be comma-separated constraints, each an operator (`=`, `!=`, `>`, \
             `>=`, `<`, `<=`, `~>`, or none) and a version such as `1.12` or `1.12.0`."
        ))
        .with_help("for example `>= 1.6, < 2.0`")
}

#[cfg(test)]
mod tests {
    use crate::lint::directory::TargetVersions;
    use crate::lint::testing::{
        Files, check_table, findings, findings_targeting, terraform_required_version as required,
        tofu_compatible_with as language,
    };

    const BAD_REQUIRED: &str = required!(">= 1.6, >= one");

    const PASS: &[Files] = &[
        &[(
            "versions.tf",
            "terraform {\n  required_version = \">= 1.6, < 2.0\"\n  required_providers {\n    \
             aws = {\n      source  = \"hashicorp/aws\"\n      version = \"~> 5.0\"\n    }\n  \
             }\n}\n",
        )],
        &[(
            "main.tf",
            "module \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \
             \"5.8.1\"\n}\n",
        )],
    ];
    const FAIL: &[(Files, usize)] = &[
        (&[("versions.tf", BAD_REQUIRED)], 1),
        (
            &[(
                "versions.tf.json",
                concat!(
                    r#"{"terraform": {"required_providers": "#,
                    r#"{"aws": {"source": "hashicorp/aws", "version": "~>"}}}}"#,
                ),
            )],
            1,
        ),
        (
            &[(
                "main.tf",
                "module \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \
                 \"latest\"\n}\n",
            )],
            1,
        ),
        (&[("versions.tofu", language!(">=1.12 <2"))], 1),
        (
            &[(
                "versions.tofu",
                "terraform {\n  required_version = var.tofu_version\n}\n",
            )],
            1,
        ),
        (
            &[(
                "versions.tf",
                "terraform {\n  required_version = trimspace(\"1.6\")\n}\n",
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn a_prerelease_required_version_is_invalid() {
        let found = findings(
            &super::RULE,
            &[("versions.tf", required!(">= 1.8.0-beta1"))],
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].message, "Invalid required_version constraint");
    }

    /// OpenTofu 1.12 refuses a pre-release in `compatible_with` as in `required_version`.
    #[test]
    fn a_prerelease_in_compatible_with_is_invalid() {
        let json = r#"{"language": {"compatible_with": {"opentofu": ">= 1.12.0-rc1"}}}"#;
        for files in [
            &[("versions.tofu", language!(">= 1.12.0-rc1"))][..],
            &[("versions.tofu.json", json)],
        ] {
            let found = findings(&super::RULE, files);
            assert_eq!(found.len(), 1, "{found:?}");
            assert_eq!(found[0].message, "Invalid required_version constraint");
            assert_eq!(found[0].views, crate::diagnostic::Views::OPENTOFU);
            assert!(
                found[0].notes[0].starts_with(
                    "Prerelease version constraints are not supported: 1.12.0-rc1. Remove the \
                     prerelease information from the constraint."
                ),
                "{:?}",
                found[0].notes
            );
        }
    }

    #[test]
    fn points_at_the_bad_part_and_skips_what_opentofu_never_reads() {
        let targeting = |opentofu: &str| {
            let targets = TargetVersions {
                terraform: None,
                opentofu: Some(opentofu.into()),
            };
            findings_targeting(&super::RULE, &[("versions.tf", BAD_REQUIRED)], targets)
        };
        let found = targeting(">= 1.12");
        assert_eq!(found[0].start(), (2, 31));
        assert_eq!(found[0].views, crate::diagnostic::Views::TERRAFORM);
        // OpenTofu 1.6–1.11 evaluate `required_version` in `.tf` files too.
        assert_eq!(
            targeting(">= 1.11")[0].views,
            crate::diagnostic::Views::BOTH
        );
        let by_default = findings(&super::RULE, &[("versions.tf", BAD_REQUIRED)]);
        assert_eq!(by_default[0].views, crate::diagnostic::Views::BOTH);
    }
}
