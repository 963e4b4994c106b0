//! References and function calls in a `provider_meta` block: the tools decode its settings
//! without an evaluation context (hashicorp/terraform `internal/configs/provider_meta.go`,
//! `decodeProviderMetaBlock`, and `internal/terraform/node_resource_abstract.go`, which decode
//! the body with a nil `EvalContext`), so HCL refuses each reference (`Variables not allowed`)
//! and each call (`Function calls not allowed`, before it looks at the call's arguments):
//! hashicorp/hcl `hclsyntax/expression.go`. In JSON files the strings are read literally there
//! and nothing is refused.

use crate::diagnostic::Diagnostic;
use crate::lint::helpers::top_level_blocks_of;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};
use crate::source::{Span, Syntax};
use crate::syntax::{Call, Expr, Reference};

pub(crate) const RULE: Rule = declare_rule! {
    id: "provider_meta_not_static",
    kind: LoadError,
    summary: "a reference or function call in a provider_meta block",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (loaded, terraform) in top_level_blocks_of(ctx, &["terraform"]) {
        if loaded.extension.syntax() != Syntax::Native {
            continue;
        }
        for meta in terraform.body.blocks_of("provider_meta") {
            for attr in &meta.body.attributes {
                judge_expression(ctx, &attr.expr, out);
            }
        }
    }
}

/// Every call and reference HCL meets in `expr`: not those in the arguments of a call, which it
/// refuses before evaluating them.
fn judge_expression(ctx: &Context, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let mut refused: Vec<Span> = Vec::new();
    let inside = |refused: &[Span], span: Span| {
        refused
            .iter()
            .any(|r| r.start <= span.start && span.end <= r.end)
    };
    let mut found = Vec::new();
    expr.for_each_call(&mut |site| {
        if !inside(&refused, site.call.span) {
            refused.push(site.call.span.to(site.call.arguments.close));
            found.push((site.call.span, function_call(ctx, site.call)));
        }
    });
    expr.for_each_reference(&mut |reference| {
        if !inside(&refused, reference.span) {
            found.push((reference.span, variable(ctx, reference)));
        }
    });
    found.sort_by_key(|(span, _)| span.start);
    out.extend(found.into_iter().map(|(_, d)| d));
}

/// Function calls not allowed.
fn function_call(ctx: &Context, call: &Call) -> Diagnostic {
    ctx.finding(&RULE, "Function calls not allowed")
        .at(ctx.files, call.span, "a function call in `provider_meta`")
        .with_note("Functions may not be called here.")
        .with_help("write the value itself: `provider_meta` settings are constants")
}

/// Variables not allowed.
fn variable(ctx: &Context, reference: &Reference) -> Diagnostic {
    ctx.finding(&RULE, "Variables not allowed")
        .at(ctx.files, reference.span, "a reference in `provider_meta`")
        .with_note("Variables may not be used here.")
        .with_help("write the value itself: `provider_meta` settings are constants")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "terraform {\n  provider_meta \"aws\" {\n    a = { b = [1, \"x\"] }\n  }\n}\n",
        )],
        // JSON strings are read literally there.
        &[(
            "main.tf.json",
            r#"{"variable": {"x": {}}, "terraform": {"provider_meta": {"aws": {"a": "${var.x}"}}}}"#,
        )],
        // Elsewhere in the terraform block, references are other findings' or none.
        &[(
            "main.tf",
            "locals {\n  a = upper(local.b)\n  b = \"x\"\n}\n",
        )],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf",
                "variable \"x\" {}\nterraform {\n  provider_meta \"aws\" {\n    a = [var.x,\n      \
                 each.key]\n    b = \"${path.module}-y\"\n  }\n}\n",
            )],
            3,
        ),
        // One finding for a call, none for what its arguments hold.
        (
            &[(
                "main.tf",
                "terraform {\n  provider_meta \"aws\" {\n    a = upper(lower(var.x))\n  }\n}\n",
            )],
            1,
        ),
        (
            &[
                ("main.tf", "terraform {}\n"),
                (
                    "override.tf",
                    "terraform {\n  provider_meta \"aws\" {\n    a = local.x\n  }\n}\n",
                ),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
