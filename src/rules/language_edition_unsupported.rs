//! A `language` block's `edition` that is not the bare keyword `tofu2024`: a quoted string, a
//! Terraform edition or an unknown one. OpenTofu knows one edition and refuses anything else.
//! Likewise `terraform { language }`, which must be the bare keyword `TF2021`: Terraform and
//! OpenTofu before 1.12 check it (`sniffActiveExperiments`); OpenTofu 1.12 ignores it.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::blocks::LANGUAGE_EDITION as EDITION;
use crate::syntax::{Expr, ExprKind};

use crate::lint::helpers::{
    json_interpolates, language_blocks, opentofu_reads_terraform_language, terraform_settings,
};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "language_edition_unsupported",
    severity: Error,
    default: On,
    summary: "a language edition the tool does not have (tofu2024, or TF2021 in terraform {})",
    check: Check::View(RuleViews::Both, check),
};

/// The one edition `terraform { language }` takes.
const TERRAFORM_EDITION: &str = "TF2021";

const QUOTED_NOTE: &str =
    "The edition is a bare keyword, not a string: write `edition = tofu2024` without quotes.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    check_terraform_language(ctx, out);
    if ctx.view != View::OpenTofu {
        return;
    }
    for (_, language) in language_blocks(ctx) {
        let Some(attr) = language.body.attribute("edition") else {
            continue;
        };
        let expr = &attr.expr;
        // A JSON template is not a constant: `language_settings_not_constant` reports it.
        if json_interpolates(expr) {
            continue;
        }
        match (expr.keyword(), &expr.kind) {
            (Some(EDITION), _) => {}
            (None, ExprKind::String(s)) => out.push(quoted_edition(ctx, expr, s)),
            (Some(name), _) if name.starts_with("TF") => {
                out.push(terraform_edition(ctx, expr, name));
            }
            (Some(name), _) => out.push(unknown_edition(ctx, expr, name)),
            // Anything else is not a constant: `language_settings_not_constant` reports it.
            _ => {}
        }
    }
}

/// `terraform { language = ... }`, where every targeted release reads it.
fn check_terraform_language(ctx: &Context, out: &mut Vec<Diagnostic>) {
    if ctx.view == View::OpenTofu && !opentofu_reads_terraform_language(ctx) {
        return;
    }
    for attr in terraform_settings(ctx, "language") {
        let expr = &attr.expr;
        match expr.keyword() {
            Some(TERRAFORM_EDITION) => {}
            Some(name) => out.push(unsupported_terraform_edition(ctx, expr, name)),
            None => out.push(invalid_terraform_edition(ctx, expr)),
        }
    }
}

/// `Invalid language edition`, on `terraform { language = "TF2021" }` or anything else that is
/// not a keyword.
fn invalid_terraform_edition(ctx: &Context, expr: &Expr) -> Diagnostic {
    ctx.finding(&RULE, "Invalid language edition")
        .at(ctx.files, expr.span, "not a bare keyword")
        .with_note(format!(
            "The language argument expects a bare language edition keyword. Terraform (and \
             OpenTofu before 1.12) support only language edition {TERRAFORM_EDITION}, which is \
             the default."
        ))
        .with_help(format!(
            "write `language = {TERRAFORM_EDITION}`, or remove it: it is the default"
        ))
}

/// `Unsupported language edition`, on `terraform { language = TF2038 }`.
fn unsupported_terraform_edition(ctx: &Context, expr: &Expr, name: &str) -> Diagnostic {
    let newer = if name > TERRAFORM_EDITION {
        "newer"
    } else {
        "different"
    };
    ctx.finding(&RULE, "Unsupported language edition")
        .at(ctx.files, expr.span, format!("unknown edition `{name}`"))
        .with_note(format!(
            "Terraform (and OpenTofu before 1.12) only support language edition \
             {TERRAFORM_EDITION}. This module requires a {newer} version of the CLI."
        ))
        .with_help(format!(
            "write `language = {TERRAFORM_EDITION}`, or remove it: it is the default"
        ))
}

/// `Invalid language edition`, on `edition = "tofu2024"`.
fn quoted_edition(ctx: &Context, expr: &Expr, value: &str) -> Diagnostic {
    let label = format!("a quoted string, not the keyword `{value}`");
    edition_finding(
        ctx,
        "Invalid language edition",
        expr,
        label,
        QUOTED_NOTE.to_string(),
    )
}

