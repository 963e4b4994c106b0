//! A call to a local module whose `providers` map passes a configuration of one provider into
//! the module's slot for another: `foo = foo` where the caller's `foo` is `example/foo` and the
//! module's is `other/foo`. Both tools refuse it while they build the configuration from its
//! modules, which `validate` does (hashicorp/terraform and opentofu/opentofu
//! `internal/configs/provider_validation.go`, `validateProviderConfigs`: "Provider type
//! mismatch").
//!
//! Each side's provider is what its local name stands for (`config.go`,
//! `resolveProviderTypes`): the last `required_providers` entry of the name, override files
//! merged, or `hashicorp/NAME` without one. The tools then replace the caller's side with the
//! caller's own `required_providers` entry named as the *module's* key, when the caller has
//! one: `foo = baz` is judged by the caller's `foo`, not its `baz`. That is how the tools
//! compare, so it is how this rule does. Where the module requires the caller's provider
//! under another local name the tools report the key and name that one; otherwise the value.
//! A `source` that is not a literal string, or that reads differently across releases, is not
//! judged; nor is the built-in `terraform` provider.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::provider_address::ProviderAddress;
use crate::module::merge::{MergedAttribute, Module};
use crate::source::Span;
use crate::syntax::{Expr, ExprKind};

use crate::lint::helpers::provider_reference::{provider_name_place, provider_reference};
use crate::lint::helpers::{LocalCall, local_calls};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_provider_type_mismatch",
    kind: Validate,
    summary: "a providers map passing a configuration of another provider than the module's",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for call in local_calls(ctx) {
        let Some(items) = call.providers_map() else {
            continue; // not a map the model reads: not judged
        };
        for item in items {
            let (Some(key), Some(value)) = (
                provider_reference(&item.key),
                provider_reference(&item.value),
            ) else {
                continue;
            };
            if key.0 == "terraform" || value.0 == "terraform" {
                continue;
            }
            let Some(module_side) = call.interface.provider_of(key.0, ctx.view) else {
                continue;
            };
            let Some(caller_side) = caller_provider(ctx, key, value) else {
                continue;
            };
            if module_side == caller_side {
                continue;
            }
            let passed = Passed {
                key: Named::new(ctx, &item.key, key),
                value: Named::new(ctx, &item.value, value),
                module_side,
                caller_side,
            };
            out.push(mismatch(ctx, &call, &passed));
        }
    }
}

/// The provider the caller passes, as the tools find it: its local name's (`resolveProviderTypes`),
/// replaced by the caller's `required_providers` entry named as the unaliased key when there
/// is one (`validateProviderConfigs`: `RequiredProviders[name]`, `name` being the module-side
/// key). `None` when it is not known.
fn caller_provider(
    ctx: &Context,
    key: (&str, Option<&str>),
    value: (&str, Option<&str>),
) -> Option<ProviderAddress> {
    let entry_of_key = match key {
        (name, None) => requirement(ctx.module, name),
        (_, Some(_)) => None,
    };
    match entry_of_key.or_else(|| requirement(ctx.module, value.0)) {
        Some(entry) => entry_provider(entry, ctx.view),
        None => ProviderAddress::implied(value.0, ctx.view),
    }
}

/// The last `required_providers` entry of the local name `name`, override files merged.
fn requirement<'m>(module: &'m Module, name: &str) -> Option<&'m MergedAttribute> {
    (module.terraform.required_providers.iter()).find(|entry| entry.name() == name)
}

/// The provider a `required_providers` entry names: its `source`, or `hashicorp/NAME` without
/// one (a version constraint alone, or an object without `source`).
fn entry_provider(entry: &MergedAttribute, view: View) -> Option<ProviderAddress> {
    let implied = || ProviderAddress::implied(entry.name(), view);
    match &entry.expr.kind {
        ExprKind::Object(items) => {
            let source = (items.iter()).find(|item| {
                item.key.keyword().or_else(|| item.key.literal_string()) == Some("source")
            });
            match source {
                Some(item) => ProviderAddress::parse(item.value.literal_string()?, view),
                None => implied(),
            }
        }
        _ if entry.expr.literal_string().is_some() => implied(),
        _ => None,
    }
}

