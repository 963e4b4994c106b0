//! The Terraform and OpenTofu views of a module define different objects, or only one of them
//! fails to load.

use std::collections::BTreeSet;

use crate::diagnostic::Diagnostic;
use crate::load::View;

use super::{Check, Context, DirectoryContext, Rule, RuleViews, rule_meta};

pub const RULE: Rule = Rule {
    meta: rule_meta!(
        "views_diverge",
        Warning,
        true,
        "the Terraform and OpenTofu views define different objects"
    ),
    views: RuleViews::Both,
    options: &[],
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

fn check(dir: &DirectoryContext, out: &mut Vec<Diagnostic>) {
    let (Some(terraform), Some(opentofu)) = (dir.view(View::Terraform), dir.view(View::OpenTofu))
    else {
        return;
    };
    let (tf, tofu) = (addresses(terraform), addresses(opentofu));
    let only_tf: Vec<&String> = tf.difference(&tofu).collect();
    let only_tofu: Vec<&String> = tofu.difference(&tf).collect();
    if only_tf.is_empty() && only_tofu.is_empty() {
        return;
    }
    let span_of = |ctx: &Context, address: &str| {
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
    };
    let mut labels = Vec::new();
    for address in &only_tf {
        labels.extend(span_of(terraform, address).map(|s| (s, "only in the Terraform view")));
    }
    for address in &only_tofu {
        labels.extend(span_of(opentofu, address).map(|s| (s, "only in the OpenTofu view")));
    }
    let Some(&(first, first_label)) = labels.first() else {
        return;
    };
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
    let mut d = dir
        .finding(
            &RULE,
            format!(
                "the Terraform and OpenTofu views differ: {}",
                parts.join("; ")
            ),
        )
        .at(dir.files, first, first_label);
    for &(span, label) in labels.iter().skip(1) {
        d = d.with_label(dir.files, span, label);
    }
    out.push(
        d.with_note("`.tofu` files are read by OpenTofu only, and a `foo.tofu` hides `foo.tf` from it: an object defined on one side only exists for one tool's users, which is rarely meant.")
            .with_help("define the object in both views (in the `.tf` file and its `.tofu` twin), or in a file both tools read"),
    );
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::check_table;

    #[test]
    fn table() {
        check_table(
            "views_diverge",
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
}
