//! A setting the tools decode as a constant bool, with no evaluation, whose value is not a bool:
//! `prevent_destroy = "yes"`, `create_before_destroy = null`, `sensitive = 1`. Terraform reads a
//! resource's `create_before_destroy` and `prevent_destroy`, a `removed` block's `lifecycle {
//! destroy }`, and a variable's or output's `sensitive`, `nullable`, `ephemeral` and `const` with
//! `gohcl.DecodeExpression(expr, nil, &bool)` (hashicorp/terraform `internal/configs/resource.go`,
//! `removed.go`, `named_values.go`) as it decodes each block, in primary and override files
//! alike, and refuses the module with `Unsuitable value type`. With no evaluation context a JSON
//! string is its literal text (HCL `json/structure.go`, `expression.Value`): `"true"` converts to
//! a bool, `"${true}"` does not. OpenTofu does the same, except that from 1.12 it evaluates
//! `prevent_destroy` when planning (opentofu/opentofu v1.12.0 `internal/configs/resource.go`).
//! In native syntax a reference or function call is refused as such (`Variables not allowed`,
//! `Function calls not allowed`) and then, its value unknown, as `Unsuitable value type`.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::features::{Body, Place};
use crate::knowledge::releases::Release;
use crate::source::{Span, Syntax};
use crate::syntax::{Attribute, Block, Call, ExprKind, Reference};
use crate::types::{Conversion, Type, convert};

use crate::lint::helpers::{nested_labels_refused, top_level_blocks};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "constant_bool_invalid",
    kind: LoadError,
    summary: "a lifecycle flag, `sensitive`, `nullable` or the like whose value is not a bool",
    check: Check::View(RuleViews::Both, check),
};

/// One setting the tools decode as a constant bool.
struct ConstantBool {
    /// Block kinds from the root of the file to the block that holds the setting.
    path: &'static [&'static str],
    /// Where the release tables date the setting.
    body: Body,
    name: &'static str,
    /// The first OpenTofu release that evaluates the setting instead (and so no longer refuses
    /// a non-bool value as it loads the module).
    opentofu_evaluates_from: Option<Release>,
}

const fn setting(path: &'static [&'static str], body: Body, name: &'static str) -> ConstantBool {
    ConstantBool {
        path,
        body,
        name,
        opentofu_evaluates_from: None,
    }
}

const SETTINGS: &[ConstantBool] = &[
    setting(
        &["resource", "lifecycle"],
        Body::Lifecycle,
        "create_before_destroy",
    ),
    ConstantBool {
        opentofu_evaluates_from: Some(Release::new(1, 12)),
        ..setting(
            &["resource", "lifecycle"],
            Body::Lifecycle,
            "prevent_destroy",
        )
    },
    setting(&["removed", "lifecycle"], Body::RemovedLifecycle, "destroy"),
    setting(&["variable"], Body::Variable, "sensitive"),
    setting(&["variable"], Body::Variable, "nullable"),
    setting(&["variable"], Body::Variable, "ephemeral"),
    setting(&["variable"], Body::Variable, "const"),
    setting(&["output"], Body::Output, "sensitive"),
    setting(&["output"], Body::Output, "ephemeral"),
];

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let judged: Vec<&ConstantBool> = SETTINGS.iter().filter(|s| judged(ctx, s)).collect();
    if judged.is_empty() {
        return;
    }
    for (loaded, block) in top_level_blocks(ctx) {
        let native = loaded.extension.syntax() == Syntax::Native;
        for setting in judged.iter().filter(|s| s.path[0] == block.kind) {
            for holder in holders(block, &setting.path[1..], native) {
                let Some(attr) = holder.body.attribute(setting.name) else {
                    continue;
                };
                if native && not_static(ctx, attr, out) {
                    out.push(unsuitable_value(ctx, attr, UNKNOWN_VALUE));
                } else if let Some(reason) = not_a_bool(attr) {
                    out.push(unsuitable_value(ctx, attr, &reason));
                }
            }
        }
    }
}

/// go-cty's words for the unknown value HCL gives an expression it could not evaluate.
const UNKNOWN_VALUE: &str = "value must be known";

