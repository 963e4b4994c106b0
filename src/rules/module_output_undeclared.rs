//! A reference to an output that the called module does not declare (`module.net.nope`).
//! `validate` evaluates each module call as an object of its outputs, and HCL refuses an
//! attribute the object does not have (`Unsupported attribute`): hashicorp/terraform
//! `internal/terraform/evaluate.go` (`GetModule`). Judged for calls to local modules (`./x`,
//! `../x`), whose directory is read as its own effective module, in the same view: through
//! `module.NAME.OUTPUT`, or `module.NAME[KEY].OUTPUT` for a call with `count` or `for_each`.
//!
//! Left alone: references in the arguments of `try` and `can`, which turn the error into their
//! fallback; as `undeclared_reference` leaves them, references in a `dynamic` block's
//! `content`; and every reference of a block (or local value) that also names what the module
//! does not declare: the tools look up the values of a block's references before they evaluate
//! it, and stop there (`internal/lang/eval.go`, `Scope.EvalContext`).

use foldhash::HashMap;

use crate::diagnostic::Diagnostic;
use crate::syntax::Reference;
use crate::syntax::references::ReferenceStep;

use crate::lint::helpers::declared::{Declared, undeclared};
use crate::lint::helpers::{
    LocalCall, for_each_reference_with_try, in_try, local_calls, tools_suggestion,
};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_output_undeclared",
    kind: Validate,
    summary: "a reference to an output a local module does not declare",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let calls: HashMap<&str, LocalCall> = local_calls(ctx).map(|c| (c.name, c)).collect();
    if calls.is_empty() {
        return;
    }
    let module = ctx.module;
    let mut group = Group {
        calls: &calls,
        declared: ctx.declared,
        found: Vec::new(),
        blocked: false,
    };
    // One block, or one local value, at a time: what the tools evaluate together.
    let object_uses = ctx.object_uses;
    for (index, object) in module.objects.iter().enumerate() {
        for used in object_uses.of_object(index) {
            if !used.iterator && !used.in_dynamic {
                group.look_at(used.reference);
            }
        }
        group
            .found
            .retain(|(reference, ..)| !in_try(&object.body, reference));
        group.report(ctx, out);
    }
    for local in &module.locals {
        let expr = &local.attribute.expr;
        expr.for_each_reference(&mut |reference| group.look_at(reference));
        if !group.found.is_empty() {
            let mut caught = Vec::new();
            for_each_reference_with_try(expr, false, &mut |reference, in_try| {
                if in_try {
                    caught.push(reference as *const Reference);
                }
            });
            (group.found).retain(|(reference, ..)| !caught.contains(&(*reference as *const _)));
        }
        group.report(ctx, out);
    }
}

/// The references of what the tools evaluate together (a block, a local value).
struct Group<'c, 'm> {
    calls: &'c HashMap<&'c str, LocalCall<'c>>,
    declared: &'c Declared<'m>,
    /// The undeclared outputs read, with the call and the output's name.
    found: Vec<(&'m Reference, &'c LocalCall<'c>, &'m str)>,
    /// Whether a reference names what the module does not declare: then nothing is evaluated.
    blocked: bool,
}

impl<'c, 'm> Group<'c, 'm> {
    fn look_at(&mut self, reference: &'m Reference) {
        self.blocked |= undeclared(self.declared, reference).is_some();
        if let Some((call, output)) = undeclared_output(self.calls, reference) {
            self.found.push((reference, call, output));
        }
    }

    /// Reports what was found, unless the group was not evaluated, and starts the next group.
    fn report(&mut self, ctx: &Context, out: &mut Vec<Diagnostic>) {
        if !self.blocked {
            for (reference, call, output) in &self.found {
                out.push(unsupported_attribute(ctx, reference, call, output));
            }
        }
        self.found.clear();
        self.blocked = false;
    }
}

/// The call and the output `reference` reads from a local module that does not declare it.
fn undeclared_output<'c, 'r>(
    calls: &'c HashMap<&str, LocalCall>,
    reference: &'r Reference,
) -> Option<(&'c LocalCall<'c>, &'r str)> {
    if reference.root != "module" {
        return None;
    }
    let call = calls.get(reference.attr(0)?)?;
    let body = &call.object.body;
    let expanded = body.attribute("count").is_some() || body.attribute("for_each").is_some();
    // An expanded call is read through an instance key; a reference without one is another
    // error of the tools (a list or map of objects has no attributes), not this one.
    let output = match (expanded, reference.steps.get(1)?) {
        (false, ReferenceStep::Attr(output)) => output.as_ref(),
        (true, ReferenceStep::Index(_)) => reference.attr(2)?,
        _ => return None,
    };
    (!call.interface.has_output(output)).then_some((call, output))
}

