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
            found.map(|d| d.message).collect()
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
}
