//! The releases of a tool that one view of a module targets, as clippy reads `rust-version`:
//! derived from the module's own version constraints, or set by the user
//! (`terraform_version:`/`opentofu_version:` in `.tflint-merge.yaml`, `--terraform-version`/
//! `--opentofu-version`). Rules judge version-dependent constructs against these releases.
//!
//! Which constraints a release reads (hashicorp/terraform `internal/configs/parser_config.go`,
//! `sniffCoreVersionRequirements`; OpenTofu 1.12 and later `internal/configs/diagnostics.go`,
//! `checkVersionRequirements`):
//! - Terraform: `required_version` in every file (an override file's replace the others');
//! - OpenTofu 1.6–1.7: the same, in the `.tf`/`.tf.json` files alone: they read no `.tofu`
//!   file, so a `.tofu` twin hides nothing from them (opentofu/opentofu v1.8.0 CHANGELOG, "Added
//!   support to new .tofu extensions", and `internal/configs/parser_config_dir.go`);
//! - OpenTofu 1.8–1.11: `required_version` in every file the OpenTofu view loads;
//! - OpenTofu 1.12 and later: `required_version` only in `.tofu`/`.tofu.json` files.
//!
//! `language { compatible_with { opentofu = "..." } }` is read by OpenTofu 1.12 and later only,
//! but it states which OpenTofu releases the module is written for, so it narrows the targets
//! of every OpenTofu release (OpenTofu itself warns when it admits 1.11, "Ineffective version
//! constraint").

use std::cell::RefCell;

use crate::knowledge::View;
use crate::knowledge::features::{self, Place};
use crate::knowledge::releases::{self, Release, Stage};
use crate::knowledge::version::{self, Version, VersionSet};
use crate::module::merge::LoadedFile;
use crate::syntax::{Attribute, Expr};

use super::helpers::compatible_with_opentofu;

/// The first OpenTofu release that reads `required_version` only in `.tofu` files.
pub(crate) const OPENTOFU_TOFU_ONLY_REQUIRED_VERSION: Release = Release::new(1, 12);

/// The first OpenTofu release that reads `.tofu` files (and lets one hide its `.tf` twin).
pub(crate) const OPENTOFU_READS_TOFU_FILES: Release = Release::new(1, 8);

/// The files whose version constraints the releases of a view read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ConstraintFiles<'a> {
    /// The view's files, each list in load order.
    pub(crate) primary: &'a [LoadedFile<'a>],
    pub(crate) overrides: &'a [LoadedFile<'a>],
    /// The files OpenTofu releases before `.tofu` files read: every `.tf` and `.tf.json` file,
    /// those a `.tofu` twin hides from later releases too, and no `.tofu` file (primaries,
    /// overrides). In the Terraform view, the view's own files.
    pub(crate) before_tofu: (&'a [LoadedFile<'a>], &'a [LoadedFile<'a>]),
}

impl<'a> ConstraintFiles<'a> {
    /// A view's files, when they are also what every release of the view reads (Terraform,
    /// or a directory without `.tofu` files).
    pub(crate) fn same(primary: &'a [LoadedFile<'a>], overrides: &'a [LoadedFile<'a>]) -> Self {
        ConstraintFiles {
            primary,
            overrides,
            before_tofu: (primary, overrides),
        }
    }
}

/// The version constraints of one [`Reading`] of a module's files, in order, as written: `None`
/// for one that is not a literal string (it admits every version).
type ConstraintTexts = Vec<Option<Box<str>>>;

/// The constraints each [`Reading`] of a module's files gives (empty where the view has no such
/// reading): all that the targets derived without a setting depend on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct ReadConstraints {
    all_files: ConstraintTexts,
    before_tofu: ConstraintTexts,
    tofu_only: ConstraintTexts,
}

/// How many derived targets a thread keeps before it starts afresh: a run's directories mostly
/// write the same few constraints, and a long-running language server must not grow without
/// bound.
const DERIVED_KEPT: usize = 256;

