//! A module has one place for its state: a second `backend` block, or a second `cloud` block
//! (or, in Terraform's experimental builds, a second `state_store`), among the `terraform`
//! blocks of the primary files, or two of one kind in one override file, makes the tools refuse
//! it (`Duplicate 'backend' configuration block`, `Duplicate backend configuration`...).

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::module::merge::MergeProblem;
use crate::source::Span;

use crate::lint::{Check, MergeContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "backend_duplicate",
    kind: LoadError,
    summary: "a second backend or cloud block",
    check: Check::Merge(check),
};

fn check(ctx: &MergeContext, out: &mut Vec<Diagnostic>) {
    for problem in ctx.problems {
        if let MergeProblem::DuplicateStateStorage { kind, again, first } = problem {
            out.push(backend_duplicate(ctx, kind, *again, *first));
        }
    }
}

/// `Duplicate 'backend' configuration block` (or the summary of the kind and the tool)
fn backend_duplicate(ctx: &MergeContext, kind: &str, again: Span, first: Span) -> Diagnostic {
    let summary = match (kind, ctx.view) {
        ("backend", View::Terraform) => "Duplicate 'backend' configuration block",
        ("backend", View::OpenTofu) => "Duplicate backend configuration",
        ("cloud", View::Terraform) => "Duplicate HCP Terraform configurations",
        ("cloud", View::OpenTofu) => "Duplicate cloud configurations",
        _ => "Duplicate 'state_store' configuration block",
    };
    ctx.finding(&RULE, summary)
        .at(ctx.files, again, "defined again here")
        .with_label(ctx.files, first, "first defined here")
        .with_note(format!("A module may have only one `{kind}` block."))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

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
}
