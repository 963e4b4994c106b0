//! A backend type that current Terraform and OpenTofu no longer have.

use crate::diagnostic::Diagnostic;

use crate::lint::helpers::backend_type;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "backend_removed",
    severity: Error,
    default: On,
    summary: "a backend type that was removed from Terraform and OpenTofu",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let Some((backend, kind)) = backend_type(ctx) else {
        return;
    };
    if !crate::knowledge::backends::REMOVED.contains(&kind) {
        return;
    }
    out.push(
        ctx.finding(&RULE, "Unsupported backend type")
            .at(ctx.files, backend.header_span, format!("the `{kind}` backend was removed"))
            .with_note(format!(
                "There is no backend type named \"{kind}\" in current Terraform or OpenTofu: it was removed, like {}, so `init` fails.",
                crate::knowledge::backends::REMOVED.iter().filter(|k| **k != kind).map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
            ))
            .with_help("move the state to a current backend (for example `s3`, `gcs`, `azurerm`, `http` or `pg`) with the tool's state migration"),
    );
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::check_table;

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[&[("backend.tf", "terraform {\n  backend \"s3\" {}\n}\n")]],
            &[
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
            ],
        );
    }
}
