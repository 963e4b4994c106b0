//! The spanned configuration model that both syntaxes are lowered into.
//!
//! Merge and rules only ever see these types: no parser type leaks out of this module, so the
//! native parser ([`hcl`], our own) and the JSON parser stay replaceable.

pub(crate) mod errors;
pub(crate) mod grapheme;
mod grapheme_tables;
pub(crate) mod hcl;
pub(crate) mod json;
pub(crate) mod literals;
pub(crate) mod native;
pub(crate) mod references;
pub(crate) mod scan;

use std::fmt::Write as _;
use std::sync::Arc;

use crate::source::{FileId, Span, Syntax};

pub(crate) use references::{Reference, ReferenceStep};

/// A parsed configuration file: its top-level body and its comments.
#[derive(Debug, Clone)]
pub(crate) struct File {
    pub(crate) id: FileId,
    pub(crate) body: Body,
    /// Comments in source order. In JSON files these are the `"//"` strings of the root object.
    pub(crate) comments: Vec<Comment>,
}

/// The longest list [`Body::fitted`] fits: the spare room of a longer one is at most half of
/// it, which its items outweigh.
const SHORT_LIST: usize = 64;

/// A body: attributes and nested blocks, each in source order.
#[derive(Debug, Clone, Default)]
pub(crate) struct Body {
    pub(crate) attributes: Vec<Arc<Attribute>>,
    pub(crate) blocks: Vec<Block>,
}

impl Body {
    /// The last attribute of that name (the one a tool would use after reporting a duplicate).
    pub(crate) fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.shared_attribute(name).map(|a| &**a)
    }

    /// [`Body::attribute`], as the merged modules share it.
    pub(crate) fn shared_attribute(&self, name: &str) -> Option<&Arc<Attribute>> {
        self.attributes.iter().rev().find(|a| a.name == name)
    }

    /// The body with no spare room in its short lists: a parsed file's bodies live as long as
    /// its directory's check, and a list grown item by item keeps room for up to four items
    /// (most bodies hold one block, or a few attributes), which for a directory of many small
    /// files is most of what its syntax trees hold. A long list is left as it is: fitting it
    /// copies every item into fresh memory to give back room that was never written.
    pub(crate) fn fitted(mut self) -> Body {
        fn fit<T>(list: &mut Vec<T>) {
            if list.len() <= SHORT_LIST {
                list.shrink_to_fit();
            }
        }
        fit(&mut self.attributes);
        fit(&mut self.blocks);
        self
    }

    /// All nested blocks of one type, in source order.
    pub(crate) fn blocks_of<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Block> + 'a {
        self.blocks.iter().filter(move |b| b.kind == kind)
    }
}

/// `name = expr`. Shared (`Arc`) with the merged modules of both views, which hold the same
/// attribute, rather than its expression tree and name copied into each view's module. (`pub` for
/// [`crate::module::merge::MergedAttribute`]'s `Deref`; its fields are the crate's.)
#[derive(Debug, Clone)]
pub struct Attribute {
    pub(crate) name: String,
    pub(crate) name_span: Span,
    pub(crate) expr: Expr,
}

impl Attribute {
    /// From the start of the name to the end of the expression.
    pub(crate) fn span(&self) -> Span {
        self.name_span.to(self.expr.span)
    }
}

/// `type "label" ... { body }`.
#[derive(Debug, Clone)]
pub(crate) struct Block {
    pub(crate) kind: String,
    pub(crate) labels: Labels,
    /// From the block type through the last label.
    pub(crate) header_span: Span,
    /// The braces and everything between them (for JSON, the object).
    pub(crate) body_span: Span,
    pub(crate) body: Body,
}

impl Block {
    pub(crate) fn span(&self) -> Span {
        self.header_span.to(self.body_span)
    }

