//! After merging, a block has both `count` and `for_each`: override files copy the two
//! independently, the tools accept the result at load time, and `count` silently wins.

use crate::diagnostic::Diagnostic;
use crate::lint::helpers::override_blocks_in;
use crate::module::merge::{Address, MergedAttribute, Origin};
use crate::source::Span;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_count_for_each_conflict",
    severity: Warning,
    default: On,
    summary: "after merging, a block has both count and for_each",
    check: Check::View(RuleViews::Both, check),
};

const NOTE: &str = "Override files copy `count` and `for_each` independently, so the merged \
                    block keeps both. The tools accept it at load time (they check each block \
                    before merging) and `count` silently wins when planning.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for object in &ctx.module.objects {
        if !matches!(
            object.address,
            Address::Resource(..) | Address::ModuleCall(_)
        ) {
            continue;
        }
        let (Some(count), Some(for_each)) = (
            object.body.attribute("count"),
            object.body.attribute("for_each"),
        ) else {
            continue;
        };
        // A null on either side is no way out: Terraform rejects a null `count` when planning.
        // Both in one block is the tools' own load error (`count_and_for_each`).
        let (from_override, other) = match (count.origin, for_each.origin) {
            (Origin::Override, Origin::Base) => (count, for_each),
            (Origin::Base, Origin::Override) => (for_each, count),
            (Origin::Override, Origin::Override)
                if count.name_span.file != for_each.name_span.file
                    || !same_block(count.span(), for_each.span(), ctx) =>
            {
                (for_each, count)
            }
            _ => continue,
        };
        out.push(both_set(ctx, &object.address, from_override, other));
    }
}

/// Whether two spans lie in the same override block (then the tools report it themselves).
fn same_block(a: Span, b: Span, ctx: &Context) -> bool {
    override_blocks_in(ctx, a.file).any(|block| {
        let s = block.span();
        s.start <= a.start && a.end <= s.end && s.start <= b.start && b.end <= s.end
    })
}

/// `after merging, resource `x.y` has both `count` and `for_each``
fn both_set(
    ctx: &Context,
    address: &Address,
    from_override: &MergedAttribute,
    other: &MergedAttribute,
) -> Diagnostic {
    let (added, kept) = (&from_override.name, &other.name);
    let message = format!(
        "after merging, {} has both `count` and `for_each`",
        address.describe()
    );
    ctx.finding(&RULE, message)
        .at(
            ctx.files,
            from_override.span(),
            format!("`{added}` added by an override"),
        )
        .with_label(ctx.files, other.span(), format!("`{kept}` is still set"))
        .with_note(NOTE)
        .with_help(format!(
            "make the change in the base block: replace `{kept}` with `{added}` there, and \
             leave both out of the override"
        ))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::override_fixtures::EMPTY_A;
    use crate::lint::testing::{Files, check_table};

    const COUNT_1: &str = "resource \"terraform_data\" \"a\" {\n  count = 1\n}\n";
    const COUNT_2: &str = "resource \"terraform_data\" \"a\" {\n  count = 2\n}\n";
    const COUNT_NULL: &str = "resource \"terraform_data\" \"a\" {\n  count = null\n}\n";
    const FOR_EACH: &str = "resource \"terraform_data\" \"a\" {\n  for_each = toset([\"x\"])\n}\n";

    const COUNT_NULL_AND_FOR_EACH: &str = r#"resource "terraform_data" "a" {
  count    = null
  for_each = toset(["x"])
}
"#;

    const COUNT_AND_FOR_EACH: &str = r#"resource "terraform_data" "a" {
  count    = 1
  for_each = toset(["x"])
}
"#;

    const MODULE_FOR_EACH: &str = r#"module "m" {
  source   = "./m"
  for_each = var.m
}
"#;

    const PASS: &[Files] = &[
        // Replacing count by count.
        &[("main.tf", COUNT_1), ("override.tf", COUNT_2)],
        // `count = null` beside `for_each` in one block: the load error `count_and_for_each`.
        &[
            ("main.tf", COUNT_1),
            ("override.tf", COUNT_NULL_AND_FOR_EACH),
        ],
        // Both in one override block: the load error `count_and_for_each` reports it.
        &[("main.tf", EMPTY_A), ("override.tf", COUNT_AND_FOR_EACH)],
    ];

    const FAIL: &[(Files, usize)] = &[
        // Nulling `count` in a later override does not help: a null count fails at plan.
        (
            &[
                ("main.tf", COUNT_1),
                ("a_override.tf", FOR_EACH),
                ("b_override.tf", COUNT_NULL),
            ],
            1,
        ),
        (&[("main.tf", COUNT_2), ("override.tf", FOR_EACH)], 1),
        (
            &[
                ("main.tf", MODULE_FOR_EACH),
                ("override.tf.json", r#"{"module": {"m": {"count": 1}}}"#),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
