//! A call to a local module that does not pass an aliased provider configuration the module
//! expects: the module lists `NAME.ALIAS` in the `configuration_aliases` of its
//! `required_providers` (override files merged: an override's entry replaces the whole entry)
//! and configures it with no `provider` block of its own, and the call's `providers` map (its
//! override files merged too) has no `NAME.ALIAS` key. Both tools refuse the configuration
//! when they build it from its modules, at the call's block (hashicorp/terraform and
//! opentofu/opentofu `internal/configs/provider_validation.go`, `validateProviderConfigs`:
//! "Missing required provider configuration"), before `validate` evaluates anything. A module
//! validated as the root is not judged (the tools leave that to whoever runs it).

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::source::Span;

use crate::lint::helpers::provider_reference::provider_reference;
use crate::lint::helpers::{LocalCall, local_calls, top_level_blocks_of};
use crate::lint::neighbours::RequiredConfiguration;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_provider_alias_missing",
    kind: Validate,
    summary: "a call to a local module that does not pass a provider configuration it expects",
    check: Check::View(RuleViews::Both, check),
};

/// The tools' summary.
const SUMMARY: &str = "Missing required provider configuration";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for call in local_calls(ctx) {
        if call.interface.required_configurations.is_empty() {
            continue;
        }
        let Some(items) = call.providers_map() else {
            continue; // not a map the model reads: not judged
        };
        let passed: Vec<(&str, Option<&str>)> = (items.iter())
            .filter_map(|item| provider_reference(&item.key))
            .collect();
        for required in &call.interface.required_configurations {
            let key = (required.name.as_str(), Some(required.alias.as_str()));
            if !passed.contains(&key) {
                out.push(missing(ctx, &call, required));
            }
        }
    }
}

/// Where the tools report a module call (its `DeclRange`): the header of its base block in
/// the native syntax, the opening brace of its object in JSON.
fn call_place(ctx: &Context, call: &LocalCall) -> Span {
    top_level_blocks_of(ctx, &["module"])
        .map(|(_, block)| block)
        .find(|block| block.header_span == call.object.base_header)
        .map_or(call.object.base_header, |block| block.def_range(ctx.files))
}

/// The provider's address as the tools display it: without the host when it is the tool's
/// registry (hashicorp/terraform `internal/addrs/provider.go`, `Provider.ForDisplay`); a local
/// name without a `source` is `hashicorp/NAME`, or the built-in `terraform`.
fn display_address(view: View, name: &str, source: Option<&str>) -> String {
    let registry = match view {
        View::Terraform => "registry.terraform.io/",
        View::OpenTofu => "registry.opentofu.org/",
    };
    match source.map(str::to_lowercase) {
        Some(source) => match source.strip_prefix(registry) {
            Some(rest) => rest.to_string(),
            None => source,
        },
        None if name == "terraform" => "terraform.io/builtin/terraform".to_string(),
        None => format!("hashicorp/{name}"),
    }
}

