//! References to what the effective module does not declare: an input variable, a local value,
//! a module call, a managed, data or ephemeral resource. `validate` refuses each with its own
//! summary (`Reference to undeclared input variable`, `... local value`, `... module`,
//! `... resource`): hashicorp/terraform `internal/terraform/evaluate_valid.go`
//! (`staticValidateReference`) and `internal/terraform/evaluate.go` (`GetInputVariable`,
//! `GetLocalValue`). References are judged where the tools evaluate them, as merged: an
//! override's expression where it won, and a declaration an override file adds counts.
//!
//! A bare name (`foo`, a root alone that the tools do not reserve) is what they read as a
//! resource type with no name after it: `Invalid reference` ("A reference to a resource type
//! must be followed by at least one attribute access, specifying the resource name.", at the
//! name), from hashicorp/terraform `internal/addrs/parse_ref.go` (`parseResourceRef`), while it
//! parses the references, inside `try` and `can` too. So are the other shapes that file
//! refuses (`var` alone, `var[0]`, `data.x`, `foo[0]`...: `lint::helpers::reference_shape`). It stops nothing else: the block's other
//! references are still checked, variables and locals included (Terraform 1.6.6 and 1.15.5
//! `validate` report both in `locals { a = [foo, var.y] }`).
//!
//! In a `depends_on` list the tools judge the elements in order and stop at the first that
//! fails: an undeclared object is reported, a part of an object
//! (`depends_on_reference_invalid`) ends the list silently; only the first undeclared
//! element of a list is reported, whatever the block's other references (checked with
//! Terraform 1.15.5's `validate`).
//!
//! Left alone, since a static reading cannot be sure: references in a `dynamic` block's
//! `content`, which the tools evaluate only for the elements they expand it for (none while
//! `for_each` is unknown, as at `validate`); a root with no underscore (a name a
//! `dynamic` block or `for` binds in a way this reading does not follow, or a rare resource type
//! named after its provider) when a name follows it, and roots the tools reserve (`each`, `count`, `self`, `path`,
//! `terraform`, ...), which other checks of the tools judge.

use crate::diagnostic::Diagnostic;
use crate::lint::helpers::declared::{Mode, Undeclared, self_unbound, undeclared};
use crate::lint::helpers::depends_on::{Element, for_each_list};
use crate::lint::helpers::reference_shape::{Shape, invalid_shape, step_span};
use crate::lint::helpers::tools_suggestion;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};
use crate::module::merge::{Address, Module};
use crate::syntax::Reference;

pub(crate) const RULE: Rule = declare_rule! {
    id: "undeclared_reference",
    kind: Validate,
    summary: "a reference to a variable, local, module call or resource the module does not declare, or of a shape the tools refuse",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let module = ctx.module;
    let declared = ctx.declared;
    // One block, or one local, at a time: what the tools evaluate together.
    let mut found = Vec::new();
    // Whether the block holds `self` where nothing binds it, which also stops evaluation.
    let mut self_unbound_here = false;
    // References whose shape the tools refuse (a bare name...), reported whatever else the
    // block holds: they stop nothing.
    let mut misshapen: Vec<&Reference> = Vec::new();
    let mut report = |found: &mut Vec<(&Reference, Undeclared)>, self_unbound_here: &mut bool| {
        // The tools check module and resource references (and `self`) before evaluating, and
        // evaluate only when those pass: only then do they find an undeclared variable or local.
        let before_evaluation =
            *self_unbound_here || found.iter().any(|(_, u)| u.found_before_evaluation());
        for (reference, undeclared) in found.drain(..) {
            if undeclared.found_before_evaluation() || !before_evaluation {
                out.push(undeclared_reference(ctx, reference, undeclared));
            }
        }
        *self_unbound_here = false;
    };
    let object_uses = ctx.object_uses;
    for index in 0..module.objects.len() {
        for used in object_uses.of_object(index) {
            if used.iterator || used.in_dynamic {
                continue;
            }
            if invalid_shape(used.reference).is_some() {
                misshapen.push(used.reference);
            }
            self_unbound_here |= self_unbound(used.reference, used.self_bound);
            if let Some(undeclared) = undeclared(declared, used.reference) {
                found.push((used.reference, undeclared));
            }
        }
        report(&mut found, &mut self_unbound_here);
    }
    for local in &module.locals {
        local.attribute.expr.for_each_reference(&mut |reference| {
            if invalid_shape(reference).is_some() {
                misshapen.push(reference);
            }
            self_unbound_here |= self_unbound(reference, false);
            if let Some(undeclared) = undeclared(declared, reference) {
                found.push((reference, undeclared));
            }
        });
        report(&mut found, &mut self_unbound_here);
    }
    out.extend(
        misshapen
            .into_iter()
            .filter_map(|r| invalid_reference(ctx, r)),
    );
    for_each_list(module, ctx.files, &mut |_, elements| {
        for element in elements {
            match element {
                Element::Whole(reference) => {
                    if let Some(undeclared) = undeclared(declared, &reference) {
                        out.push(undeclared_reference(ctx, &reference, undeclared));
                        break;
                    }
                }
                // What this reading cannot judge may fail too: stop rather than guess.
                Element::Part { .. } | Element::Other => break,
            }
        }
    });
}

