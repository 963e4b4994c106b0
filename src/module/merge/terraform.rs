//! The `terraform` block: `required_version`, `required_providers`, `backend`/`cloud` and the
//! rest (hashicorp/terraform `internal/configs/module.go`, `appendFile` and `mergeFile`).

use crate::knowledge::files::Extension;
use crate::source::Span;
use crate::syntax::Block;

use super::body::Handling;
use super::events::{Event, Subject};
use super::model::{MergedAttribute, MergedBlock, Origin};
use super::problems::MergeProblem;
use super::{LoadedFile, Merger};

impl Merger<'_> {
    /// Whether this tool honours `required_version` in a file of this extension: Terraform in
    /// every file, OpenTofu (≥ 1.12) only in `.tofu`/`.tofu.json` files.
    fn honours_required_version(&self, extension: Extension) -> bool {
        self.is_terraform() || extension.is_tofu()
    }

    pub(super) fn add_primary_terraform(&mut self, block: &Block, extension: Extension) {
        self.module.terraform.blocks.push(block.header_span);
        for attr in &block.body.attributes {
            let merged = MergedAttribute::from_syntax(attr, Origin::Base);
            if attr.name == "required_version" {
                if self.honours_required_version(extension) {
                    self.module.terraform.required_version.push(merged);
                }
            } else {
                self.module.terraform.other.attributes.push(merged);
            }
        }
        for nested in &block.body.blocks {
            if self.terraform_labels_refused(nested) {
                continue;
            }
            match nested.kind.as_str() {
                "required_providers" => self.add_primary_required_providers(nested),
                "backend" => {
                    let first = self
                        .module
                        .terraform
                        .backend
                        .as_ref()
                        .map(|b| b.header_span);
                    if !self.duplicate_setting(nested, first, false) {
                        self.module.terraform.backend =
                            Some(MergedBlock::from_syntax(nested, Origin::Base));
                    }
                }
                "cloud" => {
                    let first = self.module.terraform.cloud.as_ref().map(|b| b.header_span);
                    if !self.duplicate_setting(nested, first, false) {
                        self.module.terraform.cloud =
                            Some(MergedBlock::from_syntax(nested, Origin::Base));
                    }
                }
                "state_store" if self.state_store => {
                    let first = self.state_store_block().map(|b| b.header_span);
                    if !self.duplicate_setting(nested, first, false) {
                        (self.module.terraform.other.blocks)
                            .push(MergedBlock::from_syntax(nested, Origin::Base));
                    }
                }
                kind => {
                    let first = self
                        .module
                        .terraform
                        .other
                        .blocks
                        .iter()
                        .find(|b| {
                            b.kind == nested.kind
                                && b.labels.first().map(|l| &l.value)
                                    == nested.labels.first().map(|l| &l.value)
                        })
                        .map(|b| b.header_span);
                    // The blocks of which a module may have one.
                    let single = match kind {
                        "encryption" => !self.is_terraform(),
                        "provider_meta" => true,
                        _ => false,
                    };
                    let duplicate = single && self.duplicate_setting(nested, first, false);
                    if !duplicate {
                        self.module
                            .terraform
                            .other
                            .blocks
                            .push(MergedBlock::from_syntax(nested, Origin::Base));
                    }
                }
            }
        }
    }

    /// Reports `nested` as a duplicate of `first`, if there is a first (both in one override
    /// file when `in_override`). Returns whether it did.
    fn duplicate_setting(
        &mut self,
        nested: &Block,
        first: Option<Span>,
        in_override: bool,
    ) -> bool {
        let Some(first) = first else {
            return false;
        };
        let kind = nested.kind.clone();
        let again = nested.def_range(self.files);
        self.report(
            if matches!(kind.as_str(), "backend" | "cloud" | "state_store") {
                MergeProblem::DuplicateStateStorage {
                    kind,
                    again,
                    first,
                    in_override,
                }
            } else {
                MergeProblem::DuplicateTerraformBlock { kind, again, first }
            },
        );
        true
    }

    fn add_primary_required_providers(&mut self, block: &Block) {
        if let Some(&first) = self.required_providers_blocks.first() {
            self.report(MergeProblem::DuplicateRequiredProviders {
                again: block.def_range(self.files),
                again_header: block.header_span,
                first,
            });
        }
        self.required_providers_blocks.push(block.header_span);
        for attr in &block.body.attributes {
            self.module
                .terraform
                .required_providers
                .push(MergedAttribute::from_syntax(attr, Origin::Base));
        }
    }

    /// The `state_store` block of the module, where the targeted build decodes it.
    fn state_store_block(&self) -> Option<&MergedBlock> {
        let blocks = &self.module.terraform.other.blocks;
        (blocks.iter())
            .find(|b| b.kind == "state_store")
            .filter(|_| self.state_store)
    }

    /// More than one kind of state storage in the primary files: a backend, a `cloud` block
    /// and (Terraform's experimental builds) a `state_store`.
    pub(super) fn check_primary_terraform_conflicts(&mut self) {
        let terraform = &self.module.terraform;
        let backend = terraform.backend.as_ref().map(|b| b.header_span);
        let cloud = terraform.cloud.as_ref().map(|b| b.header_span);
        let state_store = self.state_store_block().map(|b| b.header_span);
        let kinds = [backend, cloud, state_store];
        if kinds.iter().flatten().count() > 1 {
            self.report(MergeProblem::StateStorageConflict {
                backend,
                cloud,
                state_store,
            });
        }
    }

    /// Merges the `terraform` blocks of one override file.
    pub(super) fn apply_override_terraform(&mut self, loaded: LoadedFile) {
        let blocks: Vec<&Block> = (loaded.file.body.blocks_of("terraform"))
            .filter(|b| !self.labels_refused(b))
            .collect();
        if blocks.is_empty() {
            return;
        }
        self.module
            .terraform
            .blocks
            .extend(blocks.iter().map(|b| b.header_span));

        // required_version: Terraform replaces all constraints with this file's; OpenTofu adds
        // the constraints of .tofu files to the others.
        let constraints: Vec<MergedAttribute> = blocks
            .iter()
            .filter_map(|b| b.body.shared_attribute("required_version"))
            .map(|a| MergedAttribute::from_syntax(a, Origin::Override))
            .collect();
        if !constraints.is_empty() && self.honours_required_version(loaded.extension) {
            if self.is_terraform() {
                let dropped: Vec<Span> = self
                    .module
                    .terraform
                    .required_version
                    .iter()
                    .map(|a| a.span())
                    .collect();
                if !dropped.is_empty() {
                    self.module.events.push(Event::NestedBlocksReplaced {
                        address: Subject::Terraform,
                        kind: "required_version".into(),
                        by: constraints.iter().map(|a| a.span()).collect(),
                        dropped,
                    });
                }
                self.module.terraform.required_version = constraints;
            } else {
                self.module.terraform.required_version.extend(constraints);
            }
        } else if !constraints.is_empty() {
            for constraint in &constraints {
                self.ignored(
                    &Subject::Terraform,
                    "required_version",
                    constraint.span(),
                    "OpenTofu (>= 1.12) reads required_version only in .tofu files",
                );
            }
        }

        let mut backends_in_file: Vec<Span> = Vec::new();
        let mut clouds_in_file: Vec<Span> = Vec::new();
        for block in blocks {
            for nested in &block.body.blocks {
                if self.terraform_labels_refused(nested) {
                    continue;
                }
                match nested.kind.as_str() {
                    "required_providers" => {
                        for entry in &nested.body.attributes {
                            let mut entries =
                                std::mem::take(&mut self.module.terraform.required_providers);
                            let name = format!("required_providers.{}", entry.name);
                            self.set_attribute(&Subject::Terraform, &name, &mut entries, entry);
                            self.module.terraform.required_providers = entries;
                        }
                    }
                    "backend" => {
                        self.override_state_storage(nested, &mut backends_in_file, true);
                    }
                    "cloud" => {
                        self.override_state_storage(nested, &mut clouds_in_file, false);
                    }
                    // Merged with the other settings below; it replaces a backend or `cloud`.
                    "state_store" if self.state_store => {
                        let terraform = &mut self.module.terraform;
                        let dropped = (terraform.backend.take().into_iter())
                            .chain(terraform.cloud.take())
                            .map(|b| b.header_span)
                            .collect();
                        self.state_storage_replaced(nested, dropped);
                    }
                    "provider_meta" => self.ignored(
                        &Subject::Terraform,
                        "provider_meta",
                        nested.header_span,
                        "provider_meta blocks in override files are ignored",
                    ),
                    _ => {}
                }
            }
            let mut other = std::mem::take(&mut self.module.terraform.other);
            self.merge_body(
                &Subject::Terraform,
                &mut other,
                &block.body,
                &|name| match name {
                    "required_version" | "required_providers" | "backend" | "cloud"
                    | "provider_meta" => Handling::Skip,
                    _ => Handling::General,
                },
            );
            self.module.terraform.other = other;
        }
    }

    /// A `backend` (or `cloud`) block in an override replaces the base one and removes the other
    /// kinds (Terraform's `state_store` too); two of one kind in one override file are a
    /// duplicate.
    fn override_state_storage(
        &mut self,
        nested: &Block,
        seen_in_file: &mut Vec<Span>,
        is_backend: bool,
    ) {
        if let Some(&first) = seen_in_file.first() {
            self.duplicate_setting(nested, Some(first), true);
            return;
        }
        seen_in_file.push(nested.header_span);
        let new = MergedBlock::from_syntax(nested, Origin::Override);
        let terraform = &mut self.module.terraform;
        let (same, other) = if is_backend {
            (&mut terraform.backend, &mut terraform.cloud)
        } else {
            (&mut terraform.cloud, &mut terraform.backend)
        };
        let mut dropped: Vec<Span> = same
            .iter()
            .chain(other.iter())
            .map(|b| b.header_span)
            .collect();
        *same = Some(new);
        *other = None;
        if self.state_store {
            // Terraform's (experimental) `state_store` is the third kind of state storage.
            let blocks = &mut self.module.terraform.other.blocks;
            dropped.extend(
                (blocks.iter())
                    .filter(|b| b.kind == "state_store")
                    .map(|b| b.header_span),
            );
            blocks.retain(|b| b.kind != "state_store");
        }
        self.state_storage_replaced(nested, dropped);
    }

    /// Records that an override's `backend`, `cloud` or `state_store` dropped these blocks.
    fn state_storage_replaced(&mut self, nested: &Block, dropped: Vec<Span>) {
        if !dropped.is_empty() {
            self.module.events.push(Event::NestedBlocksReplaced {
                address: Subject::Terraform,
                kind: nested.kind.clone(),
                by: vec![nested.header_span],
                dropped,
            });
        }
    }
}
