//! Finding ids: `override_without_base`, `syntax_error`, `unused_ignore`...
//!
//! A [`FindingId`] is made only by [`finding_id!`], which embeds the id's user doc
//! (`rules/<id>.md`) at compile time: an id without a doc does not compile, so neither does a
//! misspelled one. Load errors and engine findings have their constants here (every stage
//! reports them); each rule's id is made by `declare_rule!` in its own file.

use std::fmt;
use std::hash::{Hash, Hasher};

/// A finding id, with its user documentation.
#[derive(Clone, Copy)]
pub struct FindingId {
    name: &'static str,
    doc: &'static str,
}

impl FindingId {
    /// Use [`finding_id!`]: it proves that the doc exists (and is UTF-8: a const that makes
    /// a `FindingId` of one that is not fails to compile).
    #[doc(hidden)]
    pub(crate) const fn documented(name: &'static str, doc: &'static [u8]) -> FindingId {
        match std::str::from_utf8(doc) {
            Ok(doc) => FindingId { name, doc },
            Err(_) => panic!("a finding id's doc is not UTF-8"),
        }
    }

    /// The snake_case id, as users write it in config files and ignore comments.
    pub fn as_str(self) -> &'static str {
        self.name
    }

    /// The user doc (Markdown), as in `rules/<id>.md`.
    pub fn doc(self) -> &'static str {
        self.doc
    }
}

// Identity is the name: the doc is the same text wherever an id is made.
impl PartialEq for FindingId {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for FindingId {}

impl Hash for FindingId {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.hash(state);
    }
}

impl PartialOrd for FindingId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for FindingId {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.name.cmp(other.name)
    }
}

impl fmt::Debug for FindingId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.name)
    }
}

impl serde::Serialize for FindingId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name)
    }
}

impl fmt::Display for FindingId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// The [`FindingId`] named by a string literal; fails to compile unless `rules/<id>.md` exists.
macro_rules! finding_id {
    ($id:literal) => {
        $crate::diagnostic::FindingId::documented(
            $id,
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/rules/", $id, ".md")),
        )
    };
}
pub(crate) use finding_id;

/// The ids of load errors (what makes Terraform or OpenTofu refuse the module) and of the
/// engine's own findings.
pub(crate) mod ids {
    use super::FindingId;

    pub(crate) const BACKEND_AND_CLOUD: FindingId = finding_id!("backend_and_cloud");
    pub(crate) const BACKEND_DUPLICATE: FindingId = finding_id!("backend_duplicate");
    pub(crate) const CONST_VARIABLE_INVALID: FindingId = finding_id!("const_variable_invalid");
    pub(crate) const CORE_VERSION_UNSUPPORTED: FindingId = finding_id!("core_version_unsupported");
    pub(crate) const COUNT_AND_FOR_EACH: FindingId = finding_id!("count_and_for_each");
    pub(crate) const DEPENDS_ON_ACTION: FindingId = finding_id!("depends_on_action");
    pub(crate) const DUPLICATE_DEFINITION: FindingId = finding_id!("duplicate_definition");
    pub(crate) const IO_ERROR: FindingId = finding_id!("io_error");
    pub(crate) const LANGUAGE_BLOCK_IN_OVERRIDE: FindingId =
        finding_id!("language_block_in_override");
    pub(crate) const LEGACY_MODULE_META_ARGUMENT: FindingId =
        finding_id!("legacy_module_meta_argument");
    pub(crate) const MISSING_REQUIRED_ARGUMENT: FindingId =
        finding_id!("missing_required_argument");
    pub(crate) const MODULE_SOURCE_MISSING: FindingId = finding_id!("module_source_missing");
    pub(crate) const MODULE_VERSION_WITHOUT_REGISTRY_SOURCE: FindingId =
        finding_id!("module_version_without_registry_source");
    pub(crate) const OVERRIDE_DEPENDS_ON: FindingId = finding_id!("override_depends_on");
    pub(crate) const OVERRIDE_NOT_ALLOWED: FindingId = finding_id!("override_not_allowed");
    pub(crate) const OVERRIDE_VARIABLE_DEFAULT_INVALID: FindingId =
        finding_id!("override_variable_default_invalid");
    pub(crate) const OVERRIDE_WITHOUT_BASE: FindingId = finding_id!("override_without_base");
    pub(crate) const PARSE_LIMIT: FindingId = finding_id!("parse_limit");
    pub(crate) const PROVISIONER_REMOVED: FindingId = finding_id!("provisioner_removed");
    pub(crate) const READ_ERROR: FindingId = finding_id!("read_error");
    pub(crate) const REQUIRED_PROVIDERS_TOP_LEVEL: FindingId =
        finding_id!("required_providers_top_level");
    pub(crate) const TYPE_CONSTRAINT_INVALID: FindingId = finding_id!("type_constraint_invalid");
    pub(crate) const UNKNOWN_FUNCTION: FindingId = finding_id!("unknown_function");
    pub(crate) const UNSUPPORTED_CONSTRUCT: FindingId = finding_id!("unsupported_construct");
    pub(crate) const SYNTAX_ERROR: FindingId = finding_id!("syntax_error");
    pub(crate) const VARIABLE_DEFAULT_INVALID: FindingId = finding_id!("variable_default_invalid");

    /// An inline ignore comment that silenced nothing.
    pub(crate) const UNUSED_IGNORE: FindingId = finding_id!("unused_ignore");
    /// A panic while checking a directory or running a rule.
    pub(crate) const INTERNAL_ERROR: FindingId = finding_id!("internal_error");
}
