//! The load errors a merge finds, as data: what the tools refuse and the places that say so.
//! The merge knows when Terraform or OpenTofu refuse a module; the rule that owns each id
//! (`src/rules/<id>.rs`) words the finding, in the tools' own summary text. Each variant
//! names the id whose rule reports it.

use crate::source::Span;

use super::model::Address;

/// One load error found while merging one view.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum MergeProblem {
    /// `count_and_for_each`: a `resource`, `data`, `ephemeral` or `module` block (of kind `kind`)
    /// with both `count` and `for_each`, and `enabled` in its `lifecycle` where the targeted
    /// OpenTofu decodes it (checked in each block on its own, before merging).
    CountAndForEach {
        kind: String,
        count: Span,
        for_each: Span,
        enabled: Option<Span>,
    },
    /// `required_providers_top_level`: a `required_providers` block outside `terraform`.
    RequiredProvidersTopLevel { block: Span },
    /// `module_source_missing`: a module call without `source` in a primary file (`at` is where
    /// HCL reports a missing argument: the body's brace).
    ModuleSourceMissing { at: Span, header: Span },
    /// `missing_required_argument`: an output without `value`, or a condition block without
    /// `condition` or `error_message`, in a primary file.
    MissingRequiredArgument {
        at: Span,
        header: Span,
        argument: &'static str,
    },
    /// `duplicate_definition`: an object defined again in the primary files (`again` is the
    /// second block, `again_header` its header).
    DuplicateObject {
        address: Address,
        again: Span,
        again_header: Span,
        first: Span,
    },
    /// `duplicate_definition`: a data source of a `check` block defined again.
    DuplicateCheckData {
        address: Address,
        again: Span,
        first: Span,
    },
    /// `duplicate_definition`: a local value defined again in another `locals` block.
    DuplicateLocal {
        name: String,
        again: Span,
        first: Span,
    },
    /// `duplicate_definition`: a module call's `providers` assigning one child provider
    /// configuration twice (`again` is the second value).
    DuplicateProviderAddress {
        address: String,
        again: Span,
        first: Span,
    },
    /// `duplicate_definition`: a second `required_providers` block in the primary files.
    DuplicateRequiredProviders {
        again: Span,
        again_header: Span,
        first: Span,
    },
    /// `duplicate_definition`: a second `encryption` (OpenTofu) or `provider_meta` block in the
    /// `terraform` blocks.
    DuplicateTerraformBlock {
        kind: String,
        again: Span,
        first: Span,
    },
    /// `backend_duplicate`: a second `backend`, `cloud` or (Terraform's experimental builds)
    /// `state_store` block, among the primary files or in one override file (`in_override`:
    /// Terraform words the two apart from 1.13).
    DuplicateStateStorage {
        kind: String,
        again: Span,
        first: Span,
        in_override: bool,
    },
    /// `backend_and_cloud`: more than one kind of state storage in the primary files.
    StateStorageConflict {
        backend: Option<Span>,
        cloud: Option<Span>,
        state_store: Option<Span>,
    },
    /// `language_block_in_override`: a `language` block in an override file (OpenTofu).
    LanguageBlockInOverride { block: Span },
    /// `override_not_allowed`: a top-level block of a kind override files may not contain.
    BlockNotOverridable { kind: String, block: Span },
    /// `override_not_allowed`: a nested block an override may not contain (conditions,
    /// validations).
    NestedBlockNotOverridable { kind: String, block: Span },
    /// `override_not_allowed`: a `postcondition` in an output of an override file, which the
    /// tools refuse while decoding the output, before any merge (`block` is its type keyword).
    OutputPostcondition { block: Span },
    /// `override_without_base`: an override block no primary file defines.
    OverrideWithoutBase { address: Address, block: Span },
    /// `override_without_base`: an override local value no primary file defines.
    LocalOverrideWithoutBase { name: String, at: Span },
    /// `override_depends_on`: a non-empty `depends_on` in an override block.
    OverrideDependsOn(DependsOnOverride),
    /// `module_version_without_registry_source`: a module call whose known `version` goes with a
    /// local or remote source.
    VersionWithoutRegistrySource(VersionWithoutRegistry),
    /// `variable_default_invalid`: a primary variable's own default, decoded with its own type.
    VariableDefaultInvalid {
        default: Span,
        problem: DefaultProblem,
    },
    /// `override_variable_default_invalid`: an override variable block's own default, decoded
    /// with its own type.
    OverrideDefaultInvalid {
        default: Span,
        problem: DefaultProblem,
    },
    /// `override_variable_default_invalid`: the default an override merge leaves, converted to
    /// the merged type.
    MergedDefaultInvalid(MergedDefault),
}

/// What is wrong with a variable block's own default.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum DefaultProblem {
    /// The default does not convert to the type `ty` (written at `type_value`): `reason` says
    /// why, in the tools' words.
    NotOfType {
        ty: String,
        type_value: Span,
        reason: String,
    },
    /// A null default with `nullable = false` (the argument, when the block has it).
    NullNotNullable { nullable: Option<Span> },
}

/// An override's `depends_on` and the base block it would have to go to.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DependsOnOverride {
    /// Where the tools report it: the first element, or the value when it is not a list.
    pub(crate) at: Span,
    pub(crate) base_header: Span,
    /// The whole base block.
    pub(crate) base: Span,
    /// The override's argument.
    pub(crate) depends_on: DependsOn,
    /// The base block's own `depends_on`, if it has one.
    pub(crate) base_depends_on: Option<DependsOn>,
}

/// A `depends_on` argument: the whole argument, its value, and its elements when the value is a
/// list.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DependsOn {
    pub(crate) argument: Span,
    pub(crate) value: Span,
    pub(crate) elements: Option<Vec<Span>>,
}

/// A module call's `version` with a source that is not a registry address.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct VersionWithoutRegistry {
    /// A local path (else a remote address).
    pub(crate) local: bool,
    /// The `source` argument and its value.
    pub(crate) source: Span,
    pub(crate) source_value: Span,
    /// The `version` argument.
    pub(crate) version: Span,
    /// Whether `version` came from an override file (the base call was valid on its own).
    pub(crate) version_from_override: bool,
    /// The call's name and its base block's header (where `terraform init` points).
    pub(crate) name: String,
    pub(crate) call: Span,
}

/// The default an override merge leaves, invalid for the merged type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MergedDefault {
    /// The override block.
    pub(crate) block: Span,
    pub(crate) problem: MergedDefaultProblem,
    /// The merged `default`, `type` and `nullable` arguments the variable has, in that order.
    pub(crate) merged: Vec<MergedSetting>,
    /// The variable and its base block's header.
    pub(crate) variable: Address,
    pub(crate) declared: Span,
}

/// Why a merged default is invalid.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum MergedDefaultProblem {
    /// Null, and the merged `nullable` is false.
    NullNotNullable,
    /// The override changed the type only; `reason` says why the default does not convert.
    TypeOverridden { reason: String },
    /// The override changed the default only.
    DefaultOverridden { reason: String },
    /// The override changed both, or neither.
    NotOfType { reason: String },
}

/// One merged argument of a variable.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MergedSetting {
    pub(crate) name: &'static str,
    pub(crate) span: Span,
    pub(crate) from_override: bool,
}
