//! A module source that is neither a local path, a registry address, nor a known remote form.

use crate::diagnostic::Diagnostic;
use crate::knowledge::module_source::{SourceKind, classify};

use crate::lint::helpers::{literal_source, module_calls};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_source_invalid",
    severity: Error,
    default: On,
    summary: "a module source that is no kind of source address",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for block in module_calls(ctx) {
        let Some((attr, source)) = literal_source(block) else {
            continue;
        };
        if source.contains("${") || classify(source) != SourceKind::Invalid {
            continue;
        }
        let help = if !source.is_empty() && ctx.neighbours.module(&ctx.dir.join(source)).exists {
            format!("a local directory needs a leading `./`: `source = \"./{source}\"`")
        } else {
            "use `./path` for a local directory, `namespace/name/system` for a registry module, or a `git::`/`https://` address".to_string()
        };
        out.push(
            ctx.finding(&RULE, "Invalid module source address")
                .at(ctx.files, attr.expr.span, "not a local path, registry address or remote address")
                .with_note("A local module path must start with `./` or `../`; anything else is read as a registry address (`[host/]namespace/name/system`) or a remote address, and this is neither.")
                .with_help(help),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::check_table;

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[
                &[(
                    "main.tf",
                    "module \"a\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\n",
                )],
                &[(
                    "main.tf",
                    "module \"a\" {\n  source = \"git::https://example.com/vpc.git?ref=v1\"\n}\n",
                )],
            ],
            &[
                (
                    &[("main.tf", "module \"a\" {\n  source = \"stage\"\n}\n")],
                    1,
                ),
                (
                    &[(
                        "main.tf.json",
                        r#"{"module": {"a": {"source": "modules/vpc"}}}"#,
                    )],
                    1,
                ),
            ],
        );
    }
}
