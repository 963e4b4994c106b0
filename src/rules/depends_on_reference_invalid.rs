//! A `depends_on` element that names part of an object (`aws_instance.a.id`, `var.x.y`,
//! `local.z[0]`) rather than the object: `validate` refuses each one with "Invalid depends_on
//! reference", at what follows the object's address (hashicorp/terraform
//! `internal/terraform/node_resource_validate.go` and the output's validation, which parse each
//! element with `addrs.ParseRef` and refuse a remainder). An override file may not set
//! `depends_on` (`override_depends_on`), so the base's list is the one judged.
//!
//! JSON's string elements are read as the tools read them, as the text of a traversal, and
//! found at the whole string. Left alone: elements with a computed index (refused while
//! loading, as other findings say), and roots the tools reserve.

use crate::diagnostic::Diagnostic;
use crate::lint::helpers::depends_on::{Element, for_each_list};
use crate::source::Span;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "depends_on_reference_invalid",
    kind: Validate,
    summary: "a depends_on element that names part of an object, not the whole object",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for_each_list(ctx.module, ctx.files, &mut |_, elements| {
        for element in elements {
            if let Element::Part { address, rest } = element {
                out.push(invalid_reference(ctx, rest, &address));
            }
        }
    });
}

/// `Invalid depends_on reference`, the tools' summary, with their detail.
fn invalid_reference(ctx: &Context, rest: Span, address: &str) -> Diagnostic {
    ctx.finding(&RULE, "Invalid depends_on reference")
        .at(ctx.files, rest, "part of an object")
        .with_note(
            "References in depends_on must be to a whole object (resource, etc), not to an \
             attribute of an object.",
        )
        .with_help(format!("name the whole object: `{address}`"))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[&[(
        "main.tf",
        "resource \"terraform_data\" \"a\" {}\nmodule \"m\" {\n  source = \"./m\"\n}\n\
             variable \"x\" {}\nlocals {\n  z = 1\n}\noutput \"o\" {\n  value = 1\n  \
             depends_on = [terraform_data.a, terraform_data.a[0], module.m, module.m.out, \
             var.x, local.z]\n}\n",
    )]];

    const FAIL: &[(Files, usize)] = &[(
        &[(
            "main.tf",
            "resource \"terraform_data\" \"a\" {}\nvariable \"x\" {}\nlocals {\n  z = [1]\n}\n\
             output \"o\" {\n  value = 1\n  depends_on = [terraform_data.a.id, var.x.y, \
             local.z[0], module.m.out.x]\n}\n",
        )],
        4,
    )];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// Where Terraform 1.15.5 puts the finding: on what follows the address.
    #[test]
    fn at_what_follows_the_address() {
        let text = "resource \"terraform_data\" \"a\" {}\noutput \"o\" {\n  value = 1\n  \
                    depends_on = [terraform_data.a.id]\n}\n";
        let found = crate::lint::testing::findings(&super::RULE, &[("main.tf", text)]);
        assert_eq!(found.len(), 1);
        let label = found[0].primary.as_ref().expect("a place");
        assert_eq!(&text[label.range.clone()], ".id");
    }

    /// JSON's string elements are read as traversals too (Terraform 1.15.5 `validate`: "Invalid
    /// depends_on reference" for `"terraform_data.a.id"`), found at the string.
    #[test]
    fn json_string_elements() {
        let text = r#"{"resource": {"terraform_data": {"a": {}, "b": {"depends_on": ["terraform_data.a", "terraform_data.a.id", "data.x.y[\"k\"].z"]}}}}"#;
        let found = crate::lint::testing::findings(&super::RULE, &[("main.tf.json", text)]);
        let places: Vec<&str> = (found.iter())
            .map(|d| &text[d.primary.as_ref().expect("a place").range.clone()])
            .collect();
        assert_eq!(
            places,
            ["\"terraform_data.a.id\"", r#""data.x.y[\"k\"].z""#]
        );
    }
}
