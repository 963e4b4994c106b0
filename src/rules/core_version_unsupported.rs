//! The tools' own version check (hashicorp/terraform `internal/configs/module.go`,
//! `CheckCoreVersionRequirements`; OpenTofu 1.12 and later `internal/configs/diagnostics.go`,
//! `checkVersionRequirements`): a module whose version constraints exclude every targeted release
//! of the tool does not load there. Terraform says `Unsupported Terraform Core version`, OpenTofu
//! 1.6–1.11 `Unsupported OpenTofu Core version`, OpenTofu 1.12 and later `Incompatible module`, and
//! then drops every other diagnostic of the module (they may only reflect language changes of other
//! releases).
//!
//! Targets are exact releases: `>= 1.11.5` excludes Terraform 1.11 (whose newest release is
//! 1.11.4), and constraints that admit no published release at all (`>= 1.0, < 1.0`) exclude
//! every target. The finding names the newest release that would load the module.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::releases::{self, Release};
use crate::knowledge::version::{self, Version, VersionSet};
use crate::syntax::Expr;

use crate::lint::targets::{
    OPENTOFU_TOFU_ONLY_REQUIRED_VERSION, constraints_enforced_by, newest_release_admitted,
};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "core_version_unsupported",
    kind: LoadError,
    summary: "the module's version constraints exclude every targeted release",
    check: Check::View(RuleViews::Both, check),
    drops_view_findings: incompatible_module,
};

const TO_PROCEED: &str = "To proceed, either choose another supported {tool} version or update \
                          this version constraint. Version constraints are normally set for \
                          good reason, so updating the constraint may lead to other errors or \
                          unexpected behavior.";

/// The constraint by which `release` refuses the module, if its constraints together admit none
/// of its targeted versions: the first that excludes them alone, else the last one.
fn excluding<'a>(ctx: &'a Context<'a>, release: Release) -> Option<&'a Expr> {
    let targeted = ctx.targets.versions_of(release);
    let enforced = constraints_enforced_by(ctx.view, release, ctx.constraint_files());
    let parsed: Vec<(&Expr, VersionSet)> = enforced
        .into_iter()
        .filter_map(|expr| {
            let constraints = version::parse(expr.literal_string()?).ok()?;
            Some((expr, VersionSet::of(&constraints)))
        })
        .collect();
    let admitted = (parsed.iter()).fold(targeted.clone(), |set, (_, one)| set.intersect(one));
    if !admitted.is_empty() {
        return None;
    }
    let alone = parsed.iter().find(|(_, one)| !one.overlaps(&targeted));
    alone.or(parsed.last()).map(|(expr, _)| *expr)
}

/// The core-version error of one view, when every targeted release is excluded, in the words
/// of the lowest targeted release.
fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let mut refusals = ctx
        .targets
        .releases
        .iter()
        .map(|&r| Some((r, excluding(ctx, r)?)));
    let Some(Some((release, expr))) = refusals.next() else {
        return;
    };
    if !refusals.all(|r| r.is_some()) {
        return;
    }
    let newest = newest_release_admitted(ctx.view, ctx.constraint_files());
    out.push(unsupported_core_version(ctx, release, expr, newest));
}

/// Whether OpenTofu drops the view's other findings for this one: it refuses the module as
/// incompatible (1.12 and later) and says nothing else of it.
fn incompatible_module(finding: &Diagnostic) -> bool {
    finding.message == INCOMPATIBLE
}

const INCOMPATIBLE: &str = "Incompatible module";