thread_local! {
    /// The targets derived from each set of constraints, by view: deriving intersects each
    /// constraint with the versions of every known release, and a repository's directories
    /// write the same few `required_version`s again and again.
    static DERIVED: RefCell<foldhash::HashMap<(View, ReadConstraints), Targets>> =
        RefCell::default();
}

/// Which of a view's files a release takes its version constraints from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// The `.tf` files alone (OpenTofu before 1.8).
    BeforeTofu,
    /// Every file of the view.
    AllFiles,
    /// The `.tofu` files alone (OpenTofu 1.12 and later).
    TofuOnly,
}

fn reading(view: View, release: Release) -> Reading {
    match view {
        View::Terraform => Reading::AllFiles,
        View::OpenTofu if release < OPENTOFU_READS_TOFU_FILES => Reading::BeforeTofu,
        View::OpenTofu if release < OPENTOFU_TOFU_ONLY_REQUIRED_VERSION => Reading::AllFiles,
        View::OpenTofu => Reading::TofuOnly,
    }
}

/// Where the targeted releases come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Basis {
    /// `terraform_version:`/`opentofu_version:` or the matching flag.
    Setting,
    /// The module's version constraints.
    Module,
    /// No constraint: the newest stable release.
    NewestStable,
    /// The module's constraints admit no known release: judged against the newest stable one.
    NoKnownRelease,
}

/// The release lines one view targets, oldest first (never empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Targets {
    pub(crate) view: View,
    pub(crate) releases: Vec<Release>,
    /// The targeted versions of each release line of `releases`, in the same order: patch
    /// releases differ now and then (Terraform 1.15.5 accepts a null module `version`).
    versions: Vec<VersionSet>,
    pub(crate) basis: Basis,
    /// Whether the target is an experimental build (a Terraform alpha release or development
    /// snapshot, named by its version): it also accepts the experimental constructs.
    pub(crate) experiments: bool,
}

/// One pre-release build, named exactly (`1.17.0-dev`, `= 1.15.0-alpha20250101`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Build {
    release: Release,
    /// The version core (`1.17.0`): the tools check constraints against it ("Prerelease
    /// versions of terraform will match constraints using their version core only").
    core: Version,
    experiments: bool,
}

/// The build `text` names, when it is one pre-release version of a known release line of
/// `view`'s tool. Terraform's alpha releases and development snapshots allow experiments
/// (`experiments.go` at the top of its tree); OpenTofu has no experimental builds.
fn prerelease_build(view: View, text: &str) -> Option<Build> {
    let [constraint] = version::parse(text).ok()?.try_into().ok()?;
    let pre = constraint.version.pre.as_deref()?;
    if constraint.op != version::Op::Eq {
        return None;
    }
    let [major, minor, patch] = constraint.version.segments;
    let release = Release::new(u16::try_from(major).ok()?, u16::try_from(minor).ok()?);
    releases::all(view)
        .iter()
        .any(|&(r, _)| r == release)
        .then(|| Build {
            release,
            core: Version::new(major, minor, patch),
            experiments: view == View::Terraform
                && (pre.starts_with("alpha") || pre.starts_with("dev")),
        })
}

