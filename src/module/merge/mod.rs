//! Builds the effective module of one directory for one tool: primary files appended, override
//! files merged in, with the load errors the tools report (hashicorp/terraform
//! `internal/configs/module.go`;
//! <https://developer.hashicorp.com/terraform/language/files/override>; the cases of
//! `tests/conformance`).

mod body;
mod checks;
pub(crate) mod events;
mod kinds;
mod model;
pub(crate) mod problems;
mod terraform;
mod variables;

pub use model::{
    Address, AddressKey, MergedAttribute, MergedBlock, MergedBody, MergedObject, Module, Origin,
};
pub(crate) use problems::MergeProblem;

use std::borrow::Cow;

use crate::knowledge::View;
use crate::knowledge::blocks;
use crate::knowledge::files::Extension;
use crate::source::{SourceFiles, Span};
use crate::syntax::{Block, Expr, ExprKind, File};
use crate::types::ParsedTypes;

/// A parsed file as one tool loads it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LoadedFile<'a> {
    pub(crate) file: &'a File,
    pub(crate) extension: Extension,
}

/// The effective module and the load errors found while building it.
#[derive(Debug)]
pub(crate) struct Merged {
    pub(crate) module: Module,
    pub(crate) problems: Vec<MergeProblem>,
}

/// What the targeted build decodes, where loading depends on it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Decodes {
    /// `state_store` blocks (Terraform's experimental builds): then the module's state storage.
    pub(crate) state_store: bool,
    /// `enabled` in `lifecycle` (OpenTofu 1.11 and later): a third repetition meta-argument.
    pub(crate) lifecycle_enabled: bool,
    /// An import's `id` as a required argument: releases with `import` blocks but without
    /// `identity` (Terraform and OpenTofu before 1.12) decode it with `Required: true`
    /// (hashicorp/terraform v1.11 `internal/configs/import.go`, `importBlockSchema`).
    pub(crate) import_id_required: bool,
}

/// What the merges of one directory's views decode alike, decoded once for them all (and for
/// the checks after them): the views load mostly the same blocks.
#[derive(Debug, Default)]
pub(crate) struct DirectoryMemo {
    pub(crate) types: ParsedTypes,
    base_variables: variables::BaseVariableErrors,
}

/// Merges one view of a directory. `primary` and `overrides` are in load order; `memo` is the
/// directory's, shared by its views.
pub(crate) fn merge(
    view: View,
    files: &SourceFiles,
    (primary, overrides): (&[LoadedFile], &[LoadedFile]),
    decodes: Decodes,
    memo: &DirectoryMemo,
) -> Merged {
    let mut merger = Merger {
        view,
        memo,
        state_store: decodes.state_store,
        lifecycle_enabled: decodes.lifecycle_enabled,
        import_id_required: decodes.import_id_required,
        files,
        module: Module::new(view),
        problems: Vec::new(),
        check_data: foldhash::HashMap::default(),
        required_providers_blocks: Vec::new(),
        variable_defaults: foldhash::HashMap::default(),
    };
    // Most top-level blocks of the primary files are objects: sized once rather than grown, so
    // the index is not re-hashed as it grows. `locals` and `terraform` blocks never are (see
    // `add_primary_file`): a file of many `locals` blocks would otherwise reserve room for as
    // many objects, in each view.
    let blocks = (primary.iter())
        .flat_map(|f| &f.file.body.blocks)
        .filter(|b| !matches!(b.kind.as_str(), "locals" | "terraform"))
        .count();
    (merger.module.index).reserve(&merger.module.objects, blocks);
    merger.module.objects.reserve(blocks);
    for loaded in primary {
        merger.check_blocks(loaded.file, false);
        merger.add_primary_file(*loaded);
    }
    merger.check_primary_terraform_conflicts();
    for loaded in overrides {
        merger.check_blocks(loaded.file, true);
        merger.apply_override_file(*loaded);
    }
    merger.check_merged_objects();
    Merged {
        module: merger.module,
        problems: merger.problems,
    }
}

/// The condition blocks of a top-level block (`checkRuleBlockSchema`: `condition` and
/// `error_message` required): preconditions and postconditions, variable validations and check
/// assertions.
fn check_rules(block: &Block) -> impl Iterator<Item = &Block> {
    let nested = |kinds: &'static [&'static str]| {
        (block.body.blocks.iter()).filter(move |b| kinds.contains(&b.kind.as_str()))
    };
    let lifecycle = match block.kind.as_str() {
        "resource" | "data" | "ephemeral" => nested(&["lifecycle"]),
        _ => nested(&[]),
    };
    let conditions = lifecycle.flat_map(|l| {
        (l.body.blocks.iter())
            .filter(|b| matches!(b.kind.as_str(), "precondition" | "postcondition"))
    });
    let own: &'static [&'static str] = match block.kind.as_str() {
        "output" => &["precondition"],
        "variable" => &["validation"],
        "check" => &["assert"],
        _ => &[],
    };
    conditions.chain(nested(own))
}

