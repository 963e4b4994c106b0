//! An override's nested block type silently replaces several base blocks of that type.

use crate::diagnostic::Diagnostic;
use crate::lint::helpers::all_restated;
use crate::module::merge::events::{Event, Subject};

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_clobbers_nested_blocks",
    severity: Warning,
    default: On,
    summary: "an override's nested blocks replace several base blocks of that type",
    check: Check::View(RuleViews::Both, check),
};

/// Blocks other rules or the merge itself speak for: provisioners have their own rule,
/// `lifecycle` merges argument by argument, `connection` is one block.
const NOT_HERE: [&str; 4] = ["provisioner", "lifecycle", "connection", "required_version"];

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for event in &ctx.module.events {
        let Event::NestedBlocksReplaced {
            address,
            kind,
            by,
            dropped,
        } = event
        else {
            continue;
        };
        if dropped.len() < 2 || NOT_HERE.contains(&kind.as_str()) || *address == Subject::Terraform
        {
            continue;
        }
        // Restating every base block in the override is the documented way to keep them.
        if all_restated(ctx, dropped, by) {
            continue;
        }
        let Some(&first) = by.first() else { continue };
        let mut d = ctx
            .finding(
                &RULE,
                format!(
                    "override of {} replaces all {} `{kind}` blocks with {}",
                    address.describe(),
                    dropped.len(),
                    by.len()
                ),
            )
            .at(
                ctx.files,
                first,
                format!("this `{kind}` replaces every base `{kind}` block"),
            );
        for (i, &span) in dropped.iter().enumerate() {
            d = d.with_label(
                ctx.files,
                span,
                format!("dropped ({} of {})", i + 1, dropped.len()),
            );
        }
        out.push(
            d.with_note(format!(
                "A nested block type in an override file replaces every block of that type in the base, `dynamic \"{kind}\"` blocks included; blocks are never merged one by one, so the {} base blocks are gone from the module.",
                dropped.len()
            ))
            .with_help(format!("repeat in the override every `{kind}` block the module should keep, or change the base block instead")),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::check_table;

    const BASE: &str = r#"
resource "aws_security_group" "sg" {
  ingress {
    from_port = 80
  }
  ingress {
    from_port = 443
  }
  egress {
    from_port = 0
  }
}
"#;

    #[test]
    fn table() {
        check_table(
            &super::RULE,
            &[
                // Replacing a single block is what overrides are for.
                &[
                    ("main.tf", BASE),
                    (
                        "override.tf",
                        "resource \"aws_security_group\" \"sg\" {\n  egress {\n    from_port = 1\n  }\n}\n",
                    ),
                ],
                // Both base blocks restated, a third added.
                &[
                    ("main.tf", BASE),
                    (
                        "override.tf",
                        "resource \"aws_security_group\" \"sg\" {\n  ingress {\n    from_port = 80\n  }\n  ingress {\n    from_port = 443\n  }\n  ingress {\n    from_port = 22\n  }\n}\n",
                    ),
                ],
                // Attributes only.
                &[
                    ("main.tf", BASE),
                    (
                        "override.tf",
                        "resource \"aws_security_group\" \"sg\" {\n  name = \"x\"\n}\n",
                    ),
                ],
                // Provisioners have their own rule.
                &[
                    (
                        "main.tf",
                        "resource \"terraform_data\" \"a\" {\n  provisioner \"local-exec\" {\n    command = \"a\"\n  }\n  provisioner \"local-exec\" {\n    command = \"b\"\n  }\n}\n",
                    ),
                    (
                        "override.tf",
                        "resource \"terraform_data\" \"a\" {\n  provisioner \"local-exec\" {\n    command = \"c\"\n  }\n}\n",
                    ),
                ],
            ],
            &[
                (
                    &[
                        ("main.tf", BASE),
                        (
                            "override.tf",
                            "resource \"aws_security_group\" \"sg\" {\n  ingress {\n    from_port = 22\n  }\n}\n",
                        ),
                    ],
                    1,
                ),
                // JSON override, dynamic base blocks count too.
                (
                    &[
                        (
                            "main.tf",
                            "resource \"aws_security_group\" \"sg\" {\n  ingress {\n    from_port = 80\n  }\n  dynamic \"ingress\" {\n    for_each = var.rules\n    content {\n      from_port = ingress.value\n    }\n  }\n}\n",
                        ),
                        (
                            "sg_override.tf.json",
                            r#"{"resource": {"aws_security_group": {"sg": {"dynamic": {"ingress": {"for_each": "${var.other}", "content": {"from_port": 1}}}}}}}"#,
                        ),
                    ],
                    1,
                ),
                // A JSON base: a native override block replaces the JSON blocks of that type.
                (
                    &[
                        (
                            "main.tf.json",
                            r#"{"resource": {"aws_instance": {"web": {"provisioner": [{"local-exec": {"command": "a"}}], "dynamic": {"ebs_block_device": [{"for_each": "${var.a}", "content": {}}]}, "ebs_block_device": [{"device_name": "x"}]}}}}"#,
                        ),
                        (
                            "override.tf",
                            "resource \"aws_instance\" \"web\" {\n  ebs_block_device {\n    device_name = \"y\"\n  }\n}\n",
                        ),
                    ],
                    1,
                ),
            ],
        );
    }
}
