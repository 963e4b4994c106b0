//! A module shipped to both Terraform and OpenTofu users, as real ones are (a `versions.tf` +
//! `versions.tofu` pair, a `language` block in the `.tofu` file): the correct one gives no
//! finding; each broken variant gives exactly the expected one.

use tflint_merge::Diagnostic;
use tflint_merge::{ViewSelection, check_directory};

const VERSIONS_TF: &str = r#"terraform {
  required_version = ">= 1.6"

  required_providers {
    google = {
      source  = "hashicorp/google"
      version = ">= 6.0"
    }
  }
}
"#;

const VERSIONS_TOFU: &str = r#"terraform {
  required_version = ">= 1.12"

  required_providers {
    google = {
      source  = "hashicorp/google"
      version = ">= 6.0"
    }
  }
}

language {
  compatible_with {
    opentofu = ">= 1.12"
  }
}
"#;

const MAIN_TF: &str = r#"variable "project_id" {
  type = string
}

module "bucket" {
  source     = "terraform-google-modules/cloud-storage/google"
  version    = "~> 9.0"
  project_id = var.project_id
}
"#;

fn run(files: &[(&str, &str)]) -> Vec<Diagnostic> {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    check_directory(dir.path(), ViewSelection::Both, &[])
        .expect("no rules to enable")
        .diagnostics
}

fn with(replacements: &[(&str, &str)]) -> Vec<Diagnostic> {
    let mut files = vec![
        ("versions.tf", VERSIONS_TF.to_string()),
        ("versions.tofu", VERSIONS_TOFU.to_string()),
        ("main.tf", MAIN_TF.to_string()),
    ];
    for (name, text) in replacements {
        match files.iter_mut().find(|(n, _)| n == name) {
            Some(entry) => entry.1 = text.to_string(),
            None => files.push((name, text.to_string())),
        }
    }
    let borrowed: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
    run(&borrowed)
}

fn ids(found: &[Diagnostic]) -> Vec<&'static str> {
    found.iter().map(|d| d.rule.as_str()).collect()
}

#[test]
fn the_correct_module_gives_no_finding() {
    let found = with(&[]);
    assert!(
        found.is_empty(),
        "{:#?}",
        found
            .iter()
            .map(|d| (d.rule, &d.message))
            .collect::<Vec<_>>()
    );
}

#[test]
fn each_broken_variant_gives_exactly_the_expected_finding() {
    let cases: Vec<(&str, Vec<(&str, String)>)> = vec![
        (
            "version_constraint_ineffective",
            vec![(
                "versions.tofu",
                VERSIONS_TOFU
                    .replace("opentofu = \">= 1.12\"", "opentofu = \">= 1.10\"")
                    .replace(
                        "required_version = \">= 1.12\"",
                        "required_version = \">= 1.10\"",
                    ),
            )],
        ),
        // `required_version` and `compatible_with` disjoint: OpenTofu 1.12 reads both and
        // refuses the module (`Incompatible module`), and older OpenTofu does not know the
        // `language` block, so it is the load error, not a warning.
        (
            "core_version_unsupported",
            vec![(
                "versions.tofu",
                VERSIONS_TOFU.replace(
                    "required_version = \">= 1.12\"",
                    "required_version = \"< 1.12\"",
                ),
            )],
        ),
        (
            "language_block_in_tf_file",
            vec![
                (
                    "versions.tofu",
                    VERSIONS_TOFU.replace(
                        "language {\n  compatible_with {\n    opentofu = \">= 1.12\"\n  }\n}\n",
                        "",
                    ),
                ),
                (
                    "language.tf",
                    "language {\n  compatible_with {\n    opentofu = \">= 1.12\"\n  }\n}\n".into(),
                ),
            ],
        ),
        (
            "language_edition_unsupported",
            vec![(
                "versions.tofu",
                VERSIONS_TOFU.replace("language {\n", "language {\n  edition = TF2021\n"),
            )],
        ),
        (
            "tofu_shadows_tf",
            vec![(
                "versions.tf",
                format!(
                    "{VERSIONS_TF}\nmoved {{\n  from = module.old\n  to   = module.bucket\n}}\n"
                ),
            )],
        ),
        (
            "views_diverge",
            vec![(
                "extra.tofu",
                "output \"only_tofu\" {\n  value = 1\n}\n".into(),
            )],
        ),
        (
            "version_constraint_invalid",
            vec![("main.tf", MAIN_TF.replace("~> 9.0", "9.x"))],
        ),
        (
            "module_source_not_static",
            vec![(
                "main.tf",
                MAIN_TF.replace(
                    "\"terraform-google-modules/cloud-storage/google\"",
                    "\"terraform-google-modules/${var.project_id}/google\"",
                ),
            )],
        ),
        (
            "backend_unknown",
            vec![(
                "backend.tf",
                "terraform {\n  backend \"gcp\" {}\n}\n".into(),
            )],
        ),
    ];
    let mut failures = Vec::new();
    for (expected, replacements) in &cases {
        let borrowed: Vec<(&str, &str)> =
            replacements.iter().map(|(n, t)| (*n, t.as_str())).collect();
        let found = with(&borrowed);
        if ids(&found) != [*expected] {
            failures.push(format!(
                "{expected}: got {:?}",
                found
                    .iter()
                    .map(|d| (d.rule, d.message.clone()))
                    .collect::<Vec<_>>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_tofu_file_without_constraints_hides_the_terraform_one() {
    // `versions.tofu` hides `versions.tf` from OpenTofu, so no OpenTofu release reads
    // Terraform's constraint: `required_version_terraform_only` has nothing to say (it speaks
    // when a targeted OpenTofu 1.6–1.11 reads a `.tf` constraint that excludes it).
    let stripped = VERSIONS_TOFU
        .replace("  required_version = \">= 1.12\"\n", "")
        .replace(
            "language {\n  compatible_with {\n    opentofu = \">= 1.12\"\n  }\n}\n",
            "",
        );
    let found = with(&[("versions.tofu", &stripped)]);
    // OpenTofu 1.6 and 1.7 read no `.tofu` file: they check `versions.tf`'s `>= 1.6`, which
    // admits them, so they are targeted, and they load the module without `versions.tofu`.
    assert_eq!(ids(&found), ["feature_newer_than_target"]);
    assert_eq!(found[0].message, "`.tofu` files need OpenTofu 1.8 or later");
}

#[test]
fn the_other_views_file_is_named_where_it_matters() {
    // A `moved` block only in versions.tf: the finding is on it, with versions.tofu as the
    // secondary label.
    let found = with(&[(
        "versions.tf",
        &format!("{VERSIONS_TF}\nmoved {{\n  from = module.old\n  to   = module.bucket\n}}\n"),
    )]);
    let shadow = found
        .iter()
        .find(|d| d.rule.as_str() == "tofu_shadows_tf")
        .expect("tofu_shadows_tf");
    assert!(
        shadow
            .primary
            .as_ref()
            .is_some_and(|l| l.file.display.ends_with("versions.tf"))
    );
    assert!(
        shadow
            .secondary
            .iter()
            .any(|l| l.file.display.ends_with("versions.tofu"))
    );
}