/// State of one merge.
pub(crate) struct Merger<'a> {
    view: View,
    /// Whether `state_store` blocks are decoded (see [`Decodes`]).
    state_store: bool,
    /// Whether `lifecycle { enabled }` is decoded (see [`Decodes`]).
    lifecycle_enabled: bool,
    /// Whether an import's `id` is required (see [`Decodes`]).
    import_id_required: bool,
    files: &'a SourceFiles,
    memo: &'a DirectoryMemo,
    module: Module,
    problems: Vec<MergeProblem>,
    /// `data` blocks nested in `check` blocks: only for duplicate detection.
    check_data: foldhash::HashMap<Address, Span>,
    /// Headers of the primary `required_providers` blocks seen so far.
    required_providers_blocks: Vec<Span>,
    /// The defaults of the variables overridden so far, as merging has converted them.
    variable_defaults: foldhash::HashMap<Address, variables::VariableDefault>,
}

impl Merger<'_> {
    fn report(&mut self, problem: MergeProblem) {
        self.problems.push(problem);
    }

    fn is_terraform(&self) -> bool {
        self.view == View::Terraform
    }

    /// Checks every block on its own, before merging, as the tools do when they decode it
    /// (`decodeResourceBlock`, `decodeModuleBlock`... in `internal/configs`).
    fn check_blocks(&mut self, file: &File, is_override: bool) {
        for block in &file.body.blocks {
            let body = &block.body;
            if matches!(
                block.kind.as_str(),
                "resource" | "data" | "ephemeral" | "module"
            ) && let (Some(count), Some(for_each)) =
                (body.attribute("count"), body.attribute("for_each"))
            {
                let enabled = (body.blocks_of("lifecycle"))
                    .find_map(|l| l.body.attribute("enabled"))
                    .filter(|_| self.lifecycle_enabled);
                self.report(MergeProblem::CountAndForEach {
                    kind: block.kind.clone(),
                    count: count.name_span,
                    for_each: for_each.name_span,
                    enabled: enabled.map(|e| e.name_span),
                });
            }
            if block.kind == "module"
                && let Some(providers) = body.attribute("providers")
            {
                self.check_passed_providers(&providers.expr);
            }
            if block.kind == "required_providers" {
                let block = block.def_range(self.files);
                self.report(MergeProblem::RequiredProvidersTopLevel { block });
            }
            // An import is decoded with its schema in override files too (`decodeImportBlock`
            // takes no override flag), before `override_not_allowed` refuses it there.
            if block.kind == "import" && self.import_id_required {
                self.require(block, &["id"]);
            }
            if is_override {
                continue;
            }
            match block.kind.as_str() {
                "module" => self.require(block, &["source"]),
                "output" => self.require(block, &["value"]),
                _ => {}
            }
            for rule in check_rules(block) {
                self.require(rule, &["condition", "error_message"]);
            }
        }
    }

    /// `Missing required argument`, once per argument of `required` that `block` lacks (HCL's
    /// schema check, in the order of the schema).
    fn require(&mut self, block: &Block, required: &[&'static str]) {
        for &argument in required {
            if block.body.attribute(argument).is_some() {
                continue;
            }
            let (at, header) = (self.missing_item_range(block), block.header_span);
            self.report(match argument {
                "source" => MergeProblem::ModuleSourceMissing { at, header },
                _ => MergeProblem::MissingRequiredArgument {
                    at,
                    header,
                    argument,
                },
            });
        }
    }

    /// Where HCL reports what a block's body lacks (`Body.MissingItemRange`): the opening brace
    /// in native syntax (hashicorp/hcl `hclsyntax/structure.go`), the closing brace of the
    /// object in JSON (`json/structure.go`, the object's `CloseRange`).
    fn missing_item_range(&self, block: &Block) -> Span {
        let body = block.body_span;
        let json = self.files.get(body.file).file_name().ends_with(".json");
        let brace = match json {
            true => body.end.saturating_sub(1)..body.end,
            false => body.start..body.start.saturating_add(1).min(body.end),
        };
        Span::new(body.file, brace.start as usize..brace.end as usize)
    }

    /// A module call's `providers` map may assign each child provider configuration once
    /// (`Duplicate provider address`, at the second value, in both tools).
    fn check_passed_providers(&mut self, providers: &Expr) {
        let mut seen: foldhash::HashMap<String, Span> = foldhash::HashMap::default();
        for (address, key, value) in provider_pairs(self.files, providers) {
            match seen.get(&address) {
                None => {
                    seen.insert(address, key);
                }
                Some(&first) => {
                    self.report(MergeProblem::DuplicateProviderAddress {
                        address,
                        again: value,
                        first,
                    });
                }
            }
        }
    }

    /// Whether HCL refuses the labels of a native top-level block of the schema, which the
    /// tools then skip (`block_labels_invalid` reports it). A JSON block's labels are the keys
    /// read to the schema's depth.
    pub(super) fn labels_refused(&self, block: &Block) -> bool {
        Self::refused(self.files, block, blocks::top_level_labels(&block.kind))
    }

    /// The same for a block nested in `terraform`.
    pub(super) fn terraform_labels_refused(&self, block: &Block) -> bool {
        Self::refused(
            self.files,
            block,
            blocks::terraform_nested_labels(&block.kind),
        )
    }

    /// A top-level block as the tools decode it: without the nested blocks of their schema
    /// whose labels HCL refuses (`lifecycle "x" {}`, a `provisioner` without its type), which
    /// the tools skip as they do a top-level block's, so that neither the merge nor the rules
    /// read them (`block_labels_invalid` reports them). Borrowed when nothing is skipped.
    pub(super) fn decoded<'b>(&self, block: &'b Block) -> Cow<'b, Block> {
        let refused = |parent: &str, nested: &Block| {
            Self::refused(
                self.files,
                nested,
                blocks::nested_labels(parent, &nested.kind),
            )
        };
        let in_lifecycle = |nested: &Block| {
            nested.kind == "lifecycle" && nested.body.blocks.iter().any(|b| refused("lifecycle", b))
        };
        let nested = &block.body.blocks;
        if !nested
            .iter()
            .any(|b| refused(&block.kind, b) || in_lifecycle(b))
        {
            return Cow::Borrowed(block);
        }
        let mut decoded = block.clone();
        decoded.body.blocks.retain(|b| !refused(&block.kind, b));
        for lifecycle in decoded
            .body
            .blocks
            .iter_mut()
            .filter(|b| b.kind == "lifecycle")
        {
            lifecycle.body.blocks.retain(|b| !refused("lifecycle", b));
        }
        Cow::Owned(decoded)
    }

    fn refused(files: &SourceFiles, block: &Block, names: Option<&[&str]>) -> bool {
        names.is_some_and(|names| {
            block.labels.len() != names.len()
                && !files
                    .get(block.header_span.file)
                    .file_name()
                    .ends_with(".json")
        })
    }

    fn labels_of<'b>(&self, block: &'b Block, count: usize) -> Option<Vec<&'b str>> {
        let labels: Vec<&str> = block.labels.iter().map(|l| l.value.as_str()).collect();
        (labels.len() == count).then_some(labels)
    }
}

