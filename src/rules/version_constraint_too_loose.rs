//! A version constraint that admits releases which cannot load the module: `required_version =
//! ">= 1.5"` on a module that calls `templatestring` (Terraform 1.9 and later) lets Terraform
//! 1.5–1.8 past the version check, and their users get a load error about the function
//! instead of the version check's clear "Unsupported Terraform Core version". The constraint
//! is weighed against the constructs the release tables date, in the releases it admits (the
//! default targets: the module's own constraints); `tflint-merge compat` weighs every load
//! error, release by release.
//!
//! The fix (unsafe: it changes which releases accept the module) writes the narrowest honest
//! constraint: the lower bound raised to the oldest admitted release line that loads the
//! module, other bounds kept. In the OpenTofu view, a `.tf` file's constraint is also
//! Terraform's (OpenTofu 1.6–1.11 read it and compare it with their own version), so it is
//! reported without a fix: raising it would also change what Terraform accepts.

use std::collections::BTreeMap;

use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::knowledge::View;
use crate::knowledge::releases::Release;
use crate::knowledge::version::{self, Version};
use crate::lint::helpers::dated::{describe, refusing_releases};
use crate::lint::targets::{Basis, constraints_targeting, range_text};
use crate::syntax::Expr;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "version_constraint_too_loose",
    severity: Warning,
    default: On,
    summary: "a version constraint that admits releases which cannot load the module",
    check: Check::View(RuleViews::Both, check),
};

/// What the releases that the constraint admits make of the module.
struct Verdict {
    /// The admitted releases that refuse it, each with the constructs it refuses.
    refusing: Vec<(Release, Vec<String>)>,
    /// The oldest admitted release line that loads it.
    loading_from: Release,
    /// The first release line after `loading_from` that refuses it again (a construct newer
    /// releases removed), if any.
    loading_until: Option<Release>,
    /// Whether every release line the constraint admits from `loading_until` on refuses it:
    /// the releases that load it are then one range.
    one_range: bool,
}

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    // With targets set by the user, what they target is not what the constraint admits.
    if ctx.targets.basis != Basis::Module {
        return;
    }
    let Some(verdict) = verdict(ctx) else {
        return;
    };
    let oldest_refusing = verdict.refusing[0].0;
    let enforced = constraints_targeting(ctx.view, oldest_refusing, ctx.constraint_files());
    let Some(&first) = enforced.first() else {
        return;
    };
    let fixable = enforced.len() == 1 && fix_allowed(ctx, first);
    out.push(too_loose(ctx, first, &verdict, fixable));
}

/// The releases the module targets that refuse it, and the range that loads it; `None` when
/// every one loads it, or none does (every targeted release then refuses a construct, which
/// is an error of its own).
fn verdict(ctx: &Context) -> Option<Verdict> {
    let mut refused = refusing_releases(ctx);
    refused_in_children(ctx, &mut refused);
    if refused.is_empty() {
        return None;
    }
    let targeted = &ctx.targets.releases;
    let loading_from = targeted
        .iter()
        .copied()
        .find(|r| !refused.contains_key(r))?;
    let loading_until = refused.keys().copied().find(|&r| r > loading_from);
    let one_range = loading_until
        .is_none_or(|until| (targeted.iter()).all(|r| *r < until || refused.contains_key(r)));
    Some(Verdict {
        refusing: refused.into_iter().collect(),
        loading_from,
        loading_until,
        one_range,
    })
}

/// Adds the targeted releases that refuse a dated construct of a local module the directory
/// calls, however deep: the tools load the whole tree (hashicorp/terraform
/// `internal/configs/config_build.go`, `BuildConfig`), so such a release cannot load this
/// module either. The child's constructs come from the summaries its callers already read.
fn refused_in_children(ctx: &Context, refused: &mut BTreeMap<Release, Vec<String>>) {
    let files = (ctx.primary.iter().chain(ctx.overrides)).map(|loaded| loaded.file);
    for (place, name) in (ctx.neighbours).dated_in_children(ctx.dir, ctx.view, files) {
        let what = format!("{} in a local module", describe(place, &name));
        for release in ctx.targets.refusing(place, &name) {
            let list = refused.entry(release).or_default();
            if !list.contains(&what) {
                list.push(what.clone());
            }
        }
    }
}

/// Whether the fix may rewrite `constraint`: a literal string that parses, and in the OpenTofu
/// view one that only OpenTofu reads (in a `.tofu` file, or `compatible_with`).
fn fix_allowed(ctx: &Context, constraint: &Expr) -> bool {
    let Some(Ok(_)) = constraint.literal_string().map(version::parse) else {
        return false;
    };
    let name = ctx.files.get(constraint.span.file).file_name();
    ctx.view == View::Terraform
        || name.ends_with(".tofu")
        || name.ends_with(".tofu.json")
        || is_compatible_with(ctx, constraint)
}

