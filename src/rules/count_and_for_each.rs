//! A block that sets two of `count`, `for_each` and (OpenTofu 1.11 and later) `lifecycle {
//! enabled }`, the meta-arguments that say how many instances it has: both tools refuse each
//! such block on its own, before merging (`Invalid combination of "count" and "for_each"`; in
//! OpenTofu, with `enabled`, `complainRngAndMsg` names the ones set).
//!
//! `count` with `for_each` is found by the merge, which checks every block as it reads it;
//! `enabled` with one of them is judged when every targeted OpenTofu release has `enabled`
//! (otherwise `enabled` itself is the finding: `unsupported_construct` or
//! `feature_newer_than_target`).

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::features::{Body, Place};
use crate::module::merge::MergeProblem;
use crate::source::Span;
use crate::syntax::{Attribute, Block};

use crate::lint::helpers::top_level_blocks_of;
use crate::lint::{Check, Context, MergeContext, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "count_and_for_each",
    kind: LoadError,
    summary: "one block sets both count and for_each",
    checks: [
        Check::Merge(count_and_for_each),
        Check::View(RuleViews::Only(View::OpenTofu), enabled_and_count_or_for_each),
    ],
};

/// `count` with `for_each` (and maybe `enabled`), as the merge found it.
fn count_and_for_each(ctx: &MergeContext, out: &mut Vec<Diagnostic>) {
    for problem in ctx.problems {
        if let MergeProblem::CountAndForEach {
            kind,
            count,
            for_each,
            enabled,
        } = problem
        {
            out.push(match enabled {
                Some(enabled) => all_three(ctx, kind, *count, *for_each, *enabled),
                None => count_with_for_each(ctx, *count, *for_each),
            });
        }
    }
}

/// `Invalid combination of "count" and "for_each"`
fn count_with_for_each(ctx: &MergeContext, count: Span, for_each: Span) -> Diagnostic {
    ctx.finding(&RULE, "Invalid combination of \"count\" and \"for_each\"")
        .at(ctx.files, for_each, "`for_each` set here")
        .with_note(
            "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one \
             should be used to be explicit about the number of resources to be created.",
        )
        .with_label(ctx.files, count, "`count` set here")
}

/// `Invalid combination of "count", "enabled", and "for_each"`: OpenTofu names all three.
fn all_three(
    ctx: &MergeContext,
    kind: &str,
    count: Span,
    for_each: Span,
    enabled: Span,
) -> Diagnostic {
    ctx.finding(
        &RULE,
        "Invalid combination of \"count\", \"enabled\", and \"for_each\"",
    )
    .at(ctx.files, for_each, "`for_each` set here")
    .with_label(ctx.files, enabled, "`enabled` set here")
    .with_note(format!(
        "The \"count\", \"enabled\", and \"for_each\" meta-arguments are mutually-exclusive. \
         Only one may be used to be explicit about the number of {} to be created.",
        instances_of(kind)
    ))
    .with_label(ctx.files, count, "`count` set here")
}

/// What a block of `kind` creates instances of, as OpenTofu's repetition errors name it.
fn instances_of(kind: &str) -> &'static str {
    match kind {
        "data" => "data sources",
        "ephemeral" => "ephemeral resources",
        "module" => "module instances",
        _ => "resources",
    }
}

/// `enabled` with `count` or `for_each` in the OpenTofu view, when every targeted OpenTofu
/// release has `enabled`.
fn enabled_and_count_or_for_each(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let has_enabled = ctx
        .targets
        .refusing(Place::In(Body::Lifecycle), "enabled")
        .is_empty();
    if !has_enabled {
        return;
    }
    // Module calls are `module_count_and_for_each`'s, judged after merging.
    let resources =
        top_level_blocks_of(ctx, &["resource", "data", "ephemeral"]).map(|(_, block)| block);
    for block in resources {
        let Some(enabled) = block
            .body
            .blocks_of("lifecycle")
            .find_map(|l| l.body.attribute("enabled"))
        else {
            continue;
        };
        let (count, for_each) = (
            block.body.attribute("count"),
            block.body.attribute("for_each"),
        );
        match (count, for_each) {
            // Both: the merge reports the block, naming all three.
            (Some(_), Some(_)) | (None, None) => {}
            (Some(other), None) | (None, Some(other)) => {
                out.push(invalid_combination(ctx, block, other, enabled));
            }
        }
    }
}

