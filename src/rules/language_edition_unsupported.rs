//! A `language` block's `edition` that is not the bare keyword `tofu2024`: a quoted string, a
//! Terraform edition or an unknown one. OpenTofu knows one edition and refuses anything else.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::blocks::LANGUAGE_EDITION as EDITION;
use crate::syntax::{Expr, ExprKind};

use crate::lint::helpers::{json_interpolates, language_blocks};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "language_edition_unsupported",
    severity: Error,
    default: On,
    summary: "a language edition other than the bare keyword tofu2024",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

const QUOTED_NOTE: &str =
    "The edition is a bare keyword, not a string: write `edition = tofu2024` without quotes.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
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
    summary: &str,
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
