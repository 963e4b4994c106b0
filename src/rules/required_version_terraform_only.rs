//! A `required_version` in a `.tf` file that OpenTofu 1.6–1.11 read as their own constraint,
//! and that excludes an OpenTofu release the module targets: those releases refuse the module
//! for a number that was written for Terraform. OpenTofu 1.12 and later ignore it (they read
//! `required_version` only in `.tofu` files), so the rule is silent unless the targets include
//! an older OpenTofu (set them with `opentofu_version:` or `--opentofu-version`).
//!
//! OpenTofu 1.6–1.11 merge `required_version` as Terraform does (opentofu/opentofu v1.11
//! `internal/configs/module.go`, `mergeFile`): an override file's constraint replaces the
//! others, so a base constraint that an override replaces is never read and is not reported.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::releases::Release;
use crate::knowledge::version::{self, VersionSet};
use crate::lint::targets::{
    OPENTOFU_TOFU_ONLY_REQUIRED_VERSION, constraints_enforced_by, range_text,
};
use crate::syntax::{Attribute, Expr, File};

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "required_version_terraform_only",
    severity: Warning,
    default: On,
    summary: "a Terraform version constraint that older OpenTofu reads as its own",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

const HELP: &str = "keep Terraform's constraint in `versions.tf` and put OpenTofu's in \
                    `versions.tofu`, as OpenTofu's documentation recommends: OpenTofu then \
                    ignores `versions.tf`, and Terraform does not read `.tofu` files";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let readers: Vec<Release> = ctx
        .targets
        .releases
        .iter()
        .copied()
        .filter(|&r| r < OPENTOFU_TOFU_ONLY_REQUIRED_VERSION)
        .collect();
    if readers.is_empty() {
        return;
    }
    // What each of those releases checks its version against, after the overrides.
    let enforced: Vec<(Release, Vec<&Expr>)> = (readers.iter())
        .map(|&r| {
            (
                r,
                constraints_enforced_by(ctx.view, r, ctx.constraint_files()),
            )
        })
        .collect();
    let tf_files = ctx
        .primary
        .iter()
        .chain(ctx.overrides)
        .filter(|f| !f.extension.is_tofu());
    for loaded in tf_files {
        let constraints = loaded
            .file
            .body
            .blocks_of("terraform")
            .filter_map(|b| b.body.attribute("required_version"));
        for attr in constraints {
            let Some(Ok(parsed)) = attr.expr.literal_string().map(version::parse) else {
                continue; // `version_constraint_invalid` reports it
            };
            let set = VersionSet::of(&parsed);
            let excluded: Vec<Release> = (enforced.iter())
                .filter(|(_, read)| read.iter().any(|expr| std::ptr::eq(*expr, &attr.expr)))
                .map(|(r, _)| *r)
                .filter(|&r| !set.overlaps(&ctx.targets.versions_of(r)))
                .collect();
            if !excluded.is_empty() {
                out.push(terraform_constraint_read_by_opentofu(
                    ctx,
                    loaded.file,
                    attr,
                    &excluded,
                ));
            }
        }
    }
}

/// `OpenTofu 1.6–1.9 read this Terraform constraint as their own and refuse the module`
fn terraform_constraint_read_by_opentofu(
    ctx: &Context,
    file: &File,
    attr: &Attribute,
    excluded: &[Release],
) -> Diagnostic {
    let releases = range_text(excluded);
    let name = ctx.files.get(file.id).file_name();
    let mut d = ctx
        .finding(
            &RULE,
            format!(
                "OpenTofu {releases} read this Terraform constraint as their own and refuse the \
                 module"
            ),
        )
        .at(
            ctx.files,
            attr.span(),
            format!("excludes OpenTofu {releases}"),
        )
        .with_note(format!(
            "OpenTofu 1.6–1.11 read `required_version` in `.tf` files and compare it with their \
             own version; OpenTofu 1.12 and later read it only in `.tofu` files. The module \
             targets {}.",
            ctx.targets.describe()
        ))
        .with_help(HELP);
    if holds_more_than_terraform(file) {
        d = d.with_note(format!(
            "`{name}` holds more than the `terraform` block: move that block into `versions.tf` \
             first, since a `.tofu` twin of `{name}` would hide everything else in it from \
             OpenTofu."
        ));
    }
    d
}

