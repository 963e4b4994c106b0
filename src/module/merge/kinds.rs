//! Appending primary blocks and merging override blocks, kind by kind (hashicorp/terraform
//! `internal/configs/module.go`, `appendFile` and `mergeFile`, and `module_merge.go`).

use std::collections::hash_map::Entry;

use foldhash::HashSet;

use crate::diagnostic::fix::is_json;
use crate::diagnostic::{Applicability, Fix, ids};
use crate::source::Span;
use crate::syntax::{Attribute, Block, Labels};

use super::body::Handling;
use super::events::{Event, Subject};
use super::model::{
    Address, MergedAttribute, MergedBlock, MergedBody, MergedLocal, MergedObject, Origin,
};
use super::{LoadedFile, Merger};

/// Why Terraform drops `deprecated` from variable and output overrides.
const DEPRECATED_IS_OPENTOFUS: &str =
    "`deprecated` is an OpenTofu argument: Terraform does not merge it";

const WHY_OVERRIDE_NEEDS_BASE: &str = "Override files only change blocks that primary files define; a block with nothing to merge into is an error.";

impl Merger<'_> {
    /// Appends a primary file's blocks; a second definition of an object is an error.
    pub(super) fn add_primary_file(&mut self, loaded: LoadedFile) {
        for block in &loaded.file.body.blocks {
            match block.kind.as_str() {
                "locals" => self.add_primary_locals(block),
                "terraform" => self.add_primary_terraform(block, loaded.extension),
                "check" => {
                    self.add_check_data(block);
                    self.add_primary_object(block);
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
        // The address is hashed once, for the look-up and the insert alike.
        let next = self.module.objects.len();
        let existing = match self.module.index.entry(address) {
            Entry::Vacant(slot) => {
                let object = MergedObject::from_block(slot.key().clone(), block, Origin::Base);
                slot.insert(next);
                self.module.objects.push(object);
                return;
            }
            Entry::Occupied(slot) => *slot.get(),
        };
        // Defined again: the address went into the index; the first object has an equal one.
        let address = self.module.objects[existing].address.clone();
        let object = MergedObject::from_block(address, block, Origin::Base);
        let address = &object.address;
        let first = self.module.objects[existing].base_header;
        let summary = self.duplicate_summary(address);
        let d = self
            .error(
                ids::DUPLICATE_DEFINITION,
                summary,
                block.def_range(self.files),
                "defined again here",
            )
            .with_label(self.files, first, "first defined here")
            .with_note(format!(
                "Primary files are appended, not merged: {} may be defined only once in a module.",
                address.describe()
            ))
            .with_help(self.duplicate_help(
                first,
                block.header_span,
                "remove one of the two definitions, or give one of them another name",
            ));
        self.report(d);
        // Which definition the tool keeps only matters for what it reports next.
        if matches!(
            address,
            Address::Variable(_) | Address::Output(_) | Address::ModuleCall(_)
        ) {
            self.module.objects[existing] = object;
        }
    }

    /// What to do about a second definition: within one file, `same_file` (one of them is a
    /// leftover); across files, the second is usually meant to change the first, which is what
    /// override files do.
    pub(super) fn duplicate_help(&self, first: Span, again: Span, same_file: &str) -> String {
        if first.file == again.file {
            return same_file.to_string();
        }
        let file = self.files.get(again.file).file_name();
        // `main.tf.json` → `main_override.tf.json`: the override keeps the file's syntax.
        let (stem, extension) = file.split_at(file.find('.').unwrap_or(file.len()));
        format!(
            "remove one of the two definitions; to change the first from `{file}`, move the \
             changed arguments into an override file (`{stem}_override{extension}`)"
        )
    }

    fn duplicate_summary(&self, address: &Address) -> String {
        match address {
            Address::Resource(mode, ty, _) => match mode.as_str() {
                "ephemeral" if self.is_terraform() => {
                    format!("Duplicate ephemeral \"{ty}\" configuration")
                }
                "ephemeral" => format!("Duplicate ephemeral resource \"{ty}\" configuration"),
                _ => format!("Duplicate {mode} \"{ty}\" configuration"),
            },
            Address::Variable(_) => "Duplicate variable declaration".into(),
            Address::Output(_) => "Duplicate output definition".into(),
            Address::ModuleCall(_) => "Duplicate module call".into(),
            Address::Provider(..) => "Duplicate provider configuration".into(),
            Address::Check(name) => format!("Duplicate check \"{name}\" configuration"),
        }
    }

    /// `data` blocks scoped to a `check` block share the data namespace of the module.
    fn add_check_data(&mut self, check: &Block) {
        for data in check.body.blocks_of("data") {
            let Some(address @ Address::Resource(..)) = self.address_of(data) else {
                continue;
            };
            let first = self
                .module
                .index
                .get(&address)
                .map(|&i| self.module.objects[i].base_header)
                .or_else(|| self.check_data.get(&address).copied());
            match first {
                Some(first) => {
                    let summary = self.duplicate_summary(&address);
                    let d = self
                        .error(
                            ids::DUPLICATE_DEFINITION,
                            summary,
                            data.def_range(self.files),
                            "defined again here",
                        )
                        .with_label(self.files, first, "first defined here");
                    self.report(d);
                }
                None => {
                    self.check_data.insert(address, data.header_span);
                }
            }
        }
    }

    fn add_primary_locals(&mut self, block: &Block) {
        let own_names: HashSet<Span> = block.body.attributes.iter().map(|a| a.name_span).collect();
        for attr in &block.body.attributes {
            let local = MergedLocal {
                attribute: MergedAttribute::from_syntax(attr, Origin::Base),
            };
            match self.module.local_index.get(&attr.name) {
                Some(&i) => {
                    let first = self.module.locals[i].attribute.name_span;
                    // Within one block the parser already reported `Attribute redefined`.
                    if !own_names.contains(&first) {
                        let d = self
                            .error(
                                ids::DUPLICATE_DEFINITION,
                                "Duplicate local value definition",
                                attr.name_span,
                                "defined again here",
                            )
                            .with_label(self.files, first, "first defined here")
                            .with_note(format!(
                                "A local value named \"{}\" was already defined. Local value names must be unique within a module.",
                                attr.name
                            ));
                        self.report(d);
                    }
                    self.module.locals[i] = local;
                }
                None => {
                    self.module
                        .local_index
                        .insert(attr.name.clone(), self.module.locals.len());
                    self.module.locals.push(local);
                }
            }
        }
    }

    /// Merges an override file's blocks, in source order.
    pub(super) fn apply_override_file(&mut self, loaded: LoadedFile) {
        self.apply_override_terraform(loaded);
        for block in &loaded.file.body.blocks {
            match block.kind.as_str() {
                "terraform" => {}
                "locals" => self.override_locals(block),
                "moved" => self.not_overridable(block, "Cannot override 'moved' blocks"),
                "import" => self.not_overridable(block, "Cannot override 'import' blocks"),
                "check" => self.not_overridable(block, "Can't override check blocks"),
                "removed" if self.is_terraform() => self.ignored(
                    &Subject::IgnoredBlock("removed"),
                    "removed",
                    block.header_span,
                    "Terraform ignores `removed` blocks in override files",
                ),
                "removed" => self.not_overridable(block, "Cannot override 'Removed' blocks"),
                "language" if !self.is_terraform() => {
                    let d = self
                        .error(
                            ids::LANGUAGE_BLOCK_IN_OVERRIDE,
                            "Language selections in override file",
                            block.def_range(self.files),
                            "not allowed in an override file",
                        )
                        .with_note("OpenTofu reads the `language` block only from primary files: the language edition, experiments and compatible versions of a module cannot be overridden.")
                        .with_help("move the `language` block to a primary `.tofu` file");
                    self.report(d);
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

    fn not_overridable(&mut self, block: &Block, summary: &str) {
        let d = self
            .error(
                ids::OVERRIDE_NOT_ALLOWED,
                summary,
                block.def_range(self.files),
                "not allowed in an override file",
            )
            .with_note(format!(
                "`{}` blocks cannot appear in override files; the tool refuses to load the module.",
                block.kind
            ))
            .with_help("move this block to a primary file");
        self.report(d);
    }

    fn override_object(&mut self, block: &Block) {
        let Some(address) = self.address_of(block) else {
            return;
        };
        let Some(&index) = self.module.index.get(&address) else {
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
                self.merge_body(&name, &mut body, &block.body, &|n| {
                    skip_if(n == "depends_on")
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
        let summary = match &address {
            Address::Resource(mode, ..) => match mode.as_str() {
                "data" => "Missing data resource to override",
                "ephemeral" => "Missing ephemeral resource to override",
                _ => "Missing resource to override",
            },
            Address::Variable(_) => "Missing base variable declaration to override",
            Address::Output(_) => "Missing base output definition to override",
            Address::ModuleCall(_) => "Missing module call to override",
            Address::Provider(_, Some(_)) => "Missing base provider configuration for override",
            Address::Provider(_, None) => {
                // An un-aliased provider override with no base becomes the default configuration.
                let object = MergedObject::from_block(address.clone(), block, Origin::Override);
                self.module.index.insert(address, self.module.objects.len());
                self.module.objects.push(object);
                return;
            }
            Address::Check(_) => return,
        };
        let d = self
            .error(ids::OVERRIDE_WITHOUT_BASE, summary, block.def_range(self.files), "nothing to merge into")
            .with_note(format!(
                "No primary file defines {}. {WHY_OVERRIDE_NEEDS_BASE}",
                address.describe()
            ))
            .with_help("define the block in a primary file, or fix the override's labels to match the base block");
        self.report(d);
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
            let d = self
                .error(
                    ids::OVERRIDE_DEPENDS_ON,
                    "Unsupported override",
                    at,
                    "`depends_on` in an override",
                )
                .with_label(self.files, base.header, "base block")
                .with_note("The depends_on argument may not be overridden.")
                .with_help("set `depends_on` in the base block instead")
                .with_fix(self.depends_on_fix(depends_on, base, base_body));
            self.report(d);
        }
    }

    /// Moves an override's `depends_on` into its base block: its elements appended to the
    /// base's list (those it does not have yet), or the argument added at the end of the base
    /// block. Native syntax only, in both files; `None` for a base block on one line or a base
    /// `depends_on` that is not a list.
    fn depends_on_fix(
        &self,
        depends_on: &Attribute,
        base: Base,
        base_body: &MergedBody,
    ) -> Option<Fix> {
        let native = |span: Span| !is_json(&self.files.get(span.file).path);
        let items = depends_on.expr.tuple_items()?;
        if !native(depends_on.name_span) || !native(base.span) {
            return None;
        }
        let text = |span: Span| self.files.text(span).split_whitespace().collect::<String>();
        let base_file = self.files.get(base.span.file);
        let fix = Fix::new(
            "Move `depends_on` into the base block",
            Applicability::Unsafe,
        )
        .remove(self.files, depends_on.span());
        match base_body.attribute("depends_on") {
            Some(existing) => {
                let present = existing.expr.tuple_items()?;
                let present: HashSet<String> = present.iter().map(|e| text(e.span)).collect();
                let added: Vec<&str> = (items.iter())
                    .filter(|e| !present.contains(&text(e.span)))
                    .map(|e| self.files.text(e.span))
                    .collect();
                if added.is_empty() {
                    return Some(fix);
                }
                let list = existing.expr.span.range();
                let (at, insert) = match existing.expr.tuple_items()?.last() {
                    Some(last) => (last.span.end as usize, format!(", {}", added.join(", "))),
                    None => (list.start + 1, added.join(", ")),
                };
                Some(fix.edit(&base_file.path, at..at, insert))
            }
            None => {
                // Before the base block's closing brace, which must be alone on its line.
                let close = (base.span.end as usize).checked_sub(1)?;
                let line_start = base_file.text[..close].rfind('\n')? + 1;
                let indent = &base_file.text[line_start..close];
                if !indent.trim().is_empty() {
                    return None;
                }
                let list: Vec<&str> = items.iter().map(|e| self.files.text(e.span)).collect();
                let line = format!("{indent}  depends_on = [{}]\n", list.join(", "));
                Some(fix.edit(&base_file.path, line_start..line_start, line))
            }
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
                "precondition" | "postcondition" => {
                    let summary = format!("Can't override {} blocks", nested.kind);
                    self.not_overridable_nested(nested, &summary);
                }
                // Terraform replaces action triggers as a whole, below; OpenTofu has none.
                "action_trigger" if self.is_terraform() && managed => {}
                "action_trigger" => self.ignored(
                    address,
                    "lifecycle.action_trigger",
                    nested.header_span,
                    "OpenTofu has no action triggers",
                ),
                kind => {
                    self.unknown_argument(address, &format!("lifecycle.{kind}"), nested.header_span)
                }
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
                _ => self.unknown_argument(address, &event_name, attr.span()),
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

    fn not_overridable_nested(&mut self, nested: &Block, summary: &str) {
        let d = self
            .error(
                ids::OVERRIDE_NOT_ALLOWED,
                summary,
                nested.def_range(self.files),
                "not allowed in an override file",
            )
            .with_note(format!(
                "Override files cannot override \"{}\" blocks.",
                nested.kind
            ))
            .with_help("move this block to the base definition");
        self.report(d);
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
            } else {
                self.unknown_argument(address, name, attr.span());
            }
        }
        for nested in &block.body.blocks {
            if nested.kind == "validation" {
                self.not_overridable_nested(nested, "Can't override validation blocks");
            } else {
                self.unknown_argument(address, &nested.kind, nested.header_span);
            }
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
            } else if name != "depends_on" {
                self.unknown_argument(address, name, attr.span());
            }
        }
        for nested in &block.body.blocks {
            if matches!(nested.kind.as_str(), "precondition" | "postcondition") {
                let summary = format!("Can't override {} blocks", nested.kind);
                self.not_overridable_nested(nested, &summary);
            } else {
                self.unknown_argument(address, &nested.kind, nested.header_span);
            }
        }
    }

    fn override_locals(&mut self, block: &Block) {
        for attr in &block.body.attributes {
            let Some(&i) = self.module.local_index.get(&attr.name) else {
                let d = self
                    .error(
                        ids::OVERRIDE_WITHOUT_BASE,
                        "Missing base local value definition to override",
                        attr.name_span,
                        "nothing to merge into",
                    )
                    .with_note(format!(
                        "No primary file defines local value `{}`. {WHY_OVERRIDE_NEEDS_BASE}",
                        attr.name
                    ))
                    .with_help("define the local value in a primary file's `locals` block");
                self.report(d);
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
