//! Queries over what rules see, shared by several rules: small ones here, larger pieces in a
//! module of their own (the schema judgements, legacy module calls, namespaced functions).

pub(crate) mod dated;
pub(crate) mod declared;
pub(crate) mod depends_on;
pub(crate) mod evaluated_calls;
pub(crate) mod function_namespace;
pub(crate) mod legacy_module;
pub(crate) mod marks;
pub(crate) mod null_module_version;
pub(crate) mod provider_reference;
pub(crate) mod reference_shape;
pub(crate) mod schema;
pub(crate) mod top_level;

use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::input::read::Reader;
use crate::knowledge::blocks;
use crate::knowledge::features::{self, Place};
use crate::knowledge::module_source::{self, SourceKind};
use crate::knowledge::releases::Release;
use crate::knowledge::version::{Constraint, parse};
use crate::lint::neighbours::Interface;
use crate::module::merge::problems::DefaultProblem;
use crate::module::merge::{Address, LoadedFile, MergedBlock, MergedBody, MergedObject};
use crate::source::{SourceFiles, Span, Syntax};
use crate::syntax::{Attribute, Block, Expr, ExprKind, ObjectItem, Reference, catches_errors};

use super::{Context, MergeContext, Rule};

/// The candidate closest to `name` by edit distance, if it is close enough to be a typo.
pub(crate) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).clamp(1, 3);
    candidates
        .into_iter()
        .filter_map(|c| Some((edit_distance_within(name, c, limit)?, c)))
        .min()
        .map(|(_, c)| c)
}

/// The suggestion the tools would make for `name`: HCL and Terraform suggest a candidate at an
/// edit distance under 3 whatever the name's length (`didyoumean.NameSuggestion`). Where several
/// qualify we take the closest, where the tools take the first they meet (for functions, in a
/// map's random order), so that our output is stable.
pub(crate) fn tools_suggestion<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .filter_map(|c| Some((edit_distance_within(name, c, 2)?, c)))
        .min()
        .map(|(_, c)| c)
}

/// The edit distance of `a` and `b` when it is at most `limit`, found without finishing the
/// table when it cannot be: the distance is at least the difference of the lengths (checked
/// before anything is allocated), and at least the smallest value of any row. Only the cells
/// within `limit` of the diagonal are computed: a path through any other cell already costs
/// more than `limit` (Ukkonen's band), so a long name costs its length times the bound, not
/// its length squared. (Every unknown name of a hundred thousand ignore comments is compared
/// with every rule id.)
fn edit_distance_within(a: &str, b: &str, limit: usize) -> Option<usize> {
    if a.is_ascii() && b.is_ascii() {
        // A byte a character: nothing to count or collect.
        return banded_distance(a.as_bytes(), b.as_bytes(), limit);
    }
    if a.chars().count().abs_diff(b.chars().count()) > limit {
        return None;
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    banded_distance(&a, &b, limit)
}

/// [`edit_distance_within`] of two sequences of characters.
fn banded_distance<T: PartialEq>(a: &[T], b: &[T], limit: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > limit {
        return None;
    }
    // Any cell beyond the bound holds this: which of them is larger no longer matters.
    let beyond = limit + 1;
    let mut row: Vec<usize> = (0..=b.len()).map(|j| j.min(beyond)).collect();
    for (i, ca) in a.iter().enumerate() {
        let line = i + 1;
        let first = line.saturating_sub(limit);
        let last = (line + limit).min(b.len());
        // The cell up and to the left of the band's first cell, from the row before.
        let mut previous = row[first.saturating_sub(1)];
        let mut smallest = beyond;
        if first == 0 {
            row[0] = line.min(beyond);
            smallest = row[0];
        } else {
            // Left of the band: the next row reads it as its first cell's left neighbour.
            row[first - 1] = beyond;
        }
        for j in first.max(1)..=last {
            let substitution = previous + usize::from(*ca != b[j - 1]);
            previous = row[j];
            row[j] = substitution.min(row[j - 1] + 1).min(previous + 1);
            smallest = smallest.min(row[j]);
        }
        if smallest > limit {
            return None;
        }
    }
    Some(row[b.len()]).filter(|&distance| distance <= limit)
}

/// Every top-level block of the files a view loads, with its file, in load order.
pub(crate) fn top_level_blocks<'a>(
    ctx: &'a Context<'a>,
) -> impl Iterator<Item = (&'a LoadedFile<'a>, &'a Block)> + 'a {
    ctx.top_level.iter().map(|b| (b.file, b.block))
}

/// The top-level blocks of the types `kinds` names (known ones: see [`top_level::picked`]),
/// with their files, in load order.
pub(crate) fn top_level_blocks_of<'a>(
    ctx: &'a Context<'a>,
    kinds: &[&str],
) -> impl Iterator<Item = (&'a LoadedFile<'a>, &'a Block)> + 'a {
    top_level::picked(ctx.top_level, kinds)
}

/// Whether HCL refuses the labels of `nested`, a native block of the tools' schema in a block
/// of type `parent` (`lifecycle "x" {}`): the tools skip it, so no rule reads its settings
/// (`block_labels_invalid` reports it, and the merge leaves it out).
pub(crate) fn nested_labels_refused(parent: &str, nested: &Block) -> bool {
    blocks::nested_labels(parent, &nested.kind)
        .is_some_and(|names| names.len() != nested.labels.len())
}

/// The first OpenTofu release that ignores `terraform { language }` and `terraform {
/// experiments }`, taking both from the top-level `language` block (opentofu/opentofu v1.12.0
/// `internal/configs/language.go`).
pub(crate) const OPENTOFU_IGNORES_TERRAFORM_LANGUAGE: Release = Release::new(1, 12);

/// Whether every targeted OpenTofu release still reads `terraform { language }` and
/// `terraform { experiments }`.
pub(crate) fn opentofu_reads_terraform_language(ctx: &Context) -> bool {
    (ctx.targets.releases.iter()).all(|&r| r < OPENTOFU_IGNORES_TERRAFORM_LANGUAGE)
}

/// The `name` arguments of every `terraform` block of the view, primary and override files:
/// settings the tools check in each file as they read it, before anything is merged.
pub(crate) fn terraform_settings<'a>(
    ctx: &'a Context<'a>,
    name: &'a str,
) -> impl Iterator<Item = &'a Attribute> + 'a {
    top_level_blocks_of(ctx, &["terraform"]).filter_map(move |(_, b)| b.body.attribute(name))
}