    /// Where the tools report a block (HCL's `DefRange`): see [`def_range`].
    pub(crate) fn def_range(&self, files: &crate::source::SourceFiles) -> Span {
        def_range(files, self.header_span, self.body_span)
    }

    pub(crate) fn label(&self, index: usize) -> Option<&str> {
        self.labels.get(index).map(|l| l.value.as_str())
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Label {
    pub(crate) value: String,
    pub(crate) span: Span,
}

/// A block's labels, shared by its syntax tree and the merged modules of both views rather
/// than copied into each. Most nested blocks have none, and then nothing is allocated.
#[derive(Debug, Clone, Default)]
pub(crate) struct Labels(Option<Arc<[Label]>>);

impl std::ops::Deref for Labels {
    type Target = [Label];

    fn deref(&self) -> &[Label] {
        self.0.as_deref().unwrap_or_default()
    }
}

impl FromIterator<Label> for Labels {
    fn from_iter<I: IntoIterator<Item = Label>>(labels: I) -> Labels {
        // Looked at first: an `Arc` of no labels would still be allocated (and dropped).
        let mut labels = labels.into_iter().peekable();
        Labels(labels.peek().is_some().then(|| labels.collect()))
    }
}

/// A comment, with its delimiters (`#`, `//`, `/* */`) stripped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Comment {
    pub(crate) text: String,
    pub(crate) span: Span,
}

/// An expression: what it is, where it is, and (for JSON strings) its literal value.
///
/// The expression's source text is always `files.text(expr.span)`; for JSON that is the JSON
/// text of the value.
#[derive(Debug, Clone)]
pub(crate) struct Expr {
    pub(crate) kind: ExprKind,
    pub(crate) span: Span,
    /// Whether [`Expr::calls`] or an expression inside this one holds a call: the walks skip
    /// the rest (most expressions have none, and every argument of every file is walked for
    /// calls in each view). Set once, when the expression is made from its parts.
    calls_within: bool,
    /// Whether this expression is or holds an object constructor, likewise: the walks for
    /// objects skip the rest.
    objects_within: bool,
    /// What most expressions lack (literals, keys, the names traversals start from): boxed,
    /// so that those hold one pointer for it, not three lists' room. Every expression of every
    /// file lives until its directory is checked. `None` when all of it is empty.
    parts: Option<Box<ExprParts>>,
}

/// The parts of an [`Expr`] that most expressions lack.
#[derive(Debug, Clone, Default)]
struct ExprParts {
    /// See [`Expr::json_string`].
    json_string: Option<Box<str>>,
    /// See [`Expr::calls`].
    calls: Vec<Call>,
    /// See [`Expr::references`].
    references: Vec<Reference>,
}

impl ExprParts {
    /// Whether there is nothing to box: an expression then holds `None`.
    fn is_empty(&self) -> bool {
        self.json_string.is_none() && self.calls.is_empty() && self.references.is_empty()
    }
}

/// A function call as written: its name with any namespace (`upper`, `core::upper`,
/// `provider::aws::arn_parse`), and where that name is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Call {
    pub(crate) name: String,
    pub(crate) span: Span,
    /// Whether the call sits in the arguments of a `try` or `can` call within the expression
    /// kept as text that holds it (a template, an operator...). [`Expr::for_each_call`] adds
    /// the `try` and `can` calls the model holds as expressions of their own.
    pub(crate) in_try: bool,
    /// Whether the tools may leave the call unevaluated: in a result of a conditional, an
    /// operand after `&&` or `||`, the body of a `for` expression or of a template's `if` or
    /// `for` directive, an index after a splat. hashicorp/hcl `hclsyntax/expression.go`
    /// evaluates those only for the condition's result, the left operand's value or each
    /// element, none of which may be known at `validate`.
    pub(crate) conditional: bool,
    /// What is between the parentheses.
    pub(crate) arguments: Arguments,
}

