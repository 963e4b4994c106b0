//! Arguments and blocks a provider configuration may not hold: the tools reserve `count`,
//! `depends_on`, `for_each` and `source`, and the block types `lifecycle` and `locals`, for a
//! future version, and refuse to load the module ("Reserved argument name in provider block",
//! "Reserved block type name in provider block": hashicorp/terraform and opentofu/opentofu
//! `internal/configs/provider.go`, `decodeProviderBlock`). OpenTofu 1.9 made `for_each` a
//! meta-argument of provider configurations (the release tables date it).

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::features::{self, Body, Place};
use crate::source::Span;
use crate::syntax::{Block, ExprKind};

use crate::lint::helpers::top_level_blocks_of;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "provider_reserved_argument",
    kind: LoadError,
    summary: "an argument or block a provider configuration may not hold",
    check: Check::View(RuleViews::Both, check),
};

/// The argument names both tools reserve in every release; `for_each` is judged by the release
/// tables, since OpenTofu has it.
const RESERVED_ARGUMENTS: &[&str] = &["count", "depends_on", "source"];

/// The nested block types both tools reserve.
const RESERVED_BLOCKS: &[&str] = &["lifecycle", "locals"];

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (_, provider) in top_level_blocks_of(ctx, &["provider"]) {
        check_provider(ctx, provider, out);
    }
}

fn check_provider(ctx: &Context, provider: &Block, out: &mut Vec<Diagnostic>) {
    for attr in &provider.body.attributes {
        let name = attr.name.as_str();
        // In JSON a reserved block is written as an object property, which we read as an
        // argument; the tools, whose schema names it a block type, decode it as a block.
        let json_object = attr.expr.json_string().is_none()
            && matches!(attr.expr.kind, ExprKind::Object(_))
            && ctx
                .files
                .get(attr.name_span.file)
                .file_name()
                .ends_with(".json");
        if json_object && RESERVED_BLOCKS.contains(&name) {
            out.push(reserved_block(ctx, attr.name_span, name));
        } else if RESERVED_ARGUMENTS.contains(&name) || (name == "for_each" && refused(ctx)) {
            out.push(reserved_argument(ctx, attr.name_span, name));
        }
    }
    for nested in provider.body.blocks.iter() {
        if RESERVED_BLOCKS.contains(&nested.kind.as_str()) {
            out.push(reserved_block(ctx, block_type_span(nested), &nested.kind));
        }
    }
}

/// Whether every targeted release refuses `for_each` in a provider configuration.
fn refused(ctx: &Context) -> bool {
    let place = Place::In(Body::Provider);
    !ctx.targets.releases.is_empty()
        && (ctx.targets.releases.iter())
            .all(|&r| features::accepts(ctx.view, r, place, "for_each") == Some(false))
}

/// The block type as written (HCL's `TypeRange`), the start of the header.
fn block_type_span(block: &Block) -> Span {
    let start = block.header_span.start as usize;
    Span::new(block.header_span.file, start..start + block.kind.len())
}

fn tool(view: View) -> &'static str {
    match view {
        View::Terraform => "Terraform",
        View::OpenTofu => "OpenTofu",
    }
}

/// `Reserved argument name in provider block`
fn reserved_argument(ctx: &Context, span: Span, name: &str) -> Diagnostic {
    ctx.finding(&RULE, "Reserved argument name in provider block")
        .at(ctx.files, span, "reserved")
        .with_note(format!(
            "The provider argument name \"{name}\" is reserved for use by {} in a future \
             version.",
            tool(ctx.view)
        ))
        .with_help("remove it from the provider configuration")
}

/// `Reserved block type name in provider block`
fn reserved_block(ctx: &Context, span: Span, name: &str) -> Diagnostic {
    ctx.finding(&RULE, "Reserved block type name in provider block")
        .at(ctx.files, span, "reserved")
        .with_note(format!(
            "The block type name \"{name}\" is reserved for use by {} in a future version.",
            tool(ctx.view)
        ))
        .with_help("remove it from the provider configuration")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "provider \"aws\" {\n  alias  = \"east\"\n  region = \"us-east-1\"\n}\n",
        )],
        // OpenTofu 1.9 and later have provider `for_each`; `.tofu` files are OpenTofu's only.
        &[(
            "main.tofu",
            "terraform {\n  required_version = \">= 1.9\"\n}\nprovider \"aws\" {\n  alias    = \
             \"by_region\"\n  for_each = toset([\"us-east-1\"])\n  region   = each.key\n}\n",
        )],
        // A resource's `count` and `lifecycle` are not the provider's.
        &[(
            "main.tf",
            "resource \"terraform_data\" \"a\" {\n  count = 1\n  lifecycle {\n    \
             prevent_destroy = true\n  }\n}\n",
        )],
    ];

    const FAIL: &[(Files, usize)] = &[
        // Terraform 1.6.6 to 1.15.5 (the judges): "Reserved argument name in provider block"
        // at `for_each`.
        (
            &[(
                "main.tf",
                "provider \"aws\" {\n  alias    = \"c0\"\n  for_each = toset([])\n}\n",
            )],
            1,
        ),
        (
            &[(
                "main.tf",
                "provider \"aws\" {\n  count      = 1\n  depends_on = []\n  source     = \"x\"\n}\n",
            )],
            // One per tool: each names itself in the detail.
            6,
        ),
        (
            &[(
                "main.tf",
                "provider \"aws\" {\n  lifecycle {\n  }\n  locals {\n  }\n}\n",
            )],
            4,
        ),
        (
            &[(
                "main.tf.json",
                r#"{"provider": {"aws": {"count": 1, "locals": {"a": 1}}}}"#,
            )],
            4,
        ),
        // OpenTofu before 1.9 reserves `for_each` too.
        (
            &[(
                "main.tofu",
                "terraform {\n  required_version = \"< 1.9\"\n}\nprovider \"aws\" {\n  \
                 for_each = toset([])\n}\n",
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