/// The (address, key span, value span) of each entry of a `providers` map, repeated keys
/// included. A native object keeps only one entry per key once parsed, so its entries are read
/// from the source text: `name[.alias] = name[.alias]` items separated by commas or newlines
/// (anything else in the map, and the map is left alone).
fn provider_pairs(files: &SourceFiles, providers: &Expr) -> Vec<(String, Span, Span)> {
    let ExprKind::Object(items) = &providers.kind else {
        return Vec::new();
    };
    if providers.json_string().is_some()
        || files
            .get(providers.span.file)
            .file_name()
            .ends_with(".json")
    {
        return items
            .iter()
            .filter_map(|item| {
                let address = item.key.json_string()?.to_string();
                Some((address, item.key.span, item.value.span))
            })
            .collect();
    }
    let text = files.text(providers.span);
    let Some(inner) = text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) else {
        return Vec::new();
    };
    let is_reference = |s: &str| {
        !s.is_empty()
            && s.split('.').all(|part| {
                part.chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_')
                    && part
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
            })
    };
    let base = providers.span.start as usize + 1;
    let mut pairs = Vec::new();
    let mut offset = 0;
    for item in inner.split(['\n', ',']) {
        let start = offset;
        offset += item.len() + 1;
        let code = item.split('#').next().unwrap_or("");
        if code.trim().is_empty() {
            continue;
        }
        let Some((key, value)) = code.split_once('=') else {
            return Vec::new();
        };
        let (key_text, value_text) = (key.trim(), value.trim());
        if !is_reference(key_text) || !is_reference(value_text) {
            return Vec::new();
        }
        let span_of = |part: &str, within: usize| {
            let at = base + start + within + (part.len() - part.trim_start().len());
            Span::new(providers.span.file, at..at + part.trim().len())
        };
        let key_span = span_of(key, 0);
        let value_span = span_of(value, key.len() + 1);
        pairs.push((key_text.to_string(), key_span, value_span));
    }
    pairs
}
