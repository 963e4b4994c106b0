//! `count.index`, `each.key` or `each.value` where the tools have no instance to take it from: a
//! resource, data source or ephemeral resource without `count` (for `count.index`) or without
//! `for_each` (for `each`), an output, a local value. `validate` evaluates each block with the
//! instance keys it has and refuses the others (`Reference to "count" in non-counted context`,
//! `Reference to "each" in context without for_each`, and for `each.value` `each.value cannot be
//! used in this context`): hashicorp/terraform `internal/terraform/evaluate.go`
//! (`GetCountAttr`, `GetForEachAttr`). It is found while the references' values are looked up,
//! so `try` and `can` do not catch it.
//!
//! Left alone: module calls (Terraform 1.15.5 validates a call's inputs without reporting it),
//! provider, check, variable, `import`, `moved` and `removed` blocks, references in a `dynamic`
//! block's `content`, and every reference of a block that also names a module call or resource
//! the module does not declare (the tools stop before evaluating it).

use crate::diagnostic::Diagnostic;
use crate::module::merge::Address;
use crate::syntax::Reference;

use crate::lint::helpers::declared::stops_evaluation;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "instance_reference_invalid",
    kind: Validate,
    summary: "count.index or each where the block has no count or for_each",
    check: Check::View(RuleViews::Both, check),
};

/// The instance keys a block is evaluated with.
#[derive(Debug, Clone, Copy)]
struct Keys {
    count: bool,
    for_each: bool,
}

/// What a reference asks for that the block does not have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unavailable {
    CountIndex,
    EachKey,
    EachValue,
}

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let module = ctx.module;
    let declared = ctx.declared;
    let mut found: Vec<(&Reference, Unavailable)> = Vec::new();
    let mut blocked = false;
    let mut report = |found: &mut Vec<(&Reference, Unavailable)>, blocked: &mut bool| {
        if !*blocked {
            for (reference, unavailable) in found.iter() {
                out.push(instance_reference_invalid(ctx, reference, *unavailable));
            }
        }
        found.clear();
        *blocked = false;
    };
    let object_uses = ctx.object_uses;
    for (index, object) in module.objects.iter().enumerate() {
        let keys = match &object.address {
            // Override files can leave a merged block with both arguments. Terraform then takes
            // `count` (`validateResource` in `internal/terraform/node_resource_validate.go`, like
            // the plan's expansion, tests `Count` before `ForEach`), so `each` has no keys.
            Address::Resource(..) => {
                let count = object.body.attribute("count").is_some();
                Keys {
                    count,
                    for_each: !count && object.body.attribute("for_each").is_some(),
                }
            }
            Address::Output(_) => Keys {
                count: false,
                for_each: false,
            },
            _ => continue,
        };
        for used in object_uses.of_object(index) {
            if used.iterator || used.in_dynamic {
                continue;
            }
            blocked |= stops_evaluation(declared, used.reference, used.self_bound);
            if let Some(unavailable) = unavailable(keys, used.reference) {
                found.push((used.reference, unavailable));
            }
        }
        report(&mut found, &mut blocked);
    }
    let no_keys = Keys {
        count: false,
        for_each: false,
    };
    for local in &module.locals {
        local.attribute.expr.for_each_reference(&mut |reference| {
            blocked |= stops_evaluation(declared, reference, false);
            if let Some(unavailable) = unavailable(no_keys, reference) {
                found.push((reference, unavailable));
            }
        });
        report(&mut found, &mut blocked);
    }
}

/// What `reference` asks for that a block with `keys` does not have.
fn unavailable(keys: Keys, reference: &Reference) -> Option<Unavailable> {
    match (reference.root.as_str(), reference.attr(0)?) {
        ("count", "index") if !keys.count => Some(Unavailable::CountIndex),
        ("each", "key") if !keys.for_each => Some(Unavailable::EachKey),
        ("each", "value") if !keys.for_each => Some(Unavailable::EachValue),
        _ => None,
    }
}

