//! Terragrunt units whose `dependency`/`dependencies` paths form a cycle: no unit of the cycle
//! can be applied first.

use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::terragrunt::Tree;
use crate::terragrunt::paths::dir_of;

use crate::lint::helpers::terragrunt::{CycleStep, at_each, chain, cycle_steps};
use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_dependency_cycle",
    severity: Error,
    default: On,
    summary: "Terragrunt units whose dependencies form a cycle",
    check: Check::Terragrunt(check),
};

const NOTE: &str = "Terragrunt applies a unit after the units it depends on, and reads their \
    outputs: with a cycle there is no order, and `run --all` fails with a cycle error.";

const HELP: &str = "remove one dependency of the cycle: pass that value another way (an input, \
    a data source, or a unit both depend on)";

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    let tree = ctx.tree;
    for cycle in tree.dependency_cycles() {
        let units: Vec<String> = cycle
            .iter()
            .map(|&e| unit_dir(tree, tree.edges[e].from))
            .collect();
        let edges = cycle_steps(&cycle).map(|(step, e)| {
            let edge = tree.edges[e];
            let from = unit_dir(tree, edge.from);
            let to = unit_dir(tree, edge.to);
            let label = match step {
                CycleStep::Only => "a unit that depends on itself".to_string(),
                CycleStep::First => format!("`{from}` depends on `{to}`"),
                CycleStep::Closing => format!("`{from}` depends on `{to}`, closing the cycle"),
                CycleStep::Between => format!("which depends on `{to}`"),
            };
            (tree.reference(edge.from, edge.reference).path.span, label)
        });
        out.push(dependency_cycle(ctx, &units, edges));
    }
}

/// The directory of the unit a node is evaluated for, as shown.
fn unit_dir(tree: &Tree, node: usize) -> String {
    tree.show(dir_of(&tree.files[tree.nodes[node].unit].path))
}

/// `Terragrunt dependency cycle: `vpc` → `db` → `vpc``, at each dependency of the cycle.
fn dependency_cycle(
    ctx: &TreeContext,
    units: &[String],
    edges: impl IntoIterator<Item = (Span, String)>,
) -> Diagnostic {
    let message = format!("Terragrunt dependency cycle: {}", chain(units));
    at_each(ctx.finding(&RULE, message), ctx.files(), edges)
        .with_note(NOTE)
        .with_help(HELP)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::live_layout::{self, overriding_unit};
    use crate::lint::testing::{DEPENDENCY_VPC, Files, INCLUDE_ROOT, check_table, findings};

    const DEPENDENCY_DB: &str = "dependency \"db\" {\n  config_path = \"../db\"\n}\n";
    const ON_BOTH: &str = concat!(
        "dependency \"vpc\" {\n  config_path = \"../vpc\"\n}\n",
        "dependency \"db\" {\n  config_path = \"../db\"\n}\n",
    );

    const PASS: &[Files] = &[
        &[
            ("vpc/terragrunt.hcl", ""),
            ("db/terragrunt.hcl", DEPENDENCY_VPC),
            ("app/terragrunt.hcl", ON_BOTH),
        ],
        live_layout::TREE,
        // A placeholder `config_path = ""` in the parent, replaced by the unit's own dependency
        // whatever the merge strategy.
        &[
            ("root.hcl", live_layout::PLACEHOLDER_PARENT),
            ("vpc/terragrunt.hcl", ""),
            ("app/terragrunt.hcl", overriding_unit!("")),
        ],
        &[
            ("root.hcl", live_layout::PLACEHOLDER_PARENT),
            ("vpc/terragrunt.hcl", ""),
            (
                "app/terragrunt.hcl",
                overriding_unit!("  merge_strategy = \"deep\"\n"),
            ),
        ],
        &[
            ("root.hcl", live_layout::PLACEHOLDER_PARENT),
            ("vpc/terragrunt.hcl", ""),
            (
                "app/terragrunt.hcl",
                overriding_unit!("  merge_strategy = \"no_merge\"\n"),
            ),
        ],
        // With `no_merge`, none of the parent's dependencies reaches the unit.
        &[
            ("root.hcl", live_layout::PLACEHOLDER_PARENT),
            (
                "app/terragrunt.hcl",
                "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n\
                 merge_strategy = \"no_merge\"\n}\n",
            ),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("vpc/terragrunt.hcl", DEPENDENCY_DB),
                ("db/terragrunt.hcl", DEPENDENCY_VPC),
                ("app/terragrunt.hcl", ON_BOTH),
            ],
            1,
        ),
        // Through `dependencies`, and a dependency set in an included parent.
        (
            &[
                (
                    "vpc/terragrunt.hcl",
                    "dependencies {\n  paths = [\"../db\"]\n}\n",
                ),
                (
                    "db/common.hcl",
                    concat!(
                        "dependency \"vpc\" {\n",
                        "  config_path = \"${get_terragrunt_dir()}/../vpc\"\n",
                        "}\n",
                    ),
                ),
                (
                    "db/terragrunt.hcl",
                    "include \"common\" {\n  path = \"common.hcl\"\n}\n",
                ),
            ],
            1,
        ),
        (
            &[(
                "vpc/terragrunt.hcl",
                "dependency \"me\" {\n  config_path = \".\"\n}\n",
            )],
            1,
        ),
        // A placeholder the unit does not replace is a real cycle: the unit depends on itself.
        (
            &[
                ("root.hcl", live_layout::PLACEHOLDER_PARENT),
                ("app/terragrunt.hcl", INCLUDE_ROOT),
            ],
            1,
        ),
        // A deep merge keeps the parent's `config_path` when the unit does not set one.
        (
            &[
                ("root.hcl", live_layout::PLACEHOLDER_PARENT),
                (
                    "app/terragrunt.hcl",
                    concat!(
                        "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n",
                        "  merge_strategy = \"deep\"\n}\n",
                        "dependency \"vpc\" {\n  skip_outputs = true\n}\n",
                    ),
                ),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn a_long_chain_with_a_back_edge() {
        let n = 300;
        let texts: Vec<(String, String)> = (0..n)
            .map(|i| {
                let next = (i + 1) % n;
                (
                    format!("u{i:04}/terragrunt.hcl"),
                    format!("dependency \"next\" {{\n  config_path = \"../u{next:04}\"\n}}\n"),
                )
            })
            .collect();
        let files: Vec<(&str, &str)> = texts
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        let found = findings(&super::RULE, &files);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].secondary.len(), n - 1);
        assert!(
            found[0].message.contains("(295 more)"),
            "{}",
            found[0].message
        );
    }
}