/// `Unsupported Terraform Core version`, `Unsupported OpenTofu Core version` or `Incompatible
/// module`, on the constraint that excludes the targeted releases.
fn unsupported_core_version(
    ctx: &Context,
    release: Release,
    expr: &Expr,
    newest_admitted: Option<Version>,
) -> Diagnostic {
    let tool = ctx.view.tool_name();
    let to_proceed = TO_PROCEED.replace("{tool}", tool);
    let incompatible = ctx.view == View::OpenTofu && release >= OPENTOFU_TOFU_ONLY_REQUIRED_VERSION;
    // The tools name their own version: the newest targeted release of the line, when it is a
    // published one.
    let targeted = releases::newest_published_in(ctx.view, &ctx.targets.versions_of(release));
    let release = targeted.map_or_else(|| release.to_string(), |v| v.to_string());
    let (summary, detail) = if incompatible {
        (
            INCOMPATIBLE.to_string(),
            format!("This module is not compatible with OpenTofu v{release}. {to_proceed}"),
        )
    } else {
        (
            format!("Unsupported {tool} Core version"),
            format!("This configuration does not support {tool} version {release}. {to_proceed}"),
        )
    };
    let mut d = ctx
        .finding(&RULE, summary)
        .at(
            ctx.files,
            expr.span,
            format!("excludes {}", ctx.targets.describe()),
        )
        .with_note(detail)
        .with_note(format!(
            "Targeted: {} ({}).",
            ctx.targets.describe(),
            ctx.targets.basis_text()
        ))
        .with_note(match newest_admitted {
            Some(version) => {
                format!("The newest {tool} release that would load the module is {version}.")
            }
            None => format!("No published {tool} release satisfies the module's constraints."),
        });
    if incompatible {
        d = d.with_note(
            "OpenTofu then drops every other diagnostic of the module, so none is shown for \
             this view.",
        );
    }
    d
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Views;
    use crate::lint::Rule;
    use crate::lint::directory::TargetVersions;
    use crate::lint::directory::{Options, ViewSelection, check_directory};
    use crate::lint::testing::{
        Files, all_findings_of, findings, findings_targeting, settings_of,
        terraform_required_version as required, tofu_compatible_with,
    };
    use crate::rules::duplicate_definition;

    /// The core-version findings on a case, as (message, views).
    fn core(files: Files) -> Vec<(String, String)> {
        let found = findings(&super::RULE, files).into_iter();
        found
            .map(|d| (d.message.into_owned(), format!("{:?}", d.views)))
            .collect()
    }

    const OLD: &str = "terraform {\n  required_version = \"~> 0.12\"\n}\n";

    #[test]
    fn a_constraint_that_excludes_every_known_release() {
        let found = core(&[("versions.tf", OLD)]);
        // Terraform refuses it; OpenTofu 1.6–1.11 would too, but 1.12 does not read `.tf`.
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "Unsupported Terraform Core version");
        let json = r#"{"terraform": {"required_version": "~> 0.12"}}"#;
        assert_eq!(core(&[("versions.tf.json", json)]).len(), 1);
        let tofu = core(&[("versions.tofu", OLD)]);
        assert_eq!(tofu[0].0, "Incompatible module");
        let language = "language {\n  compatible_with {\n    opentofu = \"< 1.6\"\n  }\n}\n";
        assert_eq!(core(&[("l.tofu", language)])[0].0, "Incompatible module");
        assert!(core(&[("v.tf", "terraform {\n  required_version = \">= 1.2\"\n}\n")]).is_empty());
        // A `.tofu` constraint that contradicts `compatible_with`: OpenTofu 1.12 reads both and
        // refuses the module (`required_version_conflict` also says which constraints disagree).
        let conflict = "terraform {\n  required_version = \"~> 1.9.0\"\n}\n";
        let language = "language {\n  compatible_with {\n    opentofu = \">= 1.12\"\n  }\n}\n";
        let found = core(&[("v.tofu", conflict), ("l.tofu", language)]);
        let messages: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(messages, ["Incompatible module"]);
    }

    /// The findings with both tools' targets set, as (message, views, notes).
    fn targeting(files: Files, terraform: &str, opentofu: &str) -> Vec<(String, String, String)> {
        let targets = TargetVersions {
            terraform: Some(terraform.into()),
            opentofu: Some(opentofu.into()),
        };
        let found = findings_targeting(&super::RULE, files, targets).into_iter();
        found
            .map(|d| {
                (
                    d.message.into_owned(),
                    format!("{:?}", d.views),
                    d.notes.join("\n"),
                )
            })
            .collect()
    }

    /// Targets are exact releases: Terraform 1.11's newest is 1.11.4, so `>= 1.11.5` excludes
    /// the whole line, and OpenTofu 1.12.0 is not admitted by `>= 1.12.1`.
    #[test]
    fn patch_releases_are_judged() {
        let tf = required!(">= 1.11.5");
        for files in [
            &[("versions.tf", tf)][..],
            &[(
                "versions.tf.json",
                r#"{"terraform": {"required_version": ">= 1.11.5"}}"#,
            )],
        ] {
            let found = targeting(files, "~> 1.11.0", ">= 1.12");
            assert_eq!(found.len(), 1, "{found:?}");
            assert_eq!(found[0].0, "Unsupported Terraform Core version");
            // In the words of the newest targeted release, as Terraform 1.11.4 says it.
            let detail = "This configuration does not support Terraform version 1.11.4. To";
            assert!(found[0].2.starts_with(detail), "{found:?}");
            assert!(
                found[0]
                    .2
                    .contains("The newest Terraform release that would load the module is 1.15.9."),
                "{found:?}"
            );
        }
        assert!(targeting(&[("versions.tf", tf)], ">= 1.11", ">= 1.12").is_empty());
        let tofu = required!(">= 1.12.1");
        for files in [
            &[("versions.tofu", tofu)][..],
            &[(
                "versions.tofu.json",
                r#"{"terraform": {"required_version": ">= 1.12.1"}}"#,
            )],
        ] {
            let found = targeting(files, ">= 1.0", "1.12.0");
            assert_eq!(found.len(), 1, "{found:?}");
            assert_eq!(found[0].0, "Incompatible module");
            let detail = "This module is not compatible with OpenTofu v1.12.0.";
            assert!(found[0].2.starts_with(detail), "{found:?}");
            assert!(
                found[0].2.contains("would load the module is 1.12.6."),
                "{found:?}"
            );
        }
    }

    /// Constraints that admit no release at all exclude every target, explicit or derived.
    #[test]
    fn constraints_that_admit_no_release() {
        for constraint in [">= 1.0, < 1.0", ">= 1.12, < 1.12.0", "> 1.11.4, < 1.11.5"] {
            let tf = format!("terraform {{\n  required_version = \"{constraint}\"\n}}\n");
            let json = format!(r#"{{"terraform": {{"required_version": "{constraint}"}}}}"#);
            for files in [
                [("versions.tf", tf.as_str())],
                [("versions.tf.json", json.as_str())],
            ] {
                let found = core(&files);
                assert_eq!(found.len(), 1, "{constraint}: {found:?}");
                assert_eq!(found[0].0, "Unsupported Terraform Core version");
                let found = targeting(&files, "1.11.4", "1.10.0");
                let mut messages: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
                messages.sort_unstable();
                assert_eq!(
                    messages,
                    [
                        "Unsupported OpenTofu Core version",
                        "Unsupported Terraform Core version"
                    ],
                    "{constraint}"
                );
                let notes = |message: &str| {
                    let found = found.iter().find(|f| f.0.starts_with(message));
                    found.map(|f| f.2.clone()).unwrap_or_default()
                };
                assert!(notes("Unsupported Terraform").contains("No published Terraform release"));
                // OpenTofu 1.12 and later do not read a `.tf` file's constraint.
                let opentofu = notes("Unsupported OpenTofu");
                assert!(
                    opentofu.contains("would load the module is 1.12.6."),
                    "{opentofu}"
                );
            }
        }
    }

    /// OpenTofu before 1.12 does not know the `language` block: it never refuses a module by
    /// `compatible_with`.
    #[test]
    fn compatible_with_is_not_enforced_before_opentofu_1_12() {
        let language = tofu_compatible_with!(">= 1.12");
        assert!(targeting(&[("l.tofu", language)], ">= 1.0", "1.11.14").is_empty());
        let found = targeting(&[("l.tofu", language)], ">= 1.0", "~> 1.12.0");
        assert!(found.is_empty(), "{found:?}");
        let old = tofu_compatible_with!("< 1.12");
        let found = targeting(&[("l.tofu", old)], ">= 1.0", "~> 1.12.0");
        assert_eq!(found[0].0, "Incompatible module");
    }

    /// OpenTofu 1.6 and 1.7 read no `.tofu` file, so they check the constraint of the `.tf`
    /// file a `.tofu` twin hides from the later releases.
    #[test]
    fn opentofu_before_1_8_checks_the_tf_twin() {
        let twins: Files = &[
            (
                "versions.tf",
                "terraform {\n  required_version = \">= 1.6\"\n}\n",
            ),
            (
                "versions.tofu",
                "terraform {\n  required_version = \">= 1.8\"\n}\n",
            ),
        ];
        assert!(targeting(twins, ">= 1.0", "~> 1.6.0").is_empty());
        let found = targeting(twins, ">= 1.0", "~> 1.7.0, < 1.8");
        assert!(found.is_empty(), "{found:?}");
        let old: Files = &[
            (
                "versions.tf",
                "terraform {\n  required_version = \">= 1.7\"\n}\n",
            ),
            (
                "versions.tofu",
                "terraform {\n  required_version = \">= 1.6\"\n}\n",
            ),
        ];
        let found = targeting(old, ">= 1.0", "~> 1.6.0");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "Unsupported OpenTofu Core version");
    }

    #[test]
    fn incompatible_module_drops_the_views_other_diagnostics() {
        let duplicate = "variable \"a\" {}\nvariable \"a\" {}\n";
        let files: Files = &[("versions.tofu", OLD), ("main.tofu", duplicate)];
        let rules = [&super::RULE, &duplicate_definition::RULE];
        let found = all_findings_of(&rules, files);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].message, "Incompatible module");
        // Before 1.12 (targeted by the user), OpenTofu reports the other errors too.
        let dir = crate::lint::testing::write_files(files);
        let mut options = Options::new(ViewSelection::OpenTofu, settings_of(&rules));
        options.target_versions.opentofu = Some("1.8".into());
        let found = check_directory(dir.path(), &options).diagnostics;
        let messages: Vec<&str> = found.iter().map(|d| &*d.message).collect();
        assert!(
            messages.contains(&"Unsupported OpenTofu Core version"),
            "{messages:?}"
        );
        assert_eq!(found.len(), 2, "{messages:?}");
        let core = found.iter().find(|d| d.rule == super::RULE.id());
        let notes = &core.expect("the core-version error").notes;
        assert!(
            notes[0].contains("does not support OpenTofu version 1.8.0. To proceed"),
            "{notes:?}"
        );
    }

    /// A file both views load holds a finding of its own, found once and in both views at
    /// once: OpenTofu's `Incompatible module` drops it from OpenTofu's view only, and it stays
    /// in Terraform's.
    #[test]
    fn incompatible_module_leaves_a_shared_files_finding_to_the_other_view() {
        let files: Files = &[
            ("versions.tofu", OLD),
            ("main.tf", "locals {\n  a = 1\n  a = 2\n}\n"),
        ];
        let rules = [&super::RULE, &duplicate_definition::RULE];
        let found = all_findings_of(&rules, files);
        let views = |rule: &Rule| -> Vec<Views> {
            (found.iter().filter(|d| d.rule == rule.id()))
                .map(|d| d.views)
                .collect()
        };
        assert_eq!(views(&duplicate_definition::RULE), [Views::TERRAFORM]);
        assert_eq!(views(&super::RULE), [Views::OPENTOFU]);
    }
}