impl Targets {
    /// The targets of one view of a module: from `setting` (a constraint string the command
    /// line checked) when given, else from the view's files.
    pub(crate) fn derive(view: View, files: ConstraintFiles, setting: Option<&str>) -> Targets {
        if let Some(build) = setting.and_then(|text| prerelease_build(view, text)) {
            return Targets {
                view,
                releases: vec![build.release],
                versions: vec![VersionSet::exactly(build.core)],
                basis: Basis::Setting,
                experiments: build.experiments,
            };
        }
        if let Some(text) = setting
            && let Some(releases) = releases_admitted_by(view, text)
        {
            let set = constraint_set(text);
            let versions = releases
                .iter()
                .map(|&r| set.intersect(&line_versions(view, r)))
                .collect();
            return Targets {
                view,
                releases,
                versions,
                basis: Basis::Setting,
                experiments: false,
            };
        }
        // Which constraints a release reads depends only on which of the view's files it reads
        // them from: each list is gathered once, not again for every known release.
        let texts = |reading: Reading| -> ConstraintTexts {
            (constraints_read(view, reading, files).into_iter())
                .map(|expr| expr.literal_string().map(Box::from))
                .collect()
        };
        let read = match view {
            View::Terraform => ReadConstraints {
                all_files: texts(Reading::AllFiles),
                before_tofu: Vec::new(),
                tofu_only: Vec::new(),
            },
            View::OpenTofu => ReadConstraints {
                all_files: texts(Reading::AllFiles),
                before_tofu: texts(Reading::BeforeTofu),
                tofu_only: texts(Reading::TofuOnly),
            },
        };
        DERIVED.with_borrow_mut(|derived| {
            if let Some(found) = derived.get(&(view, read.clone())) {
                return found.clone();
            }
            if derived.len() >= DERIVED_KEPT {
                derived.clear();
            }
            let targets = Targets::from_constraints(view, &read);
            derived.insert((view, read), targets.clone());
            targets
        })
    }

    /// The targets of a module whose files' constraints are `read`, without a setting.
    fn from_constraints(view: View, read: &ReadConstraints) -> Targets {
        let admitted_sets = |texts: &ConstraintTexts| -> Vec<VersionSet> {
            (texts.iter())
                .map(|text| text.as_deref().map_or_else(VersionSet::all, constraint_set))
                .collect()
        };
        let (before_tofu, all_files, tofu_only) = match view {
            View::Terraform => (Vec::new(), admitted_sets(&read.all_files), Vec::new()),
            View::OpenTofu => {
                let all_files = admitted_sets(&read.all_files);
                // The releases before `.tofu` files enforce the `.tf` files' constraints; a
                // `.tofu` file's still says which OpenTofu releases the module is written for,
                // so it narrows their targets too, as `compatible_with` does.
                let mut before_tofu = admitted_sets(&read.before_tofu);
                before_tofu.extend(all_files.iter().cloned());
                (before_tofu, all_files, admitted_sets(&read.tofu_only))
            }
        };
        let admitted_by = |release: Release| match reading(view, release) {
            Reading::BeforeTofu => &before_tofu,
            Reading::AllFiles => &all_files,
            Reading::TofuOnly => &tofu_only,
        };
        let constrained = (releases::all(view).iter()).any(|&(r, _)| !admitted_by(r).is_empty());
        if !constrained {
            return Targets::newest_stable_with(view, Basis::NewestStable);
        }
        let read_by = |release: Release| {
            (admitted_by(release).iter()).fold(line_versions(view, release), |set, admitted| {
                set.intersect(admitted)
            })
        };
        match prefer_stable(view, |release| !read_by(release).is_empty()) {
            Some(releases) => Targets {
                view,
                versions: releases.iter().map(|&r| read_by(r)).collect(),
                releases,
                basis: Basis::Module,
                experiments: false,
            },
            None => Targets::newest_stable_with(view, Basis::NoKnownRelease),
        }
    }

    /// The newest stable release, its newest patch release precisely.
    fn newest_stable_with(view: View, basis: Basis) -> Targets {
        Targets {
            view,
            releases: vec![releases::newest_stable(view)],
            versions: vec![VersionSet::exactly(releases::newest_stable_patch(view))],
            basis,
            experiments: false,
        }
    }

    /// The targeted versions of `release` (none when it is not targeted).
    pub(crate) fn versions_of(&self, release: Release) -> VersionSet {
        (self.releases.iter().zip(&self.versions))
            .find(|(r, _)| **r == release)
            .map_or_else(VersionSet::none, |(_, set)| set.clone())
    }

    /// Whether some targeted version is older than `version`.
    pub(crate) fn some_version_below(&self, version: &Version) -> bool {
        self.versions.iter().any(|set| set.admits_below(version))
    }

    /// Whether some targeted version is `version` or newer.
    pub(crate) fn some_version_from(&self, version: &Version) -> bool {
        let newer = VersionSet::at_least(version.clone());
        self.versions.iter().any(|set| set.overlaps(&newer))
    }

