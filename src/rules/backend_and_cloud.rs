//! A module has one place for its state: a backend, a `cloud` block (HCP Terraform) and, in
//! Terraform's experimental builds, a `state_store` each configure it, and the tools refuse a
//! module whose primary files have more than one of them. The finding is where both tools put
//! it (`Module.appendFile` in `internal/configs/module.go`): on the backend, or on the
//! `state_store` next to `cloud`, in the words of the targeted release.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::releases::Release;
use crate::module::merge::MergeProblem;
use crate::source::Span;

use crate::lint::{Check, MergeContext, Rule, declare_rule};

use super::backend_duplicate::TERRAFORM_HCP_NAME;

pub(crate) const RULE: Rule = declare_rule! {
    id: "backend_and_cloud",
    kind: LoadError,
    summary: "a module has both a backend and a cloud block",
    check: Check::Merge(check),
};

/// The first Terraform release that words a backend next to a `cloud` block as a conflict of
/// blocks (TF@v1.13.0 `internal/configs/module.go` `appendFile`, with `state_store`).
const TERRAFORM_CONFLICTING_SUMMARY: Release = Release::new(1, 13);

/// Why two kinds of state storage conflict.
const STORAGE_NOTE: &str = "A module may have only one of a backend, a cloud block and (in \
    Terraform's experimental builds) a state_store for its state storage.";

fn check(ctx: &MergeContext, out: &mut Vec<Diagnostic>) {
    for problem in ctx.problems {
        if let MergeProblem::StateStorageConflict {
            backend,
            cloud,
            state_store,
        } = problem
        {
            out.extend(backend_and_cloud(ctx, *backend, *cloud, *state_store));
        }
    }
}

/// The summary of `view`'s tool in `release` for a backend next to a `cloud` block.
fn backend_and_cloud_summary(view: View, release: Release) -> &'static str {
    match view {
        View::OpenTofu => "Both a backend and a cloud configuration are present",
        View::Terraform if release < TERRAFORM_HCP_NAME => {
            "Both a backend and Terraform Cloud configuration are present"
        }
        View::Terraform if release < TERRAFORM_CONFLICTING_SUMMARY => {
            "Both a backend and cloud configuration are present"
        }
        View::Terraform => "Conflicting 'cloud' and 'backend' configuration blocks are present",
    }
}

/// `Conflicting 'cloud' and 'backend' configuration blocks are present` (or the summary of the
/// kinds, the tool and the release)
fn backend_and_cloud(
    ctx: &MergeContext,
    backend: Option<Span>,
    cloud: Option<Span>,
    store: Option<Span>,
) -> Option<Diagnostic> {
    let (summary, at, others) = match (backend, cloud, store) {
        (Some(backend), Some(cloud), Some(store)) => (
            "Only one of 'cloud', 'state_store', or 'backend' configuration blocks are allowed",
            backend,
            vec![(cloud, "`cloud` block"), (store, "`state_store` block")],
        ),
        (Some(backend), Some(cloud), None) => (
            backend_and_cloud_summary(ctx.view, ctx.targets.newest()),
            backend,
            vec![(cloud, "`cloud` block")],
        ),
        (None, Some(cloud), Some(store)) => (
            "Conflicting 'cloud' and 'state_store' configuration blocks are present",
            store,
            vec![(cloud, "`cloud` block")],
        ),
        (Some(backend), None, Some(store)) => (
            "Conflicting 'state_store' and 'backend' configuration blocks are present",
            backend,
            vec![(store, "`state_store` block")],
        ),
        _ => return None,
    };
    let primary = match at {
        _ if Some(at) == cloud => "`cloud` block",
        _ if Some(at) == store => "`state_store` block",
        _ => "backend block",
    };
    let note = match store {
        Some(_) => STORAGE_NOTE,
        None => {
            "A module may have either a backend or a cloud block for its state storage, not \
                 both."
        }
    };
    let mut d = ctx
        .finding(&RULE, summary)
        .at(ctx.files, at, primary)
        .with_note(note);
    for (span, label) in others {
        d = d.with_label(ctx.files, span, label);
    }
    Some(d)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings, findings_targeting_terraform};

    const BACKEND: &str = "terraform {\n  backend \"s3\" {}\n}\n";
    const CLOUD: &str = "terraform {\n  cloud {}\n}\n";

    const PASS: &[Files] = &[&[("main.tf", BACKEND)], &[("main.tf", CLOUD)]];

    // Each tool words it apart: one finding per view.
    const FAIL: &[(Files, usize)] = &[(&[("main.tf", BACKEND), ("cloud.tf", CLOUD)], 2)];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// Each tool words it apart, at the backend, whichever block comes first.
    #[test]
    fn each_tools_summary() {
        let found = findings(&super::RULE, &[("main.tf", BACKEND), ("cloud.tf", CLOUD)]);
        let mut summaries: Vec<&str> = found.iter().map(|d| &*d.message).collect();
        summaries.sort_unstable();
        assert_eq!(
            summaries,
            [
                "Both a backend and a cloud configuration are present",
                "Conflicting 'cloud' and 'backend' configuration blocks are present"
            ]
        );
        assert!(found.iter().all(|d| d.path.ends_with("main.tf")));
        let found = findings(&super::RULE, &[("a.tf", CLOUD), ("z.tf", BACKEND)]);
        assert_eq!(found.len(), 2);
        assert!(found.iter().all(|d| d.path.ends_with("z.tf")));
    }

    /// Terraform's words in each release: "Terraform Cloud" before 1.9, "cloud" before 1.13,
    /// a conflict of blocks from 1.13.
    #[test]
    fn each_releases_summary() {
        let files: Files = &[("main.tf", BACKEND), ("cloud.tf", CLOUD)];
        let cases = [
            (
                "1.6.6",
                "Both a backend and Terraform Cloud configuration are present",
            ),
            (
                "1.8.5",
                "Both a backend and Terraform Cloud configuration are present",
            ),
            (
                "1.9.8",
                "Both a backend and cloud configuration are present",
            ),
            (
                "1.12.2",
                "Both a backend and cloud configuration are present",
            ),
            (
                "1.13.0",
                "Conflicting 'cloud' and 'backend' configuration blocks are present",
            ),
            (
                "1.15.5",
                "Conflicting 'cloud' and 'backend' configuration blocks are present",
            ),
        ];
        for (release, summary) in cases {
            let found = findings_targeting_terraform(&super::RULE, files, release);
            let terraform: Vec<_> = found.iter().filter(|d| d.views.terraform).collect();
            assert_eq!(terraform.len(), 1, "{release}");
            assert_eq!(terraform[0].message, summary, "{release}");
            assert!(terraform[0].path.ends_with("main.tf"), "{release}");
        }
    }
}
