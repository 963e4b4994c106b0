//! Which files of a module directory each tool loads, in which order, and in which role.
//!
//! Pure functions over file names (spec §1): no I/O here, so every rule is unit-tested.

use std::fmt;

/// The two tools whose loading we reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum View {
    Terraform,
    OpenTofu,
}

impl View {
    pub const ALL: [View; 2] = [View::Terraform, View::OpenTofu];

    pub fn as_str(self) -> &'static str {
        match self {
            View::Terraform => "terraform",
            View::OpenTofu => "opentofu",
        }
    }

    pub fn tool_name(self) -> &'static str {
        match self {
            View::Terraform => "Terraform",
            View::OpenTofu => "OpenTofu",
        }
    }

    pub fn views(self) -> crate::diagnostic::Views {
        match self {
            View::Terraform => crate::diagnostic::Views::TERRAFORM,
            View::OpenTofu => crate::diagnostic::Views::OPENTOFU,
        }
    }
}

impl fmt::Display for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
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

    pub fn syntax(self) -> crate::source::Syntax {
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
    fn shadows(self) -> Option<Extension> {
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

/// The files one tool loads from a directory, as indices into the name list given to
/// [`view_files`], each list in byte-wise name order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ViewFiles {
    pub primary: Vec<usize>,
    pub overrides: Vec<usize>,
    /// OpenTofu only: (hidden `.tf`/`.tf.json` file, the `.tofu`/`.tofu.json` file hiding it).
    pub shadowed: Vec<(usize, usize)>,
}

impl ViewFiles {
    /// Every loaded file, primaries first.
    pub fn loaded(&self) -> impl Iterator<Item = usize> + '_ {
        self.primary.iter().chain(&self.overrides).copied()
    }
}

/// Selects and orders the files one tool loads. `names` may be in any order.
pub fn view_files(names: &[ConfigName], view: View) -> ViewFiles {
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| names[a].name.as_bytes().cmp(names[b].name.as_bytes()));
    let mut files = ViewFiles::default();
    for i in order {
        let file = &names[i];
        if file.extension.is_tofu() && view == View::Terraform {
            continue;
        }
        if view == View::OpenTofu
            && let Some(by) = shadowing_file(names, file)
        {
            files.shadowed.push((i, by));
            continue;
        }
        if file.is_override {
            files.overrides.push(i);
        } else {
            files.primary.push(i);
        }
    }
    files
}

/// The `.tofu`/`.tofu.json` file that hides `file` from OpenTofu, if any.
fn shadowing_file(names: &[ConfigName], file: &ConfigName) -> Option<usize> {
    names.iter().position(|other| {
        other.stem == file.stem && other.extension.shadows() == Some(file.extension)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<ConfigName> {
        list.iter().filter_map(|n| classify(n)).collect()
    }

    fn loaded(list: &[&str], view: View) -> (Vec<String>, Vec<String>) {
        let names = names(list);
        let files = view_files(&names, view);
        let pick = |idx: &[usize]| idx.iter().map(|&i| names[i].name.clone()).collect();
        (pick(&files.primary), pick(&files.overrides))
    }

    #[test]
    fn override_detection_for_every_naming_form() {
        for name in [
            "override.tf",
            "main_override.tf",
            "override.tf.json",
            "x_override.tofu.json",
            "_override.tf",
            "override.tofu",
            "a_override.tf.json",
        ] {
            assert!(
                classify(name).expect(name).is_override,
                "{name} is an override"
            );
        }
        for name in [
            "overrides.tf",
            "override_main.tf",
            "foo.override.tf",
            "providers-override.tf",
            "main.tf",
            "#main.tf",
        ] {
            assert!(
                !classify(name).expect(name).is_override,
                "{name} is primary"
            );
        }
    }

    #[test]
    fn files_neither_tool_loads() {
        for name in [
            ".hidden.tf",
            ".override.tf",
            "#override.tf#",
            "main.tf~",
            "notes.tf.bak",
            "terraform.tfvars",
            "main.TF",
            "x.tftest.hcl",
            "x.tofutest.json",
            "terragrunt.hcl",
            "tf",
        ] {
            assert_eq!(classify(name), None, "{name}");
        }
    }

    #[test]
    fn extensions_and_syntax() {
        assert_eq!(
            classify("a.tf.json").map(|c| c.extension),
            Some(Extension::TfJson)
        );
        assert_eq!(
            classify("a.tofu.json").map(|c| c.stem),
            Some("a".to_string())
        );
        assert_eq!(
            classify("a.tofu").map(|c| c.extension),
            Some(Extension::Tofu)
        );
    }

    #[test]
    fn terraform_view_ignores_tofu_files() {
        let (primary, overrides) = loaded(
            &[
                "main.tf",
                "main.tofu",
                "x.tofu.json",
                "override.tofu",
                "override.tf",
            ],
            View::Terraform,
        );
        assert_eq!(primary, ["main.tf"]);
        assert_eq!(overrides, ["override.tf"]);
    }

    #[test]
    fn tofu_shadows_its_tf_twin_only() {
        let (primary, overrides) = loaded(
            &[
                "main.tf",
                "main.tofu",
                "foo.tf",
                "foo.tofu.json",
                "bar.tf.json",
                "bar.tofu.json",
                "main_override.tf",
                "x_override.tf",
                "x_override.tofu",
            ],
            View::OpenTofu,
        );
        assert_eq!(
            primary,
            ["bar.tofu.json", "foo.tf", "foo.tofu.json", "main.tofu"]
        );
        assert_eq!(overrides, ["main_override.tf", "x_override.tofu"]);
    }

    #[test]
    fn order_is_bytewise_with_native_and_json_interleaved() {
        let (primary, _) = loaded(
            &[
                "c.tofu.json",
                "a.tf",
                "c.tf.json",
                "_x.tf",
                "Z_.tf",
                "c.tofu",
                "c.tf",
                "B.tf",
            ],
            View::Terraform,
        );
        assert_eq!(
            primary,
            ["B.tf", "Z_.tf", "_x.tf", "a.tf", "c.tf", "c.tf.json"]
        );
        let (primary, _) = loaded(
            &["c.tofu.json", "c.tofu", "c.tf.json", "d.tf"],
            View::OpenTofu,
        );
        assert_eq!(primary, ["c.tofu", "c.tofu.json", "d.tf"]);
    }

    #[test]
    fn shadowed_files_are_listed_with_their_twin() {
        let names = names(&["main.tf", "main.tofu"]);
        let files = view_files(&names, View::OpenTofu);
        assert_eq!(files.shadowed, [(0, 1)]);
        assert!(view_files(&names, View::Terraform).shadowed.is_empty());
    }
}