/// `Invalid reference` at a reference whose shape the tools refuse, with their detail, at
/// the place they report it.
fn invalid_reference(ctx: &Context, reference: &Reference) -> Option<Diagnostic> {
    let (shape, step) = invalid_shape(reference)?;
    let at = step.map_or(reference.span, |i| step_span(ctx, reference, i));
    let (label, detail, help) = match shape {
        Shape::BareName(name) => (
            format!("`{name}` alone names nothing"),
            RESOURCE_NAME_REQUIRED.to_string(),
            format!(
                "write the whole reference (`var.{name}`, `local.{name}`, `TYPE.{name}`...), or \
                 quote it (`\"{name}\"`) if it is meant as a string"
            ),
        ),
        Shape::RootAlone(root) => (
            format!("`{root}` alone names nothing"),
            format!(
                "The \"{root}\" object cannot be accessed directly. Instead, access one of its \
                 attributes."
            ),
            format!("name one of its attributes: `{root}.NAME`"),
        ),
        Shape::RootIndexed(root) => (
            format!("`{root}` takes a name here, not an index"),
            format!("The \"{root}\" object does not support this operation."),
            format!("write `{root}.NAME`, then any index after the name"),
        ),
        Shape::ModeShort(root) => (
            format!("`{root}` needs a type and a name after it"),
            format!(
                "The \"{root}\" object must be followed by two attribute names: the {} type and \
                 the resource name.",
                if root == "data" {
                    "data source"
                } else {
                    "resource"
                }
            ),
            format!("write `{root}.TYPE.NAME`"),
        ),
        Shape::ModeIndexed(root) => (
            format!("`{root}` takes a type here, not an index"),
            format!("The \"{root}\" object does not support this operation."),
            format!("write `{root}.TYPE.NAME`, then any index after the name"),
        ),
        Shape::NameIndexed(mode) => (
            "an index where the resource's name belongs".to_string(),
            match mode {
                Some("data") => RESOURCE_NAME_REQUIRED.replace("a resource type", "a data source"),
                _ => RESOURCE_NAME_REQUIRED.to_string(),
            },
            "name the resource before the index: `TYPE.NAME[0]`".to_string(),
        ),
    };
    Some(
        ctx.finding(&RULE, "Invalid reference")
            .at(ctx.files, at, label)
            .with_note(detail)
            .with_help(help),
    )
}

/// The tools' detail for a resource type with no name after it.
const RESOURCE_NAME_REQUIRED: &str = "A reference to a resource type must be followed by at \
                                      least one attribute access, specifying the resource name.";

