//! An `import` block without `config_path`: the imports design names the imported file with that
//! one attribute, which Terragrunt decodes as required, so the block fails as HCL's "Missing
//! required argument" (as an `include` without `path` does, gruntwork-io/terragrunt
//! `pkg/config/include.go`).

use crate::diagnostic::Diagnostic;
use crate::source::Span;

use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_import_without_config_path",
    severity: Error,
    default: On,
    summary: "a Terragrunt import block without config_path",
    check: Check::Terragrunt(check),
};

const NOTE: &str = "The argument \"config_path\" is required, but no definition was found: an \
    `import` block names the configuration it imports with `config_path`, and Terragrunt refuses \
    the block without it.";

const HELP: &str = "set `config_path` to the file to import, e.g. \
    `config_path = find_in_parent_folders(\"root.hcl\")`";

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    for (_, parsed) in ctx.tree.live_files() {
        for block in parsed.body.blocks_of("import") {
            if block.body.attribute("config_path").is_none() {
                out.push(missing_config_path(ctx, block.header_span));
            }
        }
    }
}

/// `Missing required argument` (`config_path` of an `import` block)
fn missing_config_path(ctx: &TreeContext, header: Span) -> Diagnostic {
    ctx.finding(&RULE, "Missing required argument")
        .at(ctx.files(), header, "an `import` without `config_path`")
        .with_note(NOTE)
        .with_help(HELP)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[&[
        ("root.hcl", ""),
        (
            "app/terragrunt.hcl",
            "import \"root\" {\n  config_path = \"../root.hcl\"\n  merge = true\n}\n",
        ),
    ]];

    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "app/terragrunt.hcl",
                "import \"root\" {\n  path  = \"../root.hcl\"\n  merge = true\n}\n",
            )],
            1,
        ),
        // In an imported file too.
        (
            &[
                ("root.hcl", "import \"env\" {\n}\n"),
                (
                    "app/terragrunt.hcl",
                    "import \"root\" {\n  config_path = \"../root.hcl\"\n}\n",
                ),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