/// `Invalid combination of "count" and "enabled"` / `"enabled" and "for_each"`, with the
/// tools' words (names in the order count, enabled, for_each).
fn invalid_combination(
    ctx: &Context,
    block: &Block,
    other: &Attribute,
    enabled: &Attribute,
) -> Diagnostic {
    let names = match other.name.as_str() {
        "count" => "\"count\" and \"enabled\"",
        _ => "\"enabled\" and \"for_each\"",
    };
    ctx.finding(&RULE, format!("Invalid combination of {names}"))
        .at(ctx.files, enabled.name_span, "`enabled` set here")
        .with_label(
            ctx.files,
            other.name_span,
            format!("`{}` set here", other.name),
        )
        .with_label(ctx.files, block.header_span, "in this block")
        .with_note(format!(
            "The {names} meta-arguments are mutually-exclusive. Only one may be used to be \
             explicit about the number of resources to be created."
        ))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, findings};

    fn combinations(files: Files) -> Vec<(String, String)> {
        let found = findings(&super::RULE, files).into_iter();
        found
            .map(|d| (d.message.into_owned(), format!("{:?}", d.views)))
            .collect()
    }

    const COUNT: &str =
        "resource \"a\" \"b\" {\n  count = 2\n  lifecycle {\n    enabled = true\n  }\n}\n";

    #[test]
    fn enabled_with_count_or_for_each_in_opentofu() {
        let found = combinations(&[("main.tofu", COUNT)]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            found[0].0,
            "Invalid combination of \"count\" and \"enabled\""
        );
        let data = "data \"a\" \"b\" {\n  for_each = {}\n  lifecycle {\n    enabled = false\n  \
                    }\n}\n";
        let found = combinations(&[("main.tofu", data)]);
        assert_eq!(
            found[0].0,
            "Invalid combination of \"enabled\" and \"for_each\""
        );
        let json = r#"{"resource": {"a": {"b": {"count": 1, "lifecycle": {"enabled": true}}}}}"#;
        assert_eq!(combinations(&[("main.tofu.json", json)]).len(), 1);
        // Without `count` or `for_each`: fine.
        let alone = "resource \"a\" \"b\" {\n  lifecycle {\n    enabled = true\n  }\n}\n";
        assert!(combinations(&[("main.tofu", alone)]).is_empty());
    }

    /// All three: OpenTofu names them all in one error; Terraform, which has no `enabled`,
    /// names `count` and `for_each` (and refuses `enabled` on its own).
    #[test]
    fn all_three_in_one_error() {
        const THREE: &str = "ephemeral \"a\" \"b\" {\n  count = 1\n  for_each = {}\n  \
                             lifecycle {\n    enabled = true\n  }\n}\n";
        let json = r#"{"data": {"a": {"b": {"count": 1, "for_each": {},
                       "lifecycle": {"enabled": true}}}}}"#;
        for files in [&[("main.tf", THREE)][..], &[("main.tf.json", json)][..]] {
            let mut found = combinations(files);
            found.sort();
            let names = |list: &str| format!("Invalid combination of {list}");
            assert_eq!(
                found,
                [
                    (
                        names(r#""count" and "for_each""#),
                        "Views { terraform: true, opentofu: false }".into()
                    ),
                    (
                        names(r#""count", "enabled", and "for_each""#),
                        "Views { terraform: false, opentofu: true }".into()
                    ),
                ],
                "{files:?}"
            );
        }
    }
}
