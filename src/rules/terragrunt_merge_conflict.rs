//! A Terragrunt `import` block with both `merge = true` and `deep_merge = true`: two merge
//! strategies for one import.

use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::ExprKind;

use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_merge_conflict",
    severity: Error,
    default: On,
    summary: "a Terragrunt import with both merge = true and deep_merge = true",
    check: Check::Terragrunt(check),
};

const NOTE: &str = "`merge = true` copies the imported configuration's top-level blocks and \
    attributes over this file's; `deep_merge = true` merges them recursively. An import has one \
    merge strategy: Terragrunt rejects both at once.";

const HELP: &str = "keep `deep_merge = true` to merge nested maps and blocks, or `merge = true` \
    to replace them";

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
            out.push(both_merges(
                ctx,
                name,
                deep.span(),
                merge.span(),
                import.header_span,
            ));
        }
    }
}

/// `import "root" sets both `merge` and `deep_merge``
fn both_merges(ctx: &TreeContext, name: &str, deep: Span, merge: Span, import: Span) -> Diagnostic {
    ctx.finding(
        &RULE,
        format!("import \"{name}\" sets both `merge` and `deep_merge`"),
    )
    .at(ctx.files(), deep, "deep merge")
    .with_label(ctx.files(), merge, "and shallow merge")
    .with_label(ctx.files(), import, "of this import")
    .with_note(NOTE)
    .with_help(HELP)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    /// A unit importing `../root.hcl` with the settings given between the braces.
    macro_rules! unit {
        ($($setting:literal),*) => {
            &[
                ("root.hcl", ""),
                (
                    "a/terragrunt.hcl",
                    concat!(
                        "import \"root\" {\n  config_path = \"../root.hcl\"\n",
                        $($setting,)*
                        "}\n",
                    ),
                ),
            ]
        };
    }

    const PASS: &[Files] = &[
        unit!("  merge = true\n"),
        unit!("  deep_merge = true\n"),
        unit!("  merge      = true\n", "  deep_merge = false\n"),
    ];

    const FAIL: &[(Files, usize)] = &[(unit!("  merge      = true\n", "  deep_merge = true\n"), 1)];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
