//! A construct that only some of the releases the module targets have: a block, argument,
//! function or backend that came in a newer release than the oldest targeted one (an `action`
//! block with `required_version = ">= 1.5"`), or that a targeted release removed (the `etcd`
//! backend, `defaults()`). Users of the releases without it cannot load the module. When no
//! targeted release has it, the tools' own error is reported instead (`unsupported_construct`,
//! `unknown_function`, `backend_unknown`, `backend_removed`).

use crate::diagnostic::Diagnostic;
use crate::knowledge::features::{self, Place};
use crate::knowledge::files::Extension;
use crate::knowledge::releases::Release;
use crate::source::Span;

use crate::knowledge::version::Version;
use crate::lint::helpers::backend_type;
use crate::lint::helpers::dated::describe;
use crate::lint::helpers::legacy_module::{self, LegacyCall};
use crate::lint::helpers::null_module_version::{self, NullVersion};
use crate::lint::helpers::schema::judgements;
use crate::lint::targets::range_text;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};
use crate::module::merge::LoadedFile;

pub(crate) const RULE: Rule = declare_rule! {
    id: "feature_newer_than_target",
    severity: Warning,
    default: On,
    summary: "a construct that only some of the targeted releases have",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let some_refuse =
        |refusing: &[Release]| !refusing.is_empty() && refusing.len() < ctx.targets.releases.len();
    for judgement in judgements(ctx) {
        // A `language` block admitting OpenTofu 1.11 and older is
        // `version_constraint_ineffective`'s (OpenTofu's "Ineffective version constraint").
        let language = judgement.place == Place::TopLevel && judgement.name == "language";
        let ignoring = ctx.targets.ignoring(judgement.place, &judgement.name);
        let some_lack = some_refuse(&judgement.refusing) || !ignoring.is_empty();
        if judgement.described && !language && some_lack {
            let what = describe(judgement.place, &judgement.name);
            let construct = Construct {
                place: judgement.place,
                name: &judgement.name,
                span: judgement.span,
                summary: judgement.summary(),
            };
            out.push(not_in_every_target(
                ctx,
                &construct,
                &what,
                &judgement.refusing,
                &ignoring,
            ));
        }
    }
    if let Some((backend, kind)) = backend_type(ctx) {
        let refusing = ctx.targets.refusing(Place::Backend, kind);
        if some_refuse(&refusing) {
            let what = describe(Place::Backend, kind);
            let construct = Construct {
                place: Place::Backend,
                name: kind,
                span: backend.header_span,
                summary: "Unsupported backend type",
            };
            out.push(not_in_every_target(ctx, &construct, &what, &refusing, &[]));
        }
    }
    // No tool error when none reads a file type: the file is silently skipped, so this rule
    // says it whether some or all targeted releases skip it. One finding per view.
    // Looked up once per extension, not once per file: a directory may hold a hundred
    // thousand files of one or two extensions.
    let mut by_extension: Vec<(Extension, Vec<Release>)> = Vec::new();
    let mut unread: Vec<(&LoadedFile, Vec<Release>)> = Vec::new();
    for f in ctx.primary.iter().chain(ctx.overrides) {
        let known = by_extension.iter().position(|(e, _)| *e == f.extension);
        let index = known.unwrap_or_else(|| {
            let refusing = ctx.targets.refusing(Place::FileType, f.extension.as_str());
            by_extension.push((f.extension, refusing));
            by_extension.len() - 1
        });
        let refusing = &by_extension[index].1;
        if !refusing.is_empty() {
            unread.push((f, refusing.clone()));
        }
    }
    if !unread.is_empty() {
        out.push(file_types_not_read(ctx, &unread));
    }
    let refusing_enabled: Vec<Release> = (ctx.targets.releases.iter().copied())
        .filter(|&r| r >= legacy_module::FIRST_REFUSING)
        .collect();
    if some_refuse(&refusing_enabled) {
        for (enabled, call) in legacy_module::enabled_legacy_calls(ctx) {
            out.push(enabled_refused_in_newer(
                ctx,
                enabled,
                &call,
                &refusing_enabled,
            ));
        }
    }
    let first = null_module_version::first_accepting(ctx.view);
    if ctx.targets.some_version_below(&first) && ctx.targets.some_version_from(&first) {
        for null in null_module_version::null_versions(ctx) {
            out.push(null_version_not_in_every_target(ctx, &null, &first));
        }
    }
}

