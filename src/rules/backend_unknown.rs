//! A backend type no current tool has, and that was not removed either (`backend_removed`
//! reports those): a typo, or a backend expected as a plugin. Backends are built in, so `init`
//! fails.

use crate::diagnostic::Diagnostic;
use crate::knowledge::backends::{REMOVED, known};
use crate::module::merge::MergedBlock;

use crate::lint::helpers::{backend_type, closest};
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
    let known = known(ctx.view);
    if known.contains(&kind) || REMOVED.contains(&kind) {
        return;
    }
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
            backend.header_span,
            format!("no backend is called `{kind}`"),
        )
        .with_note(format!(
            "There is no backend type named \"{kind}\": `init` fails. Backends are built into \
             Terraform and OpenTofu; they cannot be added as plugins."
        ))
        .with_help(help)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[
        &[("backend.tf", "terraform {\n  backend \"gcs\" {}\n}\n")],
        &[("backend.tf", "terraform {\n  backend \"etcd\" {}\n}\n")],
    ];
    const FAIL: &[(Files, usize)] = &[
        (
            &[("backend.tf", "terraform {\n  backend \"s4\" {}\n}\n")],
            1,
        ),
        (
            &[(
                "backend.tf.json",
                r#"{"terraform": {"backend": {"azure": {}}}}"#,
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