/// `Unsupported language edition`, on a Terraform edition such as `TF2021`.
fn terraform_edition(ctx: &Context, expr: &Expr, name: &str) -> Diagnostic {
    let note = format!(
        "`{name}` is Terraform's language edition (`terraform {{ language = {name} }}`); \
         OpenTofu's `language` block knows only `{EDITION}`."
    );
    let label = format!("`{name}` is a Terraform edition");
    edition_finding(ctx, "Unsupported language edition", expr, label, note)
}

/// `Unsupported language edition`, on an edition no tool knows.
fn unknown_edition(ctx: &Context, expr: &Expr, name: &str) -> Diagnostic {
    let note = format!("This version of the language knows only the edition `{EDITION}`.");
    let label = format!("unknown edition `{name}`");
    edition_finding(ctx, "Unsupported language edition", expr, label, note)
}

/// What the three findings share: the place and the help.
fn edition_finding(
    ctx: &Context,
    summary: &'static str,
    expr: &Expr,
    label: String,
    note: String,
) -> Diagnostic {
    ctx.finding(&RULE, summary)
        .at(ctx.files, expr.span, label)
        .with_note(note)
        .with_help(format!("write `edition = {EDITION}`"))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, TOFU_EDITION, check_table, findings};

    const PASS: &[Files] = &[
        &[("versions.tofu", TOFU_EDITION)],
        &[(
            "versions.tofu.json",
            r#"{"language": {"edition": "tofu2024"}}"#,
        )],
        // Not a constant: another rule's business.
        &[("versions.tofu", "language {\n  edition = var.x\n}\n")],
    ];
    const FAIL: &[(Files, usize)] = &[
        (
            &[("versions.tofu", "language {\n  edition = \"tofu2024\"\n}\n")],
            1,
        ),
        (
            &[("versions.tofu", "language {\n  edition = TF2021\n}\n")],
            1,
        ),
        (
            &[(
                "versions.tofu.json",
                r#"{"language": {"edition": "tofu2099"}}"#,
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// `terraform { language }`: Terraform, and OpenTofu before 1.12, take only `TF2021`.
    #[test]
    fn terraform_block_edition() {
        use crate::diagnostic::Views;
        use crate::lint::testing::findings_targeting_opentofu;
        let found = |files: Files, opentofu: &str| -> Vec<(String, Views)> {
            let all = findings_targeting_opentofu(&super::RULE, files, opentofu);
            all.into_iter()
                .map(|d| (d.message.into_owned(), d.views))
                .collect()
        };
        let quoted = "terraform {\n  language = \"TF2021\"\n}\n";
        let newer = "terraform {\n  language = TF2038\n}\n";
        let fine = "terraform {\n  language = TF2021\n}\n";
        let json = r#"{"terraform": {"language": "TF2038"}}"#;
        let invalid = ("Invalid language edition".to_string(), Views::BOTH);
        let unsupported = || ("Unsupported language edition".to_string(), Views::BOTH);
        assert_eq!(found(&[("v.tf", quoted)], "~> 1.11.0"), [invalid]);
        assert_eq!(found(&[("v.tf", newer)], "~> 1.11.0"), [unsupported()]);
        assert_eq!(found(&[("v.tf.json", json)], "~> 1.11.0"), [unsupported()]);
        assert!(found(&[("v.tf", fine)], "~> 1.11.0").is_empty());
        // OpenTofu 1.12 ignores the setting.
        let terraform_only = ("Unsupported language edition".to_string(), Views::TERRAFORM);
        assert_eq!(found(&[("v.tf", newer)], ">= 1.11"), [terraform_only]);
    }

    #[test]
    fn messages_match_opentofu() {
        let quoted = findings(
            &super::RULE,
            &[("v.tofu", "language {\n  edition = \"tofu2024\"\n}\n")],
        );
        assert_eq!(quoted[0].message, "Invalid language edition");
        let tf = findings(
            &super::RULE,
            &[("v.tofu", "language {\n  edition = TF2021\n}\n")],
        );
        assert_eq!(tf[0].message, "Unsupported language edition");
    }
}
