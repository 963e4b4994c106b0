//! The module constrains Terraform's version but says nothing for OpenTofu: OpenTofu 1.12 and
//! later leave it unconstrained, and older OpenTofu applies Terraform's version numbers.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::files::classify;
use crate::module::merge::MergedAttribute;
use crate::source::Syntax;

use crate::lint::helpers::opentofu_compatible_with;
use crate::lint::{Check, DirectoryContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "required_version_terraform_only",
    severity: Warning,
    default: On,
    summary: "a Terraform version constraint with none for OpenTofu",
    check: Check::Directory(check),
};

const NOTE: &str = "OpenTofu 1.12 and later read `required_version` only from `.tofu` files, so \
                    this module is unconstrained there; OpenTofu 1.11 and older apply \
                    Terraform's version numbers to their own. Both are wrong.";

fn check(dir: &DirectoryContext, out: &mut Vec<Diagnostic>) {
    let (Some(terraform), Some(opentofu)) = (dir.view(View::Terraform), dir.view(View::OpenTofu))
    else {
        return;
    };
    let Some(constraint) = terraform.module.terraform.required_version.first() else {
        return; // no Terraform constraint either: nothing to compare
    };
    let tofu_constrained = !opentofu.module.terraform.required_version.is_empty()
        || opentofu_compatible_with(opentofu).next().is_some();
    if !tofu_constrained {
        out.push(terraform_only(dir, constraint));
    }
}

/// The file that would hide `file` from OpenTofu: `x.tf` → `x.tofu`, `x.tf.json` →
/// `x.tofu.json`.
fn tofu_twin(file: &str) -> String {
    classify(file).map_or_else(
        || "versions.tofu".to_string(),
        |name| {
            let extension = if name.extension.syntax() == Syntax::Json {
                ".tofu.json"
            } else {
                ".tofu"
            };
            format!("{}{extension}", name.stem)
        },
    )
}

/// `the module constrains Terraform's version but not OpenTofu's`
fn terraform_only(dir: &DirectoryContext, constraint: &MergedAttribute) -> Diagnostic {
    let file = dir.files.get(constraint.name_span.file).file_name();
    let twin = tofu_twin(file);
    dir.finding(
        &RULE,
        "the module constrains Terraform's version but not OpenTofu's",
    )
    .at(dir.files, constraint.span(), "Terraform only")
    .with_note(NOTE)
    .with_help(format!(
        "add `{twin}` beside `{file}` with OpenTofu's own `required_version` (it hides \
             `{file}` from OpenTofu), or a `language {{ compatible_with {{ opentofu = \"...\" }} \
             }}` block in a `.tofu` file"
    ))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{
        Files, TOFU_COMPATIBLE_1_12, check_table, terraform_required_version as required,
    };

    const TF: &str = required!(">= 1.6");

    const PASS: &[Files] = &[
        &[("versions.tf", TF), ("versions.tofu", required!(">= 1.8"))],
        &[("versions.tf", TF), ("language.tofu", TOFU_COMPATIBLE_1_12)],
        // No constraint at all: not this rule's business.
        &[("main.tf", "resource \"terraform_data\" \"a\" {}\n")],
    ];
    const FAIL: &[(Files, usize)] = &[
        (&[("versions.tf", TF)], 1),
        (
            &[(
                "versions.tf.json",
                r#"{"terraform": {"required_version": ">= 1.6"}}"#,
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
