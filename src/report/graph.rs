//! `tflint-merge graph`: the resolved include/import/read/dependency graph, file by file, as
//! Graphviz DOT or JSON.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::sync::Arc;

use crate::diagnostic::escape;
use crate::terragrunt::Tree;
use crate::terragrunt::UNIT_FILE;
use crate::terragrunt::refs::RefKind;
use crate::terragrunt::resolve::{Missing, Outcome, Stop};

/// One resolved reference between two files (deduplicated over the units it was evaluated for).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FileEdge {
    /// The file's path as shown, shared by every edge from or to the file.
    pub(crate) from: Arc<str>,
    pub(crate) line: usize,
    pub(crate) kind: &'static str,
    pub(crate) name: Option<String>,
    pub(crate) to: Arc<str>,
    /// For a file included by units: the units it was resolved for (its paths start there).
    pub(crate) for_units: BTreeSet<Arc<str>>,
    /// For an import: how it merges the imported file in (`no merge`, `merge = true`,
    /// `deep_merge = true`).
    pub(crate) merge: Option<&'static str>,
    /// A dependency on a cycle among units that only exists once merged imports are merged in.
    pub(crate) merge_only_cycle: bool,
}

/// A reference that leads nowhere or could not be followed.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Unresolved {
    pub(crate) from: String,
    pub(crate) line: usize,
    pub(crate) kind: &'static str,
    pub(crate) name: Option<String>,
    /// `missing`, `not_in_parent_folders` or `unresolvable`.
    pub(crate) status: &'static str,
    /// The path it resolved to (missing) or the file name searched for.
    pub(crate) target: Option<String>,
    pub(crate) expression: String,
}

/// The file-level view of a tree.
#[derive(Debug, Default)]
pub(crate) struct FileGraph {
    /// (shown path, is a unit).
    pub(crate) files: Vec<(String, bool)>,
    pub(crate) edges: Vec<FileEdge>,
    pub(crate) unresolved: Vec<Unresolved>,
}

pub(crate) fn file_graph(tree: &Tree) -> FileGraph {
    let line = |file: usize, offset: u32| {
        tree.sources
            .get(tree.files[file].id)
            .line_col(offset as usize)
            .0
    };
    let units: BTreeSet<usize> = tree.units().collect();
    let mut files: Vec<(String, bool)> = tree
        .live_file_indexes()
        .map(|f| (tree.show_file(f), units.contains(&f)))
        .collect();
    files.sort();
    let on_merge_only_cycle: BTreeSet<usize> = (tree.merged_dependency_cycles().into_iter())
        .flatten()
        .map(|step| step.edge)
        .collect();
    // Each file's path as shown, made once: a tree of densely inter-dependent units has far
    // more edges than files.
    let mut shown: Vec<Option<Arc<str>>> = vec![None; tree.files.len()];
    let mut show = |file: usize| -> Arc<str> {
        Arc::clone(shown[file].get_or_insert_with(|| Arc::from(tree.show_file(file))))
    };
    // An edge by its files (indexes) and line, in order once the paths are compared.
    let mut edges: HashMap<(usize, usize, usize), FileEdge> = HashMap::new();
    for (index, edge) in tree.live_edges() {
        let node = tree.nodes[edge.from];
        let reference = tree.reference(edge.from, edge.reference);
        let line = line(node.file, reference.path.span.start);
        let to_file = tree.nodes[edge.to].file;
        let entry = edges
            .entry((node.file, line, to_file))
            .or_insert_with(|| FileEdge {
                from: show(node.file),
                line,
                kind: reference.kind.written(),
                name: reference.name.clone(),
                to: show(to_file),
                for_units: BTreeSet::new(),
                merge: (reference.kind == RefKind::Import)
                    .then(|| tree.import_merge_of(edge.from, edge.reference).written()),
                merge_only_cycle: false,
            });
        entry.merge_only_cycle |= on_merge_only_cycle.contains(&index);
        if node.file != node.unit {
            entry.for_units.insert(show(node.unit));
        }
    }
    let mut edges: Vec<FileEdge> = edges.into_values().collect();
    edges.sort_unstable_by(|a, b| (&a.from, a.line, &a.to).cmp(&(&b.from, b.line, &b.to)));
    let mut unresolved = BTreeSet::new();
    for failure in tree.live_failures() {
        let file = tree.nodes[failure.node].file;
        let reference = tree.reference(failure.node, failure.reference);
        let (status, target) = match &failure.outcome {
            Outcome::Missing { path, why } => {
                let shown = tree.show(path);
                let shown = match why {
                    Missing::NoConfigInDirectory => format!("{shown}/{}", UNIT_FILE),
                    _ => shown,
                };
                ("missing", Some(shown))
            }
            Outcome::Stopped(Stop::NotInParents { name, .. }) => {
                ("not_in_parent_folders", Some(name.clone()))
            }
            Outcome::Stopped(Stop::Unresolvable { .. }) => ("unresolvable", None),
            Outcome::Found(_) | Outcome::Absent | Outcome::Replaced | Outcome::Deferred => continue,
        };
        unresolved.insert(Unresolved {
            from: tree.show_file(file),
            line: line(file, reference.path.span.start),
            kind: reference.kind.written(),
            name: reference.name.clone(),
            status,
            target,
            expression: tree.sources.text(reference.path.span).to_string(),
        });
    }
    FileGraph {
        files,
        edges,
        unresolved: unresolved.into_iter().collect(),
    }
}

