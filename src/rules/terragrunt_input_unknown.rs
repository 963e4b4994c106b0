//! An input a Terragrunt unit sets that the module it deploys does not declare: Terragrunt
//! passes each input as a `TF_VAR_` environment variable, and Terraform ignores one that names no
//! variable, so a misspelled input is silently lost. Only a local `terraform { source }` is
//! compared (the module's effective module, override files merged), and only the inputs the
//! unit's own file sets: inputs of a shared parent are meant for many modules at once.

use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::terragrunt::effective::Contribution;

use crate::lint::helpers::closest;
use crate::lint::helpers::terragrunt::units_with_modules;
use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_input_unknown",
    severity: Warning,
    default: On,
    summary: "a Terragrunt input that the unit's module does not declare",
    check: Check::Terragrunt(check),
};

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    let tree = ctx.tree;
    for unit in units_with_modules(ctx) {
        let own = unit.effective.unit;
        debug_assert!(matches!(
            unit.effective.layers.last().map(|l| l.how),
            Some(Contribution::Unit)
        ));
        for (name, input) in &unit.effective.inputs {
            if input.node != own || unit.module.variables.contains_key(name) {
                continue;
            }
            let names = unit.module.variables.keys().map(String::as_str);
            let module = tree.show(&unit.module.dir);
            out.push(unknown_input(
                ctx,
                input.key.span,
                name,
                &module,
                closest(name, names),
            ));
        }
    }
}

/// `` Input `instance_typ` is not a variable of `modules/app` ``
fn unknown_input(
    ctx: &TreeContext,
    key: Span,
    name: &str,
    module: &str,
    suggestion: Option<&str>,
) -> Diagnostic {
    let help = match suggestion {
        Some(s) => format!("did you mean `{s}`?"),
        None => format!("remove the input, or declare `variable \"{name}\"` in `{module}`"),
    };
    ctx.finding(
        &RULE,
        format!("Input `{name}` is not a variable of `{module}`"),
    )
    .at(ctx.files(), key, "no variable of this name")
    .with_note(format!(
        "Terragrunt passes each input as the environment variable `TF_VAR_{name}`, and \
         Terraform ignores one that names no variable of the module: the value is lost without \
         a word."
    ))
    .with_help(help)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const MODULE: &str = "variable \"instance_type\" {\n  type = string\n}\n\
        variable \"tags\" {\n  default = {}\n}\n";

    const PASS: &[Files] = &[
        &[
            ("modules/app/main.tf", MODULE),
            (
                "live/app/terragrunt.hcl",
                "terraform {\n  source = \"../../modules/app\"\n}\n\
                 inputs = {\n  instance_type = \"t3.micro\"\n}\n",
            ),
        ],
        // An input declared by an override file of the module.
        &[
            ("modules/app/main.tf", MODULE),
            (
                "modules/app/extra_override.tf",
                "variable \"tags\" {\n  default = {a = 1}\n}\n",
            ),
            (
                "modules/app/more.tf",
                "variable \"extra\" {\n  default = 1\n}\n",
            ),
            (
                "live/app/terragrunt.hcl",
                "terraform {\n  source = \"../../modules//app\"\n}\n\
                 inputs = {\n  instance_type = \"t3.micro\"\n  extra = 2\n}\n",
            ),
        ],
        // A shared parent's inputs, meant for many modules; a remote source.
        &[
            ("modules/app/main.tf", MODULE),
            ("root.hcl", "inputs = {\n  region = \"eu\"\n}\n"),
            (
                "live/app/terragrunt.hcl",
                "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n\
                 terraform {\n  source = \"../../modules/app\"\n}\n\
                 inputs = {\n  instance_type = \"t3.micro\"\n}\n",
            ),
        ],
        &[(
            "live/app/terragrunt.hcl",
            "terraform {\n  source = \"tfr:///terraform-aws-modules/vpc/aws?version=5.8.1\"\n}\n\
             inputs = {\n  anything = 1\n}\n",
        )],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("modules/app/main.tf", MODULE),
                (
                    "live/app/terragrunt.hcl",
                    "terraform {\n  source = \"../../modules/app\"\n}\n\
                     inputs = {\n  instance_typ = \"t3.micro\"\n}\n",
                ),
            ],
            1,
        ),
        // The source set in an included file, the inputs merged with `merge()`.
        (
            &[
                ("modules/app/main.tf", MODULE),
                (
                    "_envcommon/app.hcl",
                    "terraform {\n  source = \"${get_terragrunt_dir()}/../../modules/app\"\n}\n",
                ),
                (
                    "live/app/terragrunt.hcl",
                    "include \"app\" {\n  path = \"../../_envcommon/app.hcl\"\n}\n\
                     inputs = merge({ instance_type = \"a\" }, { tag = {} })\n",
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
    fn suggests_the_variable() {
        let found = findings(&super::RULE, FAIL[0].0);
        assert_eq!(
            found[0].help.as_deref(),
            Some("did you mean `instance_type`?")
        );
    }
}
