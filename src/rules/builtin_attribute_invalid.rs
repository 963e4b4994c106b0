//! An attribute of `path` or `terraform` the tools do not have: `path` has `module`, `root` and
//! `cwd`; `terraform` has `workspace`, and `applying` from Terraform 1.10. `validate` refuses
//! any other while it looks up the references' values (`Invalid "path" attribute`, `Invalid
//! "terraform" attribute`; `terraform.env` with its own detail), and either object taken whole
//! or indexed while it reads the references (`Invalid reference`): hashicorp/terraform
//! `internal/terraform/evaluate_data.go` (`GetPathAttr`, `GetTerraformAttr`) and
//! `internal/addrs/parse_ref.go` (`parseSingleAttrRef`). Found before any expression runs, so
//! `try` and `can` do not catch it.
//!
//! Left alone: references in a `dynamic` block's `content`, the attributes in a block that also
//! names an undeclared module call or resource, or `self` where nothing binds it (the tools stop
//! before looking up values there; the object taken whole is found before that), and `terraform.applying` in the OpenTofu view (judged
//! against Terraform only).

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::releases::Release;
use crate::lint::helpers::declared::stops_evaluation;
use crate::lint::helpers::reference_shape::step_span;
use crate::lint::helpers::tools_suggestion;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};
use crate::syntax::Reference;
use crate::syntax::references::ReferenceStep;

pub(crate) const RULE: Rule = declare_rule! {
    id: "builtin_attribute_invalid",
    kind: Validate,
    summary: "an attribute of path or terraform that does not exist, or either object taken whole",
    check: Check::View(RuleViews::Both, check),
};

/// The attributes of `path` (`GetPathAttr`).
const PATH_ATTRIBUTES: &[&str] = &["cwd", "module", "root"];

/// The first Terraform release with `terraform.applying`.
const APPLYING_SINCE: Release = Release::new(1, 10);

/// What is wrong with a reference to `path` or `terraform`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Invalid<'r> {
    /// `path` or `terraform` alone: the object cannot be taken whole.
    Whole(&'r str),
    /// `path[0]`: the object has attributes only.
    Indexed(&'r str),
    /// `path.NAME` with a name `path` does not have.
    PathAttribute(&'r str),
    /// `terraform.NAME` with a name `terraform` does not have.
    TerraformAttribute(&'r str),
    /// `terraform.env`, removed in Terraform 0.12.
    TerraformEnv,
}

impl Invalid<'_> {
    /// Whether the tools find it while they read the references (`parseSingleAttrRef`), before
    /// the static check that may stop evaluation: reported whatever else the block holds.
    fn found_reading_references(self) -> bool {
        matches!(self, Invalid::Whole(_) | Invalid::Indexed(_))
    }
}

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let module = ctx.module;
    let declared = ctx.declared;
    let applying = has_applying(ctx);
    let mut found: Vec<(&Reference, Invalid)> = Vec::new();
    let mut stopped = false;
    let mut report = |found: &mut Vec<(&Reference, Invalid)>, stopped: &mut bool| {
        for (reference, invalid) in found.iter() {
            if !*stopped || invalid.found_reading_references() {
                out.push(builtin_attribute_invalid(ctx, reference, *invalid));
            }
        }
        found.clear();
        *stopped = false;
    };
    let object_uses = ctx.object_uses;
    for index in 0..module.objects.len() {
        for used in object_uses.of_object(index) {
            if used.iterator || used.in_dynamic {
                continue;
            }
            stopped |= stops_evaluation(declared, used.reference, used.self_bound);
            if let Some(invalid) = invalid(used.reference, applying) {
                found.push((used.reference, invalid));
            }
        }
        report(&mut found, &mut stopped);
    }
    for local in &module.locals {
        local.attribute.expr.for_each_reference(&mut |reference| {
            stopped |= stops_evaluation(declared, reference, false);
            if let Some(invalid) = invalid(reference, applying) {
                found.push((reference, invalid));
            }
        });
        report(&mut found, &mut stopped);
    }
}

/// Whether `terraform.applying` is taken as an attribute: in the Terraform view, when every
/// targeted release has it; in the OpenTofu view, always (not judged there).
fn has_applying(ctx: &Context) -> bool {
    ctx.view == View::OpenTofu || ctx.targets.lowest() >= APPLYING_SINCE
}

/// What is wrong with `reference`, if it is one to `path` or `terraform`.
fn invalid(reference: &Reference, applying: bool) -> Option<Invalid<'_>> {
    let root = reference.root.as_str();
    if !matches!(root, "path" | "terraform") {
        return None;
    }
    let name = match reference.steps.first() {
        None => return Some(Invalid::Whole(root)),
        Some(ReferenceStep::Index(_)) => return Some(Invalid::Indexed(root)),
        Some(ReferenceStep::Attr(name)) => name.as_str(),
    };
    match (root, name) {
        ("path", name) if !PATH_ATTRIBUTES.contains(&name) => Some(Invalid::PathAttribute(name)),
        ("terraform", "env") => Some(Invalid::TerraformEnv),
        ("terraform", "applying") if !applying => Some(Invalid::TerraformAttribute(name)),
        ("terraform", name) if !matches!(name, "workspace" | "applying") => {
            Some(Invalid::TerraformAttribute(name))
        }
        _ => None,
    }
}