/// The arguments of a call as written: what the tools check before evaluating them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Arguments {
    pub(crate) items: Box<[Argument]>,
    /// Whether the last argument is expanded (`f(list...)`).
    pub(crate) expand_final: bool,
    /// The closing parenthesis, where the tools report a missing argument.
    pub(crate) close: Span,
}

/// One argument of a call: where it is, and its literal kind if it is a literal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Argument {
    pub(crate) span: Span,
    pub(crate) literal: Option<Literal>,
}

/// The kind of a literal argument, all a conversion to a parameter's type needs to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Literal {
    Null,
    Bool,
    Number,
    /// A string without template sequences; `digits` says whether it holds an ASCII digit (a
    /// string without one never converts to a number).
    String {
        digits: bool,
    },
    Tuple,
    Object,
}

impl Literal {
    /// The literal kind of an expression, if it is a literal.
    pub(crate) fn of(expr: &Expr) -> Option<Literal> {
        Some(match &expr.kind {
            ExprKind::Null => Literal::Null,
            ExprKind::Bool(_) => Literal::Bool,
            ExprKind::Number(_) => Literal::Number,
            ExprKind::String(s) => Literal::String {
                digits: s.bytes().any(|b| b.is_ascii_digit()),
            },
            ExprKind::Tuple(_) => Literal::Tuple,
            ExprKind::Object(_) => Literal::Object,
            _ => return None,
        })
    }
}

/// A call as [`Expr::for_each_call`] finds it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CallSite<'e> {
    pub(crate) call: &'e Call,
    /// Whether the call is in the arguments of `try` or `can`, at any depth: the tools evaluate
    /// those arguments and turn any error there, an unknown function's included, into the
    /// fallback (`can` into `false`): hashicorp/hcl `ext/tryfunc/tryfunc.go`.
    pub(crate) in_try: bool,
}

