//! A call with `count`, `for_each` or `depends_on` (and, in OpenTofu 1.12 and later, `enabled`)
//! to a module that configures a provider itself, or calls one that does at any depth: a
//! "legacy module", whose provider configurations belong to its one instance. Both tools refuse
//! it in `internal/configs/provider_validation.go` (`validateProviderConfigs`), at the first of
//! the call's meta-arguments in this order: `count`, `for_each`, `enabled` (OpenTofu 1.12),
//! the first reference of `depends_on` (an empty `depends_on` is none).
//!
//! The texts per release:
//! - Terraform 1.0–1.1: `Module module.NAME contains provider configuration`, "Providers cannot
//!   be configured within modules using count, for_each or depends_on." (no location; we give
//!   the meta-argument's);
//! - Terraform 1.2 and later, OpenTofu 1.6–1.11: `Module is incompatible with count, for_each,
//!   and depends_on`;
//! - OpenTofu 1.12 and later: `Module is incompatible with count, for_each, enabled and
//!   depends_on` (TO-CL 1.12.0, #3680), which also refuses `enabled`: where only some targeted
//!   releases refuse a call for its `enabled`, that is `feature_newer_than_target`'s.
//!
//! Judged for local sources, whose files we can read (as `module_local_source_missing`
//! resolves them); the files of a registry or remote module are not at hand.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::releases::Release;
use crate::source::Span;

use crate::lint::helpers::legacy_module::{FIRST_REFUSING, LegacyCall, legacy_calls};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "legacy_module_meta_argument",
    kind: LoadError,
    summary: "count, for_each, depends_on or enabled in a call to a module that \
              configures providers",
    check: Check::View(RuleViews::Both, check),
};

/// The first Terraform release with today's summary (TF@v1.2.0 `provider_validation.go`).
const TERRAFORM_INCOMPATIBLE_SUMMARY: Release = Release::new(1, 2);

/// The tools' summary and detail in `release` of `view`, the detail's paragraphs one note
/// each (a note is one line in every format: a newline in one is escaped).
fn texts(view: View, release: Release, call: &LegacyCall) -> (String, Vec<String>) {
    let path = call.path();
    let control = format!(
        "If you also control the module \"{}\", consider updating this module to instead \
         expect provider configurations to be passed by its caller.",
        call.legacy_source()
    );
    match view {
        View::Terraform if release < TERRAFORM_INCOMPATIBLE_SUMMARY => (
            format!("Module {path} contains provider configuration"),
            vec![
                "Providers cannot be configured within modules using count, for_each or \
                 depends_on."
                    .to_string(),
            ],
        ),
        View::OpenTofu if release >= FIRST_REFUSING => (
            "Module is incompatible with count, for_each, enabled and depends_on".to_string(),
            vec![
                format!(
                    "The module at {path} is a legacy module which contains its own local \
                     provider configurations, and so calls to it may not use the count, \
                     for_each, enabled or depends_on arguments."
                ),
                control,
            ],
        ),
        _ => (
            "Module is incompatible with count, for_each, and depends_on".to_string(),
            vec![
                format!(
                    "The module at {path} is a legacy module which contains its own local \
                     provider configurations, and so calls to it may not use the count, \
                     for_each, or depends_on arguments."
                ),
                control,
            ],
        ),
    }
}

/// The calls every targeted release refuses, with the newest one's texts.
fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(&newest) = ctx.targets.releases.last() else {
        return;
    };
    let calls = legacy_calls(ctx);
    let refused = calls.iter().filter(|call| {
        (ctx.targets.releases.iter()).all(|&r| call.refused_for(ctx.view, r).is_some())
    });
    for call in refused {
        if let Some((argument, span)) = call.refused_for(ctx.view, newest) {
            out.push(legacy_module_meta_argument(
                ctx, newest, call, argument, span,
            ));
        }
    }
}

