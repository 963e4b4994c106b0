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
use std::sync::Arc;

use foldhash::{HashMap, HashSet};

use crate::diagnostic::fix::{Fix, is_json, leading_comments_start};
use crate::diagnostic::{Applicability, Diagnostic};
use crate::lint::neighbours::Interface;
use crate::module::merge::{Address, MergedBody, Module};
use crate::module::used::{OutputsRead, Used};
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
        for child in internal_children(ctx, &used) {
            for output in &child.interface.outputs {
                if output.starts_with('_') {
                    continue;
                }
                judge(
                    Declaration::ChildOutput(child.source.to_string(), output.clone()),
                    child.read.includes(output),
                    child.place,
                );
            }
        }
    }
    let unused_locals: HashSet<&str> = (verdicts.iter())
        .filter_map(|(d, v)| match d {
            Declaration::Local(name) if !v.used => Some(name.as_str()),
            _ => None,
        })
        .collect();
    // Worked out once for every unused local value, so that each finding's note and fix cost
    // what its own definitions cost, however many values a `locals` block holds.
    let read_by_locals = read_by_other_locals(dir);
    let removals = local_removals(dir, &unused_locals);
    for (declaration, verdict) in &verdicts {
        if verdict.used {
            continue;
        }
        for &place in &verdict.places {
            out.push(match declaration {
                Declaration::Variable(name) => unused_variable(dir, place, name),
                Declaration::Local(name) => unused_local(
                    dir,
                    UnusedLocal {
                        place,
                        name,
                        read_by_unused: read_by_locals.contains(name.as_str()),
                        removals: (removals.of.get(name.as_str())).map_or(&[][..], Vec::as_slice),
                        removed_with: (removals.removed_with.get(name.as_str()))
                            .map_or(&[][..], Vec::as_slice),
                    },
                ),
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

/// An internal child module, with what the calls of this view read of its outputs.
struct InternalChild<'a> {
    /// Its source as the view's first call of it writes it.
    source: &'a str,
    /// That call's `source` value, where its unread outputs are reported.
    place: Span,
    interface: Arc<Interface>,
    /// What its calls read, together.
    read: OutputsRead<'a>,
}

/// The internal child modules the view's calls name, each once whatever its calls write
/// (`./a`, `./a/`), with the outputs its calls read gathered in one pass over the calls.
fn internal_children<'a>(ctx: &'a Context, used: &Used<'a>) -> Vec<InternalChild<'a>> {
    let mut children: Vec<InternalChild<'a>> = Vec::new();
    // By directory: the child's index in `children`, or `None` for a directory that is not
    // internal (looked at once).
    let mut by_directory: HashMap<Vec<String>, Option<usize>> = HashMap::default();
    for call in local_calls(ctx) {
        let directory = directory_parts(call.source);
        let index = match by_directory.get(&directory) {
            Some(known) => *known,
            None => {
                let source = call.object.body.attribute("source");
                let child = match (is_internal(ctx.dir, call.source), source) {
                    (true, Some(source)) => {
                        children.push(InternalChild {
                            source: call.source,
                            place: source.value_span(),
                            interface: Arc::clone(&call.interface),
                            read: OutputsRead::Named(HashSet::default()),
                        });
                        Some(children.len() - 1)
                    }
                    _ => None,
                };
                by_directory.insert(directory, child);
                child
            }
        };
        let Some(index) = index else {
            continue;
        };
        let read = &mut children[index].read;
        match (used.outputs_read(call.name), &mut *read) {
            (None, _) | (_, OutputsRead::Any) => {}
            (Some(OutputsRead::Any), _) => *read = OutputsRead::Any,
            (Some(OutputsRead::Named(names)), OutputsRead::Named(all)) => {
                all.extend(names.iter().copied());
            }
        }
    }
    children
}

/// The parts of a local source's directory, so that `./a`, `./a/` and `./a/.` are the same.
fn directory_parts(source: &str) -> Vec<String> {
    Path::new(source)
        .components()
        .filter(|c| *c != Component::CurDir)
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect()
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

/// An unused local value, with what was worked out for it beforehand.
struct UnusedLocal<'a> {
    place: Span,
    name: &'a str,
    /// Only other unused local values read it.
    read_by_unused: bool,
    /// What its fix removes.
    removals: &'a [Removal],
    /// The `locals` blocks that hold it and that another value's fix removes whole.
    removed_with: &'a [RemovedWith<'a>],
}

/// One removal of an unused local value's fix: its definition, or the whole `locals` block
/// that holds it when none of the block's values is used.
struct Removal {
    /// What the fix removes, the comment lines right above included.
    span: Span,
    /// How many values the block holds, when the removal is a whole block.
    block_values: Option<usize>,
    /// How many comment lines above it the removal takes with it.
    comment_lines: usize,
}

/// A `locals` block removed whole by the fix of its first value (`first`), which holds
/// another unused value: the finding of that value points at the block.
struct RemovedWith<'a> {
    first: &'a str,
    header: Span,
}

/// `` local.x is declared but not used ``, with a fix that removes each of its definitions.
fn unused_local(dir: &DirectoryContext, local: UnusedLocal) -> Diagnostic {
    let note = match local.read_by_unused {
        true => "only local values that are unused themselves read it",
        false => {
            "no expression of the module reads it (`local.NAME`), in either tool's \
                  effective module"
        }
    };
    let fix = (!local.removals.is_empty()).then(|| {
        let fix = Fix::new(fix_title(local.name, local.removals), Applicability::Safe);
        (local.removals.iter()).fold(fix, |fix, removal| {
            fix.remove_with_comments(dir.files, removal.span)
        })
    });
    let mut finding = dir
        .finding(
            &RULE,
            format!("local.{} is declared but not used", local.name),
        )
        .at(dir.files, local.place, "declared here, read nowhere")
        .with_note(note);
    for removed in local.removed_with {
        finding = finding
            .with_label(
                dir.files,
                removed.header,
                format!("removed whole by the fix of `local.{}`", removed.first),
            )
            .with_note(format!(
                "none of the values of its `locals` block is used: the fix of `local.{}` \
                 removes the whole block, this value with it",
                removed.first
            ));
    }
    finding.with_help("remove it, or use it").with_fix(fix)
}

/// What the fix does, in words: removing a whole `locals` block is not what removing one
/// value says, and the comment lines above a removed definition go with it (they describe
/// it, as TFLint's fixer also takes them: `RemoveBlock` and `RemoveAttribute` in
/// terraform-linters/tflint-plugin-sdk `internal/fixer.go`), which the title says so that no
/// comment goes unannounced.
fn fix_title(name: &str, removals: &[Removal]) -> String {
    let blocks: Vec<usize> = removals.iter().filter_map(|r| r.block_values).collect();
    let definitions = removals.len() - blocks.len();
    let mut title = match (blocks.as_slice(), definitions) {
        ([1], 0) => format!("Remove the `locals` block of the unused local value `{name}`"),
        ([values], 0) => format!("Remove the `locals` block: none of its {values} values is used"),
        ([], _) => format!("Remove the unused local value `{name}`"),
        (_, 0) => format!(
            "Remove {} `locals` blocks: none of their values is used",
            blocks.len()
        ),
        ([_], _) => format!(
            "Remove the unused local value `{name}`, and a `locals` block none of whose values \
             is used"
        ),
        _ => format!(
            "Remove the unused local value `{name}`, and {} `locals` blocks none of whose \
             values is used",
            blocks.len()
        ),
    };
    let comment_lines: usize = removals.iter().map(|r| r.comment_lines).sum();
    if comment_lines > 0 {
        let above = match removals.len() {
            1 => "it",
            _ => "them",
        };
        let lines = comment_lines_phrase(comment_lines);
        title.push_str(&format!(", with {lines} above {above}"));
    }
    title
}

/// `the comment line`, `3 comment lines`.
fn comment_lines_phrase(n: usize) -> String {
    match n {
        1 => "the comment line".to_string(),
        _ => format!("the {n} comment lines"),
    }
}

/// The local values that another local value of either view names (`local.NAME`).
fn read_by_other_locals<'a>(dir: &'a DirectoryContext) -> HashSet<&'a str> {
    let mut read = HashSet::default();
    for ctx in dir.views {
        for local in &ctx.module.locals {
            let own = local.attribute.name();
            (local.attribute.expr).for_each_reference(&mut |r| {
                if let Some(name) = r.attr(0).filter(|name| r.root == "local" && *name != own) {
                    read.insert(name);
                }
            });
        }
    }
    read
}

