//! The `terraform` block: `required_version`, `required_providers`, `backend`/`cloud` and the
//! rest (hashicorp/terraform `internal/configs/module.go`, `appendFile` and `mergeFile`).

use crate::diagnostic::ids;
use crate::source::Span;
use crate::syntax::Block;

use super::body::Handling;
use super::events::{Event, Subject};
use super::model::{MergedAttribute, MergedBlock, Origin};
use super::{LoadedFile, Merger};
use crate::knowledge::files::Extension;

/// Why two kinds of state storage conflict.
const STORAGE_NOTE: &str = "A module may have only one of a backend, a cloud block and (in \
    Terraform's experimental builds) a state_store for its state storage.";

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
            match nested.kind.as_str() {
                "required_providers" => self.add_primary_required_providers(nested),
                "backend" => {
                    let summary = if self.is_terraform() {
                        "Duplicate 'backend' configuration block"
                    } else {
                        "Duplicate backend configuration"
                    };
                    let first = self
                        .module
                        .terraform
                        .backend
                        .as_ref()
                        .map(|b| b.header_span);
                    if !self.duplicate_setting(nested, first, summary) {
                        self.module.terraform.backend =
                            Some(MergedBlock::from_syntax(nested, Origin::Base));
                    }
                }
                "cloud" => {
                    let summary = if self.is_terraform() {
                        "Duplicate HCP Terraform configurations"
                    } else {
                        "Duplicate cloud configurations"
                    };
                    let first = self.module.terraform.cloud.as_ref().map(|b| b.header_span);
                    if !self.duplicate_setting(nested, first, summary) {
                        self.module.terraform.cloud =
                            Some(MergedBlock::from_syntax(nested, Origin::Base));
                    }
                }
                "state_store" if self.state_store => {
                    let first = self.state_store_block().map(|b| b.header_span);
                    let summary = "Duplicate 'state_store' configuration block";
                    if !self.duplicate_setting(nested, first, summary) {
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
                    let summary = match kind {
                        "encryption" if !self.is_terraform() => {
                            Some("Duplicate encryption configuration")
                        }
                        "provider_meta" => Some("Duplicate provider_meta block"),
                        _ => None,
                    };
                    let duplicate =
                        summary.is_some_and(|s| self.duplicate_setting(nested, first, s));
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

    /// Reports `nested` as a duplicate of `first`, if there is a first. Returns whether it did.
    fn duplicate_setting(&mut self, nested: &Block, first: Option<Span>, summary: &str) -> bool {
        let Some(first) = first else {
            return false;
        };
        let rule = if matches!(nested.kind.as_str(), "backend" | "cloud" | "state_store") {
            ids::BACKEND_DUPLICATE
        } else {
            ids::DUPLICATE_DEFINITION
        };
        let d = self
            .error(
                rule,
                summary,
                nested.def_range(self.files),
                "defined again here",
            )
            .with_label(self.files, first, "first defined here")
            .with_note(format!(
                "A module may have only one `{}` block.",
                nested.kind
            ));
        self.report(d);
        true
    }

    fn add_primary_required_providers(&mut self, block: &Block) {
        if let Some(&first) = self.required_providers_blocks.first() {
            let d = self
                .error(
                    ids::DUPLICATE_DEFINITION,
                    "Duplicate required providers configuration",
                    block.def_range(self.files),
                    "defined again here",
                )
                .with_label(self.files, first, "first defined here")
                .with_note(
                    "A module may have only one required_providers block in its primary files.",
                )
                .with_help(self.duplicate_help(
                    first,
                    block.header_span,
                    "move the entries of this block into the first one",
                ));
            self.report(d);
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
    /// and (Terraform's experimental builds) a `state_store`. The finding is where Terraform
    /// puts it (`Module.appendFile`): on the backend, or on the `state_store` next to `cloud`.
    pub(super) fn check_primary_terraform_conflicts(&mut self) {
        let terraform = &self.module.terraform;
        let backend = terraform.backend.as_ref().map(|b| b.header_span);
        let cloud = terraform.cloud.as_ref().map(|b| b.header_span);
        let store = self.state_store_block().map(|b| b.header_span);
        let tofu = !self.is_terraform();
        let (summary, at, others) = match (backend, cloud, store) {
            (Some(backend), Some(cloud), Some(store)) => (
                "Only one of 'cloud', 'state_store', or 'backend' configuration blocks are allowed",
                backend,
                vec![(cloud, "`cloud` block"), (store, "`state_store` block")],
            ),
            (Some(backend), Some(cloud), None) => (
                match tofu {
                    true => "Both a backend and a cloud configuration are present",
                    false => "Conflicting 'cloud' and 'backend' configuration blocks are present",
                },
                cloud,
                vec![(backend, "backend block")],
            ),
            (None, Some(cloud), Some(store)) => (
                "Conflicting 'cloud' and 'state_store' configuration blocks are present",
                store,
                vec![(cloud, "`cloud` block")],
            ),
            (Some(backend), None, Some(store)) => (
                "Conflicting 'state_store' and 'backend' configuration blocks are present",
                backend,
                vec![(store, "`state_store` block")],
            ),
            _ => return,
        };
        let primary = match at {
            _ if Some(at) == cloud => "`cloud` block",
            _ if Some(at) == store => "`state_store` block",
            _ => "backend block",
        };
        let note = match store {
            Some(_) => STORAGE_NOTE,
            None => {
                "A module may have either a backend or a cloud block for its state storage, \
                     not both."
            }
        };
        let mut d = self
            .error(ids::BACKEND_AND_CLOUD, summary, at, primary)
            .with_note(note);
        for (span, label) in others {
            d = d.with_label(self.files, span, label);
        }
        self.report(d);
    }

    /// Merges the `terraform` blocks of one override file.
    pub(super) fn apply_override_terraform(&mut self, loaded: LoadedFile) {
        let blocks: Vec<&Block> = loaded.file.body.blocks_of("terraform").collect();
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
            let summary = match (is_backend, self.is_terraform()) {
                (true, true) => "Duplicate 'backend' configuration block",
                (true, false) => "Duplicate backend configuration",
                (false, true) => "Duplicate HCP Terraform configurations",
                (false, false) => "Duplicate cloud configurations",
            };
            self.duplicate_setting(nested, Some(first), summary);
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
