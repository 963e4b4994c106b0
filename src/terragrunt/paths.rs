//! Paths as Terragrunt sees them: absolute and cleaned lexically (`a/b/../c` is `a/c`, without
//! looking at symlinks, like Go's `filepath.Clean`), and shown to users relative to the path
//! they gave on the command line.

use std::path::{Component, Path, PathBuf};

pub(crate) use crate::source::{absolute, clean};

/// The directory holding a file (the file itself when it has no parent).
pub(crate) fn dir_of(path: &Path) -> &Path {
    path.parent().unwrap_or(path)
}

/// `to` relative to the directory `from` (both absolute and clean), with `..` where needed.
pub(crate) fn relative(from: &Path, to: &Path) -> PathBuf {
    let from: Vec<Component> = from.components().collect();
    let to: Vec<Component> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..from.len() {
        out.push("..");
    }
    for component in &to[common..] {
        out.push(component);
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// Shows absolute paths the way the user named the tree: relative to the first command-line path
/// that holds them (`prod/us-east-1/region.hcl` for `tflint-merge prod`), else relative to the
/// first path given (`prod/../root.hcl` is shown as `root.hcl`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Displayer {
    /// (as given, absolute) for each command-line path, directories only.
    roots: Vec<(PathBuf, PathBuf)>,
}

impl Displayer {
    pub(crate) fn new(given: &[PathBuf]) -> Displayer {
        let roots = given
            .iter()
            .map(|g| {
                let dir = if g.is_dir() {
                    g.clone()
                } else {
                    match g.parent() {
                        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                        _ => PathBuf::from("."),
                    }
                };
                let abs = absolute(&dir);
                (dir, abs)
            })
            .collect();
        Displayer { roots }
    }

    /// The path to use in `SourceFile::path` and messages.
    pub(crate) fn path(&self, absolute_path: &Path) -> PathBuf {
        let Some((given, root)) = self
            .roots
            .iter()
            .find(|(_, root)| absolute_path.starts_with(root))
            .or_else(|| self.roots.first())
        else {
            return absolute_path.to_path_buf();
        };
        let joined = given.join(relative(root, absolute_path));
        if given.is_absolute() {
            return clean(&joined);
        }
        let cleaned = clean(&joined);
        if cleaned.as_os_str() == "." {
            return PathBuf::from(".");
        }
        cleaned
    }

    /// [`Self::path`] as shown in output (`/`-separated).
    pub(crate) fn show(&self, absolute_path: &Path) -> String {
        crate::source::display_path(&self.path(absolute_path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_is_lexical() {
        assert_eq!(clean(Path::new("/a/b/../c/./d")), PathBuf::from("/a/c/d"));
        assert_eq!(clean(Path::new("/../a")), PathBuf::from("/a"));
        assert_eq!(clean(Path::new("../a/../../b")), PathBuf::from("../../b"));
        assert_eq!(clean(Path::new("a/..")), PathBuf::from("."));
    }

    #[test]
    fn relative_paths() {
        assert_eq!(
            relative(Path::new("/a/b/c"), Path::new("/a/d/e.hcl")),
            PathBuf::from("../../d/e.hcl")
        );
        assert_eq!(
            relative(Path::new("/a"), Path::new("/a")),
            PathBuf::from(".")
        );
    }

    #[test]
    fn shown_relative_to_the_given_root() {
        let displayer = Displayer {
            roots: vec![(PathBuf::from("prod"), PathBuf::from("/w/prod"))],
        };
        assert_eq!(
            displayer.show(Path::new("/w/prod/us/region.hcl")),
            "prod/us/region.hcl"
        );
        assert_eq!(displayer.show(Path::new("/w/root.hcl")), "root.hcl");
        assert_eq!(displayer.show(Path::new("/x/root.hcl")), "../x/root.hcl");
        let absolute = Displayer {
            roots: vec![(PathBuf::from("/t/a"), PathBuf::from("/t/a"))],
        };
        assert_eq!(absolute.show(Path::new("/t/root.hcl")), "/t/root.hcl");
    }
}
