//! Which published releases of Terraform and OpenTofu load a module directory, for
//! `tflint-merge compat`: like `cargo msrv`, but computed rather than bisected.
//!
//! A release loads the module when
//! - its version checks pass: every version constraint it enforces admits it (see
//!   `lint::targets`: `required_version` per tool and release, `.tofu` files and
//!   `language { compatible_with }`), in the directory and in every local child module it calls
//!   (hashicorp/terraform `internal/configs/config.go`, `CheckCoreVersionRequirements`, walks the
//!   whole tree);
//! - and its release line reports no load error, in the directory or a local child module: each
//!   is checked once per release line, targeting it, and every error-severity finding but the
//!   version check counts (the release tables date the constructs: `templatestring`,
//!   `ephemeral`, provider functions, `.tofu` files...).
//!
//! From that come two kinds of advice: a constraint that is **too loose** (it admits releases that
//! refuse the module, so their users get a load error rather than the version check's clear
//! message) and, for OpenTofu, one that is **too tight** (a `.tf` file's `required_version`, written
//! for Terraform, that OpenTofu 1.6–1.11 compare with their own version numbers and so refuse a
//! module they would load).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostic, Severity};
use crate::knowledge::View;
use crate::knowledge::releases::{self, Release};
use crate::knowledge::version::{self, Version};
use crate::rules;

use crate::lint::directory::{
    DirectoryResult, Options, TargetVersions, ViewSelection, check_directory,
};
use crate::lint::targets::OPENTOFU_TOFU_ONLY_REQUIRED_VERSION;

/// How deep `compat` follows local module calls (a call cycle stops earlier, at a directory
/// already visited).
const MAX_CHILD_DEPTH: usize = 16;

/// Error-severity findings that are not load errors of the tools: tflint-merge makes them errors
/// on purpose (Terraform loads the module).
const NOT_LOAD_ERRORS: &[&str] = &["override_count_for_each_conflict"];

/// What one tool makes of a module directory.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ToolCompat {
    pub(crate) view: View,
    /// Every published release, oldest first.
    pub(crate) releases: Vec<ReleaseVerdict>,
    pub(crate) too_loose: Option<TooLoose>,
    pub(crate) too_tight: Option<TooTight>,
}

/// What one published release makes of the module.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ReleaseVerdict {
    pub(crate) version: Version,
    /// Its version checks pass.
    pub(crate) admitted: bool,
    /// The load errors its release line reports, other than the version check, as
    /// `id: message`, each once.
    pub(crate) refused_by: Vec<String>,
}

impl ReleaseVerdict {
    pub(crate) fn loads(&self) -> bool {
        self.admitted && self.refused_by.is_empty()
    }
}

/// Constraints that admit releases which refuse the module.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TooLoose {
    /// The admitted releases that refuse it.
    pub(crate) refusing: Vec<Version>,
    /// The constraint as written (every `required_version` the newest release reads, joined).
    pub(crate) written: String,
    /// The narrowest constraint that admits every release that loads the module.
    pub(crate) honest: String,
}

/// A Terraform constraint in a `.tf` file that shuts out OpenTofu releases which would load the
/// module.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TooTight {
    /// The OpenTofu releases shut out.
    pub(crate) shut_out: Vec<Version>,
    /// OpenTofu's own constraint for a `versions.tofu` file: from the oldest release that would
    /// load the module.
    pub(crate) opentofu_constraint: String,
}

impl ToolCompat {
    /// The releases that load the module, oldest first.
    pub(crate) fn loading(&self) -> impl Iterator<Item = &Version> {
        self.releases
            .iter()
            .filter(|r| r.loads())
            .map(|r| &r.version)
    }

    /// The oldest release that loads the module.
    pub(crate) fn minimum(&self) -> Option<&Version> {
        self.loading().next()
    }
}

/// What `compat` found for one directory.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DirectoryCompat {
    pub(crate) tools: Vec<ToolCompat>,
}

