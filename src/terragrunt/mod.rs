//! Terragrunt configuration trees: `terragrunt.hcl` units and the `.hcl` files they pull in.
//!
//! These files are not Terraform modules and get no Terraform rules. They are parsed with the
//! same native parser, and their references — `include`, `import`, `read_terragrunt_config(...)`,
//! `dependency`/`dependencies` — are resolved statically into a graph ([`Tree`]), which the
//! `terragrunt_*` rules check as one tree (cycles cross directories).
//!
//! Terragrunt evaluates an included file *for the unit that includes it*: its
//! `find_in_parent_folders()`, `get_terragrunt_dir()` and relative paths start from the unit's
//! directory. Imported and `read_terragrunt_config` files are evaluated on their own. So a graph
//! node is a file evaluated for a configuration directory ([`Node`]), and a file included by 500
//! units is 500 nodes — exactly the work Terragrunt does. Everything is linear in that size.
//!
//! Loading runs in waves: the files of a wave are read and parsed in parallel, then every node
//! whose file is parsed is resolved in parallel, which names the next wave's files.

pub(crate) mod effective;
pub(crate) mod graph;
pub(crate) mod imports;
pub(crate) mod paths;
pub(crate) mod probe;
pub(crate) mod refs;
pub(crate) mod render;
pub(crate) mod resolve;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use foldhash::HashMap;
use rayon::prelude::*;

use crate::input::overlay::Overlay;
use crate::input::read::{LoadedSource, Read, ReadProblem, Reader, read_and_parse};
pub(crate) use crate::knowledge::files::TERRAGRUNT_UNIT as UNIT_FILE;
use crate::knowledge::files::{TERRAGRUNT_STACK, TERRAGRUNT_STACK_DIR, terragrunt_syntax};
use crate::source::{FileId, SourceFile, SourceFiles};
use crate::syntax::{File, Parsed};

use graph::Digraph;
use paths::{Displayer, dir_of};
use probe::Probe;
use refs::{Extracted, RefKind, Reference};
use resolve::{Env, Missing, Outcome};

/// One `.hcl` file of the tree.
#[derive(Debug)]
pub(crate) struct TgFile {
    /// Absolute and lexically clean.
    pub(crate) path: PathBuf,
    pub(crate) id: FileId,
    /// `None` when it could not be read or parsed (a problem says why).
    pub(crate) parsed: Option<File>,
    pub(crate) extracted: Extracted,
    /// Read and syntax errors.
    pub(crate) problems: Vec<ReadProblem>,
    /// Found by discovery, or named by a dependency: evaluated as a unit of its own.
    pub(crate) is_unit: bool,
    pub(crate) bytes: u64,
}

/// A file evaluated for a configuration: `unit` is the file whose directory its paths start
/// from (the file itself, except for included files).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Node {
    pub(crate) file: usize,
    pub(crate) unit: usize,
}

/// A resolved reference: `from` node's reference number `reference` leads to node `to`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Edge {
    pub(crate) from: usize,
    pub(crate) reference: usize,
    pub(crate) to: usize,
    pub(crate) kind: RefKind,
}

/// A reference that leads nowhere, or that we cannot follow.
#[derive(Debug, Clone)]
pub(crate) struct Failure {
    pub(crate) node: usize,
    pub(crate) reference: usize,
    pub(crate) outcome: Outcome,
}

/// The resolved reference graph of a Terragrunt tree.
#[derive(Debug, Default)]
pub(crate) struct Tree {
    pub(crate) files: Vec<TgFile>,
    pub(crate) sources: SourceFiles,
    pub(crate) nodes: Vec<Node>,
    pub(crate) edges: Vec<Edge>,
    pub(crate) failures: Vec<Failure>,
    /// Per node: reached from a unit (an included parent `terragrunt.hcl` is not a unit).
    pub(crate) live: Vec<bool>,
    /// The nodes of the units, each evaluated for itself ([`Tree::unit_roots`]).
    roots: Vec<usize>,
    /// Per node: the indexes of the edges leaving it.
    pub(crate) edges_from: Vec<Vec<usize>>,
    pub(crate) displayer: Displayer,
    node_index: HashMap<Node, usize>,
    /// Per included node: how the unit's `include` block merges it in.
    merge_strategies: HashMap<usize, MergeStrategy>,
}