/// The tools' summary and detail; `applying`: whether the release has `terraform.applying`,
/// which the detail of an unknown `terraform` attribute names.
fn summary_and_detail(invalid: Invalid, applying: bool) -> (&'static str, String) {
    match invalid {
        Invalid::Whole(root) => (
            "Invalid reference",
            format!(
                "The \"{root}\" object cannot be accessed directly. Instead, access one of its \
                 attributes."
            ),
        ),
        Invalid::Indexed(root) => (
            "Invalid reference",
            format!("The \"{root}\" object does not support this operation."),
        ),
        Invalid::PathAttribute(name) => (
            "Invalid \"path\" attribute",
            format!(
                "The \"path\" object does not have an attribute named \"{name}\".{}",
                tools_suggestion(name, PATH_ATTRIBUTES.iter().copied())
                    .map(|s| format!(" Did you mean \"{s}\"?"))
                    .unwrap_or_default()
            ),
        ),
        Invalid::TerraformAttribute(name) => (
            "Invalid \"terraform\" attribute",
            format!(
                "The \"terraform\" object does not have an attribute named \"{name}\". {}",
                if applying {
                    "The only supported attributes are terraform.workspace, the name of the \
                     currently-selected workspace, and terraform.applying, a boolean which is \
                     true only during apply."
                } else {
                    "The only supported attribute is terraform.workspace, the name of the \
                     currently-selected workspace."
                }
            ),
        ),
        Invalid::TerraformEnv => (
            "Invalid \"terraform\" attribute",
            "The terraform.env attribute was deprecated in v0.10 and removed in v0.12. The \
             \"state environment\" concept was renamed to \"workspace\" in v0.12, and so the \
             workspace name can now be accessed using the terraform.workspace attribute."
                .to_string(),
        ),
    }
}

/// `Invalid "path" attribute`, `Invalid "terraform" attribute` or `Invalid reference`, the
/// tools' summaries, with their detail.
fn builtin_attribute_invalid(ctx: &Context, reference: &Reference, invalid: Invalid) -> Diagnostic {
    let applying = has_applying(ctx);
    let (summary, detail) = summary_and_detail(invalid, applying);
    let (label, help) = match invalid {
        Invalid::Whole(root) | Invalid::Indexed(root) => (
            format!("`{root}` has attributes only"),
            format!("name one of its attributes, such as `{}`", example(root)),
        ),
        Invalid::PathAttribute(name) => (
            format!("no `path.{name}`"),
            "use `path.module`, `path.root` or `path.cwd`".to_string(),
        ),
        Invalid::TerraformAttribute("applying") => (
            "no `terraform.applying` before Terraform 1.10".to_string(),
            format!(
                "target Terraform 1.10 or later (the module targets {}), or use another value",
                ctx.targets.describe()
            ),
        ),
        Invalid::TerraformAttribute(name) => (
            format!("no `terraform.{name}`"),
            if applying {
                "use `terraform.workspace` or `terraform.applying`".to_string()
            } else {
                "use `terraform.workspace`".to_string()
            },
        ),
        Invalid::TerraformEnv => (
            "no `terraform.env`".to_string(),
            "use `terraform.workspace`".to_string(),
        ),
    };
    // Indexed, the tools report the index (`parseSingleAttrRef`: `traversal[1]`).
    let at = match invalid {
        Invalid::Indexed(_) => step_span(ctx, reference, 0),
        _ => reference.span,
    };
    ctx.finding(&RULE, summary)
        .at(ctx.files, at, label)
        .with_note(detail)
        .with_help(help)
}