/// The tools' summary and detail.
fn summary_and_detail(unavailable: Unavailable) -> (&'static str, &'static str) {
    match unavailable {
        Unavailable::CountIndex => (
            "Reference to \"count\" in non-counted context",
            "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" \
             blocks, and only when the \"count\" argument is set.",
        ),
        Unavailable::EachKey => (
            "Reference to \"each\" in context without for_each",
            "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only \
             when the \"for_each\" argument is set.",
        ),
        Unavailable::EachValue => (
            "each.value cannot be used in this context",
            "A reference to \"each.value\" has been used in a context in which it is \
             unavailable, such as when the configuration no longer contains the value in its \
             \"for_each\" expression. Remove this reference to each.value in your configuration \
             to work around this error.",
        ),
    }
}

/// `Reference to "count" in non-counted context` and the like, the tools' summaries.
fn instance_reference_invalid(
    ctx: &Context,
    reference: &Reference,
    unavailable: Unavailable,
) -> Diagnostic {
    let (summary, detail) = summary_and_detail(unavailable);
    let (label, help) = match unavailable {
        Unavailable::CountIndex => (
            "no `count` here",
            "set `count` on the block, or use another value than `count.index`",
        ),
        Unavailable::EachKey | Unavailable::EachValue => (
            "no `for_each` here",
            "set `for_each` on the block, or use another value than `each`",
        ),
    };
    ctx.finding(&RULE, summary)
        .at(ctx.files, reference.span, label)
        .with_note(detail)
        .with_help(help)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "resource \"terraform_data\" \"a\" {\n  count = 2\n  input = count.index\n}\n\
             resource \"terraform_data\" \"b\" {\n  for_each = toset([\"x\"])\n  input    = \
             [each.key, each.value]\n  lifecycle {\n    precondition {\n      condition     = \
             each.key != \"\"\n      error_message = \"x\"\n    }\n  }\n}\n",
        )],
        // `count` from an override file; a module call; a `dynamic` block's content.
        &[
            (
                "main.tf",
                "resource \"terraform_data\" \"a\" {\n  input = count.index\n}\n\
                 module \"m\" {\n  source = \"./m\"\n  v      = count.index\n}\n",
            ),
            (
                "override.tf",
                "resource \"terraform_data\" \"a\" {\n  count = 1\n}\n",
            ),
            ("m/main.tf", "variable \"v\" {}\n"),
        ],
        // A block that names an undeclared resource, or `self` where nothing binds it, is not
        // evaluated.
        &[(
            "main.tf",
            "output \"o\" {\n  value = [count.index, aws_instance.gone.id]\n}\n\
             output \"p\" {\n  value = [count.index, self.id]\n}\n",
        )],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf",
                "resource \"terraform_data\" \"a\" {\n  input = each.key\n}\n\
                 resource \"terraform_data\" \"b\" {\n  count = 2\n  input = [count.index, \
                 each.value]\n}\nresource \"terraform_data\" \"c\" {\n  for_each = toset([\"x\"])\n  \
                 input    = [each.key, count.index]\n}\nlocals {\n  l = count.index\n}\n\
                 output \"o\" {\n  value = try(each.value, 1)\n}\n",
            )],
            5,
        ),
        // `for_each` from an override next to the base's `count`: `count` wins, so `each` is
        // refused (Terraform 1.6.6, 1.9.8 and 1.15.5 `validate`), and `count.index` is not.
        (
            &[
                (
                    "main.tf",
                    "resource \"terraform_data\" \"a\" {\n  count = 2\n}\n",
                ),
                (
                    "override.tf",
                    "resource \"terraform_data\" \"a\" {\n  for_each = toset([\"x\"])\n  \
                     input    = [count.index, each.value]\n}\n",
                ),
            ],
            1,
        ),
        // An override's expression in a block without `for_each`.
        (
            &[
                ("main.tf", "output \"o\" {\n  value = 1\n}\n"),
                (
                    "override.tf.json",
                    "{\"output\": {\"o\": {\"value\": \"${each.key}\"}}}",
                ),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// The summaries Terraform 1.15.5 `validate` gives, in the order of the fail case.
    #[test]
    fn summaries() {
        let main = "resource \"terraform_data\" \"a\" {\n  input = [each.key, each.value, \
                    count.index]\n}\n";
        let messages: Vec<String> = findings(&super::RULE, &[("main.tf", main)])
            .into_iter()
            .map(|d| d.message.into_owned())
            .collect();
        assert_eq!(
            messages,
            [
                "Reference to \"each\" in context without for_each",
                "each.value cannot be used in this context",
                "Reference to \"count\" in non-counted context",
            ]
        );
    }
}
