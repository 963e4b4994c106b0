//! An override sets an argument the overridden block does not have. The tools decode overridden
//! bodies leniently, so the typo is dropped without a word.

use crate::diagnostic::Diagnostic;
use crate::knowledge::blocks::{LIFECYCLE, MODULE_CALL_META, OUTPUT, VARIABLE};
use crate::module::merge::events::Event;
use crate::module::merge::{Address, MergedObject, Origin};

use crate::lint::helpers::closest;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_misspelled_argument",
    severity: Warning,
    default: On,
    summary: "an override argument the overridden block does not have",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for event in &ctx.module.events {
        let Event::UnknownArgument {
            address,
            name,
            span,
        } = event
        else {
            continue;
        };
        let (argument, known) = match name.strip_prefix("lifecycle.") {
            Some(inner) => (inner, LIFECYCLE),
            None if matches!(address.address(), Some(Address::Variable(_))) => {
                (name.as_str(), VARIABLE)
            }
            None => (name.as_str(), OUTPUT),
        };
        let block = if known == LIFECYCLE {
            "a `lifecycle` block"
        } else {
            "this block"
        };
        let mut d = ctx
            .finding(
                &RULE,
                format!(
                    "`{argument}` is not an argument of {block} in {}",
                    address.describe()
                ),
            )
            .at(ctx.files, *span, "unknown here");
        if let Some(base) = address.address().and_then(|a| ctx.module.object(a)) {
            d = d.with_label(ctx.files, base.base_header, "overridden block");
        }
        out.push(finish(d, argument, known.iter().copied()));
    }
    for object in &ctx.module.objects {
        if matches!(object.address, Address::ModuleCall(_)) && !object.overrides.is_empty() {
            check_module_inputs(ctx, object, out);
        }
    }
}

fn finish<'a>(d: Diagnostic, name: &str, known: impl IntoIterator<Item = &'a str>) -> Diagnostic {
    let d = d.with_note("Terraform and OpenTofu read overridden blocks leniently: an argument the block does not have is dropped without an error, so the override silently does nothing.");
    match closest(name, known) {
        Some(close) if close != name => d.with_help(format!("did you mean `{close}`?")),
        _ => d.with_help("remove it, or fix its name"),
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
        let d = ctx
            .finding(
                &RULE,
                format!(
                    "{} passes `{}`, but module `{source}` declares no such variable",
                    object.address.describe(),
                    attr.name
                ),
            )
            .at(
                ctx.files,
                attr.name_span,
                "no such variable in the called module",
            )
            .with_label(ctx.files, object.base_header, "module call");
        out.push(finish(d, &attr.name, variables.iter().map(String::as_str)));
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
                    ("main.tf", "variable \"v\" {}\n"),
                    ("override.tf", "variable \"v\" {\n  default = 1\n}\n"),
                ],
                &[
                    ("main.tf", "output \"o\" {\n  value = 1\n}\n"),
                    ("override.tf", "output \"o\" {\n  sensitive = true\n}\n"),
                ],
            ],
            &[
                (
                    &[
                        ("main.tf", "variable \"v\" {}\n"),
                        ("override.tf", "variable \"v\" {\n  defualt = 1\n}\n"),
                    ],
                    1,
                ),
                (
                    &[
                        ("main.tf", "output \"o\" {\n  value = 1\n}\n"),
                        (
                            "override.tf.json",
                            r#"{"output": {"o": {"sensitiv": true}}}"#,
                        ),
                    ],
                    1,
                ),
                (
                    &[
                        ("main.tf", "resource \"terraform_data\" \"a\" {}\n"),
                        (
                            "override.tf",
                            "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    prevent_destory = true\n  }\n}\n",
                        ),
                    ],
                    1,
                ),
            ],
        );
    }

    #[test]
    fn module_inputs_are_checked_against_the_local_module() {
        let dir = tempfile::tempdir().expect("tempdir");
        let child = dir.path().join("child");
        std::fs::create_dir_all(&child).expect("mkdir");
        std::fs::write(
            child.join("variables.tf"),
            "variable \"cidr_block\" {}\nvariable \"name\" {}\n",
        )
        .expect("write");
        let parent = dir.path().join("parent");
        std::fs::create_dir_all(&parent).expect("mkdir");
        std::fs::write(
            parent.join("main.tf"),
            "module \"net\" {\n  source     = \"../child\"\n  cidr_block = \"10.0.0.0/16\"\n}\n",
        )
        .expect("write");
        std::fs::write(parent.join("override.tf"), "module \"net\" {\n  cidr_blok = \"10.1.0.0/16\"\n  name      = \"x\"\n  count     = 1\n}\n").expect("write");
        let found: Vec<_> = crate::lint::testing::findings_in(&super::RULE, &parent)
            .into_iter()
            .filter(|d| d.rule == super::RULE.id())
            .collect();
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].help.as_deref(), Some("did you mean `cidr_block`?"));
        // A remote module is not judged.
        assert!(
            findings(
                &super::RULE,
                &[
                    (
                        "main.tf",
                        "module \"m\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\n"
                    ),
                    ("override.tf", "module \"m\" {\n  anything = 1\n}\n"),
                ]
            )
            .is_empty()
        );
    }
}
