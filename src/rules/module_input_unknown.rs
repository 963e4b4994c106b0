//! An argument of a module call that the called module declares no variable for. `validate`
//! (and `init`) decode the call's body against a schema of the child's variables and refuse
//! what is not one (`Unsupported argument`; in JSON `Extraneous JSON object property`):
//! hashicorp/terraform `internal/terraform/transform_module_variable.go` (`transformSingle`).
//! Judged for calls to local modules (`./x`, `../x`), whose directory is read as its own
//! effective module, in the same view.
//!
//! A call that an override file changes is decoded leniently: the tools merge its bodies and
//! read the base's with `PartialContent` (`internal/configs/module_merge_body.go`), so an
//! unknown argument there is dropped without an error (`override_misspelled_argument` warns of
//! the override's).

use crate::diagnostic::Diagnostic;
use crate::knowledge::blocks::MODULE_CALL_META;
use crate::module::merge::MergedAttribute;
use crate::source::Syntax;

use crate::lint::helpers::{LocalCall, local_calls, syntax_of, tools_suggestion};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_input_unknown",
    kind: Validate,
    summary: "an argument of a call to a local module that declares no such variable",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for call in local_calls(ctx) {
        if !call.object.overrides.is_empty() {
            continue;
        }
        let interface = &call.interface;
        for attribute in &call.object.body.attributes {
            let name = attribute.name();
            if MODULE_CALL_META.contains(&name) || interface.has_variable(name) {
                continue;
            }
            out.push(unsupported_argument(ctx, &call, attribute));
        }
    }
}

/// `Unsupported argument` (in JSON `Extraneous JSON object property`), the tools' summary.
fn unsupported_argument(
    ctx: &Context,
    call: &LocalCall,
    attribute: &MergedAttribute,
) -> Diagnostic {
    let name = attribute.name();
    let variables = call.interface.variables.iter().map(String::as_str);
    let suggestion = tools_suggestion(name, variables);
    let did_you_mean = suggestion.map_or_else(String::new, |s| format!(" Did you mean \"{s}\"?"));
    let (summary, detail) = match syntax_of(ctx, attribute.name_span()) {
        Syntax::Native => (
            "Unsupported argument",
            format!("An argument named \"{name}\" is not expected here.{did_you_mean}"),
        ),
        Syntax::Json | Syntax::TerragruntJson => (
            "Extraneous JSON object property",
            format!("No argument or block type is named \"{name}\".{did_you_mean}"),
        ),
    };
    let help = match suggestion {
        Some(s) => format!("did you mean `{s}`? Or declare `variable \"{name}\"` in the module"),
        None => format!(
            "remove it, or declare `variable \"{name}\" {{}}` in module `{}`",
            call.source
        ),
    };
    ctx.finding(&RULE, summary)
        .at(
            ctx.files,
            attribute.name_span(),
            format!("module `{}` declares no variable `{name}`", call.source),
        )
        .with_label(ctx.files, call.object.base_header, "module call")
        .with_note(detail)
        .with_help(help)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const CHILD: &str = "variable \"req\" {}\nvariable \"opt\" {\n  default = 1\n}\n";

    const PASS: &[Files] = &[
        &[
            (
                "main.tf",
                "module \"c\" {\n  source     = \"./child\"\n  req        = 1\n  opt        = 2\n  \
                 count      = 1\n  providers  = {}\n  depends_on = []\n}\n",
            ),
            ("child/main.tf", CHILD),
        ],
        // A variable declared in another file of the child.
        &[
            (
                "main.tf",
                "module \"c\" {\n  source = \"../child\"\n  extra = 1\n}\n",
            ),
            ("child/main.tf", CHILD),
            ("child/more.tf", "variable \"extra\" {}\n"),
        ],
        // A call an override changes is decoded leniently: its unknown argument is dropped.
        &[
            (
                "main.tf",
                "module \"c\" {\n  source = \"./child\"\n  nope = 1\n}\n",
            ),
            ("override.tf", "module \"c\" {\n  req = 2\n}\n"),
            ("child/main.tf", CHILD),
        ],
        // A remote module, and a local one that cannot be read: not judged.
        &[(
            "main.tf",
            "module \"c\" {\n  source = \"hashicorp/consul/aws\"\n  nope = 1\n}\n",
        )],
        &[
            (
                "main.tf",
                "module \"c\" {\n  source = \"./child\"\n  nope = 1\n}\n",
            ),
            ("child/main.tf", "variable \"a\" {\n"),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                (
                    "main.tf",
                    "module \"c\" {\n  source = \"./child\"\n  nope = 1\n  zzz = 2\n}\n",
                ),
                ("child/main.tf", CHILD),
            ],
            2,
        ),
        (
            &[
                (
                    "main.tf.json",
                    "{\"module\": {\"c\": {\"source\": \"./child\", \"req\": 1, \"nope\": 1}}}",
                ),
                ("child/main.tf", CHILD),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// The tools' summary and detail, with HCL's suggestion among the child's variables.
    #[test]
    fn summaries_and_details() {
        let notes = |files: Files| -> Vec<(String, String)> {
            let mut found: Vec<_> = findings(&super::RULE, files)
                .into_iter()
                .map(|d| (d.message.into_owned(), d.notes.join(" ")))
                .collect();
            found.dedup();
            found
        };
        let native = "module \"c\" {\n  source = \"./child\"\n  nope = 1\n}\n";
        assert_eq!(
            notes(&[("main.tf", native), ("child/main.tf", CHILD)]),
            [(
                "Unsupported argument".to_string(),
                "An argument named \"nope\" is not expected here. Did you mean \"opt\"?"
                    .to_string()
            )]
        );
        let json = "{\"module\": {\"c\": {\"source\": \"./child\", \"zzzz\": 1}}}";
        assert_eq!(
            notes(&[("main.tf.json", json), ("child/main.tf", CHILD)]),
            [(
                "Extraneous JSON object property".to_string(),
                "No argument or block type is named \"zzzz\".".to_string()
            )]
        );
    }
}
