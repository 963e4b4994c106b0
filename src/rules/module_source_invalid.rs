//! A module source that is neither a local path, a registry address, nor a known remote form.

use crate::diagnostic::Diagnostic;
use crate::module_source::{SourceKind, classify};

use super::{Check, Context, Rule, RuleViews, literal_source, module_calls, rule_meta};

pub const RULE: Rule = Rule {
    meta: rule_meta!(
        "module_source_invalid",
        Error,
        true,
        "a module source that is no kind of source address"
    ),
    views: RuleViews::Both,
    options: &[],
    check: Check::View(check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for block in module_calls(ctx) {
        let Some((attr, source)) = literal_source(block) else {
            continue;
        };
        if source.contains("${") || classify(source) != SourceKind::Invalid {
            continue;
        }
        let help = if !source.is_empty() && ctx.dir.join(source).is_dir() {
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
    use crate::rules::testing::check_table;

    #[test]
    fn table() {
        check_table(
            "module_source_invalid",
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