/// Whether `constraint` is a `language { compatible_with { opentofu = ... } }` value.
fn is_compatible_with(ctx: &Context, constraint: &Expr) -> bool {
    crate::lint::helpers::language_blocks(ctx)
        .flat_map(|(_, language)| crate::lint::helpers::compatible_with_opentofu(language))
        .any(|a| std::ptr::eq(&a.expr, constraint))
}

/// The narrowest constraint admitting what `written` admits and loads the module; `None` when
/// the releases that load it are not one range.
fn honest(written: &str, verdict: &Verdict) -> Option<String> {
    if !verdict.one_range {
        return None;
    }
    let older_refuse = verdict
        .refusing
        .iter()
        .any(|(r, _)| *r < verdict.loading_from);
    let mut text = match older_refuse {
        true => version::with_lower_bound(written, &line_start(verdict.loading_from)),
        false => written.to_string(),
    };
    if let Some(until) = verdict.loading_until {
        text.push_str(&format!(", < {}", line_start(until)));
    }
    Some(text)
}

fn line_start(release: Release) -> Version {
    Version::new(release.major.into(), release.minor.into(), 0)
}

/// `` `>= 1.5` admits Terraform 1.5–1.8, which cannot load the module ``
fn too_loose(ctx: &Context, constraint: &Expr, verdict: &Verdict, fixable: bool) -> Diagnostic {
    let tool = ctx.view.tool_name();
    let written = constraint.literal_string().unwrap_or_default();
    let releases: Vec<Release> = verdict.refusing.iter().map(|(r, _)| *r).collect();
    let ranges = range_text(&releases);
    let mut d = ctx
        .finding(
            &RULE,
            format!("`{written}` admits {tool} {ranges}, which cannot load the module"),
        )
        .at(
            ctx.files,
            constraint.span,
            format!("admits {tool} {ranges}"),
        );
    // One line per construct, with the releases that refuse it.
    let mut constructs: Vec<(&str, Vec<Release>)> = Vec::new();
    for (release, refused) in &verdict.refusing {
        for what in refused {
            match constructs.iter_mut().find(|(w, _)| w == what) {
                Some((_, releases)) => releases.push(*release),
                None => constructs.push((what, vec![*release])),
            }
        }
    }
    let reasons: Vec<String> = (constructs.iter())
        .map(|(what, releases)| {
            let verb = if releases.len() == 1 {
                "refuses"
            } else {
                "refuse"
            };
            format!("{tool} {} {verb} {what}", range_text(releases))
        })
        .collect();
    d = d.with_note(format!(
        "{}. Their users get a load error rather than the version check's \"Unsupported {tool} \
         Core version\".",
        reasons.join("; ")
    ));
    let Some(honest) = honest(written, verdict) else {
        return d.with_help("narrow the constraint to the releases that load the module");
    };
    if !fixable {
        let help = match ctx.view {
            View::OpenTofu => format!(
                "Terraform reads this constraint too: raise it, or state OpenTofu's own \
                 (`{honest}`) in a `.tofu` file, which OpenTofu 1.8 and later read instead of \
                 the `.tf` file of the same name"
            ),
            View::Terraform => format!("require `{honest}`"),
        };
        return d.with_help(help);
    }
    let file = ctx.files.get(constraint.span.file);
    let fix = Fix::new(format!("Require `{honest}`"), Applicability::Unsafe).edit(
        &file.path,
        constraint.span.range(),
        format!("\"{honest}\""),
    );
    d.with_help(format!("require `{honest}`")).with_fix(fix)
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::fix::FileOperation;
    use crate::lint::testing::{Files, check_table, findings, only};

    const TEMPLATESTRING: &str = "locals {\n  t = templatestring(\"x\", {})\n}\n";

    const PASS: &[Files] = &[
        // The constraint admits only releases that have the function.
        &[(
            "main.tf",
            "terraform {\n  required_version = \">= 1.9\"\n}\nlocals {\n  t = \
             templatestring(\"x\", {})\n}\n",
        )],
        // No constraint: nothing to judge.
        &[("main.tf", TEMPLATESTRING)],
        // Every construct is in every admitted release.
        &[(
            "main.tf",
            "terraform {\n  required_version = \">= 1.5\"\n}\nlocals {\n  t = upper(\"x\")\n}\n",
        )],
    ];

    // One finding per tool: OpenTofu 1.6, which reads a `.tf` file's constraint, lacks the
    // function too.
    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf",
                "terraform {\n  required_version = \">= 1.5\"\n}\nlocals {\n  t = \
                 templatestring(\"x\", {})\n}\n",
            )],
            2,
        ),
        (
            &[(
                "main.tf.json",
                r#"{"terraform": {"required_version": ">= 1.5"}, "locals": {"t": "${templatestring(\"x\", {})}"}}"#,
            )],
            2,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// The finding of one tool's view.
    fn of_tool(files: Files, tool: &str) -> crate::diagnostic::Diagnostic {
        let found = findings(&super::RULE, files);
        only(
            found
                .into_iter()
                .filter(|d| d.message.contains(tool))
                .collect(),
        )
    }

    fn replacement(files: Files, tool: &str) -> String {
        let found = of_tool(files, tool);
        let fix = found.fix.expect("a fix");
        assert_eq!(fix.applicability, crate::diagnostic::Applicability::Unsafe);
        assert!(
            fix.operations
                .iter()
                .all(|o| !matches!(o, FileOperation::Delete { .. }))
        );
        fix.edits[0].replacement.clone()
    }

    /// Terraform 1.9 brought `templatestring`: 1.5–1.8 refuse the module ("Call to unknown
    /// function" from Terraform 1.6.6, 1.9.8 loads it).
    #[test]
    fn the_fix_raises_the_lower_bound_to_the_oldest_release_that_loads_the_module() {
        let native: Files = &[(
            "main.tf",
            "terraform {\n  required_version = \">= 1.5, < 2.0\"\n}\nlocals {\n  t = \
             templatestring(\"x\", {})\n}\n",
        )];
        assert_eq!(replacement(native, "Terraform"), "\">= 1.9.0, < 2.0\"");
        let found = of_tool(native, "Terraform");
        assert_eq!(
            found.message,
            "`>= 1.5, < 2.0` admits Terraform 1.5–1.8, which cannot load the module"
        );
        let pessimistic: Files = &[(
            "main.tf",
            "terraform {\n  required_version = \"~> 1.5\"\n}\nlocals {\n  t = \
             templatestring(\"x\", {})\n}\n",
        )];
        assert_eq!(
            replacement(pessimistic, "Terraform"),
            "\">= 1.9.0, < 2.0.0\""
        );
    }

    /// Terraform 1.3 removed `defaults`: the releases that load the module end before it.
    #[test]
    fn a_removed_construct_gives_an_upper_bound() {
        let files: Files = &[(
            "main.tf",
            "terraform {\n  required_version = \">= 1.0\"\n}\nlocals {\n  d = defaults({},              {})\n}\n",
        )];
        assert_eq!(replacement(files, "Terraform"), "\">= 1.0, < 1.3.0\"");
    }

    /// OpenTofu 1.7 brought `templatestring`; OpenTofu 1.6 reads a `.tf` file's constraint,
    /// which is Terraform's too: reported, not rewritten.
    /// The tools load the whole tree: a construct of a local module, however deep, counts.
    #[test]
    fn local_child_modules_count() {
        let files: Files = &[
            (
                "main.tf",
                "terraform {\n  required_version = \">= 1.5\"\n}\nmodule \"c\" {\n  source = \
                 \"./child\"\n}\n",
            ),
            (
                "child/main.tf",
                "module \"g\" {\n  source = \"./grand\"\n}\n",
            ),
            ("child/grand/main.tf", "locals {\n  t = \"x\"\n}\n"),
            // An override file of the grandchild: its constructs are read too.
            (
                "child/grand/main_override.tf",
                "locals {\n  t = templatestring(\"x\", {})\n}\n",
            ),
        ];
        let found = findings(&super::RULE, files);
        let terraform: Vec<_> = (found.iter())
            .filter(|d| d.message.contains("Terraform"))
            .collect();
        assert_eq!(terraform.len(), 1, "{found:#?}");
        assert_eq!(
            terraform[0].message,
            "`>= 1.5` admits Terraform 1.5–1.8, which cannot load the module"
        );
        assert!(
            (terraform[0].notes[0]).contains("the `templatestring` function in a local module"),
            "{:?}",
            terraform[0].notes
        );
        assert_eq!(replacement(files, "Terraform"), "\">= 1.9.0\"");
    }

    #[test]
    fn opentofu_reading_a_tf_constraint_gets_no_rewrite() {
        let files: Files = &[(
            "main.tf",
            "terraform {\n  required_version = \">= 1.6\"\n}\nlocals {\n  t = \
             templatestring(\"x\", {})\n}\n",
        )];
        let found = findings(&super::RULE, files);
        let opentofu: Vec<_> = found
            .iter()
            .filter(|d| d.message.contains("OpenTofu"))
            .collect();
        assert_eq!(opentofu.len(), 1, "{found:#?}");
        assert_eq!(
            opentofu[0].message,
            "`>= 1.6` admits OpenTofu 1.6, which cannot load the module"
        );
        assert!(opentofu[0].fix.is_none());
        // In a `.tofu` file the constraint is OpenTofu's alone, and the fix rewrites it.
        let tofu: Files = &[(
            "main.tofu",
            "terraform {\n  required_version = \">= 1.6\"\n}\nlocals {\n  t = \
             templatestring(\"x\", {})\n}\n",
        )];
        assert_eq!(replacement(tofu, "OpenTofu"), "\">= 1.7.0\"");
    }
}
