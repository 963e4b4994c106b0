//! The function calls the tools evaluate at `validate` in the effective module, each certainly:
//! what a call's arguments are is checked only where HCL runs the call whatever the values
//! (hashicorp/hcl `hclsyntax/expression.go`). Walked through the merged attributes, so that an
//! override's expression counts where it wins and the base's it replaced does not.
//!
//! Left out: arguments the tools read literally (`knowledge::literal_arguments`); a `dynamic`
//! block's `content` and `labels`, evaluated once per element of a `for_each` maybe unknown at
//! `validate`; calls in the arguments of `try` and `can`, whose errors become the fallback
//! (hashicorp/hcl `ext/tryfunc/tryfunc.go`); and calls HCL may skip (`syntax::Call::conditional`:
//! a conditional's results, after `&&` or `||`, `for` bodies, template directives' bodies).

use std::collections::HashSet;

use crate::knowledge::features::{self, Place};
use crate::knowledge::function_signatures::{self, Signature};
use crate::knowledge::literal_arguments::LiteralIn;
use crate::lint::Context;
use crate::lint::helpers::schema::{Written, judgements};
use crate::module::merge::{MergedBody, Module};
use crate::source::Span;
use crate::syntax::{Call, Expr};

/// The calls HCL never evaluates because a call around them is refused first: HCL looks a
/// function up, then counts its arguments, and returns the error before it evaluates any
/// argument (hashicorp/hcl `hclsyntax/expression.go`, `FunctionCallExpr.Value`). So in
/// `nofunc(upper("a", "b"))` and `length(nofunc(), 2)` the tools report only the outer call.
/// Fed the calls of one expression in source order, each call before the calls in its
/// arguments.
pub(crate) struct Unevaluated {
    /// The calls of functions no targeted release has (`unknown_function`'s).
    unknown: HashSet<Span>,
    /// The arguments of the refused calls seen so far.
    refused: Vec<Span>,
}

impl Unevaluated {
    pub(crate) fn new(ctx: &Context) -> Unevaluated {
        let unknown = (judgements(ctx).iter())
            .filter(|j| {
                matches!(
                    j.written,
                    Written::Function | Written::CoreFunction | Written::Namespaced(_)
                ) && j.refused_by_all(ctx)
            })
            .map(|j| j.span)
            .collect();
        Unevaluated {
            unknown,
            refused: Vec::new(),
        }
    }

    /// Forgets the refused calls of the expression before.
    pub(crate) fn next_expression(&mut self) {
        self.refused.clear();
    }

    /// Whether HCL evaluates `call` (no call around it was refused); notes whether it is
    /// refused itself.
    pub(crate) fn reached(&mut self, ctx: &Context, call: &Call) -> bool {
        let inside = |r: &Span| {
            r.file == call.span.file && r.start <= call.span.start && call.span.end <= r.end
        };
        if self.refused.iter().any(inside) {
            return false;
        }
        let wrong_count = judged_signature(ctx, call).is_some_and(|signature| {
            let (given, expected) = (call.arguments.items.len(), signature.parameters.len());
            given < expected || (given > expected && signature.variadic.is_none())
        });
        if wrong_count || self.unknown.contains(&call.span) {
            self.refused.push(call.span.to(call.arguments.close));
        }
        true
    }
}

/// Calls `f` once per evaluated expression (an argument of a block, a local value) with the
/// calls in it the tools certainly evaluate, in source order (each call before the calls in its
/// arguments).
pub(crate) fn for_each_expression<'m>(module: &'m Module, f: &mut impl FnMut(&[&'m Call])) {
    let mut walk = Walk {
        path: Vec::new(),
        calls: Vec::new(),
    };
    for object in &module.objects {
        walk.path.clear();
        walk.path.push(object.kind());
        walk.body(&object.body, f);
    }
    for local in &module.locals {
        walk.expression(&local.attribute.expr, f);
    }
}

struct Walk<'m> {
    path: Vec<&'m str>,
    /// Scratch space for the calls of one expression.
    calls: Vec<&'m Call>,
}

impl<'m> Walk<'m> {
    fn expression(&mut self, expr: &'m Expr, f: &mut impl FnMut(&[&'m Call])) {
        if !expr.holds_calls() {
            return;
        }
        self.calls.clear();
        expr.for_each_call(&mut |site| {
            if !site.in_try && !site.call.conditional {
                self.calls.push(site.call);
            }
        });
        if !self.calls.is_empty() {
            f(&self.calls);
        }
    }

    fn body(&mut self, body: &'m MergedBody, f: &mut impl FnMut(&[&'m Call])) {
        let mut literal = None;
        for attr in body.attributes.iter().filter(|a| a.expr.holds_calls()) {
            let literal = *literal.get_or_insert_with(|| LiteralIn::block(&self.path));
            if !literal.reads_literally(attr.name()) {
                self.expression(&attr.expr, f);
            }
        }
        for block in &body.blocks {
            if block.kind == "dynamic" {
                // Only `for_each` is evaluated in the enclosing scope, once.
                if let Some(for_each) = block.body.attribute("for_each") {
                    self.expression(&for_each.expr, f);
                }
                continue;
            }
            self.path.push(&block.kind);
            self.body(&block.body, f);
            self.path.pop();
        }
    }
}

/// The signature a call is judged by: a built-in function (maybe as `core::NAME`) that some
/// targeted release has (a release without it refuses the call by its name), called without an
/// expanded last argument.
pub(crate) fn judged_signature(ctx: &Context, call: &Call) -> Option<&'static Signature> {
    if call.arguments.expand_final {
        return None;
    }
    let name = match call.name.strip_prefix("core::") {
        // A release without the namespace refuses the call by its name (`unknown_function`).
        Some(name) if every_release_has_core(ctx) => name,
        Some(_) => return None,
        None => &call.name,
    };
    if name.contains("::") {
        return None;
    }
    let signature = function_signatures::signature(ctx.view, name)?;
    let acceptance = features::acceptance(ctx.view, Place::Function, name)?;
    let targeted = ctx
        .targets
        .releases
        .iter()
        .any(|&r| acceptance.in_release(r));
    targeted.then_some(signature)
}

/// Whether every targeted release has the `core::` namespace.
fn every_release_has_core(ctx: &Context) -> bool {
    features::acceptance(ctx.view, Place::FunctionNamespace, "core")
        .is_some_and(|a| ctx.targets.releases.iter().all(|&r| a.in_release(r)))
}