/// Judges `dir` release by release for both tools. `base` is the options of a check (its overlay
/// keeps reads inside the checked paths); its targets and views are replaced.
pub(crate) fn judge_directory(dir: &Path, base: &Options) -> DirectoryCompat {
    let tools = View::ALL
        .into_iter()
        .map(|view| judge_tool(dir, base, view))
        .collect();
    DirectoryCompat { tools }
}

fn options_for(base: &Options, view: View, target: Option<String>) -> Options {
    let mut options = base.clone();
    options.views = ViewSelection::only(view);
    options.judge_releases = true;
    options.target_versions = match view {
        View::Terraform => TargetVersions {
            terraform: target,
            opentofu: None,
        },
        View::OpenTofu => TargetVersions {
            terraform: None,
            opentofu: target,
        },
    };
    options
}

fn judge_tool(dir: &Path, base: &Options, view: View) -> ToolCompat {
    let mut admitted: Option<HashSet<Version>> = None;
    let mut refused: Vec<(Release, Vec<String>)> = Vec::new();
    let mut children: Vec<PathBuf> = Vec::new();
    for release in releases::stable_releases(view) {
        let target = format!("~> {}.{}.0", release.major, release.minor);
        let result = check_directory(dir, &options_for(base, view, Some(target)));
        // The version checks of every release, from the newest line's check: an OpenTofu
        // line before `.tofu` files is checked with the `.tf` files alone, which the later
        // lines do not all read.
        admitted = Some(admitted_in(&result, view));
        children.clone_from(&result.local_modules);
        // In name order: the check lists them in no particular order, and the first path
        // that reaches a module names it in the output.
        children.sort();
        refused.push((release, load_errors(&result.diagnostics)));
    }
    let own = admitted.unwrap_or_default();
    let mut tree = Tree {
        base,
        view,
        admitted: own.clone(),
        refused,
        visited: HashSet::from([canonical(dir)]),
    };
    tree.visit_children(&children, 0);
    let Tree {
        admitted, refused, ..
    } = tree;
    let releases: Vec<ReleaseVerdict> = releases::published_versions(view)
        .map(|version| {
            let line = releases::line_of(&version);
            let refused_by = (refused.iter())
                .find(|(release, _)| *release == line)
                .map(|(_, errors)| errors.clone())
                .unwrap_or_default();
            ReleaseVerdict {
                admitted: admitted.contains(&version),
                version,
                refused_by,
            }
        })
        .collect();
    let written = written_constraint(dir, base, view);
    let too_loose = too_loose(&releases, written.as_deref());
    let too_tight = match view {
        View::OpenTofu => too_tight(dir, base, &releases, &own),
        View::Terraform => None,
    };
    ToolCompat {
        view,
        releases,
        too_loose,
        too_tight,
    }
}

fn canonical(dir: &Path) -> PathBuf {
    dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf())
}

/// The releases whose version checks the directory's own constraints pass.
fn admitted_in(result: &DirectoryResult, view: View) -> HashSet<Version> {
    (result.admitted.iter())
        .filter(|(v, _)| *v == view)
        .flat_map(|(_, versions)| versions.iter().cloned())
        .collect()
}

/// A directory's judgement as its local child modules (transitively) narrow it: a release
/// loads the tree only if it loads every module of it.
struct Tree<'a> {
    base: &'a Options,
    view: View,
    admitted: HashSet<Version>,
    refused: Vec<(Release, Vec<String>)>,
    visited: HashSet<PathBuf>,
}

