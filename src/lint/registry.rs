//! The catalogue of every finding id: load errors and engine findings (listed here, since the
//! loading stages and the engine report them) and the rules the engine is given.

use std::collections::HashMap;

use crate::diagnostic::{FindingId, Severity, ids};

use super::{Fixes, Kind, Rule, RuleMeta};

const fn load_error(id: FindingId, summary: &'static str) -> RuleMeta {
    RuleMeta {
        id,
        kind: Kind::LoadError,
        severity: Severity::Error,
        enabled_by_default: true,
        summary,
        fixes: Fixes::None,
    }
}

/// Findings of the loading stages, in alphabetical order.
pub(crate) const LOAD_ERRORS: &[RuleMeta] = &[
    load_error(
        ids::BACKEND_AND_CLOUD,
        "a module has both a backend and a cloud block",
    ),
    load_error(ids::BACKEND_DUPLICATE, "a second backend or cloud block"),
    load_error(
        ids::CONST_VARIABLE_INVALID,
        "a const variable that is also sensitive or ephemeral (Terraform)",
    ),
    load_error(
        ids::CORE_VERSION_UNSUPPORTED,
        "the module's version constraints exclude every targeted release",
    ),
    load_error(
        ids::COUNT_AND_FOR_EACH,
        "one block sets both count and for_each",
    ),
    load_error(
        ids::DEPENDS_ON_ACTION,
        "an action in depends_on (Terraform)",
    ),
    load_error(
        ids::DUPLICATE_DEFINITION,
        "an object or argument is defined twice in the primary files",
    ),
    load_error(ids::IO_ERROR, "a file or directory could not be read"),
    load_error(
        ids::LANGUAGE_BLOCK_IN_OVERRIDE,
        "a language block in an override file (OpenTofu)",
    ),
    load_error(
        ids::LEGACY_MODULE_META_ARGUMENT,
        "count, for_each, depends_on or enabled in a call to a module that configures providers",
    ),
    load_error(
        ids::MISSING_REQUIRED_ARGUMENT,
        "an output without value, or a condition block without condition or error_message",
    ),
    load_error(ids::MODULE_SOURCE_MISSING, "a module call without source"),
    load_error(
        ids::MODULE_VERSION_WITHOUT_REGISTRY_SOURCE,
        "a module call with a non-registry source sets version",
    ),
    RuleMeta {
        fixes: Fixes::Unsafe,
        ..load_error(ids::OVERRIDE_DEPENDS_ON, "depends_on in an override file")
    },
    load_error(
        ids::OVERRIDE_NOT_ALLOWED,
        "a block that override files may not contain",
    ),
    load_error(
        ids::OVERRIDE_VARIABLE_DEFAULT_INVALID,
        "an override made a variable's default invalid for its type",
    ),
    load_error(
        ids::OVERRIDE_WITHOUT_BASE,
        "an override block with nothing to merge into",
    ),
    load_error(
        ids::PARSE_LIMIT,
        "a file beyond what tflint-merge's parser can check",
    ),
    load_error(
        ids::PROVISIONER_REMOVED,
        "a provisioner type the tools removed (chef, habitat, puppet, salt-masterless)",
    ),
    load_error(
        ids::READ_ERROR,
        "a file that is not valid configuration text (not UTF-8, too large, a directory)",
    ),
    load_error(
        ids::REQUIRED_PROVIDERS_TOP_LEVEL,
        "a required_providers block outside a terraform block",
    ),
    load_error(ids::SYNTAX_ERROR, "a file that does not parse"),
    load_error(
        ids::TYPE_CONSTRAINT_INVALID,
        "a variable or output type that is not a type constraint",
    ),
    load_error(
        ids::UNKNOWN_FUNCTION,
        "a call to a function no targeted release has",
    ),
    load_error(
        ids::UNSUPPORTED_CONSTRUCT,
        "a block or argument no targeted release accepts in a tool-defined block",
    ),
    load_error(
        ids::VARIABLE_DEFAULT_INVALID,
        "a variable's default does not convert to its type",
    ),
];

/// An inline ignore comment that silenced nothing.
pub(crate) const UNUSED_IGNORE: RuleMeta = RuleMeta {
    id: ids::UNUSED_IGNORE,
    kind: Kind::Engine,
    severity: Severity::Warning,
    enabled_by_default: true,
    summary: "an inline ignore comment that silences nothing",
    fixes: Fixes::Safe,
};

/// A panic while checking a directory: its findings there are missing.
pub(crate) const INTERNAL_ERROR: RuleMeta = RuleMeta {
    id: ids::INTERNAL_ERROR,
    kind: Kind::Engine,
    severity: Severity::Error,
    enabled_by_default: true,
    summary: "a rule crashed; its findings for that directory are missing",
    fixes: Fixes::None,
};

/// Every finding id, sorted by id, with the rules to run. Built once per run.
pub(crate) struct Registry {
    rules: Vec<&'static Rule>,
    catalogue: Vec<&'static RuleMeta>,
    by_name: HashMap<&'static str, usize>,
}

impl Registry {
    /// The load errors, the engine findings and `rules`.
    pub(crate) fn new(rules: &[&'static Rule]) -> Registry {
        let mut catalogue: Vec<&'static RuleMeta> = LOAD_ERRORS
            .iter()
            .chain(rules.iter().map(|r| &r.meta))
            .chain([&UNUSED_IGNORE, &INTERNAL_ERROR])
            .collect();
        catalogue.sort_by_key(|m| m.id);
        let by_name = catalogue
            .iter()
            .enumerate()
            .map(|(i, m)| (m.id.as_str(), i))
            .collect();
        Registry {
            rules: rules.to_vec(),
            catalogue,
            by_name,
        }
    }

    /// The rules, in the order given.
    pub(crate) fn rules(&self) -> &[&'static Rule] {
        &self.rules
    }

    /// Every finding id, sorted by id.
    pub(crate) fn catalogue(&self) -> &[&'static RuleMeta] {
        &self.catalogue
    }

    /// Looks up any finding id by name.
    pub(crate) fn find(&self, name: &str) -> Option<&'static RuleMeta> {
        self.by_name.get(name).map(|&i| self.catalogue[i])
    }

    /// "unknown rule `x`", with the closest known id when there is one.
    pub(crate) fn unknown(&self, name: &str) -> String {
        let names = self.catalogue.iter().map(|m| m.id.as_str());
        match super::helpers::closest(name, names) {
            Some(close) => format!("unknown rule `{name}`; did you mean `{close}`?"),
            None => format!("unknown rule `{name}` (see `tflint-merge rules`)"),
        }
    }
}
