//! A resource's `lifecycle { replace_triggered_by }` that is not a list written out, or whose
//! element does not name exactly one resource with nothing but `count.index` and `each.key`
//! besides: `replace_triggered_by = [var.version]`, `[local.x]`, `[each.value]`. The tools
//! decode the list as they read each resource block, override files included, and take only
//! references to resources and data sources, `count.index` and `each.key` in each element
//! (hashicorp/terraform and opentofu/opentofu `internal/configs/resource.go`,
//! `decodeReplaceTriggeredBy`): "Invalid reference in replace_triggered_by expression" (and
//! the `each`/`count` variants) per reference, then "Invalid replace_triggered_by expression"
//! when the element names no resource or more than one, all at the element.
//!
//! Terraform from 1.9 (judged on 1.9.8; 1.6.6 reports every element) stops at the first
//! element it refuses, since its loop skips the later elements once it has an error; OpenTofu,
//! forked from 1.6, reports every element. Only native syntax (a JSON element's string is
//! parsed as an expression, `reference_string_invalid`'s), and only elements without `for`
//! expressions, conditionals or operators, whose references this static reading cannot scope;
//! an element with a reference the tools cannot parse as an address (`var` alone, an
//! `ephemeral` resource) is left alone.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::releases::Release;
use crate::lint::helpers::declared::RESERVED_ROOTS;
use crate::lint::helpers::nested_labels_refused;
use crate::source::{Span, Syntax};
use crate::syntax::{Expr, ExprKind, Reference};

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "replace_triggered_by_invalid",
    kind: LoadError,
    summary: "a replace_triggered_by element that does not name exactly one resource",
    check: Check::View(RuleViews::Both, check),
};

/// The first Terraform release judged to stop at the first element it refuses.
const TERRAFORM_STOPS_AT_FIRST: Release = Release::new(1, 9);

/// What the tools say of one place.
struct Problem {
    summary: &'static str,
    detail: &'static str,
}

const NOT_A_LIST: Problem = Problem {
    summary: "Invalid expression",
    detail: "A static list expression is required.",
};
const INVALID_REFERENCE: Problem = Problem {
    summary: "Invalid reference in replace_triggered_by expression",
    detail: "Only resources, count.index, and each.key may be used in replace_triggered_by.",
};
const INVALID_EACH: Problem = Problem {
    summary: "Invalid each reference in replace_triggered_by expression",
    detail: "Only each.key may be used in replace_triggered_by.",
};
const INVALID_COUNT: Problem = Problem {
    summary: "Invalid count reference in replace_triggered_by expression",
    detail: "Only count.index may be used in replace_triggered_by.",
};
const NO_RESOURCE: Problem = Problem {
    summary: "Invalid replace_triggered_by expression",
    detail: "Missing resource reference in replace_triggered_by expression.",
};
const SEVERAL_RESOURCES: Problem = Problem {
    summary: "Invalid replace_triggered_by expression",
    detail: "Multiple resource references in replace_triggered_by expression.",
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    // Whether every targeted release goes on past an element it refuses.
    let reports_every_element = ctx.view == View::OpenTofu
        || (ctx.targets.releases.iter()).all(|&r| r < TERRAFORM_STOPS_AT_FIRST);
    let native = ctx.primary.iter().chain(ctx.overrides.iter());
    let native = native.filter(|loaded| loaded.extension.syntax() == Syntax::Native);
    let resources = native.flat_map(|loaded| loaded.file.body.blocks_of("resource"));
    for resource in resources {
        let lifecycles = (resource.body.blocks_of("lifecycle"))
            .filter(|lifecycle| !nested_labels_refused("resource", lifecycle));
        for lifecycle in lifecycles {
            let Some(attr) = lifecycle.body.attribute("replace_triggered_by") else {
                continue;
            };
            let items = match &attr.expr.kind {
                ExprKind::Tuple(items) => items,
                // Left alone: a quoted string, `null`, parentheses.
                ExprKind::String(_) | ExprKind::Null | ExprKind::Parenthesis(_) => continue,
                _ => {
                    out.push(invalid(ctx, attr.expr.span, &NOT_A_LIST));
                    continue;
                }
            };
            for item in items {
                let problems = judge(item);
                for problem in &problems {
                    out.push(invalid(ctx, item.span, problem));
                }
                if !problems.is_empty() && !reports_every_element {
                    break;
                }
            }
        }
    }
}