fn missing(ctx: &Context, call: &LocalCall, required: &RequiredConfiguration) -> Diagnostic {
    let key = format!("{}.{}", required.name, required.alias);
    let provider = display_address(ctx.view, &required.name, required.source.as_deref());
    ctx.finding(&RULE, SUMMARY)
        .at(
            ctx.files,
            call_place(ctx, call),
            format!("no `{key}` in this call's `providers`"),
        )
        .with_note(format!(
            "The child module requires an additional configuration for provider {provider}, \
             with the local name \"{key}\"."
        ))
        .with_help(format!(
            "pass one in the call's `providers` map: `{key} = {}.<alias>` (module `{}` lists \
             `{key}` in its `configuration_aliases`)",
            required.name, call.source
        ))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const CHILD: &str = "terraform {\n  required_providers {\n    terraform = {\n      source = \
                         \"terraform.io/builtin/terraform\"\n      configuration_aliases = \
                         [terraform.x]\n    }\n  }\n}\n";

    const PASS: &[Files] = &[
        &[
            (
                "main.tf",
                "provider \"terraform\" {\n  alias = \"east\"\n}\nmodule \"c\" {\n  source    = \
                 \"./child\"\n  providers = { terraform.x = terraform.east }\n}\n",
            ),
            ("child/main.tf", CHILD),
        ],
        // Passed only by the caller's override file (JSON).
        &[
            ("main.tf", "module \"c\" {\n  source = \"./child\"\n}\n"),
            (
                "main_override.tf.json",
                "{\"module\": {\"c\": {\"providers\": {\"terraform.x\": \"terraform\"}}}}",
            ),
            ("child/main.tf", CHILD),
        ],
        // The child configures the alias itself, or its override file drops the alias.
        &[
            ("main.tf", "module \"c\" {\n  source = \"./child\"\n}\n"),
            ("child/main.tf", CHILD),
            (
                "child/p.tf",
                "provider \"terraform\" {\n  alias = \"x\"\n  version = \"1\"\n}\n",
            ),
        ],
        &[
            ("main.tf", "module \"c\" {\n  source = \"./child\"\n}\n"),
            ("child/main.tf", CHILD),
            (
                "child/override.tf",
                "terraform {\n  required_providers {\n    terraform = {\n      source = \
                 \"terraform.io/builtin/terraform\"\n    }\n  }\n}\n",
            ),
        ],
        // The module validated as a root: not judged.
        &[("main.tf", CHILD)],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                (
                    "main.tf",
                    "module \"c\" {\n  source    = \"./child\"\n  providers = { terraform = \
                     terraform }\n}\n",
                ),
                ("child/main.tf", CHILD),
            ],
            1,
        ),
        // An empty (proxy) block does not configure it; the alias comes from the child's
        // override file; the call is in JSON.
        (
            &[
                (
                    "main.tf.json",
                    "{\"module\": {\"c\": {\"source\": \"./child\"}}}",
                ),
                (
                    "child/main.tf.json",
                    "{\"terraform\": {\"required_providers\": {\"aws\": {\"source\": \
                     \"hashicorp/aws\"}}}, \"provider\": {\"aws\": {\"alias\": \"y\"}}}",
                ),
                (
                    "child/override.tf",
                    "terraform {\n  required_providers {\n    aws = {\n      source = \
                     \"hashicorp/aws\"\n      configuration_aliases = [aws.y]\n    }\n  }\n}\n",
                ),
            ],
            1,
        ),
        // The caller's override file replaces the map that passed it.
        (
            &[
                (
                    "main.tf",
                    "module \"c\" {\n  source    = \"./child\"\n  providers = { terraform.x = \
                     terraform }\n}\n",
                ),
                (
                    "override.tf",
                    "module \"c\" {\n  providers = { terraform = terraform }\n}\n",
                ),
                ("child/main.tf", CHILD),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// The tools' detail names the provider as they display it, and the finding is at the
    /// call's block (in JSON, its object's opening brace).
    #[test]
    fn detail_and_place() {
        let found = findings(
            &super::RULE,
            &[
                (
                    "main.tf.json",
                    "{\"module\": {\"c\": {\"source\": \"./child\"}}}",
                ),
                ("child/main.tf", CHILD),
            ],
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            found[0].notes[0],
            "The child module requires an additional configuration for provider \
             terraform.io/builtin/terraform, with the local name \"terraform.x\"."
        );
        let label = found[0].primary.as_ref().expect("placed");
        assert_eq!(label.range, 17..18, "{label:?}");
        assert_eq!(
            super::display_address(
                crate::knowledge::View::Terraform,
                "aws",
                Some("registry.terraform.io/HashiCorp/aws")
            ),
            "hashicorp/aws"
        );
        assert_eq!(
            super::display_address(
                crate::knowledge::View::OpenTofu,
                "aws",
                Some("registry.terraform.io/hashicorp/aws")
            ),
            "registry.terraform.io/hashicorp/aws"
        );
        assert_eq!(
            super::display_address(crate::knowledge::View::OpenTofu, "g", None),
            "hashicorp/g"
        );
    }
}
