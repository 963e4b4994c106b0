//! The catalogue of every finding id the engine is given (rules, load errors and the engine's own
//! findings, each declared in its file of `src/rules`), looked up by name.

use std::collections::HashMap;

use super::{Rule, RuleMeta};

/// Every finding id, sorted by id, with the rules to run. Built once per run.
pub(crate) struct Registry {
    rules: Vec<&'static Rule>,
    catalogue: Vec<&'static RuleMeta>,
    by_name: HashMap<&'static str, usize>,
}

impl Registry {
    /// The catalogue of `rules`.
    pub(crate) fn new(rules: &[&'static Rule]) -> Registry {
        let mut catalogue: Vec<&'static RuleMeta> = rules.iter().map(|r| &r.meta).collect();
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
