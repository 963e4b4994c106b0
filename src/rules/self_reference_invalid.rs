//! `self` where the tools bind nothing to it. `validate` evaluates a resource's `provisioner`,
//! `connection` and `postcondition` blocks with the resource's own instance as `self`, and every
//! other expression without one, refusing `self` there before it evaluates anything (`Invalid
//! "self" reference`): hashicorp/terraform `internal/terraform/node_resource_validate.go`
//! (`evaluateBlock`, `validateCheckRules`), `internal/terraform/evaluate_valid.go`
//! (`staticValidateReference`) and `internal/lang/eval.go` (`SelfContextDiagnostics`). It is found
//! before evaluation, so `try` and `can` do not catch it.
//!
//! Left alone: variable blocks (the tools say instead that a validation condition must refer to
//! the variable), `import`, `moved` and `removed` blocks (an import's `id` is not evaluated at
//! `validate`), and references in a `dynamic` block's `content`.

use crate::diagnostic::Diagnostic;
use crate::lint::helpers::declared::self_unbound;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};
use crate::module::merge::Address;
use crate::module::references::Uses;
use crate::syntax::Reference;

pub(crate) const RULE: Rule = declare_rule! {
    id: "self_reference_invalid",
    kind: Validate,
    summary: "self outside a resource's provisioner, connection and postcondition blocks",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let module = ctx.module;
    let mut uses = Uses::default();
    for object in &module.objects {
        if matches!(object.address, Address::Variable(_)) {
            continue;
        }
        uses.for_each(&[object.kind.as_str()], &object.body, &mut |used| {
            if !used.iterator && !used.in_dynamic && self_unbound(used.reference, used.self_bound) {
                out.push(self_reference_invalid(ctx, used.reference));
            }
        });
    }
    for local in &module.locals {
        local.attribute.expr.for_each_reference(&mut |reference| {
            if self_unbound(reference, false) {
                out.push(self_reference_invalid(ctx, reference));
            }
        });
    }
}

/// `Invalid "self" reference`, the tools' summary, with their detail.
fn self_reference_invalid(ctx: &Context, reference: &Reference) -> Diagnostic {
    ctx.finding(&RULE, "Invalid \"self\" reference")
        .at(ctx.files, reference.span, "no `self` here")
        .with_note(
            "The \"self\" object is not available in this context. This object can be used \
             only in resource provisioner, connection, and postcondition blocks.",
        )
        .with_help(
            "name the object by its address (`TYPE.NAME`), or move the expression into a \
             provisioner, connection or postcondition block of the resource",
        )
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            r#"resource "terraform_data" "a" {
  input = "x"
  provisioner "local-exec" {
    command = self.id
    connection {
      host = self.input
    }
  }
  connection {
    host = self.id
  }
  lifecycle {
    postcondition {
      condition     = self.id != ""
      error_message = "${self.id}"
    }
  }
}
data "terraform_remote_state" "d" {
  backend = "local"
  lifecycle {
    postcondition {
      condition     = self.outputs != null
      error_message = "x"
    }
  }
}
"#,
        )],
        // An override that replaces the only `self` outside its place.
        &[
            ("main.tf", "output \"o\" {\n  value = self.id\n}\n"),
            ("override.tf", "output \"o\" {\n  value = 1\n}\n"),
        ],
        // A dynamic block's content is evaluated only for the elements it expands for.
        &[(
            "main.tf",
            "resource \"terraform_data\" \"a\" {\n  dynamic \"x\" {\n    for_each = []\n    \
             content {\n      y = self.id\n    }\n  }\n}\n",
        )],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf",
                r#"resource "terraform_data" "a" {
  input = self.id
  lifecycle {
    precondition {
      condition     = self.id != ""
      error_message = "x"
    }
  }
}
locals {
  a = try(self.x, 1)
}
output "o" {
  value = "${self}"
}
module "m" {
  source = "./m"
  x      = self.y
}
check "c" {
  assert {
    condition     = self.x
    error_message = "x"
  }
}
"#,
            )],
            6,
        ),
        // An override's expression.
        (
            &[
                ("main.tf", "output \"o\" {\n  value = 1\n}\n"),
                (
                    "override.tf.json",
                    "{\"output\": {\"o\": {\"value\": \"${self.id}\"}}}",
                ),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// The tools' summary, detail and place, as Terraform 1.15.5 reports them.
    #[test]
    fn the_tools_texts() {
        let found = findings(&super::RULE, &[("main.tf", "locals {\n  a = self.id\n}\n")]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].message, "Invalid \"self\" reference");
        assert_eq!(
            found[0].notes,
            [
                "The \"self\" object is not available in this context. This object can be used \
              only in resource provisioner, connection, and postcondition blocks."
            ]
        );
        let place = found[0].primary.as_ref().expect("placed");
        assert_eq!((place.start(), place.end()), ((2, 7), (2, 14)));
    }
}
