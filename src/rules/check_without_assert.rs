//! A `check` block with no valid `assert` block: the tools keep only the asserts that decode
//! without an error (both `condition` and `error_message` set, nothing else, and a condition
//! that refers to something) and refuse a check left with none (`Zero assert blocks`, on the
//! block's header; hashicorp/terraform `internal/configs/checks.go`, `decodeCheckBlock`, and
//! opentofu/opentofu the same file). In override files a check is `override_not_allowed`'s.

use crate::diagnostic::Diagnostic;
use crate::syntax::{Block, Expr};

use crate::lint::helpers::primary_blocks_of;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "check_without_assert",
    kind: LoadError,
    summary: "a check block without a valid assert block",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (_, check) in primary_blocks_of(ctx, &["check"]) {
        let asserts: Vec<&Block> = check.body.blocks_of("assert").collect();
        if !asserts.iter().any(|a| decodes(a)) {
            out.push(zero_asserts(ctx, check, asserts.len()));
        }
    }
}

/// Whether the tools keep this assert: its body has exactly the two arguments it may have
/// (`checkRuleBlockSchema`), and the condition refers to something.
fn decodes(assert: &Block) -> bool {
    let body = &assert.body;
    let known =
        (body.attributes.iter()).all(|a| matches!(a.name.as_str(), "condition" | "error_message"));
    let has_error_message = body.attribute("error_message").is_some();
    let condition_refers = (body.attribute("condition")).is_some_and(|c| has_reference(&c.expr));
    known && body.blocks.is_empty() && has_error_message && condition_refers
}

fn has_reference(expr: &Expr) -> bool {
    let mut found = false;
    expr.for_each_reference(&mut |_| found = true);
    found
}

/// `Zero assert blocks`, on the check's header.
fn zero_asserts(ctx: &Context, check: &Block, written: usize) -> Diagnostic {
    let label = match written {
        0 => "no `assert` block".to_string(),
        1 => "its only `assert` block is refused".to_string(),
        n => format!("all {n} of its `assert` blocks are refused"),
    };
    ctx.finding(&RULE, "Zero assert blocks")
        .at(ctx.files, check.def_range(ctx.files), label)
        .with_note("Check blocks must have at least one assert block.")
        .with_help("add an `assert` block with a `condition` that tests the configuration and an `error_message`")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[
        // One good assert is enough.
        &[(
            "main.tf",
            "variable \"v\" {}\ncheck \"c\" {\n  assert {\n    condition     = var.v == \"\"\n    \
             error_message = \"x\"\n  }\n  assert {\n    condition     = true\n    \
             error_message = \"x\"\n  }\n}\n",
        )],
    ];

    // Terraform 1.6.6 to 1.15.5 say `Zero assert blocks` for each of these.
    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf",
                "check \"d\" {\n  data \"terraform_remote_state\" \"x\" {\n    backend = \"local\"\n  \
                 }\n}\n",
            )],
            1,
        ),
        // Missing error_message: the assert is refused, and with it the check.
        (
            &[(
                "main.tf",
                "variable \"v\" {}\ncheck \"c\" {\n  assert {\n    condition = var.v == \"\"\n  \
                 }\n}\n",
            )],
            1,
        ),
        // JSON: a condition that is no valid template refers to nothing.
        (
            &[(
                "main.tf.json",
                r#"{"check": {"c": {"assert": {"condition": "${", "error_message": "x"}}}}"#,
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
