//! A provider configuration named in quotes, as Terraform 0.11 wrote it: `providers = { aws =
//! "aws.east" }` in a module call, `provider = "aws.east"` in a resource, data source or
//! ephemeral resource. The tools still read it, with a warning (`Quoted references are
//! deprecated`, hashicorp/terraform `internal/configs/compat_shim.go`,
//! `shimTraversalInString`) that says the quotes will stop working. Only the native syntax: in
//! JSON a string is how every reference is written.

use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::source::Syntax;
use crate::syntax::{Expr, ExprKind};

use crate::lint::helpers::top_level_blocks;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "provider_reference_quoted",
    severity: Warning,
    default: On,
    summary: "a provider configuration referenced in quotes",
    fix: Unsafe,
    check: Check::View(RuleViews::Both, check),
};

/// The tools' detail.
const NOTE: &str = "In this context, references are expected literally rather than in quotes. \
                    Terraform 0.11 and earlier required quotes, but quoted references are now \
                    deprecated and will be removed in a future version of Terraform. Remove the \
                    quotes surrounding this reference to silence this warning.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (file, block) in top_level_blocks(ctx) {
        if file.extension.syntax() != Syntax::Native {
            continue;
        }
        let quoted: Vec<&Expr> = match block.kind.as_str() {
            "module" => match block.body.attribute("providers").map(|a| &a.expr.kind) {
                Some(ExprKind::Object(items)) => items.iter().map(|i| &i.value).collect(),
                _ => Vec::new(),
            },
            "resource" | "data" | "ephemeral" => block
                .body
                .attribute("provider")
                .map(|a| &a.expr)
                .into_iter()
                .collect(),
            _ => Vec::new(),
        };
        for expr in quoted {
            if let ExprKind::String(reference) = &expr.kind
                && is_provider_reference(reference)
            {
                out.push(quoted_reference(ctx, expr, reference));
            }
        }
    }
}

/// Whether a quoted text is a provider configuration's name, `NAME` or `NAME.ALIAS`, that can
/// be written bare.
fn is_provider_reference(text: &str) -> bool {
    let mut parts = text.split('.');
    let well_formed = |part: &str| {
        let mut chars = part.chars();
        chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
            && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    };
    let count = text.split('.').count();
    count <= 2 && parts.all(well_formed)
}

/// `Quoted references are deprecated`, the tools' warning.
fn quoted_reference(ctx: &Context, expr: &Expr, reference: &str) -> Diagnostic {
    let file = ctx.files.get(expr.span.file);
    let fix = Fix::new(
        format!("Remove the quotes around `{reference}`"),
        Applicability::Safe,
    )
    .edit(&file.path, expr.span.range(), reference);
    ctx.finding(&RULE, "Quoted references are deprecated")
        .at(ctx.files, expr.span, "a reference in quotes")
        .with_note(NOTE)
        .with_help(format!("write `{reference}` without quotes"))
        .with_fix(fix)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "provider \"aws\" {\n  alias = \"east\"\n}\nmodule \"c\" {\n  source    = \"./c\"\n  \
             providers = { aws = aws.east }\n}\nresource \"aws_instance\" \"a\" {\n  provider = \
             aws.east\n  ami      = \"aws.east\"\n}\n",
        )],
        // JSON writes every reference as a string.
        &[(
            "main.tf.json",
            "{\"provider\": {\"aws\": {\"alias\": \"east\"}}, \"module\": {\"c\": {\"source\": \
             \"./c\", \"providers\": {\"aws\": \"aws.east\"}}}}",
        )],
    ];

    const FAIL: &[(Files, usize)] = &[(
        &[
            (
                "main.tf",
                "provider \"aws\" {\n  alias = \"east\"\n}\nmodule \"c\" {\n  source    = \"./c\"\n  \
                 providers = {\n    aws      = \"aws.east\"\n    aws.west = \"aws\"\n  }\n}\n",
            ),
            (
                "data.tf",
                "data \"aws_ami\" \"a\" {\n  provider = \"aws.east\"\n}\n",
            ),
        ],
        3,
    )];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
