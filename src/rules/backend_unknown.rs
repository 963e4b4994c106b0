//! A backend type no targeted release of the tool has, and that the tool does not list as
//! removed (`backend_removed` reports those): a typo, a backend expected as a plugin, or one the
//! other tool has (`oci` is Terraform's only). Backends are built in, so `init` fails.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::features::{self, Place, is_removed_backend};
use crate::module::merge::MergedBlock;

use crate::lint::helpers::{backend_type, backend_type_span, closest, releases_with_backend};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "backend_unknown",
    severity: Error,
    default: On,
    summary: "a backend type the tool does not have",
    check: Check::View(RuleViews::Both, check),
};

const CLOUD_HELP: &str =
    "HCP Terraform is configured with a `cloud` block inside `terraform`, not a backend";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let Some((backend, kind)) = backend_type(ctx) else {
        return;
    };
    if !releases_with_backend(ctx, kind).is_empty() || is_removed_backend(kind) {
        return;
    }
    let newest = *ctx.targets.releases.last().unwrap_or(&ctx.targets.lowest());
    let known = features::names(ctx.view, newest, Place::Backend);
    let help = match closest(kind, known.iter().copied()) {
        _ if kind == "cloud" => CLOUD_HELP.to_string(),
        Some(close) => format!("did you mean `{close}`?"),
        None => format!("use one of: {}", known.join(", ")),
    };
    out.push(unknown_backend(ctx, backend, kind, help));
}

/// `Unsupported backend type`, on a backend type the tool does not have.
fn unknown_backend(ctx: &Context, backend: &MergedBlock, kind: &str, help: String) -> Diagnostic {
    ctx.finding(&RULE, "Unsupported backend type")
        .at(
            ctx.files,
            backend_type_span(backend),
            format!("no backend is called `{kind}`"),
        )
        .with_note(format!(
            "There is no backend type named \"{kind}\": `init` fails. Backends are built into \
             Terraform and OpenTofu; they cannot be added as plugins.{}",
            came_later(ctx, kind)
        ))
        .with_help(help)
}

/// `" Terraform has it since 1.12; this module targets OpenTofu 1.12."` when a later release
/// of this tool, or the other tool, has the backend.
fn came_later(ctx: &Context, kind: &str) -> String {
    let Some(row) = features::find(Place::Backend, kind) else {
        return String::new();
    };
    let other = match ctx.view {
        View::Terraform => View::OpenTofu,
        View::OpenTofu => View::Terraform,
    };
    [ctx.view, other]
        .into_iter()
        .find_map(|tool| Some((tool, row.availability(tool).since()?)))
        .map_or_else(String::new, |(tool, since)| {
            format!(
                " {} has it since {since}; this module targets {}.",
                tool.tool_name(),
                ctx.targets.describe()
            )
        })
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[
        &[("backend.tf", "terraform {\n  backend \"gcs\" {}\n}\n")],
        &[("backend.tf", "terraform {\n  backend \"etcd\" {}\n}\n")],
        // Both tools have `inmem`.
        &[("backend.tf", "terraform {\n  backend \"inmem\" {}\n}\n")],
        &[(
            "backend.tf.json",
            r#"{"terraform": {"backend": {"inmem": {}}}}"#,
        )],
    ];
    const FAIL: &[(Files, usize)] = &[
        (
            &[("backend.tf", "terraform {\n  backend \"s4\" {}\n}\n")],
            1,
        ),
        (
            &[(
                "backend.tf.json",
                r#"{"terraform": {"backend": {"gcp": {}}}}"#,
            )],
            1,
        ),
        // Terraform has `oci` from 1.12, OpenTofu never: the OpenTofu view only.
        (
            &[(
                "backend.tf",
                "terraform {\n  backend \"oci\" {}\n  required_version = \">= 1.12\"\n}\n",
            )],
            1,
        ),
        // Terraform 1.11 and older have no `oci`; OpenTofu has none.
        (
            &[(
                "backend.tf",
                "terraform {\n  backend \"oci\" {}\n  required_version = \"< 1.12\"\n}\n",
            )],
            2,
        ),
        (
            &[("backend.tofu", "terraform {\n  backend \"oci\" {}\n}\n")],
            1,
        ),
        (
            &[(
                "backend.tofu.json",
                r#"{"terraform": {"backend": {"oci": {}}}}"#,
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// At the backend's type, as `terraform validate`/`init` and `tofu init` report it
    /// (`Backend.TypeRange`): the label, in JSON its property key.
    #[test]
    fn at_the_backend_type() {
        let native: Files = &[("backend.tf", "terraform {\n  backend \"s4\" {}\n}\n")];
        let json = "{\n  \"terraform\": {\n    \"backend\": {\n      \"gcp\": {}\n    }\n  }\n}\n";
        for (files, at) in [
            (native, (2, 11)),
            (&[("backend.tf.json", json)][..], (4, 7)),
        ] {
            let found = findings(&super::RULE, files);
            assert!(!found.is_empty());
            assert!(found.iter().all(|d| d.start() == at), "{files:?}");
        }
    }

    /// An override's `state_store` replaces the base backend in Terraform's experimental builds,
    /// so `init` never sees it; stable builds and OpenTofu do not decode `state_store` and keep
    /// the backend.
    #[test]
    fn a_backend_replaced_by_a_state_store_is_not_judged_in_experimental_builds() {
        use crate::diagnostic::Views;
        use crate::lint::testing::findings_targeting_terraform;
        let backend = "terraform {\n  backend \"s4\" {}\n}\n";
        let native = "terraform {\n  state_store \"x\" {}\n}\n";
        let json = r#"{"terraform": {"state_store": {"x": {}}}}"#;
        for over in [("override.tf", native), ("override.tf.json", json)] {
            let views = |terraform: &str| {
                let files: &[(&str, &str)] = &[("main.tf", backend), over];
                let found = findings_targeting_terraform(&super::RULE, files, terraform);
                found.iter().map(|d| d.views).collect::<Vec<_>>()
            };
            assert_eq!(views("1.17.0-dev"), [Views::OPENTOFU], "{over:?}");
            assert_eq!(views("1.15.0"), [Views::BOTH], "{over:?}");
        }
    }

    #[test]
    fn oci_in_opentofu_names_terraform() {
        let files: Files = &[("backend.tofu", "terraform {\n  backend \"oci\" {}\n}\n")];
        let found = crate::lint::testing::findings(&super::RULE, files);
        let note = &found[0].notes[0];
        assert!(
            note.ends_with("Terraform has it since 1.12; this module targets OpenTofu 1.12."),
            "{note}"
        );
    }
}