/// The top-level blocks of the types `kinds` names in a view's primary files, with their files,
/// in load order.
pub(crate) fn primary_blocks_of<'a>(
    ctx: &'a Context<'a>,
    kinds: &[&str],
) -> impl Iterator<Item = (&'a LoadedFile<'a>, &'a Block)> + 'a {
    top_level_blocks_of(ctx, kinds).filter(|(file, _)| is_primary(ctx, file))
}

/// Whether `file`, one of the view's files, is a primary one: found by where it is held, not by
/// comparing it with every file.
pub(crate) fn is_primary(ctx: &Context, file: &LoadedFile) -> bool {
    ctx.primary
        .as_ptr_range()
        .contains(&std::ptr::from_ref(file))
}

/// The top-level `language` blocks of a view's primary files, with their files.
pub(crate) fn language_blocks<'a>(
    ctx: &'a Context<'a>,
) -> impl Iterator<Item = (&'a LoadedFile<'a>, &'a Block)> + 'a {
    primary_blocks_of(ctx, &["language"])
}

/// A constraint string's parsed constraints, or the error located in the file: the exact bad
/// part when the string is written without escapes, else the whole string.
pub(crate) fn parse_constraints(
    files: &SourceFiles,
    expr: &Expr,
) -> Option<Result<Vec<Constraint>, (Span, String)>> {
    let text = expr.literal_string()?;
    Some(parse(text).map_err(|error| (constraint_span(files, expr, error.range), error.message)))
}

/// The span of a byte range of a constraint string's value: exact when the string is written
/// without escapes, else the whole string.
pub(crate) fn constraint_span(
    files: &SourceFiles,
    expr: &Expr,
    range: std::ops::Range<usize>,
) -> Span {
    let text = expr.literal_string().unwrap_or("");
    let written = files.text(expr.span);
    if written.len() == text.len() + 2 && &written[1..written.len() - 1] == text {
        let start = expr.span.start as usize + 1;
        Span::new(expr.span.file, start + range.start..start + range.end)
    } else {
        expr.span
    }
}

/// Every block (at any depth) of the view's files whose header is one of `headers`. Blocks of
/// one JSON array share a header, so all of them are returned.
pub(crate) fn blocks_with_headers<'a>(ctx: &'a Context<'a>, headers: &[Span]) -> Vec<&'a Block> {
    fn walk<'b>(blocks: &'b [Block], headers: &[Span], out: &mut Vec<&'b Block>) {
        for block in blocks {
            if headers.contains(&block.header_span) {
                out.push(block);
            }
            walk(&block.body.blocks, headers, out);
        }
    }
    let mut out = Vec::new();
    for file in ctx.primary.iter().chain(ctx.overrides.iter()) {
        if headers.iter().any(|h| h.file == file.file.id) {
            walk(&file.file.body.blocks, headers, &mut out);
        }
    }
    out
}

