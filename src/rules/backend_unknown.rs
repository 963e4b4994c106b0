//! A backend type no current tool has (and that was not removed either: a typo or a plugin).

use crate::diagnostic::Diagnostic;

use super::{Check, Context, Rule, RuleViews, backend_type, closest, rule_meta};

pub const RULE: Rule = Rule {
    meta: rule_meta!(
        "backend_unknown",
        Error,
        true,
        "a backend type the tool does not have"
    ),
    views: RuleViews::Both,
    options: &[],
    check: Check::View(check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let Some((backend, kind)) = backend_type(ctx) else {
        return;
    };
    let known = crate::backends::known(ctx.view);
    if known.contains(&kind) || crate::backends::REMOVED.contains(&kind) {
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
    use crate::rules::testing::check_table;

    #[test]
    fn table() {
        check_table(
            "backend_unknown",
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
