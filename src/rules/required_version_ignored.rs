//! `required_version` in a `.tf` file that some targeted OpenTofu release never evaluates,
//! written in a syntax Terraform rejects: the module loads in those OpenTofu releases and fails
//! in Terraform, and their users never see why. OpenTofu 1.12 and later read
//! `required_version` only in `.tofu` files, and OpenTofu 1.8 and later never read a `.tf` file
//! that a `.tofu` twin hides; OpenTofu 1.6–1.11 evaluate it and refuse the module too
//! (`version_constraint_invalid` in the OpenTofu view).

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::releases::Release;
use crate::lint::targets::{OPENTOFU_TOFU_ONLY_REQUIRED_VERSION, Targets, range_text};
use crate::source::{FileId, Span};

use crate::lint::helpers::parse_constraints;
use crate::lint::{Check, DirectoryContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "required_version_ignored",
    severity: Notice,
    default: On,
    summary: "an invalid required_version in a .tf file that targeted OpenTofu releases ignore",
    check: Check::Directory(check),
};

/// The first OpenTofu release that reads `.tofu` files, which hide their `.tf` twins.
const OPENTOFU_TOFU_FILES: Release = Release::new(1, 8);

fn check(dir: &DirectoryContext, out: &mut Vec<Diagnostic>) {
    let (Some(terraform), Some(opentofu)) = (dir.view(View::Terraform), dir.view(View::OpenTofu))
    else {
        return;
    };
    let hidden = |id: FileId| dir.shadowed.iter().any(|&(tf, _)| tf == id);
    for file in terraform
        .primary
        .iter()
        .chain(terraform.overrides.iter())
        .filter(|f| !f.extension.is_tofu())
    {
        let ignoring = releases_ignoring(opentofu.targets, hidden(file.file.id));
        if ignoring.is_empty() {
            continue; // every targeted OpenTofu evaluates it: `version_constraint_invalid`
        }
        for block in file.file.body.blocks_of("terraform") {
            let Some(attr) = block.body.attribute("required_version") else {
                continue;
            };
            if let Some(Err((span, message))) = parse_constraints(dir.files, &attr.expr) {
                out.push(rejected_by_terraform(
                    dir,
                    opentofu.targets,
                    &ignoring,
                    span,
                    message,
                ));
            }
        }
    }
}

/// The targeted OpenTofu releases that never evaluate `required_version` in a `.tf` file
/// (`hidden`: one a `.tofu` twin hides).
fn releases_ignoring(targets: &Targets, hidden: bool) -> Vec<Release> {
    let first_ignoring = match hidden {
        true => OPENTOFU_TOFU_FILES,
        false => OPENTOFU_TOFU_ONLY_REQUIRED_VERSION,
    };
    targets
        .releases
        .iter()
        .copied()
        .filter(|&r| r >= first_ignoring)
        .collect()
}

/// `` OpenTofu 1.12 ignores this `required_version`, but Terraform rejects it ``, at the bad
/// part.
fn rejected_by_terraform(
    dir: &DirectoryContext,
    targets: &Targets,
    ignoring: &[Release],
    span: Span,
    message: String,
) -> Diagnostic {
    let releases = range_text(ignoring);
    let summary =
        format!("OpenTofu {releases} ignores this `required_version`, but Terraform rejects it");
    let mut d = dir
        .finding(&RULE, summary)
        .at(dir.files, span, message)
        .with_note(format!(
            "OpenTofu 1.12 and later evaluate `required_version` only in `.tofu` files, and \
             OpenTofu 1.8 and later never read a `.tf` file that a `.tofu` twin hides, so this \
             invalid constraint goes unnoticed there; Terraform evaluates it and fails with \
             `Invalid version constraint`. The module targets {}.",
            targets.describe()
        ));
    let reading: Vec<Release> = (targets.releases.iter().copied())
        .filter(|r| !ignoring.contains(r))
        .collect();
    if !reading.is_empty() {
        d = d.with_note(format!(
            "OpenTofu {} evaluate it and refuse the module as well.",
            range_text(&reading)
        ));
    }
    d.with_help("fix the constraint, e.g. `>= 1.6, < 2.0`")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{
        Files, check_table, findings_targeting_opentofu, terraform_required_version as required,
    };

    const PASS: &[Files] = &[
        &[("versions.tf", required!(">= 1.6"))],
        // In a .tofu file OpenTofu evaluates it: `version_constraint_invalid` reports it.
        &[("versions.tofu", required!(">= one"))],
    ];
    const FAIL: &[(Files, usize)] = &[
        (&[("versions.tf", required!(">= 1.6 < 2"))], 1),
        (
            &[(
                "versions.tf.json",
                r#"{"terraform": {"required_version": "latest"}}"#,
            )],
            1,
        ),
        // Shadowed by a `.tofu` twin: OpenTofu never even reads the file.
        (
            &[
                ("versions.tf", required!(">= 1.6 and < 2")),
                ("versions.tofu", required!(">= 1.8")),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    fn targeting(files: Files, opentofu: &str) -> Vec<crate::diagnostic::Diagnostic> {
        findings_targeting_opentofu(&super::RULE, files, opentofu)
    }

    const BROKEN: Files = &[("versions.tf", required!(">= 1.6 < 2"))];

    #[test]
    fn names_the_targeted_releases_that_ignore_it() {
        let found = targeting(BROKEN, ">= 1.10");
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].message,
            "OpenTofu 1.12 ignores this `required_version`, but Terraform rejects it"
        );
        let notes = found[0].notes.join("\n");
        assert!(
            notes.contains("OpenTofu 1.10–1.11 evaluate it and refuse the module as well."),
            "{notes}"
        );
        let json: Files = &[(
            "versions.tf.json",
            r#"{"terraform": {"required_version": "latest"}}"#,
        )];
        assert_eq!(targeting(json, ">= 1.12")[0].notes.len(), 1);
    }

    #[test]
    fn silent_when_every_targeted_opentofu_evaluates_it() {
        assert!(targeting(BROKEN, "~> 1.10.0").is_empty());
        assert!(targeting(BROKEN, ">= 1.6, < 1.12").is_empty());
    }

    #[test]
    fn a_hidden_file_is_ignored_from_opentofu_1_8() {
        let twin: Files = &[
            ("versions.tf", required!(">= 1.6 < 2")),
            ("versions.tofu", required!(">= 1.8")),
        ];
        let found = targeting(twin, ">= 1.6, < 1.12");
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].message,
            "OpenTofu 1.8–1.11 ignores this `required_version`, but Terraform rejects it"
        );
    }
}
