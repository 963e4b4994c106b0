//! An override's nested block type silently replaces several base blocks of that type: blocks
//! are never merged one by one, so every base block of that type but those restated is gone.

use crate::diagnostic::Diagnostic;
use crate::lint::helpers::{BlocksReplaced, lossy_block_replacements};
use crate::module::merge::events::Subject;
use crate::source::Span;

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
    let wanted = |r: &BlocksReplaced| {
        r.dropped.len() >= 2 && !NOT_HERE.contains(&r.kind) && *r.address != Subject::Terraform
    };
    for (replaced, first) in lossy_block_replacements(ctx, wanted) {
        out.push(blocks_clobbered(ctx, &replaced, first));
    }
}

/// `override of resource `x.y` replaces all 2 `ingress` blocks with 1`
fn blocks_clobbered(ctx: &Context, replaced: &BlocksReplaced, first: Span) -> Diagnostic {
    let BlocksReplaced {
        address,
        kind,
        by,
        dropped,
    } = replaced;
    let n = dropped.len();
    let message = format!(
        "override of {} replaces all {n} `{kind}` blocks with {}",
        address.describe(),
        by.len()
    );
    let mut d = ctx.finding(&RULE, message).at(
        ctx.files,
        first,
        format!("this `{kind}` replaces every base `{kind}` block"),
    );
    for (i, &span) in dropped.iter().enumerate() {
        d = d.with_label(ctx.files, span, format!("dropped ({} of {n})", i + 1));
    }
    d.with_note(format!(
        "A nested block type in an override file replaces every block of that type in the \
         base, `dynamic \"{kind}\"` blocks included; blocks are never merged one by one, so \
         the {n} base blocks are gone from the module."
    ))
    .with_help(format!(
        "repeat in the override every `{kind}` block the module should keep, or change the \
         base block instead"
    ))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

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

    const ONE_EGRESS: &str = r#"resource "aws_security_group" "sg" {
  egress {
    from_port = 1
  }
}
"#;

    const BOTH_RESTATED_AND_ONE_MORE: &str = r#"resource "aws_security_group" "sg" {
  ingress {
    from_port = 80
  }
  ingress {
    from_port = 443
  }
  ingress {
    from_port = 22
  }
}
"#;

    const NAME_ONLY: &str = "resource \"aws_security_group\" \"sg\" {\n  name = \"x\"\n}\n";

    const TWO_PROVISIONERS: &str = r#"resource "terraform_data" "a" {
  provisioner "local-exec" {
    command = "a"
  }
  provisioner "local-exec" {
    command = "b"
  }
}
"#;

    const ONE_PROVISIONER: &str = r#"resource "terraform_data" "a" {
  provisioner "local-exec" {
    command = "c"
  }
}
"#;

    const ONE_INGRESS: &str = r#"resource "aws_security_group" "sg" {
  ingress {
    from_port = 22
  }
}
"#;

    const STATIC_AND_DYNAMIC_INGRESS: &str = r#"resource "aws_security_group" "sg" {
  ingress {
    from_port = 80
  }
  dynamic "ingress" {
    for_each = var.rules
    content {
      from_port = ingress.value
    }
  }
}
"#;

    const JSON_DYNAMIC_INGRESS: &str = r#"{"resource": {"aws_security_group": {"sg": {
        "dynamic": {"ingress": {"for_each": "${var.other}", "content": {"from_port": 1}}}
    }}}}"#;

    const JSON_BASE_WITH_BLOCKS: &str = r#"{"resource": {"aws_instance": {"web": {
        "provisioner": [{"local-exec": {"command": "a"}}],
        "dynamic": {"ebs_block_device": [{"for_each": "${var.a}", "content": {}}]},
        "ebs_block_device": [{"device_name": "x"}]
    }}}}"#;

    const ONE_EBS_BLOCK_DEVICE: &str = r#"resource "aws_instance" "web" {
  ebs_block_device {
    device_name = "y"
  }
}
"#;

    const PASS: &[Files] = &[
        // Replacing a single block is what overrides are for.
        &[("main.tf", BASE), ("override.tf", ONE_EGRESS)],
        // Both base blocks restated, a third added.
        &[
            ("main.tf", BASE),
            ("override.tf", BOTH_RESTATED_AND_ONE_MORE),
        ],
        // Attributes only.
        &[("main.tf", BASE), ("override.tf", NAME_ONLY)],
        // Provisioners have their own rule.
        &[
            ("main.tf", TWO_PROVISIONERS),
            ("override.tf", ONE_PROVISIONER),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (&[("main.tf", BASE), ("override.tf", ONE_INGRESS)], 1),
        // JSON override, dynamic base blocks count too.
        (
            &[
                ("main.tf", STATIC_AND_DYNAMIC_INGRESS),
                ("sg_override.tf.json", JSON_DYNAMIC_INGRESS),
            ],
            1,
        ),
        // A JSON base: a native override block replaces the JSON blocks of that type.
        (
            &[
                ("main.tf.json", JSON_BASE_WITH_BLOCKS),
                ("override.tf", ONE_EBS_BLOCK_DEVICE),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
