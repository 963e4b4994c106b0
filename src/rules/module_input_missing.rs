//! A call to a module that does not set one of its required variables (those without a
//! `default`). `validate` (and `init`) decode the call's body against a schema of the child's
//! variables, each required when it has no default, and refuse the call (`Missing required
//! argument`): hashicorp/terraform `internal/terraform/transform_module_variable.go`
//! (`transformSingle`). Judged for calls to local modules (`./x`, `../x`), whose directory is
//! read as its own effective module, in the same view: a `default` an override file of the
//! child gives counts.
//!
//! The caller's base block must set the variable: where an override file changes the call, the
//! tools still decode the base body against the required schema and the override's with
//! nothing required (`internal/configs/module_merge_body.go`), so an input that only an
//! override sets is still missing.

use crate::diagnostic::Diagnostic;
use crate::module::merge::Origin;
use crate::source::{Span, Syntax};

use crate::lint::helpers::{LocalCall, local_calls, syntax_of};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_input_missing",
    kind: Validate,
    summary: "a call to a local module that does not set one of its required variables",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let in_primary = |span: Span| ctx.primary.iter().any(|l| l.file.id == span.file);
    for call in local_calls(ctx) {
        // Most modules a component calls require something, but a call to one that requires
        // nothing needs no set.
        if call.interface.required.is_empty() {
            continue;
        }
        // A set: a call may pass hundreds of arguments to a module that requires as many. Sized
        // once, not grown (and rehashed) argument by argument.
        let attributes = &call.object.body.attributes;
        let mut set_in_base: foldhash::HashSet<&str> =
            foldhash::HashSet::with_capacity_and_hasher(attributes.len(), Default::default());
        set_in_base.extend(
            (attributes.iter())
                .filter(|a| a.origin == Origin::Base || a.replaced.is_some_and(&in_primary))
                .map(|a| a.name()),
        );
        let missing: Vec<&String> = (call.interface.required.iter())
            .filter(|name| !set_in_base.contains(name.as_str()))
            .collect();
        for name in missing {
            out.push(missing_required_argument(ctx, &call, name));
        }
    }
}

/// Where the tools place an argument missing from a block: the start of a native body (on its
/// header's line), the end of a JSON object (HCL's `MissingItemRange`).
fn missing_item_place(ctx: &Context, call: &LocalCall) -> Span {
    let whole = call.object.base_span;
    match syntax_of(ctx, whole) {
        Syntax::Native => call.object.base_header,
        Syntax::Json | Syntax::TerragruntJson => {
            let end = whole.end.max(whole.start + 1);
            Span {
                start: end - 1,
                ..whole
            }
        }
    }
}

/// `Missing required argument`, the tools' summary.
fn missing_required_argument(ctx: &Context, call: &LocalCall, name: &str) -> Diagnostic {
    ctx.finding(&RULE, "Missing required argument")
        .at(
            ctx.files,
            missing_item_place(ctx, call),
            format!("no `{name}`: module `{}` requires it", call.source),
        )
        .with_note(format!(
            "The argument \"{name}\" is required, but no definition was found."
        ))
        .with_help(format!(
            "set `{name} = ...` in the module call's block (an override file cannot supply it), \
             or give `variable \"{name}\"` a `default` in module `{}`",
            call.source
        ))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const CHILD: &str = "variable \"req\" {}\nvariable \"opt\" {\n  default = 1\n}\n";

    const PASS: &[Files] = &[
        &[
            (
                "main.tf",
                "module \"c\" {\n  source = \"./child\"\n  req = 1\n}\n",
            ),
            ("child/main.tf", CHILD),
        ],
        // A default from the child's override file, or a null one.
        &[
            ("main.tf", "module \"c\" {\n  source = \"./child\"\n}\n"),
            ("child/main.tf", CHILD),
            (
                "child/override.tf",
                "variable \"req\" {\n  default = 2\n}\n",
            ),
        ],
        &[
            ("main.tf", "module \"c\" {\n  source = \"./child\"\n}\n"),
            ("child/main.tf", "variable \"req\" {\n  default = null\n}\n"),
        ],
        // Set in the base and changed by an override.
        &[
            (
                "main.tf",
                "module \"c\" {\n  source = \"./child\"\n  req = 1\n}\n",
            ),
            ("override.tf", "module \"c\" {\n  req = 2\n}\n"),
            ("child/main.tf", CHILD),
        ],
        // A module that calls itself (a loop the tools refuse first), a remote module, and a
        // local one that cannot be read: not judged.
        &[(
            "main.tf",
            "module \"c\" {\n  source = \"./\"\n}\nvariable \"req\" {}\n",
        )],
        &[(
            "main.tf",
            "module \"c\" {\n  source = \"hashicorp/consul/aws\"\n}\n",
        )],
        &[
            ("main.tf", "module \"c\" {\n  source = \"./child\"\n}\n"),
            ("child/main.tf", "variable \"a\" {\n"),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("main.tf", "module \"c\" {\n  source = \"./child\"\n}\n"),
                ("child/main.tf", CHILD),
                ("child/more.tf", "variable \"also\" {}\n"),
            ],
            2,
        ),
        // Only an override sets it: the base block is still decoded with it required.
        (
            &[
                ("main.tf", "module \"c\" {\n  source = \"./child\"\n}\n"),
                ("override.tf", "module \"c\" {\n  req = 2\n}\n"),
                ("child/main.tf", CHILD),
            ],
            1,
        ),
        (
            &[
                (
                    "main.tf.json",
                    "{\"module\": {\"c\": [{\"source\": \"./child\"}]}}",
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

    /// In JSON the tools place it at the end of the block's object, where HCL's body ends.
    #[test]
    fn json_place_is_the_end_of_the_object() {
        let json =
            "{\n  \"module\": {\n    \"c\": {\n      \"source\": \"./child\"\n    }\n  }\n}\n";
        let found = findings(
            &super::RULE,
            &[("main.tf.json", json), ("child/main.tf", CHILD)],
        );
        let places: Vec<_> = found
            .iter()
            .map(|d| d.primary.as_ref().expect("a place").start())
            .collect();
        assert_eq!(places, [(5, 5)], "{found:#?}");
        let native = "module \"c\" {\n  source = \"./child\"\n}\n";
        let found = findings(
            &super::RULE,
            &[("main.tf", native), ("child/main.tf", CHILD)],
        );
        assert_eq!(found[0].primary.as_ref().expect("a place").start(), (1, 1));
    }
}
