//! `per_path:` in the config file: rule levels for the files a glob matches, as ruff's
//! `per-file-ignores` (which only turns rules off; here a level can also turn a rule on, or
//! change its severity, under some paths only).
//!
//! ```yaml
//! per_path:
//!   "examples/**":
//!     override_noop: off
//!     "override_*": notice
//! ```
//!
//! Globs are relative to the config file's directory, as `exclude`; the rules are ids, globs or
//! prefixes, as on the command line. Of the entries that match a finding's file and name its
//! rule, the last one in the file decides.

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde::de::{self, MapAccess, Visitor};

use super::config::parse_level;
use crate::diagnostic::{Diagnostic, FindingId};
use crate::lint::RuleSettings;
use crate::lint::settings::Level;
use crate::rules;
use crate::source::{absolute, display_path};

/// The entries, in the file's order: a glob and the levels of the rules it names.
#[derive(Debug, Default)]
pub(crate) struct PerPath(pub(crate) Vec<PathEntry>);

#[derive(Debug)]
pub(crate) struct PathEntry {
    pub(crate) glob: String,
    /// The selector as written, and its level.
    pub(crate) levels: Vec<(String, Level)>,
}

impl<'de> Deserialize<'de> for PerPath {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(PerPathVisitor)
    }
}

struct PerPathVisitor;

impl<'de> Visitor<'de> for PerPathVisitor {
    type Value = PerPath;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a map from path globs to maps from rules to levels")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PerPath, A::Error> {
        let mut entries = Vec::new();
        while let Some(glob) = map.next_key::<String>()? {
            globset::Glob::new(glob.trim_start_matches("./"))
                .map_err(|e| de::Error::custom(format!("invalid per_path glob `{glob}`: {e}")))?;
            let levels = map.next_value::<Levels>()?.0;
            entries.push(PathEntry { glob, levels });
        }
        Ok(PerPath(entries))
    }
}

/// One entry's levels, each rule checked as it is read.
struct Levels(Vec<(String, Level)>);

impl<'de> Deserialize<'de> for Levels {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(LevelsVisitor)
    }
}

struct LevelsVisitor;

impl<'de> Visitor<'de> for LevelsVisitor {
    type Value = Levels;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a map from rules to levels (off, error, warning or notice)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Levels, A::Error> {
        let settings = RuleSettings::defaults(rules::registry());
        let mut levels = Vec::new();
        while let Some(selector) = map.next_key::<String>()? {
            // The rule is checked while its key is read, so the error points at the key.
            let ids = settings.selected(&selector).map_err(de::Error::custom)?;
            let text = map.next_value::<String>()?;
            let level = parse_level(&text).ok_or_else(|| {
                de::Error::custom(format!(
                    "invalid level `{text}` for `{selector}`: use off, error, warning or notice"
                ))
            })?;
            // Load errors and `internal_error` refuse a level as they do in `rules:`.
            let mut scratch = settings.clone();
            for id in ids {
                scratch.set_level(id, level).map_err(de::Error::custom)?;
            }
            levels.push((selector, level));
        }
        Ok(Levels(levels))
    }
}

/// The entries ready to apply to findings.
#[derive(Debug)]
pub(crate) struct PathRules {
    /// The config file's directory (absolute, clean): globs are relative to it.
    base: PathBuf,
    entries: Vec<(globset::GlobSet, Vec<(FindingId, Level)>)>,
    /// Rules off for the run but on under some paths: run everywhere, reported only there.
    on_only_under_paths: HashSet<FindingId>,
}

impl PathRules {
    /// Compiles the entries of the config file at `config_file`; turns on in `settings` the
    /// rules an entry turns on, so that they run.
    pub(crate) fn new(
        per_path: &PerPath,
        config_file: &Path,
        settings: &mut RuleSettings,
    ) -> Result<PathRules, String> {
        let base = absolute(config_file.parent().unwrap_or(Path::new(".")));
        let mut entries = Vec::new();
        let mut on_only_under_paths = HashSet::new();
        for entry in &per_path.0 {
            let pattern = entry.glob.trim_start_matches("./").trim_end_matches('/');
            // The glob, and everything below what it names.
            let mut builder = globset::GlobSetBuilder::new();
            for pattern in [pattern.to_string(), format!("{pattern}/**")] {
                let glob = globset::GlobBuilder::new(&pattern)
                    .literal_separator(true)
                    .build()
                    .map_err(|e| format!("invalid per_path glob `{}`: {e}", entry.glob))?;
                builder.add(glob);
            }
            let glob = builder
                .build()
                .map_err(|e| format!("invalid per_path glob `{}`: {e}", entry.glob))?;
            let mut levels = Vec::new();
            for (selector, level) in &entry.levels {
                for id in settings.selected(selector)? {
                    let meta = settings.find(id)?;
                    if *level != Level::Off && !settings.is_enabled(meta.id) {
                        on_only_under_paths.insert(meta.id);
                        settings.enable(id)?;
                    }
                    levels.push((meta.id, *level));
                }
            }
            entries.push((glob, levels));
        }
        Ok(PathRules {
            base,
            entries,
            on_only_under_paths,
        })
    }

    /// No entries (no config file).
    pub(crate) fn none() -> PathRules {
        PathRules {
            base: PathBuf::new(),
            entries: Vec::new(),
            on_only_under_paths: HashSet::new(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The findings as their paths' entries set them: dropped when off, at the entry's
    /// severity when on.
    pub(crate) fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        diagnostics.retain_mut(|diagnostic| {
            let relative = absolute(Path::new(&*diagnostic.path));
            let relative = relative.strip_prefix(&self.base).ok().map(display_path);
            let level = relative.and_then(|path| {
                (self.entries.iter().rev())
                    .filter(|(glob, _)| glob.is_match(&path))
                    .find_map(|(_, levels)| {
                        (levels.iter().rev()).find(|(id, _)| *id == diagnostic.rule)
                    })
                    .map(|(_, level)| *level)
            });
            match level {
                Some(Level::Off) => false,
                Some(Level::On(severity)) => {
                    diagnostic.severity = severity;
                    true
                }
                None => !self.on_only_under_paths.contains(&diagnostic.rule),
            }
        });
    }
}
