//! A call to a module from a registry without a `version` constraint. The tools accept it and
//! `init` installs the newest release there is (hashicorp/terraform
//! `internal/initwd/module_install.go`), so the next `init` on another machine may install
//! another module than the one that was reviewed and planned with. TFLint's
//! `terraform_module_version` reports the same. The call is judged after override files are
//! merged: a `version` that only an override file sets counts. A null `version` is "no
//! version" for the releases that allow it, and for this rule.

use crate::diagnostic::Diagnostic;
use crate::knowledge::module_source::{self, SourceKind};
use crate::module::merge::{Address, MergedAttribute};

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_version_missing",
    severity: Warning,
    default: On,
    summary: "a call to a registry module without a version constraint",
    check: Check::View(RuleViews::Both, check),
};

const NOTE: &str = "Without a `version`, `init` installs the newest release of the module the \
                    registry has, and a later `init` (in CI, on a colleague's machine) may \
                    install another one, with other inputs, outputs and resources.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for object in &ctx.module.objects {
        let Address::ModuleCall(name) = &object.address else {
            continue;
        };
        let Some(source) = object.body.attribute("source") else {
            continue;
        };
        let Some(address) = source.expr.literal_string() else {
            continue;
        };
        let versioned = (object.body.attribute("version")).is_some_and(|v| !v.expr.is_null());
        if module_source::classify(address) == SourceKind::Registry && !versioned {
            out.push(module_version_missing(ctx, name, source, address));
        }
    }
}

/// `` module `vpc` calls `terraform-aws-modules/vpc/aws` without a version constraint ``
fn module_version_missing(
    ctx: &Context,
    name: &str,
    source: &MergedAttribute,
    address: &str,
) -> Diagnostic {
    ctx.finding(
        &RULE,
        format!("module `{name}` calls `{address}` without a version constraint"),
    )
    .at(
        ctx.files,
        source.expr.span,
        "a registry module, no `version`",
    )
    .with_note(NOTE)
    .with_help("add `version = \"~> X.Y\"` (or an exact version) to the module call")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "module \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \
             \"~> 5.0\"\n}\nmodule \"local\" {\n  source = \"./local\"\n}\nmodule \"git\" {\n  \
             source = \"git::https://example.com/m.git?ref=v1\"\n}\n",
        )],
        // The version comes from an override file.
        &[
            (
                "main.tf",
                "module \"vpc\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\n",
            ),
            (
                "override.tf",
                "module \"vpc\" {\n  version = \"5.1.0\"\n}\n",
            ),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf",
                "module \"vpc\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\n\
                 module \"private\" {\n  source  = \"app.terraform.io/org/vpc/aws\"\n  version = \
                 null\n}\n",
            )],
            2,
        ),
        (
            &[(
                "main.tf.json",
                "{\"module\": {\"vpc\": {\"source\": \"terraform-aws-modules/vpc/aws\"}}}",
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