/// The names of the module's declarations of one kind, for the tools' "Did you mean".
fn suggestion(module: &Module, undeclared: Undeclared) -> Option<String> {
    let names: Vec<&str> = match undeclared {
        Undeclared::Variable(_) => (module.objects.iter())
            .filter_map(|o| match &o.address {
                Address::Variable(name) => Some(name.as_str()),
                _ => None,
            })
            .collect(),
        Undeclared::Local(_) => module.locals.iter().map(|l| l.attribute.name()).collect(),
        Undeclared::ModuleCall(_) => (module.objects.iter())
            .filter_map(|o| match &o.address {
                Address::ModuleCall(name) => Some(name.as_str()),
                _ => None,
            })
            .collect(),
        // The tools suggest nothing for resources.
        Undeclared::Resource { .. } => return None,
    };
    let name = match undeclared {
        Undeclared::Variable(name) | Undeclared::Local(name) | Undeclared::ModuleCall(name) => name,
        Undeclared::Resource { .. } => return None,
    };
    tools_suggestion(name, names).map(str::to_string)
}

/// The tools' summary and detail for a reference to what is not declared.
fn summary_and_detail(module: &Module, undeclared: Undeclared) -> (&'static str, String) {
    let did_you_mean = suggestion(module, undeclared).map(|s| format!(" Did you mean \"{s}\"?"));
    match undeclared {
        Undeclared::Variable(name) => (
            "Reference to undeclared input variable",
            format!(
                "An input variable with the name \"{name}\" has not been declared.{}",
                did_you_mean.unwrap_or_else(|| format!(
                    " This variable can be declared with a variable \"{name}\" {{}} block."
                ))
            ),
        ),
        Undeclared::Local(name) => (
            "Reference to undeclared local value",
            format!(
                "A local value with the name \"{name}\" has not been declared.{}",
                did_you_mean.unwrap_or_default()
            ),
        ),
        Undeclared::ModuleCall(name) => (
            "Reference to undeclared module",
            format!(
                "No module call named \"{name}\" is declared in the root module.{}",
                did_you_mean.unwrap_or_default()
            ),
        ),
        Undeclared::Resource { mode, kind, name } => (
            "Reference to undeclared resource",
            format!(
                "{} resource \"{kind}\" \"{name}\" has not been declared in the root module.",
                match mode {
                    Mode::Managed => "A managed",
                    Mode::Data => "A data",
                    Mode::Ephemeral => "An ephemeral",
                }
            ),
        ),
    }
}

