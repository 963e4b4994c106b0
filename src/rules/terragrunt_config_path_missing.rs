//! A Terragrunt reference whose path resolves to nothing: an include, import,
//! `read_terragrunt_config` or dependency target that does not exist, or a
//! `find_in_parent_folders()` search that reaches the file system root without a match.

use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::terragrunt::paths::dir_of;
use crate::terragrunt::refs::{RefKind, Reference};
use crate::terragrunt::resolve::{Missing, Outcome, Stop};
use crate::terragrunt::{UNIT_FILE, describe_missing};

use crate::lint::helpers::closest;
use crate::lint::helpers::terragrunt::{failed_references, with_optional_note};
use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_config_path_missing",
    severity: Error,
    default: On,
    summary: "a Terragrunt include, import, read or dependency path that leads to no file",
    check: Check::Terragrunt(check),
};

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    let failures = failed_references(ctx.tree, |o| {
        matches!(
            o,
            Outcome::Missing { .. } | Outcome::Stopped(Stop::NotInParents { .. })
        )
    });
    for failed in failures {
        let reference = failed.reference;
        let finding = match &failed.failure.outcome {
            Outcome::Missing { path, why } => missing_target(ctx, reference, path, *why),
            Outcome::Stopped(Stop::NotInParents {
                name,
                start,
                call,
                root_hcl,
            }) => not_in_parents(ctx, name, start, *call, root_hcl.as_deref()),
            _ => continue,
        };
        let finding = if reference.kind == RefKind::Read {
            finding
        } else {
            let label = format!("in this {}", reference.kind.written());
            finding.with_label(ctx.files(), reference.site, label)
        };
        out.push(with_optional_note(finding, failed.evaluated_for));
    }
}

/// `include target `../root.hcl` does not exist` (or is a directory, or is not a unit)
fn missing_target(
    ctx: &TreeContext,
    reference: &Reference,
    path: &Path,
    why: Missing,
) -> Diagnostic {
    let shown = ctx.tree.show(path);
    let what = match why {
        Missing::NoSuchPath => "does not exist",
        Missing::IsDirectory => "is a directory",
        Missing::NoConfigInDirectory => "is not a Terragrunt unit",
    };
    let message = format!("{} target `{shown}` {what}", reference.kind.written());
    let (label, note) = describe_missing(ctx.tree, reference.kind, path, why);
    let help = match why {
        Missing::NoSuchPath => similar_name(path)
            .map(|name| format!("did you mean `{name}`?"))
            .unwrap_or_else(|| "fix the path, or create the file".to_string()),
        Missing::IsDirectory => {
            format!("name the configuration file in the directory (`{shown}/{UNIT_FILE}`?)")
        }
        Missing::NoConfigInDirectory => {
            "point it at a directory that holds a terragrunt.hcl".to_string()
        }
    };
    ctx.finding(&RULE, message)
        .at(ctx.files(), reference.path.span, label)
        .with_note(note)
        .with_help(help)
}

/// `no folder above `prod/app` holds `root.hcl``
fn not_in_parents(
    ctx: &TreeContext,
    name: &str,
    start: &Path,
    call: Span,
    root_hcl: Option<&Path>,
) -> Diagnostic {
    let from = ctx.tree.show(start);
    let help = match root_hcl {
        Some(root) => format!(
            "the root configuration here is `{}`: use `find_in_parent_folders(\"root.hcl\")`",
            ctx.tree.show(root)
        ),
        None => format!(
            "add `{name}` to a folder above `{from}`, or give a fallback as the second argument"
        ),
    };
    ctx.finding(&RULE, format!("no folder above `{from}` holds `{name}`"))
        .at(ctx.files(), call, format!("finds no `{name}`"))
        .with_note(format!(
            "find_in_parent_folders() searches the folders above `{from}` up to the file system \
             root and fails when none holds `{name}`: this chain never reaches its root."
        ))
        .with_help(help)
}

