//! An override passes a module an input its (local) source declares no variable for. The tools
//! merge a module call's bodies and read the base's leniently (hashicorp/terraform
//! `internal/configs/module_merge_body.go`, `PartialContent`), so the typo is dropped without a
//! word. (Variables, outputs and `lifecycle` blocks are decoded with their full schema in override
//! files too: a misspelled argument there is `unsupported_construct`'s error.)

use crate::diagnostic::Diagnostic;
use crate::knowledge::blocks::MODULE_CALL_META;
use crate::module::merge::{Address, MergedAttribute, MergedObject, Origin};

use crate::lint::helpers::closest;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_misspelled_argument",
    severity: Warning,
    default: On,
    summary: "an override argument the overridden block does not have",
    check: Check::View(RuleViews::Both, check),
};

const NOTE: &str = "Terraform and OpenTofu read an overridden module call leniently: an input \
                    the module does not declare is dropped without an error, so the override \
                    silently does nothing.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for object in &ctx.module.objects {
        if matches!(object.address, Address::ModuleCall(_)) && !object.overrides.is_empty() {
            check_module_inputs(ctx, object, out);
        }
    }
}

fn check_module_inputs(ctx: &Context, object: &MergedObject, out: &mut Vec<Diagnostic>) {
    let Some(source) = object
        .body
        .attribute("source")
        .and_then(|s| s.expr.literal_string())
    else {
        return;
    };
    if !(source.starts_with("./") || source.starts_with("../")) {
        return; // a remote module: its variables are not here to read
    }
    let Some(variables) = ctx.neighbours.variables(&ctx.dir.join(source), ctx.view) else {
        return;
    };
    for attr in object
        .body
        .attributes
        .iter()
        .filter(|a| a.origin == Origin::Override)
    {
        if MODULE_CALL_META.contains(&attr.name.as_str())
            || variables.iter().any(|v| v == &attr.name)
        {
            continue;
        }
        let known = variables.iter().map(String::as_str);
        out.push(unknown_input(ctx, object, source, attr, known));
    }
}

/// `` module `net` passes `cidr_blok`, but module `../child` declares no such variable ``
fn unknown_input<'a>(
    ctx: &Context,
    object: &MergedObject,
    source: &str,
    attr: &MergedAttribute,
    known: impl IntoIterator<Item = &'a str>,
) -> Diagnostic {
    let message = format!(
        "{} passes `{}`, but module `{source}` declares no such variable",
        object.address.describe(),
        attr.name
    );
    let d = ctx
        .finding(&RULE, message)
        .at(
            ctx.files,
            attr.name_span,
            "no such variable in the called module",
        )
        .with_label(ctx.files, object.base_header, "module call");
    with_fix(d, &attr.name, known)
}

/// The note, and the closest known name as the help when there is one.
fn with_fix<'a>(d: Diagnostic, name: &str, known: impl IntoIterator<Item = &'a str>) -> Diagnostic {
    let d = d.with_note(NOTE);
    match closest(name, known) {
        Some(close) if close != name => d.with_help(format!("did you mean `{close}`?")),
        _ => d.with_help("remove it, or fix its name"),
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, findings, findings_in, write_files};

    const CHILD_VARIABLES: &str = "variable \"cidr_block\" {}\nvariable \"name\" {}\n";

    const PARENT_MAIN: &str = r#"module "net" {
  source     = "../child"
  cidr_block = "10.0.0.0/16"
}
"#;

    const PARENT_OVERRIDE: &str = r#"module "net" {
  cidr_blok = "10.1.0.0/16"
  name      = "x"
  count     = 1
}
"#;

    const REMOTE_MODULE: &str = "module \"m\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\n";

    #[test]
    fn module_inputs_are_checked_against_the_local_module() {
        let dir = write_files(&[
            ("child/variables.tf", CHILD_VARIABLES),
            ("parent/main.tf", PARENT_MAIN),
            ("parent/override.tf", PARENT_OVERRIDE),
        ]);
        let found: Vec<_> = findings_in(&super::RULE, &dir.path().join("parent"))
            .into_iter()
            .filter(|d| d.rule == super::RULE.id())
            .collect();
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].help.as_deref(), Some("did you mean `cidr_block`?"));
        // A remote module is not judged.
        let remote: Files = &[
            ("main.tf", REMOTE_MODULE),
            ("override.tf", "module \"m\" {\n  anything = 1\n}\n"),
        ];
        assert!(findings(&super::RULE, remote).is_empty());
    }

    /// A variable's, output's or lifecycle's misspelled argument in an override file is an
    /// error of its own (Terraform 1.6.6 and 1.15.5: `Unsupported argument`), not this rule's.
    #[test]
    fn other_blocks_are_the_schemas() {
        let files: Files = &[
            (
                "main.tf",
                "variable \"v\" {}\noutput \"o\" {\n  value = 1\n}\n",
            ),
            (
                "override.tf",
                "variable \"v\" {\n  defualt = 1\n}\noutput \"o\" {\n  sensitiv = true\n}\n",
            ),
        ];
        assert!(findings(&super::RULE, files).is_empty());
    }
}
