//! A backend type that the targeted releases no longer have (Terraform removed `artifactory`,
//! `etcd`, `etcdv3`, `manta`, `swift` and `azure` in 1.3; OpenTofu lists them as removed): `init`
//! fails on it with the tool's removed-backend message, so the state has to move.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::features::{is_removed_backend, removed_backend_message};
use crate::module::merge::MergedBlock;

use crate::lint::helpers::{backend_type, backend_type_span, releases_with_backend};
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
    if is_removed_backend(kind) && releases_with_backend(ctx, kind).is_empty() {
        out.push(removed_backend(ctx, backend, kind));
    }
}

/// `Unsupported backend type`, on a backend type that was removed.
fn removed_backend(ctx: &Context, backend: &MergedBlock, kind: &str) -> Diagnostic {
    ctx.finding(&RULE, "Unsupported backend type")
        .at(
            ctx.files,
            backend_type_span(backend),
            format!("the `{kind}` backend was removed"),
        )
        .with_note(removed_note(kind))
        .with_help(HELP)
}

/// The tools' removed-backend message, in words that hold for both views (so that a backend in
/// a file both tools read is one finding): OpenTofu's message names itself where Terraform's
/// names Terraform.
fn removed_note(kind: &str) -> String {
    let terraform = removed_backend_message(View::Terraform, kind);
    if terraform == removed_backend_message(View::OpenTofu, kind) {
        return format!("{terraform} So `init` fails.");
    }
    format!(
        "Terraform removed it in 1.3 and OpenTofu lists it as removed: `init` fails with \
         \"{terraform}\" (OpenTofu's message names OpenTofu)."
    )
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
        (
            &[("backend.tf", "terraform {\n  backend \"azure\" {}\n}\n")],
            1,
        ),
        // Terraform 1.2 still has it: the OpenTofu view only.
        (
            &[(
                "backend.tf",
                "terraform {\n  backend \"etcd\" {}\n  required_version = \"~> 1.2.0\"\n}\n",
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn the_tools_messages() {
        let files: Files = &[("backend.tf", "terraform {\n  backend \"azure\" {}\n}\n")];
        let found = crate::lint::testing::findings(&super::RULE, files);
        assert!(
            found[0].notes[0].starts_with(
                "The \"azure\" backend name has been removed, please use \"azurerm\"."
            )
        );
        let files: Files = &[("backend.tofu", "terraform {\n  backend \"manta\" {}\n}\n")];
        let found = crate::lint::testing::findings(&super::RULE, files);
        assert!(
            found[0].notes[0]
                .contains("\"The \"manta\" backend is not supported in Terraform v1.3 or later.\"")
        );
    }
}
