//! A variable without a default, of the module a Terragrunt unit deploys from a local source,
//! that the unit's effective `inputs` (its includes and merged imports merged in) do not set:
//! Terraform stops with "No value for required variable" when the unit runs. Nothing is
//! reported where the value may come from elsewhere: `inputs` whose keys are not all written,
//! a `TF_VAR_` variable or `-var`/var-file arguments in `extra_arguments`, a generated file,
//! or a `terraform.tfvars`/`*.auto.tfvars` file in the module.

use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::{ExprKind, File};
use crate::terragrunt::Tree;
use crate::terragrunt::effective::Effective;
use crate::types::object_key;

use crate::lint::helpers::terragrunt::units_with_modules;
use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_input_required_missing",
    severity: Error,
    default: On,
    summary: "a required variable of the unit's module that no Terragrunt input sets",
    check: Check::Terragrunt(check),
};

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    let tree = ctx.tree;
    for unit in units_with_modules(ctx) {
        let effective = &unit.effective;
        let Some((source, _)) = effective.source else {
            continue;
        };
        if !effective.inputs_complete || unit.module.has_tfvars {
            continue;
        }
        let Some(env_vars) = values_from_elsewhere(tree, effective) else {
            continue;
        };
        let module = tree.show(&unit.module.dir);
        let shown_unit = tree.show_file(tree.nodes[effective.unit].file);
        for (name, variable) in &unit.module.variables {
            let set = effective.inputs.contains_key(name)
                || env_vars
                    .iter()
                    .any(|v| v.strip_prefix("TF_VAR_") == Some(name));
            if variable.required && !set {
                out.push(required_missing(
                    ctx,
                    source.span,
                    name,
                    &module,
                    &shown_unit,
                ));
            }
        }
    }
}

/// The `TF_VAR_`-style names the unit's `extra_arguments` set in `env_vars`, or `None` when
/// values may come from somewhere not written statically: `env_vars` that is not an object
/// literal, `-var`/var-file arguments, or a `generate` block.
fn values_from_elsewhere(tree: &Tree, effective: &Effective) -> Option<Vec<String>> {
    let mut names = Vec::new();
    for layer in &effective.layers {
        let file: &File = tree.files[tree.nodes[layer.node].file].parsed.as_ref()?;
        if file.body.blocks_of("generate").next().is_some() {
            return None;
        }
        let extra =
            (file.body.blocks_of("terraform")).flat_map(|t| t.body.blocks_of("extra_arguments"));
        for block in extra {
            let body = &block.body;
            let passes_files = ["arguments", "required_var_files", "optional_var_files"]
                .iter()
                .any(|name| body.attribute(name).is_some());
            if passes_files {
                return None;
            }
            if let Some(env) = body.attribute("env_vars") {
                let ExprKind::Object(items) = &env.expr.kind else {
                    return None;
                };
                for item in items {
                    names.push(object_key(&item.key)?);
                }
            }
        }
    }
    Some(names)
}

/// `` No value for required variable `name` ``
fn required_missing(
    ctx: &TreeContext,
    source: Span,
    name: &str,
    module: &str,
    unit: &str,
) -> Diagnostic {
    ctx.finding(
        &RULE,
        format!("No value for required variable `{name}` of `{module}` in `{unit}`"),
    )
    .at(ctx.files(), source, format!("`{module}` requires `{name}`"))
    .with_note(format!(
        "The root module input variable \"{name}\" is not set, and has no default value: no \
         input of `{unit}` (with what it includes and merges in) sets it, so Terraform stops \
         when the unit runs."
    ))
    .with_help(format!(
        "set `{name}` in the unit's `inputs`, or give the variable a default in `{module}`"
    ))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const MODULE: &str = "variable \"name\" {\n  type = string\n}\n\
        variable \"size\" {\n  type = number\n}\n\
        variable \"tags\" {\n  default = {}\n}\n";
    const SOURCE: &str = "terraform {\n  source = \"../../modules/app\"\n}\n";

    const PASS: &[Files] = &[
        &[
            ("modules/app/main.tf", MODULE),
            (
                "live/app/terragrunt.hcl",
                "terraform {\n  source = \"../../modules/app\"\n}\n\
                 inputs = {\n  name = \"a\"\n  size = 1\n}\n",
            ),
        ],
        // Set by an included parent, and through a TF_VAR_ environment variable.
        &[
            ("modules/app/main.tf", MODULE),
            ("root.hcl", "inputs = {\n  name = \"a\"\n}\n"),
            (
                "live/app/terragrunt.hcl",
                "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n\
                 terraform {\n  source = \"../../modules/app\"\n\
                 extra_arguments \"vars\" {\n    commands = [\"plan\"]\n\
                 env_vars = {\n      TF_VAR_size = \"1\"\n    }\n  }\n}\n",
            ),
        ],
        // Inputs whose keys are not all written; a tfvars file in the module.
        &[
            ("modules/app/main.tf", MODULE),
            (
                "live/app/terragrunt.hcl",
                "terraform {\n  source = \"../../modules/app\"\n}\ninputs = local.inputs\n",
            ),
        ],
        &[
            ("modules/app/main.tf", MODULE),
            ("modules/app/terraform.tfvars", "name = \"a\"\nsize = 1\n"),
            ("live/app/terragrunt.hcl", SOURCE),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("modules/app/main.tf", MODULE),
                (
                    "live/app/terragrunt.hcl",
                    "terraform {\n  source = \"../../modules/app\"\n}\n\
                     inputs = {\n  name = \"a\"\n}\n",
                ),
            ],
            1,
        ),
        (
            &[
                ("modules/app/main.tf", MODULE),
                ("live/app/terragrunt.hcl", SOURCE),
            ],
            2,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
