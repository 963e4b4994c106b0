//! `foo.tofu` hides `foo.tf` from OpenTofu: when the `.tf` file has blocks its twin does not,
//! say so once per pair and show what only Terraform sees.
//!
//! A `terraform` block that holds nothing but `required_version` is Terraform's own constraint:
//! hiding it from OpenTofu is the point of the layout OpenTofu recommends, `versions.tf` for
//! Terraform beside `versions.tofu` with OpenTofu's `required_version` or `language` block
//! (opentofu/opentofu `website/docs/language/settings/index.mdx`, "Compatibility with Older
//! Versions and Other Software"), so it is not counted.

use std::collections::HashSet;

use crate::diagnostic::Diagnostic;
use crate::source::FileId;
use crate::syntax::{Block, File};

use crate::lint::{Check, DirectoryContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "tofu_shadows_tf",
    severity: Notice,
    default: On,
    summary: "a .tofu file hides its .tf twin from OpenTofu",
    check: Check::Directory(check),
};

fn check(dir: &DirectoryContext, out: &mut Vec<Diagnostic>) {
    for &(hidden, by) in dir.shadowed {
        let (Some(tf), Some(tofu)) = (parsed(dir, hidden), parsed(dir, by)) else {
            continue;
        };
        let in_tofu: HashSet<_> = tofu.body.blocks.iter().map(identity).collect();
        let only_tf: Vec<&Block> = tf
            .body
            .blocks
            .iter()
            .filter(|b| !in_tofu.contains(&identity(b)) && !terraform_constraint_only(b))
            .collect();
        // A twin that defines the same blocks is the intended cross-tool pattern (each tool
        // reads its own `required_version`, say): nothing to say.
        if !only_tf.is_empty() {
            out.push(twin_hides_blocks(dir, hidden, by, tofu, &only_tf));
        }
    }
}

/// Whether a block is a `terraform` block with `required_version` and nothing else.
fn terraform_constraint_only(block: &Block) -> bool {
    let body = &block.body;
    block.kind == "terraform"
        && body.blocks.is_empty()
        && !body.attributes.is_empty()
        && body.attributes.iter().all(|a| a.name == "required_version")
}

/// How a block is named for comparison: type and labels (`terraform` blocks by type alone).
fn identity(block: &Block) -> (String, Vec<String>) {
    (
        block.kind.clone(),
        block.labels.iter().map(|l| l.value.clone()).collect(),
    )
}

fn parsed<'a>(dir: &'a DirectoryContext, id: FileId) -> Option<&'a File> {
    dir.views
        .iter()
        .flat_map(|c| c.primary.iter().chain(c.overrides.iter()))
        .find(|f| f.file.id == id)
        .map(|f| f.file)
}

/// `` OpenTofu reads `main.tofu` instead of `main.tf`: 1 block only Terraform sees ``, at each
/// block only Terraform sees (`only_tf` is not empty) and the twin's first block.
fn twin_hides_blocks(
    dir: &DirectoryContext,
    hidden: FileId,
    by: FileId,
    tofu: &File,
    only_tf: &[&Block],
) -> Diagnostic {
    let tf_name = dir.files.get(hidden).file_name();
    let tofu_name = dir.files.get(by).file_name();
    let plural = if only_tf.len() == 1 { "" } else { "s" };
    let message = format!(
        "OpenTofu reads `{tofu_name}` instead of `{tf_name}`: {} block{plural} only Terraform \
         sees",
        only_tf.len()
    );
    let mut d = dir.finding(&RULE, message);
    for (i, block) in only_tf.iter().enumerate() {
        d = if i == 0 {
            d.at(dir.files, block.header_span, "only Terraform sees this")
        } else {
            d.with_label(dir.files, block.header_span, "only Terraform sees this")
        };
    }
    if let Some(twin) = tofu.body.blocks.first() {
        d = d.with_label(
            dir.files,
            twin.header_span,
            format!("OpenTofu reads `{tofu_name}` instead"),
        );
    }
    d.with_note(format!(
        "OpenTofu does not load `{tf_name}` because `{tofu_name}` exists: the `.tofu` file \
         replaces its `.tf` twin as a whole, nothing is merged. Terraform never reads `.tofu` \
         files."
    ))
    .with_help(format!(
        "add what OpenTofu also needs to `{tofu_name}`, or move it to a file both tools read"
    ))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::override_fixtures::{EMPTY_A, TF_VERSIONS, TOFU_VERSIONS};
    use crate::lint::testing::{Files, TOFU_COMPATIBLE_1_12, check_table, findings};

    const TF_VERSIONS_AND_PROVIDER: &str = r#"terraform {
  required_version = ">= 1.6"
}
provider "aws" {}
"#;

    const TF_VERSIONS_AND_PROVIDERS_REQUIRED: &str = r#"terraform {
  required_version = ">= 1.6"
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}
"#;

    const A_AND_B: &str =
        "resource \"terraform_data\" \"a\" {}\nresource \"terraform_data\" \"b\" {}\n";

    const PASS: &[Files] = &[
        &[
            ("main.tf", EMPTY_A),
            ("extra.tofu", "resource \"terraform_data\" \"b\" {}\n"),
        ],
        // The cross-tool pattern: each tool reads its own constraint.
        &[
            ("versions.tf", TF_VERSIONS),
            ("versions.tofu", TOFU_VERSIONS),
        ],
        // The layout OpenTofu recommends: Terraform's constraint in `versions.tf`, OpenTofu's
        // in a `language` block of `versions.tofu`.
        &[
            ("versions.tf", TF_VERSIONS),
            ("versions.tofu", TOFU_COMPATIBLE_1_12),
        ],
        &[
            (
                "versions.tf.json",
                r#"{"terraform": {"required_version": ">= 1.6"}}"#,
            ),
            (
                "versions.tofu.json",
                r#"{"language": {"compatible_with": {"opentofu": ">= 1.12"}}}"#,
            ),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("versions.tf", TF_VERSIONS_AND_PROVIDER),
                ("versions.tofu", TOFU_VERSIONS),
            ],
            1,
        ),
        // OpenTofu does lose the providers the hidden `terraform` block requires.
        (
            &[
                ("versions.tf", TF_VERSIONS_AND_PROVIDERS_REQUIRED),
                ("versions.tofu", TOFU_COMPATIBLE_1_12),
            ],
            1,
        ),
        (
            &[
                (
                    "main.tf.json",
                    r#"{"resource": {"terraform_data": {"a": {}, "b": {}}}}"#,
                ),
                (
                    "main.tofu.json",
                    r#"{"resource": {"terraform_data": {"a": {}}}}"#,
                ),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn names_the_blocks_only_terraform_sees() {
        let found = findings(
            &super::RULE,
            &[("main.tf", A_AND_B), ("main.tofu", EMPTY_A)],
        );
        assert_eq!(
            found[0].message,
            "OpenTofu reads `main.tofu` instead of `main.tf`: 1 block only Terraform sees"
        );
        assert_eq!(found[0].start(), (2, 1));
    }
}