/// Whether a file holds anything besides `terraform` blocks.
fn holds_more_than_terraform(file: &File) -> bool {
    !file.body.attributes.is_empty() || file.body.blocks.iter().any(|b| b.kind != "terraform")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{
        Files, TOFU_COMPATIBLE_1_12, check_table, findings_targeting_opentofu,
        terraform_required_version as required,
    };

    const TF: &str = required!(">= 1.8");

    // With the default targets (derived from the module), the releases that read the `.tf`
    // constraint and are excluded by it are never targeted: nothing to report.
    const PASS: &[Files] = &[
        &[("versions.tf", TF)],
        &[("versions.tf", required!(">= 1.12.2"))],
        &[("versions.tf", TF), ("language.tofu", TOFU_COMPATIBLE_1_12)],
        &[("main.tf", "resource \"terraform_data\" \"a\" {}\n")],
    ];
    const FAIL: &[(Files, usize)] = &[];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    fn targeting(files: Files, opentofu: &str) -> Vec<crate::diagnostic::Diagnostic> {
        findings_targeting_opentofu(&super::RULE, files, opentofu)
    }

    #[test]
    fn fires_when_a_targeted_older_opentofu_is_excluded() {
        let found = targeting(&[("versions.tf", TF)], ">= 1.6");
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].message,
            "OpenTofu 1.6–1.7 read this Terraform constraint as their own and refuse the module"
        );
        assert!(!found[0].help.iter().any(|h| h.contains("Both are wrong")));
        let json = r#"{"terraform": {"required_version": ">= 1.8"}}"#;
        assert_eq!(targeting(&[("versions.tf.json", json)], ">= 1.6").len(), 1);
        // Targets that all read `.tofu` files only, or that the constraint admits: silent.
        assert!(targeting(&[("versions.tf", TF)], ">= 1.12").is_empty());
        assert!(targeting(&[("versions.tf", TF)], "~> 1.9.0").is_empty());
        // A `.tofu` twin hides the `.tf` file from OpenTofu.
        let twin: Files = &[("versions.tf", TF), ("versions.tofu", required!(">= 1.6"))];
        assert!(targeting(twin, ">= 1.6").is_empty());
    }

    /// OpenTofu 1.6–1.11 merge `required_version` as Terraform does: an override's constraint
    /// replaces the base one, which those releases then never compare with their version.
    #[test]
    fn a_replaced_base_constraint_is_not_read() {
        let base = required!(">= 1.13");
        let json_base = r#"{"terraform": {"required_version": ">= 1.13"}}"#;
        let json_over = r#"{"terraform": {"required_version": ">= 1.6"}}"#;
        for files in [
            &[
                ("versions.tf", base),
                ("versions_override.tf", required!(">= 1.6")),
            ][..],
            &[
                ("versions.tf.json", json_base),
                ("versions_override.tf.json", json_over),
            ],
        ] {
            let found = targeting(files, "~> 1.10.0");
            assert!(found.is_empty(), "{found:?}");
        }
        // The override's own constraint is what they read, and it is reported when it
        // excludes them.
        let over: Files = &[("versions.tf", TF), ("versions_override.tf", base)];
        let found = targeting(over, "~> 1.10.0");
        assert_eq!(found.len(), 1, "{found:?}");
        let file = found[0].primary.as_ref().map(|l| l.file.file_name());
        assert_eq!(file, Some("versions_override.tf"));
    }

    #[test]
    fn a_file_with_more_than_the_terraform_block_says_so() {
        let main = "terraform {\n  required_version = \">= 1.8\"\n}\nresource \"a\" \"b\" {}\n";
        let found = targeting(&[("main.tf", main)], ">= 1.6");
        let notes = found[0].notes.join("\n");
        assert!(
            notes.contains("move that block into `versions.tf` first"),
            "{notes}"
        );
        let help = found[0].help.as_deref().unwrap_or_default();
        assert!(
            help.contains("`versions.tf`") && help.contains("`versions.tofu`"),
            "{help}"
        );
        assert!(!help.contains("main.tofu"), "{help}");
        let alone = targeting(&[("versions.tf", TF)], ">= 1.6");
        assert!(!alone[0].notes.join("\n").contains("move that block"));
    }
}
