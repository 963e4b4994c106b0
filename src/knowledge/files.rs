//! Which file names the tools load as configuration, and in which syntax (`parser_config_dir.go`
//! in `internal/configs` of hashicorp/terraform and opentofu/opentofu;
//! <https://opentofu.org/docs/language/files/>).

/// The file name of a Terragrunt unit.
pub(crate) const TERRAGRUNT_UNIT: &str = "terragrunt.hcl";

/// The file name of a Terragrunt unit written in JSON, which Terragrunt reads when a directory
/// has no `terragrunt.hcl`.
pub(crate) const TERRAGRUNT_UNIT_JSON: &str = "terragrunt.hcl.json";

/// The file name of a Terragrunt Stacks stack: its `unit` blocks name the templates that
/// `terragrunt stack generate` copies below it.
pub(crate) const TERRAGRUNT_STACK: &str = "terragrunt.stack.hcl";

/// The directory `terragrunt stack generate` writes a stack's units into, beside its
/// `terragrunt.stack.hcl` (<https://terragrunt.gruntwork.io/docs/features/stacks/>): hidden, but
/// the units in it are the ones Terragrunt runs.
pub(crate) const TERRAGRUNT_STACK_DIR: &str = ".terragrunt-stack";

/// Whether a file name is a Terragrunt unit's.
pub(crate) fn is_terragrunt_unit(name: &str) -> bool {
    name == TERRAGRUNT_UNIT || name == TERRAGRUNT_UNIT_JSON
}

/// Whether Terragrunt runs from a file of this name: a unit's, or a stack's.
pub(crate) fn is_terragrunt_entry(name: &str) -> bool {
    is_terragrunt_unit(name) || name == TERRAGRUNT_STACK
}

/// The syntax of a Terragrunt file: JSON for `.json` names, native otherwise.
pub(crate) fn terragrunt_syntax(path: &std::path::Path) -> crate::source::Syntax {
    if path.extension().is_some_and(|e| e == "json") {
        crate::source::Syntax::TerragruntJson
    } else {
        crate::source::Syntax::Native
    }
}

/// A recognised configuration file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Extension {
    Tf,
    TfJson,
    Tofu,
    TofuJson,
}

impl Extension {
    pub fn as_str(self) -> &'static str {
        match self {
            Extension::Tf => ".tf",
            Extension::TfJson => ".tf.json",
            Extension::Tofu => ".tofu",
            Extension::TofuJson => ".tofu.json",
        }
    }

    pub(crate) fn syntax(self) -> crate::source::Syntax {
        match self {
            Extension::Tf | Extension::Tofu => crate::source::Syntax::Native,
            Extension::TfJson | Extension::TofuJson => crate::source::Syntax::Json,
        }
    }

    /// `.tofu` and `.tofu.json`: read by OpenTofu only.
    pub fn is_tofu(self) -> bool {
        matches!(self, Extension::Tofu | Extension::TofuJson)
    }

    /// The extension whose file this one hides from OpenTofu (`.tofu` hides `.tf`).
    pub(crate) fn shadows(self) -> Option<Extension> {
        match self {
            Extension::Tofu => Some(Extension::Tf),
            Extension::TofuJson => Some(Extension::TfJson),
            _ => None,
        }
    }
}

/// A file name that at least one tool loads as configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigName {
    pub name: String,
    pub extension: Extension,
    pub is_override: bool,
}

impl ConfigName {
    /// The name without its extension. Not stored: a run lists every file of every directory
    /// before it checks the first, and a second string per file would be held for all of them.
    pub fn stem(&self) -> &str {
        &self.name[..self.name.len() - self.extension.as_str().len()]
    }
}

/// For the stem of a primary file that looks like an override (`main-override`, `overrides`,
/// `override_main`, `main.override`, `Override`), the stem it would have as an override file
/// (`main_override`, `override`): the tools match `override` and `_override` exactly, in lower
/// case, so these are loaded as primary files.
pub fn override_lookalike(stem: &str) -> Option<String> {
    let lower = stem.to_ascii_lowercase();
    if lower == "override" || lower == "overrides" {
        return (stem != "override").then(|| "override".to_string());
    }
    let prefix = [
        "_override",
        "-override",
        ".override",
        "_overrides",
        "-overrides",
        ".overrides",
    ]
    .into_iter()
    .find_map(|suffix| lower.strip_suffix(suffix))
    .map(|prefix| &stem[..prefix.len()]);
    let rest = ["override_", "override-", "overrides_", "overrides-"]
        .into_iter()
        .find_map(|start| lower.strip_prefix(start))
        .map(|rest| &stem[stem.len() - rest.len()..]);
    let base = prefix.or(rest).filter(|b| !b.is_empty())?;
    let real = format!("{base}_override");
    // A stem that already is an override (`main_override`) is not a lookalike.
    (real != stem).then_some(real)
}

/// Classifies a file name; `None` for files neither tool loads (other extensions, hidden files,
/// editor files like `#x.tf#`).
pub fn classify(name: &str) -> Option<ConfigName> {
    if name.starts_with('.') || (name.len() > 1 && name.starts_with('#') && name.ends_with('#')) {
        return None;
    }
    // Longest suffixes first: `.tf.json` before `.tf` would never match anyway, but `.tofu.json`
    // must win over a stem ending in `.tofu`.
    let (stem, extension) = [
        (".tofu.json", Extension::TofuJson),
        (".tf.json", Extension::TfJson),
        (".tofu", Extension::Tofu),
        (".tf", Extension::Tf),
    ]
    .into_iter()
    .find_map(|(suffix, ext)| name.strip_suffix(suffix).map(|stem| (stem, ext)))?;
    Some(ConfigName {
        name: name.to_string(),
        extension,
        is_override: stem == "override" || stem.ends_with("_override"),
    })
}

#[cfg(test)]
mod lookalike_tests {
    use super::override_lookalike;

    #[test]
    fn names_that_look_like_overrides() {
        for (stem, real) in [
            ("providers-override", "providers_override"),
            ("overrides", "override"),
            ("override_main", "main_override"),
            ("main-override", "main_override"),
            ("main_overrides", "main_override"),
            ("Override", "override"),
            ("main.override", "main_override"),
            ("Main_Override", "Main_override"),
        ] {
            assert_eq!(override_lookalike(stem).as_deref(), Some(real), "{stem}");
        }
        for stem in [
            "override",
            "main_override",
            "main",
            "overridden",
            "no_overrides_here",
        ] {
            assert_eq!(override_lookalike(stem), None, "{stem}");
        }
    }
}
