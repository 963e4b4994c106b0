//! Two `import` blocks of one Terragrunt file with the same label: `import.<label>` can name only
//! one configuration, so Terragrunt's imports design cannot tell which one a reference reads.
//! Terragrunt refuses blocks that it keys by label when two share one (as it does for
//! `generate` blocks: "Detected generate blocks with the same name", gruntwork-io/terragrunt
//! `pkg/config/errors.go`).

use std::collections::BTreeMap;

use crate::diagnostic::Diagnostic;
use crate::source::Span;

use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_import_duplicate_label",
    severity: Error,
    default: On,
    summary: "two import blocks of a Terragrunt file with the same label",
    check: Check::Terragrunt(check),
};

const HELP: &str = "give each `import` block its own label, and update the `import.<label>` \
    references";

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    for (_, parsed) in ctx.tree.live_files() {
        let mut first: BTreeMap<&str, Span> = BTreeMap::new();
        for block in parsed.body.blocks_of("import") {
            let Some(label) = block.label(0) else {
                continue;
            };
            match first.get(label) {
                Some(&earlier) => {
                    out.push(duplicate_import(ctx, label, block.header_span, earlier))
                }
                None => {
                    first.insert(label, block.header_span);
                }
            }
        }
    }
}

/// `` Detected import blocks with the same name: [root] ``
fn duplicate_import(ctx: &TreeContext, label: &str, at: Span, earlier: Span) -> Diagnostic {
    ctx.finding(
        &RULE,
        format!("Detected import blocks with the same name: [{label}]"),
    )
    .at(ctx.files(), at, format!("a second `import \"{label}\"`"))
    .with_label(ctx.files(), earlier, "the first one")
    .with_note(format!(
        "`import.{label}` names one imported configuration: with two imports of that label, \
         Terragrunt cannot tell which one a reference reads, and refuses the file."
    ))
    .with_help(HELP)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[&[
        ("root.hcl", ""),
        ("env.hcl", ""),
        (
            "app/terragrunt.hcl",
            concat!(
                "import \"root\" {\n  config_path = \"../root.hcl\"\n}\n",
                "import \"env\" {\n  config_path = \"../env.hcl\"\n}\n",
            ),
        ),
    ]];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("root.hcl", ""),
                ("env.hcl", ""),
                (
                    "app/terragrunt.hcl",
                    concat!(
                        "import \"root\" {\n  config_path = \"../root.hcl\"\n}\n",
                        "import \"root\" {\n  config_path = \"../env.hcl\"\n}\n",
                    ),
                ),
            ],
            1,
        ),
        // Three of one label: each after the first.
        (
            &[
                ("root.hcl", ""),
                (
                    "app/terragrunt.hcl",
                    concat!(
                        "import \"a\" {\n  config_path = \"../root.hcl\"\n}\n",
                        "import \"a\" {\n  config_path = \"../root.hcl\"\n}\n",
                        "import \"a\" {\n  config_path = \"../root.hcl\"\n}\n",
                    ),
                ),
            ],
            2,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