/// An edge in JSON: `merge` only on imports, `merge_only_cycle` only where it is true.
fn edge_json(e: &FileEdge) -> serde_json::Value {
    let mut value = serde_json::json!({
        "from": &*e.from,
        "line": e.line,
        "kind": e.kind,
        "name": e.name,
        "to": &*e.to,
        "for_units": e.for_units.iter().map(|unit| &**unit).collect::<Vec<&str>>(),
    });
    if let Some(object) = value.as_object_mut() {
        if let Some(merge) = e.merge {
            object.insert("merge".into(), merge.into());
        }
        if e.merge_only_cycle {
            object.insert("merge_only_cycle".into(), true.into());
        }
    }
    value
}

pub(crate) fn json(graph: &FileGraph) -> String {
    let document = serde_json::json!({
        "version": 1,
        "files": graph.files.iter().map(|(path, unit)| serde_json::json!({
            "path": path,
            "unit": unit,
        })).collect::<Vec<_>>(),
        "edges": [],
        "unresolved": graph.unresolved.iter().map(|u| serde_json::json!({
            "from": u.from,
            "line": u.line,
            "kind": u.kind,
            "name": u.name,
            "status": u.status,
            "target": u.target,
            "expression": u.expression,
        })).collect::<Vec<_>>(),
    });
    // The edges (a dense tree has hundreds of thousands) written one by one, never all held
    // as JSON values at once.
    let mut text = Vec::new();
    let edges = graph.edges.iter().map(edge_json);
    if super::write_pretty_json(&mut text, &document, "edges", edges).is_err() {
        return String::new();
    }
    String::from_utf8(text).unwrap_or_default()
}

/// A DOT string: file names and expressions escaped as the text formats escape them, then
/// quoted.
fn quote(text: &str) -> String {
    let text = escape::text(text);
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

pub(crate) fn dot(graph: &FileGraph) -> String {
    let mut out = String::from(
        "digraph terragrunt {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\"];\n",
    );
    for (path, unit) in &graph.files {
        let style = if *unit { " [style=bold]" } else { "" };
        let _ = writeln!(out, "  {}{style};", quote(path));
    }
    for e in &graph.edges {
        let mut label = match &e.name {
            Some(name) => format!("{} \"{name}\"", e.kind),
            None => e.kind.to_string(),
        };
        if let Some(merge) = e.merge {
            let _ = write!(label, " ({merge})");
        }
        // A cycle that only merging creates is in orange, apart from the red of what is broken.
        let cycle = if e.merge_only_cycle {
            label.push_str(" [cycle once merged]");
            ", color=orange, penwidth=2"
        } else {
            ""
        };
        let style = match e.kind {
            "include" => "solid",
            "import" => "bold",
            "read_terragrunt_config" => "dashed",
            "unit source" => "tapered",
            _ => "dotted",
        };
        let _ = writeln!(
            out,
            "  {} -> {} [label={}, style={style}{cycle}];",
            quote(&e.from),
            quote(&e.to),
            quote(&label)
        );
    }
    for (i, u) in graph.unresolved.iter().enumerate() {
        let target = match (u.status, &u.target) {
            ("missing", Some(t)) => format!("{t} (missing)"),
            ("not_in_parent_folders", Some(t)) => format!("{t} (not in any parent folder)"),
            _ => format!("{} (unresolvable)", u.expression),
        };
        let id = format!("unresolved{i}");
        let _ = writeln!(
            out,
            "  {id} [label={}, color=red, fontcolor=red, style=dashed];\n  {} -> {id} [label={}, color=red, style=dashed];",
            quote(&target),
            quote(&u.from),
            quote(u.kind)
        );
    }
    out.push_str("}\n");
    out
}
