//! Each `type` expression of a directory parsed once. Both views' merges decode every variable
//! (Terraform's and OpenTofu's loaders both parse its type), and the `type_constraint` check
//! reads every `type` of each view again: four parses of the same expression, 4% of a lint
//! run's instructions.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use crate::syntax::Expr;

use super::{Type, parse_type};

/// The `type` expressions parsed so far, by expression. The syntax trees share each expression
/// (`Arc`) with both views' merged modules, so one expression is one entry.
#[derive(Debug, Default)]
pub(crate) struct ParsedTypes {
    /// Keyed by the expression's address. The entry holds the `Arc` too: while the memo lives,
    /// that address cannot be freed and given to another expression.
    parsed: RefCell<foldhash::HashMap<*const Expr, Parsed>>,
}

#[derive(Debug)]
struct Parsed {
    _expr: Arc<Expr>,
    /// What the tools take the type to be: `any` when they reject it.
    ty: Rc<Type>,
    /// Why the tools reject it, if they do.
    error: Option<String>,
}

impl ParsedTypes {
    /// The type `expr` constrains a value to, as the tools take it: `any` when they reject it
    /// (they report that on its own).
    pub(crate) fn type_of(&self, expr: &Arc<Expr>) -> Rc<Type> {
        self.with_parsed(expr, |parsed| Rc::clone(&parsed.ty))
    }

    /// Why the tools reject `expr` as a type constraint (their detail), if they do.
    pub(crate) fn error_of(&self, expr: &Arc<Expr>) -> Option<String> {
        self.with_parsed(expr, |parsed| parsed.error.clone())
    }

    fn with_parsed<R>(&self, expr: &Arc<Expr>, read: impl FnOnce(&Parsed) -> R) -> R {
        let key = Arc::as_ptr(expr);
        if let Some(parsed) = self.parsed.borrow().get(&key) {
            return read(parsed);
        }
        let (ty, error) = match parse_type(expr) {
            Ok(ty) => (ty, None),
            Err(error) => (Type::Any, Some(error)),
        };
        let parsed = Parsed {
            _expr: Arc::clone(expr),
            ty: Rc::new(ty),
            error,
        };
        let answer = read(&parsed);
        self.parsed.borrow_mut().insert(key, parsed);
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{FileId, Span};
    use crate::syntax::native;

    fn type_expr(text: &str) -> Arc<Expr> {
        let expr = native::parse_expr_at(text, Span::new(FileId(0), 0..0)).expect("an expression");
        Arc::new(expr)
    }

    #[test]
    fn each_expression_is_parsed_once_and_answers_alike() {
        let types = ParsedTypes::default();
        let (list, wrong) = (type_expr("list(string)"), type_expr("notatype"));
        let first = types.type_of(&list);
        assert_eq!(*first, Type::List(Box::new(Type::String)));
        assert!(Rc::ptr_eq(&first, &types.type_of(&list)), "parsed again");
        assert_eq!(types.error_of(&list), None);
        assert_eq!(*types.type_of(&wrong), Type::Any);
        assert_eq!(types.error_of(&wrong), parse_type(&wrong).err());
        assert!(types.error_of(&wrong).is_some());
    }

    #[test]
    fn equal_expressions_apart_are_parsed_apart() {
        // Two files may hold the same text; each expression has its own entry (and its own
        // spans in the diagnostics made from it).
        let types = ParsedTypes::default();
        let (a, b) = (type_expr("string"), type_expr("string"));
        assert!(!Rc::ptr_eq(&types.type_of(&a), &types.type_of(&b)));
    }
}