/// `Reference to undeclared ...`, the tools' summary, with their detail.
fn undeclared_reference(
    ctx: &Context,
    reference: &Reference,
    undeclared: Undeclared,
) -> Diagnostic {
    let (summary, detail) = summary_and_detail(ctx.module, undeclared);
    let (label, help) = match undeclared {
        Undeclared::Variable(name) => (
            format!("no variable `{name}`"),
            format!("declare it with `variable \"{name}\" {{}}`, or correct the name"),
        ),
        Undeclared::Local(name) => (
            format!("no local value `{name}`"),
            "declare it in a `locals` block, or correct the name".to_string(),
        ),
        Undeclared::ModuleCall(name) => (
            format!("no module call `{name}`"),
            format!("declare it with `module \"{name}\" {{ source = ... }}`, or correct the name"),
        ),
        Undeclared::Resource { mode, kind, name } => (
            format!("no {} `{kind}.{name}`", mode.block()),
            format!(
                "declare it with `{} \"{kind}\" \"{name}\" {{ ... }}`, or correct the name",
                mode.block()
            ),
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
            "variable \"a\" {}\nlocals {\n  b = var.a\n  c = local.b\n}\n",
        )],
        // Declared in another file.
        &[
            ("main.tf", "locals {\n  b = var.a\n}\n"),
            ("variables.tf", "variable \"a\" {}\n"),
        ],
        // An override replaces the only expression that named what is not declared.
        &[
            ("main.tf", "output \"o\" {\n  value = var.gone\n}\n"),
            ("override.tf", "output \"o\" {\n  value = 1\n}\n"),
        ],
        // Names a `for` or a `dynamic` block binds, and what the tools read literally.
        &[(
            "main.tf",
            r#"variable "ports" {
  type = list(number)
}
resource "terraform_data" "a" {
  input      = [for some_port in var.ports : some_port]
  depends_on = []
  dynamic "my_rule" {
    for_each = var.ports
    content {
      port = my_rule.value
      dynamic "nested_rule" {
        for_each = my_rule.value.nested
        content {
          other = nested_rule.value
          only_expanded = aws_instance.gone.id
        }
      }
    }
  }
}
"#,
        )],
        // A module the loader refuses (a duplicate resource): `validate` never runs, so what it
        // would refuse waits until the load error is fixed.
        &[(
            "main.tf",
            "resource \"terraform_data\" \"a\" {}\nresource \"terraform_data\" \"a\" {\n  input = var.x\n}\n",
        )],
        // A check block's scoped data source.
        &[(
            "main.tf",
            "check \"c\" {\n  data \"http\" \"h\" {\n    url = \"x\"\n  }\n  assert {\n    condition     = data.http.h.status_code == 200\n    error_message = \"x\"\n  }\n}\n",
        )],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf",
                "locals {\n  a = var.x\n  b = local.y\n  c = module.m.out\n  d = aws_instance.i.id\n  e = data.aws_ami.a.id\n  f = ephemeral.random_password.p.result\n}\n",
            )],
            6,
        ),
        // In a template, a `for` body, and in the arguments of `try`, which catches evaluation
        // errors but not this one (the tools check references before evaluating).
        (
            &[(
                "main.tf",
                "output \"o\" {\n  value = [\"${var.x}\", [for s in [] : local.y], try(var.z, 1)]\n}\n",
            )],
            3,
        ),
        // The tools evaluate a block only once its module and resource references are
        // declared: the undeclared variable beside an undeclared module call is not found yet.
        (
            &[(
                "main.tf",
                "output \"o\" {\n  value = [module.m.out, var.x]\n}\noutput \"p\" {\n  value = var.y\n}\n",
            )],
            2,
        ),
        // `self` where nothing binds it stops evaluation too: the variable is not found yet.
        (
            &[(
                "main.tf",
                "output \"o\" {\n  value = [self.id, var.x]\n}\noutput \"p\" {\n  value = var.y\n}\n",
            )],
            1,
        ),
        // An override's expression that names what is not declared.
        (
            &[
                ("main.tf", "output \"o\" {\n  value = 1\n}\n"),
                ("override.tf", "output \"o\" {\n  value = var.x\n}\n"),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// In `depends_on`, the first undeclared element of each list, up to the first element that
    /// names part of an object; the block's other references are judged apart. Each case as
    /// JSON's string elements name objects too (Terraform 1.15.5 `validate`: "Reference to
    /// undeclared resource" for `"terraform_data.nope"`); a string that is not a traversal is
    /// not judged.
    #[test]
    fn depends_on_json_strings() {
        let json = r#"{"output": {"o": {"value": 1, "depends_on": ["terraform_data.nope"]}}, "resource": {"terraform_data": {"a": {"depends_on": ["terraform_data.a", "not a traversal", "var.nope"]}}}}"#;
        let found = crate::lint::testing::findings(&super::RULE, &[("main.tf.json", json)]);
        let messages: Vec<&str> = found.iter().map(|d| &*d.message).collect();
        assert_eq!(messages, ["Reference to undeclared resource"], "{found:?}");
    }

    /// Terraform 1.15.5's `validate` reports it.
    #[test]
    fn depends_on_lists_stop_at_their_first_failure() {
        let cases: &[(&str, &[&str])] = &[
            ("terraform_data.m1, terraform_data.m2", &["m1"]),
            ("terraform_data.a, terraform_data.m1", &["m1"]),
            (
                "terraform_data.m1, terraform_data.a.id, terraform_data.m3",
                &["m1"],
            ),
            (
                "terraform_data.a, terraform_data.a.id, terraform_data.m1",
                &[],
            ),
            ("terraform_data.m1.id, terraform_data.m2", &[]),
            ("module.m, terraform_data.m1", &["\"m\""]),
            ("var.x", &["\"x\""]),
            ("data.x.y", &["\"y\""]),
        ];
        for (list, expected) in cases {
            let text = format!(
                "resource \"terraform_data\" \"a\" {{\n  input = var.missing\n}}\n\
                 output \"o\" {{\n  value = 1\n  depends_on = [{list}]\n}}\n"
            );
            let found = findings(&super::RULE, &[("main.tf", text.as_str())]);
            // The resource's own undeclared variable is reported whatever the list holds.
            let in_list: Vec<&str> = found
                .iter()
                .filter(|d| !d.notes[0].contains("\"missing\""))
                .map(|d| &*d.notes[0])
                .collect();
            assert_eq!(found.len() - in_list.len(), 1, "{list}");
            assert_eq!(in_list.len(), expected.len(), "{list}: {in_list:?}");
            for (note, name) in in_list.iter().zip(expected.iter()) {
                assert!(note.contains(name), "{list}: {note}");
            }
        }
    }

    /// Bare names: `Invalid reference` at each, in a template, a `for` body and `try` too, and
    /// beside an undeclared variable, which is still reported; a name a `for` binds is not
    /// one. Exactly what Terraform 1.15.5's and 1.6.6's `validate` report on this module
    /// (`count` alone included; 1.6.6 also refuses `string`, which its `convert`-less release
    /// reads as a bare name: `unknown_function` judges that).
    #[test]
    fn bare_names() {
        let files: Files = &[(
            "main.tf",
            r#"locals {
  a = [foo, var.y]
  b = [for x in [1] : x + bar]
  c = "${baz}"
  d = try(qux, 1)
  e = { for k, v in {} : k => v }
  f = "%{ for z in [1] }${z}%{ endfor }"
  g = [null, true, false, self, count, convert(1, string)]
}
output "o" {
  value = [foo, terraform_data.nope.id, var.z]
}
"#,
        )];
        let mut found: Vec<(usize, usize, String)> = findings(&super::RULE, files)
            .into_iter()
            .map(|d| {
                let (line, column) = d.primary.as_ref().map_or((0, 0), |p| p.start());
                (line, column, d.message.into_owned())
            })
            .collect();
        found.sort();
        let expected = [
            (2, 8, "Invalid reference"),
            (2, 13, "Reference to undeclared input variable"),
            (3, 27, "Invalid reference"),
            (4, 10, "Invalid reference"),
            (5, 11, "Invalid reference"),
            (8, 33, "Invalid reference"),
            (11, 12, "Invalid reference"),
            (11, 17, "Reference to undeclared resource"),
        ];
        let expected: Vec<(usize, usize, String)> = (expected.into_iter())
            .map(|(line, column, summary)| (line, column, summary.to_string()))
            .collect();
        assert_eq!(found, expected);
        let note = &findings(&super::RULE, &[("main.tf", "locals {\n  a = foo\n}\n")])[0].notes;
        assert_eq!(
            note,
            &[
                "A reference to a resource type must be followed by at least one attribute \
               access, specifying the resource name."
            ]
        );
    }

    /// References whose shape the tools refuse, one per local: exactly the `Invalid reference`
    /// places and details Terraform 1.15.5's and 1.6.6's `validate` report (each shape alone in a
    /// module of its own, with the same line and column). `ephemeral.x` is a resource to 1.6.6
    /// (not judged); `path[0]` is `builtin_attribute_invalid`'s.
    #[test]
    fn misshapen_references() {
        let shapes = [
            (
                "foo[0]",
                10,
                "A reference to a resource type must be followed",
            ),
            (
                "foo[0].x",
                10,
                "A reference to a resource type must be followed",
            ),
            ("var", 7, "The \"var\" object cannot be accessed directly."),
            (
                "local",
                7,
                "The \"local\" object cannot be accessed directly.",
            ),
            (
                "count",
                7,
                "The \"count\" object cannot be accessed directly.",
            ),
            (
                "each",
                7,
                "The \"each\" object cannot be accessed directly.",
            ),
            (
                "module",
                7,
                "The \"module\" object cannot be accessed directly.",
            ),
            (
                "var[0]",
                10,
                "The \"var\" object does not support this operation.",
            ),
            (
                "local[\"a\"]",
                12,
                "The \"local\" object does not support this operation.",
            ),
            (
                "module[0]",
                13,
                "The \"module\" object does not support this operation.",
            ),
            (
                "data",
                7,
                "The \"data\" object must be followed by two attribute names: the data",
            ),
            (
                "data.x",
                7,
                "The \"data\" object must be followed by two attribute names",
            ),
            (
                "resource.x",
                7,
                "The \"resource\" object must be followed by two attribute",
            ),
            (
                "data[0].x.y",
                11,
                "The \"data\" object does not support this operation.",
            ),
            (
                "data.x[0]",
                13,
                "A reference to a data source must be followed",
            ),
        ];
        for (expr, column, detail) in shapes {
            let main = format!("locals {{\n  a = {expr}\n}}\n");
            let found = findings(&super::RULE, &[("main.tf", &main)]);
            let invalid: Vec<_> = (found.iter())
                .filter(|d| d.message == "Invalid reference")
                .collect();
            assert_eq!(invalid.len(), 1, "{expr}: {found:#?}");
            let place = invalid[0].primary.as_ref().map(|p| p.start());
            assert_eq!(place, Some((2, column)), "{expr}");
            assert!(
                invalid[0].notes[0].starts_with(detail),
                "{expr}: {:?}",
                invalid[0].notes
            );
        }
        // Valid shapes, and those other rules judge.
        for expr in [
            "foo.bar",
            "foo.bar[0].id",
            "data.x.y[0]",
            "var.v[0]",
            "path[0]",
            "self",
        ] {
            let main = format!("locals {{\n  a = {expr}\n}}\n");
            let found = findings(&super::RULE, &[("main.tf", &main)]);
            assert!(
                found.iter().all(|d| d.message != "Invalid reference"),
                "{expr}: {found:#?}"
            );
        }
        // In JSON, an index's escaped quotes are skipped over.
        let json = r#"{"locals": {"a": "${local[\"a]\"].b}"}}"#;
        let found = findings(&super::RULE, &[("main.tf.json", json)]);
        let place = found[0].primary.as_ref().map(|p| (p.start(), p.end()));
        assert_eq!(place, Some(((1, 26), (1, 34))));
    }

    /// The tools' summaries and details: exactly what Terraform 1.15.5's `validate` reports on
    /// this module.
    #[test]
    fn the_tools_texts() {
        let files: Files = &[(
            "main.tf",
            r#"variable "vv" {
  default = 1
}
locals {
  jj = 1
}
output "o" {
  value = [
    var.nope,
    var.vV,
    local.j,
  ]
}
output "p" {
  value = [
    module.nope.x,
    terraform_data.t2.id,
    data.terraform_remote_state.ss.outputs,
    ephemeral.random_password.p,
  ]
}
"#,
        )];
        let mut found: Vec<(usize, String, String)> = findings(&super::RULE, files)
            .into_iter()
            .map(|d| {
                let line = d.primary.as_ref().map_or(0, |p| p.start().0);
                (
                    line,
                    d.message.into_owned(),
                    d.notes.first().map(|n| n.to_string()).unwrap_or_default(),
                )
            })
            .collect();
        found.sort();
        let expected = [
            (
                9,
                "Reference to undeclared input variable",
                "An input variable with the name \"nope\" has not been declared. This variable \
                 can be declared with a variable \"nope\" {} block.",
            ),
            (
                10,
                "Reference to undeclared input variable",
                "An input variable with the name \"vV\" has not been declared. Did you mean \"vv\"?",
            ),
            (
                11,
                "Reference to undeclared local value",
                "A local value with the name \"j\" has not been declared. Did you mean \"jj\"?",
            ),
            (
                16,
                "Reference to undeclared module",
                "No module call named \"nope\" is declared in the root module.",
            ),
            (
                17,
                "Reference to undeclared resource",
                "A managed resource \"terraform_data\" \"t2\" has not been declared in the root \
                 module.",
            ),
            (
                18,
                "Reference to undeclared resource",
                "A data resource \"terraform_remote_state\" \"ss\" has not been declared in the \
                 root module.",
            ),
            (
                19,
                "Reference to undeclared resource",
                "An ephemeral resource \"random_password\" \"p\" has not been declared in the root \
                 module.",
            ),
        ];
        let expected: Vec<(usize, String, String)> = expected
            .into_iter()
            .map(|(line, summary, detail)| (line, summary.to_string(), detail.to_string()))
            .collect();
        assert_eq!(found, expected);
    }
}
