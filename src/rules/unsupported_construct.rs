//! Blocks and arguments that no targeted release accepts in a block the tools define (`terraform`,
//! `variable`, `output`, `moved`, `lifecycle`...): `Unsupported block type`, `Unsupported
//! argument`, or in JSON `Extraneous JSON object property`, with the tools' "Did you mean".
//! Judged against the targeted releases (see `lint::helpers::schema`): a construct only some
//! targeted releases have is `feature_newer_than_target`'s. Provider-defined bodies and module
//! calls are not judged: their schema is not ours.
//!
//! Also the `lifecycle` settings that only managed resources (`resource` blocks) have, written in
//! a data source or an ephemeral resource. Both tools decode a data source's or ephemeral
//! resource's `lifecycle` with the resource schema and then refuse what it accepted but only
//! managed resources use, each with its own summary (Terraform's and OpenTofu's `resource.go`,
//! `decodeDataBlock` and `decodeEphemeralBlock`).

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::features::{self, Body, Place};
use crate::source::{Span, Syntax};
use crate::syntax::Block;

use crate::lint::helpers::schema::{
    Judgement, Written, availability_note, did_you_mean, judgements,
};
use crate::lint::helpers::top_level_blocks_of;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "unsupported_construct",
    kind: LoadError,
    summary: "a block or argument no targeted release accepts in a tool-defined block",
    check: Check::View(RuleViews::Both, check),
};

/// The blocks and arguments every targeted release refuses, then the managed resources'
/// `lifecycle` settings in data sources and ephemeral resources.
fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let refused = judgements(ctx).iter().filter(|j| j.refused_by_all(ctx));
    for judgement in refused {
        if matches!(judgement.written, Written::Block | Written::Argument) {
            out.push(unsupported(ctx, judgement));
        }
    }
    managed_only(ctx, out);
}

/// `Unsupported block type`, `Unsupported argument` or `Extraneous JSON object property`, with
/// the tools' detail.
fn unsupported(ctx: &Context, judgement: &Judgement) -> Diagnostic {
    let name = &judgement.name;
    let did_you_mean = did_you_mean(ctx, judgement);
    let (detail, label) = match (judgement.written, judgement.syntax) {
        (_, Syntax::Json | Syntax::TerragruntJson) => (
            format!("No argument or block type is named \"{name}\".{did_you_mean}"),
            format!("`{name}` is not expected here"),
        ),
        (Written::Block, Syntax::Native) => (
            format!("Blocks of type \"{name}\" are not expected here.{did_you_mean}"),
            format!("`{name}` blocks are not expected here"),
        ),
        (_, Syntax::Native) => (
            format!("An argument named \"{name}\" is not expected here.{did_you_mean}"),
            format!("`{name}` is not expected here"),
        ),
    };
    let d = ctx
        .finding(&RULE, judgement.summary())
        .at(ctx.files, judgement.span, label)
        .with_note(detail);
    match availability_note(ctx, judgement) {
        Some(note) => d.with_note(note),
        None => d,
    }
}

/// `lifecycle` settings that only managed resources (`resource` blocks) have, in every data
/// source and ephemeral resource of the view.
fn managed_only(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (_, block) in top_level_blocks_of(ctx, &["data", "ephemeral"]) {
        for lifecycle in block.body.blocks_of("lifecycle") {
            for attr in &lifecycle.body.attributes {
                // OpenTofu's `enabled` (1.11) is for every kind of resource.
                let every_kind = ctx.view == View::OpenTofu && attr.name == "enabled";
                if !every_kind && decoded(ctx, &attr.name) {
                    out.push(argument(ctx, block, lifecycle, &attr.name, attr.name_span));
                }
            }
            for nested in lifecycle.body.blocks_of("action_trigger") {
                if decoded(ctx, &nested.kind) {
                    out.push(nested_block(ctx, block, nested));
                }
            }
        }
    }
}

/// Whether every targeted release has `name` in a resource's `lifecycle` (the others refuse
/// it as `Unsupported argument` already).
fn decoded(ctx: &Context, name: &str) -> bool {
    let place = Place::In(Body::Lifecycle);
    features::find(place, name).is_some() && ctx.targets.refusing(place, name).is_empty()
}

/// What the tools call the resources of a block kind in these errors.
fn resources(kind: &str) -> &'static str {
    match kind {
        "data" => "data resources",
        _ => "ephemeral resources",
    }
}