/// Whether two blocks say the same: type, labels, the same arguments with the same values, and
/// the same nested blocks in the same order.
pub(crate) fn same_block(a: &Block, b: &Block, files: &SourceFiles) -> bool {
    let labels = |x: &Block| x.labels.iter().map(|l| l.value.clone()).collect::<Vec<_>>();
    a.kind == b.kind
        && labels(a) == labels(b)
        && a.body.attributes.len() == b.body.attributes.len()
        && a.body.attributes.iter().all(|x| {
            b.body
                .attribute(&x.name)
                .is_some_and(|y| x.expr.same_as(&y.expr, files))
        })
        && a.body.blocks.len() == b.body.blocks.len()
        && a.body
            .blocks
            .iter()
            .zip(&b.body.blocks)
            .all(|(x, y)| same_block(x, y, files))
}

/// Whether every dropped base block is restated, unchanged, among the override's blocks.
pub(crate) fn all_restated(ctx: &Context, dropped: &[Span], by: &[Span]) -> bool {
    let base = blocks_with_headers(ctx, dropped);
    let over = blocks_with_headers(ctx, by);
    !base.is_empty()
        && base
            .iter()
            .all(|d| over.iter().any(|o| same_block(d, o, ctx.files)))
}

/// Where the tools report a block (HCL's `DefRange`), given the body spans of the blocks of its
/// type beside it: [`syntax::def_range`], except for a block written in JSON as an element of an
/// array, which HCL reports at the array's opening bracket whichever element it is
/// (hashicorp/hcl `json/structure.go`, `unpackBlock`: each value of an array value gets
/// `DefRange: tv.OpenRange`). The bracket is found by stepping back from the block over the
/// commas and the earlier elements, which are among `siblings`.
pub(crate) fn json_array_def_range(
    files: &SourceFiles,
    (header, body): (Span, Span),
    siblings: &[Span],
) -> Span {
    let own = crate::syntax::def_range(files, header, body);
    let file = files.get(body.file);
    let (Some(text), true) = (file.whole_text(), file.file_name().ends_with(".json")) else {
        return own;
    };
    let before = |end: usize| text[..end].trim_end_matches([' ', '\t', '\n', '\r']);
    let mut element = body;
    loop {
        let preceding = before(element.start as usize);
        if preceding.ends_with('[') {
            let at = preceding.len() - 1;
            return Span::new(body.file, at..at + 1);
        }
        let Some(earlier_end) = preceding.strip_suffix(',').map(|t| before(t.len()).len()) else {
            return own;
        };
        let earlier =
            (siblings.iter()).find(|b| b.file == body.file && b.end as usize == earlier_end);
        match earlier {
            Some(&earlier) => element = earlier,
            None => return own,
        }
    }
}

/// The text of a reference written as the tools read an address (`hcl.AbsTraversalForExpr`),
/// without blanks, when it is static: names joined by dots, each key a number or a string
/// without interpolation (`aws_instance.web["a"]`); in JSON, the string's value. `None` for
/// anything else (a key that is a reference, a call, a template).
pub(crate) fn static_traversal(files: &SourceFiles, expr: &Expr) -> Option<String> {
    let text: String = match expr.json_string() {
        Some(value) => value.to_string(),
        None => files.text(expr.span).to_string(),
    };
    let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut rest = text.as_str();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[') {
            let end = after.find(']')?;
            let key = &after[..end];
            let quoted = key.len() >= 2
                && key.starts_with('"')
                && key.ends_with('"')
                && !key[1..key.len() - 1].contains(['"', '$', '%', '\\']);
            let number = !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit());
            if !(quoted || number) {
                return None;
            }
            rest = &after[end + 1..];
        } else {
            let name = rest.trim_start_matches('.');
            let end = name.find(['.', '[']).unwrap_or(name.len());
            let ident = &name[..end];
            if ident.is_empty()
                || !ident
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            {
                return None;
            }
            rest = &name[end..];
        }
    }
    Some(text)
}

/// The top-level `module` blocks of the files a view loads.
pub(crate) fn module_calls<'a>(ctx: &'a Context<'a>) -> impl Iterator<Item = &'a Block> + 'a {
    top_level_blocks_of(ctx, &["module"]).map(|(_, block)| block)
}

/// A module block's `source` attribute and its literal value, when it has one.
pub(crate) fn literal_source(block: &Block) -> Option<(&Attribute, &str)> {
    let attr = block.body.attribute("source")?;
    Some((attr, attr.expr.literal_string()?))
}

