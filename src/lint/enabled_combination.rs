//! OpenTofu's `enabled` meta-argument (in `lifecycle`, 1.11 and later) is mutually exclusive
//! with `count` and `for_each`: OpenTofu refuses a block with both, per block and before
//! merging, as `Invalid combination of "count" and "enabled"` (or `"enabled" and "for_each"`).
//! Judged when every targeted OpenTofu release has `enabled`; otherwise `enabled` itself is the
//! finding (`unsupported_construct` or `feature_newer_than_target`).

use crate::diagnostic::{Diagnostic, ids};
use crate::knowledge::View;
use crate::knowledge::features::{Body, Place};
use crate::syntax::{Attribute, Block};

use super::Context;
use super::helpers::top_level_blocks;

/// The combination errors of the OpenTofu view.
pub(crate) fn check(ctx: &Context) -> Vec<Diagnostic> {
    let has_enabled = ctx
        .targets
        .refusing(Place::In(Body::Lifecycle), "enabled")
        .is_empty();
    if ctx.view != View::OpenTofu || !has_enabled {
        return Vec::new();
    }
    top_level_blocks(ctx)
        .map(|(_, block)| block)
        .filter(|b| {
            matches!(
                b.kind.as_str(),
                // Module calls are `module_count_and_for_each`'s, judged after merging.
                "resource" | "data" | "ephemeral"
            )
        })
        .filter_map(|block| {
            let enabled = block
                .body
                .blocks_of("lifecycle")
                .find_map(|l| l.body.attribute("enabled"))?;
            let (count, for_each) = (
                block.body.attribute("count"),
                block.body.attribute("for_each"),
            );
            match (count, for_each) {
                // Both: the merge reports the block, naming all three.
                (Some(_), Some(_)) | (None, None) => None,
                (Some(other), None) => Some(invalid_combination(ctx, block, other, enabled)),
                (None, Some(other)) => Some(invalid_combination(ctx, block, other, enabled)),
            }
        })
        .collect()
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
    Diagnostic::error(
        ids::COUNT_AND_FOR_EACH,
        format!("Invalid combination of {names}"),
    )
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
    .in_views(ctx.view.views())
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::ids;
    use crate::lint::testing::{Files, all_findings};

    fn combinations(files: Files) -> Vec<(String, String)> {
        all_findings(&crate::lint::testing::stand_ins::ON_BY_DEFAULT, files)
            .into_iter()
            .filter(|d| d.rule == ids::COUNT_AND_FOR_EACH)
            .map(|d| (d.message, format!("{:?}", d.views)))
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
