//! An override sets something the tools silently drop (a `lifecycle` argument they do not
//! merge, an output's `description`, a whole `provider_meta` block...); the base setting stays.
//!
//! A `.tf` override's `required_version` is dropped by OpenTofu 1.12 and later only: 1.6–1.11
//! read it and let it replace the base constraints (opentofu/opentofu v1.11
//! `internal/configs/module.go`, `mergeFile`), so it is reported only when every targeted
//! OpenTofu release is 1.12 or later.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::lint::targets::OPENTOFU_TOFU_ONLY_REQUIRED_VERSION;
use crate::module::merge::events::{Event, Subject};
use crate::source::Span;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_ignored_setting",
    severity: Warning,
    default: On,
    summary: "an override setting that the tools silently drop",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for event in &ctx.module.events {
        if let Event::IgnoredSetting {
            address,
            name,
            span,
            reason,
        } = event
        {
            if *address == Subject::Terraform
                && name == "required_version"
                && ctx.view == View::OpenTofu
                && ctx.targets.lowest() < OPENTOFU_TOFU_ONLY_REQUIRED_VERSION
            {
                continue;
            }
            out.push(ignored_setting(ctx, address, name, *span, reason));
        }
    }
}

/// `` `description` in the override of output `o` has no effect `` (or `` `x` block has no
/// effect `` for a whole block the tools ignore)
fn ignored_setting(
    ctx: &Context,
    address: &Subject,
    name: &str,
    span: Span,
    reason: &str,
) -> Diagnostic {
    let what = match address {
        Subject::IgnoredBlock(_) => format!("`{name}` block"),
        _ => format!("`{name}` in the override of {}", address.describe()),
    };
    let mut d = ctx
        .finding(&RULE, format!("{what} has no effect"))
        .at(ctx.files, span, "ignored")
        .with_note(format!("{}.", capitalized(reason)));
    if let Some(base) = address.address().and_then(|a| ctx.module.object(a)) {
        d = d.with_label(
            ctx.files,
            base.base_header,
            "the base block keeps its own setting",
        );
    }
    d.with_help("remove it from the override, or change the base block instead")
}

/// `text` with its first character in upper case.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{
        Files, check_table, findings, findings_targeting_opentofu, terraform_required_version,
    };

    const BASE: &str = r#"resource "terraform_data" "a" {
  lifecycle {
    ignore_changes = [input]
  }
}
resource "terraform_data" "b" {}
output "o" {
  value       = 1
  description = "d"
}
"#;

    const IGNORE_OTHER_CHANGES: &str = r#"resource "terraform_data" "a" {
  lifecycle {
    ignore_changes = [triggers_replace]
  }
}
"#;

    const REPLACE_TRIGGERED_BY: &str = r#"resource "terraform_data" "a" {
  lifecycle {
    replace_triggered_by = [terraform_data.b]
  }
}
"#;

    const IGNORE_NO_CHANGES: &str = r#"resource "terraform_data" "a" {
  lifecycle {
    ignore_changes = []
  }
}
"#;

    const PROVIDER_META: &str = r#"terraform {
  provider_meta "aws" {
    module_name = "x"
  }
}
"#;

    /// A module call with a provider passed.
    const MODULE_CALL: &str =
        "module \"m\" {\n  source    = \"./m\"\n  providers = { aws = aws.west }\n}\n";

    const PASS: &[Files] = &[
        &[("main.tf", BASE), ("override.tf", IGNORE_OTHER_CHANGES)],
        // A non-empty `providers` map replaces the base's.
        &[
            ("main.tf", MODULE_CALL),
            (
                "override.tf",
                "module \"m\" {\n  providers = { aws = aws.east }\n}\n",
            ),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        // An empty one is dropped: the module keeps `aws.west`, in native syntax and JSON.
        (
            &[
                ("main.tf", MODULE_CALL),
                ("override.tf", "module \"m\" {\n  providers = {}\n}\n"),
            ],
            1,
        ),
        (
            &[
                ("main.tf", MODULE_CALL),
                (
                    "override.tf.json",
                    r#"{"module": {"m": {"providers": {}}}}"#,
                ),
            ],
            1,
        ),
        (
            &[("main.tf", BASE), ("override.tf", REPLACE_TRIGGERED_BY)],
            1,
        ),
        (&[("main.tf", BASE), ("override.tf", IGNORE_NO_CHANGES)], 1),
        (
            &[
                ("main.tf", BASE),
                ("override.tf", "output \"o\" {\n  description = \"\"\n}\n"),
            ],
            1,
        ),
        (
            &[
                ("main.tf", BASE),
                (
                    "override.tf.json",
                    r#"{"output": {"o": {"description": ""}}}"#,
                ),
            ],
            1,
        ),
        (&[("main.tf", BASE), ("override.tf", PROVIDER_META)], 1),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn ephemeral_override_is_dropped_by_terraform_only() {
        let found = findings(
            &super::RULE,
            &[
                (
                    "main.tf",
                    "ephemeral \"random_password\" \"p\" {\n  length = 8\n}\n",
                ),
                (
                    "override.tf",
                    "ephemeral \"random_password\" \"p\" {\n  length = 16\n}\n",
                ),
            ],
        );
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].views, crate::diagnostic::Views::TERRAFORM);
    }

    /// OpenTofu 1.6–1.11 read a `.tf` override's `required_version` (it replaces the base
    /// one); only 1.12 and later ignore it.
    #[test]
    fn a_tf_override_constraint_counts_for_opentofu_before_1_12() {
        let base = terraform_required_version!(">= 1.5");
        let over = terraform_required_version!(">= 1.10");
        let json_base = r#"{"terraform": {"required_version": ">= 1.5"}}"#;
        let json_over = r#"{"terraform": {"required_version": ">= 1.10"}}"#;
        for files in [
            &[("versions.tf", base), ("versions_override.tf", over)][..],
            &[
                ("versions.tf.json", json_base),
                ("versions_override.tf.json", json_over),
            ],
        ] {
            for opentofu in ["~> 1.10.0", ">= 1.6"] {
                let found = findings_targeting_opentofu(&super::RULE, files, opentofu);
                assert!(found.is_empty(), "{opentofu}: {found:?}");
            }
            let found = findings_targeting_opentofu(&super::RULE, files, ">= 1.12");
            assert_eq!(found.len(), 1, "{found:?}");
            assert_eq!(
                found[0].message,
                "`required_version` in the override of the `terraform` block has no effect"
            );
        }
    }
}