    /// The newest stable release, as targeted with no constraint.
    #[cfg(test)]
    pub(crate) fn newest_stable(view: View) -> Targets {
        Targets::newest_stable_with(view, Basis::NewestStable)
    }

    /// The newest targeted release line.
    pub(crate) fn newest(&self) -> Release {
        self.releases
            .last()
            .copied()
            .unwrap_or_else(|| releases::newest_stable(self.view))
    }

    pub(crate) fn lowest(&self) -> Release {
        self.releases
            .first()
            .copied()
            .unwrap_or_else(|| releases::newest_stable(self.view))
    }

    /// The targeted releases that do not have a construct the tables describe and refuse it
    /// (empty for a construct they do not describe).
    pub(crate) fn refusing(&self, place: Place, name: &str) -> Vec<Release> {
        match features::acceptance(self.view, place, name) {
            Some(acceptance) => self.refusing_described(acceptance, place, name),
            None => Vec::new(),
        }
    }

    /// [`Targets::refusing`] for a construct whose `acceptance` the caller looked up already.
    pub(crate) fn refusing_described(
        &self,
        acceptance: features::Acceptance,
        place: Place,
        name: &str,
    ) -> Vec<Release> {
        // The releases that have a construct are one range, and the targeted ones are in
        // order: when the oldest and the newest targeted release have it, every one does (most
        // constructs of a module, each asked about here).
        if let (Some(&oldest), Some(&newest)) = (self.releases.first(), self.releases.last())
            && acceptance.in_release(oldest)
            && acceptance.in_release(newest)
        {
            return Vec::new();
        }
        self.releases
            .iter()
            .copied()
            .filter(|&r| !acceptance.in_release(r))
            .filter(|&r| !features::ignores(self.view, r, place, name))
            .filter(|&r| !self.accepts_experimental(r, place, name))
            .collect()
    }

    /// The targeted releases that load a construct and silently ignore it (Terraform 1.13 and
    /// `action` blocks).
    pub(crate) fn ignoring(&self, place: Place, name: &str) -> Vec<Release> {
        if !features::ever_ignored(self.view, place, name) {
            return Vec::new();
        }
        self.releases
            .iter()
            .copied()
            .filter(|&r| features::ignores(self.view, r, place, name))
            .filter(|&r| !self.accepts_experimental(r, place, name))
            .collect()
    }

    /// Whether the targeted build is experimental and `release` accepts the construct there.
    fn accepts_experimental(&self, release: Release, place: Place, name: &str) -> bool {
        self.experiments && features::experimental(self.view, release, place, name)
    }

    /// `Terraform 1.6–1.15`, `OpenTofu 1.12`, `Terraform 1.17 (an experimental build)`.
    pub(crate) fn describe(&self) -> String {
        let build = if self.experiments {
            " (an experimental build)"
        } else {
            ""
        };
        format!(
            "{} {}{build}",
            self.view.tool_name(),
            range_text(&self.releases)
        )
    }

    /// Why these releases: for `tflint-merge` messages and notes.
    pub(crate) fn basis_text(&self) -> &'static str {
        match self.basis {
            Basis::Setting => "as set in .tflint-merge.yaml or on the command line",
            Basis::Module => "as the module's version constraints admit",
            Basis::NewestStable => "the newest stable release: the module has no constraint",
            Basis::NoKnownRelease => {
                "the newest stable release: the module's constraints admit no known release"
            }
        }
    }
}

