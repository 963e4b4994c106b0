//! A later override replaces what an earlier override set, so the earlier one does nothing:
//! override files apply in lexical order of their names, and the last one to set an argument
//! wins.
//!
//! The `terraform` block's settings too: an override's `required_providers` entry, and its
//! `required_version`, which a later override's replaces in Terraform (hashicorp/terraform
//! `internal/configs/module.go`, `mergeFile`: `m.CoreVersionConstraints =
//! file.CoreVersionConstraints`). OpenTofu 1.12 enforces every `.tofu` file's constraint
//! instead, so it replaces none.

use crate::diagnostic::fix::FileOperation;
use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::lint::helpers::block_removal_span;
use crate::module::merge::Address;
use crate::module::merge::events::{Event, Subject};
use crate::source::Span;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_shadowed",
    severity: Warning,
    default: On,
    summary: "an override setting that a later override replaces",
    fix: Safe,
    check: Check::View(RuleViews::Both, check),
};

const NOTE: &str = "Override files are applied in lexical order of their names, and the blocks \
                    of one file in order; the last one to set an argument wins.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let in_override = |span: &Span| ctx.overrides.iter().any(|f| f.file.id == span.file);
    for event in &ctx.module.events {
        match event {
            Event::AttributeReplaced {
                address,
                name,
                new,
                old,
                old_from_override: true,
                ..
            } if !converts_a_default(ctx, address, name) => {
                out.push(shadowed(ctx, address, name, *new, *old))
            }
            // The constraints that a later override's `required_version` replaced.
            Event::NestedBlocksReplaced {
                address: address @ Subject::Terraform,
                kind,
                by,
                dropped,
            } if kind == "required_version" => {
                let Some(&new) = by.first() else {
                    continue;
                };
                for old in dropped.iter().filter(|span| in_override(span)) {
                    out.push(shadowed(ctx, address, kind, new, *old));
                }
            }
            _ => {}
        }
    }
}

/// Whether `name` is the `type` of a variable that has a default: each override's type
/// converts the default as it is merged (`Variable.merge`, `internal/configs/module_merge.go`),
/// and decodes its own block's default (`decodeVariableBlock`, `named_values.go`), so a type a
/// later override replaces still shapes the value: with `a_override.tf` setting
/// `type = string, default = 5` and `b_override.tf` `type = any`, the default is `"5"`, and 5
/// without the first `type`.
fn converts_a_default(ctx: &Context, address: &Subject, name: &str) -> bool {
    let Some(address @ Address::Variable(_)) = address.address() else {
        return false;
    };
    name == "type"
        && (ctx.module.object(address)).is_some_and(|o| o.body.attribute("default").is_some())
}

/// `` `input` set by this override of resource `x.y` has no effect: `b_override.tf` replaces
/// it `` (or `a later block in the same file replaces it`)
fn shadowed(ctx: &Context, address: &Subject, name: &str, new: Span, old: Span) -> Diagnostic {
    let later = if new.file == old.file {
        "a later block in the same file".to_string()
    } else {
        format!("`{}`", ctx.files.get(new.file).file_name())
    };
    let message = format!(
        "`{name}` set by this override of {} has no effect: {later} replaces it",
        address.describe()
    );
    ctx.finding(&RULE, message)
        .at(ctx.files, old, "has no effect")
        .with_label(ctx.files, new, "replaced here")
        .with_note(NOTE)
        .with_help("remove the earlier setting, or merge the two overrides into one")
        .with_fix(removal(ctx, name, old))
}