/// The effective backend block and its type.
pub(crate) fn backend_type<'a>(ctx: &'a Context<'a>) -> Option<(&'a MergedBlock, &'a str)> {
    let backend = ctx.module.terraform.backend.as_ref()?;
    Some((backend, backend.label(0)?))
}

/// Where the tools report a backend's type: its label (`Backend.TypeRange`, used by
/// `terraform init`/`validate` and `tofu init`), in JSON the label's property key.
pub(crate) fn backend_type_span(backend: &MergedBlock) -> Span {
    backend
        .labels
        .first()
        .map_or(backend.header_span, |l| l.span)
}

// --- group A: override rules ---

/// The top-level blocks of one override file of the view. Merge events locate override blocks
/// by span only; rules that need the block itself (is it empty? does it hold both spans?) look
/// it up here.
pub(crate) fn override_blocks_in<'a>(
    ctx: &'a Context<'a>,
    file: crate::source::FileId,
) -> impl Iterator<Item = &'a Block> + 'a {
    ctx.overrides
        .iter()
        .filter(move |f| f.file.id == file)
        .flat_map(|f| &f.file.body.blocks)
}

/// A `NestedBlocksReplaced` merge event: the override's nested blocks of one type hid every
/// base block of that type.
pub(crate) struct BlocksReplaced<'a> {
    pub(crate) address: &'a crate::module::merge::events::Subject,
    pub(crate) kind: &'a str,
    /// Headers of the override's blocks of that type.
    pub(crate) by: &'a [Span],
    /// Headers (or attribute spans) of what was dropped.
    pub(crate) dropped: &'a [Span],
}

/// The nested-block replacements that `wanted` picks and that really lose a base block, each
/// with the header of the first override block. Restating every base block in the override is
/// the documented way to keep them, so those replacements are skipped. Shared by the rules on
/// provisioners and on other nested blocks, which differ only in the block types they judge.
pub(crate) fn lossy_block_replacements<'a>(
    ctx: &'a Context<'a>,
    wanted: impl Fn(&BlocksReplaced) -> bool + 'a,
) -> impl Iterator<Item = (BlocksReplaced<'a>, Span)> + 'a {
    use crate::module::merge::events::Event;
    ctx.module.events.iter().filter_map(move |event| {
        let Event::NestedBlocksReplaced {
            address,
            kind,
            by,
            dropped,
        } = event
        else {
            return None;
        };
        let replaced = BlocksReplaced {
            address,
            kind,
            by,
            dropped,
        };
        if !wanted(&replaced) || all_restated(ctx, dropped, by) {
            return None;
        }
        let first = *by.first()?;
        Some((replaced, first))
    })
}

// --- group B: backend, language, module and version rules ---

/// The targeted releases that have backend type `kind`: both backend rules judge a type only
/// when none of them has it (when some do, `feature_newer_than_target` tells which).
pub(crate) fn releases_with_backend(ctx: &Context, kind: &str) -> Vec<Release> {
    ctx.targets
        .releases
        .iter()
        .copied()
        .filter(|&r| features::accepts(ctx.view, r, Place::Backend, kind) == Some(true))
        .collect()
}

/// Whether an expression is a JSON string with an interpolation (`"${...}"`): a template, not
/// the constant a keyword or literal setting must be. Rules that judge constants skip these and
/// leave them to the rules that judge templates.
pub(crate) fn json_interpolates(expr: &Expr) -> bool {
    expr.json_string().is_some_and(|s| s.contains("${"))
}

/// The `opentofu` attribute of each `compatible_with` block of a `language` block, in order:
/// OpenTofu's own version constraint, which several rules parse, compare or judge.
pub(crate) fn compatible_with_opentofu(language: &Block) -> impl Iterator<Item = &Attribute> {
    language
        .body
        .blocks_of("compatible_with")
        .filter_map(|c| c.body.attribute("opentofu"))
}

/// Every `compatible_with { opentofu = ... }` of the `language` blocks of a view's primary
/// files (see [`language_blocks`] and [`compatible_with_opentofu`]).
pub(crate) fn opentofu_compatible_with<'a>(
    ctx: &'a Context<'a>,
) -> impl Iterator<Item = &'a Attribute> + 'a {
    language_blocks(ctx).flat_map(|(_, language)| compatible_with_opentofu(language))
}

// --- group C: Terragrunt ---

/// What the `terragrunt_*` rules share: cycle messages and labels, and failed references reported
/// once per reference. A module of its own, so its imports stay apart from the other sections'.
pub(crate) mod terragrunt {
    use crate::diagnostic::Diagnostic;
    use crate::lint::TreeContext;
    use crate::lint::unit_modules::ModuleInterface;
    use crate::source::{SourceFiles, Span};
    use crate::terragrunt::effective::Effective;
    use crate::terragrunt::refs::{ImportUse, RefKind, Reference};
    use crate::terragrunt::resolve::Outcome;
    use crate::terragrunt::{Failure, Tree};

