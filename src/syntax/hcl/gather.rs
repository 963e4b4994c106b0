//! The calls and references of expressions the model keeps as text (templates, operators,
//! conditionals, `for` expressions): gathered from the expressions parsed inside them, which
//! are then dropped.

use crate::source::Span;
use crate::syntax::{Call, Expr, ExprKind, ObjectItem, Reference, TraversalStep};

/// Calls and references in source order, as an expression kept as text holds them.
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub(crate) calls: Vec<Call>,
    pub(crate) references: Vec<Reference>,
}

impl Found {
    /// Adds everything `expr` holds, at any depth. A call's `in_try` says whether it is in
    /// the arguments of a `try` or `can` within the expression kept as text.
    pub(crate) fn add(&mut self, expr: &Expr) {
        self.add_evaluated(expr, false);
    }

    /// [`Found::add`] for an expression the tools may leave unevaluated (see
    /// [`Call::conditional`]).
    pub(crate) fn add_conditional(&mut self, expr: &Expr) {
        self.add_evaluated(expr, true);
    }

    fn add_evaluated(&mut self, expr: &Expr, conditional: bool) {
        expr.for_each_call(&mut |site| {
            self.calls.push(Call {
                in_try: site.in_try,
                conditional: conditional || site.call.conditional,
                ..site.call.clone()
            });
        });
        expr.for_each_reference(&mut |reference| self.references.push(reference.clone()));
    }

    /// Adds what `inner`, the body of a `for` expression or of a template's `if` or `for`
    /// directive, found: its calls as ones the tools may leave unevaluated, and its references
    /// but for those to the names a `for` binds there (hashicorp/hcl `hclsyntax/expression.go`,
    /// `ForExpr` filters them from its variables).
    pub(crate) fn add_bound(&mut self, inner: Found, bound: &[&str]) {
        self.calls.extend(inner.calls.into_iter().map(|call| Call {
            conditional: true,
            ..call
        }));
        self.references
            .extend((inner.references.into_iter()).filter(|r| !bound.contains(&r.root.as_str())));
    }

    /// Adds everything `other` found, as it found it.
    pub(crate) fn append(&mut self, other: Found) {
        self.calls.extend(other.calls);
        self.references.extend(other.references);
    }

    /// The expression of `kind` (kept as text) at `span` that holds them.
    pub(crate) fn into_expr(self, kind: ExprKind, span: Span) -> Expr {
        let mut expr = Expr::with_calls(kind, span, None, self.calls);
        expr.set_references(self.references);
        expr
    }
}

/// `expr` as embedded in another text: every span is `span`, and no expression holds calls or
/// references (the embedding records them where they are in the file).
pub(crate) fn embed(expr: Expr, span: Span) -> Expr {
    let kind = match expr.kind {
        ExprKind::Tuple(items) => {
            ExprKind::Tuple(items.into_iter().map(|e| embed(e, span)).collect())
        }
        ExprKind::Object(items) => ExprKind::Object(
            items
                .into_iter()
                .map(|item| ObjectItem {
                    key: embed(item.key, span),
                    value: embed(item.value, span),
                })
                .collect(),
        ),
        ExprKind::Traversal { root, steps } => ExprKind::Traversal {
            root: Box::new(embed(*root, span)),
            steps: steps
                .into_iter()
                .map(|step| match step {
                    TraversalStep::Index(index) => TraversalStep::Index(embed(index, span)),
                    other => other,
                })
                .collect(),
        },
        ExprKind::FunctionCall {
            name,
            args,
            expand_final,
        } => ExprKind::FunctionCall {
            name,
            args: args.into_iter().map(|e| embed(e, span)).collect(),
            expand_final,
        },
        ExprKind::Parenthesis(inner) => ExprKind::Parenthesis(Box::new(embed(*inner, span))),
        ExprKind::Number(written) => ExprKind::Number(number_value_text(&written)),
        other => other,
    };
    Expr::with_calls(kind, span, None, Vec::new())
}

/// A number as hcl-edit's `Number` prints it, where no source text is kept for it (embedded
/// expressions): an integer without leading zeros or spaces, else as written.
pub(crate) fn number_value_text(written: &str) -> String {
    let compact: String = written.chars().filter(|c| !c.is_whitespace()).collect();
    if let Ok(n) = compact.parse::<u64>() {
        return n.to_string();
    }
    if let Ok(n) = compact.parse::<i64>() {
        return n.to_string();
    }
    compact
}
