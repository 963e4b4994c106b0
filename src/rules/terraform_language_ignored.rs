//! `terraform { language }` / `terraform { experiments }` in a `.tofu` file: OpenTofu ≥ 1.12
//! takes language settings from the top-level `language` block and ignores them, and Terraform
//! never reads `.tofu` files, so the setting has no effect at all.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::syntax::{Attribute, Block};

use crate::lint::helpers::top_level_blocks_of;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terraform_language_ignored",
    severity: Notice,
    default: On,
    summary: "a Terraform language or experiments setting in a .tofu file, which OpenTofu ignores",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (file, block) in top_level_blocks_of(ctx, &["terraform"]) {
        if !file.extension.is_tofu() {
            continue;
        }
        for attr in block
            .body
            .attributes
            .iter()
            .filter(|a| a.name == "language" || a.name == "experiments")
        {
            out.push(ignored_setting(ctx, block, attr));
        }
    }
}

/// `` `terraform { language }` in a `.tofu` file is ignored by OpenTofu ``
fn ignored_setting(ctx: &Context, block: &Block, attr: &Attribute) -> Diagnostic {
    let name = &attr.name;
    let replacement = if name == "language" {
        "edition"
    } else {
        "experiments"
    };
    let message = format!("`terraform {{ {name} }}` in a `.tofu` file is ignored by OpenTofu");
    ctx.finding(&RULE, message)
        .at(ctx.files, attr.span(), "ignored")
        .with_label(ctx.files, block.header_span, "in this block")
        .with_note(format!(
            "OpenTofu 1.12 and later take language settings from the top-level `language` block \
             and ignore `terraform {{ {name} }}`; only Terraform reads it, and Terraform never \
             reads `.tofu` files."
        ))
        .with_help(format!(
            "remove it, or set `{replacement}` in a top-level `language` block"
        ))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, terraform_required_version as required};

    const PASS: &[Files] = &[
        // In a .tf file it is Terraform's setting.
        &[("versions.tf", "terraform {\n  experiments = []\n}\n")],
        &[("versions.tofu", required!(">= 1.12"))],
    ];
    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "versions.tofu",
                "terraform {\n  language    = TF2021\n  experiments = []\n}\n",
            )],
            2,
        ),
        (
            &[(
                "versions.tofu.json",
                r#"{"terraform": {"experiments": []}}"#,
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
