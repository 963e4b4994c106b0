//! Which files of a module directory each tool loads, in which order, and in which role.
//!
//! Pure functions over file names (the tools' `internal/configs/parser_config_dir.go`): no I/O
//! here, so every rule is unit-tested.

use std::collections::HashMap;

use crate::knowledge::View;
#[cfg(test)]
use crate::knowledge::files::classify;
use crate::knowledge::files::{ConfigName, Extension};

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
    view_files_in(names, &name_order(names), view)
}

/// The indices of `names` in byte-wise name order: computed once for a directory and given to
/// [`view_files_in`] for each view, so that a directory of many files is sorted once.
pub fn name_order(names: &[ConfigName]) -> Vec<usize> {
    // The bytes beside the index, so that a comparison reads them without going through
    // `names` first. Unstable is enough: the names of a directory are unique.
    let mut keyed: Vec<(&[u8], usize)> = (names.iter().enumerate())
        .map(|(i, name)| (name.name.as_bytes(), i))
        .collect();
    keyed.sort_unstable_by(|a, b| a.0.cmp(b.0));
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// [`view_files`] with the names' order already computed by [`name_order`].
pub fn view_files_in(names: &[ConfigName], order: &[usize], view: View) -> ViewFiles {
    let mut files = ViewFiles::default();
    let shadowing = shadowing_files(names);
    for &i in order {
        let file = &names[i];
        if file.extension.is_tofu() && view == View::Terraform {
            continue;
        }
        if view == View::OpenTofu
            && let Some(&by) = shadowing.get(&(file.stem(), file.extension))
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

/// The `.tofu`/`.tofu.json` files that hide a file from OpenTofu, by the stem and extension
/// of the file they hide (the first in `names` when several do): found once for the
/// directory, not once per file (a directory may hold a hundred thousand files).
fn shadowing_files(names: &[ConfigName]) -> HashMap<(&str, Extension), usize> {
    let mut shadowing = HashMap::new();
    for (i, other) in names.iter().enumerate().rev() {
        if let Some(hidden) = other.extension.shadows() {
            shadowing.insert((other.stem(), hidden), i);
        }
    }
    shadowing
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
            classify("a.tofu.json").map(|c| c.stem().to_string()),
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
