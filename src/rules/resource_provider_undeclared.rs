//! A resource, data source or ephemeral resource whose `provider` names an aliased provider
//! configuration, `NAME.ALIAS`, that the module does not have: no `provider "NAME"` block with
//! `alias = "ALIAS"` (override files merged) and no `NAME.ALIAS` among the
//! `configuration_aliases` its callers pass in. While building its graph, `validate` finds no
//! configuration for the object and refuses it, once per object and without a place
//! (hashicorp/terraform `internal/terraform/transform_provider.go`, `ProviderTransformer`:
//! "Provider configuration not present"), then evaluates nothing. A default configuration
//! (`provider = aws`) is not judged: the tools imply one.
//!
//! Where the module has `configuration_aliases` for the name, `validate` run on the module as a
//! root still refuses the object (nothing passes the configuration in); such a module is meant
//! to be called, and its callers are judged instead (`module_provider_alias_missing`).

use crate::diagnostic::Diagnostic;
use crate::module::merge::{Address, MergedAttribute};

use crate::lint::helpers::provider_reference::provider_reference;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};
use crate::rules::module_provider_undeclared::{declares, provider_address};

pub(crate) const RULE: Rule = declare_rule! {
    id: "resource_provider_undeclared",
    kind: Validate,
    summary: "a resource's `provider` naming a provider configuration the module does not declare",
    check: Check::View(RuleViews::Both, check),
};

/// The tools' summary.
const SUMMARY: &str = "Provider configuration not present";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for object in &ctx.module.objects {
        let Address::Resource(mode, kind, name) = &object.address else {
            continue;
        };
        if !matches!(mode.as_str(), "resource" | "data" | "ephemeral") {
            continue;
        }
        let Some(provider) = object.body.attribute("provider") else {
            continue;
        };
        let Some((local, Some(alias))) = provider_reference(&provider.expr) else {
            continue;
        };
        if !declares(ctx.module, local, alias) {
            let address = match mode.as_str() {
                "resource" => format!("{kind}.{name}"),
                _ => format!("{mode}.{kind}.{name}"),
            };
            out.push(not_present(ctx, provider, &address, local, alias));
        }
    }
}

/// `Provider configuration not present`, with the tools' detail.
fn not_present(
    ctx: &Context,
    provider: &MergedAttribute,
    object: &str,
    name: &str,
    alias: &str,
) -> Diagnostic {
    let configuration = format!("provider[\"{}\"].{alias}", provider_address(ctx, name));
    ctx.finding(&RULE, SUMMARY)
        .at(
            ctx.files,
            provider.expr.span,
            format!("no provider configuration `{name}.{alias}` in this module"),
        )
        .with_note(format!(
            "To work with {object} its original provider configuration at {configuration} is \
             required, but it has been removed. (The tools print this error without a place: \
             the module declares no `provider \"{name}\"` block with `alias = \"{alias}\"`.)"
        ))
        .with_help(format!(
            "declare `provider \"{name}\" {{ alias = \"{alias}\" }}`, add `{name}.{alias}` to the \
             `configuration_aliases` of `{name}` in `required_providers` (a module whose callers \
             pass it), or name a configuration that exists"
        ))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[
        // Declared, the default configuration, or passed in by the module's callers.
        &[(
            "main.tf",
            "provider \"terraform\" {\n  alias = \"x\"\n}\nresource \"terraform_data\" \"a\" {\n  \
             provider = terraform.x\n}\nresource \"terraform_data\" \"b\" {\n  provider = \
             terraform\n}\n",
        )],
        &[(
            "main.tf",
            "terraform {\n  required_providers {\n    aws = {\n      source                = \
             \"hashicorp/aws\"\n      configuration_aliases = [aws.west]\n    }\n  }\n}\n\
             data \"aws_caller_identity\" \"a\" {\n  provider = aws.west\n}\n",
        )],
        // Declared in JSON and changed by an override file.
        &[
            (
                "main.tf.json",
                "{\"resource\": {\"terraform_data\": {\"a\": {\"provider\": \"terraform.x\"}}}}",
            ),
            (
                "p.tf.json",
                "{\"provider\": {\"terraform\": {\"alias\": \"x\"}}}",
            ),
            (
                "main_override.tf",
                "resource \"terraform_data\" \"a\" {\n  provider = terraform.x\n}\n",
            ),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf",
                "resource \"terraform_data\" \"a\" {\n  provider = terraform.missing\n}\n\
                 data \"terraform_remote_state\" \"b\" {\n  provider = \"terraform.other\"\n  \
                 backend  = \"local\"\n}\nephemeral \"aws_secret\" \"c\" {\n  provider = \
                 aws.west\n}\n",
            )],
            4, // the built-in provider's are the same in both views, `aws`'s differ
        ),
        (
            &[(
                "main.tf.json",
                "{\"resource\": {\"terraform_data\": {\"a\": {\"provider\": \"terraform.nope\"}}}}",
            )],
            1,
        ),
        // An override file names a configuration that does not exist.
        (
            &[
                (
                    "main.tf",
                    "provider \"terraform\" {\n  alias = \"x\"\n}\nresource \"terraform_data\" \
                     \"a\" {\n  provider = terraform.x\n}\n",
                ),
                (
                    "main_override.tf",
                    "resource \"terraform_data\" \"a\" {\n  provider = terraform.y\n}\n",
                ),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// The tools' detail names the object by its address and the configuration by the
    /// provider's address.
    #[test]
    fn detail() {
        let found = findings(
            &super::RULE,
            &[(
                "main.tf",
                "data \"terraform_remote_state\" \"b\" {\n  provider = terraform.x\n  backend  = \
                 \"local\"\n}\n",
            )],
        );
        assert_eq!(found.len(), 1, "{found:?}"); // the same in both views: one finding
        assert_eq!(found[0].message, "Provider configuration not present");
        let note = &found[0].notes[0];
        assert!(
            note.starts_with(
                "To work with data.terraform_remote_state.b its original provider configuration \
                 at provider[\"terraform.io/builtin/terraform\"].x is required"
            ),
            "{note}"
        );
    }
}
