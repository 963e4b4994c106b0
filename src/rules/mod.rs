//! Every finding id, one file each (`src/rules/<id>.rs`: metadata, diagnostics, check, pass/fail
//! table) — the rules, the load errors of Terraform/OpenTofu and the engine's own findings —
//! and their list. The doc of each is `rules/<id>.md`. To add one, see CONTRIBUTING.md ("Adding
//! a rule") or run `scripts/new_rule.sh ID` (`scripts/new_rule.sh --load-error ID` for a load
//! error).

use std::sync::OnceLock;

use crate::lint::{Registry, Rule};

mod backend_and_cloud;
mod backend_duplicate;
mod backend_removed;
mod backend_unknown;
mod block_labels_invalid;
mod builtin_attribute_invalid;
mod check_without_assert;
mod condition_without_reference;
mod const_variable_invalid;
mod constant_bool_invalid;
mod core_version_unsupported;
mod count_and_for_each;
mod depends_on_action;
mod depends_on_reference_invalid;
mod duplicate_definition;
mod feature_newer_than_target;
mod function_argument_count;
mod function_argument_type;
mod import_duplicate_target;
mod import_provider_invalid;
mod import_target_not_static;
mod instance_reference_invalid;
mod internal_error;
mod io_error;
mod language_block_duplicate;
mod language_block_in_override;
mod language_block_in_tf_file;
mod language_block_nested;
mod language_compatible_with_duplicate;
mod language_edition_unsupported;
mod language_experiments_unknown;
mod language_settings_not_constant;
mod legacy_module_meta_argument;
mod missing_required_argument;
mod module_count_and_for_each;
mod module_input_missing;
mod module_input_unknown;
mod module_local_source_missing;
mod module_output_undeclared;
mod module_provider_alias_missing;
mod module_provider_key_undeclared;
mod module_provider_type_mismatch;
mod module_provider_undeclared;
mod module_reserved_block;
mod module_source_invalid;
mod module_source_missing;
mod module_source_not_static;
mod module_version_missing;
mod module_version_without_registry_source;
mod name_invalid;
mod nested_block_duplicate;
mod object_duplicate_key;
mod output_sensitive_value;
mod override_clobbers_nested_blocks;
mod override_count_for_each_conflict;
mod override_depends_on;
mod override_ignored_setting;
mod override_lookalike_filename;
mod override_misspelled_argument;
mod override_noop;
mod override_not_allowed;
mod override_only_file;
mod override_replaces_provisioners;
mod override_shadowed;
mod override_undocumented;
mod override_variable_default_invalid;
mod override_without_base;
mod parse_limit;
mod provider_meta_not_static;
mod provider_reference_quoted;
mod provider_reserved_argument;
mod provisioner_removed;
mod read_error;
mod reference_not_static;
mod reference_string_invalid;
mod replace_triggered_by_invalid;
mod required_providers_top_level;
mod required_version_conflict;
mod required_version_ignored;
mod required_version_terraform_only;
mod resource_provider_undeclared;
mod self_reference_invalid;
mod syntax_error;
mod syntax_newer_than_target;
mod terraform_language_ignored;
mod terragrunt_config_path_missing;
mod terragrunt_dependency_cycle;
mod terragrunt_deprecated_include_functions;
mod terragrunt_import_cycle;
mod terragrunt_import_duplicate_label;
mod terragrunt_import_undeclared;
mod terragrunt_import_unknown_attribute;
mod terragrunt_import_unknown_dependency;
mod terragrunt_import_without_config_path;
mod terragrunt_include_and_import;
mod terragrunt_include_deprecated;
mod terragrunt_include_nested;
mod terragrunt_input_required_missing;
mod terragrunt_input_type_mismatch;
mod terragrunt_input_unknown;
mod terragrunt_merge_conflict;
mod terragrunt_merged_dependency_cycle;
mod terragrunt_unresolvable_path;
mod tofu_shadows_tf;
mod type_constraint_invalid;
mod undeclared_reference;
mod unknown_function;
mod unsupported_construct;
mod unused_declaration;
mod unused_ignore;
mod variable_default_invalid;
mod version_constraint_ineffective;
mod version_constraint_invalid;
mod version_constraint_too_loose;
mod version_constraint_too_tight;
mod views_diverge;

/// `io_error`: a run with one has not checked everything, and the command line exits with status
/// 2.
pub(crate) use core_version_unsupported::RULE as CORE_VERSION_UNSUPPORTED;
pub(crate) use io_error::RULE as IO_ERROR;
/// `parse_limit` and `syntax_error`: for the property tests of fixes, which leave alone the
/// files that do not parse.
#[cfg(test)]
pub(crate) use {parse_limit::RULE as PARSE_LIMIT, syntax_error::RULE as SYNTAX_ERROR};