impl Tree<'_> {
    fn visit_children(&mut self, children: &[PathBuf], depth: usize) {
        if depth >= MAX_CHILD_DEPTH {
            return;
        }
        for child in children {
            if !child.is_dir() || !self.visited.insert(canonical(child)) {
                continue;
            }
            // The version checks and calls from the newest line's check, as in `judge_tool`.
            let mut own: Option<HashSet<Version>> = None;
            let mut grandchildren: Vec<PathBuf> = Vec::new();
            for release in releases::stable_releases(self.view) {
                let target = format!("~> {}.{}.0", release.major, release.minor);
                let options = options_for(self.base, self.view, Some(target));
                let result = check_directory(child, &options);
                own = Some(admitted_in(&result, self.view));
                grandchildren.clone_from(&result.local_modules);
                grandchildren.sort();
                let errors = load_errors(&result.diagnostics);
                if let Some((_, line)) = self.refused.iter_mut().find(|(r, _)| *r == release) {
                    let place = child.display();
                    line.extend(errors.iter().map(|e| format!("module in {place}: {e}")));
                }
            }
            if let Some(own) = own {
                self.admitted.retain(|v| own.contains(v));
            }
            self.visit_children(&grandchildren, depth + 1);
        }
    }
}

/// The load errors of one check, other than the version check, as `id: message`, each once.
fn load_errors(found: &[Diagnostic]) -> Vec<String> {
    let mut errors: Vec<String> = Vec::new();
    for d in found {
        let id = d.rule.as_str();
        if d.severity != Severity::Error
            || d.rule == rules::CORE_VERSION_UNSUPPORTED.id()
            || NOT_LOAD_ERRORS.contains(&id)
        {
            continue;
        }
        let text = format!("{id}: {}", d.message);
        if !errors.contains(&text) {
            errors.push(text);
        }
    }
    errors
}

/// Every `required_version` the newest release of `view`'s tool reads in `dir` (its own
/// `compatible_with` for OpenTofu), joined with `, `; `None` without any, or with one that is not
/// a literal.
fn written_constraint(dir: &Path, base: &Options, view: View) -> Option<String> {
    let result = check_directory(dir, &options_for(base, view, None));
    let module = result.modules.first()?;
    let texts: Option<Vec<String>> = (module.terraform.required_version.iter())
        .map(|a| a.expr.literal_string().map(str::to_string))
        .collect();
    let texts = texts?;
    (!texts.is_empty()).then(|| texts.join(", "))
}

/// The advice when admitted releases refuse the module and newer admitted ones load it: raise
/// the lower bound to the oldest release that loads it.
fn too_loose(releases: &[ReleaseVerdict], written: Option<&str>) -> Option<TooLoose> {
    let written = written?;
    let minimum = releases.iter().find(|r| r.loads())?.version.clone();
    let refusing: Vec<Version> = (releases.iter())
        .filter(|r| r.admitted && !r.loads() && r.version < minimum)
        .map(|r| r.version.clone())
        .collect();
    if refusing.is_empty() {
        return None;
    }
    Some(TooLoose {
        refusing,
        written: written.to_string(),
        honest: version::with_lower_bound(written, &minimum),
    })
}

/// The OpenTofu releases before 1.12 that a `.tf` file's constraint in the directory itself
/// (`own` is what the directory's own constraints admit) shuts out although they would load the
/// module, when no `.tofu` file states OpenTofu's own constraint. A child module's constraint
/// is that module's business: `compat` on its directory says so.
fn too_tight(
    dir: &Path,
    base: &Options,
    releases: &[ReleaseVerdict],
    own: &HashSet<Version>,
) -> Option<TooTight> {
    let shut_out: Vec<Version> = (releases.iter())
        .filter(|r| !own.contains(&r.version) && r.refused_by.is_empty())
        .filter(|r| releases::line_of(&r.version) < OPENTOFU_TOFU_ONLY_REQUIRED_VERSION)
        .map(|r| r.version.clone())
        .collect();
    if shut_out.is_empty() || !tf_constraint_only(dir, base) {
        return None;
    }
    // The oldest release that would load the module, were it not for the `.tf` constraint.
    let oldest = (releases.iter())
        .find(|r| r.refused_by.is_empty())
        .map(|r| r.version.clone())?;
    Some(TooTight {
        shut_out,
        opentofu_constraint: format!(">= {oldest}"),
    })
}

