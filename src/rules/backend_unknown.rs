//! A backend type no current tool has (and that was not removed either: a typo or a plugin).

use crate::diagnostic::Diagnostic;

use crate::lint::helpers::{backend_type, closest};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "backend_unknown",
    severity: Error,
    default: On,
    summary: "a backend type the tool does not have",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let Some((backend, kind)) = backend_type(ctx) else {
        return;
    };
    let known = crate::knowledge::backends::known(ctx.view);
    if known.contains(&kind) || crate::knowledge::backends::REMOVED.contains(&kind) {
        return;
    }
    let help = match closest(kind, known.iter().copied()) {
        _ if kind == "cloud" => {
            "HCP Terraform is configured with a `cloud` block inside `terraform`, not a backend"
                .to_string()
        }
        Some(close) => format!("did you mean `{close}`?"),
        None => format!("use one of: {}", known.join(", ")),
    };
    out.push(
        ctx.finding(&RULE, "Unsupported backend type")
            .at(ctx.files, backend.header_span, format!("no backend is called `{kind}`"))
            .with_note(format!("There is no backend type named \"{kind}\": `init` fails. Backends are built into Terraform and OpenTofu; they cannot be added as plugins."))
            .with_help(help),
    );
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::check_table;

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[
                &[("backend.tf", "terraform {\n  backend \"gcs\" {}\n}\n")],
                &[("backend.tf", "terraform {\n  backend \"etcd\" {}\n}\n")],
            ],
            &[
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
            ],
        );
    }
}
