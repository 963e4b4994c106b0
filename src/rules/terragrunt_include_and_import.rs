//! A Terragrunt file with both `include` and `import` blocks: imports replace includes, and
//! Terragrunt refuses a file that mixes them.

use crate::diagnostic::Diagnostic;

use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_include_and_import",
    severity: Error,
    default: On,
    summary: "a Terragrunt file with both include and import blocks",
    check: Check::Terragrunt(check),
};

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    for (_, file) in ctx.tree.live_files() {
        let mut imports = file.body.blocks_of("import");
        let (Some(import), Some(include)) = (imports.next(), file.body.blocks_of("include").next())
        else {
            continue;
        };
        let more = imports.count();
        let mut finding = ctx
            .finding(&RULE, "`include` and `import` blocks in one file")
            .at(ctx.files(), import.header_span, "an `import` block")
            .with_label(ctx.files(), include.header_span, "and an `include` block")
            .with_note("Imports replace includes: Terragrunt refuses a configuration that has both, as a syntax error.");
        if more > 0 {
            finding = finding.with_note(format!(
                "The file has {} more `import` block{}.",
                more,
                if more == 1 { "" } else { "s" }
            ));
        }
        out.push(finding.with_help(
            "turn the include into an import with `merge = true` (or `deep_merge = true`) of the same file",
        ));
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
                &[
                    ("root.hcl", ""),
                    (
                        "app/terragrunt.hcl",
                        "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n",
                    ),
                ],
                &[
                    ("root.hcl", ""),
                    (
                        "app/terragrunt.hcl",
                        "import \"root\" {\n  config_path = find_in_parent_folders(\"root.hcl\")\n  merge       = true\n}\n",
                    ),
                ],
            ],
            &[
                (
                    &[
                        ("root.hcl", ""),
                        ("env.hcl", ""),
                        (
                            "app/terragrunt.hcl",
                            "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n\nimport \"env\" {\n  config_path = \"../env.hcl\"\n}\n",
                        ),
                    ],
                    1,
                ),
                // In an imported file too (reported once, however many import it).
                (
                    &[
                        ("root.hcl", ""),
                        (
                            "env.hcl",
                            "include \"root\" {\n  path = \"root.hcl\"\n}\nimport \"root\" {\n  config_path = \"root.hcl\"\n}\n",
                        ),
                        (
                            "a/terragrunt.hcl",
                            "import \"env\" {\n  config_path = \"../env.hcl\"\n}\n",
                        ),
                        (
                            "b/terragrunt.hcl",
                            "import \"env\" {\n  config_path = \"../env.hcl\"\n}\n",
                        ),
                    ],
                    1,
                ),
            ],
        );
    }
}
