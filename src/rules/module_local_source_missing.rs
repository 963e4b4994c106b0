//! A local module source that does not exist, or holds no configuration for this tool (OpenTofu
//! reads `.tofu` files, Terraform does not): `init` and every later command fail.

use crate::diagnostic::Diagnostic;
use crate::knowledge::module_source::{SourceKind, classify};
use crate::syntax::{Attribute, Block};

use crate::lint::helpers::{literal_source, module_calls};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_local_source_missing",
    severity: Warning,
    default: On,
    summary: "a local module source with no module in it",
    check: Check::View(RuleViews::Both, check),
};

const NOTE: &str = "A local source is a directory relative to this module; `init` and every \
                    later command fail when it is missing or empty for the tool in use (OpenTofu \
                    reads `.tofu` files, Terraform does not).";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for block in module_calls(ctx) {
        let Some((attr, source)) = literal_source(block) else {
            continue;
        };
        if classify(source) != SourceKind::Local {
            continue;
        }
        let path = ctx.dir.join(source.split("//").next().unwrap_or(source));
        let problem = if !ctx.neighbours.module(&path).exists {
            format!("`{source}` does not exist")
        } else if !ctx.neighbours.has_configuration(&path, ctx.view) {
            let tool = ctx.view.tool_name();
            format!("`{source}` holds no configuration files {tool} reads")
        } else {
            continue;
        };
        out.push(no_module_there(ctx, block, attr, &problem));
    }
}

/// `` module call `a`: `./nope` does not exist ``
fn no_module_there(ctx: &Context, block: &Block, source: &Attribute, problem: &str) -> Diagnostic {
    let message = format!("module call `{}`: {problem}", block.label(0).unwrap_or("?"));
    ctx.finding(&RULE, message)
        .at(ctx.files, source.expr.span, "no module here")
        .with_note(NOTE)
        .with_help("fix the path, or add the module's files")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[
        &[("main.tf", "module \"self\" {\n  source = \"./\"\n}\n")],
        &[(
            "main.tf",
            "module \"remote\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\n",
        )],
    ];
    const FAIL: &[(Files, usize)] = &[
        (
            &[("main.tf", "module \"a\" {\n  source = \"./nope\"\n}\n")],
            1,
        ),
        (
            &[(
                "main.tf.json",
                r#"{"module": {"a": {"source": "../does-not-exist-anywhere"}}}"#,
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
