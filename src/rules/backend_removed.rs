//! A backend type that current Terraform and OpenTofu no longer have: `init` fails on it, so
//! the state has to move to a current backend.

use crate::diagnostic::Diagnostic;
use crate::knowledge::backends::REMOVED;
use crate::module::merge::MergedBlock;

use crate::lint::helpers::backend_type;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "backend_removed",
    severity: Error,
    default: On,
    summary: "a backend type that was removed from Terraform and OpenTofu",
    check: Check::View(RuleViews::Both, check),
};

const HELP: &str = "move the state to a current backend (for example `s3`, `gcs`, `azurerm`, \
                    `http` or `pg`) with the tool's state migration";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let Some((backend, kind)) = backend_type(ctx) else {
        return;
    };
    if REMOVED.contains(&kind) {
        out.push(removed_backend(ctx, backend, kind));
    }
}

/// `Unsupported backend type`, on a backend type that was removed.
fn removed_backend(ctx: &Context, backend: &MergedBlock, kind: &str) -> Diagnostic {
    let others = REMOVED
        .iter()
        .filter(|k| **k != kind)
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    ctx.finding(&RULE, "Unsupported backend type")
        .at(
            ctx.files,
            backend.header_span,
            format!("the `{kind}` backend was removed"),
        )
        .with_note(format!(
            "There is no backend type named \"{kind}\" in current Terraform or OpenTofu: it was \
             removed, like {others}, so `init` fails."
        ))
        .with_help(HELP)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[&[("backend.tf", "terraform {\n  backend \"s3\" {}\n}\n")]];
    const FAIL: &[(Files, usize)] = &[
        (
            &[("backend.tf", "terraform {\n  backend \"etcdv3\" {}\n}\n")],
            1,
        ),
        (
            &[(
                "backend.tf.json",
                r#"{"terraform": {"backend": {"swift": {}}}}"#,
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
