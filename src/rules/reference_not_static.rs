//! An address the tools read without evaluating it that is not a static reference, or a list
//! of addresses that is not a static list: `depends_on = var.deps`, `depends_on =
//! [aws_instance.a[var.k]]`, `lifecycle { ignore_changes = concat(...) }`, `moved { from =
//! aws_instance.a[local.k] }`. The tools decode these with `hcl.ExprList` and
//! `hcl.AbsTraversalForExpr`/`hcl.RelTraversalForExpr`, which take only a list written out
//! (`[...]`) and traversals whose index keys are literals (hashicorp/terraform
//! `internal/configs/depends_on.go`, `resource.go`, `moved.go`, `removed.go`; opentofu/opentofu
//! the same files), as they read each file, override files included: "Invalid expression", at
//! the expression.
//!
//! Only native syntax (a JSON string's traversal text is `reference_string_invalid`'s), and
//! only expressions that are clearly not static: a list argument that is not a list written
//! out, and elements that are function calls, templates, operators, conditionals, `for`
//! expressions or traversals with a computed index or a splat. Quoted strings (which the tools
//! read as the legacy quoted form, with a warning), `null` and parentheses are left alone.
//! `moved` and `removed` are judged in primary files (an override file may not hold them).

use crate::diagnostic::Diagnostic;
use crate::knowledge::features::{self, Place};
use crate::source::{Span, Syntax};
use crate::syntax::{Block, Expr, ExprKind, TraversalStep};

use crate::lint::helpers::nested_labels_refused;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "reference_not_static",
    kind: LoadError,
    summary: "an address or list of addresses the tools read without evaluation that is not static",
    check: Check::View(RuleViews::Both, check),
};

/// The tools' summary.
const SUMMARY: &str = "Invalid expression";

/// HCL's detail for an expression that is no list written out (`hcl.ExprList`).
const NOT_A_LIST: &str = "A static list expression is required.";

/// Terraform's detail for an element that is no static traversal (`hcl.AbsTraversalForExpr`).
const NOT_A_REFERENCE: &str = "A single static variable reference is required: only attribute \
                               access and indexing with constant keys. No calculations, function \
                               calls, template expressions, etc are allowed here.";

/// The top-level block types whose `depends_on` the tools decode as a list of references.
const WITH_DEPENDS_ON: &[&str] = &[
    "resource",
    "data",
    "ephemeral",
    "action",
    "module",
    "output",
];

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let files = (ctx.primary.iter().map(|loaded| (loaded, false)))
        .chain(ctx.overrides.iter().map(|loaded| (loaded, true)))
        .filter(|(loaded, _)| loaded.extension.syntax() == Syntax::Native);
    for (loaded, is_override) in files {
        for block in &loaded.file.body.blocks {
            judge_block(ctx, block, is_override, out);
        }
    }
}

fn judge_block(ctx: &Context, block: &Block, is_override: bool, out: &mut Vec<Diagnostic>) {
    {
        let kind = block.kind.as_str();
        if WITH_DEPENDS_ON.contains(&kind) {
            judge_list(ctx, block, "depends_on", out);
        }
        if kind == "resource" {
            let lifecycles = (block.body.blocks_of("lifecycle"))
                .filter(|lifecycle| !nested_labels_refused(kind, lifecycle));
            for lifecycle in lifecycles {
                judge_list(ctx, lifecycle, "ignore_changes", out);
            }
        }
        let addresses: &[&str] = match kind {
            "moved" if !is_override => &["from", "to"],
            "removed" if !is_override && every_target_has(ctx, "removed") => &["from"],
            _ => &[],
        };
        for name in addresses {
            if let Some(attr) = block.body.attribute(name)
                && !is_static_reference(&attr.expr)
            {
                out.push(not_static(ctx, attr.expr.span, NOT_A_REFERENCE));
            }
        }
    }
}

/// Whether every targeted release has the top-level block type `kind` (a release without it
/// refuses the block as such, which `unsupported_construct` reports).
fn every_target_has(ctx: &Context, kind: &str) -> bool {
    let place = Place::TopLevel;
    features::acceptance(ctx.view, place, kind).is_some_and(|acceptance| {
        (ctx.targets)
            .refusing_described(acceptance, place, kind)
            .is_empty()
    })
}

