//! Which rules run, at which severity, with which options: defaults, then the config file, then
//! command-line flags.

use std::collections::BTreeMap;

use crate::diagnostic::{FindingId, Severity};

use super::{Kind, Registry, RuleMeta};

/// A level a rule can be set to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Level {
    Off,
    On(Severity),
}

#[derive(Debug, Clone)]
struct Entry {
    enabled: bool,
    severity: Severity,
    options: BTreeMap<String, f64>,
}

/// The effective settings of every finding id of a registry.
#[derive(Clone)]
pub(crate) struct RuleSettings {
    registry: &'static Registry,
    /// Hashed with foldhash, not SipHash: the engine looks every rule up in each view of each
    /// directory, and the keys are our own ids, so they need no protection from flooding.
    entries: foldhash::HashMap<FindingId, Entry>,
}

impl std::fmt::Debug for RuleSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RuleSettings")
            .field("entries", &self.entries)
            .finish_non_exhaustive()
    }
}

impl RuleSettings {
    /// Every id of `registry` at its default level.
    pub(crate) fn defaults(registry: &'static Registry) -> RuleSettings {
        let entries = registry
            .catalogue()
            .iter()
            .map(|meta| {
                let entry = Entry {
                    enabled: meta.enabled_by_default,
                    severity: meta.severity,
                    options: BTreeMap::new(),
                };
                (meta.id, entry)
            })
            .collect();
        RuleSettings { registry, entries }
    }