/// An `include` block's `merge_strategy`: how the included file's blocks reach the unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MergeStrategy {
    /// Nothing of the included file is merged in (its locals are still read via `expose`).
    NoMerge,
    /// The default: a block of the unit replaces the included block of the same type and name.
    Shallow,
    /// Blocks of the same type and name are merged attribute by attribute, the unit's winning.
    Deep,
}

/// The `merge_strategy` of reference `reference` (an `include` block) of file `file`.
fn merge_strategy(tree: &Tree, file: usize, reference: usize) -> MergeStrategy {
    let site = tree.files[file].extracted.references[reference].site;
    let written = (tree.files[file].parsed.iter())
        .flat_map(|parsed| parsed.body.blocks_of("include"))
        .find(|block| block.header_span == site)
        .and_then(|block| block.body.attribute("merge_strategy"))
        .and_then(|attribute| attribute.expr.literal_string());
    match written {
        Some("no_merge") => MergeStrategy::NoMerge,
        Some("deep") => MergeStrategy::Deep,
        _ => MergeStrategy::Shallow,
    }
}

/// Whether the unit that includes a file replaces one of that file's dependency references, as
/// Terragrunt merges the include before it reads dependencies: with `no_merge` none of them
/// reaches the unit; otherwise a unit's `dependency` block of the same name replaces it (with a
/// deep merge, only when the unit sets `config_path` itself), and the unit's `dependencies`
/// block replaces the included one (a deep merge adds both lists up instead).
fn replaced_by_unit(unit: &File, strategy: MergeStrategy, reference: &Reference) -> bool {
    let same_block = |block: &&crate::syntax::Block| match &reference.name {
        Some(name) => block.kind == "dependency" && block.label(0) == Some(name),
        None => block.kind == "dependencies",
    };
    let mut in_unit = unit.body.blocks.iter().filter(same_block);
    match strategy {
        MergeStrategy::NoMerge => true,
        MergeStrategy::Shallow => in_unit.next().is_some(),
        MergeStrategy::Deep => {
            reference.name.is_some()
                && in_unit.any(|block| block.body.attribute("config_path").is_some())
        }
    }
}

impl Tree {
    /// Reads, parses and resolves everything `units` refer to, transitively, taking the text
    /// of overlaid files from `overlay`.
    pub(crate) fn load(
        units: &[PathBuf],
        displayer: Displayer,
        max_file_bytes: u64,
        overlay: &Overlay,
    ) -> Tree {
        let mut builder = Builder {
            tree: Tree {
                displayer,
                ..Tree::default()
            },
            by_path: HashMap::default(),
            to_parse: Vec::new(),
            to_resolve: Vec::new(),
        };
        let mut seeds: Vec<PathBuf> = units.iter().map(|u| paths::absolute(u)).collect();
        seeds.sort();
        seeds.dedup();
        for seed in seeds {
            let file = builder.file(seed);
            builder.tree.files[file].is_unit = true;
            builder.node(Node { file, unit: file });
        }
        while !builder.to_parse.is_empty() || !builder.to_resolve.is_empty() {
            builder.parse_wave(max_file_bytes, overlay);
            builder.resolve_wave();
        }
        let mut tree = builder.tree;
        tree.roots = tree.unit_roots();
        tree.live = tree.reach(&tree.roots);
        tree.edges_from = vec![Vec::new(); tree.nodes.len()];
        for (i, edge) in tree.edges.iter().enumerate() {
            tree.edges_from[edge.from].push(i);
        }
        tree
    }

    /// The nodes reachable from `roots` (themselves included).
    fn reach(&self, roots: &[usize]) -> Vec<bool> {
        let mut out_edges: Vec<Vec<usize>> = vec![Vec::new(); self.nodes.len()];
        for edge in &self.edges {
            out_edges[edge.from].push(edge.to);
        }
        let mut live = vec![false; self.nodes.len()];
        let mut stack = roots.to_vec();
        for &n in &stack {
            live[n] = true;
        }
        while let Some(n) = stack.pop() {
            for &next in &out_edges[n] {
                if !live[next] {
                    live[next] = true;
                    stack.push(next);
                }
            }
        }
        live
    }

