//! Declarations nothing uses: an input variable, a local value or a data source that no
//! expression of the module reads, and an output of a module's internal child module that no
//! call of it reads. Judged on the effective module of each tool, so that an override file's
//! expression counts where it wins and a use in a `.tofu` file counts (a declaration is
//! reported only when neither tool's module uses it). TFLint's `terraform_unused_declarations`
//! reads the files without merging them: it misses an override's use, and flags what only the
//! override uses.
//!
//! What counts as a use is `module::used`: every expression the tools read, `depends_on` and
//! the `dynamic`, `moved`, `import`, `removed` and `check` blocks included, but neither a
//! declaration's reference to itself (a variable's own `validation`) nor a local value's
//! reference when that local value is unused itself.
//!
//! Not reported, since a maintainer keeps each on purpose:
//! - a name that starts with `_`: marked unused on purpose, as ruff's `dummy-variable-rgx`
//!   (a local evaluated for the error it raises, such as a `for` that refuses duplicate keys);
//! - the module's own outputs: its interface to callers and to `terraform output`;
//! - the variables of a module that declares nothing else, which nothing in it could read: a
//!   shared variables file that other files are copied or linked beside;
//! - a data source read for what reading it does: one with a `precondition` or `postcondition`
//!   (a check), one with `depends_on` (its read is ordered after something, which only matters
//!   for its effect when nothing reads its value), and the types whose read acts
//!   ([`ACTING_DATA_SOURCES`]);
//! - the outputs of a child module that may have callers elsewhere.
//!
//! A child counts as internal when its directory lies below the caller's
//! (`source = "./modules/x"`) and has no README: the registry's convention for a nested module
//! that is not meant for other callers
//! (<https://developer.hashicorp.com/terraform/language/modules/develop/structure>, "Nested
//! modules"). Its calls in this directory are then its only callers.

use std::collections::BTreeMap;
use std::path::{Component, Path};

use crate::diagnostic::fix::Fix;
use crate::diagnostic::{Applicability, Diagnostic};
use crate::module::merge::{Address, MergedBody, Module};
use crate::module::used::Used;
use crate::source::{FileId, Span};
use crate::syntax::Block;

use crate::lint::helpers::{block_removal_span, local_calls};
use crate::lint::{Check, Context, DirectoryContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "unused_declaration",
    severity: Warning,
    // Off by default for now: on, it reports the unused declarations of many of the
    // repository's own examples and fixtures, whose expected outputs change with it.
    default: Off,
    summary: "a variable, local value, data source or internal module output nothing uses",
    fix: Safe,
    check: Check::Directory(check),
};

/// Data source types whose read does something besides returning a value: `archive_file`
/// writes its archive to `output_path`
/// (<https://registry.terraform.io/providers/hashicorp/archive/latest/docs/data-sources/file>),
/// `external` runs a program
/// (<https://registry.terraform.io/providers/hashicorp/external/latest/docs/data-sources/external>).
const ACTING_DATA_SOURCES: &[&str] = &["archive_file", "external"];

/// A declaration, named the same way in both views.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Declaration {
    Variable(String),
    Local(String),
    DataSource(String, String),
    /// The child module's source as the call writes it, and the output.
    ChildOutput(String, String),
}

/// What the views say of one declaration.
#[derive(Debug, Default)]
struct Verdict {
    /// Some view that declares it uses it.
    used: bool,
    /// Where each view that does not use it declares it (once each).
    places: Vec<Span>,
}

