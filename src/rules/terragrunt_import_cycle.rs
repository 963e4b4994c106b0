//! A cycle through Terragrunt `include` blocks, `import` blocks and `read_terragrunt_config`
//! calls: Terragrunt parses each target before the file naming it, so it never finishes.

use crate::diagnostic::Diagnostic;
use crate::source::Span;

use crate::lint::helpers::terragrunt::{
    CycleStep, at_each, chain, cycle_steps, with_optional_note,
};
use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_import_cycle",
    severity: Error,
    default: On,
    summary: "Terragrunt includes, imports or read_terragrunt_config calls that form a cycle",
    check: Check::Terragrunt(check),
};

const NOTE: &str = "Terragrunt parses the file an include, import or read_terragrunt_config \
    names before it finishes the file that names it, so a cycle of them never finishes parsing.";

const HELP: &str = "break the cycle: move what both files need into a file that neither \
    includes, imports nor reads";

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    let tree = ctx.tree;
    for cycle in tree.parse_cycles() {
        let files: Vec<String> = cycle
            .iter()
            .map(|&e| tree.show_file(tree.nodes[tree.edges[e].from].file))
            .collect();
        let edges = cycle_steps(&cycle).map(|(step, e)| {
            let edge = tree.edges[e];
            let reference = tree.reference(edge.from, edge.reference);
            let target = tree.show_file(tree.nodes[edge.to].file);
            let verb = reference.kind.verb();
            let label = match step {
                CycleStep::Only => format!("{verb} this file itself"),
                CycleStep::First => format!("{verb} `{target}`"),
                CycleStep::Closing => format!("{verb} `{target}`, closing the cycle"),
                CycleStep::Between => format!("which {verb} `{target}`"),
            };
            (reference.path.span, label)
        });
        let nodes: Vec<usize> = cycle.iter().map(|&e| tree.edges[e].from).collect();
        out.push(configuration_cycle(
            ctx,
            &files,
            edges,
            tree.evaluated_for(&nodes),
        ));
    }
}

/// `Terragrunt configuration cycle: `a.hcl` → `b.hcl` → `a.hcl``, at each edge of the cycle.
fn configuration_cycle(
    ctx: &TreeContext,
    files: &[String],
    edges: impl IntoIterator<Item = (Span, String)>,
    evaluated_for: Option<String>,
) -> Diagnostic {
    let message = format!("Terragrunt configuration cycle: {}", chain(files));
    let finding = at_each(ctx.finding(&RULE, message), ctx.files(), edges).with_note(NOTE);
    with_optional_note(finding, evaluated_for).with_help(HELP)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, IMPORT_ENV, INCLUDE_ROOT, check_table, findings};

    const ENV_IMPORTS_REGION: &str = "import \"region\" {\n  config_path = \"../region.hcl\"\n}\n";
    const REGION_IMPORTS_ACCOUNT: &str =
        "import \"account\" {\n  config_path = \"../account.hcl\"\n}\n";

    /// account.hcl imports back down the chain: account → env → region → account.
    const CYCLE: Files = &[
        (
            "live/account.hcl",
            "import \"env\" {\n  config_path = \"us/app/env.hcl\"\n}\n",
        ),
        ("live/us/region.hcl", REGION_IMPORTS_ACCOUNT),
        ("live/us/app/env.hcl", ENV_IMPORTS_REGION),
        ("live/us/app/vpc/terragrunt.hcl", IMPORT_ENV),
    ];

    const PASS: &[Files] = &[
        // A chain without a cycle.
        &[
            ("live/account.hcl", "inputs = {}\n"),
            ("live/us/region.hcl", REGION_IMPORTS_ACCOUNT),
            ("live/us/app/env.hcl", ENV_IMPORTS_REGION),
            ("live/us/app/vpc/terragrunt.hcl", IMPORT_ENV),
        ],
        // Two units share a parent: a diamond, not a cycle.
        &[
            ("root.hcl", "inputs = {}\n"),
            ("a/terragrunt.hcl", INCLUDE_ROOT),
            ("b/terragrunt.hcl", INCLUDE_ROOT),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        // account.hcl imports back down the chain.
        (CYCLE, 1),
        // A file that reads itself.
        (
            &[(
                "a/terragrunt.hcl",
                concat!(
                    "locals {\n",
                    "  me = read_terragrunt_config(\"${get_terragrunt_dir()}/terragrunt.hcl\")\n",
                    "}\n",
                ),
            )],
            1,
        ),
        // Included parents chained through each other, evaluated for two units: one cycle,
        // reported once.
        (
            &[
                (
                    "root.hcl",
                    "include \"mid\" {\n  path = find_in_parent_folders(\"mid.hcl\")\n}\n",
                ),
                ("mid.hcl", INCLUDE_ROOT),
                ("a/terragrunt.hcl", INCLUDE_ROOT),
                ("b/terragrunt.hcl", INCLUDE_ROOT),
            ],
            1,
        ),
        // A unit that includes itself is still a unit: it was once dropped as a parent.
        (
            &[(
                "a/terragrunt.hcl",
                "include \"self\" {\n  path = \"terragrunt.hcl\"\n}\n",
            )],
            1,
        ),
        // Two units that include each other.
        (
            &[
                (
                    "a/terragrunt.hcl",
                    "include \"b\" {\n  path = \"../b/terragrunt.hcl\"\n}\n",
                ),
                (
                    "b/terragrunt.hcl",
                    "include \"a\" {\n  path = \"../a/terragrunt.hcl\"\n}\n",
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
    fn every_edge_of_the_cycle_is_labelled() {
        let found = findings(&super::RULE, CYCLE);
        assert_eq!(found.len(), 1);
        let d = &found[0];
        assert!(d.path.ends_with("live/account.hcl"), "{}", d.path);
        assert!(d.message.contains("live/account.hcl` → `"), "{}", d.message);
        assert!(
            d.message.contains("live/us/app/env.hcl` → `"),
            "{}",
            d.message
        );
        assert_eq!(d.message.matches(" → ").count(), 3, "{}", d.message);
        assert_eq!(d.secondary.len(), 2, "{d:#?}");
        assert_eq!(d.start().0, 2);
    }
}
