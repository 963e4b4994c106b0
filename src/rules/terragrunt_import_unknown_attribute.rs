//! A reference to a block, attribute or local that the imported configuration does not have:
//! `import.root.remote_state.backend` where `root.hcl` (with what its own merged imports bring)
//! sets no `remote_state`. Terragrunt turns an imported configuration into an object of the
//! blocks and attributes it sets (`TerragruntConfigAsCty` in gruntwork-io/terragrunt
//! `pkg/config/config_as_cty.go`), so the reference fails as HCL's "Unsupported attribute".
//! A reference through a `dependency` is `terragrunt_import_unknown_dependency`'s.

use crate::diagnostic::Diagnostic;
use crate::source::Span;

use crate::lint::helpers::closest;
use crate::lint::helpers::terragrunt::import_use_sites;
use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_import_unknown_attribute",
    severity: Error,
    default: On,
    summary: "a reference to a block, attribute or local an imported Terragrunt file does not have",
    check: Check::Terragrunt(check),
};

/// What a reference names that the imported configuration lacks.
struct Unknown<'a> {
    import: &'a str,
    /// `remote_state`, or `locals.name`.
    written: String,
    /// The missing name alone, as HCL's detail names it.
    name: &'a str,
    /// The imported file, as shown.
    file: String,
    suggestion: Option<&'a str>,
}

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    let tree = ctx.tree;
    for site in import_use_sites(tree) {
        let Some(target) = site.target else {
            continue;
        };
        let exposed = tree.exposed(target);
        let steps = &site.import_use.steps;
        if !exposed.complete {
            continue;
        }
        let file = tree.show_file(tree.nodes[target].file);
        let import = site.import_use.name.as_str();
        let unknown = match steps.as_slice() {
            [] => None,
            [first, ..] if first == "dependency" => None,
            [first, local, ..] if first == "locals" && exposed.has("locals") => {
                let locals = exposed.locals();
                (!locals.contains(local.as_str())).then(|| Unknown {
                    import,
                    written: format!("locals.{local}"),
                    name: local,
                    file,
                    suggestion: closest(local, locals.iter().copied()),
                })
            }
            [first, ..] => (!exposed.has(first)).then(|| Unknown {
                import,
                written: first.clone(),
                name: first,
                file,
                suggestion: None,
            }),
        };
        if let Some(unknown) = unknown {
            out.push(unknown_attribute(ctx, site.import_use.span, &unknown));
        }
    }
}

/// `` Unsupported attribute: `import.root` has no `remote_state` ``
fn unknown_attribute(ctx: &TreeContext, span: Span, unknown: &Unknown) -> Diagnostic {
    let Unknown {
        import,
        written,
        name,
        file,
        suggestion,
    } = unknown;
    let help = match suggestion {
        Some(s) => format!("did you mean `import.{import}.locals.{s}`?"),
        None => format!("set `{written}` in `{file}`, or read it from the file that sets it"),
    };
    ctx.finding(
        &RULE,
        format!("Unsupported attribute: `import.{import}` has no `{written}`"),
    )
    .at(ctx.files(), span, format!("`{file}` sets no `{written}`"))
    .with_note(format!(
        "The import `{import}` is `{file}` with what its own merged imports bring, and none of \
         them sets `{written}`: Terragrunt fails with: Unsupported attribute; This object does \
         not have an attribute named \"{name}\"."
    ))
    .with_help(help)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const ROOT: &str = "locals {\n  region = \"eu\"\n}\ninputs = {\n  a = 1\n}\n";

    const PASS: &[Files] = &[
        // Set in the file, in a file it merges in (deep or shallow), always there, unknown.
        &[
            ("root.hcl", ROOT),
            (
                "app/terragrunt.hcl",
                concat!(
                    "import \"root\" {\n  config_path = \"../root.hcl\"\n}\n",
                    "inputs = merge(import.root.inputs, {\n",
                    "  region = import.root.locals.region\n",
                    "  dir    = import.root.terragrunt_dir\n",
                    "})\n",
                ),
            ),
        ],
        &[
            ("state.hcl", "remote_state {\n  backend = \"s3\"\n}\n"),
            (
                "env.hcl",
                "import \"state\" {\n  config_path = \"state.hcl\"\n  deep_merge = true\n}\n",
            ),
            (
                "app/terragrunt.hcl",
                concat!(
                    "import \"env\" {\n  config_path = \"../env.hcl\"\n}\n",
                    "inputs = {\n  backend = import.env.remote_state.backend\n}\n",
                ),
            ),
        ],
        // A merged import that is not resolved statically: absence proves nothing.
        &[
            (
                "env.hcl",
                "import \"state\" {\n  config_path = local.state\n  merge = true\n}\n",
            ),
            (
                "app/terragrunt.hcl",
                concat!(
                    "import \"env\" {\n  config_path = \"../env.hcl\"\n}\n",
                    "inputs = {\n  backend = import.env.remote_state.backend\n}\n",
                ),
            ),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("root.hcl", ROOT),
                (
                    "app/terragrunt.hcl",
                    concat!(
                        "import \"root\" {\n  config_path = \"../root.hcl\"\n}\n",
                        "inputs = {\n  backend = import.root.remote_state.backend\n}\n",
                    ),
                ),
            ],
            1,
        ),
        // A local the imported file does not set.
        (
            &[
                ("root.hcl", ROOT),
                (
                    "app/terragrunt.hcl",
                    concat!(
                        "import \"root\" {\n  config_path = \"../root.hcl\"\n}\n",
                        "inputs = {\n  region = import.root.locals.regoin\n}\n",
                    ),
                ),
            ],
            1,
        ),
        // An import the imported file does not merge (no `merge`) exposes nothing more.
        (
            &[
                ("state.hcl", "remote_state {\n  backend = \"s3\"\n}\n"),
                (
                    "env.hcl",
                    "import \"state\" {\n  config_path = \"state.hcl\"\n}\n",
                ),
                (
                    "app/terragrunt.hcl",
                    concat!(
                        "import \"env\" {\n  config_path = \"../env.hcl\"\n}\n",
                        "inputs = {\n  backend = import.env.remote_state.backend\n}\n",
                    ),
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
    fn suggests_a_local() {
        let found = findings(&super::RULE, FAIL[1].0);
        assert_eq!(
            found[0].message,
            "Unsupported attribute: `import.root` has no `locals.regoin`"
        );
        assert_eq!(
            found[0].help.as_deref(),
            Some("did you mean `import.root.locals.region`?")
        );
    }
}
