//! A Terragrunt reference whose path resolves to nothing: an include, import,
//! `read_terragrunt_config` or dependency target that does not exist, or a
//! `find_in_parent_folders()` search that reaches the file system root without a match.

use crate::diagnostic::Diagnostic;
use crate::terragrunt::describe_missing;
use crate::terragrunt::paths::dir_of;
use crate::terragrunt::refs::RefKind;
use crate::terragrunt::resolve::{Missing, Outcome, Stop};

use crate::lint::helpers::closest;
use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_config_path_missing",
    severity: Error,
    default: On,
    summary: "a Terragrunt include, import, read or dependency path that leads to no file",
    check: Check::Terragrunt(check),
};

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    let tree = ctx.tree;
    let groups = tree.grouped_failures(|o| {
        matches!(
            o,
            Outcome::Missing { .. } | Outcome::Stopped(Stop::NotInParents { .. })
        )
    });
    for group in groups {
        let failure = group[0];
        let reference = tree.reference(failure.node, failure.reference);
        let nodes: Vec<usize> = group.iter().map(|f| f.node).collect();
        let site_label = format!("in this {}", reference.kind.written());
        let mut finding = match &failure.outcome {
            Outcome::Missing { path, why } => {
                let shown = tree.show(path);
                let message = match why {
                    Missing::NoSuchPath => {
                        format!(
                            "{} target `{shown}` does not exist",
                            reference.kind.written()
                        )
                    }
                    Missing::IsDirectory => {
                        format!(
                            "{} target `{shown}` is a directory",
                            reference.kind.written()
                        )
                    }
                    Missing::NoConfigInDirectory => format!(
                        "{} target `{shown}` is not a Terragrunt unit",
                        reference.kind.written()
                    ),
                };
                let (label, note) = describe_missing(tree, reference.kind, path, *why);
                let help = match why {
                    Missing::NoSuchPath => similar_name(path)
                        .map(|name| format!("did you mean `{name}`?"))
                        .unwrap_or_else(|| "fix the path, or create the file".to_string()),
                    Missing::IsDirectory => format!(
                        "name the configuration file in the directory (`{shown}/{}`?)",
                        crate::terragrunt::UNIT_FILE
                    ),
                    Missing::NoConfigInDirectory => {
                        "point it at a directory that holds a terragrunt.hcl".to_string()
                    }
                };
                ctx.finding(&RULE, message)
                    .at(ctx.files(), reference.path.span, label)
                    .with_note(note)
                    .with_help(help)
            }
            Outcome::Stopped(Stop::NotInParents {
                name,
                start,
                call,
                root_hcl,
            }) => {
                let from = tree.show(start);
                let help = match root_hcl {
                    Some(root) => format!(
                        "the root configuration here is `{}`: use `find_in_parent_folders(\"root.hcl\")`",
                        tree.show(root)
                    ),
                    None => format!(
                        "add `{name}` to a folder above `{from}`, or give a fallback as the second argument"
                    ),
                };
                ctx.finding(
                    &RULE,
                    format!("no folder above `{from}` holds `{name}`"),
                )
                .at(ctx.files(), *call, format!("finds no `{name}`"))
                .with_note(format!(
                    "find_in_parent_folders() searches the folders above `{from}` up to the file system root and fails when none holds `{name}`: this chain never reaches its root."
                ))
                .with_help(help)
            }
            _ => continue,
        };
        if reference.kind != RefKind::Read {
            finding = finding.with_label(ctx.files(), reference.site, site_label);
        }
        if let Some(note) = tree.evaluated_for(&nodes) {
            finding = finding.with_note(note);
        }
        out.push(finding);
    }
}

