//! The Terraform and OpenTofu views of a module define different objects, or only one of them
//! fails to load.

use std::collections::BTreeSet;

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::source::Span;

use crate::lint::{Check, Context, DirectoryContext, Kind, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "views_diverge",
    severity: Warning,
    default: On,
    summary: "the Terraform and OpenTofu views define different objects",
    check: Check::Directory(check),
};

fn addresses(ctx: &Context) -> BTreeSet<String> {
    ctx.module
        .objects
        .iter()
        .map(|o| o.address.to_string())
        .chain(
            ctx.module
                .locals
                .iter()
                .map(|l| format!("local.{}", l.attribute.name)),
        )
        .collect()
}

fn span_of(ctx: &Context, address: &str) -> Option<Span> {
    ctx.module
        .objects
        .iter()
        .find(|o| o.address.to_string() == address)
        .map(|o| o.base_header)
        .or_else(|| {
            ctx.module
                .locals
                .iter()
                .find(|l| format!("local.{}", l.attribute.name) == address)
                .map(|l| l.attribute.name_span)
        })
}

fn check(dir: &DirectoryContext, out: &mut Vec<Diagnostic>) {
    let (Some(terraform), Some(opentofu)) = (dir.view(View::Terraform), dir.view(View::OpenTofu))
    else {
        return;
    };
    let (tf, tofu) = (addresses(terraform), addresses(opentofu));
    let only_tf: Vec<&String> = tf.difference(&tofu).collect();
    let only_tofu: Vec<&String> = tofu.difference(&tf).collect();
    // Load errors of one view only: the module loads for one tool's users and not the other's.
    let errors: Vec<&Diagnostic> = dir
        .one_view_errors
        .iter()
        .filter(|d| {
            dir.settings
                .registry()
                .find(d.rule.as_str())
                .is_some_and(|m| m.kind == Kind::LoadError)
                && d.primary.is_some()
        })
        .collect();

    let mut labels: Vec<(Span, String)> = Vec::new();
    for address in &only_tf {
        labels.extend(
            span_of(terraform, address).map(|s| (s, "only in the Terraform view".to_string())),
        );
    }
    for address in &only_tofu {
        labels.extend(
            span_of(opentofu, address).map(|s| (s, "only in the OpenTofu view".to_string())),
        );
    }
    let list = |items: &[&String]| {
        items
            .iter()
            .map(|a| format!("`{a}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut parts = Vec::new();
    if !only_tf.is_empty() {
        parts.push(format!("only Terraform has {}", list(&only_tf)));
    }
    if !only_tofu.is_empty() {
        parts.push(format!("only OpenTofu has {}", list(&only_tofu)));
    }
    for error in &errors {
        let tool = if error.views.terraform {
            "Terraform"
        } else {
            "OpenTofu"
        };
        parts.push(format!("only {tool} fails with \"{}\"", error.message));
    }
    if parts.is_empty() {
        return;
    }
    let mut d = dir.finding(
        &RULE,
        format!(
            "the Terraform and OpenTofu views differ: {}",
            parts.join("; ")
        ),
    );
    let mut first = true;
    let error_labels = errors.iter().filter_map(|e| {
        let label = e.primary.as_ref()?;
        let tool = if e.views.terraform {
            "Terraform"
        } else {
            "OpenTofu"
        };
        Some((label.clone(), format!("only {tool} reports: {}", e.message)))
    });
    for (span, text) in labels {
        d = if first {
            d.at(dir.files, span, text)
        } else {
            d.with_label(dir.files, span, text)
        };
        first = false;
    }
    for (label, text) in error_labels {
        let label = crate::diagnostic::Label {
            message: text,
            ..label
        };
        if first {
            d.path = label.file.display.clone();
            d.primary = Some(label);
            first = false;
        } else {
            d.secondary.push(label);
        }
    }
    out.push(
        d.with_note("`.tofu` files are read by OpenTofu only, and a `foo.tofu` hides `foo.tf` from it: what one view defines, or fails on, exists only for one tool's users, which is rarely meant.")
            .with_help("define the object in both views (in the `.tf` file and its `.tofu` twin), or in a file both tools read"),
    );
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{check_table, findings};

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[
                &[
                    (
                        "versions.tf",
                        "terraform {\n  required_version = \">= 1.6\"\n}\n",
                    ),
                    (
                        "versions.tofu",
                        "terraform {\n  required_version = \">= 1.8\"\n}\n",
                    ),
                ],
                &[
                    ("main.tf", "variable \"x\" {}\n"),
                    ("main.tofu", "variable \"x\" {\n  default = 1\n}\n"),
                ],
            ],
            &[
                (
                    &[
                        ("main.tf", "variable \"x\" {}\nvariable \"y\" {}\n"),
                        ("main.tofu", "variable \"x\" {}\n"),
                    ],
                    1,
                ),
                (
                    &[
                        ("main.tf", "variable \"x\" {}\n"),
                        ("extra.tofu.json", r#"{"output": {"o": {"value": 1}}}"#),
                    ],
                    1,
                ),
            ],
        );
    }

    #[test]
    fn a_load_error_in_one_view_only_is_a_divergence() {
        let found = findings(
            &super::RULE,
            &[
                ("main.tf", "resource \"terraform_data\" \"a\" {}\n"),
                ("extra.tofu", "resource \"terraform_data\" \"a\" {}\n"),
            ],
        );
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0]
                .message
                .contains("only OpenTofu fails with \"Duplicate resource"),
            "{}",
            found[0].message
        );
    }
}
