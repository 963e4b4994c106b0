//! A Terragrunt path expression that cannot be worked out without running Terragrunt (a local,
//! an input, another function): the checks that need its target were skipped.

use crate::diagnostic::Diagnostic;
use crate::terragrunt::resolve::{Outcome, Stop};

use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_unresolvable_path",
    severity: Notice,
    default: On,
    summary: "a Terragrunt path that cannot be resolved statically, so its checks were skipped",
    check: Check::Terragrunt(check),
};

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    let tree = ctx.tree;
    let groups =
        tree.grouped_failures(|o| matches!(o, Outcome::Stopped(Stop::Unresolvable { .. })));
    for group in groups {
        let failure = group[0];
        let Outcome::Stopped(Stop::Unresolvable { span, why }) = &failure.outcome else {
            continue;
        };
        let reference = tree.reference(failure.node, failure.reference);
        let part = ctx.files().text(*span);
        let mut finding = ctx
            .finding(
                &RULE,
                format!(
                    "cannot resolve the path of this {} statically",
                    reference.kind.written()
                ),
            )
            .at(ctx.files(), *span, why.clone());
        if reference.site != *span && reference.path.span != *span {
            finding = finding.with_label(ctx.files(), reference.path.span, "in this path");
        }
        finding = finding.with_note(format!(
            "tflint-merge resolves string literals, find_in_parent_folders(), get_terragrunt_dir(), get_parent_terragrunt_dir(), get_repo_root() and templates built from them, and guesses nothing else: `{part}` is none of these. Missing targets and cycles through this {} were not checked.",
            reference.kind.written()
        ));
        let nodes: Vec<usize> = group.iter().map(|f| f.node).collect();
        if let Some(note) = tree.evaluated_for(&nodes) {
            finding = finding.with_note(note);
        }
        out.push(finding.with_help(
            "build the path from those functions, or silence this notice with `# tflint-merge-ignore: terragrunt_unresolvable_path`",
        ));
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{check_table, findings};

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[
                &[
                    ("root.hcl", ""),
                    (
                        "a/terragrunt.hcl",
                        "include \"root\" {\n  path = \"${get_terragrunt_dir()}/../root.hcl\"\n}\n",
                    ),
                ],
                // Ignored inline.
                &[(
                    "a/terragrunt.hcl",
                    "locals {\n  # tflint-merge-ignore: terragrunt_unresolvable_path  set by CI\n  env = read_terragrunt_config(local.env_file)\n}\n",
                )],
            ],
            &[
                (
                    &[(
                        "a/terragrunt.hcl",
                        "locals {\n  env = read_terragrunt_config(\"${local.root}/env.hcl\")\n}\n",
                    )],
                    1,
                ),
                (
                    &[(
                        "a/terragrunt.hcl",
                        "dependency \"vpc\" {\n  config_path = abspath(\"../vpc\")\n}\n",
                    )],
                    1,
                ),
            ],
        );
    }

    #[test]
    fn points_at_the_part_that_is_not_resolved() {
        let found = findings(
            &super::RULE,
            &[(
                "a/terragrunt.hcl",
                "locals {\n  env = read_terragrunt_config(\"${local.root}/env.hcl\")\n}\n",
            )],
        );
        let d = &found[0];
        let label = d.primary.as_ref().expect("primary");
        assert_eq!(&label.file.text[label.range.clone()], "local.root");
    }
}
