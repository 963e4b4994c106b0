//! The server's settings: `.tflint-merge.yaml`, found as the command line finds it (in the
//! workspace root or its nearest ancestor, instead of the working directory), then the client's
//! `initializationOptions` on top: `{"view": "opentofu", "rules": {"override_noop": "off"}}`,
//! the same keys and values as in the file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::ValueEnum;
use serde::Deserialize;

use crate::cli::config::{self, Config, RuleConfigs};
use crate::cli::per_path::PathRules;
use crate::cli::{ViewArg, target_version};
use crate::input::discover::Excludes;
use crate::input::overlay::Overlay;
use crate::input::scope::{Scope as ReadScope, ScopeFlags};
use crate::knowledge::View;
use crate::lint::RuleSettings;
use crate::lint::directory::{Options, TargetVersions};
use crate::rules;

/// What the client may set in `initializationOptions`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct InitOptions {
    /// `terraform`, `opentofu` or `both`.
    view: Option<String>,
    #[serde(default)]
    rules: RuleConfigs,
}

impl InitOptions {
    /// The options of `initialize`; none given is no option set.
    pub(crate) fn parse(value: Option<serde_json::Value>) -> Result<InitOptions, String> {
        match value {
            None | Some(serde_json::Value::Null) => Ok(InitOptions::default()),
            Some(value) => serde_json::from_value(value)
                .map_err(|e| format!("invalid initializationOptions: {e}")),
        }
    }
}

/// The settings in force, and where they came from.
#[derive(Debug)]
pub(crate) struct Settings {
    /// How to check a directory (the overlay is set per check).
    pub(crate) options: Options,
    pub(crate) excludes: Arc<Excludes>,
    /// `per_path:` of the config file, applied to each check's findings as on the command line.
    pub(crate) path_rules: Arc<PathRules>,
    pub(crate) config_file: Option<PathBuf>,
}

impl Settings {
    /// The defaults: what the server runs with until the settings load.
    pub(crate) fn defaults() -> Settings {
        let settings = RuleSettings::defaults(rules::registry());
        Settings {
            options: Options::new(ViewArg::Both.selection(), settings),
            excludes: Arc::default(),
            path_rules: Arc::new(PathRules::none()),
            config_file: None,
        }
    }

    /// The config file that applies in `root`, then `init` on top.
    pub(crate) fn load(root: &Path, init: &InitOptions) -> Result<Settings, String> {
        let path = config::find(root)?;
        let file = match &path {
            Some(path) => config::load(path).map_err(|e| e.to_string())?,
            None => Config::default(),
        };
        let mut settings = resolve(path, file, init)?;
        // The workspace is the root: nothing outside it is read, no link out of it walked.
        let scope = Arc::new(ReadScope::new(
            &[root.to_path_buf()],
            &ScopeFlags::default(),
        ));
        if let Some(excludes) = Arc::get_mut(&mut settings.excludes) {
            excludes.set_scope(Arc::clone(&scope));
        }
        settings.options.overlay = Overlay::default().within(Some(scope));
        Ok(settings)
    }
}

fn resolve(path: Option<PathBuf>, file: Config, init: &InitOptions) -> Result<Settings, String> {
    let in_file = |what: &str| match &path {
        Some(path) => format!("{what} (in {})", crate::source::display_path(path)),
        None => what.to_string(),
    };
    let view_text = init.view.as_deref().or(file.view.as_deref());
    let view = match view_text {
        None => ViewArg::Both,
        Some(text) => ViewArg::from_str(text, true).map_err(|_| {
            let what = format!("invalid view `{text}`: use terraform, opentofu or both");
            if init.view.is_some() {
                what
            } else {
                in_file(&what)
            }
        })?,
    };
    let mut settings = RuleSettings::defaults(rules::registry());
    file.apply(&mut settings).map_err(|e| in_file(&e))?;
    init.rules
        .apply(&mut settings)
        .map_err(|e| format!("{e} (in initializationOptions)"))?;
    let target_versions = TargetVersions {
        terraform: target_version(View::Terraform, &None, &file, &in_file)?,
        opentofu: target_version(View::OpenTofu, &None, &file, &in_file)?,
    };
    let mut excludes = Excludes::default();
    let mut path_rules = PathRules::none();
    if let Some(path) = &path {
        excludes = excludes.with_config(path, &file.exclude)?;
        path_rules =
            PathRules::new(&file.per_path, path, &mut settings).map_err(|e| in_file(&e))?;
    }
    let mut options = Options::new(view.selection(), settings);
    options.target_versions = target_versions;
    Ok(Settings {
        options,
        excludes: Arc::new(excludes),
        path_rules: Arc::new(path_rules),
        config_file: path,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::directory::ViewSelection;

    fn write(dir: &Path, text: &str) {
        std::fs::write(dir.join(config::FILE_NAMES[0]), text).expect("write the config");
    }

    #[test]
    fn initialization_options_override_the_file() {
        let root = tempfile::tempdir().expect("tempdir");
        write(
            root.path(),
            "view: terraform\nrules:\n  override_noop: error\n",
        );
        let noop = rules::registry().find("override_noop").expect("a rule");

        let settings = Settings::load(root.path(), &InitOptions::default()).expect("settings");
        assert_eq!(settings.options.views, ViewSelection::Terraform);
        assert_eq!(settings.options.settings.severity(noop).as_str(), "error");

        let init = serde_json::json!({"view": "opentofu", "rules": {"override_noop": "notice"}});
        let init = InitOptions::parse(Some(init)).expect("valid options");
        let settings = Settings::load(root.path(), &init).expect("settings");
        assert_eq!(settings.options.views, ViewSelection::OpenTofu);
        assert_eq!(settings.options.settings.severity(noop).as_str(), "notice");
    }

    #[test]
    fn bad_settings_say_where() {
        let init = serde_json::json!({"rules": {"no_such_rule": "off"}});
        let error = InitOptions::parse(Some(init)).expect_err("an unknown rule");
        assert!(error.contains("no_such_rule"), "{error}");

        let root = tempfile::tempdir().expect("tempdir");
        write(root.path(), "view: sideways\n");
        let error = Settings::load(root.path(), &InitOptions::default()).expect_err("bad view");
        assert!(
            error.contains("sideways") && error.contains(".tflint-merge.yaml"),
            "{error}"
        );
    }
}
