//! The elements of the `depends_on` lists of the effective module, read as `validate` reads them
//! (hashicorp/terraform `internal/addrs/parse_ref.go`, `ParseRef`): the address of an object,
//! then what remains of the traversal. Only the whole object may be named there.

use crate::lint::helpers::declared::RESERVED_ROOTS;
use crate::module::merge::{MergedObject, Module};
use crate::source::{SourceFiles, Span};
use crate::syntax::{Expr, ExprKind, Reference, ReferenceStep};

/// One element of a `depends_on` list.
pub(crate) enum Element<'m> {
    /// The address of an object and nothing more: `aws_instance.a`, `module.m`, `var.x`.
    Whole(&'m Reference),
    /// An address and more (`aws_instance.a.id`, `local.z[0]`): "Invalid depends_on reference"
    /// at `rest`, the part after the address.
    Part {
        /// The object's address, as the tools print it: what the element should have named.
        address: String,
        rest: Span,
    },
    /// What this static reading does not judge: a string (JSON), a computed index, a root the
    /// tools reserve.
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
        return Element::Whole(reference);
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