/// Whether OpenTofu's own constraints are missing: no `.tofu` file has a `required_version` and
/// no `language` block states one, so what shuts OpenTofu 1.6–1.11 out is a `.tf` file's
/// (the OpenTofu view merges only the `.tofu` files' `required_version`, as 1.12 reads them).
fn tf_constraint_only(dir: &Path, base: &Options) -> bool {
    let result = check_directory(dir, &options_for(base, View::OpenTofu, None));
    let Some(module) = result.modules.first() else {
        return false;
    };
    let language = (module.unmerged.iter()).any(|b| b.kind == "language");
    module.terraform.required_version.is_empty() && !language
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::releases::ranges_text;
    use crate::lint::RuleSettings;
    use crate::lint::testing::{Files, write_files};

    fn judge(files: Files) -> DirectoryCompat {
        let dir = write_files(files);
        let options = Options::new(
            ViewSelection::Both,
            RuleSettings::defaults(rules::registry()),
        );
        judge_directory(dir.path(), &options)
    }

    fn tool(found: &DirectoryCompat, view: View) -> &ToolCompat {
        let tool = found.tools.iter().find(|t| t.view == view);
        tool.expect("both tools are judged")
    }

    fn loading(found: &DirectoryCompat, view: View) -> String {
        let versions: Vec<Version> = tool(found, view).loading().cloned().collect();
        ranges_text(view, &versions)
    }

    const TEMPLATESTRING: &str = "terraform {\n  required_version = \">= 1.5\"\n}\n\
                                  locals {\n  t = templatestring(\"x\", {})\n}\n";

    #[test]
    fn a_construct_sets_the_real_minimum_and_the_constraint_is_too_loose() {
        let found = judge(&[("main.tf", TEMPLATESTRING)]);
        assert_eq!(loading(&found, View::Terraform), "1.9.0–1.15.9");
        let loose = tool(&found, View::Terraform).too_loose.clone();
        let loose = loose.expect("1.5–1.8 are admitted and refuse templatestring");
        assert_eq!(loose.honest, ">= 1.9.0");
        assert_eq!(loose.refusing.first(), Some(&Version::new(1, 5, 0)));
        assert_eq!(loose.refusing.last(), Some(&Version::new(1, 8, 5)));
    }

    #[test]
    fn patch_releases_and_constraints_that_admit_nothing() {
        let found = judge(&[(
            "v.tf",
            "terraform {\n  required_version = \">= 1.11.3\"\n}\n",
        )]);
        assert_eq!(loading(&found, View::Terraform), "1.11.3–1.15.9");
        let none = judge(&[(
            "v.tf",
            "terraform {\n  required_version = \">= 1.0, < 1.0\"\n}\n",
        )]);
        assert_eq!(loading(&none, View::Terraform), "");
        // OpenTofu 1.12 and later do not read a `.tf` file's constraint.
        assert_eq!(loading(&none, View::OpenTofu), "1.12.0–1.12.6");
    }

    /// `>= 1.13.1` is Terraform's number: OpenTofu 1.6–1.11 compare it with their own and
    /// refuse a module they would load.
    #[test]
    fn a_terraform_constraint_that_shuts_opentofu_out_is_too_tight() {
        let found = judge(&[(
            "v.tf",
            "terraform {\n  required_version = \">= 1.13.1\"\n}\n",
        )]);
        let tight = tool(&found, View::OpenTofu).too_tight.clone();
        let tight = tight.expect("OpenTofu 1.6–1.11 are shut out");
        assert_eq!(tight.opentofu_constraint, ">= 1.6.0");
        assert_eq!(tight.shut_out.first(), Some(&Version::new(1, 6, 0)));
        assert_eq!(tight.shut_out.last(), Some(&Version::new(1, 11, 14)));
        // With OpenTofu's own constraint in `versions.tofu`, nothing to say.
        let layout = judge(&[
            (
                "v.tf",
                "terraform {\n  required_version = \">= 1.13.1\"\n}\n",
            ),
            (
                "v.tofu",
                "terraform {\n  required_version = \">= 1.6\"\n}\n",
            ),
        ]);
        assert_eq!(tool(&layout, View::OpenTofu).too_tight, None);
        // OpenTofu 1.6–1.7 read no `.tofu` file: the `.tf` constraint shuts them out.
        assert_eq!(loading(&layout, View::OpenTofu), "1.8.0–1.12.6");
    }

    /// OpenTofu 1.6 and 1.7 read no `.tofu` file (opentofu/opentofu v1.8.0 added them): they
    /// check the `.tf` twin's constraint and load the `.tf` files' module.
    #[test]
    fn opentofu_before_1_8_reads_the_tf_files() {
        let twins = judge(&[
            ("main.tf", "resource \"terraform_data\" \"a\" {}\n"),
            (
                "versions.tf",
                "terraform {\n  required_version = \">= 1.6\"\n}\n",
            ),
            (
                "versions.tofu",
                "terraform {\n  required_version = \">= 1.8\"\n}\n",
            ),
        ]);
        assert_eq!(loading(&twins, View::OpenTofu), "1.6.0–1.12.6");
        // A construct of a `.tofu` file (`removed`, OpenTofu 1.7; its `lifecycle`, 1.10) keeps
        // only the releases that read the file from loading the module.
        let tofu_construct = judge(&[
            ("main.tf", "resource \"terraform_data\" \"a\" {}\n"),
            (
                "main.tofu",
                "resource \"terraform_data\" \"a\" {}\nremoved {\n  from = terraform_data.b\n  \
                 lifecycle {\n    destroy = false\n  }\n}\n",
            ),
        ]);
        assert_eq!(
            loading(&tofu_construct, View::OpenTofu),
            "1.6.0–1.7.10, 1.10.0–1.12.6"
        );
    }

    /// A child's `.tofu` twin hides its `.tf` constraint from OpenTofu 1.8 and later, not from
    /// 1.6 and 1.7.
    #[test]
    fn a_local_child_modules_tofu_twin() {
        let found = judge(&[
            ("main.tf", "module \"c\" {\n  source = \"./child\"\n}\n"),
            (
                "child/versions.tf",
                "terraform {\n  required_version = \">= 1.12.2\"\n}\n",
            ),
            (
                "child/versions.tofu",
                "terraform {\n  required_version = \">= 1.7.0\"\n}\n",
            ),
        ]);
        assert_eq!(loading(&found, View::OpenTofu), "1.8.0–1.12.6");
    }

    #[test]
    fn a_local_child_modules_constraints_count() {
        let found = judge(&[
            ("main.tf", "module \"c\" {\n  source = \"./child\"\n}\n"),
            (
                "child/main.tf",
                "terraform {\n  required_version = \">= 1.10\"\n}\n",
            ),
        ]);
        assert_eq!(loading(&found, View::Terraform), "1.10.0–1.15.9");
        // The child's `.tf` constraint shuts OpenTofu 1.6–1.9 out: advice for the child's
        // directory, not for the caller, which states no constraint.
        assert_eq!(loading(&found, View::OpenTofu), "1.10.0–1.12.6");
        assert_eq!(tool(&found, View::OpenTofu).too_tight, None);
        // The child's constructs count too: `templatestring` came in Terraform 1.9.
        let found = judge(&[
            ("main.tf", "module \"c\" {\n  source = \"./child\"\n}\n"),
            (
                "child/main.tf",
                "locals {\n  t = templatestring(\"x\", {})\n}\n",
            ),
        ]);
        assert_eq!(loading(&found, View::Terraform), "1.9.0–1.15.9");
    }

    #[test]
    fn lower_bounds_are_raised_and_upper_bounds_kept() {
        let v = Version::new(1, 9, 0);
        assert_eq!(version::with_lower_bound(">= 1.5", &v), ">= 1.9.0");
        assert_eq!(version::with_lower_bound("~> 1.5", &v), ">= 1.9.0, < 2.0.0");
        assert_eq!(
            version::with_lower_bound(">= 1.5, < 1.14, != 1.10.2", &v),
            ">= 1.9.0, < 1.14, != 1.10.2"
        );
    }
}
