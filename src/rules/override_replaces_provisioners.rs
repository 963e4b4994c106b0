//! An override's provisioners silently drop every base provisioner: if an override block has
//! any `provisioner`, it replaces all of the base block's, which then never run.

use crate::diagnostic::Diagnostic;
use crate::lint::helpers::{BlocksReplaced, lossy_block_replacements};
use crate::source::Span;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_replaces_provisioners",
    severity: Warning,
    default: On,
    summary: "an override's provisioners drop every base provisioner",
    check: Check::View(RuleViews::Both, check),
};

const NOTE: &str = "If an override file has any `provisioner` block, it replaces all of the base \
                    block's provisioners; they are not appended or merged by type.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let wanted = |r: &BlocksReplaced| r.kind == "provisioner" && !r.dropped.is_empty();
    for (replaced, first) in lossy_block_replacements(ctx, wanted) {
        out.push(provisioners_replaced(ctx, &replaced, first));
    }
}

/// "provisioner" or "provisioners".
fn provisioners(n: usize) -> &'static str {
    if n == 1 {
        "provisioner"
    } else {
        "provisioners"
    }
}

/// `override of resource `x.y` replaces its 1 base provisioner with 2 provisioners`
fn provisioners_replaced(ctx: &Context, replaced: &BlocksReplaced, first: Span) -> Diagnostic {
    let (dropped, by) = (replaced.dropped.len(), replaced.by.len());
    let message = format!(
        "override of {} replaces its {dropped} base {} with {by} {}",
        replaced.address.describe(),
        provisioners(dropped),
        provisioners(by)
    );
    let mut d = ctx.finding(&RULE, message).at(
        ctx.files,
        first,
        "this provisioner replaces all base provisioners",
    );
    for &span in replaced.dropped {
        d = d.with_label(ctx.files, span, "dropped: never runs");
    }
    d.with_note(NOTE)
        .with_help("repeat in the override every provisioner that should still run, in order")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::override_fixtures::{A_INPUT_1, EMPTY_A};
    use crate::lint::testing::{Files, check_table};

    const BASE: &str = r#"resource "terraform_data" "a" {
  provisioner "local-exec" {
    command = "one"
  }
}
"#;

    const RESTATED_AND_ONE_MORE: &str = r#"resource "terraform_data" "a" {
  provisioner "local-exec" {
    command = "one"
  }
  provisioner "local-exec" {
    command = "two"
  }
}
"#;

    const ANOTHER: &str = r#"resource "terraform_data" "a" {
  provisioner "local-exec" {
    command = "x"
  }
}
"#;

    const FILE_PROVISIONER: &str = r#"resource "terraform_data" "a" {
  provisioner "file" {
    source = "a"
    destination = "b"
  }
}
"#;

    const JSON_PROVISIONER: &str = r#"{"resource": {"terraform_data": {"a": {
        "provisioner": [{"local-exec": {"command": "two"}}]
    }}}}"#;

    const PASS: &[Files] = &[
        &[("main.tf", BASE), ("override.tf", A_INPUT_1)],
        // The base provisioner restated, another one added after it.
        &[("main.tf", BASE), ("override.tf", RESTATED_AND_ONE_MORE)],
        // Nothing to drop: the base had no provisioner.
        &[("main.tf", EMPTY_A), ("override.tf", ANOTHER)],
    ];

    const FAIL: &[(Files, usize)] = &[
        (&[("main.tf", BASE), ("override.tf", FILE_PROVISIONER)], 1),
        (
            &[("main.tf", BASE), ("a_override.tf.json", JSON_PROVISIONER)],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