/// Removes the shadowed setting at `old`. A local that is alone in its `locals` block goes with
/// the block (an empty `locals {}` means nothing), and a block alone in its file with the file,
/// when nothing but blanks would be left of it.
fn removal(ctx: &Context, name: &str, old: Span) -> Fix {
    let fix = Fix::new(format!("Remove the shadowed `{name}`"), Applicability::Safe);
    let file = ctx
        .overrides
        .iter()
        .map(|f| f.file)
        .find(|f| f.id == old.file);
    let holder = file.and_then(|file| {
        (file.body.blocks.iter())
            .find(|b| b.kind == "locals" && b.body_span.range().contains(&old.range().start))
    });
    let (Some(file), Some(block)) = (file, holder) else {
        return fix.remove_with_comments(ctx.files, old);
    };
    if block.body.attributes.len() != 1 || !block.body.blocks.is_empty() {
        return fix.remove_with_comments(ctx.files, old);
    }
    let Some(span) = block_removal_span(ctx.files, block) else {
        return fix.remove_with_comments(ctx.files, old);
    };
    let source = ctx.files.get(old.file);
    let text = &source.text;
    let outside = text[..span.range().start].to_string() + &text[span.range().end..];
    let alone = file.body.blocks.len() == 1
        && file.body.attributes.is_empty()
        && outside.trim_start_matches('\u{feff}').trim().is_empty();
    if alone {
        let path = source.path.clone();
        return fix.operation(FileOperation::Delete { path });
    }
    fix.remove_with_comments(ctx.files, span)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const BASE: &str = "resource \"terraform_data\" \"x\" {\n  input = \"base\"\n}\n";
    const INPUT_O: &str = "resource \"terraform_data\" \"x\" {\n  input = \"o\"\n}\n";
    const INPUT_A: &str = "resource \"terraform_data\" \"x\" {\n  input = \"a\"\n}\n";
    const INPUT_B: &str = "resource \"terraform_data\" \"x\" {\n  input = \"b\"\n}\n";
    const TRIGGERS: &str = "resource \"terraform_data\" \"x\" {\n  triggers_replace = 1\n}\n";

    const JSON_TWICE: &str = r#"[
        {"resource": {"terraform_data": {"x": {"input": "a"}}}},
        {"resource": {"terraform_data": {"x": {"input": "b"}}}}
    ]"#;

    const LOCALS_AND_LIFECYCLE_BASE: &str = r#"locals {
  a = 1
}
resource "terraform_data" "x" {
  lifecycle {
    prevent_destroy = false
  }
}
"#;

    const LOCALS_AND_LIFECYCLE_A: &str = r#"locals {
  a = 2
}
resource "terraform_data" "x" {
  lifecycle {
    prevent_destroy = true
  }
}
"#;

    const LOCALS_AND_LIFECYCLE_B: &str = r#"locals {
  a = 3
}
resource "terraform_data" "x" {
  lifecycle {
    prevent_destroy = false
  }
}
"#;

    const VERSION_A: &str = "terraform {\n  required_version = \">= 1.5\"\n}\n";
    const VERSION_B: &str = "terraform {\n  required_version = \">= 1.6\"\n}\n";
    const VERSION_JSON: &str = r#"{"terraform": {"required_version": ">= 1.6"}}"#;

    const PASS: &[Files] = &[
        &[("main.tf", BASE), ("override.tf", INPUT_O)],
        // One override replacing the base constraint: what overrides are for.
        &[("versions.tf", VERSION_A), ("override.tf", VERSION_B)],
        // An empty `providers` map in a later override is dropped, so the earlier one applies.
        &[
            ("main.tf", "module \"m\" {\n  source = \"./m\"\n}\n"),
            (
                "a_override.tf",
                "module \"m\" {\n  providers = { aws = aws.west }\n}\n",
            ),
            ("b_override.tf", "module \"m\" {\n  providers = {}\n}\n"),
        ],
        // A variable's type that a later one replaces still converts its default.
        &[
            ("main.tf", "variable \"v\" {}\n"),
            ("a_override.tf", TYPE_A),
            ("b_override.tf", TYPE_B),
        ],
        // Two overrides setting different arguments.
        &[
            ("main.tf", BASE),
            ("a_override.tf", INPUT_A),
            ("b_override.tf", TRIGGERS),
        ],
    ];

    /// `a_override.tf`'s type converts its default 5 to "5"; `b_override.tf`'s `any` keeps
    /// it: removing the first `type` would make the default the number 5.
    const TYPE_A: &str = "variable \"v\" {\n  type    = string\n  default = 5\n}\n";
    const TYPE_B: &str = "variable \"v\" {\n  type = any\n}\n";

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("main.tf", BASE),
                ("a_override.tf", INPUT_A),
                ("b_override.tf", INPUT_B),
            ],
            1,
        ),
        // Without a default, the type converts nothing.
        (
            &[
                ("main.tf", "variable \"v\" {}\n"),
                ("a_override.tf", "variable \"v\" {\n  type = string\n}\n"),
                ("b_override.tf", TYPE_B),
            ],
            1,
        ),
        // In one file, and in JSON.
        (&[("main.tf", BASE), ("override.tf.json", JSON_TWICE)], 1),
        // Locals and lifecycle arguments too.
        (
            &[
                ("main.tf", LOCALS_AND_LIFECYCLE_BASE),
                ("a_override.tf", LOCALS_AND_LIFECYCLE_A),
                ("b_override.tf", LOCALS_AND_LIFECYCLE_B),
            ],
            2,
        ),
        // An earlier override's `required_version`, replaced by a later one (Terraform only).
        (
            &[
                ("versions.tf", VERSION_A),
                ("a_override.tf", VERSION_A),
                ("b_override.tf", VERSION_B),
            ],
            1,
        ),
        (
            &[
                ("versions.tf", VERSION_A),
                ("a_override.tf.json", VERSION_JSON),
                ("b_override.tf.json", VERSION_JSON),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn names_the_replaced_constraint() {
        let files: Files = &[
            ("versions.tf", VERSION_A),
            ("a_override.tf", VERSION_A),
            ("b_override.tf", VERSION_B),
        ];
        let found = findings(&super::RULE, files);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            found[0].message,
            "`required_version` set by this override of the `terraform` block has no effect: \
             `b_override.tf` replaces it"
        );
        assert_eq!(found[0].views, crate::diagnostic::Views::TERRAFORM);
        assert_eq!(found[0].start(), (2, 3));
    }
}