/// Reports the calls and references HCL refuses in a native expression decoded without an
/// evaluation context (`Function calls not allowed`, `Variables not allowed`; not those in a
/// refused call's arguments, which it never evaluates: hashicorp/hcl `hclsyntax/
/// expression.go`); returns whether there was one (the value is then unknown, and
/// `Unsuitable value type` follows). A JSON string is never evaluated here.
fn not_static(ctx: &Context, attr: &Attribute, out: &mut Vec<Diagnostic>) -> bool {
    let mut refused: Vec<Span> = Vec::new();
    let inside = |refused: &[Span], span: Span| {
        (refused.iter()).any(|r| r.start <= span.start && span.end <= r.end)
    };
    let mut found = Vec::new();
    attr.expr.for_each_call(&mut |site| {
        if !inside(&refused, site.call.span) {
            refused.push(site.call.span.to(site.call.arguments.close));
            found.push((site.call.span, function_call(ctx, attr, site.call)));
        }
    });
    attr.expr.for_each_reference(&mut |reference| {
        if !inside(&refused, reference.span) {
            found.push((reference.span, variable(ctx, attr, reference)));
        }
    });
    found.sort_by_key(|(span, _)| span.start);
    let any = !found.is_empty();
    out.extend(found.into_iter().map(|(_, d)| d));
    any
}

/// `Function calls not allowed`
fn function_call(ctx: &Context, attr: &Attribute, call: &Call) -> Diagnostic {
    ctx.finding(&RULE, "Function calls not allowed")
        .at(
            ctx.files,
            call.span,
            format!("a function call in `{}`", attr.name),
        )
        .with_note("Functions may not be called here.")
        .with_help("write `true` or `false`: the tools read this setting without evaluating it")
}

/// `Variables not allowed`
fn variable(ctx: &Context, attr: &Attribute, reference: &Reference) -> Diagnostic {
    ctx.finding(&RULE, "Variables not allowed")
        .at(
            ctx.files,
            reference.span,
            format!("a reference in `{}`", attr.name),
        )
        .with_note("Variables may not be used here.")
        .with_help("write `true` or `false`: the tools read this setting without evaluating it")
}

/// Whether every targeted release knows the setting and decodes it as a constant: a release
/// without it refuses the argument itself (`feature_newer_than_target`'s finding), and OpenTofu
/// 1.12 and later evaluate `prevent_destroy` only when planning.
fn judged(ctx: &Context, setting: &ConstantBool) -> bool {
    let known = (ctx.targets)
        .refusing(Place::In(setting.body), setting.name)
        .is_empty();
    let constant = match (ctx.view, setting.opentofu_evaluates_from) {
        (View::OpenTofu, Some(from)) => ctx.targets.newest() < from,
        _ => true,
    };
    known && constant
}

/// The blocks reached from `block` by the nested block kinds of `path` (the block itself when
/// `path` is empty).
fn holders<'b>(block: &'b Block, path: &'b [&str], native: bool) -> Vec<&'b Block> {
    let Some((kind, rest)) = path.split_first() else {
        return vec![block];
    };
    (block.body.blocks_of(kind))
        .filter(|nested| !native || !nested_labels_refused(&block.kind, nested))
        .flat_map(|nested| holders(nested, rest, native))
        .collect()
}

/// Why the value is no bool, in go-cty's words; `None` when it is one or is not a literal (a
/// reference or call, which the tools refuse with other words).
fn not_a_bool(attr: &Attribute) -> Option<String> {
    if attr.expr.json_string().is_none() && matches!(attr.expr.kind, ExprKind::Null) {
        // gocty.FromCtyValue refuses a null for a Go bool (go-cty `gocty/in.go`).
        return Some("null value is not allowed".to_string());
    }
    match convert(&attr.expr, &Type::Bool) {
        Conversion::Invalid(reason) => Some(reason),
        Conversion::Ok | Conversion::Unknown => None,
    }
}

