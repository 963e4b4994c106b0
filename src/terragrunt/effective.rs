//! A unit's effective configuration: the unit merged with what it includes and what it imports
//! with `merge = true` or `deep_merge = true`, as Terragrunt merges them (the child's settings
//! win; `inputs` are merged key by key, `ShallowMerge`/`DeepMerge` in gruntwork-io/terragrunt
//! `pkg/config/include.go`; imports merge top to bottom, as the imports design has it). Only what
//! is written is known: an `inputs` that is not an object literal (a local, `merge()` of
//! something other than objects) leaves the keys it sets unknown, and the configuration says
//! so rather than guess.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::syntax::{Expr, ExprKind};
use crate::types::object_key;

use super::imports::ImportMerge;
use super::paths::{clean, dir_of};
use super::probe::Probe;
use super::refs::RefKind;
use super::resolve::{Env, eval};
use super::{MergeStrategy, Tree};

/// How one file's settings reach the unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Contribution {
    /// The unit's own file.
    Unit,
    /// A file the unit includes, with its `merge_strategy`.
    Include(MergeStrategy),
    /// A file merged in by an import (of the unit, or of a file it merges in).
    Import(ImportMerge),
}

/// One file merged into a unit, from the lowest precedence to the highest.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Layer {
    pub(crate) node: usize,
    pub(crate) how: Contribution,
}

/// One input of the effective configuration: its value and the node of the file that set it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Input<'t> {
    pub(crate) value: &'t Expr,
    /// The key as written.
    pub(crate) key: &'t Expr,
    pub(crate) node: usize,
}

/// A unit's effective configuration, as far as it is written.
#[derive(Debug)]
pub(crate) struct Effective<'t> {
    /// The unit's node.
    pub(crate) unit: usize,
    /// The files merged, lowest precedence first, the unit last.
    pub(crate) layers: Vec<Layer>,
    /// The inputs by name, each from the file of highest precedence that sets it.
    pub(crate) inputs: BTreeMap<String, Input<'t>>,
    /// False when some `inputs` is not an object literal (or `merge()` of them), so that
    /// keys may be set that are not in [`Self::inputs`].
    pub(crate) inputs_complete: bool,
    /// `terraform { source = ... }` of the file of highest precedence that sets it, with its node.
    pub(crate) source: Option<(&'t Expr, usize)>,
}

impl Tree {
    /// The files merged into unit node `unit`, lowest precedence first: its includes in order
    /// (each include's file, unless `no_merge`), then the files its imports merge in (each
    /// import's own merged imports before it, in order), then the unit itself.
    pub(crate) fn layers(&self, unit: usize) -> (Vec<Layer>, bool) {
        let mut layers = Vec::new();
        let mut complete = true;
        let file = &self.files[self.nodes[unit].file];
        for (reference, r) in file.extracted.references.iter().enumerate() {
            if r.kind != RefKind::Include {
                continue;
            }
            let target = (self.edges_from[unit].iter())
                .map(|&e| self.edges[e])
                .find(|e| e.reference == reference && e.kind == RefKind::Include);
            match target {
                Some(edge) => {
                    let strategy = self.merge_strategies.get(&edge.to).copied();
                    let strategy = strategy.unwrap_or(MergeStrategy::Shallow);
                    if strategy != MergeStrategy::NoMerge {
                        layers.push(Layer {
                            node: edge.to,
                            how: Contribution::Include(strategy),
                        });
                    }
                }
                None => complete = false,
            }
        }
        let mut visiting = vec![unit];
        complete &= self.import_layers(unit, &mut visiting, &mut layers);
        layers.push(Layer {
            node: unit,
            how: Contribution::Unit,
        });
        complete &= (layers.iter()).all(|l| self.files[self.nodes[l.node].file].parsed.is_some());
        (layers, complete)
    }

    /// Pushes the layers node `node`'s merged imports bring, in order, each preceded by its own;
    /// false when one could not be followed. `visiting` stops a cycle of imports (which
    /// `terragrunt_import_cycle` reports).
    fn import_layers(&self, node: usize, visiting: &mut Vec<usize>, out: &mut Vec<Layer>) -> bool {
        let mut complete = true;
        let file = &self.files[self.nodes[node].file];
        for (reference, r) in file.extracted.references.iter().enumerate() {
            if r.kind != RefKind::Import {
                continue;
            }
            let merge = self.import_merge_of(node, reference);
            if merge == ImportMerge::NoMerge {
                continue;
            }
            let Some(to) = self.import_target(node, reference) else {
                complete = false;
                continue;
            };
            if visiting.contains(&to) {
                complete = false;
                continue;
            }
            visiting.push(to);
            complete &= self.import_layers(to, visiting, out);
            visiting.pop();
            out.push(Layer {
                node: to,
                how: Contribution::Import(merge),
            });
        }
        complete
    }

