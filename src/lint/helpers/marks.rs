//! Whether `terraform validate` finds a value marked sensitive, decided without evaluating:
//! where that is certain, and `None` where it is not.
//!
//! `validate` evaluates with every input variable unknown (hashicorp/terraform
//! `internal/terraform/evaluate.go`, `GetInputVariable` in the validate walk), marked sensitive
//! when the variable is declared `sensitive = true`. A mark then stays on whatever holds the
//! value: a tuple or object (hashicorp/hcl `hclsyntax/expression.go`), a template (its
//! `TemplateExpr` collects every part's marks, an unknown part's too), a comparison (cty's
//! `Equals` keeps the operands' marks, even unknown), a conditional whose condition is unknown
//! (`ConditionalExpr` combines the marks of the condition and of both results; a template's
//! `%{ if }` is one). Each is followed
//! only where it cannot fail: an error there (a tuple in a template, results of types that do
//! not unify, a null condition) stops the evaluation, and the mark with it.
//!
//! Left as unknown (`None`): function calls (`nonsensitive` drops the mark, `try` and `can` an
//! unknown argument's; others keep it only in some releases), arithmetic and logical operators
//! and `-`/`!` (before Terraform 1.12 an unknown operand's mark is lost there: go-cty's
//! `function.Call` returned early without it), `for` expressions and template directives,
//! conditionals on a known condition (before 1.12 only the chosen result's marks are kept),
//! traversals into a value, and references to anything but input variables and local values.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::lint::Context;
use crate::module::merge::AddressKey;
use crate::source::Span;
use crate::syntax::hcl::{self, TemplatePart};
use crate::syntax::{Expr, ExprKind, TraversalStep};

/// What validate knows of a value that the decision needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Value {
    pub(crate) sensitive: bool,
    pub(crate) shape: Shape,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Unknown, of any type: a variable without a type constraint, or `any`.
    Dynamic,
    /// A string, number or bool, known or not.
    Primitive { known: bool },
    /// Unknown, of a type with elements or attributes (a variable's `list(string)`).
    Structured,
    /// The literal `null`.
    Null,
    /// A tuple or object constructor: known, whatever its elements are.
    Collection,
}

impl Shape {
    fn known(self) -> bool {
        matches!(
            self,
            Shape::Primitive { known: true } | Shape::Null | Shape::Collection
        )
    }
}

/// How many local values, templates, operations and collections deep a value is followed;
/// beyond, and for a cycle of local values (the tools' own error), the answer is `None`.
const DEPTH: usize = 16;

/// Decides the values of one module's expressions, each local value's once: a local value
/// read many times, at any depth, is followed once, so that the work stays linear in the
/// module's size.
pub(crate) struct Evaluator<'c, 'a> {
    ctx: &'c Context<'a>,
    locals: RefCell<HashMap<&'c str, Option<Value>>>,
}

impl<'c, 'a> Evaluator<'c, 'a> {
    pub(crate) fn new(ctx: &'c Context<'a>) -> Self {
        Evaluator {
            ctx,
            locals: RefCell::default(),
        }
    }

    /// What validate knows of `expr`'s value, or `None` where that is not certain. `text` is
    /// what the expression's spans are offsets into: its file's text.
    pub(crate) fn value_of(&self, expr: &Expr, text: &str) -> Option<Value> {
        self.value(expr, text, DEPTH)
    }

    /// A local value's value, found once. One found short of depth is `None`, as it would be
    /// at any depth for a cycle: the answer only ever errs towards not reporting.
    fn local(&self, name: &str, depth: usize) -> Option<Value> {
        let local = self.ctx.module.local(name)?;
        let name: &'c str = &local.attribute.name;
        if let Some(found) = self.locals.borrow().get(name) {
            return *found;
        }
        let expr = &local.attribute.expr;
        let value = self
            .ctx
            .files
            .get(expr.span.file)
            .whole_text()
            .and_then(|text| self.value(expr, text, depth));
        self.locals.borrow_mut().insert(name, value);
        value
    }

