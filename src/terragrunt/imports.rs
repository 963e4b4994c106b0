//! What an `import` exposes, after merging. Terragrunt's imports design
//! (<https://terragrunt.gruntwork.io/docs/rfc/imports/>, the RFC of gruntwork-io/terragrunt#1566)
//! makes every block and attribute of an imported configuration readable as
//! `import.<label>.<name>`, `dependency` blocks by name (`import.<label>.dependency.vpc`), and
//! merges the imported configuration into the importing one with `merge = true` (a shallow
//! merge) or `deep_merge = true`. Imports chain: an imported file's own merged imports are part of
//! what it exposes.
//!
//! The names exposed follow Terragrunt's own conversion of a configuration into a value
//! (`TerragruntConfigAsCty`, `pkg/config/config_as_cty.go`): a block or attribute the files do
//! not set is absent, except the settings that conversion always writes.

use std::collections::BTreeSet;

use crate::syntax::{Block, ExprKind, File};

use super::Tree;
use super::refs::RefKind;

/// Top-level names an imported configuration always has, set or not: the string settings
/// `TerragruntConfigAsCty` always writes, and the imports design's `terragrunt_dir`.
pub(crate) const ALWAYS_EXPOSED: &[&str] = &[
    "terragrunt_dir",
    "terraform_binary",
    "terraform_version_constraint",
    "terragrunt_version_constraint",
    "download_dir",
    "iam_role",
    "iam_assume_role_session_name",
    "iam_web_identity_token",
];

/// How an `import` block brings the imported configuration into the importing one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ImportMerge {
    /// Neither `merge` nor `deep_merge`: only readable as `import.<label>`.
    NoMerge,
    /// `merge = true`: blocks and attributes are merged in, the importing file's winning.
    Shallow,
    /// `deep_merge = true`: maps and blocks are merged key by key.
    Deep,
}

impl ImportMerge {
    /// The strategy as written in the block, for messages and the graph.
    pub(crate) fn written(self) -> &'static str {
        match self {
            ImportMerge::NoMerge => "no merge",
            ImportMerge::Shallow => "merge = true",
            ImportMerge::Deep => "deep_merge = true",
        }
    }
}

/// The merge an `import` block asks for (`deep_merge` wins when both are set).
pub(crate) fn import_merge(block: &Block) -> ImportMerge {
    let set = |name: &str| {
        (block.body.attribute(name)).is_some_and(|a| a.expr.kind == ExprKind::Bool(true))
    };
    if set("deep_merge") {
        ImportMerge::Deep
    } else if set("merge") {
        ImportMerge::Shallow
    } else {
        ImportMerge::NoMerge
    }
}

/// The `import` block whose header is `site` in `file`.
pub(crate) fn import_block(file: &File, site: crate::source::Span) -> Option<&Block> {
    file.body
        .blocks_of("import")
        .find(|block| block.header_span == site)
}

/// What one configuration exposes: the files whose blocks and attributes it holds (itself, then
/// what its merged imports bring, transitively), and whether that is all of it.
#[derive(Debug)]
pub(crate) struct Exposed<'t> {
    pub(crate) files: Vec<&'t File>,
    /// False when a merged import could not be followed (a path that resolves to nothing or
    /// that is not resolved statically, a file that does not parse): absence proves nothing.
    pub(crate) complete: bool,
}

impl Exposed<'_> {
    /// Whether the configuration has the top-level name `name` (`inputs`, `remote_state`...).
    pub(crate) fn has(&self, name: &str) -> bool {
        ALWAYS_EXPOSED.contains(&name)
            || self.files.iter().any(|file| {
                file.body.attribute(name).is_some() || file.body.blocks_of(name).next().is_some()
            })
    }

    /// The labels of the configuration's blocks of type `kind` (`dependency`, `generate`).
    pub(crate) fn labels<'a>(&'a self, kind: &'a str) -> BTreeSet<&'a str> {
        (self.files.iter())
            .flat_map(|file| file.body.blocks_of(kind))
            .filter_map(|block| block.label(0))
            .collect()
    }

    /// The names its `locals` blocks set.
    pub(crate) fn locals(&self) -> BTreeSet<&str> {
        (self.files.iter())
            .flat_map(|file| file.body.blocks_of("locals"))
            .flat_map(|block| block.body.attributes.iter().map(|a| a.name.as_str()))
            .collect()
    }
}

impl Tree {
    /// The import edges of node `node`: (reference number, target node), in reference order.
    pub(crate) fn import_edges(&self, node: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        (self.edges_from.get(node).into_iter().flatten())
            .map(|&e| self.edges[e])
            .filter(|edge| edge.kind == RefKind::Import)
            .map(|edge| (edge.reference, edge.to))
    }

    /// The node an import of node `node` (its reference number `reference`) leads to.
    pub(crate) fn import_target(&self, node: usize, reference: usize) -> Option<usize> {
        self.import_edges(node)
            .find(|&(r, _)| r == reference)
            .map(|(_, to)| to)
    }