    /// The nodes of `terragrunt.hcl` files evaluated as units in their own right: those no other
    /// file includes (an included one is a parent configuration), and those that nothing such a
    /// unit reaches: a unit that includes itself, or units that include each other, are still
    /// units, whose cycle is then reported rather than the units silently dropped.
    fn unit_roots(&self) -> Vec<usize> {
        let included: BTreeSet<usize> = self
            .edges
            .iter()
            .filter(|e| e.kind == RefKind::Include)
            .filter(|e| self.nodes[e.from].file != self.nodes[e.to].file)
            .map(|e| self.nodes[e.to].file)
            .collect();
        let own_nodes: Vec<usize> = (0..self.nodes.len())
            .filter(|&n| {
                let node = self.nodes[n];
                node.file == node.unit && self.files[node.file].is_unit
            })
            .collect();
        let mut roots: Vec<usize> = own_nodes
            .iter()
            .copied()
            .filter(|&n| !included.contains(&self.nodes[n].file))
            .collect();
        let live = self.reach(&roots);
        let mut reached = vec![false; self.files.len()];
        for (n, node) in self.nodes.iter().enumerate() {
            reached[node.file] |= live[n];
        }
        roots.extend(own_nodes.iter().filter(|&&n| !reached[self.nodes[n].file]));
        roots
    }

    /// The directory findings about the whole tree are reported on: the first unit's.
    pub(crate) fn root_display(&self) -> String {
        let dir = self
            .files
            .first()
            .map_or(Path::new("/"), |f| dir_of(&f.path));
        crate::source::display_path(&self.displayer.path(dir))
    }

