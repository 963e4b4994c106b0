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
//! parsed as an expression, `reference_string_invalid`'s).
//!
//! An element is any expression: the tools count the references in it
//! (`langrefs.ReferencesInExpr`), operators, conditionals, templates, function calls and `for`
//! expressions included, the names a `for` binds aside, and each reference once per time it is
//! written (`a.id != null ? a : null` names two). So `[aws_instance.a.id == "x"]` is accepted,
//! `[var.v == 1]` is refused twice and `[true ? aws_instance.a : aws_instance.b]` once
//! (Terraform 1.6.6 and 1.15.5 alike). A list written as a `for` expression is not a list
//! written out (`Invalid expression`). A bare name (`[foo]`) is a reference the tools cannot
//! parse: `Invalid reference` at the element, and nothing else of it is judged. An element
//! with another reference the tools cannot parse (`var` alone, an `ephemeral` resource) is
//! left alone.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::releases::Release;
use crate::lint::helpers::declared::{RESERVED_ROOTS, is_bare_name};
use crate::lint::helpers::{nested_labels_refused, top_level_blocks_of};
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
const BARE_NAME: Problem = Problem {
    summary: "Invalid reference",
    detail: "A reference to a resource type must be followed by at least one attribute access, \
             specifying the resource name.",
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
    let resources = top_level_blocks_of(ctx, &["resource"]);
    let native = resources.filter(|(loaded, _)| loaded.extension.syntax() == Syntax::Native);
    for (_, resource) in native {
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
    if item.json_string().is_some() {
        return Vec::new();
    }
    let mut references: Vec<&Reference> = Vec::new();
    item.for_each_reference(&mut |reference| references.push(reference));
    // The tools parse every reference first and judge nothing else of an element that holds
    // one they cannot parse.
    let bare_names = references.iter().filter(|r| is_bare_name(r)).count();
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
            _ if is_bare_name(reference) => {}
            // A reference `addrs.ParseRef` refuses, or one this reading does not judge: the
            // tools say something else of the element.
            _ => return Vec::new(),
        }
    }
    if bare_names > 0 {
        return vec![&BARE_NAME; bare_names];
    }
    match resources {
        0 => problems.push(&NO_RESOURCE),
        1 => {}
        _ => problems.push(&SEVERAL_RESOURCES),
    }
    problems
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
        // Computed elements naming one resource: the names a `for` binds are not references.
        &[(
            "main.tf",
            "resource \"terraform_data\" \"b\" {}\nresource \"terraform_data\" \"a\" {\n  \
             lifecycle {\n    replace_triggered_by = [[for x in terraform_data.b : x.id], \
             terraform_data.b.id == \"x\", \"${terraform_data.b.id}\", \
             terraform_data.b[count.index + 1], { for k, v in terraform_data.b : k => v }, \
             length(terraform_data.b), [for x in [1] : terraform_data.b]]\n  }\n}\n",
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

    /// Computed elements, one per resource: exactly what Terraform 1.6.6's and 1.15.5's
    /// loaders report (line, column, summary), which OpenTofu shares.
    #[test]
    fn computed_elements_as_the_tools_judge_them() {
        let elements = [
            r#"terraform_data.b.id == "x""#,
            "terraform_data.b.id == terraform_data.c.id",
            "var.v == 1",
            "true ? terraform_data.b : terraform_data.c",
            r#""${terraform_data.b.id}""#,
            "terraform_data.b[count.index + 1]",
            "!var.v",
            "foo",
            "terraform_data.b.id + each.value",
            "{ for k, v in terraform_data.b : k => v }",
            "terraform_data.b.id != null ? terraform_data.b : null",
            r#""a-${var.v}""#,
            "local.l + 1",
            "[for x in [1] : x]",
        ];
        let mut text = String::from(
            "variable \"v\" {}\nlocals { l = 1 }\nresource \"terraform_data\" \"b\" {}\n",
        );
        for (i, element) in elements.iter().enumerate() {
            text.push_str(&format!(
                "resource \"terraform_data\" \"r{i}\" {{\n  lifecycle {{\n    \
                 replace_triggered_by = [{element}]\n  }}\n}}\n"
            ));
        }
        // A list written as a `for` expression is no list.
        text.push_str(
            "resource \"terraform_data\" \"f\" {\n  lifecycle {\n    \
             replace_triggered_by = [for x in terraform_data.b : x.id]\n  }\n}\n",
        );
        let mut found: Vec<(usize, usize, String)> =
            crate::lint::testing::findings(&super::RULE, &[("main.tf", text.as_str())])
                .into_iter()
                .map(|d| (d.start().0, d.start().1, d.message.into_owned()))
                .collect();
        found.sort();
        found.dedup();
        let line = |i: usize| 6 + 5 * i;
        let expected = [
            (line(1), 29, "Invalid replace_triggered_by expression"),
            (
                line(2),
                29,
                "Invalid reference in replace_triggered_by expression",
            ),
            (line(2), 29, "Invalid replace_triggered_by expression"),
            (line(3), 29, "Invalid replace_triggered_by expression"),
            (
                line(6),
                29,
                "Invalid reference in replace_triggered_by expression",
            ),
            (line(6), 29, "Invalid replace_triggered_by expression"),
            (line(7), 29, "Invalid reference"),
            (
                line(8),
                29,
                "Invalid each reference in replace_triggered_by expression",
            ),
            (line(10), 29, "Invalid replace_triggered_by expression"),
            (
                line(11),
                29,
                "Invalid reference in replace_triggered_by expression",
            ),
            (line(11), 29, "Invalid replace_triggered_by expression"),
            (
                line(12),
                29,
                "Invalid reference in replace_triggered_by expression",
            ),
            (line(12), 29, "Invalid replace_triggered_by expression"),
            (line(13), 29, "Invalid replace_triggered_by expression"),
            (line(14), 28, "Invalid expression"),
        ];
        let expected: Vec<(usize, usize, String)> = (expected.into_iter())
            .map(|(line, column, summary)| (line, column, summary.to_string()))
            .collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
