//! `.tflint-merge.yaml`: found in the working directory or its nearest ancestor, or given by
//! `--config`. Unknown keys, unknown rule ids and unknown rule options are errors that name the
//! file, line and column.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, MapAccess, Visitor};

use crate::diagnostic::Severity;
use crate::input::read::ReadFailure;
use crate::input::scope::{Scope, ScopeFlags};
use crate::lint::settings::Level;
use crate::lint::{OptionKind, Rule, RuleSettings};
use crate::rules;

pub(crate) const FILE_NAMES: [&str; 2] = [".tflint-merge.yaml", ".tflint-merge.yml"];

/// The config file's contents.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Config {
    /// `terraform`, `opentofu` or `both`.
    #[serde(default, deserialize_with = "view_name")]
    pub(crate) view: Option<String>,
    #[serde(default)]
    pub(crate) exclude: Vec<String>,
    /// `error`, `warning` or `notice`.
    #[serde(default, deserialize_with = "fail_on_name")]
    pub(crate) fail_on: Option<String>,
    /// An output format name.
    #[serde(default, deserialize_with = "format_name")]
    pub(crate) format: Option<String>,
    #[serde(default)]
    pub(crate) rules: RuleConfigs,
    // Targeted releases (issue 11): version constraints, e.g. ">= 1.6".
    /// The Terraform releases to target instead of the module's own `required_version`.
    pub(crate) terraform_version: Option<String>,
    /// The OpenTofu releases to target instead of the module's own constraints.
    pub(crate) opentofu_version: Option<String>,
    /// Rule levels for the files under some paths.
    #[serde(default)]
    pub(crate) per_path: super::per_path::PerPath,
}

// The values of `view`, `fail_on` and `format` are checked while the file is read, so that an
// error names the value's line and column, with the closest name.
fn view_name<'de, D: de::Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    one_of(deserializer, "view", &["terraform", "opentofu", "both"])
}

fn fail_on_name<'de, D: de::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<String>, D::Error> {
    one_of(deserializer, "fail_on", &["error", "warning", "notice"])
}

fn format_name<'de, D: de::Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    use clap::ValueEnum;
    let names: Vec<String> = (crate::report::Format::value_variants().iter())
        .filter_map(|format| format.to_possible_value())
        .map(|value| value.get_name().to_string())
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    one_of(deserializer, "format", &names)
}

/// A string that is one of `names` (in any case, as on the command line), else an error with
/// the closest name.
fn one_of<'de, D: de::Deserializer<'de>>(
    deserializer: D,
    key: &str,
    names: &[&str],
) -> Result<Option<String>, D::Error> {
    let text = String::deserialize(deserializer)?;
    if names.iter().any(|name| name.eq_ignore_ascii_case(&text)) {
        return Ok(Some(text));
    }
    let list = match names {
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        [] => String::new(),
    };
    let lower = text.to_ascii_lowercase();
    let message = match crate::lint::helpers::closest(&lower, names.iter().copied()) {
        Some(close) => format!("invalid {key} `{text}`; did you mean `{close}`? (use {list})"),
        None => format!("invalid {key} `{text}`: use {list}"),
    };
    Err(de::Error::custom(message))
}

/// `rules:` — each entry a level or `{ severity: ..., <option>: ... }`.
#[derive(Debug, Default)]
pub(crate) struct RuleConfigs(pub(crate) Vec<RuleConfig>);

#[derive(Debug)]
pub(crate) struct RuleConfig {
    pub(crate) id: String,
    pub(crate) level: Option<Level>,
    pub(crate) options: Vec<(String, f64)>,
}

/// A config error, located in its file.
#[derive(Debug)]
pub(crate) struct ConfigError {
    pub(crate) path: PathBuf,
    pub(crate) line: usize,
    pub(crate) column: usize,
    pub(crate) message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(
                f,
                "{}:{}:{}: {}",
                crate::source::display_path(&self.path),
                self.line,
                self.column,
                self.message
            )
        } else {
            write!(
                f,
                "{}: {}",
                crate::source::display_path(&self.path),
                self.message
            )
        }
    }
}

