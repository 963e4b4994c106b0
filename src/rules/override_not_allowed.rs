//! Blocks that override files may not contain: top-level `moved`, `import` and `check` blocks
//! (and `removed` in OpenTofu; Terraform ignores those in override files), and within a merged
//! block the conditions and validations (`precondition`, `postcondition`, `validation`). The
//! tools refuse to load the module (`Cannot override 'moved' blocks`, `Can't override
//! precondition blocks`...). The `language` block is `language_block_in_override`'s.

use crate::diagnostic::Diagnostic;
use crate::module::merge::MergeProblem;
use crate::source::Span;

use crate::lint::{Check, MergeContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_not_allowed",
    kind: LoadError,
    summary: "a block that override files may not contain",
    check: Check::Merge(check),
};

fn check(ctx: &MergeContext, out: &mut Vec<Diagnostic>) {
    for problem in ctx.problems {
        match problem {
            MergeProblem::BlockNotOverridable { kind, block } => {
                out.push(block_not_overridable(ctx, kind, *block));
            }
            MergeProblem::NestedBlockNotOverridable { kind, block } => {
                out.push(nested_block_not_overridable(ctx, kind, *block));
            }
            MergeProblem::OutputPostcondition { block } => {
                out.push(output_postcondition(ctx, *block));
            }
            _ => {}
        }
    }
}

/// `Cannot override 'moved' blocks`, `Cannot override 'import' blocks`, `Can't override check
/// blocks` or `Cannot override 'Removed' blocks`, as each is worded.
fn block_not_overridable(ctx: &MergeContext, kind: &str, block: Span) -> Diagnostic {
    let summary = match kind {
        "check" => "Can't override check blocks".to_string(),
        "removed" => "Cannot override 'Removed' blocks".to_string(),
        _ => format!("Cannot override '{kind}' blocks"),
    };
    ctx.finding(&RULE, summary)
        .at(ctx.files, block, "not allowed in an override file")
        .with_note(format!(
            "`{kind}` blocks cannot appear in override files; the tool refuses to load the module."
        ))
        .with_help("move this block to a primary file")
}

/// `Can't override precondition blocks` (or `postcondition`, `validation`)
fn nested_block_not_overridable(ctx: &MergeContext, kind: &str, block: Span) -> Diagnostic {
    ctx.finding(&RULE, format!("Can't override {kind} blocks"))
        .at(ctx.files, block, "not allowed in an override file")
        .with_note(format!("Override files cannot override \"{kind}\" blocks."))
        .with_help("move this block to the base definition")
}

/// `Postconditions are not allowed`: an output has preconditions only, and the tools refuse the
/// block while decoding the output (`decodeOutputBlock` in `internal/configs/named_values.go`),
/// before it could be an override.
fn output_postcondition(ctx: &MergeContext, block: Span) -> Diagnostic {
    ctx.finding(&RULE, "Postconditions are not allowed")
        .at(ctx.files, block, "not allowed in an output")
        .with_note("Output values can only have preconditions, not postconditions.")
        .with_help("make it a `precondition` in the base definition of the output")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[&[
        ("main.tf", "moved {\n  from = a.b\n  to   = a.c\n}\n"),
        ("override.tf", "variable \"x\" {}\n"),
        ("variables.tf", "variable \"x\" {}\n"),
    ]];

    const FAIL: &[(Files, usize)] = &[
        (
            &[("override.tf", "moved {\n  from = a.b\n  to   = a.c\n}\n")],
            1,
        ),
        (
            &[
                ("main.tf", "variable \"x\" {}\n"),
                (
                    "override.tf",
                    "variable \"x\" {\n  validation {\n    condition     = true\n    \
                     error_message = \"x\"\n  }\n}\n",
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
    fn each_kind_in_the_tools_words() {
        let summaries = |text: &str| -> Vec<String> {
            let found = findings(&super::RULE, &[("override.tofu", text)]).into_iter();
            found.map(|d| d.message.into_owned()).collect()
        };
        assert_eq!(
            summaries("check \"a\" {}\n"),
            ["Can't override check blocks"]
        );
        assert_eq!(
            summaries("import {\n  to = a.b\n  id = \"x\"\n}\n"),
            ["Cannot override 'import' blocks"]
        );
        assert_eq!(
            summaries("removed {\n  from = a.b\n}\n"),
            ["Cannot override 'Removed' blocks"]
        );
    }

    /// An output's postcondition is refused as an output's, not as an override's; a
    /// resource's (in `lifecycle`) is an override's.
    #[test]
    fn output_postcondition_in_an_override_file() {
        let condition = "postcondition {\n    condition     = true\n    error_message = \"x\"\n  }";
        let output = format!("output \"o\" {{\n  {condition}\n}}\n");
        let files: Files = &[
            ("main.tf", "output \"o\" {\n  value = 1\n}\n"),
            ("o_override.tf", &output),
        ];
        let found = findings(&super::RULE, files);
        assert!(!found.is_empty());
        for d in &found {
            assert_eq!(d.message, "Postconditions are not allowed");
            assert_eq!(d.start(), (2, 3));
        }
        let resource =
            format!("resource \"a\" \"b\" {{\n  lifecycle {{\n  {condition}\n  }}\n}}\n");
        let files: Files = &[
            ("main.tf", "resource \"a\" \"b\" {}\n"),
            ("o_override.tf", &resource),
        ];
        let found = findings(&super::RULE, files);
        assert!(!found.is_empty());
        assert!(
            found
                .iter()
                .all(|d| d.message == "Can't override postcondition blocks")
        );
    }
}
