//! The spanned configuration model that both syntaxes are lowered into.
//!
//! Merge and rules only ever see these types: no parser type leaks out of this module, so the
//! native parser (hcl-edit) and the JSON parser stay replaceable.

pub mod json;
pub mod native;
pub mod scan;

use crate::source::{FileId, Span, Syntax};

/// A parsed configuration file: its top-level body and its comments.
#[derive(Debug, Clone)]
pub struct File {
    pub id: FileId,
    pub syntax: Syntax,
    pub body: Body,
    /// Comments in source order. In JSON files these are the `"//"` strings of the root object.
    pub comments: Vec<Comment>,
}

/// A body: attributes and nested blocks, each in source order.
#[derive(Debug, Clone, Default)]
pub struct Body {
    pub attributes: Vec<Attribute>,
    pub blocks: Vec<Block>,
}

impl Body {
    /// The last attribute of that name (the one a tool would use after reporting a duplicate).
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().rev().find(|a| a.name == name)
    }

    /// All nested blocks of one type, in source order.
    pub fn blocks_of<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Block> + 'a {
        self.blocks.iter().filter(move |b| b.kind == kind)
    }
}

/// `name = expr`.
#[derive(Debug, Clone)]
pub struct Attribute {
    pub name: String,
    pub name_span: Span,
    pub expr: Expr,
}

impl Attribute {
    /// From the start of the name to the end of the expression.
    pub fn span(&self) -> Span {
        self.name_span.to(self.expr.span)
    }
}

/// `type "label" ... { body }`.
#[derive(Debug, Clone)]
pub struct Block {
    pub kind: String,
    pub labels: Vec<Label>,
    /// From the block type through the last label.
    pub header_span: Span,
    /// The braces and everything between them (for JSON, the object).
    pub body_span: Span,
    pub body: Body,
}

impl Block {
    pub fn span(&self) -> Span {
        self.header_span.to(self.body_span)
    }

    pub fn label(&self, index: usize) -> Option<&str> {
        self.labels.get(index).map(|l| l.value.as_str())
    }
}

#[derive(Debug, Clone)]
pub struct Label {
    pub value: String,
    pub span: Span,
}

/// A comment, with its delimiters (`#`, `//`, `/* */`) stripped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    pub text: String,
    pub span: Span,
}

/// An expression: what it is, where it is, and (for JSON strings) its literal value.
///
/// The expression's source text is always `files.text(expr.span)`; for JSON that is the JSON
/// text of the value.
#[derive(Debug, Clone)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    /// For a JSON string value: the string itself. Where the tools read a value without
    /// evaluating it (variable defaults, `required_version`, ...) this is the value, even when
    /// `kind` is the template it would be elsewhere.
    pub json_string: Option<Box<str>>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
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
        /// With any namespace, as written (`provider::aws::arn_parse`).
        name: String,
        args: Vec<Expr>,
        expand_final: bool,
    },
    Parenthesis(Box<Expr>),
    /// Conditionals, operators, `for` expressions: merge and rules only need their text.
    Other,
}

impl PartialEq for Expr {
    /// Structural equality that ignores where the expressions are. Templates and `Other`
    /// expressions compare equal by kind alone: use [`Expr::same_as`] to compare values.
    fn eq(&self, other: &Expr) -> bool {
        self.kind == other.kind && self.json_string == other.json_string
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum TraversalStep {
    Attr(String),
    Index(Expr),
    Splat,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ObjectItem {
    pub key: Expr,
    pub value: Expr,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr {
            kind,
            span,
            json_string: None,
        }
    }

    /// The string this expression means where the tools read it without evaluating it: a
    /// native string literal, or any JSON string (templates included, taken literally).
    pub fn literal_string(&self) -> Option<&str> {
        match (&self.kind, &self.json_string) {
            (_, Some(s)) => Some(s),
            (ExprKind::String(s), None) => Some(s),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        self.kind == ExprKind::Null
    }

    /// A bare keyword such as `all` or `tofu2024` (native), or its JSON string form.
    pub fn keyword(&self) -> Option<&str> {
        match (&self.kind, &self.json_string) {
            (ExprKind::Variable(name), _) => Some(name),
            (_, Some(s)) => Some(s),
            _ => None,
        }
    }

    /// The dotted name of a static reference (`var.x`, `terraform_data.b`, `path.module`).
    pub fn reference_name(&self) -> Option<String> {
        match &self.kind {
            ExprKind::Variable(name) => Some(name.clone()),
            ExprKind::Traversal { root, steps } => {
                let mut name = root.reference_name()?;
                for step in steps {
                    match step {
                        TraversalStep::Attr(a) => {
                            name.push('.');
                            name.push_str(a);
                        }
                        _ => return None,
                    }
                }
                Some(name)
            }
            _ => None,
        }
    }

    /// Whether two expressions are the same as written: equal structure where the model knows
    /// it (literals, collections, references, calls; native and JSON alike), equal source text
    /// (whitespace aside) where it does not (templates, operators, `for` expressions).
    pub fn same_as(&self, other: &Expr, files: &crate::source::SourceFiles) -> bool {
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
    pub fn tuple_items(&self) -> Option<&[Expr]> {
        match &self.kind {
            ExprKind::Tuple(items) => Some(items),
            _ => None,
        }
    }
}

/// A parse failure, located in the file.
#[derive(Debug, Clone)]
pub struct SyntaxError {
    pub message: String,
    pub span: Span,
}

/// A duplicate attribute found while parsing (`Attribute redefined` in native syntax,
/// `Duplicate argument` in JSON). Both definitions are kept in the body; the tools report it.
#[derive(Debug, Clone)]
pub struct DuplicateAttribute {
    pub name: String,
    pub first: Span,
    pub second: Span,
    pub syntax: Syntax,
}

/// What parsing one file gives: the file, or the first syntax error; plus duplicate attributes.
#[derive(Debug)]
pub struct Parsed {
    pub file: Result<File, SyntaxError>,
    pub duplicate_attributes: Vec<DuplicateAttribute>,
}

/// Parses a file in the given syntax.
pub fn parse(id: FileId, syntax: Syntax, text: &str) -> Parsed {
    match syntax {
        Syntax::Native => native::parse(id, text),
        Syntax::Json => json::parse(id, text),
    }
}
