//! The tools' own schema checks, judged against the targeted releases (spec `tool-versions.md`
//! §3a): blocks and arguments of the tool-defined bodies, and built-in function names. A
//! construct that every targeted release refuses is a load error with the tools' summary
//! (`Unsupported block type`, `Unsupported argument`, `Extraneous JSON object property`, `Call
//! to unknown function`); one that only some refuse is `feature_newer_than_target`'s.
//!
//! Provider-defined bodies (resources, data sources, provider configurations, provisioners and
//! connections) and module calls (whose arguments are the callee's variables) are never judged
//! for unknown names: their schema is not ours.

use crate::diagnostic::{Diagnostic, ids};
use crate::knowledge::View;
use crate::knowledge::features::{self, Body, Place};
use crate::knowledge::releases::Release;
use crate::source::{Span, Syntax};
use crate::syntax::{self, Expr, ExprKind, TraversalStep};

use super::Context;
use super::helpers::closest;

/// What was written where, as the schema checks see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Written {
    Block,
    Argument,
    Function,
}

/// One construct and the targeted releases that refuse it.
#[derive(Debug, Clone)]
pub(crate) struct Judgement {
    pub(crate) place: Place,
    pub(crate) name: String,
    pub(crate) written: Written,
    pub(crate) syntax: Syntax,
    /// The name as written (a block's header, an argument's name, a call's name and arguments).
    pub(crate) span: Span,
    /// The targeted releases that refuse it, oldest first.
    pub(crate) refusing: Vec<Release>,
    /// Whether the tables describe it (an undescribed name is unknown to every release).
    pub(crate) described: bool,
}

impl Judgement {
    /// The tools' summary for this construct where a release refuses it.
    pub(crate) fn summary(&self) -> &'static str {
        match (self.written, self.syntax) {
            (Written::Function, _) => "Call to unknown function",
            (_, Syntax::Json | Syntax::TerragruntJson) => "Extraneous JSON object property",
            (Written::Block, Syntax::Native) => "Unsupported block type",
            (Written::Argument, Syntax::Native) => "Unsupported argument",
        }
    }

    /// Whether every targeted release refuses it: a load error.
    pub(crate) fn refused_by_all(&self, ctx: &Context) -> bool {
        !self.refusing.is_empty() && self.refusing.len() == ctx.targets.releases.len()
    }
}

/// The body a nested block of `parent` opens, when the tools define it.
fn nested_body(parent: Body, kind: &str) -> Option<Body> {
    match (parent, kind) {
        (Body::Removed, "lifecycle") => Some(Body::RemovedLifecycle),
        _ => None,
    }
}

/// The body a top-level block opens, and whether its nested blocks are judged (by body).
fn top_level_body(kind: &str) -> Option<Body> {
    Some(match kind {
        "terraform" => Body::Terraform,
        "variable" => Body::Variable,
        "output" => Body::Output,
        "moved" => Body::Moved,
        "import" => Body::Import,
        "removed" => Body::Removed,
        "check" => Body::Check,
        "action" => Body::Action,
        "language" => Body::Language,
        _ => return None,
    })
}

/// Every construct of the view's files that the tables describe or that a closed body holds,
/// with the targeted releases that refuse it. Judged once per view: both the load errors here
/// and `feature_newer_than_target` read them (judging twice was 3% of a lint run's CPU).
pub(crate) fn judgements<'c>(ctx: &'c Context) -> &'c [Judgement] {
    ctx.judgements.get_or_init(|| judge_all(ctx))
}

