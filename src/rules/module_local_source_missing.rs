//! A local module source that does not exist or holds no configuration for this tool.

use crate::diagnostic::Diagnostic;
use crate::load::{self, ConfigName};
use crate::module_source::{SourceKind, classify};

use super::{Check, Context, Rule, RuleViews, literal_source, module_calls, rule_meta};

pub const RULE: Rule = Rule {
    // A warning, not an error, by default: local module directories are often made by a build
    // step (symlinks, generated code, submodules not checked out), and the linted checkout may
    // not have them. Projects that commit their modules can set it to error.
    meta: rule_meta!(
        "module_local_source_missing",
        Warning,
        true,
        "a local module source with no module in it"
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
        if classify(source) != SourceKind::Local {
            continue;
        }
        let path = ctx.dir.join(source.split("//").next().unwrap_or(source));
        let problem = if !path.is_dir() {
            format!("`{source}` does not exist")
        } else if !has_configuration(&path, ctx.view) {
            format!(
                "`{source}` holds no configuration files {} reads",
                ctx.view.tool_name()
            )
        } else {
            continue;
        };
        out.push(
            ctx.finding(&RULE, format!("module call `{}`: {problem}", block.label(0).unwrap_or("?")))
                .at(ctx.files, attr.expr.span, "no module here")
                .with_note("A local source is a directory relative to this module; `init` and every later command fail when it is missing or empty for the tool in use (OpenTofu reads `.tofu` files, Terraform does not).")
                .with_help("fix the path, or add the module's files"),
        );
    }
}

fn has_configuration(dir: &std::path::Path, view: crate::load::View) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    let names: Vec<ConfigName> = entries
        .filter_map(Result::ok)
        .filter(|e| !e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().to_str().and_then(load::classify))
        .collect();
    load::view_files(&names, view).loaded().next().is_some()
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::check_table;

    #[test]
    fn table() {
        check_table(
            "module_local_source_missing",
            &[
                &[("main.tf", "module \"self\" {\n  source = \"./\"\n}\n")],
                &[(
                    "main.tf",
                    "module \"remote\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\n",
                )],
            ],
            &[
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
            ],
        );
    }
}
