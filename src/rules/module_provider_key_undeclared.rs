//! A call to a local module whose `providers` map passes an aliased configuration, `NAME.ALIAS
//! = ...`, under a local name the module requires from a provider outside the `hashicorp`
//! namespace of the tool's registry, when the module does not list `NAME.ALIAS` in that entry's
//! `configuration_aliases` nor has a `provider "NAME"` block with that alias. Both tools refuse
//! the configuration when they build it from its modules, at the key's provider name
//! (hashicorp/terraform and opentofu/opentofu `internal/configs/provider_validation.go`,
//! `validateProviderConfigs`: "Reference to undefined provider"; for an official `hashicorp`
//! provider, or a local name the module does not require, it is a warning). Both sides are
//! read with their override files merged: the call's `providers` map, the module's last
//! `required_providers` entry of the name.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::source::Span;

use crate::lint::helpers::provider_reference::{provider_name_place, provider_reference};
use crate::lint::helpers::{LocalCall, local_calls};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_provider_key_undeclared",
    kind: Validate,
    summary: "a providers map key naming a configuration alias the called module does not declare",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for call in local_calls(ctx) {
        let Some(items) = call.providers_map() else {
            continue; // not a map the model reads: not judged
        };
        for item in items {
            let Some((name, Some(alias))) = provider_reference(&item.key) else {
                continue;
            };
            let Some(source) = call.interface.source_refusing_alias(name, alias) else {
                continue;
            };
            if !is_official(ctx.view, source) {
                out.push(undefined(
                    ctx,
                    &call,
                    provider_name_place(ctx, &item.key, name),
                    name,
                    alias,
                    source,
                ));
            }
        }
    }
}

/// Whether `source` is a provider of the `hashicorp` namespace of the view's registry
/// (`addrs.IsOfficialProvider`), for which the tools only warn.
fn is_official(view: View, source: &str) -> bool {
    let registry = match view {
        View::Terraform => "registry.terraform.io/",
        View::OpenTofu => "registry.opentofu.org/",
    };
    let source = source.to_ascii_lowercase();
    let short = source.strip_prefix(registry).unwrap_or(&source);
    matches!(
        short.split('/').collect::<Vec<_>>().as_slice(),
        ["hashicorp", _]
    )
}

/// `Reference to undefined provider`
fn undefined(
    ctx: &Context,
    call: &LocalCall,
    at: Span,
    name: &str,
    alias: &str,
    source: &str,
) -> Diagnostic {
    let key = format!("{name}.{alias}");
    ctx.finding(&RULE, "Reference to undefined provider")
        .at(
            ctx.files,
            at,
            format!("module `{}` declares no `{key}`", call.source),
        )
        .with_note(format!(
            "The child module does not declare any provider requirement with the local name \
             \"{key}\"."
        ))
        .with_help(format!(
            "add `{key}` to the `configuration_aliases` of the `{name}` entry (source \
             \"{source}\") in the `required_providers` of module `{}`, or pass the \
             configuration under a name it declares",
            call.source
        ))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const CALLER: &str = "terraform {\n  required_providers {\n    foo = { source = \
                          \"example/foo\" }\n  }\n}\nprovider \"foo\" {}\nmodule \"c\" {\n  \
                          source = \"./child\"\n  providers = {\n    foo.x = foo\n  }\n}\n";

    const CHILD: &str =
        "terraform {\n  required_providers {\n    foo = { source = \"example/foo\" }\n  }\n}\n";

    const PASS: &[Files] = &[
        // The child lists the alias, or has an (empty) provider block with it.
        &[
            ("main.tf", CALLER),
            (
                "child/main.tf",
                "terraform {\n  required_providers {\n    foo = {\n      source = \
                 \"example/foo\"\n      configuration_aliases = [foo.x]\n    }\n  }\n}\n",
            ),
        ],
        &[
            ("main.tf", CALLER),
            ("child/main.tf", CHILD),
            ("child/p.tf", "provider \"foo\" {\n  alias = \"x\"\n}\n"),
        ],
        // An official provider: only a warning.
        &[
            ("main.tf", CALLER),
            (
                "child/main.tf",
                "terraform {\n  required_providers {\n    foo = { source = \"hashicorp/foo\" }\n  \
                 }\n}\n",
            ),
        ],
        // The child's override file adds the alias to the entry it replaces.
        &[
            ("main.tf", CALLER),
            ("child/main.tf", CHILD),
            (
                "child/override.tf",
                "terraform {\n  required_providers {\n    foo = {\n      source = \
                 \"example/foo\"\n      configuration_aliases = [foo.x]\n    }\n  }\n}\n",
            ),
        ],
    ];

    // Terraform 1.6.6 and 1.15.5: "Reference to undefined provider" at `foo` of `foo.x`.
    const FAIL: &[(Files, usize)] = &[
        (&[("main.tf", CALLER), ("child/main.tf", CHILD)], 1),
        // The caller's override file passes it.
        (
            &[
                (
                    "main.tf",
                    "provider \"foo\" {}\nmodule \"c\" {\n  source = \"./child\"\n}\n",
                ),
                (
                    "main_override.tf",
                    "module \"c\" {\n  providers = {\n    foo.x = foo\n  }\n}\n",
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
}
