//! `language` settings that are not constants: OpenTofu reads them before anything is evaluated.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::syntax::{Attribute, ExprKind};

use crate::lint::helpers::language_blocks;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "language_settings_not_constant",
    severity: Error,
    default: On,
    summary: "a language setting that is not a constant",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (_, language) in language_blocks(ctx) {
        for attr in &language.body.attributes {
            match attr.name.as_str() {
                "edition" if !is_keyword(attr) => {
                    report(ctx, attr, "a bare keyword such as `tofu2024`", out)
                }
                "experiments" if !is_keyword_list(attr) => {
                    report(ctx, attr, "a list of bare keywords", out)
                }
                _ => {}
            }
        }
        for compatible in language.body.blocks_of("compatible_with") {
            if let Some(attr) = compatible.body.attribute("opentofu")
                && attr.expr.literal_string().is_none()
            {
                report(ctx, attr, "a literal string such as `\">= 1.12\"`", out);
            }
        }
    }
}

/// Native: a bare name; JSON: any string (a keyword is written as a string there). Quoted
/// strings in native syntax are `language_edition_unsupported`'s to judge.
fn is_keyword(attr: &Attribute) -> bool {
    matches!(attr.expr.kind, ExprKind::Variable(_) | ExprKind::String(_))
        || attr.expr.json_string.is_some()
}

fn is_keyword_list(attr: &Attribute) -> bool {
    attr.expr.tuple_items().is_some_and(|items| {
        items.iter().all(|e| {
            matches!(e.kind, ExprKind::Variable(_) | ExprKind::String(_)) || e.json_string.is_some()
        })
    })
}

fn report(ctx: &Context, attr: &Attribute, expected: &str, out: &mut Vec<Diagnostic>) {
    out.push(
        ctx.finding(&RULE, format!("`{}` in a `language` block must be a constant", attr.name))
            .at(ctx.files, attr.expr.span, format!("expected {expected}"))
            .with_note("OpenTofu reads the `language` block before it evaluates anything else in the module: references, function calls and templates cannot be used there.")
            .with_help("write the value out as a constant"),
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
                &[(
                    "versions.tofu",
                    "language {\n  edition     = tofu2024\n  experiments = []\n  compatible_with {\n    opentofu = \">= 1.12\"\n  }\n}\n",
                )],
                &[(
                    "versions.tofu.json",
                    r#"{"language": {"edition": "tofu2024", "compatible_with": {"opentofu": ">= 1.12"}}}"#,
                )],
            ],
            &[
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
            ],
        );
    }
}