/// `Unsupported attribute`, the tools' summary.
fn unsupported_attribute(
    ctx: &Context,
    reference: &Reference,
    call: &LocalCall,
    output: &str,
) -> Diagnostic {
    let outputs = call.interface.outputs.iter().map(String::as_str);
    let help = match tools_suggestion(output, outputs) {
        Some(s) => format!("did you mean `{s}`? Or declare `output \"{output}\"` in the module"),
        None => format!(
            "read one of its outputs, or declare `output \"{output}\" {{ value = ... }}` in \
             module `{}`",
            call.source
        ),
    };
    ctx.finding(&RULE, "Unsupported attribute")
        .at(
            ctx.files,
            reference.span,
            format!("module `{}` declares no output `{output}`", call.source),
        )
        .with_label(ctx.files, call.object.base_header, "module call")
        .with_note(format!(
            "This object does not have an attribute named \"{output}\"."
        ))
        .with_help(help)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const CHILD: &str = "variable \"req\" {\n  default = 1\n}\noutput \"x\" {\n  value = 1\n}\n";
    const CALL: &str = "module \"c\" {\n  source = \"./child\"\n}\n";

    const PASS: &[Files] = &[
        &[
            ("main.tf", CALL),
            (
                "outputs.tf",
                "output \"o\" {\n  value = [module.c.x, module.c]\n}\nlocals {\n  a = module.c.x\n}\n",
            ),
            ("child/main.tf", CHILD),
        ],
        // An expanded call read without an instance key (another error of the tools), or with.
        &[
            (
                "main.tf",
                "module \"c\" {\n  source = \"./child\"\n  count  = 2\n}\n\
                 output \"o\" {\n  value = [module.c.nope, module.c[0].x]\n}\n",
            ),
            ("child/main.tf", CHILD),
        ],
        // In the arguments of `try` and `can`, which catch the error.
        &[
            ("main.tf", CALL),
            (
                "outputs.tf",
                "output \"o\" {\n  value = try(module.c.nope, null)\n}\n\
                 locals {\n  a = \"${can(module.c.nope)}\"\n  b = [try(1, module.c.nope)]\n}\n",
            ),
            ("child/main.tf", CHILD),
        ],
        // A block that also names what the module does not declare is not evaluated.
        &[
            ("main.tf", CALL),
            (
                "outputs.tf",
                "output \"o\" {\n  value = [module.c.nope, var.gone]\n}\n",
            ),
            ("child/main.tf", CHILD),
        ],
        // In a `dynamic` block's content, evaluated only for elements that may never be.
        &[
            ("main.tf", CALL),
            (
                "r.tf",
                "resource \"terraform_data\" \"r\" {\n  dynamic \"x\" {\n    for_each = []\n    \
                 content {\n      a = module.c.nope\n    }\n  }\n}\n",
            ),
            ("child/main.tf", CHILD),
        ],
        // A remote module, and a local one that cannot be read: not judged.
        &[(
            "main.tf",
            "module \"c\" {\n  source = \"hashicorp/consul/aws\"\n}\nlocals {\n  a = module.c.nope\n}\n",
        )],
        &[
            ("main.tf", CALL),
            ("l.tf", "locals {\n  a = module.c.nope\n}\n"),
            ("child/main.tf", "output \"a\" {\n"),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("main.tf", CALL),
                (
                    "outputs.tf",
                    "output \"o\" {\n  value = [module.c.nope, module.c.req, \"${module.c.y}\"]\n}\n\
                     locals {\n  a = module.c.nope\n  b = var.gone\n  c = [try(1), module.c.z]\n}\n",
                ),
                ("child/main.tf", CHILD),
            ],
            5,
        ),
        // Through an instance key of an expanded call.
        (
            &[
                (
                    "main.tf",
                    "module \"c\" {\n  source   = \"./child\"\n  for_each = {}\n}\n\
                     output \"o\" {\n  value = module.c[\"a\"].nope\n}\n",
                ),
                ("child/main.tf", CHILD),
            ],
            1,
        ),
        // An override's expression, in JSON.
        (
            &[
                ("main.tf", CALL),
                ("o.tf", "output \"o\" {\n  value = 1\n}\n"),
                (
                    "o_override.tf.json",
                    "{\"output\": {\"o\": {\"value\": \"${module.c.nope}\"}}}",
                ),
                ("child/main.tf", CHILD),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
