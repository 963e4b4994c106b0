//! A reference to `import.<label>` in a Terragrunt file that declares no `import` block of that
//! label: in Terragrunt's imports design the imports of a configuration are the only values under
//! `import`, so the reference fails to evaluate, usually over a misspelled label.

use crate::diagnostic::Diagnostic;
use crate::source::Span;

use crate::lint::helpers::closest;
use crate::lint::helpers::terragrunt::import_use_sites;
use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_import_undeclared",
    severity: Error,
    default: On,
    summary: "a reference to an import the Terragrunt file does not declare",
    check: Check::Terragrunt(check),
};

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    for site in import_use_sites(ctx.tree) {
        let name = site.import_use.name.as_str();
        if site.declared.contains(&name) {
            continue;
        }
        let suggestion = closest(name, site.declared.iter().copied());
        out.push(undeclared_import(
            ctx,
            site.import_use.span,
            name,
            &site.declared,
            suggestion,
        ));
    }
}

/// `` Reference to undeclared import `rot` ``
fn undeclared_import(
    ctx: &TreeContext,
    span: Span,
    name: &str,
    declared: &[&str],
    suggestion: Option<&str>,
) -> Diagnostic {
    let note = match declared {
        [] => format!(
            "This file declares no `import` block: Terragrunt has no value `import.{name}` and \
             fails to evaluate the reference."
        ),
        _ => {
            let shown: Vec<String> = declared.iter().map(|d| format!("`{d}`")).collect();
            format!(
                "The imports of this file are {}: Terragrunt has no value `import.{name}` and \
                 fails to evaluate the reference.",
                shown.join(", ")
            )
        }
    };
    let help = match suggestion {
        Some(s) => format!("did you mean `import.{s}`?"),
        None => format!("declare the import: `import \"{name}\" {{ config_path = ... }}`"),
    };
    ctx.finding(&RULE, format!("Reference to undeclared import `{name}`"))
        .at(ctx.files(), span, "no `import` block of this label")
        .with_note(note)
        .with_help(help)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const IMPORT_ROOT: &str = "import \"root\" {\n  config_path = \"../root.hcl\"\n}\n";

    const PASS: &[Files] = &[
        &[
            ("root.hcl", "inputs = {\n  a = 1\n}\n"),
            (
                "app/terragrunt.hcl",
                concat!(
                    "import \"root\" {\n  config_path = \"../root.hcl\"\n}\n",
                    "inputs = import.root.inputs\n",
                ),
            ),
        ],
        // A local or an include named `import` is not an import reference.
        &[(
            "app/terragrunt.hcl",
            "locals {\n  import = 1\n}\ninputs = {\n  x = local.import\n}\n",
        )],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("root.hcl", "inputs = {\n  a = 1\n}\n"),
                (
                    "app/terragrunt.hcl",
                    concat!(
                        "import \"root\" {\n  config_path = \"../root.hcl\"\n}\n",
                        "inputs = import.rot.inputs\n",
                    ),
                ),
            ],
            1,
        ),
        // In a template, and in a file without imports.
        (
            &[(
                "app/terragrunt.hcl",
                "inputs = {\n  name = \"${import.env.inputs.name}-app\"\n}\n",
            )],
            1,
        ),
        // In an imported file, reported once however many units import it.
        (
            &[
                ("root.hcl", "inputs = {\n  a = import.region.inputs\n}\n"),
                ("a/terragrunt.hcl", IMPORT_ROOT),
                ("b/terragrunt.hcl", IMPORT_ROOT),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn suggests_the_closest_label() {
        let found = findings(&super::RULE, FAIL[0].0);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].message, "Reference to undeclared import `rot`");
        assert_eq!(
            found[0].help.as_deref(),
            Some("did you mean `import.root`?")
        );
    }
}
