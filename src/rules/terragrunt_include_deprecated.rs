//! An `include` block, which Terragrunt's imports design deprecates: imports replace includes,
//! and the design has `include` warn once imports ship
//! (<https://terragrunt.gruntwork.io/docs/rfc/imports/>, gruntwork-io/terragrunt#1566). No
//! Terragrunt release warns yet, so the rule is off by default: teams moving to imports enable it
//! to find what is left.

use crate::diagnostic::Diagnostic;
use crate::source::Span;

use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_include_deprecated",
    severity: Notice,
    default: Off,
    summary: "an include block, which the Terragrunt imports design deprecates",
    check: Check::Terragrunt(check),
};

const NOTE: &str = "Terragrunt's imports design replaces `include` with `import` blocks and \
    deprecates `include`, with a warning whenever it is used; a file cannot mix the two.";

const HELP: &str = "replace it with an `import` of the same file with `merge = true` \
    (`deep_merge = true` for `merge_strategy = \"deep\"`)";

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    for (_, parsed) in ctx.tree.live_files() {
        for block in parsed.body.blocks_of("include") {
            out.push(include_deprecated(ctx, block.header_span));
        }
    }
}

/// `` `include` is deprecated: use `import` ``
fn include_deprecated(ctx: &TreeContext, header: Span) -> Diagnostic {
    ctx.finding(&RULE, "`include` is deprecated: use `import`")
        .at(ctx.files(), header, "an `include` block")
        .with_note(NOTE)
        .with_help(HELP)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, INCLUDE_ROOT, check_table};

    const PASS: &[Files] = &[&[
        ("root.hcl", ""),
        (
            "app/terragrunt.hcl",
            "import \"root\" {\n  config_path = find_in_parent_folders(\"root.hcl\")\n  merge = true\n}\n",
        ),
    ]];

    const FAIL: &[(Files, usize)] = &[
        (&[("root.hcl", ""), ("app/terragrunt.hcl", INCLUDE_ROOT)], 1),
        // A bare include, and two includes in one unit.
        (
            &[
                ("root.hcl", ""),
                ("env.hcl", ""),
                (
                    "app/terragrunt.hcl",
                    concat!(
                        "include {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n",
                        "include \"env\" {\n  path = find_in_parent_folders(\"env.hcl\")\n}\n",
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