/// Every finding id's rule, in alphabetical order.
pub(crate) static RULES: &[&Rule] = &[
    &backend_and_cloud::RULE,
    &backend_duplicate::RULE,
    &backend_removed::RULE,
    &backend_unknown::RULE,
    &block_labels_invalid::RULE,
    &builtin_attribute_invalid::RULE,
    &check_without_assert::RULE,
    &condition_without_reference::RULE,
    &const_variable_invalid::RULE,
    &constant_bool_invalid::RULE,
    &core_version_unsupported::RULE,
    &count_and_for_each::RULE,
    &depends_on_action::RULE,
    &depends_on_reference_invalid::RULE,
    &duplicate_definition::RULE,
    &feature_newer_than_target::RULE,
    &function_argument_count::RULE,
    &function_argument_type::RULE,
    &import_duplicate_target::RULE,
    &import_provider_invalid::RULE,
    &import_target_not_static::RULE,
    &instance_reference_invalid::RULE,
    &internal_error::RULE,
    &io_error::RULE,
    &language_block_duplicate::RULE,
    &language_block_in_override::RULE,
    &language_block_in_tf_file::RULE,
    &language_block_nested::RULE,
    &language_compatible_with_duplicate::RULE,
    &language_edition_unsupported::RULE,
    &language_experiments_unknown::RULE,
    &language_settings_not_constant::RULE,
    &legacy_module_meta_argument::RULE,
    &missing_required_argument::RULE,
    &module_count_and_for_each::RULE,
    &module_input_missing::RULE,
    &module_input_unknown::RULE,
    &module_local_source_missing::RULE,
    &module_output_undeclared::RULE,
    &module_provider_alias_missing::RULE,
    &module_provider_key_undeclared::RULE,
    &module_provider_type_mismatch::RULE,
    &module_provider_undeclared::RULE,
    &module_reserved_block::RULE,
    &module_source_invalid::RULE,
    &module_source_missing::RULE,
    &module_source_not_static::RULE,
    &module_version_missing::RULE,
    &module_version_without_registry_source::RULE,
    &name_invalid::RULE,
    &nested_block_duplicate::RULE,
    &object_duplicate_key::RULE,
    &output_sensitive_value::RULE,
    &override_clobbers_nested_blocks::RULE,
    &override_count_for_each_conflict::RULE,
    &override_depends_on::RULE,
    &override_ignored_setting::RULE,
    &override_lookalike_filename::RULE,
    &override_misspelled_argument::RULE,
    &override_noop::RULE,
    &override_not_allowed::RULE,
    &override_only_file::RULE,
    &override_replaces_provisioners::RULE,
    &override_shadowed::RULE,
    &override_undocumented::RULE,
    &override_variable_default_invalid::RULE,
    &override_without_base::RULE,
    &parse_limit::RULE,
    &provider_meta_not_static::RULE,
    &provider_reference_quoted::RULE,
    &provider_reserved_argument::RULE,
    &provisioner_removed::RULE,
    &read_error::RULE,
    &reference_not_static::RULE,
    &reference_string_invalid::RULE,
    &replace_triggered_by_invalid::RULE,
    &required_providers_top_level::RULE,
    &required_version_conflict::RULE,
    &required_version_ignored::RULE,
    &required_version_terraform_only::RULE,
    &resource_provider_undeclared::RULE,
    &self_reference_invalid::RULE,
    &syntax_error::RULE,
    &syntax_newer_than_target::RULE,
    &terraform_language_ignored::RULE,
    &terragrunt_config_path_missing::RULE,
    &terragrunt_dependency_cycle::RULE,
    &terragrunt_deprecated_include_functions::RULE,
    &terragrunt_import_cycle::RULE,
    &terragrunt_import_duplicate_label::RULE,
    &terragrunt_import_undeclared::RULE,
    &terragrunt_import_unknown_attribute::RULE,
    &terragrunt_import_unknown_dependency::RULE,
    &terragrunt_import_without_config_path::RULE,
    &terragrunt_include_and_import::RULE,
    &terragrunt_include_deprecated::RULE,
    &terragrunt_include_nested::RULE,
    &terragrunt_input_required_missing::RULE,
    &terragrunt_input_type_mismatch::RULE,
    &terragrunt_input_unknown::RULE,
    &terragrunt_merge_conflict::RULE,
    &terragrunt_merged_dependency_cycle::RULE,
    &terragrunt_unresolvable_path::RULE,
    &tofu_shadows_tf::RULE,
    &type_constraint_invalid::RULE,
    &undeclared_reference::RULE,
    &unknown_function::RULE,
    &unsupported_construct::RULE,
    &unused_declaration::RULE,
    &unused_ignore::RULE,
    &variable_default_invalid::RULE,
    &version_constraint_ineffective::RULE,
    &version_constraint_invalid::RULE,
    &version_constraint_too_loose::RULE,
    &version_constraint_too_tight::RULE,
    &views_diverge::RULE,
];

/// The catalogue of this build: [`RULES`].
pub(crate) fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| Registry::new(RULES))
}

/// Checks `dir` in both views with every rule at its default: for the tests of the stages after
/// the rules (formats, the language server) that need the findings of a real run.
#[cfg(test)]
pub(crate) fn check_with_defaults(
    dir: &std::path::Path,
) -> crate::lint::directory::DirectoryResult {
    use crate::lint::directory::{Options, ViewSelection, check_directory};
    let settings = crate::lint::RuleSettings::defaults(registry());
    check_directory(dir, &Options::new(ViewSelection::Both, settings))
}
