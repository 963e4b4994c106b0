//! How a module names a provider configuration: `providers` maps, a resource's `provider`,
//! `configuration_aliases`.

use crate::syntax::{Expr, ExprKind, TraversalStep};

/// The provider configuration an expression names, `NAME` or `NAME.ALIAS`, written as a
/// reference or as a string (in JSON, or quoted in the native syntax, which the tools still
/// read: `internal/configs/compat_shim.go`).
pub(crate) fn provider_reference(expr: &Expr) -> Option<(&str, Option<&str>)> {
    match &expr.kind {
        ExprKind::Variable(name) => Some((name, None)),
        ExprKind::Traversal { root, steps } => match (&root.kind, steps.as_slice()) {
            (ExprKind::Variable(name), [TraversalStep::Attr(alias)]) => Some((name, Some(alias))),
            _ => None,
        },
        _ => {
            let text = expr.literal_string()?;
            match text.split_once('.') {
                Some((name, alias)) if !alias.contains('.') => Some((name, Some(alias))),
                Some(_) => None,
                None => Some((text, None)),
            }
        }
    }
}
