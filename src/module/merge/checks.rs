//! Checks the tools make on the merged objects: the defaults of variables no override touched
//! (see `variables` for the others), and module versions against their source.

use super::model::{Address, MergedObject, Origin};
use super::problems::{MergeProblem, VersionWithoutRegistry};
use super::{Merger, variables};
use crate::knowledge::module_source::SourceKind;

impl Merger<'_> {
    pub(super) fn check_merged_objects(&mut self) {
        let mut found = Vec::new();
        for object in &self.module.objects {
            if let Address::ModuleCall(_) = &object.address {
                found.extend(self.check_module_version(object));
            }
        }
        self.problems.extend(found);
        // A variable no override touched is only decoded (overridden ones were decoded at
        // their first override).
        for index in 0..self.module.objects.len() {
            if variables::needs_decoding(&self.module.objects[index]) {
                self.check_base_variable(index);
            }
        }
    }

    /// Whether a module `version` is a value known without evaluating, and not null: a literal
    /// string, or a local value that is one. Null means "no version" (OpenTofu ≥ 1.10,
    /// Terraform ≥ 1.15.5; `module_version_without_registry_source` judges it against the
    /// targeted versions), and a variable may be null, so neither is judged here.
    fn is_known_version(&self, expr: &crate::syntax::Expr) -> bool {
        use crate::syntax::{ExprKind, TraversalStep};
        if expr.json_string().is_some_and(|s| s.contains("${")) {
            return false; // a JSON template: its value is only known when evaluating
        }
        match &expr.kind {
            _ if expr.literal_string().is_some() => true,
            ExprKind::Traversal { root, steps } => match (&root.kind, steps.as_slice()) {
                (ExprKind::Variable(root), [TraversalStep::Attr(name)]) if root == "local" => self
                    .module
                    .local(name)
                    .is_some_and(|l| l.attribute.expr.literal_string().is_some()),
                _ => false,
            },
            _ => false,
        }
    }

    /// `version` needs a registry source (hashicorp/terraform `internal/configs/module_call.go`
    /// parses `source` as a registry address when there is one); an override adding one to a
    /// call with a local source breaks loading.
    fn check_module_version(&self, object: &MergedObject) -> Option<MergeProblem> {
        let version = object.body.attribute("version")?;
        if !self.is_known_version(&version.expr) {
            return None;
        }
        let source = object.body.attribute("source")?;
        let path = source.expr.literal_string()?;
        let kind = crate::knowledge::module_source::classify(path);
        if !matches!(kind, SourceKind::Local | SourceKind::Remote) {
            return None;
        }
        Some(MergeProblem::VersionWithoutRegistrySource(
            VersionWithoutRegistry {
                local: kind == SourceKind::Local,
                source: source.span(),
                source_value: source.expr.span,
                version: version.span(),
                version_from_override: version.origin == Origin::Override,
                name: match &object.address {
                    crate::module::merge::model::Address::ModuleCall(name) => name.clone(),
                    other => other.describe(),
                },
                call: object.base_header,
            },
        ))
    }
}