    /// Files evaluated for at least one unit, in load order.
    pub(crate) fn live_file_indexes(&self) -> impl Iterator<Item = usize> + '_ {
        let mut seen = vec![false; self.files.len()];
        for (n, node) in self.nodes.iter().enumerate() {
            if self.live[n] {
                seen[node.file] = true;
            }
        }
        (0..self.files.len()).filter(move |&f| seen[f])
    }

    /// The files evaluated as units: live `terragrunt.hcl` files evaluated for themselves, not
    /// only as a parent other units include.
    pub(crate) fn units(&self) -> impl Iterator<Item = usize> + '_ {
        let mut unit = vec![false; self.files.len()];
        for &n in &self.roots {
            unit[self.nodes[n].file] = true;
        }
        (0..self.files.len()).filter(move |&f| unit[f])
    }

    /// The nodes of the units, each evaluated for itself (see [`Tree::units`]).
    pub(crate) fn unit_nodes(&self) -> &[usize] {
        &self.roots
    }

    /// Live files that parsed.
    pub(crate) fn live_files(&self) -> impl Iterator<Item = (&TgFile, &File)> + '_ {
        self.live_file_indexes()
            .filter_map(|f| Some((&self.files[f], self.files[f].parsed.as_ref()?)))
    }

    pub(crate) fn live_edges(&self) -> impl Iterator<Item = (usize, &Edge)> + '_ {
        self.edges
            .iter()
            .enumerate()
            .filter(|(_, e)| self.live[e.from])
    }

    pub(crate) fn live_failures(&self) -> impl Iterator<Item = &Failure> + '_ {
        self.failures.iter().filter(|f| self.live[f.node])
    }

    /// Live failures that `keep` selects, grouped by the reference they are about (a file
    /// included by many units fails once per unit), each group sorted by unit.
    pub(crate) fn grouped_failures(&self, keep: impl Fn(&Outcome) -> bool) -> Vec<Vec<&Failure>> {
        let mut groups: BTreeMap<(usize, usize), Vec<&Failure>> = BTreeMap::new();
        for failure in self.live_failures().filter(|f| keep(&f.outcome)) {
            let file = self.nodes[failure.node].file;
            groups
                .entry((file, failure.reference))
                .or_default()
                .push(failure);
        }
        groups
            .into_values()
            .map(|mut group| {
                group.sort_by_cached_key(|f| {
                    let node = self.nodes[f.node];
                    (node.file != node.unit, self.show_file(node.unit))
                });
                group
            })
            .collect()
    }

    /// The reference a node's reference number names.
    pub(crate) fn reference(&self, node: usize, reference: usize) -> &Reference {
        &self.files[self.nodes[node].file].extracted.references[reference]
    }

    /// How a path is shown to users.
    pub(crate) fn show(&self, path: &Path) -> String {
        self.displayer.show(path)
    }

    pub(crate) fn show_file(&self, file: usize) -> String {
        self.show(&self.files[file].path)
    }

    /// For findings in a file included by units: which unit it was evaluated for, and how many
    /// others share the finding. `None` when every node evaluates the file for itself.
    pub(crate) fn evaluated_for(&self, nodes: &[usize]) -> Option<String> {
        let mut units: Vec<String> = nodes
            .iter()
            .map(|&n| self.nodes[n])
            .filter(|node| node.file != node.unit)
            .map(|node| self.show_file(node.unit))
            .collect();
        units.sort();
        units.dedup();
        let first = units.first()?;
        Some(match units.len() {
            1 => format!(
                "Evaluated for `{first}`, which includes this file: Terragrunt resolves an included file's paths from the including unit's directory."
            ),
            n => format!(
                "Evaluated for `{first}` (and {} other unit{}), which include this file: Terragrunt resolves an included file's paths from the including unit's directory.",
                n - 1,
                if n == 2 { "" } else { "s" }
            ),
        })
    }

    /// The cycles among references that make Terragrunt parse their target (include, import,
    /// `read_terragrunt_config`), each as edge indexes starting at the reference in the
    /// first file by shown path. A cycle found for several units is reported once.
    pub(crate) fn parse_cycles(&self) -> Vec<Vec<usize>> {
        let mut g = Digraph::new(self.nodes.len());
        for (i, edge) in self.live_edges() {
            if edge.kind.parses_target() {
                g.add(edge.from, edge.to, i);
            }
        }
        self.cycles(&g)
    }

    /// The cycles among units' dependencies (a dependency set in an included file belongs to
    /// the including unit).
    pub(crate) fn dependency_cycles(&self) -> Vec<Vec<usize>> {
        let unit_node = |n: usize| {
            let unit = self.nodes[n].unit;
            self.find_node(Node { file: unit, unit })
        };
        let mut g = Digraph::new(self.nodes.len());
        for (i, edge) in self.live_edges() {
            if edge.kind == RefKind::Dependency
                && let Some(from) = unit_node(edge.from)
            {
                g.add(from, edge.to, i);
            }
        }
        self.cycles(&g)
    }

    fn find_node(&self, node: Node) -> Option<usize> {
        self.node_index.get(&node).copied()
    }

    fn cycles(&self, g: &Digraph) -> Vec<Vec<usize>> {
        let mut seen: BTreeSet<Vec<(usize, usize)>> = BTreeSet::new();
        let mut out = Vec::new();
        for component in g.cyclic_components() {
            // Start from the node whose file is shown first, for stable output.
            let Some(&start) = component
                .iter()
                .min_by_key(|&&n| (self.show_file(self.nodes[n].file), n))
            else {
                continue;
            };
            let Some(cycle) = g.cycle_through(start, &component) else {
                continue;
            };
            let mut key: Vec<(usize, usize)> = cycle
                .iter()
                .map(|&e| (self.nodes[self.edges[e].from].file, self.edges[e].reference))
                .collect();
            key.sort_unstable();
            if seen.insert(key) {
                out.push(cycle);
            }
        }
        out
    }
}

struct Builder {
    tree: Tree,
    by_path: HashMap<PathBuf, usize>,
    to_parse: Vec<usize>,
    to_resolve: Vec<usize>,
}

impl Builder {
    /// The index of the file at `path`, queued for parsing when new.
    fn file(&mut self, path: PathBuf) -> usize {
        if let Some(&index) = self.by_path.get(&path) {
            return index;
        }
        let index = self.tree.files.len();
        self.by_path.insert(path.clone(), index);
        self.tree.files.push(TgFile {
            path,
            id: FileId(0),
            parsed: None,
            extracted: Extracted::default(),
            problems: Vec::new(),
            is_unit: false,
            bytes: 0,
        });
        self.to_parse.push(index);
        index
    }

