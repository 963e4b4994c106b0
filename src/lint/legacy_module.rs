//! A call with `lifecycle { enabled }` to a module that configures providers itself (a "legacy
//! module"): OpenTofu 1.12 and later refuse it, as they refuse `count`, `for_each` and
//! `depends_on` there, with `Module is incompatible with count, for_each, enabled and
//! depends_on` (TO-CL 1.12.0, #3680); OpenTofu 1.11 accepts it. Judged for local sources, whose
//! files we can read, in the OpenTofu view: an error when every targeted release refuses it,
//! else `feature_newer_than_target`.

use crate::diagnostic::{Diagnostic, ids};
use crate::knowledge::View;
use crate::knowledge::module_source::{self, SourceKind};
use crate::knowledge::releases::Release;
use crate::module::merge::{Address, MergedAttribute};

use super::Context;

/// The first OpenTofu release that refuses `enabled` in a call to a legacy module.
pub(crate) const FIRST_REFUSING: Release = Release::new(1, 12);

/// OpenTofu's summary from 1.12 on.
const SUMMARY: &str = "Module is incompatible with count, for_each, enabled and depends_on";

/// A module call with `enabled` whose local module configures a provider itself.
pub(crate) struct EnabledLegacyCall<'a> {
    pub(crate) enabled: &'a MergedAttribute,
    pub(crate) source: &'a str,
    /// The provider configuration the called module holds (its local name).
    pub(crate) provider: String,
}

/// The module calls of the OpenTofu view with `enabled` and a local source that configures
/// providers.
pub(crate) fn enabled_legacy_calls<'a>(ctx: &'a Context) -> Vec<EnabledLegacyCall<'a>> {
    if ctx.view != View::OpenTofu {
        return Vec::new();
    }
    let calls = ctx
        .module
        .objects
        .iter()
        .filter(|object| matches!(object.address, Address::ModuleCall(_)));
    calls
        .filter_map(|object| {
            let enabled =
                (object.body.blocks_of("lifecycle")).find_map(|l| l.body.attribute("enabled"))?;
            let source = object.body.attribute("source")?.expr.literal_string()?;
            if module_source::classify(source) != SourceKind::Local {
                return None;
            }
            let dir = ctx.dir.join(source);
            let provider = ctx.neighbours.configured_provider(&dir, ctx.view)?;
            Some(EnabledLegacyCall {
                enabled,
                source,
                provider,
            })
        })
        .collect()
}

/// The note both findings give.
pub(crate) fn why(call: &EnabledLegacyCall) -> String {
    format!(
        "The module at `{}` is a legacy module which contains its own local provider \
         configurations (`provider \"{}\"`), and so calls to it may not use the count, \
         for_each, enabled or depends_on arguments (OpenTofu 1.12 and later; 1.11 accepts \
         `enabled`).",
        call.source, call.provider
    )
}

/// `Module is incompatible with count, for_each, enabled and depends_on`, at `enabled`, when
/// every targeted OpenTofu release refuses it.
pub(crate) fn check(ctx: &Context) -> Vec<Diagnostic> {
    if ctx.targets.releases.iter().any(|&r| r < FIRST_REFUSING) {
        return Vec::new();
    }
    enabled_legacy_calls(ctx)
        .iter()
        .map(|call| {
            Diagnostic::error(ids::LEGACY_MODULE_META_ARGUMENT, SUMMARY)
                .at(ctx.files, call.enabled.span(), "`enabled` set here")
                .with_note(why(call))
                .with_help(format!(
                    "pass the provider configuration in with `providers` and remove \
                     `provider \"{}\"` from the module, or drop `enabled`",
                    call.provider
                ))
                .in_views(ctx.view.views())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::ids;
    use crate::lint::directory::TargetVersions;
    use crate::lint::testing::{Files, findings_targeting_id};

    const CALL: &str = "module \"child\" {\n  source = \"./child\"\n\n  lifecycle {\n    \
                        enabled = var.on\n  }\n}\nvariable \"on\" {\n  type = bool\n}\n";
    const LEGACY: &str = "provider \"aws\" {\n  region = \"eu-west-1\"\n}\n";

    fn errors(files: Files, opentofu: &str) -> Vec<crate::diagnostic::Diagnostic> {
        let targets = TargetVersions {
            terraform: None,
            opentofu: Some(opentofu.into()),
        };
        findings_targeting_id(ids::LEGACY_MODULE_META_ARGUMENT, files, targets)
    }

    #[test]
    fn refused_from_opentofu_1_12() {
        let files: Files = &[("main.tf", CALL), ("child/main.tf", LEGACY)];
        let found = errors(files, ">= 1.12");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].message, super::SUMMARY);
        assert_eq!(found[0].start(), (5, 5));
        assert!(!found[0].views.terraform);
        let json = r#"{"provider": {"aws": {"region": "eu-west-1"}}}"#;
        let in_json: Files = &[("main.tf", CALL), ("child/main.tf.json", json)];
        assert_eq!(errors(in_json, ">= 1.12").len(), 1);
        // 1.11 accepts it: the warning's (`feature_newer_than_target`), not an error.
        assert!(errors(files, ">= 1.11").is_empty());
    }

    #[test]
    fn a_module_taking_its_providers_from_the_caller_is_fine() {
        let proxy = "provider \"aws\" {\n  alias = \"east\"\n}\n";
        let resource = "resource \"terraform_data\" \"a\" {}\n";
        for child in [proxy, resource] {
            let files: Files = &[("main.tf", CALL), ("child/main.tf", child)];
            assert!(errors(files, ">= 1.12").is_empty(), "{child}");
        }
        let without_enabled = "module \"child\" {\n  source = \"./child\"\n}\n";
        let files: Files = &[("main.tf", without_enabled), ("child/main.tf", LEGACY)];
        assert!(errors(files, ">= 1.12").is_empty());
    }
}