    fn value(&self, expr: &Expr, text: &str, depth: usize) -> Option<Value> {
        let depth = depth.checked_sub(1)?;
        if let Some(string) = expr.json_string() {
            // A JSON string is a template (hashicorp/hcl `json/structure.go`), whose
            // expressions' spans are offsets into the string's value.
            let template = hcl::parse_value_template(string).ok()?;
            return self.template(&template.parts, string, depth);
        }
        let clean = |shape| {
            Some(Value {
                sensitive: false,
                shape,
            })
        };
        match &expr.kind {
            ExprKind::Null => clean(Shape::Null),
            ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::String(_) => {
                clean(Shape::Primitive { known: true })
            }
            ExprKind::Tuple(items) => self.collection(items.iter(), text, depth),
            ExprKind::Object(items) => {
                let plain_keys = items
                    .iter()
                    .all(|i| matches!(i.key.kind, ExprKind::String(_) | ExprKind::Variable(_)));
                plain_keys
                    .then(|| self.collection(items.iter().map(|i| &i.value), text, depth))
                    .flatten()
            }
            ExprKind::Parenthesis(inner) => self.value(inner, text, depth),
            ExprKind::Traversal { root, steps } => match (&root.kind, steps.as_slice()) {
                (ExprKind::Variable(root), [TraversalStep::Attr(name)]) if root == "var" => {
                    self.variable(name)
                }
                (ExprKind::Variable(root), [TraversalStep::Attr(name)]) if root == "local" => {
                    self.local(name, depth)
                }
                _ => None,
            },
            ExprKind::Template => {
                let parts = hcl::template_parts(expr.span.file, text, expr.span)?;
                self.template(&parts, text, depth)
            }
            ExprKind::Other => self.operation(&hcl::operation(text, expr.span)?, text, depth),
            ExprKind::Variable(_) | ExprKind::FunctionCall { .. } => None,
        }
    }

