//! Terragrunt units whose dependencies form a cycle only once their merged imports are merged
//! in: with `merge = true` (or `deep_merge = true`), the `dependency` blocks of an imported file
//! become the importing unit's (Terragrunt's imports design), so a shared file declaring a
//! dependency on one of the units that import it closes a cycle no single file shows.

use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::terragrunt::Tree;
use crate::terragrunt::imports::MergedDependency;
use crate::terragrunt::paths::dir_of;

use crate::lint::helpers::terragrunt::{CycleStep, at_each, chain, cycle_steps};
use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_merged_dependency_cycle",
    severity: Error,
    default: On,
    summary: "Terragrunt units whose dependencies form a cycle once merged imports are merged in",
    check: Check::Terragrunt(check),
};

const NOTE: &str = "An import with `merge = true` or `deep_merge = true` merges the imported \
    file's `dependency` blocks into the unit: the unit depends on what they name, and with a \
    cycle there is no order to apply the units in.";

const HELP: &str = "declare the dependency in the units that need it rather than in the merged \
    file, or import that file without `merge` and read what you need as `import.<label>`";

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    let tree = ctx.tree;
    for cycle in tree.merged_dependency_cycles() {
        let units: Vec<String> = cycle.iter().map(|s| unit_dir(tree, s.unit)).collect();
        let edges: Vec<usize> = (0..cycle.len()).collect();
        let places = cycle_steps(&edges).map(|(step, i)| {
            let MergedDependency {
                unit,
                edge,
                through_import,
            } = cycle[i];
            let edge = tree.edges[edge];
            let from = unit_dir(tree, unit);
            let to = unit_dir(tree, edge.to);
            let how = if through_import {
                format!(
                    "`{from}` depends on `{to}` through its merged import of `{}`",
                    tree.show_file(tree.nodes[edge.from].file)
                )
            } else {
                format!("`{from}` depends on `{to}`")
            };
            let label = match step {
                CycleStep::Only => format!("{how}: itself"),
                CycleStep::Closing => format!("{how}, closing the cycle"),
                CycleStep::First | CycleStep::Between => how,
            };
            (tree.reference(edge.from, edge.reference).path.span, label)
        });
        out.push(merged_dependency_cycle(ctx, &units, places));
    }
}

/// The directory of the unit a node is evaluated for, as shown.
fn unit_dir(tree: &Tree, node: usize) -> String {
    tree.show(dir_of(&tree.files[tree.nodes[node].unit].path))
}

/// `` Terragrunt dependency cycle through merged imports: `vpc` → `app` → `vpc` ``
fn merged_dependency_cycle(
    ctx: &TreeContext,
    units: &[String],
    places: impl IntoIterator<Item = (Span, String)>,
) -> Diagnostic {
    let message = format!(
        "Terragrunt dependency cycle through merged imports: {}",
        chain(units)
    );
    at_each(ctx.finding(&RULE, message), ctx.files(), places)
        .with_note(NOTE)
        .with_help(HELP)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    /// A shared file that makes every unit merging it depend on `app`.
    const ON_APP: &str = "dependency \"app\" {\n  config_path = \"app\"\n}\n";
    const MERGE_SHARED: &str =
        "import \"shared\" {\n  config_path = \"../shared.hcl\"\n  merge = true\n}\n";
    const READ_SHARED: &str = "import \"shared\" {\n  config_path = \"../shared.hcl\"\n}\n";
    const ON_VPC: &str = "dependency \"vpc\" {\n  config_path = \"../vpc\"\n}\n";

    const PASS: &[Files] = &[
        // Without `merge`, the import's dependency is not the unit's.
        &[
            ("shared.hcl", ON_APP),
            ("vpc/terragrunt.hcl", READ_SHARED),
            ("app/terragrunt.hcl", ON_VPC),
        ],
        // The unit's own `dependency "app"` wins the merge, and points elsewhere.
        &[
            ("shared.hcl", ON_APP),
            ("db/terragrunt.hcl", ""),
            (
                "vpc/terragrunt.hcl",
                concat!(
                    "import \"shared\" {\n  config_path = \"../shared.hcl\"\n  merge = true\n}\n",
                    "dependency \"app\" {\n  config_path = \"../db\"\n}\n",
                ),
            ),
            ("app/terragrunt.hcl", ON_VPC),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("shared.hcl", ON_APP),
                ("vpc/terragrunt.hcl", MERGE_SHARED),
                ("app/terragrunt.hcl", ON_VPC),
            ],
            1,
        ),
        // Through a chain of merged imports, deep merged.
        (
            &[
                ("shared.hcl", ON_APP),
                (
                    "env.hcl",
                    "import \"shared\" {\n  config_path = \"shared.hcl\"\n  deep_merge = true\n}\n",
                ),
                (
                    "vpc/terragrunt.hcl",
                    "import \"env\" {\n  config_path = \"../env.hcl\"\n  merge = true\n}\n",
                ),
                ("app/terragrunt.hcl", ON_VPC),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
