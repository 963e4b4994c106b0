//! A Terragrunt `import` block with both `merge = true` and `deep_merge = true`: two merge
//! strategies for one import.

use crate::diagnostic::Diagnostic;
use crate::syntax::ExprKind;

use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_merge_conflict",
    severity: Error,
    default: On,
    summary: "a Terragrunt import with both merge = true and deep_merge = true",
    check: Check::Terragrunt(check),
};

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    for (_, file) in ctx.tree.live_files() {
        for import in file.body.blocks_of("import") {
            let on = |name: &str| {
                import
                    .body
                    .attribute(name)
                    .filter(|a| a.expr.kind == ExprKind::Bool(true))
            };
            let (Some(merge), Some(deep)) = (on("merge"), on("deep_merge")) else {
                continue;
            };
            let name = import.label(0).unwrap_or_default();
            out.push(
                ctx.finding(
                    &RULE,
                    format!("import \"{name}\" sets both `merge` and `deep_merge`"),
                )
                .at(ctx.files(), deep.span(), "deep merge")
                .with_label(ctx.files(), merge.span(), "and shallow merge")
                .with_label(ctx.files(), import.header_span, "of this import")
                .with_note("`merge = true` copies the imported configuration's top-level blocks and attributes over this file's; `deep_merge = true` merges them recursively. An import has one merge strategy: Terragrunt rejects both at once.")
                .with_help("keep `deep_merge = true` to merge nested maps and blocks, or `merge = true` to replace them"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::check_table;

    fn unit(body: &str) -> String {
        format!("import \"root\" {{\n  config_path = \"../root.hcl\"\n{body}}}\n")
    }

    #[test]
    fn table() {
        let merge = unit("  merge = true\n");
        let deep = unit("  deep_merge = true\n");
        let one_off = unit("  merge      = true\n  deep_merge = false\n");
        let both = unit("  merge      = true\n  deep_merge = true\n");
        check_table(
            &super::RULE,
            &[
                &[("root.hcl", ""), ("a/terragrunt.hcl", &merge)],
                &[("root.hcl", ""), ("a/terragrunt.hcl", &deep)],
                &[("root.hcl", ""), ("a/terragrunt.hcl", &one_off)],
            ],
            &[(&[("root.hcl", ""), ("a/terragrunt.hcl", &both)], 1)],
        );
    }
}