fn check(dir: &DirectoryContext, out: &mut Vec<Diagnostic>) {
    let mut verdicts: BTreeMap<Declaration, Verdict> = BTreeMap::new();
    for ctx in dir.views {
        let used = Used::of(ctx.module);
        let only_variables = declares_only_variables(ctx.module);
        let mut judge = |declaration: Declaration, is_used: bool, place: Span| {
            let verdict = verdicts.entry(declaration).or_default();
            verdict.used |= is_used;
            if !is_used && !verdict.places.contains(&place) {
                verdict.places.push(place);
            }
        };
        for object in &ctx.module.objects {
            match &object.address {
                Address::Variable(name) if !only_variables && !name.starts_with('_') => judge(
                    Declaration::Variable(name.clone()),
                    used.variable(name),
                    object.base_header,
                ),
                Address::Resource(mode, kind, name) if mode == "data" && !name.starts_with('_') => {
                    judge(
                        Declaration::DataSource(kind.clone(), name.clone()),
                        used.data_source(kind, name) || read_for_its_effect(kind, &object.body),
                        object.base_header,
                    );
                }
                _ => {}
            }
        }
        for local in &ctx.module.locals {
            let name = local.attribute.name();
            if name.starts_with('_') {
                continue;
            }
            judge(
                Declaration::Local(name.to_string()),
                used.local(name),
                local.declared,
            );
        }
        for (source, output, place) in internal_child_outputs(ctx) {
            if output.starts_with('_') {
                continue;
            }
            let read = local_calls(ctx)
                .filter(|c| same_source(c.source, &source))
                .any(|c| used.output(c.name, &output));
            judge(Declaration::ChildOutput(source, output), read, place);
        }
    }
    let unused_locals: Vec<&str> = (verdicts.iter())
        .filter_map(|(d, v)| match d {
            Declaration::Local(name) if !v.used => Some(name.as_str()),
            _ => None,
        })
        .collect();
    for (declaration, verdict) in &verdicts {
        if verdict.used {
            continue;
        }
        for &place in &verdict.places {
            out.push(match declaration {
                Declaration::Variable(name) => unused_variable(dir, place, name),
                Declaration::Local(name) => unused_local(dir, place, name, &unused_locals),
                Declaration::DataSource(kind, name) => unused_data_source(dir, place, kind, name),
                Declaration::ChildOutput(source, output) => {
                    unread_output(dir, place, source, output)
                }
            });
        }
    }
}

/// Whether a data source is read for what reading it does rather than for its value: it has a
/// `precondition` or `postcondition` (a check), a `depends_on`, or a type whose read acts.
fn read_for_its_effect(kind: &str, body: &MergedBody) -> bool {
    let checks = (body.blocks_of("lifecycle")).any(|l| {
        (l.body.blocks.iter()).any(|b| matches!(b.kind.as_str(), "precondition" | "postcondition"))
    });
    checks || body.attribute("depends_on").is_some() || ACTING_DATA_SOURCES.contains(&kind)
}

/// Whether the module declares variables and nothing else, which could read them.
fn declares_only_variables(module: &Module) -> bool {
    module.locals.is_empty()
        && module.unmerged.is_empty()
        && (module.objects.iter()).all(|o| matches!(o.address, Address::Variable(_)))
}

/// The outputs of the internal child modules the view's calls name, as (source, output, the
/// first call's `source` value).
fn internal_child_outputs(ctx: &Context) -> Vec<(String, String, Span)> {
    let mut found: Vec<(String, String, Span)> = Vec::new();
    for call in local_calls(ctx) {
        if !is_internal(ctx.dir, call.source)
            || found.iter().any(|(s, ..)| same_source(s, call.source))
        {
            continue;
        }
        let Some(source) = call.object.body.attribute("source") else {
            continue;
        };
        for output in &call.interface.outputs {
            found.push((call.source.to_string(), output.clone(), source.value_span()));
        }
    }
    found
}

/// Whether two calls name the same directory: `./a`, `./a/` and `./a/.` do.
fn same_source(a: &str, b: &str) -> bool {
    let parts = |s: &str| -> Vec<String> {
        Path::new(s)
            .components()
            .filter(|c| *c != Component::CurDir)
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect()
    };
    parts(a) == parts(b)
}

/// Whether the module at `source` is internal to the module in `dir`: below it, without a
/// README (the registry's convention for a nested module meant for its parent alone).
fn is_internal(dir: &Path, source: &str) -> bool {
    let path = Path::new(source);
    let below = (path.components()).all(|c| matches!(c, Component::CurDir | Component::Normal(_)))
        && path.components().any(|c| matches!(c, Component::Normal(_)));
    if !below {
        return false;
    }
    let Ok(entries) = std::fs::read_dir(dir.join(path)) else {
        return false;
    };
    let has_readme = entries.flatten().any(|entry| {
        let name = entry.file_name();
        let name = name.to_string_lossy().to_ascii_lowercase();
        name == "readme" || name.starts_with("readme.")
    });
    !has_readme
}

const VARIABLE_NOTE: &str = "no expression of the module reads it (`var.NAME`), in either tool's \
                             effective module";

