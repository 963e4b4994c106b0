//! Blocks a module call may not contain: `locals` and `provider` (both tools), `lifecycle` in
//! Terraform, and anything but `enabled` in OpenTofu's `lifecycle`. The tools reserve these
//! names in module calls and refuse to load the module.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::syntax::{Attribute, Block, ExprKind};

use crate::lint::helpers::module_calls;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_reserved_block",
    severity: Error,
    default: On,
    summary: "a reserved block inside a module call",
    check: Check::View(RuleViews::Both, check),
};

const RESERVED: &str = "Reserved block type name in module block";

const TERRAFORM_LIFECYCLE_NOTE: &str = "Terraform reserves `lifecycle` in module calls for a \
                                        future version; OpenTofu 1.11 and later accept one \
                                        holding only `enabled`.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for call in module_calls(ctx) {
        // In JSON, a module call's `locals`/`provider` object is read as an argument.
        for attr in call
            .body
            .attributes
            .iter()
            .filter(|a| a.name == "locals" || a.name == "provider")
        {
            if attr.expr.json_string().is_none() && matches!(attr.expr.kind, ExprKind::Object(_)) {
                out.push(reserved_argument(ctx, call, attr));
            }
        }
        for nested in &call.body.blocks {
            match (nested.kind.as_str(), ctx.view) {
                ("locals" | "provider", _) => {
                    let note = reserved_note(&nested.kind);
                    out.push(reserved_block(ctx, call, nested, RESERVED, note));
                }
                ("lifecycle", View::Terraform) => {
                    let note = TERRAFORM_LIFECYCLE_NOTE.to_string();
                    out.push(reserved_block(ctx, call, nested, RESERVED, note));
                }
                ("lifecycle", View::OpenTofu) => {
                    let extra: Vec<&str> = nested
                        .body
                        .attributes
                        .iter()
                        .map(|a| a.name.as_str())
                        .chain(nested.body.blocks.iter().map(|b| b.kind.as_str()))
                        .filter(|n| *n != "enabled")
                        .collect();
                    if !extra.is_empty() {
                        out.push(lifecycle_argument(ctx, call, nested, &extra));
                    }
                }
                _ => {}
            }
        }
    }
}

/// Why `locals` and `provider` are reserved in module calls.
fn reserved_note(name: &str) -> String {
    format!(
        "`{name}` is reserved inside module calls: the called module's own `{name}` blocks are \
         where these go."
    )
}

/// `Reserved block type name in module block`, on a JSON `locals`/`provider` object.
fn reserved_argument(ctx: &Context, call: &Block, attr: &Attribute) -> Diagnostic {
    ctx.finding(&RULE, RESERVED)
        .at(ctx.files, attr.name_span, "not allowed here")
        .with_label(ctx.files, call.header_span, "in this module call")
        .with_note(reserved_note(&attr.name))
        .with_help("remove it from the module call")
}

/// `Unsupported argument in module lifecycle`, on OpenTofu's `lifecycle` holding more than
/// `enabled`.
fn lifecycle_argument(ctx: &Context, call: &Block, nested: &Block, extra: &[&str]) -> Diagnostic {
    let note = format!(
        "OpenTofu accepts only `enabled` in a module call's `lifecycle` block, not `{}`.",
        extra.join("`, `")
    );
    let summary = "Unsupported argument in module lifecycle";
    reserved_block(ctx, call, nested, summary, note)
}

/// A block that may not stand in a module call.
fn reserved_block(
    ctx: &Context,
    call: &Block,
    nested: &Block,
    summary: &'static str,
    note: String,
) -> Diagnostic {
    ctx.finding(&RULE, summary)
        .at(ctx.files, nested.header_span, "not allowed here")
        .with_label(ctx.files, call.header_span, "in this module call")
        .with_note(note)
        .with_help("remove the block from the module call")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[&[("main.tf", "module \"a\" {\n  source = \"./a\"\n}\n")]];
    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf",
                "module \"a\" {\n  source = \"./a\"\n  locals {\n    x = 1\n  }\n}\n",
            )],
            1,
        ),
        (
            &[(
                "main.tf.json",
                r#"{"module": {"a": {"source": "./a", "lifecycle": {"enabled": false}}}}"#,
            )],
            1,
        ),
        (
            &[(
                "main.tofu",
                "module \"a\" {\n  source = \"./a\"\n  lifecycle {\n    prevent_destroy = true\n  \
                 }\n}\n",
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn json_locals_in_a_module_call() {
        let found = findings(
            &super::RULE,
            &[(
                "main.tf.json",
                r#"{"module": {"a": {"source": "./a", "locals": {"x": 1}}}}"#,
            )],
        );
        assert_eq!(found.len(), 1, "{found:#?}");
    }

    #[test]
    fn lifecycle_enabled_is_fine_for_opentofu_only() {
        let found = findings(
            &super::RULE,
            &[(
                "main.tf",
                "module \"a\" {\n  source = \"./a\"\n  lifecycle {\n    enabled = false\n  }\n}\n",
            )],
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].views, crate::diagnostic::Views::TERRAFORM);
    }
}