/// One side of a `providers` map item: the configuration it names and where its provider name
/// is.
struct Named<'a> {
    name: &'a str,
    alias: Option<&'a str>,
    at: Span,
}

impl<'a> Named<'a> {
    fn new(ctx: &Context, expr: &Expr, (name, alias): (&'a str, Option<&'a str>)) -> Named<'a> {
        Named {
            name,
            alias,
            at: provider_name_place(ctx, expr, name),
        }
    }

    /// `NAME` or `NAME.ALIAS`, as the tools print a configuration reference.
    fn shown(&self) -> String {
        match self.alias {
            Some(alias) => format!("{}.{alias}", self.name),
            None => self.name.to_string(),
        }
    }
}

/// A `providers` map item whose sides name different providers.
struct Passed<'a> {
    key: Named<'a>,
    value: Named<'a>,
    module_side: ProviderAddress,
    caller_side: ProviderAddress,
}

/// `Provider type mismatch`, at the key when the module requires the caller's provider under
/// another local name (and with the tools' advice to use that one), at the value otherwise.
fn mismatch(ctx: &Context, call: &LocalCall, passed: &Passed) -> Diagnostic {
    let view = ctx.view;
    let module_side = passed.module_side.for_display(view);
    let caller_side = passed.caller_side.for_display(view);
    let module_text = format!("module.{}", call.name);
    let other_name = (call.interface.required_local_names(view))
        .find(|(_, provider)| provider.as_ref() == Some(&passed.caller_side))
        .map(|(name, _)| name);
    let finding = ctx.finding(&RULE, "Provider type mismatch");
    match other_name {
        Some(other_name) => {
            // The tools' detail names the caller where it means the module, and OpenTofu's
            // swaps the two providers: quoted as each prints it.
            let (assigned, represented) = match view {
                View::Terraform => (&caller_side, &module_side),
                View::OpenTofu => (&module_side, &caller_side),
            };
            finding
                .at(
                    ctx.files,
                    passed.key.at,
                    format!(
                        "module `{}` takes {module_side} here, and {caller_side} as `{other_name}`",
                        call.source
                    ),
                )
                .with_note(format!(
                    "The assigned configuration is for provider \"{assigned}\", but local name \
                     \"{}\" in the root module represents \"{represented}\".",
                    passed.key.name
                ))
                .with_note(format!(
                    "To pass this configuration to the child module, use the local name \
                     \"{other_name}\" instead."
                ))
                .with_help(format!(
                    "pass `{}` as `{}`",
                    passed.value.shown(),
                    match passed.key.alias {
                        Some(alias) => format!("{other_name}.{alias}"),
                        None => other_name.to_string(),
                    }
                ))
        }
        None => finding
            .at(
                ctx.files,
                passed.value.at,
                format!(
                    "a configuration of {caller_side}; module `{}` takes {module_side} here",
                    call.source
                ),
            )
            .with_note(format!(
                "The local name \"{}\" in the root module represents provider \"{caller_side}\", \
                 but \"{}\" in {module_text} represents \"{module_side}\".",
                passed.value.shown(),
                passed.key.shown(),
            ))
            .with_note(format!(
                "Each provider has its own distinct configuration schema and provider types, so \
                 this module's \"{}\" can be assigned only a configuration for {module_side}, \
                 which is not required by {module_text}.",
                passed.key.shown()
            ))
            .with_help(format!(
                "pass a configuration of {module_side}, or make both sides' `required_providers` \
                 name the same provider"
            )),
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Diagnostic;
    use crate::knowledge::View;
    use crate::lint::testing::{Files, check_table, findings, places};

    const CALLER: &str = "terraform {\n  required_providers {\n    foo = { source = \
                          \"example/foo\" }\n  }\n}\nmodule \"c\" {\n  source = \"./child\"\n  \
                          providers = {\n    foo = foo\n  }\n}\n";

    const OTHER: &str =
        "terraform {\n  required_providers {\n    foo = { source = \"other/foo\" }\n  }\n}\n";

    const SAME: &str =
        "terraform {\n  required_providers {\n    foo = { source = \"example/foo\" }\n  }\n}\n";

    /// A caller `main.tf` whose `required_providers` has `entries` and whose call passes `map`.
    fn caller(entries: &str, map: &str) -> String {
        format!(
            "terraform {{\n  required_providers {{\n{entries}  }}\n}}\nmodule \"c\" {{\n  \
             source = \"./child\"\n  providers = {{\n    {map}\n  }}\n}}\n"
        )
    }

    const PASS: &[Files] = &[
        &[("main.tf", CALLER), ("child/main.tf", SAME)],
        // The same provider under another local name, in another case.
        &[
            (
                "main.tf",
                "terraform {\n  required_providers {\n    bar = { source = \
                 \"Example/Foo\" }\n  }\n}\nmodule \"c\" {\n  source = \
                 \"./child\"\n  providers = {\n    foo = bar\n  }\n}\n",
            ),
            ("child/main.tf", SAME),
        ],
        // A version constraint alone and an implied `hashicorp/foo` on the other side.
        &[
            (
                "main.tf",
                "terraform {\n  required_providers {\n    foo = \"~> 1.0\"\n  }\n}\nmodule \
                 \"c\" {\n  source = \"./child\"\n  providers = {\n    foo = foo\n  }\n}\n",
            ),
            (
                "child/main.tf",
                "terraform {\n  required_providers {\n    foo = { source = \"hashicorp/foo\" \
                 }\n  }\n}\n",
            ),
        ],
        // The tools judge the caller's side by its entry named as the key: `foo`, which is
        // the module's provider, though `baz` is not.
        &[
            (
                "main.tf",
                "terraform {\n  required_providers {\n    foo = { source = \"other/foo\" }\n    \
                 baz = { source = \"example/foo\" }\n  }\n}\nmodule \"c\" {\n  source = \
                 \"./child\"\n  providers = {\n    foo = baz\n  }\n}\n",
            ),
            ("child/main.tf", OTHER),
        ],
        // A source that is not a literal is not judged; nor is a module that is not local.
        &[
            (
                "main.tf",
                "terraform {\n  required_providers {\n    foo = { source = var.s }\n  }\n}\n\
                 module \"c\" {\n  source = \"./child\"\n  providers = {\n    foo = foo\n  }\n}\n",
            ),
            ("child/main.tf", OTHER),
        ],
        &[(
            "main.tf",
            "module \"c\" {\n  source = \"example/c/aws\"\n  providers = {\n    foo = foo\n  \
             }\n}\n",
        )],
    ];

    // Each judged by Terraform 1.15.5 and 1.6.6 (`validate`, modules installed).
    const FAIL: &[(Files, usize)] = &[
        (&[("main.tf", CALLER), ("child/main.tf", OTHER)], 1),
        // No `required_providers` in the caller: `hashicorp/foo`.
        (
            &[
                (
                    "main.tf",
                    "module \"c\" {\n  source = \"./child\"\n  providers = {\n    foo = foo\n  \
                     }\n}\n",
                ),
                ("child/main.tf", OTHER),
            ],
            1,
        ),
        // An empty `provider` block in the module does not declare a provider: `hashicorp/foo`.
        (
            &[
                ("main.tf", CALLER),
                ("child/main.tf", "provider \"foo\" {\n  alias = \"q\"\n}\n"),
            ],
            1,
        ),
        // The caller's correct `baz` is judged by its `foo`, as the tools do.
        (
            &[
                (
                    "main.tf",
                    "terraform {\n  required_providers {\n    foo = { source = \"example/foo\" \
                     }\n    baz = { source = \"other/foo\" }\n  }\n}\nmodule \"c\" {\n  source \
                     = \"./child\"\n  providers = {\n    foo = baz\n  }\n}\n",
                ),
                ("child/main.tf", OTHER),
            ],
            1,
        ),
        // Aliases on both sides; a JSON call; the module's override file replaces its entry.
        (
            &[
                (
                    "main.tf",
                    "terraform {\n  required_providers {\n    foo = { source = \"example/foo\" \
                     }\n  }\n}\nmodule \"c\" {\n  source = \"./child\"\n  providers = {\n    \
                     foo.x = foo.y\n  }\n}\n",
                ),
                (
                    "child/main.tf",
                    "terraform {\n  required_providers {\n    foo = {\n      source = \
                     \"other/foo\"\n      configuration_aliases = [foo.x]\n    }\n  }\n}\n",
                ),
            ],
            1,
        ),
        (
            &[
                (
                    "main.tf.json",
                    r#"{"module": {"c": {"source": "./child", "providers": {"foo": "foo"}}}}"#,
                ),
                ("child/main.tf", SAME),
                ("child/override.tf", OTHER),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// Where and how Terraform 1.15.5 and 1.6.6 report it: at the value's provider name
    /// (inside the quotes of a quoted one), or at the key's when the module requires the
    /// caller's provider under another name, which the tools advise using.
    #[test]
    fn places_and_words() {
        let entries = "    foo = { source = \"example/foo\" }\n";
        let quoted = caller(entries, "\"foo\" = foo\n    foo.x = \"foo\"");
        let files: Files = &[("main.tf", &quoted), ("child/main.tf", OTHER)];
        let found = findings(&super::RULE, files);
        let at = |line, column| ("main.tf".to_string(), (line, column));
        let mut found_at = places(&found);
        found_at.dedup(); // one finding per view
        assert_eq!(found_at, [at(9, 13), at(10, 14)]);
        let note = &found[0].notes[0];
        assert!(
            note.starts_with(
                "The local name \"foo\" in the root module represents provider \"example/foo\", \
                 but \"foo\" in module.c represents \"other/foo\"."
            ),
            "{note}"
        );

        // JSON: inside the value's quotes too (Terraform: line 1, column 61).
        let json = r#"{"module": {"c": {"source": "./child", "providers": {"foo": "foo"}}}}"#;
        let found = findings(
            &super::RULE,
            &[("main.tf.json", json), ("child/main.tf", OTHER)],
        );
        let mut found_at = places(&found);
        found_at.dedup();
        assert_eq!(found_at, [("main.tf.json".to_string(), (1, 61))]);

        let child = "terraform {\n  required_providers {\n    foo = { source = \"other/foo\" }\n    \
                     bar = { source = \"example/foo\" }\n  }\n}\n";
        let plain = caller(entries, "foo = foo");
        let found = findings(
            &super::RULE,
            &[("main.tf", &plain), ("child/main.tf", child)],
        );
        assert_eq!(places(&found), [at(9, 5), at(9, 5)]); // one finding per view
        let notes = |view: View| {
            let in_view = |d: &&Diagnostic| match view {
                View::Terraform => d.views.terraform,
                View::OpenTofu => d.views.opentofu,
            };
            (found.iter())
                .find(in_view)
                .expect("a finding")
                .notes
                .join("\n\n")
        };
        assert_eq!(
            notes(View::Terraform),
            "The assigned configuration is for provider \"example/foo\", but local name \"foo\" \
             in the root module represents \"other/foo\".\n\nTo pass this configuration to the \
             child module, use the local name \"bar\" instead."
        );
        // OpenTofu prints the two providers the other way round.
        assert!(notes(View::OpenTofu).starts_with(
            "The assigned configuration is for provider \"other/foo\", but local name \"foo\" in \
             the root module represents \"example/foo\"."
        ));
    }
}
