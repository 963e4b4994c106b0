//! After merging, a block has both `count` and `for_each`.

use crate::diagnostic::Diagnostic;
use crate::module::merge::{Address, Origin};

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_count_for_each_conflict",
    severity: Error,
    default: On,
    summary: "after merging, a block has both count and for_each",
    check: Check::View(RuleViews::Both, check),
};

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
        out.push(
            ctx.finding(
                &RULE,
                format!("after merging, {} has both `count` and `for_each`", object.address.describe()),
            )
            .at(ctx.files, from_override.span(), format!("`{}` added by an override", from_override.name))
            .with_label(ctx.files, other.span(), format!("`{}` is still set", other.name))
            .with_note("Override files copy `count` and `for_each` independently, so the merged block keeps both. The tools accept it at load time (they check each block before merging) and `count` silently wins when planning.")
            .with_help(format!(
                "make the change in the base block: replace `{}` with `{}` there, and leave both out of the override",
                other.name, from_override.name
            )),
        );
    }
}

/// Whether two spans lie in the same override block (then the tools report it themselves).
fn same_block(a: crate::source::Span, b: crate::source::Span, ctx: &Context) -> bool {
    ctx.overrides
        .iter()
        .filter(|f| f.file.id == a.file)
        .flat_map(|f| &f.file.body.blocks)
        .any(|block| {
            let s = block.span();
            s.start <= a.start && a.end <= s.end && s.start <= b.start && b.end <= s.end
        })
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::check_table;

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[
                // Replacing count by count.
                &[
                    (
                        "main.tf",
                        "resource \"terraform_data\" \"a\" {\n  count = 1\n}\n",
                    ),
                    (
                        "override.tf",
                        "resource \"terraform_data\" \"a\" {\n  count = 2\n}\n",
                    ),
                ],
                // `count = null` beside `for_each` in one block: the load error `count_and_for_each`.
                &[
                    (
                        "main.tf",
                        "resource \"terraform_data\" \"a\" {\n  count = 1\n}\n",
                    ),
                    (
                        "override.tf",
                        "resource \"terraform_data\" \"a\" {\n  count    = null\n  for_each = toset([\"x\"])\n}\n",
                    ),
                ],
                // Both in one override block: the load error `count_and_for_each` reports it.
                &[
                    ("main.tf", "resource \"terraform_data\" \"a\" {}\n"),
                    (
                        "override.tf",
                        "resource \"terraform_data\" \"a\" {\n  count    = 1\n  for_each = toset([\"x\"])\n}\n",
                    ),
                ],
            ],
            &[
                // Nulling `count` in a later override does not help: a null count fails at plan.
                (
                    &[
                        (
                            "main.tf",
                            "resource \"terraform_data\" \"a\" {\n  count = 1\n}\n",
                        ),
                        (
                            "a_override.tf",
                            "resource \"terraform_data\" \"a\" {\n  for_each = toset([\"x\"])\n}\n",
                        ),
                        (
                            "b_override.tf",
                            "resource \"terraform_data\" \"a\" {\n  count = null\n}\n",
                        ),
                    ],
                    1,
                ),
                (
                    &[
                        (
                            "main.tf",
                            "resource \"terraform_data\" \"a\" {\n  count = 2\n}\n",
                        ),
                        (
                            "override.tf",
                            "resource \"terraform_data\" \"a\" {\n  for_each = toset([\"x\"])\n}\n",
                        ),
                    ],
                    1,
                ),
                (
                    &[
                        (
                            "main.tf",
                            "module \"m\" {\n  source   = \"./m\"\n  for_each = var.m\n}\n",
                        ),
                        ("override.tf.json", r#"{"module": {"m": {"count": 1}}}"#),
                    ],
                    1,
                ),
            ],
        );
    }
}
