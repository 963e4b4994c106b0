//! A base block changed by an override file, with no comment saying so: readers of the base
//! file otherwise see values the module never uses. Off by default.

use crate::diagnostic::Diagnostic;
use crate::module::merge::MergedObject;
use crate::source::Span;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_undocumented",
    severity: Notice,
    default: Off,
    summary: "a block changed by an override file has no comment naming it",
    check: Check::View(RuleViews::Both, check),
};

const NOTE: &str = "Terraform's documentation recommends a comment in the original file for \
                    every block an override file changes: readers of the base file otherwise \
                    see values the module never uses.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for object in &ctx.module.objects {
        if object.overrides.is_empty() {
            continue;
        }
        let Some(base_file) = ctx
            .primary
            .iter()
            .find(|f| f.file.id == object.base_header.file)
        else {
            continue; // defined by an override itself (an un-aliased provider)
        };
        let names: Vec<&str> = object
            .overrides
            .iter()
            .map(|s| ctx.files.get(s.file).file_name())
            .collect();
        let comments = comments_about(
            ctx,
            &base_file.file.comments,
            object.base_header,
            object.base_span,
        );
        let documented = comments
            .iter()
            .any(|text| names.iter().any(|name| mentions(text, name)));
        if documented {
            continue;
        }
        let Some(&first_override) = object.overrides.first() else {
            continue;
        };
        out.push(undocumented(ctx, object, &names, first_override));
    }
}

/// `` resource `x.y` is changed by `override.tf`, but its definition does not say so ``
fn undocumented(
    ctx: &Context,
    object: &MergedObject,
    names: &[&str],
    first_override: Span,
) -> Diagnostic {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    let message = format!(
        "{} is changed by {}, but its definition does not say so",
        object.address.describe(),
        quoted.join(", ")
    );
    let example = names.first().copied().unwrap_or_default();
    ctx.finding(&RULE, message)
        .at(
            ctx.files,
            object.base_header,
            "no comment names the override",
        )
        .with_label(ctx.files, first_override, "changed here")
        .with_note(NOTE)
        .with_help(format!(
            "add a comment above the block, e.g. `# Overridden in {example}: ...`"
        ))
}

/// The texts of the comments directly above a block's header (a run of comment lines) and
/// inside the block.
fn comments_about<'a>(
    ctx: &Context,
    comments: &'a [crate::syntax::Comment],
    header: Span,
    block: Span,
) -> Vec<&'a str> {
    let file = ctx.files.get(header.file);
    let mut wanted_line = file.line_index(header.start as usize);
    let mut found: Vec<&str> = comments
        .iter()
        .filter(|c| c.span.start >= block.start && c.span.end <= block.end)
        .map(|c| c.text.as_str())
        .collect();
    for comment in comments.iter().rev().filter(|c| c.span.end <= header.start) {
        let end_line = file.line_index(comment.span.end.saturating_sub(1) as usize);
        if wanted_line == 0 || end_line + 1 != wanted_line {
            break;
        }
        found.push(&comment.text);
        wanted_line = file.line_index(comment.span.start as usize);
    }
    found
}

/// Whether a comment names the file (`web_override.tf`) or its stem (`web_override`). The stem
/// `override` alone is just a word, and an ignore directive documents nothing.
fn mentions(comment: &str, file_name: &str) -> bool {
    if comment.trim_start().starts_with("tflint-merge-ignore") {
        return false;
    }
    let stem = crate::knowledge::files::classify(file_name)
        .map_or(file_name.to_string(), |c| c.stem().to_string());
    comment.contains(file_name) || (stem != "override" && comment.contains(&stem))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::override_fixtures::EMPTY_A;
    use crate::lint::testing::{Files, check_table};

    const OVERRIDE: &str = "resource \"terraform_data\" \"a\" {\n  input = 2\n}\n";

    const COMMENT_ABOVE: &str = r#"# Overridden in override.tf for local runs.
resource "terraform_data" "a" {
  input = 1
}
"#;

    const COMMENT_INSIDE: &str = r#"resource "terraform_data" "a" {
  input = 1 # see override.tf
}
"#;

    const STEM_NAMED: &str =
        "# dev_override changes the input\nresource \"terraform_data\" \"a\" {}\n";

    const NO_COMMENT: &str = "resource \"terraform_data\" \"a\" {\n  input = 1\n}\n";

    const WORD_ONLY: &str = "# do not override this\nresource \"terraform_data\" \"a\" {}\n";

    const COMMENT_ON_EARLIER_BLOCK: &str = r#"# see override.tf
resource "terraform_data" "b" {}

resource "terraform_data" "a" {}
"#;

    const PASS: &[Files] = &[
        &[("main.tf", COMMENT_ABOVE), ("override.tf", OVERRIDE)],
        &[("main.tf", COMMENT_INSIDE), ("override.tf", OVERRIDE)],
        &[("main.tf", STEM_NAMED), ("dev_override.tf", OVERRIDE)],
        // Not overridden at all.
        &[("main.tf", EMPTY_A)],
    ];

    const FAIL: &[(Files, usize)] = &[
        (&[("main.tf", NO_COMMENT), ("override.tf", OVERRIDE)], 1),
        // "override" as a word names no file.
        (&[("main.tf", WORD_ONLY), ("override.tf", OVERRIDE)], 1),
        // A comment above an earlier block does not count.
        (
            &[
                ("main.tf", COMMENT_ON_EARLIER_BLOCK),
                ("override.tf", OVERRIDE),
            ],
            1,
        ),
        (
            &[
                (
                    "main.tf.json",
                    r#"{"resource": {"terraform_data": {"a": {}}}}"#,
                ),
                (
                    "a_override.tf.json",
                    r#"{"resource": {"terraform_data": {"a": {"input": 1}}}}"#,
                ),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