/// What `tflint-merge rules` says about the targeted releases, with the known ones.
pub(crate) fn explain_targets() -> String {
    let known = |view: View| {
        let line = |stage: Stage| {
            let releases: Vec<Release> = releases::all(view)
                .iter()
                .filter(|(_, s)| *s == stage)
                .map(|(r, _)| *r)
                .collect();
            range_text(&releases)
        };
        let mut text = format!("{} {}", view.tool_name(), line(Stage::Stable));
        for (stage, name) in [
            (Stage::ReleaseCandidate, "release candidate"),
            (Stage::Development, "development"),
        ] {
            let releases = line(stage);
            if !releases.is_empty() {
                text.push_str(&format!(", {releases} ({name})"));
            }
        }
        text
    };
    format!(
        "TARGETED RELEASES\n\
         Version-dependent findings judge each view against the releases its module targets: the\n\
         known releases its constraints admit (Terraform: `required_version`; OpenTofu:\n\
         `language {{ compatible_with }}`, and `required_version` in every file for 1.6-1.11, in\n\
         .tofu files only from 1.12), else the newest stable release. Set them with\n\
         `terraform_version:`/`opentofu_version:` in .tflint-merge.yaml or\n\
         --terraform-version/--opentofu-version (e.g. \">= 1.6\"), or name one pre-release build\n\
         (\"1.17.0-dev\"): Terraform's alpha releases and development snapshots also accept\n\
         its experimental constructs (`state_store`).\n\
         Known: {}; {}.\n",
        known(View::Terraform),
        known(View::OpenTofu)
    )
}

/// `1.6–1.15` for consecutive lines, `1.6–1.8, 1.12` otherwise.
pub(crate) fn range_text(releases: &[Release]) -> String {
    let mut runs: Vec<(Release, Release)> = Vec::new();
    for &release in releases {
        match runs.last_mut() {
            Some((_, last)) if last.major == release.major && last.minor + 1 == release.minor => {
                *last = release;
            }
            _ => runs.push((release, release)),
        }
    }
    runs.iter()
        .map(|(first, last)| match first == last {
            true => first.to_string(),
            false => format!("{first}–{last}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The known releases of `view` a constraint string admits, stable ones when there are any, or
/// the release line of the pre-release build it names; `None` when the string does not parse
/// or admits no known release.
pub(crate) fn releases_admitted_by(view: View, text: &str) -> Option<Vec<Release>> {
    if let Some(build) = prerelease_build(view, text) {
        return Some(vec![build.release]);
    }
    let set = VersionSet::of(&version::parse(text).ok()?);
    prefer_stable(view, |release| set.overlaps(&line_versions(view, release)))
}

/// The versions of a release line that can be targeted: its published releases for a stable
/// line, the whole line for one that has only pre-releases (targeted only when nothing
/// published is admitted, or when a pre-release is named).
fn line_versions(view: View, release: Release) -> VersionSet {
    releases::published(view, release).unwrap_or_else(|| release.versions())
}

/// The published releases of `view`'s tool, oldest first, that load a module with these files
/// as far as their version checks go: every constraint each enforces admits it.
pub(crate) fn releases_admitted(view: View, files: ConstraintFiles) -> Vec<Version> {
    let mut admitted = Vec::new();
    for release in releases::stable_releases(view) {
        let enforced = constraints_enforced_by(view, release, files);
        let sets: Vec<VersionSet> = enforced.into_iter().map(admitted_set).collect();
        let versions =
            releases::published_versions(view).filter(|v| releases::line_of(v) == release);
        admitted.extend(versions.filter(|v| {
            let exactly = VersionSet::exactly(v.clone());
            sets.iter().all(|set| set.overlaps(&exactly))
        }));
    }
    admitted
}

/// The newest published release of `view`'s tool that loads a module with these files as far
/// as its version checks go.
pub(crate) fn newest_release_admitted(view: View, files: ConstraintFiles) -> Option<Version> {
    releases_admitted(view, files).pop()
}

/// The stable releases `admitted` keeps; if none, the pre-releases it keeps; `None` if none.
fn prefer_stable(view: View, admitted: impl Fn(Release) -> bool) -> Option<Vec<Release>> {
    let pick = |stable: bool| -> Vec<Release> {
        releases::all(view)
            .iter()
            .filter(|(release, stage)| (*stage == Stage::Stable) == stable && admitted(*release))
            .map(|(release, _)| *release)
            .collect()
    };
    let stable = pick(true);
    let chosen = if stable.is_empty() {
        pick(false)
    } else {
        stable
    };
    (!chosen.is_empty()).then_some(chosen)
}

/// The versions a constraint expression admits; a constraint that is not a literal or does not
/// parse is left to `version_constraint_invalid` and admits everything.
fn admitted_set(expr: &Expr) -> VersionSet {
    expr.literal_string()
        .map_or_else(VersionSet::all, constraint_set)
}

/// The versions a constraint string admits (all of them when it does not parse).
fn constraint_set(text: &str) -> VersionSet {
    version::parse(text).map_or_else(|_| VersionSet::all(), |parsed| VersionSet::of(&parsed))
}

/// The version constraints `release` of `view`'s tool checks its own version against: those it
/// reads, less `compatible_with` for OpenTofu before 1.12, which does not know the `language`
/// block (it narrows the targets, but no such release refuses a module by it).
pub(crate) fn constraints_enforced_by<'a>(
    view: View,
    release: Release,
    files: ConstraintFiles<'a>,
) -> Vec<&'a Expr> {
    let reading = reading(view, release);
    let mut constraints = constraints_read(view, reading, files);
    if view == View::OpenTofu && reading != Reading::TofuOnly {
        let compatible = compatible_with_constraints(files.primary).count();
        constraints.truncate(constraints.len() - compatible);
    }
    constraints
}

/// The version constraints that say whether the module is written for `release`: those it
/// enforces and, for an OpenTofu release before `.tofu` files, also those of the view's own
/// files, which narrow its targets (see [`Targets::derive`]).
pub(crate) fn constraints_targeting<'a>(
    view: View,
    release: Release,
    files: ConstraintFiles<'a>,
) -> Vec<&'a Expr> {
    let mut constraints = constraints_enforced_by(view, release, files);
    if reading(view, release) == Reading::BeforeTofu {
        for stated in constraints_enforced_by(view, OPENTOFU_READS_TOFU_FILES, files) {
            if !constraints.iter().any(|c| std::ptr::eq(*c, stated)) {
                constraints.push(stated);
            }
        }
    }
    constraints
}