    /// A tuple or object of these elements: it keeps each element's mark.
    fn collection<'e>(
        &self,
        items: impl Iterator<Item = &'e Expr>,
        text: &str,
        depth: usize,
    ) -> Option<Value> {
        let mut sensitive = false;
        for item in items {
            sensitive |= self.value(item, text, depth)?.sensitive;
        }
        Some(Value {
            sensitive,
            shape: Shape::Collection,
        })
    }

    /// A template: a single interpolation is its value as it is (HCL's `TemplateWrapExpr`);
    /// otherwise every part is converted to a string, which a known null, tuple or object
    /// refuses (an unknown part is not converted: `TemplateExpr.Value` skips it).
    fn template(&self, parts: &[TemplatePart], text: &str, depth: usize) -> Option<Value> {
        if let [TemplatePart::Interpolation(only)] = parts {
            return self.value(only, text, depth);
        }
        let mut sensitive = false;
        let mut known = true;
        for part in parts {
            match part {
                TemplatePart::Literal(_) => {}
                TemplatePart::Interpolation(expr) => {
                    let value = self.value(expr, text, depth)?;
                    if matches!(value.shape, Shape::Null | Shape::Collection) {
                        return None;
                    }
                    sensitive |= value.sensitive;
                    known &= value.shape.known();
                }
                TemplatePart::Directive(span) => {
                    let value = self.if_directive(*span, text, depth)?;
                    sensitive |= value.sensitive;
                    known = false;
                }
            }
        }
        Some(Value {
            sensitive,
            shape: Shape::Primitive { known },
        })
    }

    /// A `%{ if }` directive, a conditional of its branches' templates (strings, which always
    /// unify): certainly sensitive when its condition is sensitive and unknown, whatever the
    /// branches hold (an error in a branch is dropped when the condition is unknown:
    /// `ConditionalExpr.Value`). A `for` directive, or another condition, is left unknown.
    fn if_directive(&self, span: Span, text: &str, depth: usize) -> Option<Value> {
        let condition = self.value(&hcl::if_condition(text, span)?, text, depth)?;
        let unknown = matches!(
            condition.shape,
            Shape::Dynamic | Shape::Primitive { known: false }
        );
        (unknown && condition.sensitive).then_some(Value {
            sensitive: true,
            shape: Shape::Primitive { known: false },
        })
    }

    /// Comparisons (`==`, `!=`) of variables and literals, and a conditional on such a
    /// condition when it is unknown.
    fn operation(&self, operation: &hcl::Operation, text: &str, depth: usize) -> Option<Value> {
        let condition = self.comparison(operation, text, depth)?;
        let Some((yes, no)) = operation.results.as_deref() else {
            return Some(condition);
        };
        let condition_unknown = matches!(
            condition.shape,
            Shape::Dynamic | Shape::Primitive { known: false }
        );
        if !condition_unknown {
            return None;
        }
        let (yes, no) = (self.value(yes, text, depth)?, self.value(no, text, depth)?);
        // Results whose types HCL unifies without an error ("Inconsistent conditional result
        // types"): a null or an unknown of any type goes with anything, primitives together.
        let unify = |a: Shape, b: Shape| {
            matches!(
                (a, b),
                (Shape::Null | Shape::Dynamic, _)
                    | (_, Shape::Null | Shape::Dynamic)
                    | (Shape::Primitive { .. }, Shape::Primitive { .. })
            )
        };
        unify(yes.shape, no.shape).then_some(Value {
            sensitive: condition.sensitive || yes.sensitive || no.sensitive,
            shape: if yes.shape == Shape::Dynamic || no.shape == Shape::Dynamic {
                Shape::Dynamic
            } else {
                Shape::Primitive { known: false }
            },
        })
    }

    /// The operands and operators before any `?`: one operand as it is, or operands each an
    /// input variable, a local value that is one, or a literal other than null (whose equality
    /// with an unknown value stays unknown: cty refines no root variable as not null), joined by
    /// `==` and `!=`.
    fn comparison(&self, operation: &hcl::Operation, text: &str, depth: usize) -> Option<Value> {
        if let [only] = operation.operands.as_slice() {
            return self.value(only, text, depth);
        }
        if !operation.operators.iter().all(|o| o == "==" || o == "!=") {
            return None;
        }
        let mut sensitive = false;
        let mut known = true;
        for operand in &operation.operands {
            let value = self.comparable(operand, text, depth)?;
            sensitive |= value.sensitive;
            known &= value.shape.known();
        }
        Some(Value {
            sensitive,
            shape: Shape::Primitive { known },
        })
    }

    /// An operand of a comparison: an input variable, or a literal other than null, maybe in
    /// parentheses or through local values.
    fn comparable(&self, expr: &Expr, text: &str, depth: usize) -> Option<Value> {
        let depth = depth.checked_sub(1)?;
        match &expr.kind {
            _ if expr.json_string().is_some() => None,
            ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::String(_) => {
                self.value(expr, text, depth)
            }
            ExprKind::Parenthesis(inner) => self.comparable(inner, text, depth),
            ExprKind::Traversal { root, steps } => match (&root.kind, steps.as_slice()) {
                (ExprKind::Variable(root), [TraversalStep::Attr(name)]) if root == "var" => {
                    self.variable(name)
                }
                (ExprKind::Variable(root), [TraversalStep::Attr(name)]) if root == "local" => {
                    let local = self.ctx.module.local(name)?;
                    let expr = &local.attribute.expr;
                    let text = self.ctx.files.get(expr.span.file).whole_text()?;
                    self.comparable(expr, text, depth)
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// An input variable's value at validate: unknown, of its type, marked when it is declared
    /// sensitive. `None` when it is undeclared (then the output is not evaluated), ephemeral
    /// (another error), or has both a type and a default (whose conversion may fail first), or
    /// when its `sensitive` is not a literal.
    fn variable(&self, name: &str) -> Option<Value> {
        let variable = self.ctx.module.object_named(AddressKey::Variable(name))?;
        let body = &variable.body;
        let type_expr = body.attribute("type").map(|a| &a.expr);
        if (type_expr.is_some() && body.attribute("default").is_some())
            || body.attribute("ephemeral").is_some()
        {
            return None;
        }
        let sensitive = match body.attribute("sensitive").map(|a| &a.expr.kind) {
            None | Some(ExprKind::Bool(false)) => false,
            Some(ExprKind::Bool(true)) => true,
            Some(_) => return None,
        };
        let shape = match type_expr.map(|t| t.keyword()) {
            None | Some(Some("any")) => Shape::Dynamic,
            Some(Some("string" | "number" | "bool")) => Shape::Primitive { known: false },
            Some(_) => Shape::Structured,
        };
        Some(Value { sensitive, shape })
    }
}
