//! A Terragrunt path expression that cannot be worked out without running Terragrunt (a local,
//! an input, another function): the checks that need its target were skipped.

use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::terragrunt::resolve::{Outcome, Stop};

use crate::lint::helpers::terragrunt::{FailedReference, failed_references, with_optional_note};
use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_unresolvable_path",
    severity: Notice,
    default: On,
    summary: "a Terragrunt path that cannot be resolved statically, so its checks were skipped",
    check: Check::Terragrunt(check),
};

const HELP: &str = "build the path from those functions, or silence this notice with \
    `# tflint-merge-ignore: terragrunt_unresolvable_path`";

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    let unresolvable = |o: &Outcome| matches!(o, Outcome::Stopped(Stop::Unresolvable { .. }));
    for failed in failed_references(ctx.tree, unresolvable) {
        let Outcome::Stopped(Stop::Unresolvable { span, why }) = &failed.failure.outcome else {
            continue;
        };
        out.push(unresolvable_path(ctx, &failed, *span, why));
    }
}

/// `cannot resolve the path of this include statically`, at the part that is not resolved
fn unresolvable_path(
    ctx: &TreeContext,
    failed: &FailedReference,
    part: Span,
    why: &str,
) -> Diagnostic {
    let reference = failed.reference;
    let kind = reference.kind.written();
    let finding = ctx
        .finding(
            &RULE,
            format!("cannot resolve the path of this {kind} statically"),
        )
        .at(ctx.files(), part, why.to_string());
    let finding = if reference.site != part && reference.path.span != part {
        finding.with_label(ctx.files(), reference.path.span, "in this path")
    } else {
        finding
    };
    let finding = finding.with_note(format!(
        "tflint-merge resolves string literals, find_in_parent_folders(), get_terragrunt_dir(), \
         get_parent_terragrunt_dir(), get_repo_root() and templates built from them, and \
         guesses nothing else: `{}` is none of these. Missing targets and cycles through this \
         {kind} were not checked.",
        ctx.files().text(part)
    ));
    with_optional_note(finding, failed.evaluated_for.clone()).with_help(HELP)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::live_layout;
    use crate::lint::testing::{Files, check_table, findings};

    const READS_FROM_A_LOCAL: Files = &[(
        "a/terragrunt.hcl",
        "locals {\n  env = read_terragrunt_config(\"${local.root}/env.hcl\")\n}\n",
    )];

    const PASS: &[Files] = &[
        // Gruntwork's standard layout resolves everywhere: `dirname(...)`,
        // `path_relative_to_include()` and the reads of account, region and environment files.
        live_layout::TREE,
        // The same functions in a JSON unit's templates.
        live_layout::JSON_TREE,
        &[(
            "catalog/units/app/terragrunt.hcl",
            live_layout::STACK_UNIT_TEMPLATE,
        )],
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
            concat!(
                "locals {\n",
                "  # tflint-merge-ignore: terragrunt_unresolvable_path  set by CI\n",
                "  env = read_terragrunt_config(local.env_file)\n",
                "}\n",
            ),
        )],
    ];

    const FAIL: &[(Files, usize)] = &[
        (READS_FROM_A_LOCAL, 1),
        (
            &[(
                "a/terragrunt.hcl",
                "dependency \"vpc\" {\n  config_path = abspath(\"../vpc\")\n}\n",
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn points_at_the_part_that_is_not_resolved() {
        let found = findings(&super::RULE, READS_FROM_A_LOCAL);
        let d = &found[0];
        let label = d.primary.as_ref().expect("primary");
        assert_eq!(&label.file.text[label.range.clone()], "local.root");
    }
}
