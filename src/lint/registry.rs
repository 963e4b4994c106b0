//! The catalogue of every finding id the engine is given (rules, load errors and the engine's own
//! findings, each declared in its file of `src/rules`), looked up by name.

use std::collections::HashMap;

use super::{Rule, RuleMeta, TargetKind};

/// Every finding id, sorted by id, with the rules to run. Built once per run.
pub(crate) struct Registry {
    rules: Vec<&'static Rule>,
    /// The rules with a check of each kind of target, in the order given (indexed by the kind).
    checking: Vec<Vec<&'static Rule>>,
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
        let checking = (TargetKind::ALL.iter())
            .map(|&kind| {
                let checks = |r: &&&Rule| r.checks.iter().any(|c| c.runs_on() == kind);
                rules.iter().filter(checks).copied().collect()
            })
            .collect();
        Registry {
            rules: rules.to_vec(),
            checking,
            catalogue,
            by_name,
        }
    }

    /// The rules, in the order given.
    pub(crate) fn rules(&self) -> &[&'static Rule] {
        &self.rules
    }

    /// The rules with a check that runs on `kind`, in the order given.
    pub(crate) fn checking(&self, kind: TargetKind) -> &[&'static Rule] {
        &self.checking[kind as usize]
    }

    /// Every finding id, sorted by id.
    pub(crate) fn catalogue(&self) -> &[&'static RuleMeta] {
        &self.catalogue
    }

    /// Looks up any finding id by name.
    pub(crate) fn find(&self, name: &str) -> Option<&'static RuleMeta> {
        self.by_name.get(name).map(|&i| self.catalogue[i])
    }

    /// The known id closest to a name that is none, if one is close enough to suggest.
    pub(crate) fn closest(&self, name: &str) -> Option<&'static str> {
        super::helpers::closest(name, self.catalogue.iter().map(|m| m.id.as_str()))
    }

    /// "unknown rule `x`", with the closest known id when there is one.
    pub(crate) fn unknown(&self, name: &str) -> String {
        Self::unknown_with(name, self.closest(name))
    }

    /// As [`Registry::unknown`], for a caller that has looked up the closest id already.
    pub(crate) fn unknown_with(name: &str, closest: Option<&str>) -> String {
        match closest {
            Some(close) => format!("unknown rule `{name}`; did you mean `{close}`?"),
            None => format!("unknown rule `{name}` (see `tflint-merge rules`)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::testing::stand_ins::{LOAD_ERROR, MERGE_PROBLEMS, ON_BY_DEFAULT};

    /// The registry indexes its lists by the kinds' discriminants: `ALL` is in their order.
    #[test]
    fn rules_are_listed_by_what_they_check() {
        for (index, kind) in TargetKind::ALL.iter().enumerate() {
            assert_eq!(*kind as usize, index, "{kind:?}");
        }
        let registry = Registry::new(&[&ON_BY_DEFAULT, &MERGE_PROBLEMS, &LOAD_ERROR]);
        let ids = |kind| -> Vec<&str> {
            let rules = registry.checking(kind).iter();
            rules.map(|r| r.id().as_str()).collect()
        };
        assert_eq!(
            ids(TargetKind::View),
            ["override_noop", "duplicate_definition"]
        );
        assert_eq!(ids(TargetKind::Merge), ["override_without_base"]);
        assert!(ids(TargetKind::Crash).is_empty());
    }
}