    /// The index of a node, queued for resolving when new.
    fn node(&mut self, node: Node) -> usize {
        if let Some(&index) = self.tree.node_index.get(&node) {
            return index;
        }
        let index = self.tree.nodes.len();
        self.tree.nodes.push(node);
        self.tree.node_index.insert(node, index);
        self.to_resolve.push(index);
        index
    }

    fn parse_wave(&mut self, max_bytes: u64, overlay: &Overlay) {
        let batch = std::mem::take(&mut self.to_parse);
        if batch.is_empty() {
            return;
        }
        // Ids follow batch order: `record` gives each file the next.
        let base = self.tree.sources.len();
        let reads: Vec<(PathBuf, (Read, Extracted))> = batch
            .par_iter()
            .enumerate()
            .map(|(i, &f)| {
                let id = FileId((base + i) as u32);
                let path = &self.tree.files[f].path;
                let shown = self.tree.displayer.path(path);
                (shown, load_file(path, id, max_bytes, overlay))
            })
            .collect();
        for (&f, (shown, (read, extracted))) in batch.iter().zip(reads) {
            let (id, loaded) = record(&mut self.tree.sources, shown, read);
            self.tree.files[f].fill(id, loaded, extracted);
        }
    }

    fn resolve_wave(&mut self) {
        let batch = std::mem::take(&mut self.to_resolve);
        let tree = &self.tree;
        let resolved: Vec<Vec<Outcome>> = (batch.par_iter())
            .map_init(Probe::default, |probe, &n| resolve_node(tree, n, probe))
            .collect();
        for (&n, outcomes) in batch.iter().zip(resolved) {
            let node = self.tree.nodes[n];
            for (reference, outcome) in outcomes.into_iter().enumerate() {
                let kind = self.tree.files[node.file].extracted.references[reference].kind;
                match outcome {
                    Outcome::Found(path) => {
                        let file = self.file(path);
                        let unit = if kind == RefKind::Include {
                            node.unit
                        } else {
                            file
                        };
                        if kind == RefKind::Dependency {
                            self.tree.files[file].is_unit = true;
                        }
                        let to = self.node(Node { file, unit });
                        if kind == RefKind::Include {
                            let strategy = merge_strategy(&self.tree, node.file, reference);
                            self.tree.merge_strategies.entry(to).or_insert(strategy);
                        }
                        self.tree.edges.push(Edge {
                            from: n,
                            reference,
                            to,
                            kind,
                        });
                    }
                    Outcome::Absent | Outcome::Replaced | Outcome::Deferred => {}
                    outcome => self.tree.failures.push(Failure {
                        node: n,
                        reference,
                        outcome,
                    }),
                }
            }
        }
    }
}

impl TgFile {
    /// What reading the file as `id` gave, and its references.
    fn fill(&mut self, id: FileId, loaded: LoadedSource, extracted: Extracted) {
        self.id = id;
        self.bytes = loaded.bytes;
        self.parsed = loaded.parsed;
        self.problems = loaded.problems;
        self.extracted = extracted;
    }
}

/// Reads and parses the file at `path` (absolute and clean) as file `id`, and extracts its
/// references.
fn load_file(path: &Path, id: FileId, max_bytes: u64, overlay: &Overlay) -> (Read, Extracted) {
    let read = read_and_parse(path, id, terragrunt_syntax(path), max_bytes, overlay);
    let extracted = match &read {
        Read::Parsed {
            text,
            parsed: Parsed { file: Ok(file), .. },
        } => refs::extract(file, text),
        _ => Extracted::default(),
    };
    (read, extracted)
}

/// Records the source of the file shown as `shown` in `sources`, as the next id: every file
/// has one, even one that could not be read.
fn record(sources: &mut SourceFiles, shown: PathBuf, read: Read) -> (FileId, LoadedSource) {
    let loaded = read.into_file(shown.clone(), sources, Reader::Terragrunt);
    let id = (loaded.id).unwrap_or_else(|| sources.add(SourceFile::new(shown, String::new())));
    (id, loaded)
}