    /// A cycle's files or units as `a → b → a`, shortened in the middle when long: the
    /// message of both Terragrunt cycle rules.
    pub(crate) fn chain(names: &[String]) -> String {
        let mut shown: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        if shown.len() > 8 {
            let hidden = shown.len() - 5;
            let tail = shown.split_off(shown.len() - 2);
            shown.truncate(3);
            shown.push(format!("… ({hidden} more)"));
            shown.extend(tail);
        }
        if let Some(first) = names.first() {
            shown.push(format!("`{first}`"));
        }
        shown.join(" → ")
    }

    /// Where an edge stands in a cycle, which decides how its label reads.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(crate) enum CycleStep {
        /// The one edge of a cycle of one (a file or unit naming itself).
        Only,
        First,
        Between,
        /// The last edge, back to the first file or unit.
        Closing,
    }

    /// The edges of a cycle (edge indexes in order), each with its place in the cycle.
    pub(crate) fn cycle_steps(cycle: &[usize]) -> impl Iterator<Item = (CycleStep, usize)> + '_ {
        let last = cycle.len().saturating_sub(1);
        cycle.iter().enumerate().map(move |(i, &edge)| {
            let step = match i {
                _ if cycle.len() == 1 => CycleStep::Only,
                0 => CycleStep::First,
                i if i == last => CycleStep::Closing,
                _ => CycleStep::Between,
            };
            (step, edge)
        })
    }

    /// A finding located at every place given, in order: the first is its primary location, the
    /// others its labels. Cycle findings point at each edge of the cycle this way.
    pub(crate) fn at_each(
        finding: Diagnostic,
        files: &SourceFiles,
        places: impl IntoIterator<Item = (Span, String)>,
    ) -> Diagnostic {
        places
            .into_iter()
            .enumerate()
            .fold(finding, |finding, (i, (span, label))| {
                if i == 0 {
                    finding.at(files, span, label)
                } else {
                    finding.with_label(files, span, label)
                }
            })
    }

    /// A reference of a Terragrunt tree that failed to resolve, once however many units evaluate
    /// its file: the rules on missing and unresolvable paths report each such reference once.
    pub(crate) struct FailedReference<'a> {
        /// The failure for the first unit (by shown path).
        pub(crate) failure: &'a Failure,
        pub(crate) reference: &'a Reference,
        /// The note naming the units an included file was evaluated for, if it was.
        pub(crate) evaluated_for: Option<String>,
    }

    /// The live failures `keep` selects, one per reference (see [`FailedReference`]).
    pub(crate) fn failed_references<'a>(
        tree: &'a Tree,
        keep: impl Fn(&Outcome) -> bool,
    ) -> impl Iterator<Item = FailedReference<'a>> + 'a {
        tree.grouped_failures(keep).into_iter().map(move |group| {
            let failure = group[0];
            let nodes: Vec<usize> = group.iter().map(|f| f.node).collect();
            FailedReference {
                failure,
                reference: tree.reference(failure.node, failure.reference),
                evaluated_for: tree.evaluated_for(&nodes),
            }
        })
    }

    /// A use of `import.<label>` in a live file of a tree, with what it names: the import block
    /// of that label the file declares (its reference number, when it has a `config_path`) and
    /// the node the import leads to. The import rules judge these.
    pub(crate) struct ImportUseSite<'a> {
        pub(crate) import_use: &'a ImportUse,
        /// The labels of the file's `import` blocks, in source order.
        pub(crate) declared: Vec<&'a str>,
        /// The node the named import leads to, when it is declared and resolved.
        pub(crate) target: Option<usize>,
    }

    /// Every use of `import.<label>` in the live files of `tree`, each file judged as the first
    /// node it is evaluated as (an imported file is evaluated on its own, so its imports lead to
    /// the same files for every unit).
    pub(crate) fn import_use_sites(tree: &Tree) -> Vec<ImportUseSite<'_>> {
        let mut first_node = vec![None; tree.files.len()];
        for (n, node) in tree.nodes.iter().enumerate() {
            if tree.live[n] && first_node[node.file].is_none() {
                first_node[node.file] = Some(n);
            }
        }
        let mut out = Vec::new();
        for (f, node) in first_node.into_iter().enumerate() {
            let (Some(node), Some(parsed)) = (node, tree.files[f].parsed.as_ref()) else {
                continue;
            };
            let extracted = &tree.files[f].extracted;
            if extracted.import_uses.is_empty() {
                continue;
            }
            let declared: Vec<&str> = (parsed.body.blocks_of("import"))
                .filter_map(|block| block.label(0))
                .collect();
            for import_use in &extracted.import_uses {
                let reference = (extracted.references.iter()).position(|r| {
                    r.kind == RefKind::Import && r.name.as_deref() == Some(&import_use.name)
                });
                out.push(ImportUseSite {
                    import_use,
                    declared: declared.clone(),
                    target: reference.and_then(|r| tree.import_target(node, r)),
                });
            }
        }
        out
    }

    /// A unit that deploys a module from a local source, with its effective configuration and
    /// the module's interface: what the input rules compare. In the order of the units' paths.
    pub(crate) struct UnitWithModule<'a> {
        pub(crate) effective: Effective<'a>,
        pub(crate) module: &'a ModuleInterface,
    }

    /// Every unit of the tree whose module's interface is known.
    pub(crate) fn units_with_modules<'a>(ctx: &'a TreeContext<'a>) -> Vec<UnitWithModule<'a>> {
        let tree = ctx.tree;
        let mut units: Vec<(&usize, &std::sync::Arc<ModuleInterface>)> =
            ctx.unit_modules.by_unit.iter().collect();
        units.sort_by_cached_key(|(unit, _)| tree.show_file(tree.nodes[**unit].file));
        (units.into_iter())
            .map(|(&unit, module)| UnitWithModule {
                effective: tree.effective(unit),
                module,
            })
            .collect()
    }

    /// A note that may be absent (as [`Tree::evaluated_for`]'s), added when present.
    pub(crate) fn with_optional_note(finding: Diagnostic, note: Option<String>) -> Diagnostic {
        match note {
            Some(note) => finding.with_note(note),
            None => finding,
        }
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn long_chains_are_shortened() {
            let names: Vec<String> = (0..10).map(|i| format!("f{i}")).collect();
            assert_eq!(
                super::chain(&names),
                "`f0` → `f1` → `f2` → … (5 more) → `f8` → `f9` → `f0`"
            );
        }

        #[test]
        fn cycle_steps() {
            use super::CycleStep::*;
            let steps = |cycle: &[usize]| {
                super::cycle_steps(cycle)
                    .map(|(s, _)| s)
                    .collect::<Vec<_>>()
            };
            assert_eq!(steps(&[7]), [Only]);
            assert_eq!(steps(&[1, 2]), [First, Closing]);
            assert_eq!(steps(&[1, 2, 3]), [First, Between, Closing]);
        }
    }
}

