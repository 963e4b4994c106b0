//! `language` settings that are not constants: OpenTofu reads the block before it evaluates
//! anything, so references, function calls and templates cannot be used there.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::syntax::{Attribute, Expr, ExprKind};

use crate::lint::helpers::{compatible_with_opentofu, language_blocks};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "language_settings_not_constant",
    severity: Error,
    default: On,
    summary: "a language setting that is not a constant",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

const NOTE: &str = "OpenTofu reads the `language` block before it evaluates anything else in the \
                    module: references, function calls and templates cannot be used there.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (_, language) in language_blocks(ctx) {
        for attr in &language.body.attributes {
            match attr.name.as_str() {
                "edition" if !is_keyword(&attr.expr) => {
                    out.push(not_constant(ctx, attr, "a bare keyword such as `tofu2024`"));
                }
                "experiments" if !is_keyword_list(&attr.expr) => {
                    out.push(not_constant(ctx, attr, "a list of bare keywords"));
                }
                _ => {}
            }
        }
        for attr in compatible_with_opentofu(language) {
            if attr.expr.literal_string().is_none() {
                let expected = "a literal string such as `\">= 1.12\"`";
                out.push(not_constant(ctx, attr, expected));
            }
        }
    }
}

/// Native: a bare name; JSON: any string (a keyword is written as a string there). Quoted
/// strings in native syntax are `language_edition_unsupported`'s to judge.
fn is_keyword(expr: &Expr) -> bool {
    matches!(expr.kind, ExprKind::Variable(_) | ExprKind::String(_)) || expr.json_string().is_some()
}

fn is_keyword_list(expr: &Expr) -> bool {
    expr.tuple_items()
        .is_some_and(|items| items.iter().all(is_keyword))
}

/// `` `edition` in a `language` block must be a constant ``
fn not_constant(ctx: &Context, attr: &Attribute, expected: &str) -> Diagnostic {
    let message = format!("`{}` in a `language` block must be a constant", attr.name);
    ctx.finding(&RULE, message)
        .at(ctx.files, attr.expr.span, format!("expected {expected}"))
        .with_note(NOTE)
        .with_help("write the value out as a constant")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[
        &[(
            "versions.tofu",
            "language {\n  edition     = tofu2024\n  experiments = []\n  compatible_with {\n    \
             opentofu = \">= 1.12\"\n  }\n}\n",
        )],
        &[(
            "versions.tofu.json",
            concat!(
                r#"{"language": {"edition": "tofu2024", "#,
                r#""compatible_with": {"opentofu": ">= 1.12"}}}"#,
            ),
        )],
    ];
    const FAIL: &[(Files, usize)] = &[
        (
            &[("versions.tofu", "language {\n  edition = var.edition\n}\n")],
            1,
        ),
        (
            &[(
                "versions.tofu",
                "language {\n  compatible_with {\n    opentofu = local.tofu_version\n  }\n}\n",
            )],
            1,
        ),
        (
            &[(
                "versions.tofu",
                "language {\n  experiments = concat([], [])\n}\n",
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
