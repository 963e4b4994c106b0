//! The references of the effective module: what each of its blocks uses, read from the reference
//! model of the one parse (`syntax::references`) through the merged attributes, so that an
//! override's expression counts where it wins and the base's it replaced does not.
//!
//! Only the arguments the tools evaluate are walked: those they read literally (a variable's
//! `type`, `depends_on`, `lifecycle` settings, ...; `knowledge::literal_arguments`) hold keywords
//! and static addresses rather than expressions. Inside a `dynamic` block's `content` and
//! `labels`, the iterator (the block's label, or its `iterator` argument) is bound: hashicorp/hcl
//! `ext/dynblock/expand_spec.go`.

use crate::knowledge::literal_arguments::LiteralIn;
use crate::syntax::Reference;

use super::merge::{MergedBody, Module};

/// A reference where the effective module evaluates it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Use<'m> {
    pub(crate) reference: &'m Reference,
    /// Whether a `dynamic` block's iterator binds its root (`ingress.value` in the `content` of
    /// `dynamic "ingress"`): it names no object of the module.
    pub(crate) iterator: bool,
    /// Whether it is in a `dynamic` block's `content` or `labels`, which the tools evaluate only
    /// for each element they expand it for (none, where `for_each` is unknown at `validate`).
    pub(crate) in_dynamic: bool,
    /// Whether the tools bind `self` here: in a resource's (or data source's) `provisioner`,
    /// `connection` and `postcondition` blocks, which `validate` evaluates with the resource's
    /// own instance as `self` (hashicorp/terraform `internal/terraform/node_resource_validate.go`:
    /// `evaluateBlock` and `validateCheckRules` pass `selfAddr` there, `nil` everywhere else).
    pub(crate) self_bound: bool,
}

/// Calls `f` with every reference the tools evaluate in `body`, the body of a block reached by
/// `path` (block kinds from the root of the file), nested blocks included, in order.
pub(crate) fn for_each_use<'m>(
    path: &[&'m str],
    body: &'m MergedBody,
    f: &mut impl FnMut(Use<'m>),
) {
    Uses::default().for_each(path, body, f);
}

/// The walk of [`for_each_use`] over many blocks of one module: what it learns of each path of
/// block kinds (which arguments the tools read literally there) serves every block after.
#[derive(Default)]
pub(crate) struct Uses<'m> {
    /// The literal arguments of each path met so far: a module has few distinct paths.
    literal: Vec<(Vec<&'m str>, LiteralIn)>,
}

impl<'m> Uses<'m> {
    /// [`for_each_use`].
    pub(crate) fn for_each(
        &mut self,
        path: &[&'m str],
        body: &'m MergedBody,
        f: &mut impl FnMut(Use<'m>),
    ) {
        let mut walk = Walk {
            path: path.to_vec(),
            iterators: Vec::new(),
            literal: &mut self.literal,
        };
        walk.body(body, f);
    }
}

/// The references each object of a module evaluates ([`for_each_use`] over each of its
/// `objects`), found in one walk: several rules read them all, and each walking the module
/// again cost more than their checks.
#[derive(Debug)]
pub(crate) struct ObjectUses<'m> {
    uses: Vec<Use<'m>>,
    /// Where each object's uses end in `uses`, by the object's index in `objects`.
    ends: Vec<usize>,
}

impl<'m> ObjectUses<'m> {
    pub(crate) fn of(module: &'m Module) -> ObjectUses<'m> {
        let mut walk = Uses::default();
        let mut uses = Vec::new();
        let mut ends = Vec::with_capacity(module.objects.len());
        for object in &module.objects {
            walk.for_each(&[object.kind()], &object.body, &mut |used| {
                uses.push(used);
            });
            ends.push(uses.len());
        }
        ObjectUses { uses, ends }
    }

    /// The uses of the object at `index` in the module's `objects`, in order.
    pub(crate) fn of_object(&self, index: usize) -> &[Use<'m>] {
        let start = index.checked_sub(1).map_or(0, |before| self.ends[before]);
        &self.uses[start..self.ends[index]]
    }
}

struct Walk<'m, 'c> {
    path: Vec<&'m str>,
    /// The iterator names of the `dynamic` blocks whose content is being walked.
    iterators: Vec<&'m str>,
    literal: &'c mut Vec<(Vec<&'m str>, LiteralIn)>,
}

impl<'m> Walk<'m, '_> {
    /// The literal arguments of the block at the current path.
    fn literal_here(&mut self) -> LiteralIn {
        if let Some((_, known)) = self.literal.iter().find(|(path, _)| *path == self.path) {
            return *known;
        }
        let found = LiteralIn::block(&self.path);
        self.literal.push((self.path.clone(), found));
        found
    }

    fn use_of(&self, reference: &'m Reference) -> Use<'m> {
        Use {
            reference,
            iterator: self.iterators.contains(&reference.root.as_str()),
            in_dynamic: !self.iterators.is_empty(),
            self_bound: self.self_bound(),
        }
    }

    /// Whether the block at the current path binds `self` ([`Use::self_bound`]).
    fn self_bound(&self) -> bool {
        matches!(
            self.path.first(),
            Some(&("resource" | "data" | "ephemeral"))
        ) && (self.path[1..].iter())
            .any(|kind| matches!(*kind, "provisioner" | "connection" | "postcondition"))
    }

    fn body(&mut self, body: &'m MergedBody, f: &mut impl FnMut(Use<'m>)) {
        // Which arguments the tools read literally is looked up only for a body with a
        // reference: most nested bodies hold literals only.
        let mut literal = None;
        let mut found = Vec::new();
        for attr in &body.attributes {
            attr.expr
                .for_each_reference(&mut |reference| found.push(reference));
            if found.is_empty() {
                continue;
            }
            let literal = *literal.get_or_insert_with(|| self.literal_here());
            if !literal.reads_literally(attr.name()) {
                found
                    .iter()
                    .for_each(|&reference| f(self.use_of(reference)));
            }
            found.clear();
        }
        for block in &body.blocks {
            match (block.kind.as_str(), block.label(0)) {
                ("dynamic", Some(kind)) => self.dynamic(kind, &block.body, f),
                _ => {
                    self.path.push(&block.kind);
                    self.body(&block.body, f);
                    self.path.pop();
                }
            }
        }
    }

    /// A `dynamic "KIND"` block: `for_each` in the enclosing scope; `labels` and `content`
    /// (a body of a `KIND` block) with the iterator bound. `iterator` names it: not a reference.
    fn dynamic(&mut self, kind: &'m str, body: &'m MergedBody, f: &mut impl FnMut(Use<'m>)) {
        // In the enclosing scope: an enclosing `dynamic` block's iterator, not this one's.
        if let Some(for_each) = body.attribute("for_each") {
            (for_each.expr).for_each_reference(&mut |reference| f(self.use_of(reference)));
        }
        let iterator = body
            .attribute("iterator")
            .and_then(|a| a.expr.keyword())
            .unwrap_or(kind);
        self.iterators.push(iterator);
        if let Some(labels) = body.attribute("labels") {
            (labels.expr).for_each_reference(&mut |reference| f(self.use_of(reference)));
        }
        self.path.push(kind);
        for content in body.blocks_of("content") {
            self.body(&content.body, f);
        }
        self.path.pop();
        self.iterators.pop();
    }
}
