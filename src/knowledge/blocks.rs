//! The arguments and nested blocks of the tool-defined blocks, and the `language` block's
//! settings: the `hcl.BodySchema` values (`variableBlockSchema`, `moduleBlockSchema`...) of
//! `internal/configs/*.go` in hashicorp/terraform and opentofu/opentofu, and OpenTofu's
//! `internal/configs/language.go`. Provider-defined bodies (resources, data sources) are not
//! here: their schema comes from the provider, which we do not have.

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

/// The experiments Terraform's development line lists as concluded, with the message it gives
/// (`internal/experiments/experiment.go`, `registerConcludedExperiment`); it has no current
/// experiment, so any other keyword is unknown.
pub(crate) const TERRAFORM_CONCLUDED_EXPERIMENTS: &[(&str, &str)] = &[
    (
        "unknown_instances",
        "Unknown instances are being rolled into a larger feature for deferring unready \
         resources and modules.",
    ),
    (
        "variable_validation",
        "Custom variable validation can now be used by default, without enabling an experiment.",
    ),
    (
        "variable_validation_crossref",
        "Input variable validation rules may now refer to other objects in the same module \
         without enabling any experiment.",
    ),
    (
        "provider_sensitive_attrs",
        "Provider-defined sensitive attributes are now redacted by default, without enabling an \
         experiment.",
    ),
    (
        "template_string_func",
        "The templatestring function can now be used without enabling an experiment.",
    ),
    (
        "config_driven_move",
        "Declarations of moved resource instances using \"moved\" blocks can now be used by \
         default, without enabling an experiment.",
    ),
    (
        "preconditions_postconditions",
        "Condition blocks can now be used by default, without enabling an experiment.",
    ),
    (
        "ephemeral_values",
        "Ephemeral values can now be used by default, without enabling an experiment.",
    ),
    (
        "module_variable_optional_attrs",
        "The final feature corresponding to this experiment differs from the experimental form \
         and is available in the Terraform language from Terraform v1.3.0 onwards.",
    ),
];

/// The label names of a top-level block type (`configFileSchema` in
/// `internal/configs/parser_config.go`), or `None` for a type not in the schema. HCL refuses a
/// block with other labels and the tools skip it.
pub(crate) fn top_level_labels(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "resource" | "data" | "ephemeral" | "action" => &["type", "name"],
        "provider" | "variable" | "output" | "module" | "check" => &["name"],
        "terraform" | "locals" | "moved" | "import" | "removed" | "language" => &[],
        _ => return None,
    })
}

/// The label names of a block nested in `terraform` (`terraformBlockSchema`), or `None` for
/// a type not in the schema.
pub(crate) fn terraform_nested_labels(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "backend" | "state_store" => &["type"],
        "provider_meta" => &["provider"],
        "cloud" | "required_providers" => &[],
        _ => return None,
    })
}

/// The label names of a block of the tools' schema nested in a top-level block of type
/// `parent` (or, for `parent` "lifecycle", in a resource's `lifecycle`), or `None` for a type
/// the schema does not have there (a provider's or module call's body is not the tools'):
/// hashicorp/terraform `internal/configs/resource.go` (`resourceBlockSchema`,
/// `dataBlockSchema`, `resourceLifecycleBlockSchema`), `named_values.go`, `checks.go`,
/// `removed.go`. HCL refuses a block with other labels and the tools skip it.
pub(crate) fn nested_labels(parent: &str, kind: &str) -> Option<&'static [&'static str]> {
    Some(match (parent, kind) {
        ("resource" | "removed", "lifecycle" | "connection") => &[],
        ("resource" | "removed", "provisioner") => &["type"],
        ("data" | "ephemeral", "lifecycle") => &[],
        ("variable", "validation") => &[],
        ("output", "precondition") => &[],
        ("check", "data") => &["type", "name"],
        ("check", "assert") => &[],
        ("lifecycle", "precondition" | "postcondition" | "action_trigger") => &[],
        _ => return None,
    })
}