/// `` variable "x" is declared but not used ``
fn unused_variable(dir: &DirectoryContext, place: Span, name: &str) -> Diagnostic {
    dir.finding(
        &RULE,
        format!("variable \"{name}\" is declared but not used"),
    )
    .at(dir.files, place, "declared here, read nowhere")
    .with_note(VARIABLE_NOTE)
    .with_help(
        "remove it (and the value callers and `.tfvars` files pass for it), or use it; \
             no fix is offered: a caller that passes it would fail",
    )
}

/// `` local.x is declared but not used ``, with a fix that removes each of its definitions.
fn unused_local(dir: &DirectoryContext, place: Span, name: &str, unused: &[&str]) -> Diagnostic {
    let read_by_unused = dir
        .views
        .iter()
        .any(|ctx| read_by_other_local(ctx.module, name));
    let note = match read_by_unused {
        true => "only local values that are unused themselves read it",
        false => {
            "no expression of the module reads it (`local.NAME`), in either tool's \
                  effective module"
        }
    };
    dir.finding(&RULE, format!("local.{name} is declared but not used"))
        .at(dir.files, place, "declared here, read nowhere")
        .with_note(note)
        .with_help("remove it, or use it")
        .with_fix(local_removal(dir, name, unused))
}

/// Whether another local value of `module` names `local.NAME`.
fn read_by_other_local(module: &Module, name: &str) -> bool {
    (module.locals.iter())
        .filter(|l| l.attribute.name() != name)
        .any(|l| {
            let mut reads = false;
            (l.attribute.expr).for_each_reference(&mut |r| {
                reads |= r.root == "local" && r.attr(0) == Some(name);
            });
            reads
        })
}

/// Removes every definition of local value `name` (an override file may set it again): the
/// attribute, or its whole `locals` block when each value of the block is unused.
fn local_removal(dir: &DirectoryContext, name: &str, unused: &[&str]) -> Option<Fix> {
    let mut fix = Fix::new(
        format!("Remove the unused local value `{name}`"),
        Applicability::Safe,
    );
    let mut seen: Vec<FileId> = Vec::new();
    let mut any = false;
    let files = dir
        .views
        .iter()
        .flat_map(|c| c.primary.iter().chain(c.overrides));
    for loaded in files {
        if seen.contains(&loaded.file.id) {
            continue;
        }
        seen.push(loaded.file.id);
        for block in loaded.file.body.blocks_of("locals") {
            let Some(attr) = block.body.attribute(name) else {
                continue;
            };
            any = true;
            fix = match all_unused(block, unused) {
                true => fix.remove_with_comments(dir.files, block_removal_span(dir.files, block)?),
                false => fix.remove_with_comments(dir.files, attr.span()),
            };
        }
    }
    any.then_some(fix)
}

/// Whether every value a `locals` block sets is unused (and it sets one at least).
fn all_unused(block: &Block, unused: &[&str]) -> bool {
    block.body.blocks.is_empty()
        && (block.body.attributes.iter()).all(|a| unused.contains(&a.name.as_str()))
}

/// `` data "T" "N" is declared but not used ``
fn unused_data_source(dir: &DirectoryContext, place: Span, kind: &str, name: &str) -> Diagnostic {
    dir.finding(
        &RULE,
        format!("data \"{kind}\" \"{name}\" is declared but not used"),
    )
    .at(dir.files, place, "declared here, read nowhere")
    .with_note(
        "no expression of the module reads it and no `depends_on` names it, in either tool's \
         effective module; the tools still read it on every plan",
    )
    .with_help(format!(
        "remove it, or use it (`data.{kind}.{name}`); no fix is offered: reading it may be \
         what the module relies on (a failing read stops the plan)"
    ))
}