/// `Unsuitable value type`, on the value.
fn unsuitable_value(ctx: &Context, attr: &Attribute, reason: &str) -> Diagnostic {
    let literal_json = match attr.expr.json_string() {
        Some(s) if s.contains("${") => {
            " In JSON syntax this string is taken as it is written, not as a template."
        }
        _ => "",
    };
    ctx.finding(&RULE, "Unsuitable value type")
        .at(ctx.files, attr.expr.span, reason.to_string())
        .with_note(format!(
            "Unsuitable value: {reason}. The tools read `{}` as a constant bool, without \
             evaluating it.{literal_json}",
            attr.name
        ))
        .with_help("write `true` or `false`")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings_targeting_opentofu};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    prevent_destroy = true\n    \
             create_before_destroy = \"false\"\n  }\n}\n",
        )],
        // A lifecycle block with a label: refused and skipped, its settings never decoded
        // (`block_labels_invalid` reports it).
        &[(
            "main.tf",
            "resource \"terraform_data\" \"a\" {\n  lifecycle \"x\" {\n    \
             create_before_destroy = \"no\"\n  }\n}\n",
        )],
        // A string that converts: "true", "1" (go-cty's string to bool).
        &[(
            "main.tf.json",
            r#"{"resource": {"terraform_data": {"a": {"lifecycle": {"prevent_destroy": "true", "create_before_destroy": "1"}}}}}"#,
        )],
        // A native template with no reference evaluates without a context.
        &[(
            "main.tf",
            "variable \"a\" {\n  sensitive = \"${true}\"\n}\n",
        )],
        // A data source's lifecycle has no such flags: another load error.
        &[(
            "main.tf",
            "data \"terraform_data\" \"a\" {\n  lifecycle {\n    prevent_destroy = \"yes\"\n  \
             }\n}\n",
        )],
    ];

    const FAIL: &[(Files, usize)] = &[
        // A reference, a call: `Variables not allowed` or `Function calls not allowed`, then
        // `Unsuitable value type` (Terraform 1.6.6 and 1.15.5), in the Terraform view; OpenTofu
        // 1.12 evaluates prevent_destroy, but not create_before_destroy.
        (
            &[(
                "main.tf",
                "variable \"x\" {}\nresource \"terraform_data\" \"a\" {\n  lifecycle {\n    \
                 prevent_destroy = var.x\n    create_before_destroy = tobool(var.x)\n  }\n}\n",
            )],
            4,
        ),
        // Terraform 1.6.6, 1.14.9 and 1.15.5: `Unsuitable value type`, "Unsuitable value: a
        // bool is required"; the OpenTofu view (1.12,
        // which evaluates prevent_destroy) shares the create_before_destroy finding.
        (
            &[(
                "main.tf",
                "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    prevent_destroy = \
                 \"yes\"\n    create_before_destroy = \"no\"\n  }\n}\n",
            )],
            2,
        ),
        // JSON strings are literal here: "${" and "${true}" are no bools.
        (
            &[(
                "main.tf.json",
                r#"{"resource": {"terraform_data": {"a": {"lifecycle": {"create_before_destroy": "${"}}}}}"#,
            )],
            1,
        ),
        (
            &[(
                "main.tf.json",
                r#"{"variable": {"a": {"sensitive": "${true}"}}}"#,
            )],
            1,
        ),
        // null: "Unsuitable value: null value is not allowed".
        (
            &[(
                "main.tf",
                "output \"a\" {\n  value     = 1\n  sensitive = null\n}\n",
            )],
            1,
        ),
        // In an override file too (each block is decoded before merging).
        (
            &[
                ("main.tf", "variable \"a\" {}\n"),
                ("main_override.tf", "variable \"a\" {\n  nullable = 1\n}\n"),
            ],
            1,
        ),
        (
            &[(
                "main.tf",
                "removed {\n  from = terraform_data.a\n  lifecycle {\n    destroy = \"True\"\n  \
                 }\n}\n",
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn opentofu_1_12_evaluates_prevent_destroy() {
        let files: Files = &[(
            "main.tf",
            "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    prevent_destroy = \
             \"yes\"\n  }\n}\n",
        )];
        for (opentofu, in_opentofu) in [("~> 1.11.0", true), ("~> 1.12.0", false)] {
            let found = findings_targeting_opentofu(&super::RULE, files, opentofu);
            assert_eq!(found.len(), 1, "{opentofu}: {found:#?}");
            assert_eq!(found[0].message, "Unsuitable value type");
            let label = found[0].primary.as_ref().map(|l| &*l.message);
            assert_eq!(label, Some("a bool is required"));
            assert!(found[0].views.terraform);
            assert_eq!(found[0].views.opentofu, in_opentofu, "{opentofu}");
        }
    }
}