fn judge_all(ctx: &Context) -> Vec<Judgement> {
    let mut out = Vec::new();
    let files = ctx.primary.iter().map(|f| (f, false));
    for (loaded, is_override) in files.chain(ctx.overrides.iter().map(|f| (f, true))) {
        let syntax = loaded.extension.syntax();
        let mut judge = |place: Place, name: &str, written: Written, span: Span| {
            if left_to_other_checks(ctx.view, place, name) {
                return;
            }
            let described = match place {
                Place::Function => {
                    features::accepts(ctx.view, ctx.targets.lowest(), place, name).is_some()
                }
                _ => features::find(place, name).is_some(),
            };
            if misspelling_in_override(place, described, is_override) {
                return;
            }
            let refusing = if described {
                ctx.targets.refusing(place, name)
            } else {
                ctx.targets.releases.clone()
            };
            out.push(Judgement {
                place,
                name: name.to_string(),
                written,
                syntax,
                span,
                refusing,
                described,
            });
        };
        let body = &loaded.file.body;
        for attr in &body.attributes {
            judge(
                Place::TopLevel,
                &attr.name,
                Written::Argument,
                attr.name_span,
            );
        }
        for block in &body.blocks {
            judge(
                Place::TopLevel,
                &block.kind,
                Written::Block,
                block.header_span,
            );
            let (refusing, ignoring) = (
                ctx.targets.refusing(Place::TopLevel, &block.kind),
                ctx.targets.ignoring(Place::TopLevel, &block.kind),
            );
            if !refusing.is_empty() || !ignoring.is_empty() {
                continue; // the block is judged; its contents count with it
            }
            if let Some(kind) = top_level_body(&block.kind) {
                judge_body(kind, &block.body, &mut judge);
            }
            if matches!(block.kind.as_str(), "resource" | "data" | "ephemeral") {
                for lifecycle in block.body.blocks_of("lifecycle") {
                    judge_body(Body::Lifecycle, &lifecycle.body, &mut judge);
                }
            }
            // A module call's `lifecycle` is `module_reserved_block`'s (reserved in Terraform,
            // `enabled` only in OpenTofu).
        }
        walk_calls(body, &mut |name, span| {
            judge_call(name, span, &mut judge);
        });
    }
    out
}

/// Names with findings of their own elsewhere: `required_providers` at the top level
/// (`required_providers_top_level`), `language` at the top level in Terraform
/// (`language_block_in_tf_file`, an error that says where the block belongs), output
/// `postcondition` ("Postconditions are not allowed"), and JSON comments (`"//"`), which the
/// tools skip.
fn left_to_other_checks(view: View, place: Place, name: &str) -> bool {
    name == "//"
        || (view == View::Terraform && place == Place::TopLevel && name == "language")
        || matches!(
            (place, name),
            (Place::TopLevel, "required_providers") | (Place::In(Body::Output), "postcondition")
        )
}

/// Misspelled arguments of variables, outputs and lifecycle blocks in override files are
/// `override_misspelled_argument`'s, which names the base block they were meant for.
fn misspelling_in_override(place: Place, described: bool, is_override: bool) -> bool {
    is_override
        && !described
        && matches!(
            place,
            Place::In(Body::Variable | Body::Output | Body::Lifecycle)
        )
}

/// Judges every argument and nested block of a closed tool-defined body.
fn judge_body(kind: Body, body: &syntax::Body, judge: &mut impl FnMut(Place, &str, Written, Span)) {
    for attr in &body.attributes {
        judge(
            Place::In(kind),
            &attr.name,
            Written::Argument,
            attr.name_span,
        );
    }
    for block in &body.blocks {
        judge(
            Place::In(kind),
            &block.kind,
            Written::Block,
            block.header_span,
        );
        if let Some(nested) = nested_body(kind, &block.kind) {
            judge_body(nested, &block.body, judge);
        }
    }
}

/// Judges a function call by its name: `f`, `core::f` or `provider::p::f`.
fn judge_call(name: &str, span: Span, judge: &mut impl FnMut(Place, &str, Written, Span)) {
    match name.split_once("::") {
        None => judge(Place::Function, name, Written::Function, span),
        Some(("core", function)) => {
            judge(Place::FunctionNamespace, "core", Written::Function, span);
            judge(Place::Function, function, Written::Function, span);
        }
        Some(("provider", _)) => judge(
            Place::FunctionNamespace,
            "provider",
            Written::Function,
            span,
        ),
        // Other namespaces are the tools' own errors ("Unknown function namespace"), not here.
        Some(_) => {}
    }
}

/// Calls `f` with every function call of a body's expressions (in structured expressions:
/// templates and operators are kept as text by the syntax model). The `type` of a variable or
/// output is a type constraint (`set(string)`), not a call.
fn walk_calls(body: &syntax::Body, f: &mut impl FnMut(&str, Span)) {
    walk_body_calls(body, false, f);
}