/// The config file that applies in `start` (the working directory): there or in the nearest
/// ancestor.
pub(crate) fn find(start: &Path) -> Result<Option<PathBuf>, String> {
    for dir in start.ancestors() {
        let found: Vec<PathBuf> = FILE_NAMES
            .iter()
            .map(|n| dir.join(n))
            .filter(|p| p.is_file())
            .collect();
        match found.as_slice() {
            [] => continue,
            [one] => return Ok(Some(one.clone())),
            _ => {
                return Err(format!(
                    "both {} and {} exist in {}: keep one",
                    FILE_NAMES[0],
                    FILE_NAMES[1],
                    dir.display()
                ));
            }
        }
    }
    Ok(None)
}

/// How deep `[` and `{` may nest in the configuration file. The schema nests two levels; the YAML
/// parser takes time quadratic in the depth, so a deeper file is refused before it is parsed.
/// Block-style nesting needs no check: with the size limit, its indentation bounds its depth.
const MAX_FLOW_NESTING: usize = 32;

/// The 1-based line and column where YAML flow collections (`[`, `{`) first nest deeper than
/// [`MAX_FLOW_NESTING`], outside quotes and comments.
fn flow_nesting_beyond_limit(text: &str) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    for (line_index, line) in text.lines().enumerate() {
        let mut escaped = false;
        let mut after_space = true;
        for (column, c) in line.char_indices() {
            match quote {
                // In double quotes a backslash escapes the next character; a single-quoted
                // string escapes its quote by doubling it, which closes and reopens it here.
                Some('"') if escaped => escaped = false,
                Some('"') if c == '\\' => escaped = true,
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None => match c {
                    '"' | '\'' => quote = Some(c),
                    '#' if after_space => break,
                    '[' | '{' => {
                        depth += 1;
                        if depth > MAX_FLOW_NESTING {
                            return Some((line_index + 1, column + 1));
                        }
                    }
                    ']' | '}' => depth = depth.saturating_sub(1),
                    _ => {}
                },
            }
            after_space = c.is_whitespace();
        }
    }
    None
}

/// A configuration file larger than this is refused unread: a real one is a few kilobytes.
const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

pub(crate) fn load(path: &Path) -> Result<Config, ConfigError> {
    let unreadable = |message: String| ConfigError {
        path: path.to_path_buf(),
        line: 0,
        column: 0,
        message: format!("cannot read: {message}"),
    };
    // A committed config file linked to a file elsewhere (`/proc/self/environ`) is not read:
    // its parse error would quote it. It may lead inside its directory's git work tree only.
    let found_in = path.parent().unwrap_or(Path::new("."));
    let scope = Scope::new(&[found_in.to_path_buf()], &ScopeFlags::default());
    if !scope.may_read(path) {
        return Err(unreadable(ReadFailure::Outside.describe()));
    }
    let bytes = crate::input::read::read_bytes(path, MAX_CONFIG_BYTES)
        .map_err(|failure| unreadable(failure.describe()))?;
    let text = String::from_utf8(bytes)
        .map_err(|e| unreadable(format!("not valid UTF-8: {}", e.utf8_error())))?;
    parse(path, &text)
}

pub(crate) fn parse(path: &Path, text: &str) -> Result<Config, ConfigError> {
    if text.trim().is_empty() {
        return Ok(Config::default());
    }
    if let Some((line, column)) = flow_nesting_beyond_limit(text) {
        return Err(ConfigError {
            path: path.to_path_buf(),
            line,
            column,
            message: format!(
                "brackets nested more than {MAX_FLOW_NESTING} levels deep; \
                 the configuration file has no such structure"
            ),
        });
    }
    serde_yaml::from_str::<Config>(text).map_err(|e| {
        let (mut line, mut column) = e.location().map_or((0, 0), |l| (l.line(), l.column()));
        // serde_yaml places errors raised for a mapping key at the start of the mapping; move
        // them to the key itself.
        let message = e.to_string();
        let bad_key = ["unknown rule `", "unknown option `"]
            .iter()
            .find_map(|marker| message.split_once(marker))
            .and_then(|(_, rest)| rest.split('`').next());
        if let Some((key_line, key_column)) = bad_key.and_then(|key| locate_key(text, key, line)) {
            (line, column) = (key_line, key_column);
        }
        // And errors raised for a value of the top mapping (`view: bth`) to the value.
        let bad_value_of = (message.strip_prefix("invalid "))
            .and_then(|rest| rest.split_once(" `"))
            .map(|(key, _)| key);
        if let Some(place) = bad_value_of.and_then(|key| locate_value(text, key)) {
            (line, column) = place;
        }
        ConfigError {
            path: path.to_path_buf(),
            line,
            column,
            message: e
                .to_string()
                .split(" at line ")
                .next()
                .unwrap_or_default()
                .to_string(),
        }
    })
}

