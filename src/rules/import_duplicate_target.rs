//! Two `import` blocks with the same static target: `Duplicate import configuration for
//! "aws_instance.web"`. Terraform and OpenTofu compare each import of a primary file with
//! those appended before it (hashicorp/terraform `internal/configs/module.go`, `appendFile`;
//! opentofu/opentofu the same) when both `to` addresses are static (no `each.key` or other
//! reference in a key): Terraform reports one finding per earlier import with the same
//! address, OpenTofu one for the first. From Terraform
//! 1.7 (`for_each` in imports) the finding is at the later `to` and names the resource without
//! its key; Terraform 1.6 and OpenTofu report it at the later block's header and name the
//! instance. Imports in override files are refused as such (`override_not_allowed`).

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::releases::Release;
use crate::lint::helpers::{json_array_def_range, static_traversal};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};
use crate::module::merge::{MergedAttribute, MergedBlock};
use crate::source::{SourceFiles, Span};

pub(crate) const RULE: Rule = declare_rule! {
    id: "import_duplicate_target",
    kind: LoadError,
    summary: "two import blocks with the same target",
    check: Check::View(RuleViews::Both, check),
};

/// The first Terraform release with `for_each` in imports, which reports a duplicate at its
/// `to` and names the resource rather than the instance.
const TERRAFORM_REPORTS_AT_TO: Release = Release::new(1, 7);

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let at_to = ctx.view == View::Terraform
        && (ctx.targets.releases.last()).is_some_and(|&r| r >= TERRAFORM_REPORTS_AT_TO);
    let mut earlier: Vec<(String, &MergedBlock)> = Vec::new();
    let imports = || ctx.module.unmerged.iter().filter(|b| b.kind == "import");
    // Found only for a duplicate reported at its block: an import of a JSON array is reported
    // at the array's bracket.
    let mut import_bodies: Option<Vec<Span>> = None;
    for import in imports() {
        let Some(to) = import.body.attribute("to") else {
            continue;
        };
        let Some(target) = static_target(ctx.files, to) else {
            continue;
        };
        // Terraform reports each earlier import with the same target, OpenTofu the first
        // (its loop `continue`s to the next import).
        let matches = earlier.iter().filter(|(t, _)| *t == target);
        let shown = if ctx.view == View::Terraform {
            usize::MAX
        } else {
            1
        };
        for (_, first) in matches.take(shown) {
            let (place, named) = if at_to {
                let resource = target.split('[').next().unwrap_or_default();
                (to.value_span(), resource.to_string())
            } else {
                let siblings =
                    import_bodies.get_or_insert_with(|| imports().map(|b| b.body_span).collect());
                let block = (import.header_span, import.body_span);
                (
                    json_array_def_range(ctx.files, block, siblings),
                    target.clone(),
                )
            };
            out.push(duplicate_import(ctx, &named, place, first.header_span));
        }
        earlier.push((target, import));
    }
}

/// The address an import's `to` names when it is static, without blanks: names joined by dots,
/// each key a number or a string without interpolation (`aws_instance.web["a"]`).
fn static_target(files: &SourceFiles, to: &MergedAttribute) -> Option<String> {
    let text = static_traversal(files, &to.expr)?;
    // `each.key` and other references are names too: a static target starts with a resource
    // type or `module`, never with a reference root.
    let root = text.split(['.', '[']).next().unwrap_or_default();
    let dynamic = [
        "each",
        "count",
        "var",
        "local",
        "data",
        "self",
        "path",
        "terraform",
    ];
    (!dynamic.contains(&root) && !text.contains("each.")).then_some(text)
}

/// `Duplicate import configuration for "<address>"`
fn duplicate_import(ctx: &Context, named: &str, place: Span, first: Span) -> Diagnostic {
    // The tools quote the address as Go's `%q` does: `aws_instance.web[\"a\"]`.
    let quoted = named.replace('\\', "\\\\").replace('"', "\\\"");
    ctx.finding(
        &RULE,
        format!("Duplicate import configuration for \"{quoted}\""),
    )
    .at(ctx.files, place, "imported again here")
    .with_label(ctx.files, first, "first imported here")
    .with_note(format!(
        "An import block for the resource \"{quoted}\" was already declared. A resource can \
         have only one import block."
    ))
    .with_help("remove one of the two import blocks")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings_targeting_terraform, places};

    const RESOURCE: &str = "resource \"terraform_data\" \"a\" {\n  for_each = toset([\"a\"])\n}\n";

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "import {\n  to = terraform_data.a[\"a\"]\n  id = \"x\"\n}\n\
             import {\n  to = terraform_data.a[\"b\"]\n  id = \"x\"\n}\n",
        )],
        // A target with a reference in its key is not static: not compared.
        &[(
            "main.tf",
            "import {\n  for_each = toset([\"a\"])\n  to = terraform_data.a[each.key]\n  id = \"x\"\n}\n\
             import {\n  for_each = toset([\"a\"])\n  to = terraform_data.a[each.key]\n  id = \"x\"\n}\n",
        )],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("main.tf", RESOURCE),
                (
                    "i.tf",
                    "import {\n  to = terraform_data.a[\"a\"]\n  id = \"x\"\n}\n\
                     import {\n  to = terraform_data.a[ \"a\" ]\n  id = \"y\"\n}\n",
                ),
            ],
            // One in each view.
            2,
        ),
        // Across files and syntaxes; three imports of one target are two findings and one.
        (
            &[
                ("main.tf", RESOURCE),
                (
                    "a.tf",
                    "import {\n  to = terraform_data.a[\"a\"]\n  id = \"x\"\n}\n",
                ),
                (
                    "b.tf.json",
                    r#"{"import": [{"to": "terraform_data.a[\"a\"]", "id": "y"}, {"to": "terraform_data.a[\"a\"]", "id": "z"}]}"#,
                ),
            ],
            // Terraform: two for the third import; OpenTofu: one for each JSON import, both at
            // the array's bracket, the same finding.
            4,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// Before 1.7 Terraform reports a duplicate at the later block's `DefRange`, which for an
    /// element of a JSON array is the array's bracket, whichever element it is: Terraform 1.6.6
    /// reports both duplicates below at line 2 (`"import": [`); a block written as an object
    /// is reported at its brace. From 1.7, at the later `to`.
    #[test]
    fn in_a_json_array_at_its_bracket_before_1_7() {
        let json = "{\n  \"import\": [\n    {\"to\": \"terraform_data.a[\\\"a\\\"]\", \"id\": \"x\"},\n    \
                    {\"to\": \"terraform_data.a[\\\"a\\\"]\", \"id\": \"y\"},\n    \
                    {\"to\": \"terraform_data.a[\\\"a\\\"]\", \"id\": \"z\"}\n  ]\n}\n";
        let object = r#"{"import": {"to": "terraform_data.a[\"a\"]", "id": "w"}}"#;
        let places = |terraform: &str| {
            let files: Files = &[
                ("main.tf", RESOURCE),
                ("i.tf.json", json),
                ("j.tf.json", object),
            ];
            let found = findings_targeting_terraform(&super::RULE, files, terraform);
            let mut found = places(found.iter().filter(|d| d.views.terraform));
            found.dedup();
            found
        };
        let at = |file: &str, line, column| (file.to_string(), (line, column));
        assert_eq!(
            places("1.6.6"),
            [at("i.tf.json", 2, 13), at("j.tf.json", 1, 12)]
        );
        assert_eq!(
            places("1.7.0"),
            [
                at("i.tf.json", 4, 12),
                at("i.tf.json", 5, 12),
                at("j.tf.json", 1, 19)
            ]
        );
    }
}
