//! Each `type` argument of a directory parsed once. Both views' merges decode every variable
//! (Terraform's and OpenTofu's loaders both parse its type), and the `type_constraint` check
//! reads every `type` of each view again: without this cache, four parses of the same
//! expression.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use crate::syntax::Attribute;

use super::{Type, parse_type};

/// The `type` arguments parsed so far, by attribute. The syntax trees share each attribute
/// (`Arc`) with both views' merged modules, so one attribute is one entry.
#[derive(Debug, Default)]
pub(crate) struct ParsedTypes {
    /// Keyed by the attribute's address. The entry holds the `Arc` too: while the memo lives,
    /// that address cannot be freed and given to another attribute.
    parsed: RefCell<foldhash::HashMap<*const Attribute, Parsed>>,
}

#[derive(Debug)]
struct Parsed {
    _attribute: Arc<Attribute>,
    /// What the tools take the type to be: `any` when they reject it.
    ty: Rc<Type>,
    /// Why the tools reject it, if they do.
    error: Option<String>,
}

impl ParsedTypes {
    /// The type the `type` argument `attribute` constrains a value to, as the tools take it:
    /// `any` when they reject it (they report that on its own).
    pub(crate) fn type_of(&self, attribute: &Arc<Attribute>) -> Rc<Type> {
        self.with_parsed(attribute, |parsed| Rc::clone(&parsed.ty))
    }

    /// Why the tools reject the `type` argument `attribute` (their detail), if they do.
    pub(crate) fn error_of(&self, attribute: &Arc<Attribute>) -> Option<String> {
        self.with_parsed(attribute, |parsed| parsed.error.clone())
    }

    fn with_parsed<R>(&self, attribute: &Arc<Attribute>, read: impl FnOnce(&Parsed) -> R) -> R {
        let key = Arc::as_ptr(attribute);
        if let Some(parsed) = self.parsed.borrow().get(&key) {
            return read(parsed);
        }
        let (ty, error) = match parse_type(&attribute.expr) {
            Ok(ty) => (ty, None),
            Err(error) => (Type::Any, Some(error)),
        };
        let parsed = Parsed {
            _attribute: Arc::clone(attribute),
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

    fn type_argument(text: &str) -> Arc<Attribute> {
        let span = Span::new(FileId(0), 0..0);
        let expr = native::parse_expr_at(text, span).expect("an expression");
        Arc::new(Attribute {
            name: "type".into(),
            name_span: span,
            expr,
        })
    }

    #[test]
    fn each_argument_is_parsed_once_and_answers_alike() {
        let types = ParsedTypes::default();
        let (list, wrong) = (type_argument("list(string)"), type_argument("notatype"));
        let first = types.type_of(&list);
        assert_eq!(*first, Type::List(Box::new(Type::String)));
        assert!(Rc::ptr_eq(&first, &types.type_of(&list)), "parsed again");
        assert_eq!(types.error_of(&list), None);
        assert_eq!(*types.type_of(&wrong), Type::Any);
        assert_eq!(types.error_of(&wrong), parse_type(&wrong.expr).err());
        assert!(types.error_of(&wrong).is_some());
    }

    #[test]
    fn equal_arguments_apart_are_parsed_apart() {
        // Two files may hold the same text; each argument has its own entry (and its own spans
        // in the diagnostics made from it).
        let types = ParsedTypes::default();
        let (a, b) = (type_argument("string"), type_argument("string"));
        assert!(!Rc::ptr_eq(&types.type_of(&a), &types.type_of(&b)));
    }
}