/// The tools' summary for `release`, at the meta-argument it refuses the call for.
fn legacy_module_meta_argument(
    ctx: &Context,
    release: Release,
    call: &LegacyCall,
    argument: &str,
    span: Span,
) -> Diagnostic {
    let (summary, detail) = texts(ctx.view, release, call);
    let provider = &call.legacy.provider;
    let finding =
        (ctx.finding(&RULE, summary)).at(ctx.files, span, format!("`{argument}` set here"));
    (detail.into_iter().fold(finding, Diagnostic::with_note))
        .with_note(where_configured(call))
        .with_help(format!(
            "configure the provider in the calling module and pass it in with `providers`, \
             removing `provider \"{provider}\"` from the module, or drop `{argument}`"
        ))
}

/// Which module configures which provider, when it is not the called module itself.
fn where_configured(call: &LegacyCall) -> String {
    let provider = &call.legacy.provider;
    match call.legacy.calls.last() {
        None => format!(
            "`{}` configures `provider \"{provider}\"` itself.",
            call.source
        ),
        Some(_) => format!(
            "`{}` calls `{}`, which configures `provider \"{provider}\"` itself.",
            call.source,
            call.legacy_source()
        ),
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::directory::TargetVersions;
    use crate::lint::testing::{Files, findings_targeting};

    const CALL: &str = "module \"child\" {\n  source = \"./child\"\n\n  lifecycle {\n    \
                        enabled = var.on\n  }\n}\nvariable \"on\" {\n  type = bool\n}\n";
    const LEGACY: &str = "provider \"aws\" {\n  region = \"eu-west-1\"\n}\n";
    const TERRAFORM: &str = "Module is incompatible with count, for_each, and depends_on";
    const OPENTOFU_1_12: &str =
        "Module is incompatible with count, for_each, enabled and depends_on";

    fn errors(files: Files, opentofu: &str) -> Vec<crate::diagnostic::Diagnostic> {
        targeting(files, None, Some(opentofu))
    }

    fn targeting(
        files: Files,
        terraform: Option<&str>,
        opentofu: Option<&str>,
    ) -> Vec<crate::diagnostic::Diagnostic> {
        let targets = TargetVersions {
            terraform: terraform.map(Into::into),
            opentofu: opentofu.map(Into::into),
        };
        findings_targeting(&super::RULE, files, targets)
    }

    #[test]
    fn enabled_is_refused_from_opentofu_1_12() {
        let files: Files = &[("main.tf", CALL), ("child/main.tf", LEGACY)];
        let found = errors(files, ">= 1.12");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].message, OPENTOFU_1_12);
        assert_eq!(found[0].start(), (5, 15)); // the expression, as OpenTofu gives it
        assert!(!found[0].views.terraform);
        let json = r#"{"provider": {"aws": {"region": "eu-west-1"}}}"#;
        let in_json: Files = &[("main.tf", CALL), ("child/main.tf.json", json)];
        assert_eq!(errors(in_json, ">= 1.12").len(), 1);
        // 1.11 accepts it: the warning's (`feature_newer_than_target`), not an error.
        assert!(errors(files, ">= 1.11").is_empty());
    }

    #[test]
    fn a_module_taking_its_providers_from_the_caller_is_fine() {
        let proxies = [
            "provider \"aws\" {\n  alias = \"east\"\n}\n",
            "provider \"aws\" {}\n",
            "provider \"aws\" {\n  alias = \"east\"\n  _ {}\n}\n",
            "terraform {\n  required_providers {\n    aws = {\n      source = \"hashicorp/aws\"\n\
             \x20     configuration_aliases = [aws.east]\n    }\n  }\n}\n",
            "resource \"terraform_data\" \"a\" {}\n",
        ];
        let count = "module \"child\" {\n  source = \"./child\"\n  count  = 2\n}\n";
        for child in proxies {
            let files: Files = &[("main.tf", count), ("child/main.tf", child)];
            assert!(targeting(files, None, None).is_empty(), "{child}");
        }
        let without = "module \"child\" {\n  source     = \"./child\"\n  depends_on = []\n}\n";
        let files: Files = &[("main.tf", without), ("child/main.tf", LEGACY)];
        assert!(targeting(files, None, None).is_empty());
    }

    /// Both tools refuse `count`, `for_each` and `depends_on` in every release, at the first
    /// of them, in a call to a module that configures a provider or calls one that does.
    #[test]
    fn count_for_each_and_depends_on_are_always_refused() {
        let calls = [
            (
                "module \"child\" {\n  source = \"./child\"\n  count  = 2\n}\n",
                (3, 12),
            ),
            (
                "module \"child\" {\n  source   = \"./child\"\n  for_each = toset([\"a\"])\n  \
                 depends_on = [terraform_data.a]\n}\nresource \"terraform_data\" \"a\" {}\n",
                (3, 14),
            ),
            (
                "module \"child\" {\n  source     = \"./child\"\n  depends_on = \
                 [terraform_data.a]\n}\nresource \"terraform_data\" \"a\" {}\n",
                (3, 17),
            ),
        ];
        let configured = [
            LEGACY,
            "provider \"aws\" {\n  alias  = \"east\"\n  region = \"us-east-1\"\n}\n",
            "provider \"aws\" {\n  version = \"~> 5.0\"\n}\n",
            "provider \"aws\" {\n  assume_role {}\n}\n",
        ];
        for (call, start) in calls {
            for child in configured {
                let files: Files = &[("main.tf", call), ("child/main.tf", child)];
                let found = targeting(files, None, None);
                // One per view: OpenTofu 1.12 words it with `enabled`.
                assert_eq!(found.len(), 2, "{call}{child}{found:#?}");
                assert!(found.iter().all(|d| d.start() == start), "{call}");
                let messages: Vec<&str> = found.iter().map(|d| &*d.message).collect();
                assert!(messages.contains(&TERRAFORM), "{messages:?}");
                assert!(messages.contains(&OPENTOFU_1_12), "{messages:?}");
            }
        }
        // JSON on both sides; the provider configured two modules down.
        let call = r#"{"module": {"child": {"source": "./child", "count": 2}}}"#;
        let middle = r#"{"module": {"grandchild": {"source": "../grandchild"}}}"#;
        let grandchild = r#"{"provider": {"aws": {"region": "eu-west-1"}}}"#;
        let files: Files = &[
            ("main.tf.json", call),
            ("child/main.tf.json", middle),
            ("grandchild/main.tf.json", grandchild),
        ];
        let found = targeting(files, Some(">= 1.2"), Some("~> 1.11.0"));
        assert_eq!(found.len(), 1, "{found:#?}"); // the same texts: one finding
        assert_eq!(found[0].start(), (1, 53));
        assert!(
            found[0].notes[0]
                .starts_with("The module at module.child.module.grandchild is a legacy module")
        );
        assert!(found[0].notes[1].contains("the module \"../grandchild\""));
    }

    #[test]
    fn texts_per_release() {
        let count = "module \"child\" {\n  source = \"./child\"\n  count  = 2\n}\n";
        let files: Files = &[("main.tf", count), ("child/main.tf", LEGACY)];
        let old = targeting(files, Some("~> 1.1.0"), Some("~> 1.6.0"));
        let messages: Vec<&str> = old.iter().map(|d| &*d.message).collect();
        assert!(messages.contains(&"Module module.child contains provider configuration"));
        assert!(messages.contains(&TERRAFORM));
        let new = targeting(files, Some(">= 1.2"), Some(">= 1.12"));
        let messages: Vec<&str> = new.iter().map(|d| &*d.message).collect();
        assert!(messages.contains(&TERRAFORM));
        assert!(messages.contains(&OPENTOFU_1_12));
    }

    #[test]
    fn loops_and_remote_sources_end() {
        let count = "module \"child\" {\n  source = \"./child\"\n  count  = 2\n}\n";
        let looping = "module \"back\" {\n  source = \"../child\"\n}\n";
        let files: Files = &[("main.tf", count), ("child/main.tf", looping)];
        assert!(targeting(files, None, None).is_empty());
        let remote = "module \"vpc\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n  \
                      count  = 2\n}\n";
        assert!(targeting(&[("main.tf", remote)], None, None).is_empty());
    }
}
