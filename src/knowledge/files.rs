//! Which file names the tools load as configuration, and in which syntax (spec §1).

/// The file name of a Terragrunt unit.
pub(crate) const TERRAGRUNT_UNIT: &str = "terragrunt.hcl";

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
    /// The name without its extension.
    pub stem: String,
    pub extension: Extension,
    pub is_override: bool,
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
        stem: stem.to_string(),
        extension,
        is_override: stem == "override" || stem.ends_with("_override"),
    })
}
