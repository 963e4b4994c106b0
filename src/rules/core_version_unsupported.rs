//! The tools' own version check (hashicorp/terraform `internal/configs/module.go`,
//! `CheckCoreVersionRequirements`; OpenTofu 1.12 and later `internal/configs/diagnostics.go`,
//! `checkVersionRequirements`): a module whose version constraints exclude every targeted release
//! of the tool does not load there. Terraform says `Unsupported Terraform Core version`, OpenTofu
//! 1.6–1.11 `Unsupported OpenTofu Core version`, OpenTofu 1.12 and later `Incompatible module`, and
//! then drops every other diagnostic of the module (they may only reflect language changes of other
//! releases).

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::releases::Release;
use crate::knowledge::version::{self, VersionSet};
use crate::syntax::Expr;

use crate::lint::targets::{OPENTOFU_TOFU_ONLY_REQUIRED_VERSION, constraints_read_by};
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

/// The constraint that excludes `release` (the first one that does), if any.
fn excluding<'a>(ctx: &'a Context<'a>, release: Release) -> Option<&'a Expr> {
    constraints_read_by(ctx.view, release, ctx.primary, ctx.overrides)
        .into_iter()
        .find(|expr| match expr.literal_string().map(version::parse) {
            Some(Ok(constraints)) => !VersionSet::of(&constraints).overlaps(&release.versions()),
            _ => false,
        })
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
    if !refusals.all(|r| r.is_some()) || contradicts_itself(ctx, release) {
        return;
    }
    out.push(unsupported_core_version(ctx, release, expr));
}

/// Whether the constraints `release` reads admit no version at all, known or not: that is
/// `required_version_conflict`'s finding, which says which constraints disagree.
fn contradicts_itself(ctx: &Context, release: Release) -> bool {
    let constraints = constraints_read_by(ctx.view, release, ctx.primary, ctx.overrides);
    let sets = constraints.iter().filter_map(|expr| {
        let parsed = version::parse(expr.literal_string()?).ok()?;
        Some(VersionSet::of(&parsed))
    });
    sets.fold(VersionSet::all(), |all, set| all.intersect(&set))
        .is_empty()
}

/// Whether OpenTofu drops the view's other findings for this one: it refuses the module as
/// incompatible (1.12 and later) and says nothing else of it.
fn incompatible_module(finding: &Diagnostic) -> bool {
    finding.message == INCOMPATIBLE
}

const INCOMPATIBLE: &str = "Incompatible module";

/// `Unsupported Terraform Core version`, `Unsupported OpenTofu Core version` or `Incompatible
/// module`, on the constraint that excludes the targeted releases.
fn unsupported_core_version(ctx: &Context, release: Release, expr: &Expr) -> Diagnostic {
    let tool = ctx.view.tool_name();
    let to_proceed = TO_PROCEED.replace("{tool}", tool);
    let incompatible = ctx.view == View::OpenTofu && release >= OPENTOFU_TOFU_ONLY_REQUIRED_VERSION;
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
        ));
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
    use crate::lint::directory::{Options, ViewSelection, check_directory};
    use crate::lint::testing::{Files, all_findings_of, findings, settings_of};
    use crate::rules::duplicate_definition;

    /// The core-version findings on a case, as (message, views).
    fn core(files: Files) -> Vec<(String, String)> {
        let found = findings(&super::RULE, files).into_iter();
        found
            .map(|d| (d.message, format!("{:?}", d.views)))
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
        // Constraints that contradict each other: `required_version_conflict` says so.
        let conflict = "terraform {\n  required_version = \"~> 1.9.0\"\n}\n";
        let language = "language {\n  compatible_with {\n    opentofu = \">= 1.12\"\n  }\n}\n";
        assert!(core(&[("v.tofu", conflict), ("l.tofu", language)]).is_empty());
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
        let messages: Vec<&str> = found.iter().map(|d| d.message.as_str()).collect();
        assert!(
            messages.contains(&"Unsupported OpenTofu Core version"),
            "{messages:?}"
        );
        assert_eq!(found.len(), 2, "{messages:?}");
        let core = found.iter().find(|d| d.rule == super::RULE.id());
        let notes = &core.expect("the core-version error").notes;
        assert!(
            notes[0].contains("does not support OpenTofu version 1.8."),
            "{notes:?}"
        );
    }
}
