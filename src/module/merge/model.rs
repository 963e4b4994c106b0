//! The effective module: what a tool runs once override files are merged, with provenance.

use std::fmt;
use std::hash::BuildHasher as _;
use std::sync::Arc;

use crate::knowledge::View;
use crate::source::Span;
use crate::syntax::{Attribute, Block, Body, Labels};

use super::events::Event;

/// Where a merged attribute or block came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A primary file.
    Base,
    /// An override file.
    Override,
}

/// The identity of a mergeable top-level object.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Address {
    /// `resource`, `data` or `ephemeral` (the block type), resource type, name.
    Resource(String, String, String),
    Variable(String),
    Output(String),
    ModuleCall(String),
    /// Provider name and alias (`None` for the default configuration).
    Provider(String, Option<String>),
    Check(String),
}

/// An [`Address`] borrowed: what looking an object up by its names takes, without a copy of
/// them (see [`Module::object_named`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddressKey<'a> {
    Resource(&'a str, &'a str, &'a str),
    Variable(&'a str),
    Output(&'a str),
    ModuleCall(&'a str),
    Provider(&'a str, Option<&'a str>),
    Check(&'a str),
}

impl Address {
    /// The address, borrowed.
    pub fn key(&self) -> AddressKey<'_> {
        match self {
            Address::Resource(mode, ty, name) => AddressKey::Resource(mode, ty, name),
            Address::Variable(name) => AddressKey::Variable(name),
            Address::Output(name) => AddressKey::Output(name),
            Address::ModuleCall(name) => AddressKey::ModuleCall(name),
            Address::Provider(name, alias) => AddressKey::Provider(name, alias.as_deref()),
            Address::Check(name) => AddressKey::Check(name),
        }
    }
}

/// Hashed as its [`AddressKey`], so that the index of a module's objects finds one by a
/// borrowed address as by an owned one.
impl std::hash::Hash for Address {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl fmt::Display for Address {
    /// `resource.T.N`, `variable.N`, `provider.P.ALIAS`... as in the conformance cases.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Address::Resource(mode, ty, name) => write!(f, "{mode}.{ty}.{name}"),
            Address::Variable(name) => write!(f, "variable.{name}"),
            Address::Output(name) => write!(f, "output.{name}"),
            Address::ModuleCall(name) => write!(f, "module.{name}"),
            Address::Provider(name, None) => write!(f, "provider.{name}"),
            Address::Provider(name, Some(alias)) => write!(f, "provider.{name}.{alias}"),
            Address::Check(name) => write!(f, "check.{name}"),
        }
    }
}

impl Address {
    /// How users name the object in prose: ``resource `aws_instance.web` ``.
    pub fn describe(&self) -> String {
        match self {
            Address::Resource(mode, ty, name) => {
                let kind = match mode.as_str() {
                    "data" => "data source",
                    "ephemeral" => "ephemeral resource",
                    "action" => "action",
                    _ => "resource",
                };
                format!("{kind} `{ty}.{name}`")
            }
            Address::Variable(name) => format!("variable `{name}`"),
            Address::Output(name) => format!("output `{name}`"),
            Address::ModuleCall(name) => format!("module call `{name}`"),
            Address::Provider(name, None) => format!("provider `{name}`"),
            Address::Provider(name, Some(alias)) => format!("provider `{name}.{alias}`"),
            Address::Check(name) => format!("check `{name}`"),
        }
    }
}

/// An attribute of the effective module: the attribute as written (its name, name span and
/// expression, through `Deref`), where it came from, and what it replaced.
#[derive(Debug, Clone)]
pub struct MergedAttribute {
    /// Shared with the syntax tree and the other view's module.
    written: Arc<Attribute>,
    pub origin: Origin,
    /// The attribute this one replaced (name through expression), if any.
    pub replaced: Option<Span>,
}

impl std::ops::Deref for MergedAttribute {
    type Target = Attribute;

    fn deref(&self) -> &Attribute {
        &self.written
    }
}

impl MergedAttribute {
    pub fn name(&self) -> &str {
        &self.written.name
    }

    pub fn name_span(&self) -> Span {
        self.written.name_span
    }

    /// From the start of the name to the end of the expression.
    pub fn span(&self) -> Span {
        self.written.span()
    }

    /// The span of the value expression.
    pub fn value_span(&self) -> Span {
        self.expr.span
    }

    pub(crate) fn from_syntax(attr: &Arc<Attribute>, origin: Origin) -> MergedAttribute {
        MergedAttribute {
            written: Arc::clone(attr),
            origin,
            replaced: None,
        }
    }

    /// The attribute as written, shared with the syntax tree.
    pub(crate) fn written(&self) -> &Arc<Attribute> {
        &self.written
    }
}

/// A nested block of the effective module.
#[derive(Debug, Clone)]
pub struct MergedBlock {
    pub kind: String,
    pub(crate) labels: Labels,
    pub header_span: Span,
    pub body_span: Span,
    pub body: MergedBody,
    pub origin: Origin,
}

impl MergedBlock {
    pub(crate) fn from_syntax(block: &Block, origin: Origin) -> MergedBlock {
        MergedBlock {
            kind: block.kind.clone(),
            labels: block.labels.clone(),
            header_span: block.header_span,
            body_span: block.body_span,
            body: MergedBody::from_syntax(&block.body, origin),
            origin,
        }
    }

    pub fn label(&self, index: usize) -> Option<&str> {
        self.labels.get(index).map(|l| l.value.as_str())
    }

    /// The block type this block stands for: `T` for both `T {}` and `dynamic "T" {}`.
    pub fn effective_kind(&self) -> &str {
        if self.kind == "dynamic" {
            self.label(0).unwrap_or("dynamic")
        } else {
            &self.kind
        }
    }
}

/// A body of the effective module.
#[derive(Debug, Clone, Default)]
pub struct MergedBody {
    pub attributes: Vec<MergedAttribute>,
    pub blocks: Vec<MergedBlock>,
}

impl MergedBody {
    pub(crate) fn from_syntax(body: &Body, origin: Origin) -> MergedBody {
        MergedBody {
            attributes: body
                .attributes
                .iter()
                .map(|a| MergedAttribute::from_syntax(a, origin))
                .collect(),
            blocks: body
                .blocks
                .iter()
                .map(|b| MergedBlock::from_syntax(b, origin))
                .collect(),
        }
    }

    /// The last attribute of that name.
    pub fn attribute(&self, name: &str) -> Option<&MergedAttribute> {
        self.attributes.iter().rev().find(|a| a.name == name)
    }

    pub fn blocks_of<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a MergedBlock> + 'a {
        self.blocks.iter().filter(move |b| b.kind == kind)
    }
}

/// A top-level object (resource, variable, provider configuration...) after merging.
#[derive(Debug, Clone)]
pub struct MergedObject {
    pub address: Address,
    /// The top-level block's labels as the base file wrote them (its type is the address's:
    /// see [`MergedObject::kind`]).
    pub(crate) labels: Labels,
    /// The base definition's header (or the first override's, for an un-aliased provider that
    /// only an override defines).
    pub base_header: Span,
    pub base_span: Span,
    /// Headers of the override blocks merged into it, in the order they were applied.
    pub overrides: Vec<Span>,
    pub body: MergedBody,
    /// For a variable: its default as the tools hold it after merging, in native syntax, where
    /// the `default` expression decoded with the merged type would not give that value (an
    /// override changed the type, so the base's conversion or `optional()` defaults matter).
    pub(crate) default_value: Option<Box<str>>,
}

impl MergedObject {
    /// The top-level block's type: the address says it (only these types merge), so it is
    /// not kept beside it, in each view, for every object.
    pub fn kind(&self) -> &str {
        match &self.address {
            Address::Resource(mode, ..) => mode,
            Address::Variable(_) => "variable",
            Address::Output(_) => "output",
            Address::ModuleCall(_) => "module",
            Address::Provider(..) => "provider",
            Address::Check(_) => "check",
        }
    }

    /// An object defined by `block`; an override-defined object lists itself as its override.
    pub(crate) fn from_block(
        address: Address,
        block: &crate::syntax::Block,
        origin: Origin,
    ) -> MergedObject {
        MergedObject {
            address,
            labels: block.labels.clone(),
            base_header: block.header_span,
            base_span: block.span(),
            overrides: match origin {
                Origin::Base => Vec::new(),
                Origin::Override => vec![block.header_span],
            },
            body: MergedBody::from_syntax(&block.body, origin),
            default_value: None,
        }
    }
}

/// A local value after merging.
#[derive(Debug, Clone)]
pub struct MergedLocal {
    pub attribute: MergedAttribute,
    /// The name of the primary file's declaration: where the local comes from, whichever
    /// override file set its value last.
    pub declared: Span,
}

/// The settings of the `terraform` blocks, merged.
#[derive(Debug, Clone, Default)]
pub struct TerraformSettings {
    /// Every `terraform` block that contributed, primaries first.
    pub blocks: Vec<Span>,
    /// The `required_version` constraints in force for this tool.
    pub required_version: Vec<MergedAttribute>,
    /// `required_providers` entries by local name, in first-definition order.
    pub required_providers: Vec<MergedAttribute>,
    pub backend: Option<MergedBlock>,
    pub cloud: Option<MergedBlock>,
    /// Everything else (`experiments`, `provider_meta`, `encryption`...).
    pub other: MergedBody,
}

/// The effective module of one directory for one tool.
#[derive(Debug, Clone)]
pub struct Module {
    pub view: View,
    pub objects: Vec<MergedObject>,
    pub(super) index: ObjectIndex,
    pub locals: Vec<MergedLocal>,
    pub(super) local_index: LocalIndex,
    pub terraform: TerraformSettings,
    /// Top-level blocks that are not merged (`moved`, `import`, `removed`, `check`, `language`,
    /// unknown types), from primary files, in load order.
    pub unmerged: Vec<MergedBlock>,
    /// What the merge did, for rules to judge.
    pub events: Vec<Event>,
}

impl Module {
    pub fn new(view: View) -> Module {
        Module {
            view,
            objects: Vec::new(),
            index: ObjectIndex::default(),
            locals: Vec::new(),
            local_index: LocalIndex::default(),
            terraform: TerraformSettings::default(),
            unmerged: Vec::new(),
            events: Vec::new(),
        }
    }

    pub fn object(&self, address: &Address) -> Option<&MergedObject> {
        self.object_named(address.key())
    }

    /// The object at a borrowed address: a lookup by names read elsewhere (a reference's)
    /// copies none of them.
    pub fn object_named(&self, key: AddressKey) -> Option<&MergedObject> {
        (self.index.get(&self.objects, key)).map(|i| &self.objects[i])
    }

    pub fn local(&self, name: &str) -> Option<&MergedLocal> {
        (self.local_index.get(&self.locals, name)).map(|i| &self.locals[i])
    }
}

/// A module's local values by name: their positions in [`Module::locals`], each with its
/// name's hash. The names are read from the locals themselves, not copied into the index; the
/// hashes kept beside the positions let the table grow without reading every name again.
#[derive(Debug, Clone, Default)]
pub(super) struct LocalIndex {
    positions: hashbrown::HashTable<(u64, usize)>,
    hasher: foldhash::fast::RandomState,
}

impl LocalIndex {
    /// Room for `more` locals.
    pub(super) fn reserve(&mut self, more: usize) {
        (self.positions).reserve(more, |&(hash, _)| hash);
    }

    /// The position of the local named `name`.
    pub(super) fn get(&self, locals: &[MergedLocal], name: &str) -> Option<usize> {
        let hash = self.hasher.hash_one(name);
        (self.positions)
            .find(hash, |&(h, i)| {
                h == hash && locals[i].attribute.name == name
            })
            .map(|&(_, i)| i)
    }

    /// Indexes `locals[position]`, whose name no other local of the index has.
    pub(super) fn insert(&mut self, locals: &[MergedLocal], position: usize) {
        let hash = self
            .hasher
            .hash_one(locals[position].attribute.name.as_str());
        (self.positions).insert_unique(hash, (hash, position), |&(hash, _)| hash);
    }
}

/// A module's objects by address: their positions in [`Module::objects`], each hashed by the
/// address the object holds, rather than a map keyed by a copy of every address (its strings
/// allocated again, per view, for every object of the module).
#[derive(Debug, Clone, Default)]
pub(super) struct ObjectIndex {
    positions: hashbrown::HashTable<usize>,
    hasher: foldhash::fast::RandomState,
}

impl ObjectIndex {
    /// Room for `more` objects.
    pub(super) fn reserve(&mut self, objects: &[MergedObject], more: usize) {
        let hasher = &self.hasher;
        (self.positions).reserve(more, |&i| hasher.hash_one(&objects[i].address));
    }

    /// The position of the object at `address`.
    pub(super) fn get(&self, objects: &[MergedObject], address: AddressKey) -> Option<usize> {
        let hash = self.hasher.hash_one(address);
        (self.positions)
            .find(hash, |&i| objects[i].address.key() == address)
            .copied()
    }

    /// Indexes `objects[position]`, whose address no other object of the index has.
    pub(super) fn insert(&mut self, objects: &[MergedObject], position: usize) {
        let hasher = &self.hasher;
        let hash = hasher.hash_one(&objects[position].address);
        (self.positions).insert_unique(hash, position, |&i| hasher.hash_one(&objects[i].address));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index finds an object by a borrowed address only if both hash alike.
    #[test]
    fn an_address_hashes_as_its_key() {
        let s = |text: &str| text.to_string();
        let addresses = [
            Address::Resource(s("data"), s("aws_ami"), s("a")),
            Address::Variable(s("v")),
            Address::Output(s("v")),
            Address::ModuleCall(s("v")),
            Address::Provider(s("aws"), None),
            Address::Provider(s("aws"), Some(s("west"))),
            Address::Check(s("v")),
        ];
        let hasher = foldhash::fast::RandomState::default();
        for address in &addresses {
            assert_eq!(hasher.hash_one(address), hasher.hash_one(address.key()));
        }
        // Alike names of different kinds stay apart.
        assert_ne!(addresses[1].key(), addresses[2].key());
    }
}