/// `` `.tofu` files need OpenTofu 1.8 or later ``, at the first such file's first block and the
/// others': the releases before read only `.tf` files, so they load the module without these
/// (and with their `.tf` twins, if any). `unread` is not empty.
fn file_types_not_read(ctx: &Context, unread: &[(&LoadedFile, Vec<Release>)]) -> Diagnostic {
    let tool = ctx.view.tool_name();
    let (first, refusing) = &unread[0];
    let extension = first.extension.as_str();
    let releases = range_text(refusing);
    let what = describe(Place::FileType, extension);
    let since =
        features::find(Place::FileType, extension).and_then(|f| f.availability(ctx.view).since());
    let message = match since {
        Some(since) => format!("{what} need {tool} {since} or later"),
        None => format!("{what} are not read by {tool} {releases}"),
    };
    let mut d = ctx.finding(&RULE, message);
    for (i, (file, _)) in unread.iter().enumerate() {
        // The file's first block, or its start when it has none.
        let at = (file.file.body.blocks.first().map(|b| b.header_span))
            .unwrap_or_else(|| Span::new(file.file.id, 0..0));
        let name = ctx.files.get(file.file.id).file_name();
        let label = format!("{tool} {releases} do not read `{name}`");
        d = match i {
            0 => d.at(ctx.files, at, label),
            _ => d.with_label(ctx.files, at, label),
        };
    }
    d.with_note(format!(
        "The module targets {} ({}). {tool} {releases} read only `.tf` and `.tf.json` files: \
         they load the module without these files, and with the `.tf` file each one hides, if \
         any.",
        ctx.targets.describe(),
        ctx.targets.basis_text()
    ))
    .with_help(match since {
        Some(since) => format!(
            "if the module is not meant for {tool} {releases}, say so with \
             `opentofu_version: \">= {since}\"` in .tflint-merge.yaml; otherwise keep this \
             configuration in `.tf` files"
        ),
        None => "keep this configuration in `.tf` files".to_string(),
    })
}

/// `` `enabled` in a call to a module with provider configurations is refused from OpenTofu
/// 1.12 ``
fn enabled_refused_in_newer(
    ctx: &Context,
    enabled: Span,
    call: &LegacyCall,
    refusing: &[Release],
) -> Diagnostic {
    let releases = range_text(refusing);
    ctx.finding(
        &RULE,
        format!(
            "`enabled` in a call to a module with provider configurations is refused from \
             OpenTofu {}",
            legacy_module::FIRST_REFUSING
        ),
    )
    .at(
        ctx.files,
        enabled,
        format!("refused by OpenTofu {releases}"),
    )
    .with_note(format!(
        "The module targets {} ({}). {}",
        ctx.targets.describe(),
        ctx.targets.basis_text(),
        legacy_module::why(call)
    ))
    .with_help(format!(
        "pass the provider configuration in with `providers` and remove `provider \"{}\"` \
         from the module, or drop `enabled`",
        call.legacy.provider
    ))
}

/// `` a null module `version` needs Terraform 1.15.5 or later ``: the releases before take it
/// as a `version` argument, which only a registry source may have.
fn null_version_not_in_every_target(
    ctx: &Context,
    null: &NullVersion,
    first: &Version,
) -> Diagnostic {
    let tool = ctx.view.tool_name();
    ctx.finding(
        &RULE,
        format!("a null module `version` needs {tool} {first} or later"),
    )
    .at(
        ctx.files,
        null.version.span(),
        format!("a `version` argument before {tool} {first}"),
    )
    .with_label(
        ctx.files,
        null.source.expr.span,
        "not a module registry source",
    )
    .with_note(format!(
        "The module targets {} ({}). {tool} takes a null `version` as \"no version\" from \
         {first} on; earlier releases take it as a `version` argument, which only a module \
         registry source may have, and stop with `Invalid registry module source address`.",
        ctx.targets.describe(),
        ctx.targets.basis_text()
    ))
    .with_help(format!(
        "remove `version`, or raise the module's version constraint to {tool} {first} or later"
    ))
}

/// A construct some targeted releases refuse, and the tools' summary when they do.
struct Construct<'a> {
    place: Place,
    name: &'a str,
    span: Span,
    summary: &'static str,
}

