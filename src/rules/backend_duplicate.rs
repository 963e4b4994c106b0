//! A module has one place for its state: a second `backend` block, or a second `cloud` block
//! (or, in Terraform's experimental builds, a second `state_store`), among the `terraform`
//! blocks of the primary files, or two of one kind in one override file, makes the tools refuse
//! it (`Duplicate backend configuration`, `Duplicate HCP Terraform configurations`...), in the
//! words of the targeted release.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::releases::Release;
use crate::module::merge::MergeProblem;
use crate::source::Span;

use crate::lint::{Check, MergeContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "backend_duplicate",
    kind: LoadError,
    summary: "a second backend or cloud block",
    check: Check::Merge(check),
};

/// The first Terraform release that calls a second backend among the primary files a
/// `Duplicate 'backend' configuration block` (TF@v1.13.0 `internal/configs/module.go`
/// `appendFile`); two in one override file keep the older summary (`mergeFile`).
const TERRAFORM_BACKEND_BLOCK_SUMMARY: Release = Release::new(1, 13);

/// The first Terraform release that names Terraform Cloud "HCP Terraform" in its summaries
/// (TF@v1.9.0 `internal/configs/module.go`).
pub(crate) const TERRAFORM_HCP_NAME: Release = Release::new(1, 9);

fn check(ctx: &MergeContext, out: &mut Vec<Diagnostic>) {
    for problem in ctx.problems {
        if let MergeProblem::DuplicateStateStorage {
            kind,
            again,
            first,
            in_override,
        } = problem
        {
            let summary = summary(ctx.view, ctx.targets.newest(), kind, *in_override);
            out.push(backend_duplicate(ctx, summary, kind, *again, *first));
        }
    }
}

/// The summary of `view`'s tool in `release` for a second block of `kind` (in one override
/// file when `in_override`).
fn summary(view: View, release: Release, kind: &str, in_override: bool) -> &'static str {
    match (kind, view) {
        ("backend", View::Terraform)
            if release >= TERRAFORM_BACKEND_BLOCK_SUMMARY && !in_override =>
        {
            "Duplicate 'backend' configuration block"
        }
        ("backend", _) => "Duplicate backend configuration",
        ("cloud", View::Terraform) if release < TERRAFORM_HCP_NAME => {
            "Duplicate Terraform Cloud configurations"
        }
        ("cloud", View::Terraform) => "Duplicate HCP Terraform configurations",
        ("cloud", View::OpenTofu) => "Duplicate cloud configurations",
        _ => "Duplicate 'state_store' configuration block",
    }
}

/// The finding on the second block.
fn backend_duplicate(
    ctx: &MergeContext,
    summary: &'static str,
    kind: &str,
    again: Span,
    first: Span,
) -> Diagnostic {
    ctx.finding(&RULE, summary)
        .at(ctx.files, again, "defined again here")
        .with_label(ctx.files, first, "first defined here")
        .with_note(format!("A module may have only one `{kind}` block."))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings, findings_targeting_terraform};

    const S3: &str = "terraform {\n  backend \"s3\" {}\n}\n";

    const PASS: &[Files] = &[&[("main.tf", S3)]];

    // Each tool words it apart: one finding per view.
    const FAIL: &[(Files, usize)] = &[
        (&[("main.tf", S3), ("state.tf", S3)], 2),
        (
            &[(
                "main.tf",
                "terraform {\n  cloud {}\n}\nterraform {\n  cloud {}\n}\n",
            )],
            2,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// (message, file, line) of each finding with `terraform` the targeted Terraform releases.
    fn terraform_findings(files: Files, terraform: &str) -> Vec<(String, String, usize)> {
        let found = findings_targeting_terraform(&super::RULE, files, terraform);
        let terraform = found.iter().filter(|d| d.views.terraform);
        let mut found: Vec<_> = terraform
            .map(|d| {
                let name = d.path.rsplit('/').next().unwrap_or_default();
                (d.message.to_string(), name.to_string(), d.start().0)
            })
            .collect();
        found.sort();
        found
    }

    fn one(message: &str, path: &str, line: usize) -> Vec<(String, String, usize)> {
        vec![(message.to_string(), path.to_string(), line)]
    }

    /// Each release's words, as the releases judged say them: a second backend among the primary
    /// files is `Duplicate 'backend' configuration block` from 1.13, two in one override file
    /// `Duplicate backend configuration` in every release; `Terraform Cloud` is `HCP Terraform`
    /// from 1.9.
    #[test]
    fn each_releases_summary() {
        let primary: Files = &[("main.tf", S3), ("state.tf", S3)];
        let old = "Duplicate backend configuration";
        let new = "Duplicate 'backend' configuration block";
        assert_eq!(
            terraform_findings(primary, "1.6.6"),
            one(old, "state.tf", 2)
        );
        assert_eq!(
            terraform_findings(primary, "1.12.2"),
            one(old, "state.tf", 2)
        );
        assert_eq!(
            terraform_findings(primary, "1.13.0"),
            one(new, "state.tf", 2)
        );
        assert_eq!(
            terraform_findings(primary, "1.15.5"),
            one(new, "state.tf", 2)
        );
        let override_file =
            "terraform {\n  backend \"s3\" {}\n}\nterraform {\n  backend \"local\" {}\n}\n";
        let in_override: Files = &[("main.tf", S3), ("x_override.tf", override_file)];
        for release in ["1.6.6", "1.15.5"] {
            let found = terraform_findings(in_override, release);
            assert_eq!(found, one(old, "x_override.tf", 5), "{release}");
        }
        let cloud = "terraform {\n  cloud {}\n}\n";
        let clouds: Files = &[("b.tf", cloud), ("main.tf", cloud)];
        let tfc = "Duplicate Terraform Cloud configurations";
        let hcp = "Duplicate HCP Terraform configurations";
        assert_eq!(terraform_findings(clouds, "1.8.5"), one(tfc, "main.tf", 2));
        assert_eq!(terraform_findings(clouds, "1.9.8"), one(hcp, "main.tf", 2));
    }

    /// OpenTofu's words, in every release (`internal/configs/module.go`).
    #[test]
    fn opentofu_summary() {
        let found = findings(&super::RULE, &[("main.tf", S3), ("state.tf", S3)]);
        let opentofu = found.iter().filter(|d| d.views.opentofu);
        let messages: Vec<&str> = opentofu.map(|d| &*d.message).collect();
        assert_eq!(messages, ["Duplicate backend configuration"]);
    }
}
