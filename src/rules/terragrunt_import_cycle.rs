//! A cycle through Terragrunt `include` blocks, `import` blocks and `read_terragrunt_config`
//! calls: Terragrunt parses each target before the file naming it, so it never finishes.

use crate::diagnostic::Diagnostic;
use crate::terragrunt::Tree;

use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_import_cycle",
    severity: Error,
    default: On,
    summary: "Terragrunt includes, imports or read_terragrunt_config calls that form a cycle",
    check: Check::Terragrunt(check),
};

/// `a → b → a`, shortened in the middle when long.
pub(crate) fn chain(names: &[String]) -> String {
    let mut shown: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    if shown.len() > 8 {
        let hidden = shown.len() - 5;
        let tail = shown.split_off(shown.len() - 2);
        shown.truncate(3);
        shown.push(format!("… ({hidden} more)"));
        shown.extend(tail);
    }
    if let Some(first) = names.first() {
        shown.push(format!("`{first}`"));
    }
    shown.join(" → ")
}

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    let tree: &Tree = ctx.tree;
    for cycle in tree.parse_cycles() {
        let files: Vec<String> = cycle
            .iter()
            .map(|&e| tree.show_file(tree.nodes[tree.edges[e].from].file))
            .collect();
        let mut finding = ctx.finding(
            &RULE,
            format!("Terragrunt configuration cycle: {}", chain(&files)),
        );
        let last = cycle.len() - 1;
        for (i, &e) in cycle.iter().enumerate() {
            let edge = tree.edges[e];
            let reference = tree.reference(edge.from, edge.reference);
            let target = tree.show_file(tree.nodes[edge.to].file);
            let label = match (i, cycle.len()) {
                (_, 1) => format!("{} this file itself", reference.kind.verb()),
                (0, _) => format!("{} `{target}`", reference.kind.verb()),
                (i, _) if i == last => {
                    format!("{} `{target}`, closing the cycle", reference.kind.verb())
                }
                _ => format!("which {} `{target}`", reference.kind.verb()),
            };
            finding = if i == 0 {
                finding.at(ctx.files(), reference.path.span, label)
            } else {
                finding.with_label(ctx.files(), reference.path.span, label)
            };
        }
        finding = finding.with_note(
            "Terragrunt parses the file an include, import or read_terragrunt_config names before it finishes the file that names it, so a cycle of them never finishes parsing.",
        );
        let nodes: Vec<usize> = cycle.iter().map(|&e| tree.edges[e].from).collect();
        if let Some(note) = tree.evaluated_for(&nodes) {
            finding = finding.with_note(note);
        }
        out.push(finding.with_help(
            "break the cycle: move what both files need into a file that neither includes, imports nor reads",
        ));
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{check_table, findings};

    const ENV_IMPORTS_REGION: &str = "import \"region\" {\n  config_path = \"../region.hcl\"\n}\n";

    /// account.hcl imports back down the chain: account → env → region → account.
    const CYCLE: &[(&str, &str)] = &[
        (
            "live/account.hcl",
            "import \"env\" {\n  config_path = \"us/app/env.hcl\"\n}\n",
        ),
        (
            "live/us/region.hcl",
            "import \"account\" {\n  config_path = \"../account.hcl\"\n}\n",
        ),
        ("live/us/app/env.hcl", ENV_IMPORTS_REGION),
        (
            "live/us/app/vpc/terragrunt.hcl",
            "import \"env\" {\n  config_path = \"../env.hcl\"\n}\n",
        ),
    ];

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[
                // A chain without a cycle.
                &[
                    ("live/account.hcl", "inputs = {}\n"),
                    (
                        "live/us/region.hcl",
                        "import \"account\" {\n  config_path = \"../account.hcl\"\n}\n",
                    ),
                    ("live/us/app/env.hcl", ENV_IMPORTS_REGION),
                    (
                        "live/us/app/vpc/terragrunt.hcl",
                        "import \"env\" {\n  config_path = \"../env.hcl\"\n}\n",
                    ),
                ],
                // Two units share a parent: a diamond, not a cycle.
                &[
                    ("root.hcl", "inputs = {}\n"),
                    (
                        "a/terragrunt.hcl",
                        "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n",
                    ),
                    (
                        "b/terragrunt.hcl",
                        "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n",
                    ),
                ],
            ],
            &[
                // account.hcl imports back down the chain.
                (CYCLE, 1),
                // A file that reads itself.
                (
                    &[(
                        "a/terragrunt.hcl",
                        "locals {\n  me = read_terragrunt_config(\"${get_terragrunt_dir()}/terragrunt.hcl\")\n}\n",
                    )],
                    1,
                ),
                // Included parents chained through each other, evaluated for two units: one
                // cycle, reported once.
                (
                    &[
                        (
                            "root.hcl",
                            "include \"mid\" {\n  path = find_in_parent_folders(\"mid.hcl\")\n}\n",
                        ),
                        (
                            "mid.hcl",
                            "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n",
                        ),
                        (
                            "a/terragrunt.hcl",
                            "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n",
                        ),
                        (
                            "b/terragrunt.hcl",
                            "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n",
                        ),
                    ],
                    1,
                ),
            ],
        );
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

    #[test]
    fn long_chains() {
        let names: Vec<String> = (0..10).map(|i| format!("f{i}")).collect();
        assert_eq!(
            super::chain(&names),
            "`f0` → `f1` → `f2` → … (5 more) → `f8` → `f9` → `f0`"
        );
    }
}
