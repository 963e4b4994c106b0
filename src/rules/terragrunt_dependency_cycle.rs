//! Terragrunt units whose `dependency`/`dependencies` paths form a cycle: no unit of the cycle
//! can be applied first.

use crate::diagnostic::Diagnostic;
use crate::terragrunt::paths::dir_of;

use super::terragrunt_import_cycle::chain;
use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_dependency_cycle",
    severity: Error,
    default: On,
    summary: "Terragrunt units whose dependencies form a cycle",
    check: Check::Terragrunt(check),
};

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    let tree = ctx.tree;
    let unit_dir = |node: usize| tree.show(dir_of(&tree.files[tree.nodes[node].unit].path));
    for cycle in tree.dependency_cycles() {
        let units: Vec<String> = cycle
            .iter()
            .map(|&e| unit_dir(tree.edges[e].from))
            .collect();
        let mut finding = ctx.finding(
            &RULE,
            format!("Terragrunt dependency cycle: {}", chain(&units)),
        );
        let last = cycle.len() - 1;
        for (i, &e) in cycle.iter().enumerate() {
            let edge = tree.edges[e];
            let reference = tree.reference(edge.from, edge.reference);
            let from = unit_dir(edge.from);
            let to = unit_dir(edge.to);
            let label = match (i, cycle.len()) {
                (_, 1) => "a unit that depends on itself".to_string(),
                (0, _) => format!("`{from}` depends on `{to}`"),
                (i, _) if i == last => format!("`{from}` depends on `{to}`, closing the cycle"),
                _ => format!("which depends on `{to}`"),
            };
            finding = if i == 0 {
                finding.at(ctx.files(), reference.path.span, label)
            } else {
                finding.with_label(ctx.files(), reference.path.span, label)
            };
        }
        out.push(
            finding
                .with_note("Terragrunt applies a unit after the units it depends on, and reads their outputs: with a cycle there is no order, and `run --all` fails with a cycle error.")
                .with_help("remove one dependency of the cycle: pass that value another way (an input, a data source, or a unit both depend on)"),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{check_table, findings};

    fn dep(name: &str, path: &str) -> String {
        format!("dependency \"{name}\" {{\n  config_path = \"{path}\"\n}}\n")
    }

    #[test]
    fn table() {
        let vpc_on_db = dep("db", "../db");
        let db_on_vpc = dep("vpc", "../vpc");
        let app_on_both = format!("{}{}", dep("vpc", "../vpc"), dep("db", "../db"));
        check_table(
            &super::RULE,
            &[&[
                ("vpc/terragrunt.hcl", ""),
                ("db/terragrunt.hcl", &db_on_vpc),
                ("app/terragrunt.hcl", &app_on_both),
            ]],
            &[
                (
                    &[
                        ("vpc/terragrunt.hcl", &vpc_on_db),
                        ("db/terragrunt.hcl", &db_on_vpc),
                        ("app/terragrunt.hcl", &app_on_both),
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
                            "dependency \"vpc\" {\n  config_path = \"${get_terragrunt_dir()}/../vpc\"\n}\n",
                        ),
                        (
                            "db/terragrunt.hcl",
                            "include \"common\" {\n  path = \"common.hcl\"\n}\n",
                        ),
                    ],
                    1,
                ),
                (&[("vpc/terragrunt.hcl", &dep("me", "."))], 1),
            ],
        );
    }

    #[test]
    fn a_long_chain_with_a_back_edge() {
        let n = 300;
        let texts: Vec<(String, String)> = (0..n)
            .map(|i| {
                let next = (i + 1) % n;
                (
                    format!("u{i:04}/terragrunt.hcl"),
                    dep("next", &format!("../u{next:04}")),
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
