//! `edition` must be the bare keyword `tofu2024`.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::blocks::LANGUAGE_EDITION as EDITION;
use crate::syntax::ExprKind;

use crate::lint::helpers::language_blocks;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "language_edition_unsupported",
    severity: Error,
    default: On,
    summary: "a language edition other than the bare keyword tofu2024",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (_, language) in language_blocks(ctx) {
        let Some(attr) = language.body.attribute("edition") else {
            continue;
        };
        let expr = &attr.expr;
        // A JSON template is not a constant: `language_settings_not_constant` reports it.
        if expr
            .json_string
            .as_deref()
            .is_some_and(|s| s.contains("${"))
        {
            continue;
        }
        let (summary, label, note) = match (expr.keyword(), &expr.kind) {
            (Some(EDITION), _) => continue,
            (None, ExprKind::String(s)) => (
                "Invalid language edition",
                format!("a quoted string, not the keyword `{s}`"),
                "The edition is a bare keyword, not a string: write `edition = tofu2024` without quotes.".to_string(),
            ),
            (Some(name), _) if name.starts_with("TF") => (
                    "Unsupported language edition",
                    format!("`{name}` is a Terraform edition"),
                    format!("`{name}` is Terraform's language edition (`terraform {{ language = {name} }}`); OpenTofu's `language` block knows only `{EDITION}`."),
            ),
            (Some(name), _) => (
                "Unsupported language edition",
                format!("unknown edition `{name}`"),
                format!("This version of the language knows only the edition `{EDITION}`."),
            ),
            // Anything else is not a constant: `language_settings_not_constant` reports it.
            _ => continue,
        };
        out.push(
            ctx.finding(&RULE, summary)
                .at(ctx.files, expr.span, label)
                .with_note(note)
                .with_help(format!("write `edition = {EDITION}`")),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{check_table, findings};

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[
                &[("versions.tofu", "language {\n  edition = tofu2024\n}\n")],
                &[(
                    "versions.tofu.json",
                    r#"{"language": {"edition": "tofu2024"}}"#,
                )],
                // Not a constant: another rule's business.
                &[("versions.tofu", "language {\n  edition = var.x\n}\n")],
            ],
            &[
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
            ],
        );
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