/// What a fix removes to remove (or move) a block: in native syntax the whole block with the
/// comment lines right above it; in JSON syntax the object member that holds its body (the
/// innermost label, or the block type when it has no label), or `None` when the body is not
/// such a member (a block in a JSON array).
pub(crate) fn block_removal_span(files: &SourceFiles, block: &Block) -> Option<Span> {
    let file = files.get(block.body_span.file);
    if !crate::diagnostic::fix::is_json(&file.path) {
        let span = block.span();
        let start = crate::diagnostic::fix::leading_comments_start(&file.text, span.range().start);
        return Some(Span::new(span.file, start..span.range().end));
    }
    let key = block.labels.last().map_or(block.header_span, |l| l.span);
    let between = file
        .text
        .get(key.end as usize..block.body_span.start as usize)?;
    if between.trim() != ":" {
        return None;
    }
    // A label or block type object left empty is an error (`"variable": {}` has no label):
    // remove the member that holds it instead, level after level.
    let mut member = key.start as usize..block.body_span.end as usize;
    loop {
        match sole_member_of(&file.text, member.clone()) {
            Holder::Member(outer) => member = outer,
            Holder::Root => return Some(Span::new(key.file, member)),
            Holder::Other => return None,
        }
    }
}

/// What holds a JSON object member that is alone in its object.
enum Holder {
    /// The member whose value the object is (`"key": {member}`).
    Member(std::ops::Range<usize>),
    /// Nothing to climb to: the member is not alone, or its object is the root.
    Root,
    /// An array element or something else that must not be left empty.
    Other,
}