/// `` output "o" of module "./modules/x" is read by no caller ``, at the first call's source.
fn unread_output(dir: &DirectoryContext, place: Span, source: &str, output: &str) -> Diagnostic {
    dir.finding(
        &RULE,
        format!("output \"{output}\" of module \"{source}\" is read by no caller"),
    )
    .at(
        dir.files,
        place,
        format!("no call of this module reads `{output}`"),
    )
    .with_note(
        "the module lies below this one and has no README, the registry's convention for a \
         nested module meant for its parent alone: the calls here are its only callers",
    )
    .with_help(format!(
        "remove `output \"{output}\"` from `{source}`, or read it; add a README to the module \
         if other callers are meant to use it"
    ))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[
        // Used in every way: templates, `for`, `dynamic`, `depends_on`, `import`, a root
        // module's outputs.
        &[(
            "main.tf",
            r#"variable "a" {}
variable "b" {}
variable "c" {}
locals {
  l = [for x in var.b : "${x}-${var.a}"]
}
data "d" "one" {}
resource "r" "x" {
  v = local.l
  dynamic "rule" {
    for_each = var.c
    content {}
  }
  depends_on = [data.d.one]
}
output "root_output" {
  value = 1
}
"#,
        )],
        // The only use is in an override file.
        &[
            (
                "main.tf",
                "variable \"a\" {}\noutput \"o\" {\n  value = 1\n}\n",
            ),
            ("override.tf", "output \"o\" {\n  value = var.a\n}\n"),
        ],
        // The only use is in OpenTofu's `.tofu` file.
        &[
            ("variables.tf", "variable \"a\" {}\n"),
            ("main.tofu", "output \"o\" {\n  value = var.a\n}\n"),
        ],
        // A data source there for its postcondition.
        &[(
            "main.tf",
            "data \"d\" \"x\" {\n  lifecycle {\n    postcondition {\n      condition     = self.ok\n      error_message = \"no\"\n    }\n  }\n}\n",
        )],
        // Unused on purpose: a `_` name; a data source read for what its read does.
        &[(
            "main.tf",
            r#"variable "_testing" {}
locals {
  _unique = { for k, v in var.items : v.name => k }
}
variable "items" {}
resource "r" "a" {}
data "google_storage_project_service_account" "gcs" {
  depends_on = [r.a]
}
data "archive_file" "bundle" {
  type        = "zip"
  source_dir  = "src"
  output_path = "bundle.zip"
}
"#,
        )],
        // A module of variables alone: a shared file that others are copied beside.
        &[("variables.tf", "variable \"a\" {}\nvariable \"b\" {}\n")],
        // JSON's quoted `depends_on`.
        &[(
            "main.tf.json",
            r#"{"data": {"d": {"x": {}}}, "resource": {"r": {"y": {"depends_on": ["data.d.x"]}}}}"#,
        )],
        // Every output of an internal child is read; a child with a README is left alone.
        &[
            (
                "main.tf",
                "module \"m\" {\n  source = \"./modules/m\"\n}\nmodule \"p\" {\n  source = \"./modules/p\"\n}\noutput \"o\" {\n  value = module.m.a\n}\n",
            ),
            ("modules/m/main.tf", "output \"a\" {\n  value = 1\n}\n"),
            ("modules/p/main.tf", "output \"a\" {\n  value = 1\n}\n"),
            ("modules/p/README.md", "# p\n"),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf",
                "variable \"a\" {}\nlocals {\n  l = 1\n}\ndata \"d\" \"x\" {}\n",
            )],
            3,
        ),
        // The override replaced the only expression that used it: TFLint misses this one.
        (
            &[
                (
                    "main.tf",
                    "variable \"a\" {}\noutput \"o\" {\n  value = var.a\n}\n",
                ),
                ("override.tf", "output \"o\" {\n  value = 1\n}\n"),
            ],
            1,
        ),
        // A variable read only in its own validation; a local read only by an unused local.
        (
            &[(
                "main.tf",
                "variable \"a\" {\n  validation {\n    condition     = var.a != \"\"\n    error_message = \"empty\"\n  }\n}\nlocals {\n  x = local.y\n  y = 1\n}\n",
            )],
            3,
        ),
        // An output of an internal child no call reads.
        (
            &[
                (
                    "main.tf",
                    "module \"m\" {\n  source = \"./modules/m\"\n}\noutput \"o\" {\n  value = module.m.a\n}\n",
                ),
                (
                    "modules/m/main.tf",
                    "output \"a\" {\n  value = 1\n}\noutput \"b\" {\n  value = 2\n}\n",
                ),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn messages_name_what_is_unused() {
        let files: Files = &[(
            "main.tf",
            "variable \"v\" {}\nlocals {\n  l = 1\n}\ndata \"d\" \"x\" {}\n",
        )];
        let mut messages: Vec<String> = findings(&super::RULE, files)
            .into_iter()
            .map(|d| d.message)
            .collect();
        messages.sort();
        assert_eq!(
            messages,
            [
                "data \"d\" \"x\" is declared but not used",
                "local.l is declared but not used",
                "variable \"v\" is declared but not used",
            ]
        );
    }
}
