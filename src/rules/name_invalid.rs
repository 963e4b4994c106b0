//! A name that is not an identifier where the tools want one: a module call's, a variable's, an
//! output's, a local value's, a resource's, data source's or ephemeral resource's type and name,
//! a check block's. Both tools refuse the module while decoding each block, in primary and
//! override files alike: hashicorp/terraform `internal/configs/module_call.go`
//! (`Invalid module instance name`), `named_values.go` (variables, outputs, locals),
//! `resource.go` and `checks.go`, each with `badIdentifierDetail`. An identifier starts with a
//! letter or an underscore and goes on with letters, digits, underscores and dashes (HCL's
//! `hclsyntax.ValidIdentifier`, Unicode's ID_Start and ID_Continue, read here as Unicode letters
//! and digits).

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::source::Span;

use crate::lint::helpers::top_level_blocks;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "name_invalid",
    kind: LoadError,
    summary: "a block's name or type that is not an identifier",
    check: Check::View(RuleViews::Both, check),
};

/// The tools' detail.
const DETAIL: &str = "A name must start with a letter or underscore and may contain only \
                      letters, digits, underscores, and dashes.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (_, block) in top_level_blocks(ctx) {
        let summaries: &[&str] = match block.kind.as_str() {
            "module" => &["Invalid module instance name"],
            "variable" => &["Invalid variable name"],
            "output" => &["Invalid output name"],
            "check" => &["Invalid check block name"],
            "resource" => &["Invalid resource type name", "Invalid resource name"],
            "data" => &["Invalid data source name", "Invalid data resource name"],
            // OpenTofu words its own (`internal/configs/resource.go` of opentofu/opentofu).
            "ephemeral" if ctx.view == View::Terraform => &[
                "Invalid ephemeral resource type",
                "Invalid ephemeral resource name",
            ],
            "locals" => {
                for attribute in &block.body.attributes {
                    if !is_identifier(&attribute.name) {
                        let summary = "Invalid local value name";
                        out.push(invalid_name(ctx, summary, attribute.name_span));
                    }
                }
                continue;
            }
            _ => continue,
        };
        // A block without its labels is another load error.
        if block.labels.len() < summaries.len() {
            continue;
        }
        for (label, summary) in block.labels.iter().zip(summaries) {
            if !is_identifier(&label.value) {
                out.push(invalid_name(ctx, summary, label.span));
            }
        }
    }
}

/// Whether `name` is an identifier as HCL reads one.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// `Invalid module instance name` and the like, the tools' summaries.
fn invalid_name(ctx: &Context, summary: &'static str, span: Span) -> Diagnostic {
    ctx.finding(&RULE, summary)
        .at(ctx.files, span, "not a valid name")
        .with_note(DETAIL)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[&[(
        "main.tf",
        "module \"a-b_1\" {\n  source = \"./m\"\n}\nvariable \"_x\" {}\nresource \"t_t\" \"é\" {}\n\
         locals {\n  a-b = 1\n}\n",
    )]];

    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf",
                "module \"1bad\" {\n  source = \"./m\"\n}\nvariable \"a b\" {}\noutput \"-o\" {\n  \
                 value = 1\n}\ncheck \"c.d\" {\n  assert {\n    condition     = true\n    \
                 error_message = \"x\"\n  }\n}\n",
            )],
            4,
        ),
        // Both labels of a resource; a data source in an override file.
        (
            &[
                (
                    "main.tf",
                    "resource \"1t\" \"2n\" {}\ndata \"t\" \"n\" {}\n",
                ),
                ("override.tf", "data \"t\" \"n.x\" {}\n"),
            ],
            3,
        ),
        (
            &[("main.tf.json", "{\"locals\": {\"1a\": 1, \"ok\": 2}}")],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
