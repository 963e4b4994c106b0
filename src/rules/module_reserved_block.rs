//! Blocks a module call may not contain: `locals` and `provider` (both tools), `lifecycle` in
//! Terraform, and anything but `enabled` in OpenTofu's `lifecycle`.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;

use crate::lint::helpers::module_calls;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_reserved_block",
    severity: Error,
    default: On,
    summary: "a reserved block inside a module call",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for block in module_calls(ctx) {
        // In JSON, a module call's `locals`/`provider` object is read as an argument.
        for attr in block
            .body
            .attributes
            .iter()
            .filter(|a| a.name == "locals" || a.name == "provider")
        {
            if attr.expr.json_string.is_none()
                && matches!(attr.expr.kind, crate::syntax::ExprKind::Object(_))
            {
                out.push(
                    ctx.finding(&RULE, "Reserved block type name in module block")
                        .at(ctx.files, attr.name_span, "not allowed here")
                        .with_label(ctx.files, block.header_span, "in this module call")
                        .with_note(format!("`{}` is reserved inside module calls: the called module's own `{}` blocks are where these go.", attr.name, attr.name))
                        .with_help("remove it from the module call"),
                );
            }
        }
        for nested in &block.body.blocks {
            let (summary, note) = match (nested.kind.as_str(), ctx.view) {
                ("locals" | "provider", _) => (
                    "Reserved block type name in module block".to_string(),
                    format!("`{}` is reserved inside module calls: the called module's own `{}` blocks are where these go.", nested.kind, nested.kind),
                ),
                ("lifecycle", View::Terraform) => (
                    "Reserved block type name in module block".to_string(),
                    "Terraform reserves `lifecycle` in module calls for a future version; OpenTofu 1.11 and later accept one holding only `enabled`.".to_string(),
                ),
                ("lifecycle", View::OpenTofu) => {
                    let extra: Vec<&str> = nested
                        .body
                        .attributes
                        .iter()
                        .map(|a| a.name.as_str())
                        .chain(nested.body.blocks.iter().map(|b| b.kind.as_str()))
                        .filter(|n| *n != "enabled")
                        .collect();
                    if extra.is_empty() {
                        continue;
                    }
                    (
                        "Unsupported argument in module lifecycle".to_string(),
                        format!("OpenTofu accepts only `enabled` in a module call's `lifecycle` block, not `{}`.", extra.join("`, `")),
                    )
                }
                _ => continue,
            };
            out.push(
                ctx.finding(&RULE, summary)
                    .at(ctx.files, nested.header_span, "not allowed here")
                    .with_label(ctx.files, block.header_span, "in this module call")
                    .with_note(note)
                    .with_help("remove the block from the module call"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{check_table, findings};

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[&[("main.tf", "module \"a\" {\n  source = \"./a\"\n}\n")]],
            &[
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
                        "module \"a\" {\n  source = \"./a\"\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n",
                    )],
                    1,
                ),
            ],
        );
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
