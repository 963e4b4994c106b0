//! A module has one place for its state: a backend, a `cloud` block (HCP Terraform) and, in
//! Terraform's experimental builds, a `state_store` each configure it, and the tools refuse a
//! module whose primary files have more than one of them. The finding is where Terraform puts
//! it (`Module.appendFile`): on the backend, or on the `state_store` next to `cloud`.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::module::merge::MergeProblem;
use crate::source::Span;

use crate::lint::{Check, MergeContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "backend_and_cloud",
    kind: LoadError,
    summary: "a module has both a backend and a cloud block",
    check: Check::Merge(check),
};

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

/// `Conflicting 'cloud' and 'backend' configuration blocks are present` (or the summary of the
/// kinds and the tool)
fn backend_and_cloud(
    ctx: &MergeContext,
    backend: Option<Span>,
    cloud: Option<Span>,
    store: Option<Span>,
) -> Option<Diagnostic> {
    let tofu = ctx.view == View::OpenTofu;
    let (summary, at, others) = match (backend, cloud, store) {
        (Some(backend), Some(cloud), Some(store)) => (
            "Only one of 'cloud', 'state_store', or 'backend' configuration blocks are allowed",
            backend,
            vec![(cloud, "`cloud` block"), (store, "`state_store` block")],
        ),
        (Some(backend), Some(cloud), None) => (
            match tofu {
                true => "Both a backend and a cloud configuration are present",
                false => "Conflicting 'cloud' and 'backend' configuration blocks are present",
            },
            cloud,
            vec![(backend, "backend block")],
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
    use crate::lint::testing::{Files, check_table, findings};

    const BACKEND: &str = "terraform {\n  backend \"s3\" {}\n}\n";
    const CLOUD: &str = "terraform {\n  cloud {}\n}\n";

    const PASS: &[Files] = &[&[("main.tf", BACKEND)], &[("main.tf", CLOUD)]];

    // Each tool words it apart: one finding per view.
    const FAIL: &[(Files, usize)] = &[(&[("main.tf", BACKEND), ("cloud.tf", CLOUD)], 2)];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// Each tool words it apart, at the `cloud` block.
    #[test]
    fn each_tools_summary() {
        let found = findings(&super::RULE, &[("main.tf", BACKEND), ("cloud.tf", CLOUD)]);
        let mut summaries: Vec<&str> = found.iter().map(|d| d.message.as_str()).collect();
        summaries.sort_unstable();
        assert_eq!(
            summaries,
            [
                "Both a backend and a cloud configuration are present",
                "Conflicting 'cloud' and 'backend' configuration blocks are present"
            ]
        );
        assert!(found.iter().all(|d| d.path.ends_with("cloud.tf")));
    }
}
