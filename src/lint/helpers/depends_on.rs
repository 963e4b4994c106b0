//! The elements of the `depends_on` lists of the effective module, read as `validate` reads them
//! (hashicorp/terraform `internal/addrs/parse_ref.go`, `ParseRef`): the address of an object,
//! then what remains of the traversal. Only the whole object may be named there.

use std::borrow::Cow;

use crate::lint::helpers::declared::RESERVED_ROOTS;
use crate::module::merge::{MergedObject, Module};
use crate::source::{SourceFiles, Span};
use crate::syntax::{Expr, ExprKind, Reference, ReferenceStep};

/// One element of a `depends_on` list.
pub(crate) enum Element<'m> {
    /// The address of an object and nothing more: `aws_instance.a`, `module.m`, `var.x`.
    /// Borrowed from the expression, or read from a JSON string.
    Whole(Cow<'m, Reference>),
    /// An address and more (`aws_instance.a.id`, `local.z[0]`): "Invalid depends_on reference"
    /// at `rest`, the part after the address.
    Part {
        /// The object's address, as the tools print it: what the element should have named.
        address: String,
        rest: Span,
    },
    /// What this static reading does not judge: a string that is not a traversal, a computed
    /// index, a root the tools reserve.
    Other,
}

/// Calls `f` with each object of `module` that has a `depends_on` list, and its elements in
/// order.
pub(crate) fn for_each_list<'m>(
    module: &'m Module,
    files: &SourceFiles,
    f: &mut impl FnMut(&'m MergedObject, Vec<Element<'m>>),
) {
    for object in &module.objects {
        let Some(depends_on) = object.body.attribute("depends_on") else {
            continue;
        };
        let ExprKind::Tuple(items) = &depends_on.expr.kind else {
            continue;
        };
        f(
            object,
            items.iter().map(|item| element(item, files)).collect(),
        );
    }
}

fn element<'m>(item: &'m Expr, files: &SourceFiles) -> Element<'m> {
    if let Some(text) = item.json_string() {
        return string_element(text, item.span);
    }
    if !matches!(
        item.kind,
        ExprKind::Traversal { .. } | ExprKind::Variable(_)
    ) {
        return Element::Other;
    }
    let mut only = None;
    let mut count = 0;
    item.for_each_reference(&mut |reference| {
        only = Some(reference);
        count += 1;
    });
    let Some(reference) = only.filter(|_| count == 1) else {
        return Element::Other;
    };
    // A step that is not static (a computed index) ends the reference before the element does.
    if reference.span != item.span {
        return Element::Other;
    }
    let Some(address) = address_steps(reference) else {
        return Element::Other;
    };
    if reference.steps.len() == address {
        return Element::Whole(Cow::Borrowed(reference));
    }
    // Where the rest starts: the length of the address as the tools print it, when the source
    // writes the reference that way (no blanks, no legacy `.0` index); else the whole element.
    let mut whole = reference.clone();
    whole.steps.truncate(address);
    let address = whole.text();
    let rest = match files.text(reference.span) == reference.text() {
        true => Span {
            start: reference.span.start + address.len() as u32,
            ..reference.span
        },
        false => reference.span,
    };
    Element::Part { address, rest }
}

/// A JSON string element, which the tools read as the text of a traversal
/// (`hcl.AbsTraversalForExpr` in `internal/configs/depends_on.go`). Found at the whole string:
/// where its text lies in the file is not followed through JSON escapes.
fn string_element(text: &str, span: Span) -> Element<'static> {
    let Some(reference) = traversal(text, span) else {
        return Element::Other;
    };
    let Some(address) = address_steps(&reference) else {
        return Element::Other;
    };
    if reference.steps.len() == address {
        return Element::Whole(Cow::Owned(reference));
    }
    let mut whole = reference;
    whole.steps.truncate(address);
    Element::Part {
        address: whole.text(),
        rest: span,
    }
}

/// `root.name[0]["key"]...` read from `text`, or `None` where it is not only that.
fn traversal(text: &str, span: Span) -> Option<Reference> {
    let name_end = |s: &str| {
        s.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(s.len())
    };
    let end = name_end(text);
    let root = &text[..end];
    if root.is_empty() || root.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        return None;
    }
    let mut rest = &text[end..];
    let mut steps = Vec::new();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            let end = name_end(after);
            let name = &after[..end];
            if name.is_empty() {
                return None;
            }
            steps.push(match name.bytes().all(|b| b.is_ascii_digit()) {
                true => ReferenceStep::Index(name.to_string()), // the legacy `.0`
                false => ReferenceStep::Attr(name.to_string()),
            });
            rest = &after[end..];
        } else if let Some(after) = rest.strip_prefix('[') {
            let close = after.find(']')?;
            let key = &after[..close];
            let number = !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit());
            let string = key.len() >= 2
                && key.starts_with('"')
                && key.ends_with('"')
                && !key[1..key.len() - 1].contains(['"', '\\', '$', '%']);
            if !(number || string) {
                return None;
            }
            steps.push(ReferenceStep::Index(key.to_string()));
            rest = &after[close + 1..];
        } else {
            return None;
        }
    }
    Some(Reference {
        root: root.to_string(),
        steps,
        span,
    })
}

/// How many steps after the root make the address of the object a reference names, or `None`
/// where it names nothing a `depends_on` list is judged for.
fn address_steps(reference: &Reference) -> Option<usize> {
    let steps = &reference.steps;
    let attr = |i: usize| matches!(steps.get(i), Some(ReferenceStep::Attr(_)));
    let index = |i: usize| matches!(steps.get(i), Some(ReferenceStep::Index(_)));
    match reference.root.as_str() {
        "var" | "local" => attr(0).then_some(1),
        // `module.m`, `module.m[0]`, and an output of it: `module.m.out`.
        "module" => {
            if !attr(0) {
                return None;
            }
            let mut n = 1 + usize::from(index(1));
            n += usize::from(attr(n));
            Some(n)
        }
        "data" | "ephemeral" => (attr(0) && attr(1)).then(|| 2 + usize::from(index(2))),
        root if !RESERVED_ROOTS.contains(&root) && root.contains('_') => {
            attr(0).then(|| 1 + usize::from(index(1)))
        }
        _ => None,
    }
}
