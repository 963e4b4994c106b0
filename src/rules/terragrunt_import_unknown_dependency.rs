//! A reference to a dependency through an import, `import.<label>.dependency.<name>`, where the
//! imported configuration (with what its own merged imports bring) declares no `dependency`
//! block of that name. Terragrunt's imports design reads an imported file's dependencies by
//! name; a name it does not declare fails as HCL's "Unsupported attribute", usually over a
//! misspelled dependency or one declared in another file.

use crate::diagnostic::Diagnostic;
use crate::source::Span;

use crate::lint::helpers::closest;
use crate::lint::helpers::terragrunt::import_use_sites;
use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_import_unknown_dependency",
    severity: Error,
    default: On,
    summary: "a dependency read through an import that the imported Terragrunt file does not declare",
    check: Check::Terragrunt(check),
};

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    let tree = ctx.tree;
    for site in import_use_sites(tree) {
        let (Some(target), [first, dependency, ..]) =
            (site.target, site.import_use.steps.as_slice())
        else {
            continue;
        };
        if first != "dependency" {
            continue;
        }
        let exposed = tree.exposed(target);
        let declared = exposed.labels("dependency");
        if !exposed.complete || declared.contains(dependency.as_str()) {
            continue;
        }
        let suggestion = closest(dependency, declared.iter().copied());
        out.push(unknown_dependency(
            ctx,
            site.import_use.span,
            &site.import_use.name,
            dependency,
            &tree.show_file(tree.nodes[target].file),
            suggestion,
        ));
    }
}

/// `` `import.root` declares no dependency `db` ``
fn unknown_dependency(
    ctx: &TreeContext,
    span: Span,
    import: &str,
    dependency: &str,
    file: &str,
    suggestion: Option<&str>,
) -> Diagnostic {
    let help = match suggestion {
        Some(s) => format!("did you mean `import.{import}.dependency.{s}`?"),
        None => format!(
            "declare `dependency \"{dependency}\"` in `{file}`, or in this file and read it as \
             `dependency.{dependency}`"
        ),
    };
    ctx.finding(
        &RULE,
        format!("`import.{import}` declares no dependency `{dependency}`"),
    )
    .at(
        ctx.files(),
        span,
        format!("no `dependency \"{dependency}\"` in `{file}`"),
    )
    .with_note(format!(
        "An import exposes the `dependency` blocks of the imported file and of the files it \
         merges in, by name; `{file}` has none named `{dependency}`, so Terragrunt fails with: \
         Unsupported attribute; This object does not have an attribute named \
         \"{dependency}\"."
    ))
    .with_help(help)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const VPC_DEPENDENCY: &str = "dependency \"vpc\" {\n  config_path = \"vpc\"\n}\n";

    fn unit(reference: &str) -> String {
        format!(
            "import \"deps\" {{\n  config_path = \"../deps.hcl\"\n}}\n\
             inputs = {{\n  id = {reference}\n}}\n"
        )
    }

    const PASS: &[Files] = &[
        &[
            ("vpc/terragrunt.hcl", ""),
            ("deps.hcl", VPC_DEPENDENCY),
            (
                "app/terragrunt.hcl",
                concat!(
                    "import \"deps\" {\n  config_path = \"../deps.hcl\"\n}\n",
                    "inputs = {\n  id = import.deps.dependency.vpc.outputs.id\n}\n",
                ),
            ),
        ],
        // Declared in a file the imported file merges in.
        &[
            ("vpc/terragrunt.hcl", ""),
            (
                "vpc.hcl",
                "dependency \"vpc\" {\n  config_path = \"vpc\"\n}\n",
            ),
            (
                "deps.hcl",
                "import \"vpc\" {\n  config_path = \"vpc.hcl\"\n  merge = true\n}\n",
            ),
            (
                "app/terragrunt.hcl",
                concat!(
                    "import \"deps\" {\n  config_path = \"../deps.hcl\"\n}\n",
                    "inputs = {\n  id = import.deps.dependency.vpc.outputs.id\n}\n",
                ),
            ),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[(
        &[
            ("vpc/terragrunt.hcl", ""),
            ("deps.hcl", VPC_DEPENDENCY),
            (
                "app/terragrunt.hcl",
                concat!(
                    "import \"deps\" {\n  config_path = \"../deps.hcl\"\n}\n",
                    "inputs = {\n  id = import.deps.dependency.db.outputs.id\n}\n",
                ),
            ),
        ],
        1,
    )];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn suggests_a_declared_dependency() {
        let text = unit("import.deps.dependency.vpx.outputs.id");
        let files: &[(&str, &str)] = &[
            ("vpc/terragrunt.hcl", ""),
            ("deps.hcl", VPC_DEPENDENCY),
            ("app/terragrunt.hcl", &text),
        ];
        let found = findings(&super::RULE, files);
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].message,
            "`import.deps` declares no dependency `vpx`"
        );
        assert_eq!(
            found[0].help.as_deref(),
            Some("did you mean `import.deps.dependency.vpc`?")
        );
    }
}