/// The version constraints `view`'s tool reads from the files `reading` names: `required_version`
/// (an override file's replacing the others', but for `.tofu` files alone), then for OpenTofu the
/// `compatible_with` constraints of the view's `language` blocks.
fn constraints_read<'a>(view: View, reading: Reading, files: ConstraintFiles<'a>) -> Vec<&'a Expr> {
    let (primary, overrides) = match reading {
        Reading::BeforeTofu => files.before_tofu,
        Reading::AllFiles | Reading::TofuOnly => (files.primary, files.overrides),
    };
    let tofu_only = reading == Reading::TofuOnly;
    let read = |file: &LoadedFile| !tofu_only || file.extension.is_tofu();
    let required_in = |file: &'a LoadedFile<'a>| -> Vec<&'a Expr> {
        file.file
            .body
            .blocks_of("terraform")
            .filter_map(|b| b.body.attribute("required_version"))
            .map(|a: &Attribute| &a.expr)
            .collect()
    };
    let mut constraints: Vec<&Expr> = primary
        .iter()
        .filter(|f| read(f))
        .flat_map(required_in)
        .collect();
    for file in overrides.iter().filter(|f| read(f)) {
        let replacing = required_in(file);
        if !replacing.is_empty() {
            // Terraform (and OpenTofu before 1.12) replace the constraints with an override
            // file's; OpenTofu 1.12 adds a `.tofu` override's to the others.
            if !tofu_only {
                constraints.clear();
            }
            constraints.extend(replacing);
        }
    }
    if view == View::OpenTofu {
        constraints.extend(compatible_with_constraints(files.primary));
    }
    constraints
}

