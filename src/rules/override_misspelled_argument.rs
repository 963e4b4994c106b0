//! An override sets an argument the overridden block does not have. The tools decode overridden
//! bodies leniently, so the typo is dropped without a word.

use std::path::Path;

use crate::diagnostic::{Diagnostic, Severity};
use crate::load::{self, View};
use crate::merge::events::Event;
use crate::merge::{Address, MergedObject, Origin};

use super::{Check, Context, Kind, Rule, RuleMeta, RuleViews, closest, describe};

pub const RULE: Rule = Rule {
    meta: RuleMeta {
        id: "override_misspelled_argument",
        kind: Kind::Rule,
        severity: Severity::Warning,
        enabled_by_default: true,
        summary: "an override argument the overridden block does not have",
        doc: include_str!("../../rules/override_misspelled_argument.md"),
    },
    views: RuleViews::Both,
    options: &[],
    check: Check::View(check),
};

const VARIABLE: &[&str] = &[
    "description",
    "default",
    "type",
    "sensitive",
    "nullable",
    "ephemeral",
    "const",
    "deprecated",
    "validation",
];
const OUTPUT: &[&str] = &[
    "value",
    "description",
    "sensitive",
    "ephemeral",
    "deprecated",
    "type",
    "depends_on",
    "precondition",
];
const LIFECYCLE: &[&str] = &[
    "create_before_destroy",
    "prevent_destroy",
    "ignore_changes",
    "replace_triggered_by",
    "precondition",
    "postcondition",
    "destroy",
    "enabled",
    "action_trigger",
];
/// Arguments of a module call that are not input variables.
const MODULE_META: &[&str] = &[
    "source",
    "version",
    "count",
    "for_each",
    "providers",
    "depends_on",
    "enabled",
];

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
            None if address.starts_with("variable.") => (name.as_str(), VARIABLE),
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
                    describe(address)
                ),
            )
            .at(ctx.files, *span, "unknown here");
        if let Some(base) = super::object(ctx.module, address) {
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
    let Some(variables) = declared_variables(&ctx.dir.join(source), ctx.view) else {
        return;
    };
    for attr in object
        .body
        .attributes
        .iter()
        .filter(|a| a.origin == Origin::Override)
    {
        if MODULE_META.contains(&attr.name.as_str()) || variables.iter().any(|v| v == &attr.name) {
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

/// The variables a local module declares in this view, or `None` if any of its files cannot
/// be read or parsed (then nothing is judged).
fn declared_variables(dir: &Path, view: View) -> Option<Vec<String>> {
    let names: Vec<load::ConfigName> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| !e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().to_str().and_then(load::classify))
        .collect();
    if names.is_empty() {
        return None;
    }
    let files = load::view_files(&names, view);
    let mut variables = Vec::new();
    for index in files.loaded() {
        let name = &names[index];
        let text = std::fs::read_to_string(dir.join(&name.name)).ok()?;
        let parsed = crate::syntax::parse(crate::source::FileId(0), name.extension.syntax(), &text);
        let file = parsed.file.ok()?;
        variables.extend(
            file.body
                .blocks
                .iter()
                .filter(|b| b.kind == "variable")
                .filter_map(|b| b.label(0).map(str::to_string)),
        );
    }
    Some(variables)
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::{check_table, findings};

    #[test]
    fn table() {
        check_table(
            "override_misspelled_argument",
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
        let found = crate::pipeline::check_directory(&parent, crate::pipeline::ViewSelection::Both)
            .diagnostics
            .into_iter()
            .filter(|d| d.rule == "override_misspelled_argument")
            .collect::<Vec<_>>();
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].help.as_deref(), Some("did you mean `cidr_block`?"));
        // A remote module is not judged.
        assert!(
            findings(
                "override_misspelled_argument",
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