/// Resolves every reference of one node, in reference order.
fn resolve_node(tree: &Tree, n: usize, probe: &Probe) -> Vec<Outcome> {
    let node = tree.nodes[n];
    let file = &tree.files[node.file];
    let references = &file.extracted.references;
    if references.is_empty() {
        return Vec::new();
    }
    if is_stack_template(&tree.files[node.unit].path, probe) {
        return vec![Outcome::Deferred; references.len()];
    }
    let text = &tree.sources.get(file.id).text;
    let mut env = Env {
        config_dir: dir_of(&tree.files[node.unit].path),
        file_dir: dir_of(&file.path),
        included: node.file != node.unit,
        includes: &[],
        text,
        probe,
    };
    // Includes first: `get_parent_terragrunt_dir()` elsewhere in the file names their targets.
    let mut outcomes: BTreeMap<usize, Outcome> = BTreeMap::new();
    let mut includes = Vec::new();
    for (i, reference) in references.iter().enumerate() {
        if reference.kind == RefKind::Include {
            let outcome =
                resolve::resolve(reference.kind, reference.optional, &reference.path, &env);
            if let Outcome::Found(path) = &outcome {
                includes.push((reference.name.clone(), path.clone()));
            }
            outcomes.insert(i, outcome);
        }
    }
    env.includes = &includes;
    // An included file's dependencies are judged after the include is merged into the unit.
    let merged_into = (node.file != node.unit)
        .then(|| tree.files[node.unit].parsed.as_ref())
        .flatten()
        .map(|unit| (unit, tree.merge_strategies.get(&n).copied()));
    references
        .iter()
        .enumerate()
        .map(|(i, reference)| {
            if let Some((unit, strategy)) = merged_into
                && reference.kind == RefKind::Dependency
                && replaced_by_unit(unit, strategy.unwrap_or(MergeStrategy::Shallow), reference)
            {
                return Outcome::Replaced;
            }
            outcomes.remove(&i).unwrap_or_else(|| {
                resolve::resolve(reference.kind, reference.optional, &reference.path, &env)
            })
        })
        .collect()
}

/// Whether a unit is a Terragrunt Stacks template rather than a unit run where it stands: it is
/// in a catalog (`catalog/units/<name>/terragrunt.hcl`), or below a directory holding
/// `terragrunt.stack.hcl`, but not a copy `terragrunt stack generate` wrote into a
/// `.terragrunt-stack` directory. A template's relative paths, and the values it reads from its
/// stack, exist only in the generated copy, which is judged where it stands.
fn is_stack_template(unit: &Path, probe: &Probe) -> bool {
    let dir = dir_of(unit);
    if dir
        .ancestors()
        .any(|d| d.file_name().is_some_and(|n| n == TERRAGRUNT_STACK_DIR))
    {
        return false;
    }
    let in_catalog = dir.ancestors().any(|d| {
        d.file_name().is_some_and(|n| n == "units")
            && d.parent()
                .and_then(Path::file_name)
                .is_some_and(|n| n == "catalog")
    });
    in_catalog
        || dir
            .ancestors()
            .skip(1)
            .any(|d| probe.is_file(&d.join(TERRAGRUNT_STACK)))
}

/// How a missing target is described: (label at the path, note).
pub(crate) fn describe_missing(
    tree: &Tree,
    kind: RefKind,
    path: &Path,
    why: Missing,
) -> (String, String) {
    let shown = tree.show(path);
    match why {
        Missing::NoSuchPath => (
            format!("resolves to `{shown}`, which does not exist"),
            format!(
                "Terragrunt fails on this {}: there is no {} at `{shown}`.",
                kind.written(),
                if matches!(kind, RefKind::Dependency | RefKind::StackSource) {
                    "unit directory"
                } else {
                    "file"
                }
            ),
        ),
        Missing::IsDirectory => (
            format!("resolves to the directory `{shown}`"),
            format!(
                "An {} names a configuration file, not a directory: Terragrunt fails to parse `{shown}`.",
                kind.written()
            ),
        ),
        Missing::NoConfigInDirectory => (
            format!("resolves to `{shown}`, which holds no `{UNIT_FILE}`"),
            format!(
                "Terragrunt looks for `{shown}/{UNIT_FILE}` and fails: the directory is not a Terragrunt unit."
            ),
        ),
    }
}
