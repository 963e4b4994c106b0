//! OpenTofu reads the `language` block (the language edition, experiments and compatible
//! versions of a module) only from primary files, and refuses to load a module with one in an
//! override file (`Language selections in override file`). Terraform has no `language` block.

use crate::diagnostic::Diagnostic;
use crate::module::merge::MergeProblem;
use crate::source::Span;

use crate::lint::{Check, MergeContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "language_block_in_override",
    kind: LoadError,
    summary: "a language block in an override file (OpenTofu)",
    check: Check::Merge(check),
};

fn check(ctx: &MergeContext, out: &mut Vec<Diagnostic>) {
    for problem in ctx.problems {
        if let MergeProblem::LanguageBlockInOverride { block } = problem {
            out.push(language_block_in_override(ctx, *block));
        }
    }
}

/// `Language selections in override file`
fn language_block_in_override(ctx: &MergeContext, block: Span) -> Diagnostic {
    ctx.finding(&RULE, "Language selections in override file")
        .at(ctx.files, block, "not allowed in an override file")
        .with_note(
            "OpenTofu reads the `language` block only from primary files: the language edition, \
             experiments and compatible versions of a module cannot be overridden.",
        )
        .with_help("move the `language` block to a primary `.tofu` file")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, TOFU_EDITION, check_table};

    const PASS: &[Files] = &[&[("main.tofu", TOFU_EDITION)]];

    const FAIL: &[(Files, usize)] = &[(
        &[("main.tofu", TOFU_EDITION), ("override.tofu", TOFU_EDITION)],
        1,
    )];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