/// The `language { compatible_with { opentofu = ... } }` constraints of these files.
fn compatible_with_constraints<'a>(
    primary: &'a [LoadedFile<'a>],
) -> impl Iterator<Item = &'a Expr> {
    primary
        .iter()
        .flat_map(|f| f.file.body.blocks_of("language"))
        .flat_map(compatible_with_opentofu)
        .map(|a| &a.expr)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::files::classify;
    use crate::module::views::view_files;
    use crate::source::FileId;

    /// The targets `view` derives from these files, described.
    fn targets(files: &[(&str, &str)], view: View) -> String {
        let names: Vec<_> = files
            .iter()
            .map(|(name, _)| classify(name).expect("a configuration file name"))
            .collect();
        let parsed: Vec<_> = files
            .iter()
            .zip(&names)
            .enumerate()
            .map(|(i, ((_, text), name))| {
                let id = FileId(i as u32);
                let file = crate::syntax::parse(id, name.extension.syntax(), text).file;
                file.expect("the test files parse")
            })
            .collect();
        let chosen = view_files(&names, view);
        let before_tofu = view_files(&names, View::Terraform);
        let pick = |list: &[usize]| -> Vec<LoadedFile> {
            list.iter()
                .map(|&i| LoadedFile {
                    file: &parsed[i],
                    extension: names[i].extension,
                })
                .collect()
        };
        let (primary, overrides) = (pick(&chosen.primary), pick(&chosen.overrides));
        let (tf_primary, tf_overrides) = (pick(&before_tofu.primary), pick(&before_tofu.overrides));
        let files = ConstraintFiles {
            primary: &primary,
            overrides: &overrides,
            before_tofu: (&tf_primary, &tf_overrides),
        };
        Targets::derive(view, files, None).describe()
    }

    #[test]
    fn derived_from_the_module() {
        let tf = |c: &str| format!("terraform {{\n  required_version = \"{c}\"\n}}\n");
        assert_eq!(
            targets(&[("main.tf", "")], View::Terraform),
            "Terraform 1.15"
        );
        assert_eq!(targets(&[("main.tf", "")], View::OpenTofu), "OpenTofu 1.12");
        let v = tf(">= 1.6");
        assert_eq!(
            targets(&[("v.tf", &v)], View::Terraform),
            "Terraform 1.6–1.15"
        );
        // OpenTofu 1.6–1.11 read the `.tf` constraint; 1.12 reads none, so it is admitted.
        assert_eq!(
            targets(&[("v.tf", &v)], View::OpenTofu),
            "OpenTofu 1.6–1.12"
        );
        let old = tf(">= 1.3, < 1.9");
        assert_eq!(
            targets(&[("v.tf", &old)], View::OpenTofu),
            "OpenTofu 1.6–1.8, 1.12"
        );
        let tofu = tf("~> 1.10.0");
        let both: &[(&str, &str)] = &[("v.tf", &old), ("v.tofu", &tofu)];
        assert_eq!(targets(both, View::OpenTofu), "OpenTofu 1.10");
        // OpenTofu 1.6–1.7 read `v.tf`, which a `.tofu` twin hides from the later releases:
        // its constraint narrows their targets too.
        let twins: &[(&str, &str)] = &[("v.tf", &tf("< 1.7")), ("v.tofu", &tf(">= 1.6"))];
        assert_eq!(targets(twins, View::OpenTofu), "OpenTofu 1.6, 1.8–1.12");
        let language = "language {\n  compatible_with {\n    opentofu = \">= 1.12\"\n  }\n}\n";
        let lang: &[(&str, &str)] = &[("l.tofu", language)];
        assert_eq!(targets(lang, View::OpenTofu), "OpenTofu 1.12");
        // An override file's constraint replaces the others (Terraform).
        let over: &[(&str, &str)] = &[("v.tf", &old), ("v_override.tf", &tf(">= 1.14"))];
        assert_eq!(targets(over, View::Terraform), "Terraform 1.14–1.15");
        // Only pre-releases admitted: those are the targets.
        assert_eq!(
            targets(&[("v.tf", &tf(">= 1.16"))], View::Terraform),
            "Terraform 1.16–1.17"
        );
        // Nothing known admitted: the newest stable release.
        assert_eq!(
            targets(&[("v.tf", &tf("~> 0.12"))], View::Terraform),
            "Terraform 1.15"
        );
    }

    /// Targets kept per thread by the constraints read are what deriving them again gives:
    /// in either view, whichever reading differs, in any order, and once the thread has kept
    /// more than it keeps.
    #[test]
    fn kept_targets_are_derived_ones() {
        let tf = |c: &str| format!("terraform {{\n  required_version = \"{c}\"\n}}\n");
        let (old, new) = (tf(">= 1.3, < 1.9"), tf(">= 1.10"));
        let cases: Vec<Vec<(&str, &str)>> = vec![
            vec![("v.tf", &old)],
            vec![("v.tf", &new)],
            vec![("v.tf", &old), ("v.tofu", &new)],
            vec![("v.tf", &new), ("v.tofu", &old)],
            vec![("v.tf", &old), ("v_override.tf", &new)],
        ];
        let views = [View::Terraform, View::OpenTofu];
        let first: Vec<String> = (cases.iter())
            .flat_map(|files| views.map(|view| targets(files, view)))
            .collect();
        let crowd: Vec<String> = (0..DERIVED_KEPT + 10)
            .map(|i| tf(&format!(">= 1.{i}")))
            .collect();
        for text in &crowd {
            targets(&[("v.tf", text)], View::Terraform);
        }
        let again: Vec<String> = (cases.iter().rev())
            .flat_map(|files| views.map(|view| targets(files, view)))
            .collect();
        let expected: Vec<String> = (first.chunks(2).rev()).flatten().cloned().collect();
        assert_eq!(again, expected);
        assert_eq!(targets(&cases[0], View::Terraform), "Terraform 1.3–1.8");
        assert_eq!(targets(&cases[0], View::OpenTofu), "OpenTofu 1.6–1.8, 1.12");
    }

    #[test]
    fn the_rules_listing_names_the_known_releases() {
        let text = explain_targets();
        assert!(text.contains(
            "Known: Terraform 1.0–1.15, 1.16 (release candidate), 1.17 \
                               (development); OpenTofu 1.6–1.12, 1.13 (development)."
        ));
    }

    /// Terraform's alpha releases and development snapshots allow experiments; its betas,
    /// release candidates and final releases do not, nor does any OpenTofu build.
    #[test]
    fn experimental_builds() {
        let build = |view: View, text: &str| {
            let targets = Targets::derive(view, ConstraintFiles::same(&[], &[]), Some(text));
            (targets.describe(), targets.experiments)
        };
        let experimental = |_: &str| ("Terraform 1.17 (an experimental build)".into(), true);
        assert_eq!(build(View::Terraform, "1.17.0-dev"), experimental(""));
        assert_eq!(
            build(View::Terraform, "= 1.17.0-alpha20260101"),
            experimental("")
        );
        assert_eq!(
            build(View::Terraform, "1.16.0-rc2"),
            ("Terraform 1.16".into(), false)
        );
        assert_eq!(
            build(View::Terraform, "1.17.0"),
            ("Terraform 1.17".into(), false)
        );
        assert_eq!(
            build(View::OpenTofu, "1.13.0-dev"),
            ("OpenTofu 1.13".into(), false)
        );
        // The version core is the targeted version: a constraint is checked against it.
        let targets = Targets::derive(
            View::Terraform,
            ConstraintFiles::same(&[], &[]),
            Some("1.15.5-alpha1"),
        );
        assert!(targets.some_version_from(&Version::new(1, 15, 5)));
        assert!(!targets.some_version_below(&Version::new(1, 15, 5)));
    }

    #[test]
    fn set_by_the_user() {
        assert_eq!(
            releases_admitted_by(View::OpenTofu, ">= 1.10"),
            Some(vec![
                Release::new(1, 10),
                Release::new(1, 11),
                Release::new(1, 12)
            ])
        );
        assert_eq!(releases_admitted_by(View::Terraform, ">= 3"), None);
        // One pre-release build: its release line.
        assert_eq!(
            releases_admitted_by(View::Terraform, "1.17.0-dev"),
            Some(vec![Release::new(1, 17)])
        );
        assert_eq!(releases_admitted_by(View::Terraform, "1.99.0-dev"), None);
        assert_eq!(releases_admitted_by(View::Terraform, "nope"), None);
    }
}
