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
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};
use crate::module::merge::{MergedAttribute, MergedBlock};
use crate::source::{SourceFiles, Span};
use crate::syntax;

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
    for import in ctx.module.unmerged.iter().filter(|b| b.kind == "import") {
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
                (def_range(ctx.files, import), target.clone())
            };
            out.push(duplicate_import(ctx, &named, place, first.header_span));
        }
        earlier.push((target, import));
    }
}

/// The address an import's `to` names when it is static, without blanks: names joined by dots,
/// each key a number or a string without interpolation (`aws_instance.web["a"]`).
fn static_target(files: &SourceFiles, to: &MergedAttribute) -> Option<String> {
    let text: String = match &to.expr.json_string {
        Some(value) => value.to_string(),
        None => files.text(to.expr.span).to_string(),
    };
    let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut rest = text.as_str();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[') {
            let end = after.find(']')?;
            let key = &after[..end];
            let quoted = key.len() >= 2
                && key.starts_with('"')
                && key.ends_with('"')
                && !key[1..key.len() - 1].contains(['"', '$', '%', '\\']);
            let number = !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit());
            if !(quoted || number) {
                return None;
            }
            rest = &after[end + 1..];
        } else {
            let name = rest.trim_start_matches('.');
            let end = name.find(['.', '[']).unwrap_or(name.len());
            let ident = &name[..end];
            if ident.is_empty()
                || !ident
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            {
                return None;
            }
            rest = &name[end..];
        }
    }
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

/// Where the tools report a merged block: as for a written one ([`syntax::def_range`]).
fn def_range(files: &SourceFiles, block: &MergedBlock) -> Span {
    syntax::def_range(files, block.header_span, block.body_span)
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
    use crate::lint::testing::{Files, check_table};

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
            // Terraform: two for the third import; OpenTofu: one.
            5,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