/// `Invalid data resource lifecycle argument` (both tools), `Invalid ephemeral resource
/// lifecycle argument` (Terraform) or `Invalid lifecycle configuration for ephemeral resource`
/// (OpenTofu, on the `lifecycle` block).
fn argument(
    ctx: &Context,
    block: &Block,
    lifecycle: &Block,
    name: &str,
    name_span: Span,
) -> Diagnostic {
    let label = format!("`{name}` is for `resource` blocks only");
    let (summary, detail, at) = match (block.kind.as_str(), ctx.view) {
        ("ephemeral", View::OpenTofu) => (
            "Invalid lifecycle configuration for ephemeral resource".to_string(),
            format!(
                "The lifecycle argument \"{name}\" cannot be used in ephemeral resources. This \
                 is meant to be used strictly in \"resource\" blocks."
            ),
            lifecycle.header_span,
        ),
        (kind, _) => (
            format!("Invalid {} resource lifecycle argument", kind_word(kind)),
            format!(
                "The lifecycle argument \"{name}\" is defined only for managed resources \
                 (\"resource\" blocks), and is not valid for {}.",
                resources(kind)
            ),
            name_span,
        ),
    };
    let mut d = ctx
        .finding(&RULE, summary)
        .at(ctx.files, at, label)
        .with_note(detail)
        .with_help(format!("remove `{name}` from this `lifecycle` block"));
    if at != name_span {
        d = d.with_label(ctx.files, name_span, format!("`{name}` set here"));
    }
    d
}

/// `Invalid data resource lifecycle nested block` / `Invalid ephemeral resource lifecycle
/// nested block` (Terraform's `action_trigger`).
fn nested_block(ctx: &Context, block: &Block, nested: &Block) -> Diagnostic {
    let kind = block.kind.as_str();
    ctx.finding(
        &RULE,
        format!(
            "Invalid {} resource lifecycle nested block",
            kind_word(kind)
        ),
    )
    .at(
        ctx.files,
        nested.header_span,
        format!("`{}` is for `resource` blocks only", nested.kind),
    )
    .with_note(format!(
        "The lifecycle nested block \"{}\" is defined only for managed resources (\"resource\" \
         blocks), and is not valid for {}.",
        nested.kind,
        resources(kind)
    ))
}