/// Whether a call of this name is `try` or `can` (with or without the `core::` namespace),
/// whose arguments may fail without failing the expression.
pub(crate) fn catches_errors(name: &str) -> bool {
    matches!(name.strip_prefix("core::").unwrap_or(name), "try" | "can")
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ExprKind {
    Null,
    Bool(bool),
    /// A number literal, as written.
    Number(String),
    /// A string with no template sequences.
    String(String),
    /// A string or heredoc with interpolations or directives.
    Template,
    Tuple(Vec<Expr>),
    Object(Vec<ObjectItem>),
    /// A bare name (`string`, `var`, `ingress`...).
    Variable(String),
    /// `root.attr[...]...`: a traversal from an expression.
    Traversal {
        root: Box<Expr>,
        steps: Vec<TraversalStep>,
    },
    FunctionCall {
        /// With any namespace, as written (`provider::aws::arn_parse`). Boxed, not a `String`:
        /// the variant is the largest, and a word less in it is a word less in every `Expr`.
        name: Box<str>,
        args: Vec<Expr>,
        expand_final: bool,
    },
    Parenthesis(Box<Expr>),
    /// Conditionals, operators, `for` expressions: merge and rules only need their text.
    Other,
}

/// The expressions `kind` holds directly (see [`Expr::for_each_child`]).
fn children<'e>(kind: &'e ExprKind, mut f: impl FnMut(&'e Expr)) {
    match kind {
        ExprKind::FunctionCall { args: items, .. } | ExprKind::Tuple(items) => {
            items.iter().for_each(f);
        }
        ExprKind::Object(items) => items.iter().for_each(|i| {
            f(&i.key);
            f(&i.value);
        }),
        ExprKind::Traversal { root, steps } => {
            f(root);
            for step in steps {
                if let TraversalStep::Index(index) = step {
                    f(index);
                }
            }
        }
        ExprKind::Parenthesis(inner) => f(inner),
        ExprKind::Null
        | ExprKind::Bool(_)
        | ExprKind::Number(_)
        | ExprKind::String(_)
        | ExprKind::Template
        | ExprKind::Variable(_)
        | ExprKind::Other => {}
    }
}

impl PartialEq for Expr {
    /// Structural equality that ignores where the expressions are. Templates and `Other`
    /// expressions compare equal by kind alone: use [`Expr::same_as`] to compare values.
    fn eq(&self, other: &Expr) -> bool {
        self.kind == other.kind && self.json_string() == other.json_string()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TraversalStep {
    Attr(String),
    Index(Expr),
    Splat,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ObjectItem {
    pub(crate) key: Expr,
    pub(crate) value: Expr,
}

impl Expr {
    pub(crate) fn new(kind: ExprKind, span: Span) -> Expr {
        Expr::with_calls(kind, span, None, Vec::new())
    }

    /// An expression with the calls its kind does not hold (see [`Expr::calls`]).
    pub(crate) fn with_calls(
        kind: ExprKind,
        span: Span,
        json_string: Option<Box<str>>,
        calls: Vec<Call>,
    ) -> Expr {
        let mut calls_within = !calls.is_empty();
        let mut objects_within = matches!(kind, ExprKind::Object(_));
        children(&kind, |child| {
            calls_within |= child.calls_within;
            objects_within |= child.objects_within;
        });
        let parts = ExprParts {
            json_string,
            calls,
            references: Vec::new(),
        };
        let parts = (!parts.is_empty()).then(|| Box::new(parts));
        Expr {
            kind,
            span,
            calls_within,
            objects_within,
            parts,
        }
    }

    /// For a JSON string value: the string itself. Where the tools read a value without
    /// evaluating it (variable defaults, `required_version`, ...) this is the value, even when
    /// `kind` is the template it would be elsewhere.
    pub(crate) fn json_string(&self) -> Option<&str> {
        self.parts.as_ref()?.json_string.as_deref()
    }

    /// The function calls of this expression that `kind` does not hold in an expression of its
    /// own: a call's own name, and every call inside a template (interpolations and directives)
    /// or an operator, conditional or `for` expression, which the model keeps as text. Where the
    /// tools read a JSON string literally it has none. [`Expr::for_each_call`] visits them all.
    pub(crate) fn calls(&self) -> &[Call] {
        self.parts.as_ref().map_or(&[], |parts| &parts.calls)
    }

    /// The references (`var.x`, `aws_instance.a.id`) this expression is or holds that no
    /// expression inside it holds: a traversal's or a name's own, and every one inside a
    /// template or an operator, conditional or `for` expression, which the model keeps as text.
    /// Where the tools read a JSON string literally it has none. [`Expr::for_each_reference`]
    /// visits them all.
    pub(crate) fn references(&self) -> &[Reference] {
        self.parts.as_ref().map_or(&[], |parts| &parts.references)
    }

    /// Sets [`Expr::references`] (made whole by the parser, so given whole).
    pub(crate) fn set_references(&mut self, references: Vec<Reference>) {
        if references.is_empty() && self.parts.is_none() {
            return;
        }
        let parts = self.parts.get_or_insert_default();
        parts.references = references;
        if parts.is_empty() {
            self.parts = None;
        }
    }

    /// Whether this expression holds a JSON string, calls or references of its own.
    #[cfg(test)]
    pub(crate) fn has_parts(&self) -> bool {
        self.parts.is_some()
    }

    /// The room [`Expr::references`] holds.
    #[cfg(test)]
    pub(crate) fn references_capacity(&self) -> usize {
        self.parts
            .as_ref()
            .map_or(0, |parts| parts.references.capacity())
    }

    /// Whether this expression holds a function call anywhere (see [`Expr::for_each_call`]).
    pub(crate) fn holds_calls(&self) -> bool {
        self.calls_within
    }

    /// Whether this expression is an object constructor or holds one anywhere the model shows.
    pub(crate) fn holds_objects(&self) -> bool {
        self.objects_within
    }

    /// Calls `f` with every function call in this expression, once each, in source order
    /// within each expression the model keeps (the tree is walked once, but for the parts
    /// that hold no call).
    pub(crate) fn for_each_call<'e>(&'e self, f: &mut impl FnMut(CallSite<'e>)) {
        self.walk_calls(false, f);
    }

    /// [`Expr::for_each_call`] below an expression that is or is not in the arguments of `try`
    /// or `can`.
    fn walk_calls<'e>(&'e self, in_try: bool, f: &mut impl FnMut(CallSite<'e>)) {
        if !self.calls_within {
            return;
        }
        for call in self.calls() {
            f(CallSite {
                call,
                in_try: in_try || call.in_try,
            });
        }
        let arguments_in_try = in_try
            || matches!(&self.kind, ExprKind::FunctionCall { name, .. } if catches_errors(name));
        self.for_each_child(|child| child.walk_calls(arguments_in_try, f));
    }

    /// Marks every call of this expression as one the tools may leave unevaluated (see
    /// [`Call::conditional`]).
    pub(crate) fn mark_conditional(&mut self) {
        if !self.calls_within {
            return;
        }
        if let Some(parts) = &mut self.parts {
            for call in &mut parts.calls {
                call.conditional = true;
            }
        }
        match &mut self.kind {
            ExprKind::FunctionCall { args: items, .. } | ExprKind::Tuple(items) => {
                items.iter_mut().for_each(Expr::mark_conditional);
            }
            ExprKind::Object(items) => items.iter_mut().for_each(|i| {
                i.key.mark_conditional();
                i.value.mark_conditional();
            }),
            ExprKind::Traversal { root, steps } => {
                root.mark_conditional();
                for step in steps {
                    if let TraversalStep::Index(index) = step {
                        index.mark_conditional();
                    }
                }
            }
            ExprKind::Parenthesis(inner) => inner.mark_conditional(),
            _ => {}
        }
    }

    /// Calls `f` with every reference in this expression, once each, in source order within
    /// each expression the model keeps.
    pub(crate) fn for_each_reference<'e>(&'e self, f: &mut impl FnMut(&'e Reference)) {
        self.references().iter().for_each(&mut *f);
        self.for_each_child(|child| child.for_each_reference(f));
    }

    /// Calls `f` with each expression the model holds directly inside this one, in source
    /// order: items, keys and values, a call's arguments, a traversal's root and indexes, the
    /// inside of parentheses. Templates and operators have none (they are kept as text).
    pub(crate) fn for_each_child<'e>(&'e self, f: impl FnMut(&'e Expr)) {
        children(&self.kind, f);
    }

    /// The string this expression means where the tools read it without evaluating it: a
    /// native string literal, or any JSON string (templates included, taken literally).
    pub(crate) fn literal_string(&self) -> Option<&str> {
        match (&self.kind, self.json_string()) {
            (_, Some(s)) => Some(s),
            (ExprKind::String(s), None) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn is_null(&self) -> bool {
        self.kind == ExprKind::Null
    }

    /// A bare keyword such as `all` or `tofu2024` (native), or its JSON string form.
    pub(crate) fn keyword(&self) -> Option<&str> {
        match (&self.kind, self.json_string()) {
            (ExprKind::Variable(name), _) => Some(name),
            (_, Some(s)) => Some(s),
            _ => None,
        }
    }

    /// Whether two expressions are the same as written: equal structure where the model knows
    /// it (literals, collections, references, calls; native and JSON alike), equal source text
    /// (whitespace aside) where it does not (templates, operators, `for` expressions).
    pub(crate) fn same_as(&self, other: &Expr, files: &crate::source::SourceFiles) -> bool {
        use ExprKind as K;
        let text = |e: &Expr| {
            files
                .text(e.span)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        let all_same = |a: &[Expr], b: &[Expr]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_as(y, files))
        };
        match (&self.kind, &other.kind) {
            (K::Template, K::Template) | (K::Other, K::Other) => text(self) == text(other),
            (K::Tuple(a), K::Tuple(b)) => all_same(a, b),
            (K::Object(a), K::Object(b)) => {
                a.len() == b.len()
                    && a.iter().zip(b).all(|(x, y)| {
                        let key = |k: &Expr| match &k.kind {
                            K::Variable(n) | K::String(n) => Some(n.clone()),
                            _ => None,
                        };
                        let keys_same = match (key(&x.key), key(&y.key)) {
                            (Some(p), Some(q)) => p == q,
                            _ => x.key.same_as(&y.key, files),
                        };
                        keys_same && x.value.same_as(&y.value, files)
                    })
            }
            (
                K::Traversal {
                    root: r1,
                    steps: s1,
                },
                K::Traversal {
                    root: r2,
                    steps: s2,
                },
            ) => {
                r1.same_as(r2, files)
                    && s1.len() == s2.len()
                    && s1.iter().zip(s2).all(|(a, b)| match (a, b) {
                        (TraversalStep::Index(x), TraversalStep::Index(y)) => x.same_as(y, files),
                        _ => a == b,
                    })
            }
            (
                K::FunctionCall {
                    name: n1,
                    args: a1,
                    expand_final: e1,
                },
                K::FunctionCall {
                    name: n2,
                    args: a2,
                    expand_final: e2,
                },
            ) => n1 == n2 && e1 == e2 && all_same(a1, a2),
            (K::Parenthesis(a), K::Parenthesis(b)) => a.same_as(b, files),
            (K::Number(a), K::Number(b)) => {
                a == b
                    || a.parse::<f64>()
                        .ok()
                        .zip(b.parse::<f64>().ok())
                        .is_some_and(|(x, y)| x == y)
            }
            (a, b) => a == b && !matches!(a, K::Template | K::Other),
        }
    }

    /// Elements of a tuple (`[a, b]`), if this is one.
    pub(crate) fn tuple_items(&self) -> Option<&[Expr]> {
        match &self.kind {
            ExprKind::Tuple(items) => Some(items),
            _ => None,
        }
    }
}

/// A native quoted string. `literal` escapes template sequences so they stay text; otherwise
/// `${...}` and `%{...}` sequences are copied as they are (their contents are expressions, where
/// quotes are not escaped) and only the text around them is escaped.
pub(crate) fn quote(s: &str, literal: bool) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut rest = s;
    while !rest.is_empty() {
        if !literal && let Some(len) = template_sequence_len(rest) {
            out.push_str(&rest[..len]);
            rest = &rest[len..];
            continue;
        }
        let mut chars = rest.chars();
        let Some(c) = chars.next() else { break };
        let next = chars.next();
        match c {
            '$' | '%'
                if !literal && next == Some(c) && rest[1..].starts_with(&format!("{c}{{")) =>
            {
                // An escape already (`$${`) in a template: keep it an escape.
                out.push(c);
                out.push(c);
                rest = &rest[2..];
                continue;
            }
            '$' | '%' if literal && next == Some('{') => {
                out.push(c);
                out.push(c);
            }
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out.push('"');
    out
}

/// The length of a `${...}` or `%{...}` sequence at the start of `s`, braces and quoted
/// strings inside it balanced; `None` if `s` does not start with a complete one.
fn template_sequence_len(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    if !(bytes.len() >= 2 && (bytes[0] == b'$' || bytes[0] == b'%') && bytes[1] == b'{') {
        return None;
    }
    let mut depth = 0usize;
    let mut in_string = false;
    let mut i = 1;
    while i < bytes.len() {
        match (bytes[i], in_string) {
            (b'\\', true) => i += 1,
            (b'"', _) => in_string = !in_string,
            (b'{', false) => depth += 1,
            (b'}', false) => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// A parse failure, located in the file.
#[derive(Debug, Clone)]
pub(crate) struct SyntaxError {
    /// What the tools call it (`Invalid expression`), see [`errors`].
    pub(crate) summary: &'static str,
    /// The parser's own detail.
    pub(crate) message: String,
    pub(crate) span: Span,
    /// The text is beyond a limit of this tool's parser (nesting depth, backtracking): it may
    /// well be valid for the tools.
    pub(crate) beyond_tool_limit: bool,
}

/// A duplicate attribute found while parsing (`Attribute redefined` in native syntax,
/// `Duplicate argument` in JSON). Both definitions are kept in the body; the tools report it.
#[derive(Debug, Clone)]
pub(crate) struct DuplicateAttribute {
    pub(crate) name: String,
    pub(crate) first: Span,
    pub(crate) second: Span,
    pub(crate) syntax: Syntax,
}

/// What parsing one file gives: the file, or the first syntax error; plus duplicate attributes.
#[derive(Debug)]
pub(crate) struct Parsed {
    pub(crate) file: Result<File, SyntaxError>,
    pub(crate) duplicate_attributes: Vec<DuplicateAttribute>,
}

/// Parses a file in the given syntax.
pub(crate) fn parse(id: FileId, syntax: Syntax, text: &str) -> Parsed {
    match syntax {
        Syntax::Native => native::parse(id, text),
        Syntax::Json => json::parse(id, text),
        Syntax::TerragruntJson => json::parse_terragrunt(id, text),
    }
}

/// Parses a file whose bytes are not all UTF-8: `text` is `bytes` with a stand-in for each byte
/// that is not ([`stand_in_for_not_utf8`]).
pub(crate) fn parse_not_utf8(id: FileId, syntax: Syntax, text: &str, bytes: &[u8]) -> Parsed {
    match syntax {
        Syntax::Native => hcl::parse_not_utf8(id, text, bytes),
        // HCL's JSON scanner takes any byte inside a string and refuses any outside one, as
        // the stand-in is; where a string ends it finds in the bytes themselves.
        Syntax::Json => json::parse_not_utf8(id, text, bytes, false),
        Syntax::TerragruntJson => json::parse_not_utf8(id, text, bytes, true),
    }
}

/// `bytes` as text, each byte of a sequence that is not UTF-8 replaced by one byte, so that
/// every offset stays the file's: in native syntax a control character no construct but a
/// comment or a string takes (HCL's scanner then decides, see `hcl::scanner`); in JSON a `?`,
/// which a JSON string takes as the tools' does take any byte, and which nothing outside a
/// string does.
pub(crate) fn stand_in_for_not_utf8(bytes: &[u8], syntax: Syntax) -> String {
    let stand_in = match syntax {
        Syntax::Native => hcl::NOT_UTF8_STAND_IN,
        Syntax::Json | Syntax::TerragruntJson => b'?',
    };
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(valid) => {
                out.extend_from_slice(valid.as_bytes());
                break;
            }
            Err(error) => {
                let (valid, after) = rest.split_at(error.valid_up_to());
                out.extend_from_slice(valid);
                let bad = error.error_len().unwrap_or(after.len());
                out.resize(out.len() + bad, stand_in);
                rest = &after[bad..];
            }
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

/// The real modules unit tests run on, shared with the integration tests.
#[cfg(test)]
#[path = "../../tests/common/corpus.rs"]
pub(crate) mod corpus;

/// Where the tools report a block, from its header and body spans (HCL's `DefRange`): its header
/// in native syntax; in JSON, the opening brace of the block's object.
pub(crate) fn def_range(
    files: &crate::source::SourceFiles,
    header_span: Span,
    body_span: Span,
) -> Span {
    if files.get(body_span.file).file_name().ends_with(".json") {
        let start = body_span.start as usize;
        Span::new(body_span.file, start..start + 1)
    } else {
        header_span
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The files of real modules `test` runs on: the sample in the repository, and the whole
    /// corpus when it is beside the checkout (whether it is, second; see [`super::corpus`]).
    pub(crate) fn corpus_files(test: &str) -> (Vec<std::path::PathBuf>, bool) {
        let roots = super::corpus::roots(test);
        let whole = roots.len() > 1;
        (
            roots.iter().flat_map(|r| super::corpus::files(r)).collect(),
            whole,
        )
    }

    /// Every call of `expr`, walking the whole tree (no part skipped).
    fn every_call(expr: &Expr, out: &mut Vec<String>) {
        out.extend(expr.calls().iter().map(|c| c.name.clone()));
        expr.for_each_child(|child| every_call(child, out));
    }

    fn walk_body(body: &Body, walk: &mut impl FnMut(&Expr)) {
        body.attributes.iter().for_each(|a| walk(&a.expr));
        body.blocks.iter().for_each(|b| walk_body(&b.body, walk));
    }

    /// The calls `for_each_call` finds (skipping the parts that hold none) and those of a walk
    /// of every expression, for every attribute of a file.
    pub(crate) fn calls_both_ways(syntax: Syntax, text: &str) -> (Vec<String>, Vec<String>) {
        let parsed = parse(FileId(0), syntax, text);
        let Ok(file) = parsed.file else {
            return (Vec::new(), Vec::new());
        };
        let (mut found, mut every) = (Vec::new(), Vec::new());
        walk_body(&file.body, &mut |expr| {
            expr.for_each_call(&mut |site| found.push(site.call.name.clone()));
            every_call(expr, &mut every);
        });
        (found, every)
    }

    #[test]
    fn walks_for_calls_skip_only_what_holds_none() {
        let native = r#"
a = [{ b = { c = upper("x") } }, 1, "s"]
d = foo[lower(1)].e
f = "${join(",", var.x)}"
g = (max(1, min(2, 3)))
h = { (trimspace(k)) = 1, plain = "v" }
i = var.a ? abs(1) : 2
j = [1, 2, { k = null }]
"#;
        let (found, every) = calls_both_ways(Syntax::Native, native);
        assert_eq!(
            found,
            ["upper", "lower", "join", "max", "min", "trimspace", "abs"]
        );
        assert_eq!(found, every);
        let json = r#"{"resource": {"t": {"n": {"a": ["${upper(1)}", {"b": "${lower(2)}"}],
            "c": {"${tostring(3)}": "plain"}}}}}"#;
        let (found, every) = calls_both_ways(Syntax::Json, json);
        assert_eq!(found, ["upper", "lower", "tostring"]);
        assert_eq!(found, every);
    }

    /// Every object constructor of `expr`, walking the whole tree, or skipping what
    /// [`Expr::holds_objects`] says holds none: by the text of its span.
    fn objects(expr: &Expr, skipping: bool, text: &str, out: &mut Vec<String>) {
        if skipping && !expr.holds_objects() {
            return;
        }
        if let ExprKind::Object(_) = expr.kind {
            out.push(text[expr.span.range()].to_string());
        }
        expr.for_each_child(|child| objects(child, skipping, text, out));
    }

    #[test]
    fn walks_for_objects_skip_only_what_holds_none() {
        let text = r#"
a = [1, { b = { c = 1 } }, "s"]
d = foo[{ e = 1 }["e"]].f
g = (max(1, { h = 2 }))
i = var.a ? { j = 1 } : {}
k = "no object"
"#;
        let file = parse(FileId(0), Syntax::Native, text).file.expect("parses");
        let (mut found, mut every) = (Vec::new(), Vec::new());
        walk_body(&file.body, &mut |expr| {
            objects(expr, true, text, &mut found);
            objects(expr, false, text, &mut every);
        });
        assert_eq!(
            found,
            ["{ b = { c = 1 } }", "{ c = 1 }", "{ e = 1 }", "{ h = 2 }"]
        );
        assert_eq!(found, every);
    }
}