fn sole_member_of(text: &str, member: std::ops::Range<usize>) -> Holder {
    let before = text[..member.start].trim_end();
    let rest = &text[member.end..];
    let after = rest.trim_start();
    if !before.ends_with('{') || !after.starts_with('}') {
        return Holder::Root;
    }
    let close = member.end + (rest.len() - after.len()) + 1;
    let outside = text[..before.len() - 1].trim_end();
    if outside.is_empty() {
        return Holder::Root;
    }
    let Some(key) = outside.strip_suffix(':').map(str::trim_end) else {
        return Holder::Other;
    };
    // The key's opening quote: the last `"` before its closing one that no backslash escapes.
    let Some(inner) = key.strip_suffix('"') else {
        return Holder::Other;
    };
    let opening = (inner.char_indices().rev())
        .find(|&(i, c)| c == '"' && !inner[..i].ends_with('\\'))
        .map(|(i, _)| i);
    match opening {
        Some(start) => Holder::Member(start..close),
        None => Holder::Other,
    }
}

/// `Missing required argument`, at the brace of a primary block's body that lacks `argument`
/// (where HCL reports it): the tools check each primary block on its own
/// (`module_source_missing` for a module's `source`, `missing_required_argument` for the
/// others).
pub(crate) fn missing_argument(
    ctx: &MergeContext,
    rule: &Rule,
    at: Span,
    header: Span,
    argument: &str,
) -> Diagnostic {
    ctx.finding(rule, "Missing required argument")
        .at(ctx.files, at, format!("no `{argument}` argument"))
        .with_label(ctx.files, header, "in this block")
        .with_note(format!(
            "The argument \"{argument}\" is required, but no definition was found. It is \
             checked in each primary file before override files are merged, so an override \
             cannot supply it."
        ))
}

/// The summary of every error about a variable's default.
pub(crate) const INVALID_DEFAULT: &str = "Invalid default value for variable";

/// Why the tools refuse a null default.
pub(crate) const NULL_NOT_NULLABLE: &str = "A null default value is not valid when nullable=false.";

/// `Invalid default value for variable`, at the default of a variable block decoded on its own
/// with its own type: a primary block's (`variable_default_invalid`) or an override block's
/// (`override_variable_default_invalid`).
pub(crate) fn invalid_default(
    ctx: &MergeContext,
    rule: &Rule,
    default: Span,
    problem: &DefaultProblem,
) -> Diagnostic {
    let finding = ctx.finding(rule, INVALID_DEFAULT);
    match problem {
        DefaultProblem::NotOfType {
            ty,
            type_value,
            reason,
        } => finding
            .at(ctx.files, default, format!("not a valid `{ty}`"))
            .with_note(format!(
                "This default value is not compatible with the variable's type constraint: \
                 {reason}."
            ))
            .with_label(ctx.files, *type_value, format!("type is `{ty}`")),
        DefaultProblem::NullNotNullable { nullable } => {
            let d = (finding.at(ctx.files, default, "null default")).with_note(NULL_NOT_NULLABLE);
            match nullable {
                Some(nullable) => d.with_label(ctx.files, *nullable, "`nullable = false`"),
                None => d,
            }
        }
    }
}

/// What a file that could not be read or parsed costs, as the findings about it say: the
/// directory's other files are still checked, or the tree's other files.
pub(crate) fn skipped_note(reader: Reader) -> &'static str {
    match reader {
        Reader::Module => {
            "This file contributes nothing: the directory's other files are still loaded and \
             merged, as the tools do, and their load errors reported (except an override's \
             missing base, which this file may define); rules do not run on the views that \
             load this file."
        }
        Reader::Terragrunt => "The Terragrunt checks of this file were skipped.",
    }
}

/// A call of the effective module to a module with a local source (`./vpc`, `../vpc`), and what
/// that module offers its callers in the same view.
pub(crate) struct LocalCall<'a> {
    pub(crate) object: &'a MergedObject,
    pub(crate) name: &'a str,
    /// The source as written.
    pub(crate) source: &'a str,
    pub(crate) interface: Arc<Interface>,
}

impl<'a> LocalCall<'a> {
    /// The items of the call's `providers` map: none without one; `None` when it is not a map
    /// the model reads (not judged).
    pub(crate) fn providers_map(&self) -> Option<&'a [ObjectItem]> {
        match self.object.body.attribute("providers") {
            None => Some(&[]),
            Some(providers) => match &providers.expr.kind {
                ExprKind::Object(items) => Some(items),
                _ => None,
            },
        }
    }
}

/// The effective module's calls to local modules whose files were all read and parsed (a module
/// that cannot be read is not judged, nor one that calls itself), in order. The tools read a local module as its own
/// effective module, override files merged, whoever calls it.
pub(crate) fn local_calls<'a>(ctx: &'a Context<'a>) -> impl Iterator<Item = LocalCall<'a>> + 'a {
    (ctx.calls().local.iter()).filter_map(|(index, interface)| {
        let object = ctx.module.objects.get(*index)?;
        let Address::ModuleCall(name) = &object.address else {
            return None;
        };
        Some(LocalCall {
            object,
            name,
            source: object.body.attribute("source")?.expr.literal_string()?,
            interface: Arc::clone(interface),
        })
    })
}