fn walk_body_calls(body: &syntax::Body, typed: bool, f: &mut impl FnMut(&str, Span)) {
    for attr in &body.attributes {
        if !(typed && attr.name == "type") {
            walk_expr(&attr.expr, f);
        }
    }
    for block in &body.blocks {
        let typed = matches!(block.kind.as_str(), "variable" | "output");
        walk_body_calls(&block.body, typed, f);
    }
}

fn walk_expr(expr: &Expr, f: &mut impl FnMut(&str, Span)) {
    match &expr.kind {
        ExprKind::FunctionCall { name, args, .. } => {
            f(name, expr.span);
            args.iter().for_each(|a| walk_expr(a, f));
        }
        ExprKind::Tuple(items) => items.iter().for_each(|i| walk_expr(i, f)),
        ExprKind::Object(items) => items.iter().for_each(|i| {
            walk_expr(&i.key, f);
            walk_expr(&i.value, f);
        }),
        ExprKind::Traversal { root, steps } => {
            walk_expr(root, f);
            for step in steps {
                if let TraversalStep::Index(index) = step {
                    walk_expr(index, f);
                }
            }
        }
        ExprKind::Parenthesis(inner) => walk_expr(inner, f),
        _ => {}
    }
}

/// The load errors of one view: the constructs every targeted release refuses.
pub(crate) fn check(ctx: &Context) -> Vec<Diagnostic> {
    judgements(ctx)
        .iter()
        .filter(|j| j.refused_by_all(ctx))
        .map(|j| refused(ctx, j))
        .collect()
}

/// The names the newest targeted release accepts where `judgement` was written, for "Did you
/// mean".
fn suggestion(ctx: &Context, judgement: &Judgement) -> Option<&'static str> {
    let newest = *ctx.targets.releases.last()?;
    let names = features::names(ctx.view, newest, judgement.place);
    closest(&judgement.name, names)
}

/// `Unsupported block type`, `Unsupported argument`, `Extraneous JSON object property` or `Call
/// to unknown function`, with the tools' detail.
fn refused(ctx: &Context, judgement: &Judgement) -> Diagnostic {
    let name = &judgement.name;
    let did_you_mean = suggestion(ctx, judgement)
        .map(|s| format!(" Did you mean \"{s}\"?"))
        .unwrap_or_default();
    let summary = judgement.summary();
    let (id, detail, label) = match (judgement.written, judgement.syntax) {
        (Written::Function, _) => (
            ids::UNKNOWN_FUNCTION,
            format!("There is no function named \"{name}\".{did_you_mean}"),
            format!("no function `{name}`"),
        ),
        (_, Syntax::Json | Syntax::TerragruntJson) => (
            ids::UNSUPPORTED_CONSTRUCT,
            format!("No argument or block type is named \"{name}\".{did_you_mean}"),
            format!("`{name}` is not expected here"),
        ),
        (Written::Block, Syntax::Native) => (
            ids::UNSUPPORTED_CONSTRUCT,
            format!("Blocks of type \"{name}\" are not expected here.{did_you_mean}"),
            format!("`{name}` blocks are not expected here"),
        ),
        (Written::Argument, Syntax::Native) => (
            ids::UNSUPPORTED_CONSTRUCT,
            format!("An argument named \"{name}\" is not expected here.{did_you_mean}"),
            format!("`{name}` is not expected here"),
        ),
    };
    let mut d = Diagnostic::error(id, summary)
        .at(ctx.files, judgement.span, label)
        .with_note(detail);
    let since =
        features::find(judgement.place, name).and_then(|f| f.availability(ctx.view).since());
    let until =
        features::find(judgement.place, name).and_then(|f| f.availability(ctx.view).until());
    let tool = ctx.view.tool_name();
    let targets = ctx.targets.describe();
    if let Some(since) = since.filter(|s| *s > ctx.targets.lowest()) {
        d = d.with_note(format!(
            "{tool} has it since {since}; this module targets {targets}."
        ));
    } else if let Some(until) = until {
        d = d.with_note(format!(
            "{tool} {until} removed it; this module targets {targets}."
        ));
    }
    d.in_views(ctx.view.views())
}

#[cfg(test)]
mod tests;
