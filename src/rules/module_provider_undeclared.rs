//! A module call's `providers` map that passes a provider configuration the calling module does
//! not have: `aws = aws.west` with no `provider "aws" { alias = "west" }` (nor `aws.west` among
//! the `configuration_aliases` of its `required_providers`, which a caller passes in). While
//! building its graph, `validate` finds no configuration to pass and stops:
//! `missing provider provider["registry.terraform.io/hashicorp/aws"].west`, without a place
//! (hashicorp/terraform `internal/terraform/transform_provider.go`,
//! `ProviderConfigTransformer.addProxyProviders`). Only aliased configurations are judged: a
//! default configuration may be implied.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::module::merge::{Address, MergedAttribute, Module};
use crate::syntax::{Expr, ExprKind};

use crate::lint::helpers::provider_reference::provider_reference;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_provider_undeclared",
    kind: Validate,
    summary: "a providers map passing a provider configuration the module does not declare",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for object in &ctx.module.objects {
        let Address::ModuleCall(call) = &object.address else {
            continue;
        };
        let Some(providers) = object.body.attribute("providers") else {
            continue;
        };
        let ExprKind::Object(items) = &providers.expr.kind else {
            continue;
        };
        for item in items {
            let Some((name, Some(alias))) = provider_reference(&item.value) else {
                continue;
            };
            if !declares(ctx.module, name, alias) {
                out.push(missing_provider(ctx, call, &item.value, name, alias));
            }
        }
    }
}

/// Whether the module has the configuration `NAME.ALIAS`: a `provider` block, or one its
/// callers pass in (`configuration_aliases`).
pub(crate) fn declares(module: &Module, name: &str, alias: &str) -> bool {
    let address = Address::Provider(name.to_string(), Some(alias.to_string()));
    module.object(&address).is_some()
        || requirement(module, name).is_some_and(|entry| {
            setting(entry, "configuration_aliases").is_some_and(|aliases| match &aliases.kind {
                ExprKind::Tuple(items) => items
                    .iter()
                    .any(|item| provider_reference(item) == Some((name, Some(alias)))),
                _ => true, // not a list the model reads: not judged
            })
        })
}

/// The `required_providers` entry of the local name `name`.
fn requirement<'m>(module: &'m Module, name: &str) -> Option<&'m MergedAttribute> {
    (module.terraform.required_providers.iter()).find(|entry| entry.name() == name)
}

/// The value of `key` in a `required_providers` entry's object.
fn setting<'e>(entry: &'e MergedAttribute, key: &str) -> Option<&'e Expr> {
    let ExprKind::Object(items) = &entry.expr.kind else {
        return None;
    };
    (items.iter())
        .find(|item| item.key.keyword().or_else(|| item.key.literal_string()) == Some(key))
        .map(|item| &item.value)
}

/// The provider's address as the tools print it: the `source` of its `required_providers`
/// entry on the tool's registry, or the default `hashicorp/NAME` there; `terraform` is built in
/// (hashicorp/terraform `internal/addrs/provider.go`, `ParseProviderSourceString`,
/// `NewDefaultProvider`, `NewBuiltInProvider`).
pub(crate) fn provider_address(ctx: &Context, name: &str) -> String {
    let registry = match ctx.view {
        View::Terraform => "registry.terraform.io",
        View::OpenTofu => "registry.opentofu.org",
    };
    let source = requirement(ctx.module, name)
        .and_then(|entry| setting(entry, "source"))
        .and_then(Expr::literal_string);
    match source.map(|s| s.to_lowercase()) {
        Some(source) if source.split('/').count() == 3 => source,
        Some(source) => format!("{registry}/{source}"),
        None if name == "terraform" => "terraform.io/builtin/terraform".to_string(),
        None => format!("{registry}/hashicorp/{name}"),
    }
}

/// `missing provider provider["registry.terraform.io/hashicorp/aws"].west`, the tools' error.
fn missing_provider(
    ctx: &Context,
    call: &str,
    value: &Expr,
    name: &str,
    alias: &str,
) -> Diagnostic {
    let address = provider_address(ctx, name);
    ctx.finding(
        &RULE,
        format!("missing provider provider[\"{address}\"].{alias}"),
    )
    .at(
        ctx.files,
        value.span,
        format!("no provider configuration `{name}.{alias}` in this module"),
    )
    .with_note(format!(
        "module `{call}` is passed `{name}.{alias}`, but this module declares no `provider \
         \"{name}\"` block with `alias = \"{alias}\"`: the tools cannot build the module's graph \
         (they print this error without a place)."
    ))
    .with_help(format!(
        "declare `provider \"{name}\" {{ alias = \"{alias}\" }}`, add `{name}.{alias}` to the \
         `configuration_aliases` of `{name}` in `required_providers` (a module whose callers \
         pass it), or pass a configuration that exists"
    ))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "provider \"aws\" {\n  alias = \"west\"\n}\nmodule \"c\" {\n  source = \"./c\"\n  \
             providers = {\n    aws      = aws\n    aws.east = aws.west\n  }\n}\n",
        )],
        // Passed in by the module's own callers.
        &[(
            "main.tf",
            "terraform {\n  required_providers {\n    aws = {\n      source                = \
             \"hashicorp/aws\"\n      configuration_aliases = [aws.west]\n    }\n  }\n}\n\
             module \"c\" {\n  source    = \"./c\"\n  providers = { aws = aws.west }\n}\n",
        )],
        // Passed in JSON, declared in another file and changed by an override file.
        &[
            (
                "main.tf.json",
                "{\"module\": {\"c\": {\"source\": \"./c\", \"providers\": {\"aws\": \"aws.west\"}}}}",
            ),
            ("p.tf", "provider \"aws\" {\n  alias = \"west\"\n}\n"),
            (
                "p_override.tf",
                "provider \"aws\" {\n  alias  = \"west\"\n  region = \"y\"\n}\n",
            ),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf",
                "module \"c\" {\n  source    = \"./c\"\n  providers = {\n    aws      = aws.west\n    \
                 aws.east = \"aws.east\"\n  }\n}\n",
            )],
            4, // each view names the provider on its own registry
        ),
        (
            &[(
                "main.tf.json",
                "{\"module\": {\"c\": {\"source\": \"./c\", \"providers\": {\"aws\": \"aws.west\"}}}}",
            )],
            2,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// The tools' text names the provider by its address on each tool's registry.
    #[test]
    fn provider_addresses() {
        let case = |required: &str, passed: &str| {
            let main = format!(
                "terraform {{\n  required_providers {{\n{required}  }}\n}}\nmodule \"c\" {{\n  \
                 source    = \"./c\"\n  providers = {{ x = {passed} }}\n}}\n"
            );
            let mut messages: Vec<String> = findings(&super::RULE, &[("main.tf", &main)])
                .into_iter()
                .map(|d| d.message.into_owned())
                .collect();
            messages.sort();
            messages
        };
        assert_eq!(
            case("", "terraform.west"),
            ["missing provider provider[\"terraform.io/builtin/terraform\"].west"]
        );
        assert_eq!(
            case("    aws = { source = \"HashiCorp/AWS\" }\n", "aws.west"),
            [
                "missing provider provider[\"registry.opentofu.org/hashicorp/aws\"].west",
                "missing provider provider[\"registry.terraform.io/hashicorp/aws\"].west",
            ]
        );
        assert_eq!(
            case("    g = { source = \"example.com/ns/g\" }\n", "g.a"),
            ["missing provider provider[\"example.com/ns/g\"].a"]
        );
    }
}