/// A name close to the missing file's, in the directory it should be in.
fn similar_name(path: &Path) -> Option<String> {
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
    use crate::lint::testing::live_layout::{self, overriding_unit};
    use crate::lint::testing::{DEPENDENCY_VPC, Files, INCLUDE_ROOT, check_table, findings};

    /// A root that reads `env.hcl`, found from each unit's directory.
    const ROOT_READS_ENV: &str = concat!(
        "locals {\n",
        "  env = read_terragrunt_config(find_in_parent_folders(\"env.hcl\"))\n",
        "}\n",
    );

    /// Two units that both lack `env.hcl`, which their root reads.
    const NO_ENV_FOR_TWO_UNITS: Files = &[
        ("root.hcl", ROOT_READS_ENV),
        ("a/terragrunt.hcl", INCLUDE_ROOT),
        ("b/terragrunt.hcl", INCLUDE_ROOT),
    ];

    const IMPORT_MISSPELLED_ACCOUNT: &str =
        "import \"account\" {\n  config_path = \"../acount.hcl\"\n}\n";

    const PASS: &[Files] = &[
        live_layout::TREE,
        // `terragrunt.hcl.json` units are read, and their dependencies found.
        live_layout::JSON_TREE,
        // A stack whose unit comes from the catalog, and one from a repository.
        &[
            ("live/terragrunt.stack.hcl", live_layout::STACK),
            (
                "catalog/units/app/terragrunt.hcl",
                live_layout::STACK_UNIT_TEMPLATE,
            ),
        ],
        &[(
            "live/terragrunt.stack.hcl",
            "unit \"vpc\" {\n  source = \"git::https://example.com/units.git//vpc\"\n\
             path = \"vpc\"\n}\n",
        )],
        // Terragrunt Stacks templates, in a catalog and below a stack: judged once generated.
        &[(
            "catalog/units/app/terragrunt.hcl",
            live_layout::STACK_UNIT_TEMPLATE,
        )],
        &[
            ("live/terragrunt.stack.hcl", live_layout::STACK),
            (
                "catalog/units/app/terragrunt.hcl",
                live_layout::STACK_UNIT_TEMPLATE,
            ),
            ("live/app/terragrunt.hcl", live_layout::STACK_UNIT_TEMPLATE),
        ],
        // The generated copy is judged where it stands: here everything it names is there.
        &[
            ("root.hcl", ""),
            ("live/terragrunt.stack.hcl", live_layout::STACK),
            (
                "catalog/units/app/terragrunt.hcl",
                live_layout::STACK_UNIT_TEMPLATE,
            ),
            (
                "live/.terragrunt-stack/app/terragrunt.hcl",
                live_layout::STACK_UNIT_TEMPLATE,
            ),
            ("live/.terragrunt-stack/db/terragrunt.hcl", ""),
        ],
        // A placeholder path in the parent, replaced by the unit's own dependency.
        &[
            (
                "root.hcl",
                "dependency \"vpc\" {\n  config_path = \"../placeholder\"\n}\n",
            ),
            ("vpc/terragrunt.hcl", ""),
            ("app/terragrunt.hcl", overriding_unit!("")),
        ],
        &[("root.hcl", ""), ("app/terragrunt.hcl", INCLUDE_ROOT)],
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
                concat!(
                    "locals {\n",
                    "  env = read_terragrunt_config(",
                    "find_in_parent_folders(\"env.hcl\", \"default.hcl\"))\n",
                    "}\n",
                ),
            ),
        ],
        // A dependency on a unit.
        &[
            ("vpc/terragrunt.hcl", ""),
            ("app/terragrunt.hcl", DEPENDENCY_VPC),
        ],
        // The root includes a file found from each unit's directory.
        &[
            ("root.hcl", ROOT_READS_ENV),
            ("prod/env.hcl", ""),
            ("prod/app/terragrunt.hcl", INCLUDE_ROOT),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        // A unit `terragrunt stack generate` wrote, whose dependency was not generated.
        (
            &[
                ("root.hcl", ""),
                ("live/terragrunt.stack.hcl", live_layout::STACK),
                (
                    "catalog/units/app/terragrunt.hcl",
                    live_layout::STACK_UNIT_TEMPLATE,
                ),
                (
                    "live/.terragrunt-stack/app/terragrunt.hcl",
                    live_layout::STACK_UNIT_TEMPLATE,
                ),
            ],
            1,
        ),
        // A stack's unit template that is not there.
        (&[("live/terragrunt.stack.hcl", live_layout::STACK)], 1),
        // A JSON unit's dependency on a unit that is not there.
        (
            &[
                ("root.hcl", ""),
                ("_envcommon/app.hcl", ""),
                ("prod/app/terragrunt.hcl.json", live_layout::UNIT_APP_JSON),
            ],
            1,
        ),
        // The chain never reaches a root.
        (&[("app/terragrunt.hcl", INCLUDE_ROOT)], 1),
        (
            &[
                ("prod/account.hcl", ""),
                ("prod/us/region.hcl", IMPORT_MISSPELLED_ACCOUNT),
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
                concat!(
                    "dependency \"vpc\" {\n  config_path = \"../vpc\"\n}\n",
                    "dependencies {\n  paths = [\"../db\"]\n}\n",
                ),
            )],
            2,
        ),
        // A directory without terragrunt.hcl.
        (
            &[("vpc/main.tf", ""), ("app/terragrunt.hcl", DEPENDENCY_VPC)],
            1,
        ),
        // Evaluated for two units that both lack env.hcl: one finding.
        (NO_ENV_FOR_TWO_UNITS, 1),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn suggests_a_close_name_and_root_hcl() {
        let found = findings(
            &super::RULE,
            &[
                ("prod/account.hcl", ""),
                ("prod/us/terragrunt.hcl", IMPORT_MISSPELLED_ACCOUNT),
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
        let found = findings(&super::RULE, NO_ENV_FOR_TWO_UNITS);
        let notes = &found[0].notes;
        assert!(
            notes.iter().any(|n| n.contains("and 1 other unit)")),
            "{notes:?}"
        );
    }
}