/// The calls to local modules of one view, found once for every rule that reads them: a
/// module may call a hundred thousand modules, or hold as many objects of other types, which
/// each rule would otherwise look through again. Places, not references, so that the view's
/// [`Context`] can hold it.
pub(crate) struct ModuleCalls {
    /// The effective module's calls to local modules whose interface is known: each as the
    /// place of its object in the module, with the interface.
    local: Vec<(usize, Arc<Interface>)>,
}

impl ModuleCalls {
    pub(crate) fn of(ctx: &Context) -> ModuleCalls {
        let local = (ctx.module.objects.iter().enumerate())
            .filter_map(|(index, object)| {
                if !matches!(object.address, Address::ModuleCall(_)) {
                    return None;
                }
                let source = object.body.attribute("source")?.expr.literal_string()?;
                if module_source::classify(source) != SourceKind::Local {
                    return None;
                }
                let interface = ctx.neighbours.called_interface(ctx.dir, source, ctx.view)?;
                Some((index, interface))
            })
            .collect();
        ModuleCalls { local }
    }
}

/// The syntax of the file of `span`, one the view loads (native where it is not found).
pub(crate) fn syntax_of(ctx: &Context, span: Span) -> Syntax {
    (ctx.primary.iter().chain(ctx.overrides))
        .find(|loaded| loaded.file.id == span.file)
        .map_or(Syntax::Native, |loaded| loaded.extension.syntax())
}

/// Calls `f` with every reference in `expr` and whether it may sit in the arguments of `try`
/// or `can`, which turn an error found while evaluating (an attribute an object does not have)
/// into the fallback: hashicorp/hcl `ext/tryfunc/tryfunc.go`. In a template or an operator,
/// which the model keeps as text, every reference counts as in `try` when a `try` or `can` call
/// is there too: where that call's arguments end is not known.
pub(crate) fn for_each_reference_with_try<'e>(
    expr: &'e Expr,
    in_try: bool,
    f: &mut impl FnMut(&'e Reference, bool),
) {
    let text_has_try = (expr.calls().iter()).any(|c| c.in_try || catches_errors(&c.name));
    for reference in expr.references() {
        f(reference, in_try || text_has_try);
    }
    let arguments_in_try =
        in_try || matches!(&expr.kind, ExprKind::FunctionCall { name, .. } if catches_errors(name));
    expr.for_each_child(|child| for_each_reference_with_try(child, arguments_in_try, f));
}

/// Whether `reference`, one of the references of `body` (nested blocks included), may sit in
/// the arguments of `try` or `can` ([`for_each_reference_with_try`]).
pub(crate) fn in_try(body: &MergedBody, reference: &Reference) -> bool {
    let mut found = false;
    for attribute in &body.attributes {
        for_each_reference_with_try(&attribute.expr, false, &mut |r, in_try| {
            found |= in_try && std::ptr::eq(r, reference);
        });
    }
    found || body.blocks.iter().any(|b| in_try(&b.body, reference))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bounded edit distance is the full one wherever that is within the bound.
    #[test]
    fn the_bounded_edit_distance_is_the_edit_distance_within_its_bound() {
        fn full(a: &str, b: &str) -> usize {
            let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            let mut table = vec![vec![0; b.len() + 1]; a.len() + 1];
            for (i, row) in table.iter_mut().enumerate() {
                row[0] = i;
            }
            for (j, cell) in table[0].iter_mut().enumerate() {
                *cell = j;
            }
            for i in 1..=a.len() {
                for j in 1..=b.len() {
                    let substitution = table[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
                    table[i][j] = substitution
                        .min(table[i - 1][j] + 1)
                        .min(table[i][j - 1] + 1);
                }
            }
            table[a.len()][b.len()]
        }
        let words = [
            "",
            "a",
            "count",
            "cuont",
            "for_each",
            "foreach",
            "unused_ignore",
            "é_x",
            // Longer than the band is wide, differing at either end and in the middle.
            "no_such_rule_1234",
            "no_such_rule_12345",
            "xo_such_rule_12354",
            "module_source_not_static",
            "abcdefghij",
            "bcdefghija",
            "abcdexghij",
        ];
        for a in words {
            for b in words {
                for limit in 0..5 {
                    let expected = Some(full(a, b)).filter(|&d| d <= limit);
                    assert_eq!(
                        edit_distance_within(a, b, limit),
                        expected,
                        "{a} {b} {limit}"
                    );
                }
            }
        }
    }
}
