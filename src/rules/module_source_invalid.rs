//! A module source that is neither a local path, a registry address, nor a known remote form:
//! a local path without its leading `./` is the usual cause, and `init` fails on it.

use crate::diagnostic::Diagnostic;
use crate::knowledge::module_source::{SourceKind, classify};
use crate::syntax::Attribute;

use crate::lint::helpers::{literal_source, module_calls};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_source_invalid",
    severity: Error,
    default: On,
    summary: "a module source that is no kind of source address",
    check: Check::View(RuleViews::Both, check),
};

const NOTE: &str = "A local module path must start with `./` or `../`; anything else is read as \
                    a registry address (`[host/]namespace/name/system`) or a remote address, and \
                    this is neither.";

const HELP: &str = "use `./path` for a local directory, `namespace/name/system` for a registry \
                    module, or a `git::`/`https://` address";

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
            HELP.to_string()
        };
        out.push(invalid_source(ctx, attr, help));
    }
}

/// `Invalid module source address`
fn invalid_source(ctx: &Context, source: &Attribute, help: String) -> Diagnostic {
    let label = "not a local path, registry address or remote address";
    ctx.finding(&RULE, "Invalid module source address")
        .at(ctx.files, source.expr.span, label)
        .with_note(NOTE)
        .with_help(help)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "module \"a\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\n",
        )],
        &[(
            "main.tf",
            "module \"a\" {\n  source = \"git::https://example.com/vpc.git?ref=v1\"\n}\n",
        )],
    ];
    const FAIL: &[(Files, usize)] = &[
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
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
