//! How a module names a provider configuration: `providers` maps, a resource's `provider`,
//! `configuration_aliases`.

use crate::lint::Context;
use crate::lint::helpers::syntax_of;
use crate::source::{Span, Syntax};
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

/// Where the tools place a reference's provider name (`NameRange`): the name of a traversal;
/// for a string, its text parsed as a traversal from after the quote in the native syntax and,
/// in JSON, from the quote itself (hashicorp/hcl `json/structure.go`: an expression's traversal
/// is parsed from the start of its token's range).
pub(crate) fn provider_name_place(ctx: &Context, expr: &Expr, name: &str) -> Span {
    match &expr.kind {
        ExprKind::Traversal { root, .. } => root.span,
        ExprKind::Variable(_) => expr.span,
        _ => {
            let start = match syntax_of(ctx, expr.span) {
                Syntax::Json | Syntax::TerragruntJson => expr.span.start,
                _ => expr.span.start + 1,
            };
            Span {
                start,
                end: start + name.len() as u32,
                ..expr.span
            }
        }
    }
}
