//! A check rule's `condition` that refers to nothing: the tools refuse a `precondition`,
//! `postcondition`, check `assert` or variable `validation` whose condition has no reference
//! (`Invalid precondition expression` and the like: its result would be a constant), and a
//! variable `validation` whose condition does not refer to the variable (`Invalid variable
//! validation condition`), as they decode each block of a primary file (hashicorp/terraform
//! `internal/configs/checks.go`, `decodeCheckRuleBlock`; `named_values.go`,
//! `checkVariableValidationBlock`; opentofu/opentofu the same files). The references are HCL's
//! `Variables()`, which finds none in a JSON string that is no valid template (`"${"`), so such
//! a condition is refused here rather than as a template error. In override files these blocks
//! are `override_not_allowed`'s.

use crate::diagnostic::Diagnostic;
use crate::syntax::{Attribute, Block, Expr};

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "condition_without_reference",
    kind: LoadError,
    summary: "a precondition, postcondition, assert or validation condition that refers to nothing",
    check: Check::View(RuleViews::Both, check),
};

/// The check rules a top-level block kind holds, as paths of nested block kinds.
const CHECK_RULES: &[(&str, &[&[&str]])] = &[
    ("resource", LIFECYCLE_RULES),
    ("data", LIFECYCLE_RULES),
    ("ephemeral", LIFECYCLE_RULES),
    ("output", &[&["precondition"]]),
    ("check", &[&["assert"]]),
    ("variable", &[&["validation"]]),
];

const LIFECYCLE_RULES: &[&[&str]] = &[
    &["lifecycle", "precondition"],
    &["lifecycle", "postcondition"],
];

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for file in ctx.primary {
        for block in &file.file.body.blocks {
            let Some((_, paths)) = CHECK_RULES.iter().find(|(kind, _)| *kind == block.kind) else {
                continue;
            };
            for path in *paths {
                for rule in nested(block, path) {
                    let Some(condition) = rule.body.attribute("condition") else {
                        continue;
                    };
                    judge(ctx, block, rule, condition, out);
                }
            }
        }
    }
}

fn judge(
    ctx: &Context,
    holder: &Block,
    rule: &Block,
    condition: &Attribute,
    out: &mut Vec<Diagnostic>,
) {
    if !has_reference(&condition.expr) {
        out.push(refers_to_nothing(ctx, rule, condition));
    }
    if rule.kind == "validation"
        && let Some(variable) = holder.label(0)
        && !refers_to_variable(&condition.expr, variable)
    {
        out.push(validation_without_variable(ctx, condition, variable));
    }
}

/// The blocks reached from `block` by the nested block kinds of `path`.
fn nested<'b>(block: &'b Block, path: &'b [&str]) -> Vec<&'b Block> {
    let Some((kind, rest)) = path.split_first() else {
        return vec![block];
    };
    (block.body.blocks_of(kind))
        .flat_map(|inner| nested(inner, rest))
        .collect()
}

fn has_reference(expr: &Expr) -> bool {
    let mut found = false;
    expr.for_each_reference(&mut |_| found = true);
    found
}

fn refers_to_variable(expr: &Expr, name: &str) -> bool {
    let mut found = false;
    expr.for_each_reference(&mut |r| found |= r.root == "var" && r.attr(0) == Some(name));
    found
}

/// `Invalid precondition expression` (`postcondition`, `assert`, `validation`), on the condition.
fn refers_to_nothing(ctx: &Context, rule: &Block, condition: &Attribute) -> Diagnostic {
    let invalid_template = match condition.expr.json_string() {
        Some(s) if s.contains("${") => {
            " A JSON string that is not a valid template refers to nothing: the tools look for \
             references before they evaluate it."
        }
        _ => "",
    };
    ctx.finding(&RULE, format!("Invalid {} expression", rule.kind))
        .at(ctx.files, condition.expr.span, "refers to nothing")
        .with_note(format!(
            "The condition expression must refer to at least one object from elsewhere in the \
             configuration, or else its result would not be checking anything.{invalid_template}"
        ))
        .with_help(
            "test a value of the configuration: a variable, a resource's attribute, `self`...",
        )
}

/// `Invalid variable validation condition`, on the condition.
fn validation_without_variable(ctx: &Context, condition: &Attribute, variable: &str) -> Diagnostic {
    ctx.finding(&RULE, "Invalid variable validation condition")
        .at(
            ctx.files,
            condition.expr.span,
            format!("does not refer to `var.{variable}`"),
        )
        .with_note(format!(
            "The condition for variable \"{variable}\" must refer to var.{variable} in order to \
             test incoming values."
        ))
        .with_help(format!("test `var.{variable}` in the condition"))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "variable \"v\" {\n  validation {\n    condition     = var.v != \"\"\n    \
             error_message = \"x\"\n  }\n}\nresource \"terraform_data\" \"a\" {\n  lifecycle {\n    \
             postcondition {\n      condition     = self.id != \"\"\n      error_message = \"x\"\n    \
             }\n  }\n}\n",
        )],
        &[(
            "main.tf.json",
            r#"{"variable": {"v": {}}, "check": {"c": {"assert": {"condition": "${var.v == \"\"}", "error_message": "x"}}}}"#,
        )],
    ];

    // Terraform 1.6.6 to 1.15.5 say so (1.6.6 from its loader, 1.14.9 and 1.15.5 from validate).
    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf",
                "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    precondition {\n      \
                 condition     = true\n      error_message = \"x\"\n    }\n    postcondition {\n      \
                 condition     = [for x in [1] : x > 0][0]\n      error_message = \"x\"\n    }\n  \
                 }\n}\noutput \"o\" {\n  value = 1\n  precondition {\n    condition     = 1 == 1\n    \
                 error_message = \"x\"\n  }\n}\n",
            )],
            3,
        ),
        // An invalid template in JSON has no references: `Invalid assert expression`, not
        // `Missing expression`.
        (
            &[(
                "main.tf.json",
                r#"{"check": {"c": {"assert": {"condition": "${", "error_message": "x"}}}}"#,
            )],
            1,
        ),
        // A validation with no reference: both errors, on the condition.
        (
            &[(
                "main.tf.json",
                r#"{"variable": {"v": {"validation": {"condition": "${", "error_message": "x"}}}}"#,
            )],
            2,
        ),
        (
            &[(
                "main.tf",
                "variable \"v\" {}\nvariable \"w\" {\n  validation {\n    condition     = var.v \
                 == \"\"\n    error_message = \"x\"\n  }\n}\n",
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn summaries_name_the_block() {
        let found = findings(&super::RULE, FAIL[0].0);
        let summaries: Vec<&str> = found.iter().map(|f| &*f.message).collect();
        assert_eq!(
            summaries,
            [
                "Invalid precondition expression",
                "Invalid postcondition expression",
                "Invalid precondition expression"
            ]
        );
    }
}