/// An attribute of `root` to suggest.
fn example(root: &str) -> &'static str {
    match root {
        "path" => "path.module",
        _ => "terraform.workspace",
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "locals {\n  a = [path.module, path.root, path.cwd, terraform.workspace]\n  \
             b = \"${path.module}/x\"\n  c = [for path in [1] : path]\n}\n",
        )],
        // Evaluation stops at an undeclared resource or `self` where nothing binds it.
        &[(
            "main.tf",
            "output \"o\" {\n  value = [path.nope, aws_instance.gone.id]\n}\n\
             output \"p\" {\n  value = [terraform.nope, self.id]\n}\n",
        )],
        // An override replaces the only invalid attribute.
        &[
            ("main.tf", "output \"o\" {\n  value = path.modul\n}\n"),
            ("override.tf", "output \"o\" {\n  value = path.module\n}\n"),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf",
                r#"variable "v" {
  default = "x"
  validation {
    condition     = var.v != path.nope
    error_message = "x"
  }
}
locals {
  a = [path.modul, terraform.env, terraform.nope]
  b = try(path, 1)
  c = terraform[0]
}
module "m" {
  source = "./m"
  x      = "${path.x}/y"
}
check "c" {
  assert {
    condition     = path.nope2 != ""
    error_message = "x"
  }
}
"#,
            )],
            8,
        ),
        // The object taken whole is found before evaluation stops at the undeclared resource.
        (
            &[(
                "main.tf",
                "output \"o\" {\n  value = [path, path.nope, aws_instance.gone.id]\n}\n",
            )],
            1,
        ),
        // An override's expression, in JSON.
        (
            &[
                ("main.tf", "output \"o\" {\n  value = 1\n}\n"),
                (
                    "override.tf.json",
                    "{\"output\": {\"o\": {\"value\": \"${terraform.workspaces}\"}}}",
                ),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// An indexed `path` or `terraform` is reported at the index, as Terraform 1.15.5 and
    /// 1.6.6 do (`parseSingleAttrRef`: `traversal[1]`).
    #[test]
    fn indexed_at_the_index() {
        let main = "locals {\n  a = path[0]\n  b = terraform [\"x\"]\n}\n";
        let found = findings(&super::RULE, &[("main.tf", main)]);
        let mut places: Vec<_> = (found.iter())
            .filter_map(|d| d.primary.as_ref())
            .map(|p| (p.start(), p.end()))
            .collect();
        places.sort_unstable();
        assert_eq!(places, [((2, 11), (2, 14)), ((3, 17), (3, 22))]);
    }

    /// The tools' summaries and details, as Terraform 1.15.5 reports them.
    #[test]
    fn the_tools_texts() {
        let main =
            "locals {\n  a = [path.modul, terraform.env, terraform.nope, path, path[0]]\n}\n";
        let found: Vec<(String, String)> = findings(&super::RULE, &[("main.tf", main)])
            .into_iter()
            .map(|d| {
                (
                    d.message.into_owned(),
                    d.notes.first().map(|n| n.to_string()).unwrap_or_default(),
                )
            })
            .collect();
        let expected = [
            (
                "Invalid \"path\" attribute",
                "The \"path\" object does not have an attribute named \"modul\". Did you mean \
                 \"module\"?",
            ),
            (
                "Invalid \"terraform\" attribute",
                "The terraform.env attribute was deprecated in v0.10 and removed in v0.12. The \
                 \"state environment\" concept was renamed to \"workspace\" in v0.12, and so the \
                 workspace name can now be accessed using the terraform.workspace attribute.",
            ),
            (
                "Invalid \"terraform\" attribute",
                "The \"terraform\" object does not have an attribute named \"nope\". The only \
                 supported attributes are terraform.workspace, the name of the \
                 currently-selected workspace, and terraform.applying, a boolean which is true \
                 only during apply.",
            ),
            (
                "Invalid reference",
                "The \"path\" object cannot be accessed directly. Instead, access one of its \
                 attributes.",
            ),
            (
                "Invalid reference",
                "The \"path\" object does not support this operation.",
            ),
        ];
        let expected: Vec<(String, String)> = expected
            .into_iter()
            .map(|(s, d)| (s.to_string(), d.to_string()))
            .collect();
        assert_eq!(found, expected);
    }
}
