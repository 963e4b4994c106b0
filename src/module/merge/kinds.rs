//! Appending primary blocks and merging override blocks, kind by kind (hashicorp/terraform
//! `internal/configs/module.go`, `appendFile` and `mergeFile`, and `module_merge.go`).

use crate::source::Span;
use crate::syntax::{Block, ExprKind, Labels};

use super::body::Handling;
use super::events::{Event, Subject};
use super::model::{
    Address, MergedAttribute, MergedBlock, MergedBody, MergedLocal, MergedObject, Origin,
};
use super::problems::{DependsOn, DependsOnOverride, MergeProblem};
use super::{LoadedFile, Merger};

/// Why Terraform drops `deprecated` from variable and output overrides.
const DEPRECATED_IS_OPENTOFUS: &str =
    "`deprecated` is an OpenTofu argument: Terraform does not merge it";

impl Merger<'_> {
    /// Appends a primary file's blocks; a second definition of an object is an error.
    pub(super) fn add_primary_file(&mut self, loaded: LoadedFile) {
        for block in &loaded.file.body.blocks {
            if self.labels_refused(block) {
                continue;
            }
            let block = &*self.decoded(block);
            match block.kind.as_str() {
                "locals" => self.add_primary_locals(block),
                "terraform" => self.add_primary_terraform(block, loaded.extension),
                "check" => {
                    // Terraform drops a check whose data source is a duplicate: a later check
                    // of the same name is then no duplicate (`appendFile`, `continue`).
                    if self.add_check_data(block, &loaded.file.body.blocks) {
                        self.add_primary_object(block);
                    }
                }
                _ => self.add_primary_object(block),
            }
        }
    }

    /// The address a top-level block defines, if it is a mergeable kind with the right labels.
    fn address_of(&self, block: &Block) -> Option<Address> {
        let kind = block.kind.as_str();
        match kind {
            // Terraform merges `action` blocks (1.14 and later) like resources; OpenTofu has none.
            "resource" | "data" | "ephemeral" | "action"
                if kind != "action" || self.is_terraform() =>
            {
                let l = self.labels_of(block, 2)?;
                Some(Address::Resource(
                    kind.to_string(),
                    l[0].to_string(),
                    l[1].to_string(),
                ))
            }
            "variable" => Some(Address::Variable(self.labels_of(block, 1)?[0].to_string())),
            "output" => Some(Address::Output(self.labels_of(block, 1)?[0].to_string())),
            "module" => Some(Address::ModuleCall(
                self.labels_of(block, 1)?[0].to_string(),
            )),
            "check" => Some(Address::Check(self.labels_of(block, 1)?[0].to_string())),
            "provider" => {
                let name = self.labels_of(block, 1)?[0].to_string();
                let alias = block
                    .body
                    .attribute("alias")
                    .and_then(|a| a.expr.literal_string().or_else(|| a.expr.keyword()))
                    .map(str::to_string);
                Some(Address::Provider(name, alias))
            }
            _ => None,
        }
    }

    fn add_primary_object(&mut self, block: &Block) {
        let Some(address) = self.address_of(block) else {
            self.module
                .unmerged
                .push(MergedBlock::from_syntax(block, Origin::Base));
            return;
        };
        // A data resource after a check's data source of the same address, in a later file:
        // Terraform refuses it at its own header and keeps the check's (`appendFile`,
        // `continue`), which references then find.
        if let Some(&first) = self.check_data.get(&address) {
            self.report(MergeProblem::DuplicateCheckData {
                address,
                again: block.def_range(self.files),
                first,
            });
            return;
        }
        let module = &mut self.module;
        let Some(existing) = module.index.get(&module.objects, address.key()) else {
            (module.objects).push(MergedObject::from_block(address, block, Origin::Base));
            (module.index).insert(&module.objects, module.objects.len() - 1);
            return;
        };
        // Defined again.
        let object = MergedObject::from_block(address, block, Origin::Base);
        let address = &object.address;
        let first = self.module.objects[existing].base_header;
        self.report(MergeProblem::DuplicateObject {
            address: address.clone(),
            again: block.def_range(self.files),
            again_header: block.header_span,
            first,
        });
        // Which definition the tool keeps only matters for what it reports next.
        if matches!(
            address,
            Address::Variable(_) | Address::Output(_) | Address::ModuleCall(_)
        ) {
            self.module.objects[existing] = object;
        }
    }

    /// A `check` block's data source shares the data namespace of the module. Terraform reads
    /// only a check's first `data` block (a second is "Multiple data resource blocks") and
    /// appends a file's checks after its data resources, so the check's data source is a
    /// duplicate of one declared earlier or anywhere in the same file (`internal/configs/
    /// checks.go`, `decodeCheckBlock`; `module.go`, `appendFile`). Returns whether the check is
    /// kept: Terraform drops a check whose data source is a duplicate.
    fn add_check_data(&mut self, check: &Block, file_blocks: &[Block]) -> bool {
        let Some(data) = check.body.blocks_of("data").next() else {
            return true;
        };
        let Some(address @ Address::Resource(..)) = self.address_of(data) else {
            return true;
        };
        let first = self
            .module
            .index
            .get(&self.module.objects, address.key())
            .map(|i| self.module.objects[i].base_header)
            .or_else(|| self.check_data.get(&address).copied())
            .or_else(|| {
                file_blocks
                    .iter()
                    .filter(|b| b.kind == "data")
                    .find(|b| self.address_of(b).as_ref() == Some(&address))
                    .map(|b| b.header_span)
            });
        match first {
            Some(first) => {
                let again = data.def_range(self.files);
                self.report(MergeProblem::DuplicateCheckData {
                    address,
                    again,
                    first,
                });
                false
            }
            None => {
                self.check_data.insert(address, data.header_span);
                true
            }
        }
    }

    fn add_primary_locals(&mut self, block: &Block) {
        // A block's attributes are within its body (in JSON, a block's header may be a key
        // that several blocks share: `"locals": [{...}, {...}]`).
        let within_block = |span: Span| {
            let body = block.body_span;
            span.file == body.file && body.start <= span.start && span.end <= body.end
        };
        // Sized once: grown local by local, the list would be copied into fresh memory at each
        // doubling, and a block may hold very many locals.
        self.module.locals.reserve(block.body.attributes.len());
        self.module.local_index.reserve(block.body.attributes.len());
        for attr in &block.body.attributes {
            let local = MergedLocal {
                attribute: MergedAttribute::from_syntax(attr, Origin::Base),
                declared: attr.name_span,
            };
            match (self.module.local_index).get(&self.module.locals, &attr.name) {
                Some(i) => {
                    let first = self.module.locals[i].attribute.name_span;
                    // Within one block the parser already reported `Attribute redefined`.
                    if !within_block(first) {
                        self.report(MergeProblem::DuplicateLocal {
                            name: attr.name.clone(),
                            again: attr.name_span,
                            first,
                        });
                    }
                    self.module.locals[i] = local;
                }
                None => {
                    self.module.locals.push(local);
                    let position = self.module.locals.len() - 1;
                    (self.module.local_index).insert(&self.module.locals, position);
                }
            }
        }
    }

    /// Merges an override file's blocks, in source order.
    pub(super) fn apply_override_file(&mut self, loaded: LoadedFile) {
        self.apply_override_terraform(loaded);
        for block in &loaded.file.body.blocks {
            if self.labels_refused(block) {
                continue;
            }
            let block = &*self.decoded(block);
            match block.kind.as_str() {
                "terraform" => {}
                "locals" => self.override_locals(block),
                "moved" | "import" | "check" => self.not_overridable(block),
                "removed" if self.is_terraform() => self.ignored(
                    &Subject::IgnoredBlock("removed"),
                    "removed",
                    block.header_span,
                    "Terraform ignores `removed` blocks in override files",
                ),
                "removed" => self.not_overridable(block),
                "language" if !self.is_terraform() => {
                    let block = block.def_range(self.files);
                    self.report(MergeProblem::LanguageBlockInOverride { block });
                }
                "ephemeral" if self.is_terraform() => self.ignored(
                    &Subject::IgnoredBlock("ephemeral"),
                    "ephemeral",
                    block.header_span,
                    "Terraform ignores `ephemeral` blocks in override files",
                ),
                _ => self.override_object(block),
            }
        }
    }

    fn not_overridable(&mut self, block: &Block) {
        self.report(MergeProblem::BlockNotOverridable {
            kind: block.kind.clone(),
            block: block.def_range(self.files),
        });
    }

    fn override_object(&mut self, block: &Block) {
        let Some(address) = self.address_of(block) else {
            return;
        };
        let Some(index) = self.module.index.get(&self.module.objects, address.key()) else {
            self.override_without_base(block, address);
            return;
        };
        let base_header = self.module.objects[index].base_header;
        let base = Base {
            header: base_header,
            span: self.module.objects[index].base_span,
        };
        let name = Subject::Object(address.clone());
        self.module.events.push(Event::OverrideApplied {
            address: name.clone(),
            override_header: block.header_span,
            override_span: block.span(),
            base_header,
        });
        self.module.objects[index].overrides.push(block.header_span);
        let variable_default = match &address {
            Address::Variable(_) => Some(match self.variable_defaults.remove(&address) {
                Some(state) => state,
                None => self.decode_base_variable(index),
            }),
            _ => None,
        };
        let mut body = std::mem::take(&mut self.module.objects[index].body);
        match &address {
            Address::Resource(mode, ..) if mode == "action" => {
                self.merge_action(&name, &mut body, block)
            }
            Address::Resource(mode, ..) => {
                self.merge_resource(&name, mode == "resource", &mut body, block, base)
            }
            Address::Variable(_) => self.merge_variable(&name, &mut body, block),
            Address::Output(_) => self.merge_output(&name, &mut body, block, base),
            Address::ModuleCall(_) => {
                self.report_depends_on(block, base, &body);
                let empty_providers = self.ignore_empty_providers(&name, block);
                self.merge_body(&name, &mut body, &block.body, &|n| {
                    skip_if(n == "depends_on" || (n == "providers" && empty_providers))
                });
            }
            Address::Provider(..) => {
                self.merge_body(&name, &mut body, &block.body, &|_| Handling::General)
            }
            Address::Check(_) => {}
        }
        self.module.objects[index].body = body;
        if let Some(mut state) = variable_default {
            self.merge_variable_default(index, &mut state, block);
            self.record_merged_default(index, &state);
            self.variable_defaults.insert(address, state);
        }
    }

    /// Terraform's `Action.merge`: `count`, `for_each` and `provider` replace the base's, and
    /// the override's `config` merges into the base's `config` argument by argument.
    fn merge_action(&mut self, name: &Subject, body: &mut MergedBody, block: &Block) {
        let general = |n: &str| {
            if n == "config" {
                Handling::Skip
            } else {
                Handling::General
            }
        };
        self.merge_body(name, body, &block.body, &general);
        for config in block.body.blocks_of("config") {
            match body.blocks.iter_mut().find(|b| b.kind == "config") {
                Some(base) => {
                    self.merge_body(name, &mut base.body, &config.body, &|_| Handling::General)
                }
                None => body
                    .blocks
                    .push(MergedBlock::from_syntax(config, Origin::Override)),
            }
        }
    }

    fn override_without_base(&mut self, block: &Block, address: Address) {
        match &address {
            Address::Provider(_, None) => {
                // An un-aliased provider override with no base becomes the default configuration.
                let object = MergedObject::from_block(address.clone(), block, Origin::Override);
                self.module.objects.push(object);
                let module = &mut self.module;
                (module.index).insert(&module.objects, module.objects.len() - 1);
            }
            Address::Check(_) => {}
            _ => {
                let block = block.def_range(self.files);
                self.report(MergeProblem::OverrideWithoutBase { address, block });
            }
        }
    }

    /// The tools report a non-empty `depends_on` of an override at its first element (an
    /// empty one overrides nothing and is no error).
    fn report_depends_on(&mut self, block: &Block, base: Base, base_body: &MergedBody) {
        if let Some(depends_on) = block.body.attribute("depends_on") {
            let at = match depends_on.expr.tuple_items() {
                Some([]) => return,
                Some([first, ..]) => first.span,
                None => depends_on.expr.span,
            };
            let base_depends_on = base_body.attribute("depends_on").map(|existing| DependsOn {
                argument: existing.span(),
                value: existing.expr.span,
                elements: elements(existing.expr.tuple_items()),
            });
            self.report(MergeProblem::OverrideDependsOn(DependsOnOverride {
                at,
                base_header: base.header,
                base: base.span,
                depends_on: DependsOn {
                    argument: depends_on.span(),
                    value: depends_on.expr.span,
                    elements: elements(depends_on.expr.tuple_items()),
                },
                base_depends_on,
            }));
        }
    }

    fn merge_resource(
        &mut self,
        address: &Subject,
        managed: bool,
        body: &mut MergedBody,
        block: &Block,
        base: Base,
    ) {
        self.report_depends_on(block, base, body);
        for lifecycle in block.body.blocks_of("lifecycle") {
            self.merge_lifecycle(address, managed, body, lifecycle);
        }
        self.merge_body(address, body, &block.body, &|n| {
            skip_if(n == "depends_on" || n == "lifecycle")
        });
    }

    /// `lifecycle` merges argument by argument (`(*Resource).merge` in hashicorp/terraform
    /// `internal/configs/module_merge.go`).
    fn merge_lifecycle(
        &mut self,
        address: &Subject,
        managed: bool,
        body: &mut MergedBody,
        over: &Block,
    ) {
        for nested in &over.body.blocks {
            match nested.kind.as_str() {
                "precondition" | "postcondition" => self.not_overridable_nested(nested),
                // Terraform replaces action triggers as a whole, below; OpenTofu has none.
                "action_trigger" if self.is_terraform() && managed => {}
                "action_trigger" => self.ignored(
                    address,
                    "lifecycle.action_trigger",
                    nested.header_span,
                    "OpenTofu has no action triggers",
                ),
                // Anything else is refused while the block is decoded (`unsupported_construct`).
                _ => {}
            }
        }
        if !managed {
            for attr in &over.body.attributes {
                self.ignored(
                    address,
                    &format!("lifecycle.{}", attr.name),
                    attr.span(),
                    "data sources take no lifecycle arguments from override files",
                );
            }
            return;
        }
        let position = body.blocks.iter().position(|b| b.kind == "lifecycle");
        let index = position.unwrap_or_else(|| {
            body.blocks.push(MergedBlock {
                kind: "lifecycle".into(),
                labels: Labels::default(),
                header_span: over.header_span,
                body_span: over.body_span,
                body: MergedBody::default(),
                origin: Origin::Override,
            });
            body.blocks.len() - 1
        });
        let mut lifecycle = std::mem::take(&mut body.blocks[index].body);
        for attr in &over.body.attributes {
            let event_name = format!("lifecycle.{}", attr.name);
            let ignore_all_in_base = lifecycle
                .attribute("ignore_changes")
                .is_some_and(|a| a.expr.keyword() == Some("all"));
            match attr.name.as_str() {
                "create_before_destroy" | "prevent_destroy" => {
                    self.set_attribute(address, &event_name, &mut lifecycle.attributes, attr)
                }
                "destroy" if !self.is_terraform() => {
                    self.set_attribute(address, &event_name, &mut lifecycle.attributes, attr)
                }
                "ignore_changes" if ignore_all_in_base => self.ignored(address, &event_name, attr.span(), "`ignore_changes = all` in the base can never be unset by an override"),
                "ignore_changes" if attr.expr.tuple_items().is_some_and(<[_]>::is_empty) => self.ignored(address, &event_name, attr.span(), "an empty `ignore_changes` in an override changes nothing"),
                "ignore_changes" => self.set_attribute(address, &event_name, &mut lifecycle.attributes, attr),
                "replace_triggered_by" => self.ignored(address, &event_name, attr.span(), "`replace_triggered_by` is not merged from override files; the base setting stays"),
                "enabled" => self.ignored(address, &event_name, attr.span(), "`enabled` is not merged from override files; the base setting stays"),
                // Refused while the block is decoded (`unsupported_construct`).
                _ => {}
            }
        }
        if self.is_terraform() {
            let triggers = crate::syntax::Body {
                attributes: Vec::new(),
                blocks: over.body.blocks_of("action_trigger").cloned().collect(),
            };
            if !triggers.blocks.is_empty() {
                let lifecycle_address = Subject::Lifecycle(Box::new(address.clone()));
                self.merge_body(&lifecycle_address, &mut lifecycle, &triggers, &|_| {
                    Handling::General
                });
            }
        }
        body.blocks[index].body = lifecycle;
    }

    fn not_overridable_nested(&mut self, nested: &Block) {
        self.report(MergeProblem::NestedBlockNotOverridable {
            kind: nested.kind.clone(),
            block: nested.def_range(self.files),
        });
    }

    fn merge_variable(&mut self, address: &Subject, body: &mut MergedBody, block: &Block) {
        let opentofu = !self.is_terraform();
        for attr in &block.body.attributes {
            let name = attr.name.as_str();
            let merged = matches!(
                name,
                "description"
                    | "default"
                    | "type"
                    | "sensitive"
                    | "nullable"
                    | "ephemeral"
                    | "const"
            ) || (opentofu && name == "deprecated");
            if merged {
                self.set_attribute(address, name, &mut body.attributes, attr);
            } else if name == "deprecated" {
                self.ignored(address, name, attr.span(), DEPRECATED_IS_OPENTOFUS);
            }
            // Any other name is refused while the block is decoded (`unsupported_construct`).
        }
        for nested in (block.body.blocks.iter()).filter(|n| n.kind == "validation") {
            self.not_overridable_nested(nested);
        }
    }

    fn merge_output(
        &mut self,
        address: &Subject,
        body: &mut MergedBody,
        block: &Block,
        base: Base,
    ) {
        self.report_depends_on(block, base, body);
        let terraform = self.is_terraform();
        for attr in &block.body.attributes {
            let name = attr.name.as_str();
            let merged = match name {
                "value" | "sensitive" | "ephemeral" => true,
                "description" => attr.expr.literal_string() != Some(""),
                "deprecated" => !terraform,
                "type" => terraform,
                _ => false,
            };
            if merged {
                self.set_attribute(address, name, &mut body.attributes, attr);
            } else if name == "description" {
                self.ignored(
                    address,
                    name,
                    attr.span(),
                    "an override cannot clear an output's description",
                );
            } else if name == "deprecated" {
                self.ignored(address, name, attr.span(), DEPRECATED_IS_OPENTOFUS);
            } else if name == "type" {
                self.ignored(
                    address,
                    name,
                    attr.span(),
                    "an output's `type` is a Terraform argument: OpenTofu does not merge it",
                );
            }
            // Any other name is refused while the block is decoded (`unsupported_construct`).
        }
        for nested in &block.body.blocks {
            if nested.kind == "postcondition" {
                // An output has no postconditions at all: the tools refuse the block while
                // decoding the output (`decodeOutputBlock`, `internal/configs/named_values.go`).
                self.report(MergeProblem::OutputPostcondition {
                    block: nested.header_span,
                });
            } else if nested.kind == "precondition" {
                self.not_overridable_nested(nested);
            }
        }
    }

    fn override_locals(&mut self, block: &Block) {
        for attr in &block.body.attributes {
            let Some(i) = (self.module.local_index).get(&self.module.locals, &attr.name) else {
                self.report(MergeProblem::LocalOverrideWithoutBase {
                    name: attr.name.clone(),
                    at: attr.name_span,
                });
                continue;
            };
            let address = Subject::Local(attr.name.clone());
            let mut single = vec![std::mem::replace(
                &mut self.module.locals[i].attribute,
                MergedAttribute::from_syntax(attr, Origin::Override),
            )];
            self.set_attribute(&address, &attr.name, &mut single, attr);
            if let Some(merged) = single.pop() {
                self.module.locals[i].attribute = merged;
            }
        }
    }
}

/// The places of a list's elements.
fn elements(items: Option<&[crate::syntax::Expr]>) -> Option<Vec<Span>> {
    items.map(|items| items.iter().map(|e| e.span).collect())
}

impl Merger<'_> {
    /// Whether an override module call's `providers` is an empty map, which the tools ignore:
    /// `ModuleCall.merge` (`internal/configs/module_merge.go`, in Terraform and OpenTofu alike)
    /// replaces the base's providers only when the override passes at least one. Records the
    /// setting as ignored.
    fn ignore_empty_providers(&mut self, address: &Subject, block: &Block) -> bool {
        let Some(providers) = block.body.attribute("providers") else {
            return false;
        };
        let empty = matches!(&providers.expr.kind, ExprKind::Object(items) if items.is_empty());
        if empty {
            self.ignored(
                address,
                "providers",
                providers.span(),
                "an empty `providers` map in an override is dropped: only a non-empty one \
                 replaces the base's",
            );
        }
        empty
    }
}

fn skip_if(skip: bool) -> Handling {
    if skip {
        Handling::Skip
    } else {
        Handling::General
    }
}

/// The base block an override merges into: its header and the whole block.
#[derive(Clone, Copy)]
struct Base {
    header: Span,
    span: Span,
}
