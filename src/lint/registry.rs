//! The catalogue of every finding id: load errors and engine findings (listed here, since the
//! loading stages and the engine report them) and the rules the engine is given.

use std::collections::HashMap;

use crate::diagnostic::{Severity, ids};

use super::{Fixes, Kind, Rule, RuleMeta};

/// An inline ignore comment that silenced nothing.
pub(crate) const UNUSED_IGNORE: RuleMeta = RuleMeta {
    id: ids::UNUSED_IGNORE,
    kind: Kind::Engine,
    severity: Severity::Warning,
    enabled_by_default: true,
    summary: "an inline ignore comment that silences nothing",
    fixes: Fixes::Safe,
    configurable: true,
};

/// A panic while checking a directory: its findings there are missing.
pub(crate) const INTERNAL_ERROR: RuleMeta = RuleMeta {
    id: ids::INTERNAL_ERROR,
    kind: Kind::Engine,
    severity: Severity::Error,
    enabled_by_default: true,
    summary: "a rule crashed; its findings for that directory are missing",
    fixes: Fixes::None,
    configurable: false,
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
        let declared = |meta: &RuleMeta| rules.iter().any(|r| r.id() == meta.id);
        let mut catalogue: Vec<&'static RuleMeta> = [&UNUSED_IGNORE, &INTERNAL_ERROR]
            .into_iter()
            .filter(|meta| !declared(meta))
            .chain(rules.iter().map(|r| &r.meta))
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
