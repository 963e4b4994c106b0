//! Module calls whose `version` is null (hashicorp/terraform#38632 in Terraform's 1.15.5
//! changelog, opentofu/opentofu#2660 in OpenTofu's 1.10.0): Terraform 1.15.5 and later and OpenTofu 1.10 and later take it
//! as "no version"; earlier releases take it as a `version` argument all the same, which only a
//! registry source may have, and refuse a local or remote source. Judged at patch granularity
//! against the targeted versions: `module_version_without_registry_source` when every targeted
//! version refuses it, else `feature_newer_than_target` when some do.

use crate::knowledge::View;
use crate::knowledge::module_source::{self, SourceKind};
use crate::knowledge::version::Version;
use crate::module::merge::{Address, MergedAttribute, Module};
use crate::syntax::{Expr, ExprKind, TraversalStep};

use crate::lint::Context;

/// The first release of `view`'s tool that takes a null module `version` as "no version".
pub(crate) fn first_accepting(view: View) -> Version {
    match view {
        View::Terraform => Version::new(1, 15, 5),
        View::OpenTofu => Version::new(1, 10, 0),
    }
}

/// A module call with a local or remote source and a `version` that is null.
pub(crate) struct NullVersion<'a> {
    pub(crate) version: &'a MergedAttribute,
    pub(crate) source: &'a MergedAttribute,
    pub(crate) kind: SourceKind,
}

/// The module calls of the view's module whose `version` is null, with a source that is not a
/// registry address (a registry source takes a null `version` as "any version" everywhere).
pub(crate) fn null_versions<'a>(ctx: &'a Context) -> Vec<NullVersion<'a>> {
    let module = ctx.module;
    module
        .objects
        .iter()
        .filter(|object| matches!(object.address, Address::ModuleCall(_)))
        .filter_map(|object| {
            let version = object.body.attribute("version")?;
            if !is_null(module, &version.expr) {
                return None;
            }
            let source = object.body.attribute("source")?;
            let kind = module_source::classify(source.expr.literal_string()?);
            matches!(kind, SourceKind::Local | SourceKind::Remote).then_some(NullVersion {
                version,
                source,
                kind,
            })
        })
        .collect()
}

/// Whether an expression is null without evaluating: `null`, or a local value that is `null`.
/// (A variable may be null too, but only its caller knows.)
fn is_null(module: &Module, expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Null => true,
        ExprKind::Traversal { root, steps } => match (&root.kind, steps.as_slice()) {
            (ExprKind::Variable(root), [TraversalStep::Attr(name)]) if root == "local" => module
                .local(name)
                .is_some_and(|local| local.attribute.expr.is_null()),
            _ => false,
        },
        _ => false,
    }
}