    /// The merge of node `node`'s reference `reference`, an `import` block.
    pub(crate) fn import_merge_of(&self, node: usize, reference: usize) -> ImportMerge {
        let file = &self.files[self.nodes[node].file];
        let site = file.extracted.references[reference].site;
        (file.parsed.as_ref())
            .and_then(|parsed| import_block(parsed, site))
            .map_or(ImportMerge::NoMerge, import_merge)
    }

    /// The nodes whose blocks node `node` holds once its merged imports are merged in: itself,
    /// then, depth first in reference order, every import with `merge` or `deep_merge`.
    pub(crate) fn merged_imports(&self, node: usize) -> (Vec<usize>, bool) {
        let mut order = Vec::new();
        let mut seen = BTreeSet::new();
        let mut complete = true;
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            order.push(n);
            let file = &self.files[self.nodes[n].file];
            complete &= file.parsed.is_some();
            let mut next = Vec::new();
            for (reference, r) in file.extracted.references.iter().enumerate() {
                if r.kind != RefKind::Import
                    || self.import_merge_of(n, reference) == ImportMerge::NoMerge
                {
                    continue;
                }
                match self.import_target(n, reference) {
                    Some(to) => next.push(to),
                    None => complete = false,
                }
            }
            stack.extend(next.into_iter().rev());
        }
        (order, complete)
    }

    /// What node `node` exposes to a file that imports it.
    pub(crate) fn exposed(&self, node: usize) -> Exposed<'_> {
        let (nodes, complete) = self.merged_imports(node);
        let files = (nodes.iter())
            .filter_map(|&n| self.files[self.nodes[n].file].parsed.as_ref())
            .collect();
        Exposed { files, complete }
    }
}

/// One dependency of a cycle among units once merged imports are merged in.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MergedDependency {
    /// The unit's node: the unit that depends.
    pub(crate) unit: usize,
    /// The dependency edge (its `from` is the node of the file that declares it).
    pub(crate) edge: usize,
    /// Whether the unit has the dependency only through a merged import.
    pub(crate) through_import: bool,
}

impl Tree {
    /// The dependency cycles among units that exist only once each unit's merged imports
    /// (`merge = true`, `deep_merge = true`) are merged in: a dependency declared in an imported
    /// file becomes the importing unit's, unless the unit declares one of the same name (its
    /// own block wins the merge). Cycles without such a dependency are [`Tree::dependency_cycles`].
    pub(crate) fn merged_dependency_cycles(&self) -> Vec<Vec<MergedDependency>> {
        let unit_of = |n: usize| {
            let unit = self.nodes[n].unit;
            self.find_node(super::Node { file: unit, unit })
        };
        // Most trees merge no import: then there is nothing to add to the plain cycles.
        let merging: Vec<(usize, Vec<usize>)> = (self.roots.iter())
            .map(|&unit| (unit, self.merged_imports(unit).0))
            .filter(|(_, merged)| merged.len() > 1)
            .collect();
        if merging.is_empty() {
            return Vec::new();
        }
        let mut steps: Vec<MergedDependency> = Vec::new();
        let mut g = super::graph::Digraph::new(self.nodes.len());
        let mut any_merged = false;
        for (i, edge) in self.live_edges() {
            if edge.kind == RefKind::Dependency
                && let Some(unit) = unit_of(edge.from)
            {
                g.add(unit, edge.to, steps.len());
                steps.push(MergedDependency {
                    unit,
                    edge: i,
                    through_import: false,
                });
            }
        }
        for (unit, merged) in merging {
            let own = self.files[self.nodes[unit].file].parsed.as_ref();
            let declared_by_unit = |name: Option<&str>| {
                own.is_some_and(|file| {
                    file.body
                        .blocks_of("dependency")
                        .any(|block| name.is_some() && block.label(0) == name)
                })
            };
            for &imported in &merged[1..] {
                for &e in &self.edges_from[imported] {
                    let edge = self.edges[e];
                    let name = self.reference(edge.from, edge.reference).name.as_deref();
                    if edge.kind != RefKind::Dependency || declared_by_unit(name) {
                        continue;
                    }
                    any_merged = true;
                    g.add(unit, edge.to, steps.len());
                    steps.push(MergedDependency {
                        unit,
                        edge: e,
                        through_import: true,
                    });
                }
            }
        }
        if !any_merged {
            return Vec::new();
        }
        let mut out = Vec::new();
        for component in g.cyclic_components() {
            let Some(&start) =
                (component.iter()).min_by_key(|&&n| (self.show_file(self.nodes[n].file), n))
            else {
                continue;
            };
            let Some(cycle) = g.cycle_through(start, &component) else {
                continue;
            };
            let cycle: Vec<MergedDependency> = cycle.into_iter().map(|s| steps[s]).collect();
            if cycle.iter().any(|step| step.through_import) {
                out.push(cycle);
            }
        }
        out
    }
}