/// 1-based (line, column) of the value of the top-level key `key` (one not indented).
fn locate_value(text: &str, key: &str) -> Option<(usize, usize)> {
    text.lines().enumerate().find_map(|(index, line)| {
        let rest = [key.to_string(), format!("\"{key}\""), format!("'{key}'")]
            .iter()
            .find_map(|quoted| line.strip_prefix(quoted.as_str()))?;
        let rest = rest.trim_start().strip_prefix(':')?;
        let value = rest.trim_start();
        Some((index + 1, line.len() - value.len() + 1))
    })
}

/// 1-based (line, column) of the first mapping key `key` at or after `from_line`.
fn locate_key(text: &str, key: &str, from_line: usize) -> Option<(usize, usize)> {
    text.lines()
        .enumerate()
        .skip(from_line.saturating_sub(1))
        .find_map(|(index, line)| {
            let trimmed = line.trim_start();
            let rest = trimmed
                .strip_prefix(key)
                .or_else(|| trimmed.strip_prefix(&format!("\"{key}\"")))
                .or_else(|| trimmed.strip_prefix(&format!("'{key}'")))?;
            rest.trim_start()
                .starts_with(':')
                .then_some((index + 1, line.len() - trimmed.len() + 1))
        })
}

impl Config {
    /// Applies the `rules:` entries to `settings`.
    pub(crate) fn apply(&self, settings: &mut RuleSettings) -> Result<(), String> {
        self.rules.apply(settings)
    }
}

impl RuleConfigs {
    /// Applies each entry's level and options to `settings`.
    pub(crate) fn apply(&self, settings: &mut RuleSettings) -> Result<(), String> {
        for rule in &self.0 {
            if let Some(level) = rule.level {
                settings.set_level(&rule.id, level)?;
            }
            let id = settings.find(&rule.id)?.id;
            for (name, value) in &rule.options {
                settings.set_option(id, name, *value);
            }
        }
        Ok(())
    }
}

pub(crate) fn parse_level(text: &str) -> Option<Level> {
    Some(match text {
        "off" => Level::Off,
        "error" => Level::On(Severity::Error),
        "warning" => Level::On(Severity::Warning),
        "notice" => Level::On(Severity::Notice),
        _ => return None,
    })
}

const LEVELS: &str = "off, error, warning or notice";

impl<'de> Deserialize<'de> for RuleConfigs {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(RulesVisitor)
    }
}

struct RulesVisitor;

impl<'de> Visitor<'de> for RulesVisitor {
    type Value = RuleConfigs;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a map from rule ids to levels")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RuleConfigs, A::Error> {
        let mut out = Vec::new();
        // The id is checked while its key is read, so the error points at the key.
        while let Some(RuleId(id)) = map.next_key::<RuleId>()? {
            out.push(map.next_value_seed(RuleSeed { id })?);
        }
        Ok(RuleConfigs(out))
    }
}

/// A rule id that exists.
struct RuleId(String);

impl<'de> Deserialize<'de> for RuleId {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let id = String::deserialize(deserializer)?;
        let registry = rules::registry();
        if registry.find(&id).is_none() {
            return Err(de::Error::custom(registry.unknown(&id)));
        }
        Ok(RuleId(id))
    }
}

struct RuleSeed {
    id: String,
}