/// What the tools refuse in one element, in their order.
fn judge(item: &Expr) -> Vec<&'static Problem> {
    if item.json_string.is_some() || holds_computation(item) {
        return Vec::new();
    }
    let mut references: Vec<&Reference> = Vec::new();
    item.for_each_reference(&mut |reference| references.push(reference));
    let mut problems = Vec::new();
    let mut resources = 0;
    for reference in references {
        match reference.root.as_str() {
            "count" if reference.attr(0) == Some("index") => {}
            "count" if reference.attr(0).is_some() => problems.push(&INVALID_COUNT),
            "each" if reference.attr(0) == Some("key") => {}
            "each" if reference.attr(0).is_some() => problems.push(&INVALID_EACH),
            "data" if reference.attr(0).is_some() && reference.attr(1).is_some() => resources += 1,
            "var" | "local" | "module" | "path" | "terraform" if reference.attr(0).is_some() => {
                problems.push(&INVALID_REFERENCE)
            }
            "self" => problems.push(&INVALID_REFERENCE),
            root if !RESERVED_ROOTS.contains(&root) && reference.attr(0).is_some() => {
                resources += 1
            }
            // A reference `addrs.ParseRef` refuses, or one this reading does not judge: the
            // tools say something else of the element.
            _ => return Vec::new(),
        }
    }
    match resources {
        0 => problems.push(&NO_RESOURCE),
        1 => {}
        _ => problems.push(&SEVERAL_RESOURCES),
    }
    problems
}

/// Whether `expr` holds a `for` expression, conditional or operator, kept as text.
fn holds_computation(expr: &Expr) -> bool {
    let mut found = matches!(expr.kind, ExprKind::Other | ExprKind::Template);
    expr.for_each_child(|child| found |= holds_computation(child));
    found
}

/// The tools' summary, one of [`Problem`]'s.
fn invalid(ctx: &Context, span: Span, problem: &Problem) -> Diagnostic {
    ctx.finding(&RULE, problem.summary)
        .at(
            ctx.files,
            span,
            "read when the module loads, before any value is known",
        )
        .with_note(problem.detail)
        .with_help(
            "name one resource (`aws_instance.a`, `aws_instance.a[count.index]`); to replace on \
             a change of another value, pass it through a `terraform_data` resource's `input` \
             and name that resource",
        )
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "resource \"terraform_data\" \"b\" {\n  count = 2\n}\nresource \"terraform_data\" \
             \"a\" {\n  count = 2\n  lifecycle {\n    replace_triggered_by = \
             [terraform_data.b[count.index], terraform_data.b[0].output, terraform_data.b]\n  \
             }\n}\n",
        )],
        // A labelled lifecycle is skipped by the tools (`block_labels_invalid`).
        &[(
            "main.tf",
            "variable \"v\" {}\nresource \"terraform_data\" \"a\" {\n  lifecycle \"x\" {\n    \
             replace_triggered_by = [var.v]\n  }\n}\n",
        )],
        // Not judged: a `for` expression, whose iterator this reading cannot scope.
        &[(
            "main.tf",
            "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    replace_triggered_by = \
             [[for x in terraform_data.b : x.id]]\n  }\n}\n",
        )],
    ];

    const FAIL: &[(Files, usize)] = &[
        // Two findings for one element, as the tools print two errors.
        (
            &[(
                "main.tf",
                "variable \"v\" {}\nresource \"terraform_data\" \"a\" {\n  lifecycle {\n    \
                 replace_triggered_by = [var.v]\n  }\n}\n",
            )],
            2,
        ),
        (
            &[(
                "main.tf",
                "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    replace_triggered_by = \
                 terraform_data.b\n  }\n}\n",
            )],
            1,
        ),
        // Terraform 1.15 stops at the first element it refuses (one finding); OpenTofu goes
        // on (1 + 2 + 2).
        (
            &[(
                "main.tf",
                "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    replace_triggered_by = \
                 [count.index, each.value, local.x]\n  }\n}\n",
            )],
            5,
        ),
        (
            &[(
                "main.tf",
                "resource \"terraform_data\" \"b\" {}\nresource \"terraform_data\" \"a\" {\n  \
                 lifecycle {\n    replace_triggered_by = [terraform_data.b.id, \
                 terraform_data.b[terraform_data.b.input]]\n  }\n}\n",
            )],
            1,
        ),
        (
            &[
                (
                    "main.tf",
                    "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    \
                     replace_triggered_by = []\n  }\n}\n",
                ),
                (
                    "override.tf",
                    "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    \
                     replace_triggered_by = [path.module]\n  }\n}\n",
                ),
            ],
            2,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
