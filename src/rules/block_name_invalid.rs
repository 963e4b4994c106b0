//! A block name that is not an identifier: `resource "aws_instance" "web server"`. Both tools
//! refuse the module, one error per name, with a summary per kind of block (hashicorp/terraform
//! `internal/configs`: `decodeResourceBlock`, `decodeDataBlock` in `resource.go`,
//! `decodeVariableBlock` and `decodeOutputBlock` in `named_values.go`, `decodeModuleBlock` in
//! `module_call.go`, `decodeLocalsBlock` in `named_values.go`; `hclsyntax.ValidIdentifier`),
//! in every release. A local's name can only be wrong in JSON syntax, where it is an object key.
//!
//! Resource and data source types are left out: a type that is not an identifier also names no
//! provider, and the tools refuse it for that first.

use crate::diagnostic::Diagnostic;
use crate::source::Span;

use crate::lint::helpers::top_level_blocks;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "block_name_invalid",
    kind: LoadError,
    summary: "a block name that is not an identifier",
    check: Check::View(RuleViews::Both, check),
};

/// The tools' detail for every invalid name (`badIdentifierDetail`).
const DETAIL: &str = "A name must start with a letter or underscore and may contain only \
                      letters, digits, underscores, and dashes.";

/// One finding per name that is not an identifier, in every file of the view.
fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (_, block) in top_level_blocks(ctx) {
        if block.kind == "locals" {
            for attribute in (block.body.attributes.iter()).filter(|a| !is_identifier(&a.name)) {
                out.push(invalid_name(
                    ctx,
                    "Invalid local value name",
                    attribute.name_span,
                ));
            }
            continue;
        }
        let (summary, index) = match block.kind.as_str() {
            "resource" => ("Invalid resource name", 1),
            "data" => ("Invalid data resource name", 1),
            "variable" => ("Invalid variable name", 0),
            "output" => ("Invalid output name", 0),
            "module" => ("Invalid module instance name", 0),
            _ => continue,
        };
        if let Some(label) = block.labels.get(index)
            && !is_identifier(&label.value)
        {
            out.push(invalid_name(ctx, summary, label.span));
        }
    }
}

/// `hclsyntax.ValidIdentifier`: a letter or `_`, then letters, digits, `_` and `-`.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// `Invalid resource name` (or the summary of the block's kind), with the tools' detail.
fn invalid_name(ctx: &Context, summary: &str, span: Span) -> Diagnostic {
    ctx.finding(&RULE, summary)
        .at(ctx.files, span, "not an identifier")
        .with_note(DETAIL)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            concat!(
                "resource \"terraform_data\" \"web-1\" {}\n",
                "variable \"_v\" {}\n",
                "output \"é\" {\n  value = 1\n}\n",
                "locals {\n  a = 1\n}\n",
            ),
        )],
        &[(
            "main.tf.json",
            r#"{"locals": {"a-b": 1}, "variable": {"v": {}}}"#,
        )],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[("main.tf", "resource \"terraform_data\" \"web server\" {}\n")],
            1,
        ),
        // In an override file too: each file is decoded on its own.
        (
            &[
                ("main.tf", "resource \"terraform_data\" \"1st\" {}\n"),
                (
                    "main_override.tf",
                    "resource \"terraform_data\" \"1st\" {}\n",
                ),
            ],
            2,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// The tools' summary for each kind of block, as the Terraform judge prints them.
    #[test]
    fn the_tools_summaries() {
        let native = concat!(
            "resource \"aws_instance\" \"a b\" {}\n",
            "data \"aws_ami\" \"a b\" {}\n",
            "variable \"a b\" {}\n",
            "output \"a b\" {\n  value = 1\n}\n",
            "module \"a b\" {\n  source = \"./m\"\n}\n",
        );
        let json = r#"{"locals": {"a b": 1}}"#;
        let found = findings(&super::RULE, &[("main.tf", native), ("l.tf.json", json)]);
        let mut summaries: Vec<String> = found.into_iter().map(|d| d.message).collect();
        summaries.sort();
        assert_eq!(
            summaries,
            [
                "Invalid data resource name",
                "Invalid local value name",
                "Invalid module instance name",
                "Invalid output name",
                "Invalid resource name",
                "Invalid variable name",
            ]
        );
    }
}