/// A name close to the missing file's, in the directory it should be in.
fn similar_name(path: &std::path::Path) -> Option<String> {
    let wanted = path.file_name()?.to_str()?;
    let names: Vec<String> = std::fs::read_dir(dir_of(path))
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    closest(wanted, names.iter().map(String::as_str)).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{check_table, findings};

    const UNIT: &str = "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n";

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[
                &[("root.hcl", ""), ("app/terragrunt.hcl", UNIT)],
                // An optional read of a file that is not there.
                &[(
                    "app/terragrunt.hcl",
                    "locals {\n  extra = read_terragrunt_config(\"extra.hcl\", {})\n}\n",
                )],
                // A fallback for a search that finds nothing.
                &[
                    ("app/default.hcl", ""),
                    (
                        "app/terragrunt.hcl",
                        "locals {\n  env = read_terragrunt_config(find_in_parent_folders(\"env.hcl\", \"default.hcl\"))\n}\n",
                    ),
                ],
                // A dependency on a unit.
                &[
                    ("vpc/terragrunt.hcl", ""),
                    (
                        "app/terragrunt.hcl",
                        "dependency \"vpc\" {\n  config_path = \"../vpc\"\n}\n",
                    ),
                ],
                // The root includes a file found from each unit's directory.
                &[
                    (
                        "root.hcl",
                        "locals {\n  env = read_terragrunt_config(find_in_parent_folders(\"env.hcl\"))\n}\n",
                    ),
                    ("prod/env.hcl", ""),
                    ("prod/app/terragrunt.hcl", UNIT),
                ],
            ],
            &[
                // The chain never reaches a root.
                (&[("app/terragrunt.hcl", UNIT)], 1),
                (
                    &[
                        ("prod/account.hcl", ""),
                        (
                            "prod/us/region.hcl",
                            "import \"account\" {\n  config_path = \"../acount.hcl\"\n}\n",
                        ),
                        (
                            "prod/us/app/terragrunt.hcl",
                            "import \"region\" {\n  config_path = \"../region.hcl\"\n}\n",
                        ),
                    ],
                    1,
                ),
                (
                    &[(
                        "app/terragrunt.hcl",
                        "dependency \"vpc\" {\n  config_path = \"../vpc\"\n}\ndependencies {\n  paths = [\"../db\"]\n}\n",
                    )],
                    2,
                ),
                // A directory without terragrunt.hcl.
                (
                    &[
                        ("vpc/main.tf", ""),
                        (
                            "app/terragrunt.hcl",
                            "dependency \"vpc\" {\n  config_path = \"../vpc\"\n}\n",
                        ),
                    ],
                    1,
                ),
                // Evaluated for two units that both lack env.hcl: one finding.
                (
                    &[
                        (
                            "root.hcl",
                            "locals {\n  env = read_terragrunt_config(find_in_parent_folders(\"env.hcl\"))\n}\n",
                        ),
                        ("a/terragrunt.hcl", UNIT),
                        ("b/terragrunt.hcl", UNIT),
                    ],
                    1,
                ),
            ],
        );
    }

    #[test]
    fn suggests_a_close_name_and_root_hcl() {
        let found = findings(
            &super::RULE,
            &[
                ("prod/account.hcl", ""),
                (
                    "prod/us/terragrunt.hcl",
                    "import \"account\" {\n  config_path = \"../acount.hcl\"\n}\n",
                ),
            ],
        );
        assert_eq!(
            found[0].help.as_deref(),
            Some("did you mean `account.hcl`?")
        );
        assert_eq!(found[0].secondary.len(), 1);
        let found = findings(
            &super::RULE,
            &[
                ("root.hcl", ""),
                (
                    "app/terragrunt.hcl",
                    "include \"root\" {\n  path = find_in_parent_folders()\n}\n",
                ),
            ],
        );
        assert_eq!(found.len(), 1);
        assert!(
            found[0]
                .help
                .as_deref()
                .is_some_and(|h| h.contains("find_in_parent_folders(\"root.hcl\")")),
            "{:?}",
            found[0].help
        );
        let found = findings(
            &super::RULE,
            &[
                (
                    "root.hcl",
                    "locals {\n  env = read_terragrunt_config(find_in_parent_folders(\"env.hcl\"))\n}\n",
                ),
                ("a/terragrunt.hcl", UNIT),
                ("b/terragrunt.hcl", UNIT),
            ],
        );
        assert!(
            found[0]
                .notes
                .iter()
                .any(|n| n.contains("and 1 other unit)")),
            "{:?}",
            found[0].notes
        );
    }
}
