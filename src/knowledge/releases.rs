//! The release lines of each tool that tflint-merge knows, oldest first (the tags of
//! hashicorp/terraform and opentofu/opentofu). A new release is one line here; what it accepts
//! is in [`super::features`].

use std::fmt;

use super::View;
use super::version::{Version, VersionSet};

/// How far a release line is released.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stage {
    Stable,
    /// Tagged as a release candidate only.
    ReleaseCandidate,
    /// The development branch (`version/VERSION` ends in `-dev`).
    Development,
}

/// A release line, `major.minor`: its patch releases accept the same language (the few
/// exceptions, like Terraform 1.15.5's null module `version`, are named where they are used).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Release {
    pub(crate) major: u16,
    pub(crate) minor: u16,
}

impl Release {
    pub(crate) const fn new(major: u16, minor: u16) -> Release {
        Release { major, minor }
    }

    /// The versions of this line: `>= major.minor.0, < major.(minor+1).0`.
    pub(crate) fn versions(self) -> VersionSet {
        let low = Version::new(self.major.into(), self.minor.into(), 0);
        let high = Version::new(self.major.into(), u64::from(self.minor) + 1, 0);
        VersionSet::between(low, high)
    }
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

const fn stable(minor: u16) -> (Release, Stage) {
    (Release::new(1, minor), Stage::Stable)
}

/// Terraform 1.0 to 1.17-dev (newest stable tag v1.15.9, v1.16.0-rc2, HEAD 1.17.0-dev).
const TERRAFORM: &[(Release, Stage)] = &[
    stable(0),
    stable(1),
    stable(2),
    stable(3),
    stable(4),
    stable(5),
    stable(6),
    stable(7),
    stable(8),
    stable(9),
    stable(10),
    stable(11),
    stable(12),
    stable(13),
    stable(14),
    stable(15),
    (Release::new(1, 16), Stage::ReleaseCandidate),
    (Release::new(1, 17), Stage::Development),
];

/// OpenTofu 1.6 (its first release) to 1.13-dev (newest stable tag v1.12.6).
const OPENTOFU: &[(Release, Stage)] = &[
    stable(6),
    stable(7),
    stable(8),
    stable(9),
    stable(10),
    stable(11),
    stable(12),
    (Release::new(1, 13), Stage::Development),
];

/// Every known release line of `view`'s tool, oldest first, with its stage.
pub(crate) fn all(view: View) -> &'static [(Release, Stage)] {
    match view {
        View::Terraform => TERRAFORM,
        View::OpenTofu => OPENTOFU,
    }
}

/// The stable release lines of `view`'s tool, oldest first.
pub(crate) fn stable_releases(view: View) -> impl Iterator<Item = Release> {
    all(view)
        .iter()
        .filter(|(_, stage)| *stage == Stage::Stable)
        .map(|(release, _)| *release)
}

/// The newest stable release of `view`'s tool, patch included (its newest stable tag): what a
/// module with no version constraint is judged against where patch releases differ (Terraform
/// 1.15.5's null module `version`).
pub(crate) fn newest_stable_patch(view: View) -> Version {
    match view {
        View::Terraform => Version::new(1, 15, 9),
        View::OpenTofu => Version::new(1, 12, 6),
    }
}

/// The newest stable release line of `view`'s tool.
pub(crate) fn newest_stable(view: View) -> Release {
    // Both tables have stable lines; 1.0 is a safe floor otherwise.
    stable_releases(view).last().unwrap_or(Release::new(1, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_and_end_in_development() {
        for view in View::ALL {
            let releases = all(view);
            assert!(
                releases.windows(2).all(|w| w[0].0 < w[1].0),
                "{view} sorted"
            );
            assert_eq!(releases.last().map(|r| r.1), Some(Stage::Development));
        }
        assert_eq!(newest_stable(View::Terraform), Release::new(1, 15));
        assert_eq!(newest_stable(View::OpenTofu), Release::new(1, 12));
        for view in View::ALL {
            let patch = VersionSet::between(newest_stable_patch(view), Version::new(2, 0, 0));
            assert!(newest_stable(view).versions().overlaps(&patch), "{view}");
        }
    }
}