/// `` `ephemeral` in `variable` needs Terraform 1.10 or later; the module targets Terraform
/// 1.9–1.15 ``: `refusing` stop with the tools' error, `ignoring` load the module without the
/// construct (one of them is not empty).
fn not_in_every_target(
    ctx: &Context,
    construct: &Construct,
    what: &str,
    refusing: &[Release],
    ignoring: &[Release],
) -> Diagnostic {
    let tool = ctx.view.tool_name();
    let row = features::find(construct.place, construct.name);
    let availability = row.map(|f| f.availability(ctx.view));
    let since = availability
        .and_then(|a| a.since())
        .filter(|s| *s > ctx.targets.lowest());
    let lacking: Vec<Release> = (refusing.iter().chain(ignoring)).copied().collect();
    let message = match (since, availability.and_then(|a| a.until())) {
        (Some(since), _) => format!("{what} needs {tool} {since} or later"),
        (None, Some(until)) => format!("{what} was removed in {tool} {until}"),
        (None, None) => format!("{what} is not in {tool} {}", range_text(&lacking)),
    };
    let label = match refusing.is_empty() {
        false => format!("not in {tool} {}", range_text(refusing)),
        true => format!("ignored by {tool} {}", range_text(ignoring)),
    };
    let mut note = format!(
        "The module targets {} ({}).",
        ctx.targets.describe(),
        ctx.targets.basis_text()
    );
    if !refusing.is_empty() {
        note.push_str(&format!(
            " It is missing from {tool} {}, which stop with `{}`.",
            range_text(refusing),
            construct.summary
        ));
    }
    if !ignoring.is_empty() {
        note.push_str(&format!(
            " {tool} {} load the module and silently ignore it: their stable builds read it \
             only with experiments enabled.",
            range_text(ignoring)
        ));
    }
    ctx.finding(&RULE, message)
        .at(ctx.files, construct.span, label)
        .with_note(note)
        .with_help(match since {
            Some(since) => format!(
                "raise the module's version constraint to {tool} {since} or later, or do \
                 without {what}"
            ),
            None => format!("replace {what}, or narrow the version constraint"),
        })
}

#[cfg(test)]
mod tests {
    use crate::lint::directory::TargetVersions;
    use crate::lint::testing::{
        Files, check_table, findings, findings_targeting, findings_targeting_terraform,
        terraform_required_version as required,
    };
    use crate::rules::unsupported_construct;

    const STARTSWITH: &str = "locals {\n  a = startswith(\"a\", \"b\")\n}\n";

    const EPHEMERAL: &str = "terraform {\n  required_version = \">= 1.9\"\n}\n\
                             variable \"token\" {\n  type      = string\n  ephemeral = true\n}\n";

