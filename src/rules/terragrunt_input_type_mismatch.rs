//! A literal Terragrunt input whose value does not convert to the type of the module variable
//! it sets: Terraform refuses it when the unit runs ("Invalid value for input variable").
//! Terragrunt passes inputs as `TF_VAR_` environment variables, which Terraform reads as a raw
//! string for a `string` variable (any value is a string then) and as an expression converted to
//! the type otherwise; only literal values are judged, with the conversion Terraform applies.

use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::types::{Conversion, Type, convert};

use crate::lint::helpers::terragrunt::units_with_modules;
use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_input_type_mismatch",
    severity: Error,
    default: On,
    summary: "a literal Terragrunt input that does not convert to its variable's type",
    check: Check::Terragrunt(check),
};

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    let tree = ctx.tree;
    let mut seen = std::collections::BTreeSet::new();
    for unit in units_with_modules(ctx) {
        for (name, input) in &unit.effective.inputs {
            let Some(ty) = unit.module.variables.get(name).and_then(|v| v.ty.as_ref()) else {
                continue;
            };
            if matches!(ty, Type::String | Type::Any) {
                continue;
            }
            if let Conversion::Invalid(reason) = convert(input.value, ty)
                && seen.insert((input.value.span, name.clone()))
            {
                let module = tree.show(&unit.module.dir);
                out.push(type_mismatch(ctx, input.value.span, name, &module, &reason));
            }
        }
    }
}

/// `` Invalid value for input variable `size` of `modules/app` ``
fn type_mismatch(
    ctx: &TreeContext,
    value: Span,
    name: &str,
    module: &str,
    reason: &str,
) -> Diagnostic {
    ctx.finding(
        &RULE,
        format!("Invalid value for input variable `{name}` of `{module}`"),
    )
    .at(ctx.files(), value, reason.to_string())
    .with_note(format!(
        "Terraform converts the input to the variable's type when the unit runs, and fails: \
         {reason}."
    ))
    .with_help(format!("give `{name}` a value of the variable's type"))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const MODULE: &str = "variable \"name\" {\n  type = string\n}\n\
        variable \"size\" {\n  type = number\n}\n\
        variable \"zones\" {\n  type = list(string)\n  default = []\n}\n";

    const PASS: &[Files] = &[&[
        ("modules/app/main.tf", MODULE),
        (
            "live/app/terragrunt.hcl",
            "terraform {\n  source = \"../../modules/app\"\n}\n\
             inputs = {\n  name = [\"any\", \"value\"]\n  size = \"2\"\n  zones = [\"a\"]\n}\n",
        ),
    ]];

    const FAIL: &[(Files, usize)] = &[(
        &[
            ("modules/app/main.tf", MODULE),
            (
                "live/app/terragrunt.hcl",
                "terraform {\n  source = \"../../modules/app\"\n}\n\
                 inputs = {\n  name = \"a\"\n  size = \"large\"\n  zones = \"a\"\n}\n",
            ),
        ],
        2,
    )];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