/// `data` or `ephemeral`, as the summaries spell it.
fn kind_word(kind: &str) -> &'static str {
    match kind {
        "data" => "data",
        _ => "ephemeral",
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::directory::TargetVersions;
    use crate::lint::testing::{
        Files, described, findings, findings_of, findings_targeting_of,
        findings_targeting_terraform, only,
    };
    use crate::rules::unknown_function;

    /// Both schema load errors: one judgement gives either, so their tests look at both.
    const SCHEMA: [&crate::lint::Rule; 2] = [&super::RULE, &unknown_function::RULE];

    /// The schema load errors of a case, (summary, first note, views).
    fn errors(files: Files) -> Vec<(String, String, String)> {
        described(findings_of(&SCHEMA, files))
    }

    fn one(files: Files) -> (String, String, String) {
        only(errors(files))
    }

    #[test]
    fn unknown_top_level_blocks_and_arguments() {
        let (summary, detail, _) = one(&[("main.tf", "varyable \"x\" {}\n")]);
        assert_eq!(summary, "Unsupported block type");
        assert_eq!(
            detail,
            "Blocks of type \"varyable\" are not expected here. Did you mean \"variable\"?"
        );
        let (summary, detail, _) = one(&[("main.tf", "foo = \"bar\"\n")]);
        assert_eq!(summary, "Unsupported argument");
        assert_eq!(detail, "An argument named \"foo\" is not expected here.");
        let (summary, detail, _) = one(&[("main.tf.json", r#"{"varyable": {"x": {}}}"#)]);
        assert_eq!(summary, "Extraneous JSON object property");
        assert_eq!(
            detail,
            "No argument or block type is named \"varyable\". Did you mean \"variable\"?"
        );
        assert!(
            errors(&[(
                "main.tf.json",
                r#"{"//": "a comment", "variable": {"x": {}}}"#
            )])
            .is_empty()
        );
    }

    /// Override files are decoded with the full schema of variables, outputs and `lifecycle`:
    /// Terraform 1.6.6 and 1.15.5 refuse each misspelling below, with "Did you mean".
    #[test]
    fn misspellings_in_override_files() {
        let main = "variable \"v\" {}\noutput \"o\" {\n  value = 1\n}\nresource \"terraform_data\" \
                    \"r\" {}\n";
        let over = "variable \"v\" {\n  descripton = \"d\"\n}\noutput \"o\" {\n  descripton = \
                    \"d\"\n}\nresource \"terraform_data\" \"r\" {\n  lifecycle {\n    \
                    create_before_destroyy = true\n  }\n}\n";
        let found = errors(&[("main.tf", main), ("x_override.tf", over)]);
        let details: Vec<&str> = found.iter().map(|(_, detail, _)| detail.as_str()).collect();
        assert_eq!(
            details,
            [
                "An argument named \"descripton\" is not expected here. Did you mean \"description\"?",
                "An argument named \"descripton\" is not expected here. Did you mean \"description\"?",
                "An argument named \"create_before_destroyy\" is not expected here. Did you mean \
                 \"create_before_destroy\"?",
            ]
        );
        let json = r#"{"variable": {"v": {"nulable": true}}}"#;
        let (summary, _, _) = one(&[("main.tf", main), ("x_override.tf.json", json)]);
        assert_eq!(summary, "Extraneous JSON object property");
    }

    #[test]
    fn cross_tool_constructs_in_the_view_that_refuses_them() {
        let lifecycle = "resource \"a\" \"b\" {\n  lifecycle {\n    enabled = true\n  }\n}\n";
        let (summary, _, views) = one(&[("main.tf", lifecycle)]);
        assert_eq!(
            (summary.as_str(), views.as_str()),
            (
                "Unsupported argument",
                "Views { terraform: true, opentofu: false }"
            )
        );
        let encryption = "terraform {\n  encryption {}\n}\n";
        assert_eq!(one(&[("main.tf", encryption)]).0, "Unsupported block type");
        let action = "action \"a\" \"b\" {}\n";
        let (_, _, views) = one(&[("main.tf", action)]);
        assert!(
            views.contains("opentofu: true") && views.contains("terraform: false"),
            "{views}"
        );
        // `language` in a `.tf` file is `language_block_in_tf_file`'s error, nor is its body judged.
        let language = "language {\n  edition = tofu2024\n}\n";
        assert!(errors(&[("main.tf", language)]).is_empty());
        let state_store = "terraform {\n  state_store \"x\" {}\n}\n";
        let (summary, _, views) = one(&[("main.tf", state_store)]);
        assert_eq!(summary, "Unsupported block type");
        assert!(
            views.contains("terraform: true") && views.contains("opentofu: true"),
            "{views}"
        );
        // JSON `action` blocks have two labels: Terraform accepts them, OpenTofu does not.
        let (summary, _, views) =
            one(&[("main.tf.json", r#"{"action": {"a": {"b": {"count": 1}}}}"#)]);
        assert_eq!(summary, "Extraneous JSON object property");
        assert!(
            views.contains("opentofu: true") && views.contains("terraform: false"),
            "{views}"
        );
        let json = r#"{"resource": {"a": {"b": {"lifecycle": {"action_trigger": {}}}}}}"#;
        let (summary, _, _) = one(&[("main.tf.json", json)]);
        assert_eq!(summary, "Extraneous JSON object property");
    }

    #[test]
    fn provider_defined_bodies_are_never_judged() {
        let resource = "resource \"aws_instance\" \"a\" {\n  whatever = 1\n  nested {}\n}\n";
        let provider = "provider \"aws\" {\n  region = \"x\"\n  assume_role {}\n}\n";
        let module = "module \"m\" {\n  source = \"x/y/z\"\n  anything = 1\n}\n";
        assert!(errors(&[("main.tf", resource), ("p.tf", provider), ("m.tf", module)]).is_empty());
    }

    #[test]
    fn judged_against_the_targeted_releases() {
        // `ephemeral = true` on a variable: Terraform 1.10, OpenTofu 1.11.
        let variable = "variable \"x\" {\n  ephemeral = true\n}\n";
        let targets = |terraform: &str, opentofu: &str| TargetVersions {
            terraform: Some(terraform.into()),
            opentofu: Some(opentofu.into()),
        };
        let all = |t: TargetVersions| {
            described(findings_targeting_of(&SCHEMA, &[("main.tf", variable)], t))
        };
        let refused = all(targets("~> 1.9.0", "~> 1.10.0"));
        assert_eq!(refused.len(), 2, "{refused:#?}"); // one per view: each names its own release
        assert!(refused.iter().all(|r| r.0 == "Unsupported argument"));
        // Some targeted releases accept it: not a load error.
        assert!(all(targets(">= 1.9", ">= 1.10")).is_empty());
    }

    /// Experimental constructs load only when an experimental build is targeted (a Terraform alpha
    /// release or development snapshot): `state_store` from 1.14, `action` in 1.13.
    #[test]
    fn experimental_builds_accept_experimental_constructs() {
        let terraform = |version: &str, files: Files| {
            let all = findings_targeting_terraform(&super::RULE, files, version);
            all.into_iter()
                .filter(|d| d.views.terraform)
                .map(|d| d.message)
                .collect::<Vec<_>>()
        };
        let native = "terraform {\n  state_store \"x\" {\n    provider \"p\" {}\n  }\n}\n";
        let json = r#"{"terraform": {"state_store": {"x": {"provider": {"p": {}}}}}}"#;
        for files in [&[("main.tf", native)][..], &[("main.tf.json", json)][..]] {
            for version in ["1.17.0-dev", "1.15.0-alpha20250101", "= 1.14.0-alpha1"] {
                assert!(terraform(version, files).is_empty(), "{version} {files:?}");
            }
            // Not in 1.13's schema; betas, release candidates and releases refuse it.
            for version in [
                "1.13.0-alpha1",
                "1.16.0-rc2",
                "1.16.0-beta1",
                "1.15.0",
                ">= 1.14",
            ] {
                assert_eq!(terraform(version, files).len(), 1, "{version} {files:?}");
            }
        }
        // From 1.14 Terraform refuses it with a diagnostic of its own, `Unsupported block type`
        // in either syntax (`internal/configs/parser_config.go`); before, JSON's schema summary.
        let json: Files = &[("main.tf.json", json)];
        assert_eq!(terraform("1.15.5", json), ["Unsupported block type"]);
        assert_eq!(terraform("1.14.9", json), ["Unsupported block type"]);
        assert_eq!(
            terraform("1.12.2", json),
            ["Extraneous JSON object property"]
        );
    }

    /// A managed resource's `lifecycle` settings in a data source or an ephemeral resource, with
    /// each tool's summary, in native and JSON syntax.
    #[test]
    fn managed_only_lifecycle_settings() {
        let summaries = |files: Files| -> Vec<(String, String)> {
            let mut found: Vec<(String, String)> = (findings(&super::RULE, files).into_iter())
                .map(|d| (d.message.into_owned(), format!("{:?}", d.views)))
                .collect();
            found.sort();
            found
        };
        let both = "Views { terraform: true, opentofu: true }".to_string();
        let data = "data \"a\" \"b\" {\n  lifecycle {\n    ignore_changes = []\n  }\n}\n";
        let data_json = r#"{"data": {"a": {"b": {"lifecycle": {"ignore_changes": []}}}}}"#;
        for files in [&[("main.tf", data)][..], &[("main.tf.json", data_json)][..]] {
            assert_eq!(
                summaries(files),
                [(
                    "Invalid data resource lifecycle argument".into(),
                    both.clone()
                )]
            );
        }
        let ephemeral = "ephemeral \"a\" \"b\" {\n  lifecycle {\n    create_before_destroy = true\n  \
                         }\n}\n";
        assert_eq!(
            summaries(&[("main.tf", ephemeral)]),
            [
                (
                    "Invalid ephemeral resource lifecycle argument".into(),
                    "Views { terraform: true, opentofu: false }".into()
                ),
                (
                    "Invalid lifecycle configuration for ephemeral resource".into(),
                    "Views { terraform: false, opentofu: true }".into()
                ),
            ]
        );
        // Terraform's `action_trigger` (1.14); OpenTofu has none, and refuses it as unknown.
        let trigger = "data \"a\" \"b\" {\n  lifecycle {\n    action_trigger {}\n  }\n}\n";
        assert_eq!(
            summaries(&[("main.tf", trigger)]),
            [
                (
                    "Invalid data resource lifecycle nested block".into(),
                    "Views { terraform: true, opentofu: false }".into()
                ),
                (
                    "Unsupported block type".into(),
                    "Views { terraform: false, opentofu: true }".into()
                ),
            ]
        );
        // OpenTofu's `enabled` is for data sources too; preconditions are for every kind.
        let fine = "data \"a\" \"b\" {\n  lifecycle {\n    enabled = true\n    precondition {\n      \
                    condition = true\n      error_message = \"x\"\n    }\n  }\n}\n";
        assert!(summaries(&[("main.tofu", fine)]).is_empty());
    }
}
