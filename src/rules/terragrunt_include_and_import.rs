//! A Terragrunt file with both `include` and `import` blocks: imports replace includes, and
//! Terragrunt refuses a file that mixes them.

use crate::diagnostic::Diagnostic;
use crate::source::Span;

use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_include_and_import",
    severity: Error,
    default: On,
    summary: "a Terragrunt file with both include and import blocks",
    check: Check::Terragrunt(check),
};

const NOTE: &str = "Imports replace includes: Terragrunt refuses a configuration that has both, \
    as a syntax error.";

const HELP: &str = "turn the include into an import with `merge = true` (or `deep_merge = true`) \
    of the same file";

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    for (_, file) in ctx.tree.live_files() {
        let mut imports = file.body.blocks_of("import");
        let (Some(import), Some(include)) = (imports.next(), file.body.blocks_of("include").next())
        else {
            continue;
        };
        let more = imports.count();
        out.push(include_and_import(
            ctx,
            import.header_span,
            include.header_span,
            more,
        ));
    }
}

/// `` `include` and `import` blocks in one file ``, noting how many more imports there are.
fn include_and_import(ctx: &TreeContext, import: Span, include: Span, more: usize) -> Diagnostic {
    let finding = ctx
        .finding(&RULE, "`include` and `import` blocks in one file")
        .at(ctx.files(), import, "an `import` block")
        .with_label(ctx.files(), include, "and an `include` block")
        .with_note(NOTE);
    let finding = match more {
        0 => finding,
        1 => finding.with_note("The file has 1 more `import` block."),
        n => finding.with_note(format!("The file has {n} more `import` blocks.")),
    };
    finding.with_help(HELP)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, IMPORT_ENV, INCLUDE_ROOT, check_table};

    const PASS: &[Files] = &[
        &[("root.hcl", ""), ("app/terragrunt.hcl", INCLUDE_ROOT)],
        &[
            ("root.hcl", ""),
            (
                "app/terragrunt.hcl",
                concat!(
                    "import \"root\" {\n",
                    "  config_path = find_in_parent_folders(\"root.hcl\")\n",
                    "  merge       = true\n",
                    "}\n",
                ),
            ),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("root.hcl", ""),
                ("env.hcl", ""),
                (
                    "app/terragrunt.hcl",
                    concat!(
                        "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n",
                        "\n",
                        "import \"env\" {\n  config_path = \"../env.hcl\"\n}\n",
                    ),
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
                    concat!(
                        "include \"root\" {\n  path = \"root.hcl\"\n}\n",
                        "import \"root\" {\n  config_path = \"root.hcl\"\n}\n",
                    ),
                ),
                ("a/terragrunt.hcl", IMPORT_ENV),
                ("b/terragrunt.hcl", IMPORT_ENV),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