/// What the fixes of the unused local values remove, and which values a block removal of
/// another value's fix takes.
#[derive(Default)]
struct LocalRemovals<'a> {
    of: HashMap<&'a str, Vec<Removal>>,
    removed_with: HashMap<&'a str, Vec<RemovedWith<'a>>>,
}

/// For each unused local value, the removals of its definitions (an override file may set it
/// again), in the order of the files: the attribute, or its whole `locals` block when each
/// value of the block is unused. A whole block's removal goes to the fix of its first value
/// alone: a fix per value, each covering the whole block, would make the work of checking and
/// aligning the fixes grow with the square of the block's size, and applying that one fix
/// removes the others' definitions too (their findings say so). Each file and block is looked
/// at once.
fn local_removals<'a>(dir: &'a DirectoryContext, unused: &HashSet<&str>) -> LocalRemovals<'a> {
    let mut removals = LocalRemovals::default();
    let mut seen: HashSet<FileId> = HashSet::default();
    let files = dir
        .views
        .iter()
        .flat_map(|c| c.primary.iter().chain(c.overrides));
    for loaded in files {
        if !seen.insert(loaded.file.id) {
            continue;
        }
        let source = dir.files.get(loaded.file.id);
        let text = source.text.as_str();
        for block in loaded.file.body.blocks_of("locals") {
            if all_unused(block, unused) {
                if let (Some(first), Some(span)) = (
                    block.body.attributes.first(),
                    block_removal_span(dir.files, block),
                ) {
                    removals
                        .of
                        .entry(first.name.as_str())
                        .or_default()
                        .push(Removal {
                            span,
                            block_values: Some(block.body.attributes.len()),
                            comment_lines: lines_between(text, span.range().start, block.span()),
                        });
                    for other in &block.body.attributes[1..] {
                        let with = removals.removed_with.entry(other.name.as_str());
                        with.or_default().push(RemovedWith {
                            first: first.name.as_str(),
                            header: block.header_span,
                        });
                    }
                }
                continue;
            }
            for attr in &block.body.attributes {
                if unused.contains(attr.name.as_str()) {
                    let span = attr.span();
                    let start = match is_json(&source.path) {
                        true => span.range().start,
                        false => leading_comments_start(text, span.range().start),
                    };
                    // A value set twice in one block is a load error; its fix removes both.
                    removals
                        .of
                        .entry(attr.name.as_str())
                        .or_default()
                        .push(Removal {
                            span,
                            block_values: None,
                            comment_lines: lines_between(text, start, span),
                        });
                }
            }
        }
    }
    removals
}

