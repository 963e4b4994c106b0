//! The arguments and nested blocks of the tool-defined blocks, and the `language` block's
//! settings (spec §4, §6). Provider-defined bodies (resources, data sources) are not here: their
//! schema comes from the provider, which we do not have.

/// Arguments and nested blocks of a `variable` block.
pub(crate) const VARIABLE: &[&str] = &[
    "description",
    "default",
    "type",
    "sensitive",
    "nullable",
    "ephemeral",
    "const",
    "deprecated",
    "validation",
];

/// Arguments and nested blocks of an `output` block.
pub(crate) const OUTPUT: &[&str] = &[
    "value",
    "description",
    "sensitive",
    "ephemeral",
    "deprecated",
    "type",
    "depends_on",
    "precondition",
];

/// Arguments and nested blocks of a `lifecycle` block (of either tool).
pub(crate) const LIFECYCLE: &[&str] = &[
    "create_before_destroy",
    "prevent_destroy",
    "ignore_changes",
    "replace_triggered_by",
    "precondition",
    "postcondition",
    "destroy",
    "enabled",
    "action_trigger",
];

/// Arguments of a module call that are not input variables.
pub(crate) const MODULE_CALL_META: &[&str] = &[
    "source",
    "version",
    "count",
    "for_each",
    "providers",
    "depends_on",
    "enabled",
];

/// The only edition OpenTofu's `language { edition = ... }` accepts.
pub(crate) const LANGUAGE_EDITION: &str = "tofu2024";

/// The experiments the current OpenTofu language offers (`language { experiments = [...] }`).
pub(crate) const LANGUAGE_EXPERIMENTS: &[&str] = &[];
