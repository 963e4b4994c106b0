//! An import's `to` that is not a static address (`terraform_data.a[each.key]`, a call, a
//! template) where every targeted release has `import` blocks without `for_each`: those
//! releases read `to` as a static traversal (hashicorp/terraform v1.6 `internal/configs/
//! import.go`, `decodeImportBlock`: `hcl.AbsTraversalForExpr`), and refuse anything else,
//! "Invalid expression", in every file; Terraform 1.7 and OpenTofu 1.7 brought `for_each` and
//! with it keys that are references. Where only some targeted releases lack `for_each`,
//! `feature_newer_than_target` says so of the `for_each` that such a `to` needs.

use crate::diagnostic::Diagnostic;
use crate::knowledge::features::{Body, Place};
use crate::source::Span;

use crate::lint::helpers::{static_traversal, top_level_blocks_of};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "import_target_not_static",
    kind: LoadError,
    summary: "an import `to` with a dynamic key where no targeted release has import `for_each`",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let targeted = ctx.targets.releases.len();
    let static_only = ctx.targets.refusing(Place::TopLevel, "import").is_empty()
        && ctx
            .targets
            .refusing(Place::In(Body::Import), "for_each")
            .len()
            == targeted;
    if !static_only {
        return;
    }
    let imports = top_level_blocks_of(ctx, &["import"]);
    for (_, import) in imports {
        let Some(to) = import.body.attribute("to") else {
            continue;
        };
        if static_traversal(ctx.files, &to.expr).is_none() {
            out.push(not_static(ctx, to.expr.span));
        }
    }
}

/// `Invalid expression`, at the value of `to`.
fn not_static(ctx: &Context, span: Span) -> Diagnostic {
    ctx.finding(&RULE, "Invalid expression")
        .at(ctx.files, span, "not a static address")
        .with_note(
            "A single static variable reference is required: only attribute access and indexing \
             with constant keys. No calculations, function calls, template expressions, etc are \
             allowed here.",
        )
        .with_note(format!(
            "{} reads an import's `to` as a static address until import `for_each` ({}); this \
             module targets {}.",
            ctx.view.tool_name(),
            for_each_since(ctx),
            ctx.targets.describe()
        ))
        .with_help("write one import block per instance, each with a constant key")
}

/// The release that brought `for_each` to imports in the view's tool.
fn for_each_since(ctx: &Context) -> String {
    crate::knowledge::features::find(Place::In(Body::Import), "for_each")
        .and_then(|f| f.availability(ctx.view).since())
        .map_or_else(String::new, |since| since.to_string())
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings_targeting_terraform, places};

    /// Terraform 1.5 and 1.6, OpenTofu 1.6: imports without `for_each`.
    const BEFORE: &str = "terraform {\n  required_version = \">= 1.5, < 1.7\"\n}\n";

    const RESOURCE: &str = "resource \"terraform_data\" \"a\" {\n  for_each = toset([\"a\"])\n}\n";

    const DYNAMIC: &str = "import {\n  for_each = toset([\"a\"])\n  to = terraform_data.a[each.key]\n  \
                           id = each.key\n}\n";

    const PASS: &[Files] = &[
        // Releases with import `for_each`.
        &[("main.tf", RESOURCE), ("i.tf", DYNAMIC)],
        // Static addresses.
        &[
            ("main.tf", RESOURCE),
            ("versions.tf", BEFORE),
            (
                "i.tf",
                "import {\n  to = terraform_data.a[\"a\"]\n  id = \"x\"\n}\n",
            ),
            (
                "j.tf.json",
                r#"{"import": {"to": "terraform_data.a[0]", "id": "x"}}"#,
            ),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("main.tf", RESOURCE),
                ("versions.tf", BEFORE),
                ("i.tf", DYNAMIC),
            ],
            1,
        ),
        // JSON, a template key.
        (
            &[
                ("main.tf", RESOURCE),
                ("versions.tf", BEFORE),
                (
                    "j.tf.json",
                    r#"{"import": {"to": "terraform_data.a[\"${each.key}\"]", "id": "x"}}"#,
                ),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// Where Terraform 1.6.6 reports it: at the value, in native syntax and in JSON (at the
    /// string's quote).
    #[test]
    fn at_the_value() {
        let json = r#"{"import": {"to": "terraform_data.a[each.key]", "id": "w"}}"#;
        let files: Files = &[
            ("main.tf", RESOURCE),
            ("i.tf", DYNAMIC),
            ("j.tf.json", json),
        ];
        let found = findings_targeting_terraform(&super::RULE, files, "1.6.6");
        assert_eq!(
            places(found.iter().filter(|d| d.views.terraform)),
            [
                ("i.tf".to_string(), (3, 8)),
                ("j.tf.json".to_string(), (1, 19))
            ]
        );
    }
}