/// The lines from `start` to the line of `span`: the comment lines a removal that starts at
/// `start` takes above what it removes.
fn lines_between(text: &str, start: usize, span: Span) -> usize {
    let end = span.range().start.max(start);
    text[start..end].matches('\n').count()
}

/// Whether every value a `locals` block sets is unused (and it sets one at least).
fn all_unused(block: &Block, unused: &HashSet<&str>) -> bool {
    block.body.blocks.is_empty()
        && (block.body.attributes.iter()).all(|a| unused.contains(a.name.as_str()))
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

    /// A `locals` block of unused values is removed by its first value's fix alone, so that
    /// the fixes of a block of many values do not each cover the whole block.
    #[test]
    fn a_block_of_unused_values_is_removed_by_one_fix() {
        let files: Files = &[("main.tf", "locals {\n  a = 1\n  b = 2\n  c = 3\n}\n")];
        let found = findings(&super::RULE, files);
        let with_fixes: Vec<&str> = (found.iter())
            .filter(|d| d.fix.is_some())
            .map(|d| &*d.message)
            .collect();
        assert_eq!(found.len(), 3);
        assert_eq!(with_fixes, ["local.a is declared but not used"]);
        let fix = found[0].fix.as_ref().expect("a fix");
        assert_eq!(fix.edits.len(), 1);
        assert_eq!(fix.edits[0].range.len(), files[0].1.len());
    }

    /// The fix of a whole block says so, and says that the comment line above goes with it;
    /// the block's other values point at that fix.
    #[test]
    fn a_whole_block_removal_says_what_it_removes() {
        let text =
            "# keep me\nlocals {\n  a   = 1\n  bb  = 2\n  ccc = 3\n}\noutput \"o\" { value = 1 }\n";
        let found = findings(&super::RULE, &[("main.tf", text)]);
        let fix = found[0].fix.as_ref().expect("a fix");
        assert_eq!(
            fix.title,
            "Remove the `locals` block: none of its 3 values is used, with the comment line \
             above it"
        );
        assert_eq!(fix.edits.len(), 1);
        assert_eq!(fix.edits[0].range, 0..text.find("output").unwrap());
        for other in &found[1..] {
            assert!(other.fix.is_none());
            let labels: Vec<&str> = other.secondary.iter().map(|l| &*l.message).collect();
            assert_eq!(labels, ["removed whole by the fix of `local.a`"]);
            assert!(
                other
                    .notes
                    .iter()
                    .any(|n| n.contains("the fix of `local.a` removes"))
            );
        }
    }

    /// A value's own definitions: the title counts the comment lines that go with them.
    #[test]
    fn a_value_removal_counts_its_comment_lines() {
        let files: Files = &[
            (
                "main.tf",
                "locals {\n  # old\n  # really\n  a = 1\n  b = 2\n}\noutput \"o\" { value = local.b }\n",
            ),
            ("override.tf", "locals {\n  a = 2\n}\n"),
        ];
        let found = findings(&super::RULE, files);
        let titles: Vec<&str> = (found.iter())
            .filter_map(|d| d.fix.as_ref())
            .map(|f| f.title.as_str())
            .collect();
        assert_eq!(
            titles,
            [
                "Remove the unused local value `a`, and a `locals` block none of whose values is \
              used, with the 2 comment lines above them"
            ]
        );
        let single: Files = &[(
            "main.tf",
            "locals {\n  a = 1\n  b = 2\n}\noutput \"o\" { value = local.b }\n",
        )];
        let found = findings(&super::RULE, single);
        let fix = found[0].fix.as_ref().expect("a fix");
        assert_eq!(fix.title, "Remove the unused local value `a`");
    }

    #[test]
    fn messages_name_what_is_unused() {
        let files: Files = &[(
            "main.tf",
            "variable \"v\" {}\nlocals {\n  l = 1\n}\ndata \"d\" \"x\" {}\n",
        )];
        let mut messages: Vec<String> = findings(&super::RULE, files)
            .into_iter()
            .map(|d| d.message.into_owned())
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