impl<'de> DeserializeSeed<'de> for RuleSeed {
    type Value = RuleConfig;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<RuleConfig, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for RuleSeed {
    type Value = RuleConfig;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "{LEVELS}, or a map with `severity` and the rule's options"
        )
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<RuleConfig, E> {
        let level = parse_level(value).ok_or_else(|| {
            E::custom(format!(
                "invalid level `{value}` for `{}`: use {LEVELS}",
                self.id
            ))
        })?;
        Ok(RuleConfig {
            id: self.id,
            level: Some(level),
            options: Vec::new(),
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RuleConfig, A::Error> {
        let rule: Option<&Rule> = rules::registry()
            .rules()
            .iter()
            .copied()
            .find(|r| r.id().as_str() == self.id);
        let mut config = RuleConfig {
            id: self.id.clone(),
            level: None,
            options: Vec::new(),
        };
        while let Some(key) = map.next_key::<String>()? {
            if key == "severity" {
                let value: String = map.next_value()?;
                let level = parse_level(&value).ok_or_else(|| {
                    de::Error::custom(format!("invalid severity `{value}`: use {LEVELS}"))
                })?;
                config.level = Some(level);
                continue;
            }
            let Some(spec) = rule.and_then(|r| r.options.iter().find(|o| o.name == key)) else {
                let known: Vec<&str> = rule
                    .map(|r| r.options.iter().map(|o| o.name).collect())
                    .unwrap_or_default();
                let takes = if known.is_empty() {
                    "it takes only `severity`".to_string()
                } else {
                    format!("it takes `severity`, `{}`", known.join("`, `"))
                };
                return Err(de::Error::custom(format!(
                    "unknown option `{key}` for rule `{}`: {takes}",
                    self.id
                )));
            };
            let value = match spec.kind {
                OptionKind::Integer => {
                    let n: u64 = map.next_value()?;
                    n as f64
                }
                OptionKind::Fraction => {
                    let n: f64 = map.next_value()?;
                    if !(0.0..=1.0).contains(&n) {
                        return Err(de::Error::custom(format!(
                            "`{key}` must be between 0 and 1, not {n}"
                        )));
                    }
                    n
                }
            };
            config.options.push((key, value));
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        match parse(Path::new("c.yaml"), text) {
            Ok(_) => panic!("expected an error for {text:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn flow_nesting_is_capped_before_parsing_outside_quotes_and_comments() {
        let deep = format!("exclude: {}{}\n", "[".repeat(40), "]".repeat(40));
        assert_eq!(
            error(&deep),
            "c.yaml:1:42: brackets nested more than 32 levels deep; the configuration file has \
             no such structure"
        );
        let quoted = format!(
            "exclude:\n  - \"{}\\\"{}\"\n  - '{}''{}' # {}\n",
            "[".repeat(40),
            "{".repeat(40),
            "[".repeat(40),
            "{".repeat(40),
            "[".repeat(40)
        );
        assert!(parse(Path::new("c.yaml"), &quoted).is_ok(), "{quoted}");
    }

    #[test]
    fn a_full_config_parses() {
        let config = parse(
            Path::new("c.yaml"),
            "view: opentofu\nexclude: [\"examples/**\"]\nfail_on: warning\nrules:\n  override_noop: off\n  override_only_file:\n    severity: warning\n    threshold: 0.75\n",
        )
        .expect("valid");
        assert_eq!(config.view.as_deref(), Some("opentofu"));
        assert_eq!(config.rules.0.len(), 2);
        let mut settings = RuleSettings::defaults(rules::registry());
        config.apply(&mut settings).expect("applies");
        let id = |name: &str| settings.find(name).expect("known").id;
        assert!(!settings.is_enabled(id("override_noop")));
        assert!(settings.is_enabled(id("override_only_file")));
        assert_eq!(
            settings.number_option(id("override_only_file"), "threshold"),
            Some(0.75)
        );
    }

    #[test]
    fn unknown_key_is_located() {
        assert_eq!(
            error("view: both\nfail-on: error\n"),
            "c.yaml:2:1: unknown field `fail-on`, expected one of `view`, `exclude`, `fail_on`, `format`, `rules`, `terraform_version`, `opentofu_version`, `per_path`"
        );
    }

    #[test]
    fn unknown_rule_is_located() {
        assert_eq!(
            error("rules:\n  override_noop: off\n  override_nope: warning\n"),
            "c.yaml:3:3: rules: unknown rule `override_nope`; did you mean `override_noop`?"
        );
    }

    #[test]
    fn unknown_option_and_bad_level_are_located() {
        assert_eq!(
            error("rules:\n  override_only_file:\n    treshold: 0.5\n"),
            "c.yaml:3:5: rules.override_only_file: unknown option `treshold` for rule `override_only_file`: it takes `severity`, `threshold`, `min_objects`"
        );
        assert_eq!(
            error("rules:\n  override_noop: loud\n"),
            "c.yaml:2:18: rules.override_noop: invalid level `loud` for `override_noop`: use off, error, warning or notice"
        );
    }
}
