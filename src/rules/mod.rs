//! The catalogue of finding ids. Every id has a user doc at `rules/<id>.md`, embedded in the
//! binary for `tflint-merge explain`.
//!
//! The ids here are reported by the loading stages themselves (reading, parsing, merging): they
//! are what Terraform and OpenTofu report as load errors, so they are always on and always
//! errors.

use crate::diagnostic::Severity;

/// What users can know about a finding id without running anything.
#[derive(Debug, Clone, Copy)]
pub struct RuleMeta {
    pub id: &'static str,
    pub severity: Severity,
    pub summary: &'static str,
    /// The user doc (Markdown).
    pub doc: &'static str,
}

macro_rules! load_error {
    ($id:literal, $summary:literal) => {
        RuleMeta {
            id: $id,
            severity: Severity::Error,
            summary: $summary,
            doc: include_str!(concat!("../../rules/", $id, ".md")),
        }
    };
}

/// Findings of the loading stages, in alphabetical order.
pub const LOAD_ERRORS: &[RuleMeta] = &[
    load_error!(
        "backend_cloud_conflict",
        "a module has both a backend and a cloud block"
    ),
    load_error!(
        "count_and_for_each",
        "one block sets both count and for_each"
    ),
    load_error!(
        "duplicate_definition",
        "an object or argument is defined twice in the primary files"
    ),
    load_error!("io_error", "a file or directory could not be read"),
    load_error!(
        "missing_required_argument",
        "a module call without source or an output without value"
    ),
    load_error!(
        "module_version_local_source",
        "a module call with a local source sets version"
    ),
    load_error!("override_depends_on", "depends_on in an override file"),
    load_error!(
        "override_not_allowed",
        "a block that override files may not contain"
    ),
    load_error!(
        "override_variable_default_invalid",
        "an override made a variable's default invalid for its type"
    ),
    load_error!(
        "override_without_base",
        "an override block with nothing to merge into"
    ),
    load_error!(
        "read_error",
        "a file that is not valid configuration text (not UTF-8, too large, a directory)"
    ),
    load_error!(
        "required_providers_outside_terraform",
        "a required_providers block outside a terraform block"
    ),
    load_error!("syntax_error", "a file that does not parse"),
    load_error!(
        "variable_default_invalid",
        "a variable's default does not convert to its type"
    ),
];

/// Looks up any finding id.
pub fn find(id: &str) -> Option<&'static RuleMeta> {
    LOAD_ERRORS.iter().find(|r| r.id == id)
}