    /// The registry these settings configure.
    pub(crate) fn registry(&self) -> &'static Registry {
        self.registry
    }

    pub(crate) fn is_enabled(&self, id: FindingId) -> bool {
        self.entries.get(&id).is_some_and(|e| e.enabled)
    }

    pub(crate) fn severity(&self, meta: &RuleMeta) -> Severity {
        self.entries
            .get(&meta.id)
            .map_or(meta.severity, |e| e.severity)
    }

    /// The severity `meta`'s findings are reported at, or `None` when it is disabled: one
    /// look-up for what [`RuleSettings::is_enabled`] and [`RuleSettings::severity`] say, for
    /// the engine, which asks it of every rule in each view of each directory.
    pub(crate) fn enabled_severity(&self, meta: &RuleMeta) -> Option<Severity> {
        let entry = self.entries.get(&meta.id)?;
        entry.enabled.then_some(entry.severity)
    }

    pub(crate) fn number_option(&self, id: FindingId, name: &str) -> Option<f64> {
        self.entries.get(&id)?.options.get(name).copied()
    }

    /// The catalogue entry of an id written by a user, or the "unknown rule" message.
    pub(crate) fn find(&self, name: &str) -> Result<&'static RuleMeta, String> {
        self.registry
            .find(name)
            .ok_or_else(|| self.registry.unknown(name))
    }

    /// Sets a level. Load errors cannot be turned off or down: the tools refuse the module.
    pub(crate) fn set_level(&mut self, name: &str, level: Level) -> Result<(), String> {
        let meta = self.find(name)?;
        if meta.kind == Kind::LoadError && level != Level::On(Severity::Error) {
            return Err(format!(
                "`{name}` is a load error of Terraform/OpenTofu: it is always reported as an error"
            ));
        }
        if !meta.configurable {
            return Err(format!("`{name}` cannot be configured"));
        }
        if let Some(entry) = self.entries.get_mut(&meta.id) {
            match level {
                Level::Off => entry.enabled = false,
                Level::On(severity) => {
                    entry.enabled = true;
                    entry.severity = severity;
                }
            }
        }
        Ok(())
    }

    pub(crate) fn set_option(&mut self, id: FindingId, name: &str, value: f64) {
        if let Some(entry) = self.entries.get_mut(&id) {
            entry.options.insert(name.to_string(), value);
        }
    }

    /// `--enable-rule`: on at its configured (or default) severity.
    pub(crate) fn enable(&mut self, name: &str) -> Result<(), String> {
        let meta = self.find(name)?;
        if let Some(entry) = self.entries.get_mut(&meta.id) {
            entry.enabled = true;
        }
        Ok(())
    }

    /// `--disable-rule`.
    pub(crate) fn disable(&mut self, name: &str) -> Result<(), String> {
        self.set_level(name, Level::Off)
    }

    /// The ids a command-line selector names, as ruff's `--select`: an id; a glob
    /// (`override_*`, `*_invalid`); or a prefix of ids (`override`). An id names itself alone,
    /// whatever it is a prefix of. A glob or prefix names only what can be configured (no load
    /// error, no `internal_error`). A selector that names nothing is an error, with the closest
    /// id.
    pub(crate) fn selected(&self, selector: &str) -> Result<Vec<&'static str>, String> {
        if self.registry.find(selector).is_some() {
            return Ok(vec![self.find(selector)?.id.as_str()]);
        }
        let is_glob = selector.contains(['*', '?', '[']);
        let glob = match is_glob {
            true => Some(
                globset::Glob::new(selector)
                    .map_err(|e| format!("invalid rule glob `{selector}`: {e}"))?
                    .compile_matcher(),
            ),
            false => None,
        };
        let ids: Vec<&'static str> = (self.registry.catalogue().iter())
            .filter(|meta| meta.configurable && meta.kind != Kind::LoadError)
            .map(|meta| meta.id.as_str())
            .filter(|id| match &glob {
                Some(glob) => glob.is_match(id),
                None => id.starts_with(selector),
            })
            .collect();
        if ids.is_empty() {
            return Err(match is_glob {
                true => format!("`{selector}` matches no rule (see `tflint-merge rules`)"),
                false => self.registry.unknown(selector),
            });
        }
        Ok(ids)
    }

    /// `--only`: every rule but these is off (load errors, what `validate` refuses and the
    /// engine's findings stay as they are: they are not rules). Each name is a selector (see
    /// [`RuleSettings::selected`]); a glob or prefix passes over the validate ids it matches.
    pub(crate) fn only(&mut self, names: &[String]) -> Result<(), String> {
        let mut wanted = Vec::with_capacity(names.len());
        for name in names {
            for id in self.selected(name)? {
                let meta = self.find(id)?;
                if meta.kind == Kind::LoadError {
                    return Err(format!(
                        "`{name}` is a load error, always reported; --only takes rules"
                    ));
                }
                if meta.kind == Kind::Validate {
                    if name.as_str() == meta.id.as_str() {
                        return Err(format!(
                            "`{name}` is what `validate` refuses, reported unless turned off; \
                             --only takes rules"
                        ));
                    }
                    continue;
                }
                wanted.push(meta.id);
            }
        }
        for rule in self.registry.rules() {
            if rule.meta.kind != Kind::Rule {
                continue;
            }
            if let Some(entry) = self.entries.get_mut(&rule.id()) {
                entry.enabled = wanted.contains(&rule.id());
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::testing::stand_ins::{
        LOAD_ERROR, OFF_BY_DEFAULT, ON_BY_DEFAULT, VALIDATE, registry,
    };

    fn enabled(settings: &RuleSettings, name: &str) -> bool {
        settings.is_enabled(settings.find(name).expect("known").id)
    }

    #[test]
    fn defaults_follow_the_catalogue() {
        let settings = RuleSettings::defaults(registry());
        assert!(settings.is_enabled(ON_BY_DEFAULT.id()));
        assert!(!settings.is_enabled(OFF_BY_DEFAULT.id()));
        assert!(settings.is_enabled(LOAD_ERROR.id()));
    }

    #[test]
    fn load_errors_cannot_be_turned_off() {
        let mut settings = RuleSettings::defaults(registry());
        let name = LOAD_ERROR.id().as_str();
        assert!(settings.set_level(name, Level::Off).is_err());
        assert!(
            settings
                .set_level(name, Level::On(Severity::Warning))
                .is_err()
        );
        assert!(settings.set_level(name, Level::On(Severity::Error)).is_ok());
    }

    /// What `validate` refuses is on by default as an error, and users may turn it down or off
    /// (the tools decide some of it only while evaluating); `--only` leaves it as it is.
    #[test]
    fn what_validate_refuses_is_configurable() {
        let mut settings = RuleSettings::defaults(registry());
        let name = VALIDATE.id().as_str();
        assert!(enabled(&settings, name));
        assert_eq!(settings.severity(&VALIDATE.meta), Severity::Error);
        settings
            .set_level(name, Level::On(Severity::Warning))
            .expect("configurable");
        assert_eq!(settings.severity(&VALIDATE.meta), Severity::Warning);
        settings.set_level(name, Level::Off).expect("configurable");
        assert!(!enabled(&settings, name));
        let mut settings = RuleSettings::defaults(registry());
        settings
            .only(&[OFF_BY_DEFAULT.id().as_str().to_string()])
            .expect("valid");
        assert!(enabled(&settings, name));
        assert!(settings.only(&[name.to_string()]).is_err());
    }

    #[test]
    fn only_keeps_just_those_rules() {
        let mut settings = RuleSettings::defaults(registry());
        let kept = OFF_BY_DEFAULT.id().as_str().to_string();
        settings.only(&[kept]).expect("valid");
        assert!(settings.is_enabled(OFF_BY_DEFAULT.id()));
        assert!(!settings.is_enabled(ON_BY_DEFAULT.id()));
        assert!(enabled(&settings, LOAD_ERROR.id().as_str()));
    }

    #[test]
    fn unknown_rules_suggest_a_close_one() {
        let settings = RuleSettings::defaults(registry());
        assert_eq!(
            settings.find("override_noops").map(|m| m.id),
            Err("unknown rule `override_noops`; did you mean `override_noop`?".to_string())
        );
        assert!(RuleSettings::defaults(registry()).enable("nope").is_err());
    }
}