    const PASS: &[Files] = &[
        // No constraint: the newest stable releases have everything here.
        &[("main.tf", "variable \"token\" {\n  ephemeral = true\n}\n")],
        &[
            ("main.tf", STARTSWITH),
            ("v.tf", "terraform {\n  required_version = \">= 1.10\"\n}\n"),
        ],
        // No targeted release has it: the load error's, not this rule's.
        &[("main.tf", "varyable \"x\" {}\n")],
    ];
    const FAIL: &[(Files, usize)] = &[
        // Terraform 1.9 and OpenTofu 1.9–1.10 lack it: one finding per view.
        (&[("variables.tf", EPHEMERAL)], 2),
        (
            &[(
                "main.tf.json",
                r#"{"terraform": {"required_version": ">= 1.9"},
                    "variable": {"token": {"ephemeral": true}}}"#,
            )],
            2,
        ),
        // `startswith` came in Terraform 1.3 (OpenTofu has it from 1.6).
        (
            &[
                ("main.tf", STARTSWITH),
                ("v.tf", "terraform {\n  required_version = \">= 1.2\"\n}\n"),
            ],
            1,
        ),
        // The same call inside a template, in either syntax.
        (
            &[
                (
                    "main.tf",
                    "locals {\n  a = \"${startswith(\"a\", \"b\")}\"\n}\n",
                ),
                ("v.tf", "terraform {\n  required_version = \">= 1.2\"\n}\n"),
            ],
            1,
        ),
        (
            &[(
                "main.tf.json",
                r#"{"terraform": {"required_version": ">= 1.2"},
                    "locals": {"a": "x${startswith(\"a\", \"b\")}"}}"#,
            )],
            1,
        ),
        // `defaults()`, removed in Terraform 1.3, inside a template and an operator.
        (
            &[(
                "main.tf",
                "terraform {\n  required_version = \">= 1.2\"\n}\nlocals {\n  a = \
                 \"${jsonencode(defaults(var.x, {}))}\"\n  b = 1 + length(defaults(var.x, \
                 {}))\n}\nvariable \"x\" {}\n",
            )],
            2,
        ),
        // `lifecycle { destroy = false }` came in OpenTofu 1.12.
        (
            &[(
                "main.tofu",
                "terraform {\n  required_version = \">= 1.10\"\n}\nresource \"a\" \"b\" {\n  \
                 lifecycle {\n    destroy = false\n  }\n}\n",
            )],
            1,
        ),
        // The `etcd` backend: Terraform 1.3 removed it.
        (
            &[(
                "backend.tf",
                "terraform {\n  required_version = \">= 1.2, < 1.5\"\n  backend \"etcd\" {}\n}\n",
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    const NULL_VERSION: &str = "module \"a\" {\n  source  = \"./a\"\n  version = null\n}\n";

    fn targeting(files: Files, terraform: &str, opentofu: &str) -> Vec<String> {
        let targets = TargetVersions {
            terraform: Some(terraform.into()),
            opentofu: Some(opentofu.into()),
        };
        let found = findings_targeting(&super::RULE, files, targets);
        found.into_iter().map(|d| d.message.into_owned()).collect()
    }

    #[test]
    fn a_null_module_version_is_judged_per_patch_release() {
        let files: Files = &[("main.tf", NULL_VERSION)];
        // Terraform 1.15.0–1.15.4 refuse it, 1.15.5 and later take it as "no version".
        assert_eq!(
            targeting(files, ">= 1.15.0", ">= 1.10"),
            ["a null module `version` needs Terraform 1.15.5 or later"]
        );
        assert_eq!(
            targeting(files, ">= 1.15.5", ">= 1.9"),
            ["a null module `version` needs OpenTofu 1.10.0 or later"]
        );
        assert!(targeting(files, ">= 1.15.5", ">= 1.10").is_empty());
        // No targeted version takes it: the load error's, not this rule's.
        assert!(targeting(files, "< 1.15.5", "< 1.10").is_empty());
        let json: Files = &[(
            "main.tf.json",
            r#"{"module": {"a": {"source": "./a", "version": null}}}"#,
        )];
        assert_eq!(targeting(json, ">= 1.14", ">= 1.10").len(), 1);
        // No constraint: the newest stable releases (Terraform 1.15.9) take it.
        assert!(findings(&super::RULE, files).is_empty());
    }

    const TOFU_1_6: &str = "terraform {\n  required_version = \">= 1.6\"\n}\n";

    #[test]
    fn tofu_files_are_read_from_opentofu_1_8() {
        let files: Files = &[("versions.tofu", TOFU_1_6), ("main.tofu", STARTSWITH)];
        let found = findings(&super::RULE, files);
        assert_eq!(found.len(), 1, "one finding per view");
        assert_eq!(found[0].message, "`.tofu` files need OpenTofu 1.8 or later");
        assert_eq!(found[0].secondary.len(), 1, "the other file is labelled");
        let json: Files = &[(
            "versions.tofu.json",
            r#"{"terraform": {"required_version": ">= 1.6"}}"#,
        )];
        let found = findings(&super::RULE, json);
        assert_eq!(
            found[0].message,
            "`.tofu.json` files need OpenTofu 1.8 or later"
        );
        // Every targeted release reads them.
        let newer: Files = &[("versions.tofu", required!(">= 1.8"))];
        assert!(findings(&super::RULE, newer).is_empty());
        assert!(targeting(files, ">= 1.6", ">= 1.8").is_empty());
        // None does: still said, since no tool reports a file it skips.
        assert_eq!(
            targeting(files, ">= 1.6", "~> 1.7.0"),
            ["`.tofu` files need OpenTofu 1.8 or later"]
        );
    }

    const ACTION: &str = "action \"aws_lambda_invoke\" \"notify\" {\n  config {\n    \
                          function_name = \"notify\"\n  }\n}\n";

    #[test]
    fn terraform_1_13_ignores_actions() {
        let files: Files = &[("main.tf", ACTION)];
        let found = findings_targeting_terraform(&super::RULE, files, "~> 1.13.0");
        assert_eq!(found.len(), 1, "the block only, not its contents");
        assert_eq!(
            found[0].message,
            "a `action` block needs Terraform 1.14 or later"
        );
        let label = found[0].primary.as_ref().map(|l| &*l.message);
        assert_eq!(label, Some("ignored by Terraform 1.13"));
        assert!(found[0].notes[0].contains("silently ignore it"));
        // Not an `Unsupported block type` there: Terraform 1.13 loads the module.
        let unsupported =
            findings_targeting_terraform(&unsupported_construct::RULE, files, "~> 1.13.0");
        assert!(
            unsupported.iter().all(|d| !d.views.terraform),
            "{unsupported:?}"
        );
        let older = targeting(files, ">= 1.12", ">= 1.12");
        assert_eq!(older, ["a `action` block needs Terraform 1.14 or later"]);
        assert!(targeting(files, ">= 1.14", ">= 1.12").is_empty());
        let trigger = "resource \"a\" \"b\" {\n  lifecycle {\n    action_trigger {\n      \
                       events = [after_create]\n    }\n  }\n}\n";
        let json = r#"{"resource": {"a": {"b": {"lifecycle": {"action_trigger": {}}}}}}"#;
        for files in [&[("main.tf", trigger)] as Files, &[("main.tf.json", json)]] {
            assert_eq!(
                targeting(files, "~> 1.13.0", ">= 1.12"),
                ["`action_trigger` in `lifecycle` needs Terraform 1.14 or later"]
            );
        }
    }

    #[test]
    fn enabled_in_a_call_to_a_legacy_module_is_refused_from_opentofu_1_12() {
        let call = "module \"child\" {\n  source = \"./child\"\n  lifecycle {\n    \
                    enabled = true\n  }\n}\n";
        let legacy = "provider \"aws\" {\n  region = \"eu-west-1\"\n}\n";
        let files: Files = &[("main.tf", call), ("child/main.tf", legacy)];
        assert_eq!(
            targeting(files, ">= 1.14", ">= 1.11"),
            [
                "`enabled` in a call to a module with provider configurations is refused from \
              OpenTofu 1.12"
            ]
        );
        // Every targeted release refuses it: `legacy_module_meta_argument`'s; none does: fine.
        assert!(targeting(files, ">= 1.14", ">= 1.12").is_empty());
        assert!(targeting(files, ">= 1.14", "~> 1.11.0").is_empty());
    }

    #[test]
    fn messages_name_the_release() {
        let found = findings(&super::RULE, &[("variables.tf", EPHEMERAL)]);
        let messages: Vec<&str> = found.iter().map(|d| &*d.message).collect();
        assert!(messages.contains(&"`ephemeral` in `variable` needs Terraform 1.10 or later"));
        assert!(messages.contains(&"`ephemeral` in `variable` needs OpenTofu 1.11 or later"));
        let etcd =
            "terraform {\n  required_version = \">= 1.2, < 1.5\"\n  backend \"etcd\" {}\n}\n";
        let found = findings(&super::RULE, &[("backend.tf", etcd)]);
        assert_eq!(
            found[0].message,
            "the `etcd` backend was removed in Terraform 1.3"
        );
    }

    /// The constructs the judgements find fine for one view and its targets are kept for the
    /// next directory judged on the thread with the same ones only (`lint::helpers::schema`):
    /// a module targeting releases older than a function, judged after one that targets newer
    /// releases, still has the call refused.
    #[test]
    fn fine_constructs_are_kept_per_targets() {
        let module = |constraint: &str| {
            format!(
                "terraform {{\n  required_version = \"{constraint}\"\n}}\n\n\
                 locals {{\n  a = templatestring(\"x\", {{}})\n}}\n"
            )
        };
        let (newer, older) = (module(">= 1.10"), module(">= 1.5, < 1.10"));
        let found = |text: &str| findings(&super::RULE, &[("main.tf", text)]).len();
        let in_newer = found(&newer);
        assert!(found(&older) > in_newer);
        assert_eq!(found(&newer), in_newer);
    }
}
