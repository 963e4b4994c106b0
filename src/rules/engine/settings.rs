//! Which rules run, at which severity, with which options: defaults, then the config file, then
//! command-line flags.

use std::collections::{BTreeMap, HashMap};

use crate::diagnostic::Severity;

use crate::rules::{Kind, RuleMeta, catalogue};

/// A level a rule can be set to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Off,
    On(Severity),
}

/// An option value from the config file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OptionValue {
    Number(f64),
    Bool(bool),
}

#[derive(Debug, Clone)]
struct Entry {
    enabled: bool,
    severity: Severity,
    options: BTreeMap<String, OptionValue>,
}

/// The effective settings of every finding id.
#[derive(Debug, Clone)]
pub struct RuleSettings {
    entries: HashMap<&'static str, Entry>,
}

impl Default for RuleSettings {
    fn default() -> Self {
        RuleSettings::defaults()
    }
}

impl RuleSettings {
    pub fn defaults() -> RuleSettings {
        RuleSettings {
            entries: catalogue()
                .into_iter()
                .map(|meta| {
                    (
                        meta.id,
                        Entry {
                            enabled: meta.enabled_by_default,
                            severity: meta.severity,
                            options: BTreeMap::new(),
                        },
                    )
                })
                .collect(),
        }
    }

    pub fn is_enabled(&self, id: &str) -> bool {
        self.entries.get(id).is_some_and(|e| e.enabled)
    }

    pub fn severity(&self, meta: &RuleMeta) -> Severity {
        self.entries
            .get(meta.id)
            .map_or(meta.severity, |e| e.severity)
    }

    pub fn number_option(&self, id: &str, name: &str) -> Option<f64> {
        match self.entries.get(id)?.options.get(name)? {
            OptionValue::Number(n) => Some(*n),
            OptionValue::Bool(_) => None,
        }
    }

    /// Sets a level. Load errors cannot be turned off or down: the tools refuse the module.
    pub fn set_level(&mut self, id: &str, level: Level) -> Result<(), String> {
        let meta = crate::rules::find(id).ok_or_else(|| unknown_rule(id))?;
        if meta.kind == Kind::LoadError && level != Level::On(Severity::Error) {
            return Err(format!(
                "`{id}` is a load error of Terraform/OpenTofu: it is always reported as an error"
            ));
        }
        if meta.kind == Kind::Engine && meta.id == crate::rules::INTERNAL_ERROR.id {
            return Err(format!("`{id}` cannot be configured"));
        }
        if let Some(entry) = self.entries.get_mut(meta.id) {
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

    pub fn set_option(&mut self, id: &str, name: &str, value: OptionValue) {
        if let Some(entry) = self.entries.get_mut(id) {
            entry.options.insert(name.to_string(), value);
        }
    }

    /// `--enable-rule`: on at its configured (or default) severity.
    pub fn enable(&mut self, id: &str) -> Result<(), String> {
        let meta = crate::rules::find(id).ok_or_else(|| unknown_rule(id))?;
        if let Some(entry) = self.entries.get_mut(meta.id) {
            entry.enabled = true;
        }
        Ok(())
    }

    /// `--disable-rule`.
    pub fn disable(&mut self, id: &str) -> Result<(), String> {
        self.set_level(id, Level::Off)
    }

    /// `--only`: every rule but these is off (load errors stay on, they are not rules).
    pub fn only(&mut self, ids: &[String]) -> Result<(), String> {
        for id in ids {
            let meta = crate::rules::find(id).ok_or_else(|| unknown_rule(id))?;
            if meta.kind == Kind::LoadError {
                return Err(format!(
                    "`{id}` is a load error, always reported; --only takes rules"
                ));
            }
        }
        for (id, entry) in &mut self.entries {
            let meta = crate::rules::find(id);
            if meta.is_some_and(|m| m.kind == Kind::Rule) {
                entry.enabled = ids.iter().any(|wanted| wanted == id);
            }
        }
        Ok(())
    }
}

pub fn unknown_rule(id: &str) -> String {
    match crate::rules::closest(id, catalogue().into_iter().map(|m| m.id)) {
        Some(close) => format!("unknown rule `{id}`; did you mean `{close}`?"),
        None => format!("unknown rule `{id}` (see `tflint-merge rules`)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_catalogue() {
        let settings = RuleSettings::defaults();
        assert!(settings.is_enabled("override_noop"));
        assert!(!settings.is_enabled("override_undocumented"));
        assert!(settings.is_enabled("duplicate_definition"));
    }

    #[test]
    fn load_errors_cannot_be_turned_off() {
        let mut settings = RuleSettings::defaults();
        assert!(
            settings
                .set_level("duplicate_definition", Level::Off)
                .is_err()
        );
        assert!(
            settings
                .set_level("duplicate_definition", Level::On(Severity::Warning))
                .is_err()
        );
        assert!(
            settings
                .set_level("duplicate_definition", Level::On(Severity::Error))
                .is_ok()
        );
    }

    #[test]
    fn only_keeps_just_those_rules() {
        let mut settings = RuleSettings::defaults();
        settings.only(&["override_noop".into()]).expect("valid");
        assert!(settings.is_enabled("override_noop"));
        assert!(!settings.is_enabled("override_shadowed"));
        assert!(settings.is_enabled("syntax_error"));
    }

    #[test]
    fn unknown_rules_suggest_a_close_one() {
        assert_eq!(
            unknown_rule("override_noops"),
            "unknown rule `override_noops`; did you mean `override_noop`?"
        );
        assert!(RuleSettings::defaults().enable("nope").is_err());
    }
}
