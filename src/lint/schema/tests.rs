//! The tools' own schema errors, per view and targeted release, native and JSON.

use crate::diagnostic::{Diagnostic, ids};
use crate::lint::directory::TargetVersions;
use crate::lint::testing::{Files, all_findings, findings_targeting};

/// The schema load errors of a case: (summary, first note, views).
fn errors(files: Files) -> Vec<(String, String, String)> {
    describe(all_findings(
        &crate::lint::testing::stand_ins::ON_BY_DEFAULT,
        files,
    ))
}

fn describe(found: Vec<Diagnostic>) -> Vec<(String, String, String)> {
    found
        .into_iter()
        .filter(|d| [ids::UNSUPPORTED_CONSTRUCT, ids::UNKNOWN_FUNCTION].contains(&d.rule))
        .map(|d| {
            let note = d.notes.first().cloned().unwrap_or_default();
            (d.message, note, format!("{:?}", d.views))
        })
        .collect()
}

fn one(files: Files) -> (String, String, String) {
    let found = errors(files);
    assert_eq!(found.len(), 1, "{found:#?}");
    found.into_iter().next().expect("one")
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
    let (summary, _, views) = one(&[("main.tf.json", r#"{"action": {"a": {"b": {"count": 1}}}}"#)]);
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

/// A module that may call the `aws` provider's functions.
const REQUIRES_AWS: &str = "terraform {\n  required_providers {\n    aws = {\n      source = \
                            \"hashicorp/aws\"\n    }\n  }\n}\n";

#[test]
fn unknown_functions() {
    let call = "locals {\n  a = startwith(\"ab\", \"a\")\n  b = core::upper(\"x\")\n}\n";
    let (summary, detail, _) = one(&[("main.tf", call)]);
    assert_eq!(summary, "Call to unknown function");
    assert_eq!(
        detail,
        "There is no function named \"startwith\". Did you mean \"startswith\"?"
    );
    // The tools suggest any name under three edits away, however short the name (HCL's and
    // Terraform's `NameSuggestion`): "titel" is two edits from "title".
    let (_, detail, _) = one(&[("main.tf", "locals {\n  a = titel(\"x\")\n}\n")]);
    assert_eq!(
        detail,
        "There is no function named \"titel\". Did you mean \"title\"?"
    );
    let tofu_only = "locals {\n  a = urldecode(\"x\")\n}\n";
    let (_, _, views) = one(&[("main.tf", tofu_only)]);
    assert!(
        views.contains("terraform: true") && views.contains("opentofu: false"),
        "{views}"
    );
    assert!(
        errors(&[
            (
                "main.tf",
                "locals {\n  a = provider::aws::arn_parse(\"x\")\n}\n"
            ),
            ("versions.tf", REQUIRES_AWS),
        ])
        .is_empty()
    );
    // A type constraint is not a call.
    let typed = "variable \"a\" {\n  type = set(object({ b = optional(string) }))\n}\n";
    assert!(errors(&[("main.tf", typed)]).is_empty());
}

#[test]
fn judged_against_the_targeted_releases() {
    // `ephemeral = true` on a variable: Terraform 1.10, OpenTofu 1.11.
    let variable = "variable \"x\" {\n  ephemeral = true\n}\n";
    let targets = |terraform: &str, opentofu: &str| TargetVersions {
        terraform: Some(terraform.into()),
        opentofu: Some(opentofu.into()),
    };
    let rule = &crate::lint::testing::stand_ins::ON_BY_DEFAULT;
    let old = findings_targeting(
        rule,
        &[("main.tf", variable)],
        targets("~> 1.9.0", "~> 1.10.0"),
    );
    assert!(old.is_empty(), "findings of another rule only");
    let all = |t: TargetVersions| {
        let dir = crate::lint::testing::write_files(&[("main.tf", variable)]);
        let mut options = crate::lint::directory::Options::new(
            crate::lint::directory::ViewSelection::Both,
            crate::lint::testing::settings_for(rule),
        );
        options.target_versions = t;
        describe(crate::lint::directory::check_directory(dir.path(), &options).diagnostics)
    };
    let refused = all(targets("~> 1.9.0", "~> 1.10.0"));
    assert_eq!(refused.len(), 2, "{refused:#?}"); // one per view: each names its own release
    assert!(refused.iter().all(|r| r.0 == "Unsupported argument"));
    // Some targeted releases accept it: not a load error.
    assert!(all(targets(">= 1.9", ">= 1.10")).is_empty());
}

/// An unknown function as reported: its name, and the (line, column) of its start and end.
type UnknownCall = (String, (usize, usize), (usize, usize));

/// The unknown functions of a case, in order.
fn unknown_calls(files: Files) -> Vec<UnknownCall> {
    let found = all_findings(&crate::lint::testing::stand_ins::ON_BY_DEFAULT, files);
    let mut calls: Vec<_> = found
        .into_iter()
        .filter(|d| d.rule == ids::UNKNOWN_FUNCTION)
        .map(|d| {
            let primary = d.primary.as_ref().expect("a location");
            let name = primary
                .message
                .split('`')
                .nth(1)
                .unwrap_or_default()
                .to_string();
            (name, primary.start(), primary.end())
        })
        .collect();
    calls.sort_by_key(|c| c.1);
    calls
}

/// Every call in an evaluated expression is judged, with the name's own place: in templates,
/// heredocs and directives, operators, conditionals, `for` expressions, indexes and splats,
/// parentheses, arguments and collections, in tool-defined and provider-defined bodies.
#[test]
fn unknown_functions_anywhere_in_an_expression() {
    let native = r#"locals {
  a = "x-${upperr("x")}"
  b = <<EOT
%{ if lowerr("a") == "a" }y%{ endif }
EOT
  c = 1 + absx(1)
  d = true ? joinn(",", []) : ""
  e = [for s in splitt(",", "a") : s if containss([], s)]
  f = local.m[keyss(local.m)[0]]
  g = (lengthh([]))
  h = max(minn(1), 2)
  i = { k = tostringg(1), (lowerr("k")) = 1 }
  j = local.m[*].x[floorr(1)]
  k = !alltruee([])
  l = "${provider::aws::arn_parse("x")} ${core::upperr("x")}"
}
resource "aws_instance" "a" {
  tags = { Name = "${formatt("%s", "a")}" }
}
"#;
    let found = unknown_calls(&[("main.tf", native), ("versions.tf", REQUIRES_AWS)]);
    let names: Vec<&str> = found.iter().map(|c| c.0.as_str()).collect();
    assert_eq!(
        names,
        [
            "upperr",
            "lowerr",
            "absx",
            "joinn",
            "splitt",
            "containss",
            "keyss",
            "lengthh",
            "minn",
            "tostringg",
            "lowerr",
            "floorr",
            "alltruee",
            // Each tool words `core::` apart: one finding per view.
            "upperr",
            "upperr",
            "formatt",
        ]
    );
    // The name, as written, is the place.
    assert_eq!((found[0].1, found[0].2), ((2, 12), (2, 18)));
    assert_eq!((found[1].1, found[1].2), ((4, 7), (4, 13)));
    assert_eq!((found[13].1, found[13].2), ((15, 43), (15, 55)));
}

#[test]
fn unknown_functions_in_json_templates_the_tools_evaluate() {
    let json = r#"{
  "locals": {
    "a": "\u00e9\n-${upperr(\"x\")}",
    "b": "${1 + absx(1)}",
    "c": {"${keyy(\"k\")}": ["%{ if lowerr(\"a\") == \"a\" }y%{ endif }"]},
    "d": "${provider::aws::arn_parse(\"x\")}"
  },
  "resource": {"aws_instance": {"a": {"tags": {"Name": "${formatt(\"%s\", \"a\")}"}}}},
  "variable": {"v": {"default": "${nofunc()}", "description": "${nofunc()}"}},
  "module": {"m": {"source": "./${nofunc()}"}}
}"#;
    let found = unknown_calls(&[("main.tf.json", json), ("versions.tf", REQUIRES_AWS)]);
    let names: Vec<&str> = found.iter().map(|c| c.0.as_str()).collect();
    assert_eq!(names, ["upperr", "absx", "keyy", "lowerr", "formatt"]);
    // Escapes before the call shift its place in the file: `\u00e9\n-${` is 12 bytes there.
    assert_eq!((found[0].1, found[0].2), ((3, 22), (3, 28)));
    assert_eq!((found[1].1, found[1].2), ((4, 17), (4, 21)));
    // Arguments read literally and Terragrunt's JSON are not templates for the tools.
    let literal = r#"{"variable": {"v": {"default": "${nofunc()}"}}}"#;
    assert!(unknown_calls(&[("main.tf.json", literal)]).is_empty());
}

#[test]
fn calls_the_tools_do_not_evaluate_are_not_judged() {
    let native = r#"variable "v" {
  type    = list(string)
  default = nofunc()
}
module "m" {
  source     = "./m"
  depends_on = [nofunc()]
}
unknown "x" {
  a = nofunc()
}
"#;
    assert!(unknown_calls(&[("main.tf", native), ("m/main.tf", "")]).is_empty());
}

/// The summary and detail of each unknown function of a case in one view.
fn namespace_errors(files: Files, view: crate::knowledge::View) -> Vec<(String, String)> {
    let found = all_findings(&crate::lint::testing::stand_ins::ON_BY_DEFAULT, files);
    found
        .into_iter()
        .filter(|d| d.rule == ids::UNKNOWN_FUNCTION)
        .filter(|d| match view {
            crate::knowledge::View::Terraform => d.views.terraform,
            crate::knowledge::View::OpenTofu => d.views.opentofu,
        })
        .map(|d| (d.message, d.notes.first().cloned().unwrap_or_default()))
        .collect()
}

#[test]
fn namespaced_calls_with_each_tools_texts() {
    use crate::knowledge::View::{OpenTofu, Terraform};
    let required = REQUIRES_AWS;
    let calls = |call: &str| format!("locals {{\n  a = \"${{{call}(\"x\")}}\"\n}}\n");
    let case = |call: &str, view| {
        let main = calls(call);
        let files: Files = &[("versions.tf", required), ("main.tf", &main)];
        // `Files` borrows: run it here.
        namespace_errors(files, view)
    };
    // Declared providers and built-ins by their `core::` name resolve.
    for call in ["provider::aws::arn_parse", "core::upper"] {
        assert!(case(call, Terraform).is_empty(), "{call}");
        assert!(case(call, OpenTofu).is_empty(), "{call}");
    }
    // OpenTofu's alias form; Terraform has none.
    assert!(case("provider::aws::east::arn_parse", OpenTofu).is_empty());
    let not_required = |provider: &str, function: &str| {
        format!(
            "There is no function named \"{function}\". Ensure that provider name \
             \"{provider}\" is declared in this module's required_providers block, and that \
             this provider offers a function named \"f\"."
        )
    };
    assert_eq!(
        case("provider::aws::east::f", Terraform),
        [(
            "Unknown provider function".into(),
            not_required("aws", "provider::aws::east::f")
        )]
    );
    assert_eq!(
        case("provider::gcp::f", Terraform),
        [(
            "Unknown provider function".into(),
            not_required("gcp", "provider::gcp::f")
        )]
    );
    assert_eq!(
        case("provider::gcp::f", OpenTofu),
        [(
            "Unknown function provider".into(),
            "Provider \"gcp\" does not exist within the required_providers of this module".into()
        )]
    );
    assert_eq!(
        case("aws::f", Terraform),
        [(
            "Unknown provider function".into(),
            "The function namespace \"aws\" is not valid. Provider function calls must use the \
             \"provider::\" namespace prefix."
                .into()
        )]
    );
    assert_eq!(
        case("aws::f", OpenTofu),
        [(
            "Unknown function namespace".into(),
            "Function \"aws::f\" does not exist within a valid namespace (provider,core)".into()
        )]
    );
    assert_eq!(
        case("provider::f", OpenTofu),
        [(
            "Invalid function format".into(),
            "invalid provider function \"provider::f\": expected provider::<name>::<function> \
             or provider::<name>::<alias>::<function>"
                .into()
        )]
    );
    assert_eq!(
        case("provider::f", Terraform),
        [(
            "Unknown provider function".into(),
            "The function call must include the provider name after the \"provider::\" prefix."
                .into()
        )]
    );
    assert_eq!(
        case("core::uper", OpenTofu),
        [(
            "Call to unknown function".into(),
            "There is no builtin (core::) function named \"uper\".".into()
        )]
    );
    assert_eq!(
        case("core::uper", Terraform),
        [(
            "Unknown provider function".into(),
            "The function namespace \"core\" is not valid. Provider function calls must use \
             the \"provider::\" namespace prefix."
                .into()
        )]
    );
}

#[test]
fn provider_functions_in_json_and_with_required_providers_in_an_override() {
    use crate::knowledge::View::{OpenTofu, Terraform};
    let json = r#"{"locals": {"a": "${provider::gcp::f(1)}"}}"#;
    for view in [Terraform, OpenTofu] {
        assert_eq!(namespace_errors(&[("main.tf.json", json)], view).len(), 1);
    }
    let override_declares = r#"{"terraform": {"required_providers": {"gcp": {}}}}"#;
    let files: Files = &[
        ("main.tf.json", json),
        ("x_override.tf.json", override_declares),
    ];
    assert!(namespace_errors(files, Terraform).is_empty());
    assert!(namespace_errors(files, OpenTofu).is_empty());
}

/// Every finding of a case, for the given targets.
fn all_targeting(files: Files, targets: TargetVersions) -> Vec<Diagnostic> {
    let dir = crate::lint::testing::write_files(files);
    let rule = &crate::lint::testing::stand_ins::ON_BY_DEFAULT;
    let mut options = crate::lint::directory::Options::new(
        crate::lint::directory::ViewSelection::Both,
        crate::lint::testing::settings_for(rule),
    );
    options.target_versions = targets;
    crate::lint::directory::check_directory(dir.path(), &options).diagnostics
}

/// Before namespaces (Terraform 1.8, OpenTofu 1.7), every namespaced call is refused by its
/// namespace: one finding, not one per problem.
#[test]
fn namespaced_calls_before_namespaces() {
    let call = "locals {\n  a = provider::gcp::f(1)\n}\n";
    let targets = TargetVersions {
        terraform: Some("~> 1.7.0".into()),
        opentofu: Some("~> 1.6.0".into()),
    };
    let found = all_targeting(&[("main.tf", call)], targets);
    let unknown: Vec<_> = found
        .iter()
        .filter(|d| d.rule == ids::UNKNOWN_FUNCTION)
        .collect();
    assert_eq!(unknown.len(), 2, "{unknown:#?}"); // one per view, each its own release
    assert!(
        unknown
            .iter()
            .all(|d| d.message == "Call to unknown function")
    );
    // With a release that has namespaces among the targets: the problem, and the warning.
    let targets = TargetVersions {
        terraform: Some(">= 1.7".into()),
        opentofu: Some(">= 1.6".into()),
    };
    let found = all_targeting(&[("main.tf", call)], targets);
    let mut messages: Vec<_> = found
        .iter()
        .filter(|d| d.rule == ids::UNKNOWN_FUNCTION)
        .map(|d| d.message.as_str())
        .collect();
    messages.sort_unstable();
    assert_eq!(
        messages,
        ["Unknown function provider", "Unknown provider function"]
    );
}

/// Experimental constructs load only when an experimental build is targeted (a Terraform alpha
/// release or development snapshot): `state_store` from 1.14, `action` in 1.13.
#[test]
fn experimental_builds_accept_experimental_constructs() {
    let rule = &crate::lint::testing::stand_ins::ON_BY_DEFAULT;
    let terraform = |version: &str, files: Files| {
        let targets = TargetVersions {
            terraform: Some(version.into()),
            opentofu: None,
        };
        let found = findings_targeting(rule, files, targets.clone());
        let all =
            crate::lint::testing::findings_targeting_id(ids::UNSUPPORTED_CONSTRUCT, files, targets);
        assert!(found.is_empty(), "findings of another rule only");
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
}

/// A managed resource's `lifecycle` settings in a data source or an ephemeral resource, with
/// each tool's summary, in native and JSON syntax.
#[test]
fn managed_only_lifecycle_settings() {
    let summaries = |files: Files| -> Vec<(String, String)> {
        let mut found: Vec<(String, String)> =
            all_findings(&crate::lint::testing::stand_ins::ON_BY_DEFAULT, files)
                .into_iter()
                .filter(|d| d.rule == ids::UNSUPPORTED_CONSTRUCT)
                .map(|d| (d.message, format!("{:?}", d.views)))
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

#[test]
fn namespaces_split_at_the_first_double_colon() {
    use super::split_namespace;
    for name in [
        "upper",
        "provider::aws::arn_parse",
        "core::upper",
        "a:b::c",
        "x::",
        "::y",
        ":",
    ] {
        assert_eq!(split_namespace(name), name.split_once("::"), "{name}");
    }
}