    /// The effective configuration of unit node `unit`.
    pub(crate) fn effective(&self, unit: usize) -> Effective<'_> {
        let (layers, layers_complete) = self.layers(unit);
        let mut inputs = BTreeMap::new();
        let mut inputs_complete = layers_complete;
        let mut source = None;
        for layer in &layers {
            let Some(file) = self.files[self.nodes[layer.node].file].parsed.as_ref() else {
                continue;
            };
            if let Some(attribute) = file.body.attribute("inputs") {
                inputs_complete &= collect_inputs(&attribute.expr, layer.node, &mut inputs);
            }
            for block in file.body.blocks_of("terraform") {
                if let Some(attribute) = block.body.attribute("source") {
                    source = Some((&attribute.expr, layer.node));
                }
            }
        }
        Effective {
            unit,
            layers,
            inputs,
            inputs_complete,
            source,
        }
    }

    /// `terraform { source = ... }` of unit node `unit`, from the file of highest precedence
    /// that sets it, with that file's node: [`Effective::source`] without the inputs.
    pub(crate) fn source_of(&self, unit: usize) -> Option<(&Expr, usize)> {
        let (layers, _) = self.layers(unit);
        let mut source = None;
        for layer in &layers {
            let Some(file) = self.files[self.nodes[layer.node].file].parsed.as_ref() else {
                continue;
            };
            for block in file.body.blocks_of("terraform") {
                if let Some(attribute) = block.body.attribute("source") {
                    source = Some((&attribute.expr, layer.node));
                }
            }
        }
        source
    }

    /// The directory of the module a unit deploys, when its `terraform { source }` is a local
    /// path (`../modules/vpc`, `${get_repo_root()}/modules//vpc`) that resolves statically.
    pub(crate) fn local_source_dir(&self, unit: usize, probe: &Probe) -> Option<PathBuf> {
        let (expr, node) = self.source_of(unit)?;
        let written = &self.files[self.nodes[node].file];
        let unit = &self.files[self.nodes[unit].file];
        let env = Env {
            config_dir: dir_of(&unit.path),
            file_dir: dir_of(&written.path),
            included: written.path != unit.path,
            includes: &[],
            text: &self.sources.get(written.id).text,
            probe,
        };
        let text = eval(expr, &env).ok()?;
        local_module_dir(&text, env.config_dir)
    }
}

/// The module directory a local `source` names, from the unit's directory: the `//` that marks
/// a subdirectory of the package is a plain separator here, and a `?ref=` query is dropped.
/// `None` for sources go-getter fetches (`git::`, `tfr://`, `github.com/...`).
pub(crate) fn local_module_dir(source: &str, unit_dir: &Path) -> Option<PathBuf> {
    if !(source.starts_with("./") || source.starts_with("../") || source.starts_with('/')) {
        return None;
    }
    let path = source.split('?').next().unwrap_or(source);
    let joined = match path.split_once("//") {
        Some((package, sub)) => format!("{package}/{sub}"),
        None => path.to_string(),
    };
    let written = Path::new(&joined);
    Some(if written.is_absolute() {
        clean(written)
    } else {
        clean(&unit_dir.join(written))
    })
}

/// Adds the keys of an `inputs` expression of node `node`, over those set before; false when it
/// sets keys that are not all known.
fn collect_inputs<'t>(expr: &'t Expr, node: usize, out: &mut BTreeMap<String, Input<'t>>) -> bool {
    match &expr.kind {
        ExprKind::Object(items) => {
            let mut complete = true;
            for item in items {
                match object_key(&item.key) {
                    Some(name) => {
                        out.insert(
                            name,
                            Input {
                                value: &item.value,
                                key: &item.key,
                                node,
                            },
                        );
                    }
                    None => complete = false,
                }
            }
            complete
        }
        ExprKind::Parenthesis(inner) => collect_inputs(inner, node, out),
        ExprKind::FunctionCall { name, args, .. } if &**name == "merge" => {
            let mut complete = true;
            for arg in args {
                complete &= collect_inputs(arg, node, out);
            }
            complete
        }
        _ => false,
    }
}