/// Judges `name`, a list of references in `block`: the list, else each element.
fn judge_list(ctx: &Context, block: &Block, name: &str, out: &mut Vec<Diagnostic>) {
    let Some(attr) = block.body.attribute(name) else {
        return;
    };
    match &attr.expr.kind {
        ExprKind::Tuple(items) => {
            for item in items.iter().filter(|item| !is_static_reference(item)) {
                out.push(not_static(ctx, item.span, NOT_A_REFERENCE));
            }
        }
        // `ignore_changes = all`.
        ExprKind::Variable(keyword) if keyword == "all" && name == "ignore_changes" => {}
        // Left alone: a quoted string (the legacy form), `null`, parentheses.
        ExprKind::String(_) | ExprKind::Null | ExprKind::Parenthesis(_) => {}
        _ => out.push(not_static(ctx, attr.expr.span, NOT_A_LIST)),
    }
}

/// Whether the tools can read `expr` as a reference without evaluating it, or it is a form
/// this rule leaves alone.
fn is_static_reference(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Traversal { root, steps } => {
            is_static_reference(root)
                && steps.iter().all(|step| match step {
                    TraversalStep::Attr(_) => true,
                    TraversalStep::Index(key) => {
                        matches!(key.kind, ExprKind::Number(_) | ExprKind::String(_))
                    }
                    TraversalStep::Splat => false,
                })
        }
        _ => !is_computed(expr),
    }
}

/// Whether `expr` is a computation: a call, a template, an operator, a conditional or a `for`.
fn is_computed(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::FunctionCall { .. } | ExprKind::Template | ExprKind::Other => true,
        ExprKind::Traversal { .. } => !is_static_reference(expr),
        _ => false,
    }
}

/// `Invalid expression`
fn not_static(ctx: &Context, span: Span, detail: &'static str) -> Diagnostic {
    ctx.finding(&RULE, SUMMARY)
        .at(ctx.files, span, "the tools read this without evaluating it")
        .with_note(detail)
        .with_help(
            "write the addresses out, with literal index keys: these settings are read before \
             any value is known",
        )
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "resource \"terraform_data\" \"b\" {}\nresource \"terraform_data\" \"a\" {\n  \
             depends_on = [terraform_data.b, terraform_data.b[\"k\"], terraform_data.b[0]]\n  \
             lifecycle {\n    ignore_changes = all\n  }\n}\nmoved {\n  from = \
             terraform_data.x[\"a\"]\n  to   = terraform_data.b\n}\n",
        )],
        &[(
            "main.tf",
            "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    ignore_changes = \
             [input, triggers_replace[\"a\"]]\n  }\n}\n",
        )],
        // A labelled lifecycle is skipped by the tools (`block_labels_invalid`).
        &[(
            "main.tf",
            "resource \"terraform_data\" \"a\" {\n  lifecycle \"x\" {\n    ignore_changes = \
             concat([])\n  }\n}\n",
        )],
        // JSON strings are `reference_string_invalid`'s.
        &[(
            "main.tf.json",
            r#"{"moved": [{"from": "terraform_data.x[var.k]", "to": "terraform_data.b"}]}"#,
        )],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf",
                "variable \"k\" {}\nresource \"terraform_data\" \"a\" {\n  depends_on = \
                 var.k\n}\nresource \"terraform_data\" \"c\" {\n  depends_on = \
                 [terraform_data.a[var.k], terraform_data.a[*]]\n}\n",
            )],
            3,
        ),
        (
            &[(
                "main.tf",
                "moved {\n  from = terraform_data.x[\"a${1}\"]\n  to   = \
                 terraform_data.y[length(\"x\")]\n}\nremoved {\n  from = \
                 terraform_data.z[local.k]\n  lifecycle {\n    destroy = false\n  }\n}\n",
            )],
            3,
        ),
        // Override files are decoded as they are read, before anything is merged.
        (
            &[
                (
                    "main.tf",
                    "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    ignore_changes = \
                     [input]\n  }\n}\n",
                ),
                (
                    "override.tf",
                    "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    ignore_changes = \
                     concat([input])\n  }\n}\n",
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
