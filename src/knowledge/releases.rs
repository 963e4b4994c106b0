//! The release lines of each tool that tflint-merge knows, oldest first (the tags of
//! hashicorp/terraform and opentofu/opentofu). A new release is one line here; what it accepts
//! is in [`super::features`].

use std::collections::HashSet;
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

/// The newest published patch of each stable Terraform line (the `vMAJOR.MINOR.PATCH` tags of
/// hashicorp/terraform): a line's published releases are its patches 0 to this one.
const TERRAFORM_NEWEST_PATCH: &[(Release, u64)] = &[
    (Release::new(1, 0), 11),
    (Release::new(1, 1), 9),
    (Release::new(1, 2), 9),
    (Release::new(1, 3), 10),
    (Release::new(1, 4), 7),
    (Release::new(1, 5), 7),
    (Release::new(1, 6), 6),
    (Release::new(1, 7), 5),
    (Release::new(1, 8), 5),
    (Release::new(1, 9), 8),
    (Release::new(1, 10), 5),
    (Release::new(1, 11), 4),
    (Release::new(1, 12), 2),
    (Release::new(1, 13), 5),
    (Release::new(1, 14), 9),
    (Release::new(1, 15), 9),
];

/// The newest published patch of each stable OpenTofu line (the tags of opentofu/opentofu).
const OPENTOFU_NEWEST_PATCH: &[(Release, u64)] = &[
    (Release::new(1, 6), 3),
    (Release::new(1, 7), 10),
    (Release::new(1, 8), 11),
    (Release::new(1, 9), 4),
    (Release::new(1, 10), 10),
    (Release::new(1, 11), 14),
    (Release::new(1, 12), 6),
];

fn newest_patches(view: View) -> &'static [(Release, u64)] {
    match view {
        View::Terraform => TERRAFORM_NEWEST_PATCH,
        View::OpenTofu => OPENTOFU_NEWEST_PATCH,
    }
}

/// The published releases of a stable line of `view`'s tool, `x.y.0` to its newest patch, as
/// a set; `None` for a line with no final release yet (a release candidate or development
/// line), which is judged as a whole when a pre-release of it is targeted.
pub(crate) fn published(view: View, release: Release) -> Option<VersionSet> {
    let &(_, newest) = newest_patches(view).iter().find(|(r, _)| *r == release)?;
    let (major, minor) = (release.major.into(), release.minor.into());
    Some(VersionSet::between(
        Version::new(major, minor, 0),
        Version::new(major, minor, newest + 1),
    ))
}

/// Every published release of `view`'s tool, oldest first.
pub(crate) fn published_versions(view: View) -> impl Iterator<Item = Version> {
    newest_patches(view).iter().flat_map(|&(release, newest)| {
        let (major, minor) = (release.major.into(), release.minor.into());
        (0..=newest).map(move |patch| Version::new(major, minor, patch))
    })
}

/// `1.6.0–1.6.6, 1.8.0–1.15.9`: consecutive published releases as ranges.
pub(crate) fn ranges_text(view: View, versions: &[Version]) -> String {
    ranges(view, versions)
        .into_iter()
        .map(|(first, last)| match first == last {
            true => first.to_string(),
            false => format!("{first}–{last}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs of consecutive published releases, as (first, last).
pub(crate) fn ranges(view: View, versions: &[Version]) -> Vec<(Version, Version)> {
    let wanted: HashSet<&Version> = versions.iter().collect();
    let mut runs: Vec<(Version, Version)> = Vec::new();
    let mut open = false;
    for version in published_versions(view) {
        if wanted.contains(&version) {
            match runs.last_mut() {
                Some((_, last)) if open => *last = version,
                _ => runs.push((version.clone(), version)),
            }
            open = true;
        } else {
            open = false;
        }
    }
    runs
}

/// The release line of a version.
pub(crate) fn line_of(version: &Version) -> Release {
    let [major, minor, _] = version.segments;
    Release::new(
        u16::try_from(major).unwrap_or(u16::MAX),
        u16::try_from(minor).unwrap_or(u16::MAX),
    )
}

/// The newest published release of `view`'s tool in `set`, if any.
pub(crate) fn newest_published_in(view: View, set: &VersionSet) -> Option<Version> {
    newest_patches(view)
        .iter()
        .rev()
        .find_map(|&(release, newest)| {
            let (major, minor) = (release.major.into(), release.minor.into());
            (0..=newest)
                .rev()
                .map(|patch| Version::new(major, minor, patch))
                .find(|version| set.overlaps(&VersionSet::exactly(version.clone())))
        })
}

/// The newest stable release of `view`'s tool, patch included (its newest stable tag): what a
/// module with no version constraint is judged against where patch releases differ (Terraform
/// 1.15.5's null module `version`).
pub(crate) fn newest_stable_patch(view: View) -> Version {
    let &(release, patch) = newest_patches(view)
        .last()
        .unwrap_or(&(Release::new(1, 0), 0));
    Version::new(release.major.into(), release.minor.into(), patch)
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
        assert_eq!(newest_stable_patch(View::Terraform), Version::new(1, 15, 9));
        assert_eq!(newest_stable_patch(View::OpenTofu), Version::new(1, 12, 6));
    }

    /// Every stable line has its published patches, and no other line has any.
    #[test]
    fn every_stable_line_has_its_patches() {
        for view in View::ALL {
            let stable: Vec<Release> = stable_releases(view).collect();
            let patched: Vec<Release> = newest_patches(view).iter().map(|(r, _)| *r).collect();
            assert_eq!(stable, patched, "{view}");
        }
        let tf_1_11 = published(View::Terraform, Release::new(1, 11)).expect("stable");
        assert!(tf_1_11.overlaps(&VersionSet::exactly(Version::new(1, 11, 4))));
        assert!(!tf_1_11.overlaps(&VersionSet::exactly(Version::new(1, 11, 5))));
        assert_eq!(published(View::Terraform, Release::new(1, 16)), None);
        let above = VersionSet::at_least(Version::new(1, 11, 5));
        let below_1_12 = VersionSet::between(Version::new(1, 0, 0), Version::new(1, 12, 0));
        assert_eq!(
            newest_published_in(View::Terraform, &above.intersect(&below_1_12)),
            None
        );
        assert_eq!(
            newest_published_in(View::OpenTofu, &below_1_12),
            Some(Version::new(1, 11, 14))
        );
    }
}
