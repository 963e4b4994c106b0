//! Pass/fail tables for rules, as oxc has them: each case is a set of files written to a temp
//! dir — a module directory, or for a Terragrunt rule a tree (`prod/app/terragrunt.hcl`) — and
//! checked with only the rule under test registered and enabled (even if off by default).

use std::path::{Path, PathBuf};

use crate::diagnostic::Diagnostic;
use crate::input::read::DEFAULT_MAX_FILE_BYTES;
use crate::knowledge::files::is_terragrunt_entry;

use super::directory::{Options, ViewSelection, check_directory};
use super::tree::check_tree;
use super::{Check, Registry, Rule, RuleSettings};

/// A case: file names (with directories, for Terragrunt trees) and their text.
pub(crate) type Files<'a> = &'a [(&'a str, &'a str)];

/// Settings in which `rule` is the only rule, and enabled.
pub(crate) fn settings_for(rule: &'static Rule) -> RuleSettings {
    // Each case gets a registry of its own; leaking it keeps the settings `'static` as in a run.
    let registry: &'static Registry = Box::leak(Box::new(Registry::new(&[rule])));
    let mut settings = RuleSettings::defaults(registry);
    settings
        .enable(rule.id().as_str())
        .expect("the rule is registered");
    settings
}

/// Writes `files` under a new temp dir.
pub(crate) fn write_files(files: Files) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, text).expect("write");
    }
    dir
}

/// Every finding of a module directory (load errors included) with `rule` enabled.
pub(crate) fn findings_in(rule: &'static Rule, dir: &Path) -> Vec<Diagnostic> {
    let options = Options::new(ViewSelection::Both, settings_for(rule));
    check_directory(dir, &options).diagnostics
}

/// Every finding of a Terragrunt tree (its `terragrunt.hcl` files are the units).
pub(crate) fn tree_findings_in(
    rule: &'static Rule,
    root: &Path,
    units: &[PathBuf],
) -> Vec<Diagnostic> {
    let given = [root.to_path_buf()];
    let overlay = crate::input::overlay::Overlay::default();
    check_tree(
        units,
        &given,
        &settings_for(rule),
        DEFAULT_MAX_FILE_BYTES,
        &overlay,
    )
    .diagnostics
}

/// Every finding on a case (load errors and the findings of other ids included).
pub(crate) fn all_findings(rule: &'static Rule, files: Files) -> Vec<Diagnostic> {
    let dir = write_files(files);
    match rule.check {
        Check::Terragrunt(_) => {
            let units: Vec<PathBuf> = files
                .iter()
                .map(|(name, _)| dir.path().join(name))
                .filter(|p| {
                    (p.file_name().and_then(|n| n.to_str())).is_some_and(is_terragrunt_entry)
                })
                .collect();
            tree_findings_in(rule, dir.path(), &units)
        }
        Check::View(..) | Check::Directory(_) => findings_in(rule, dir.path()),
    }
}

/// The findings of `rule` on a case.
pub(crate) fn findings(rule: &'static Rule, files: Files) -> Vec<Diagnostic> {
    all_findings(rule, files)
        .into_iter()
        .filter(|d| d.rule == rule.id())
        .collect()
}

/// The findings of `rule` on a case, with the targeted releases set as by
/// `terraform_version:`/`opentofu_version:`.
pub(crate) fn findings_targeting(
    rule: &'static Rule,
    files: Files,
    targets: super::directory::TargetVersions,
) -> Vec<Diagnostic> {
    let dir = write_files(files);
    let mut options = Options::new(ViewSelection::Both, settings_for(rule));
    options.target_versions = targets;
    check_directory(dir.path(), &options)
        .diagnostics
        .into_iter()
        .filter(|d| d.rule == rule.id())
        .collect()
}

/// The findings of `rule` on a case, with the OpenTofu releases `opentofu` (a constraint)
/// targeted and Terraform's derived from the module.
pub(crate) fn findings_targeting_opentofu(
    rule: &'static Rule,
    files: Files,
    opentofu: &str,
) -> Vec<Diagnostic> {
    let targets = super::directory::TargetVersions {
        terraform: None,
        opentofu: Some(opentofu.into()),
    };
    findings_targeting(rule, files, targets)
}

/// The findings of one id (a load error's, say) on a case, with the targeted releases set.
pub(crate) fn findings_targeting_id(
    id: crate::diagnostic::FindingId,
    files: Files,
    targets: super::directory::TargetVersions,
) -> Vec<Diagnostic> {
    let dir = write_files(files);
    // No rule registered: the loading stages' findings only.
    let registry: &'static Registry = Box::leak(Box::new(Registry::new(&[])));
    let mut options = Options::new(ViewSelection::Both, RuleSettings::defaults(registry));
    options.target_versions = targets;
    check_directory(dir.path(), &options)
        .diagnostics
        .into_iter()
        .filter(|d| d.rule == id)
        .collect()
}

/// Every `pass` case gives no finding of `rule`; every `fail` case exactly `count`, each with a
/// location.
pub(crate) fn check_table(rule: &'static Rule, pass: &[Files], fail: &[(Files, usize)]) {
    let id = rule.id();
    for (i, case) in pass.iter().enumerate() {
        let found = findings(rule, case);
        assert!(
            found.is_empty(),
            "{id}: pass case {i} gave {:#?}",
            messages(&found)
        );
    }
    for (i, (case, count)) in fail.iter().enumerate() {
        let found = findings(rule, case);
        assert_eq!(
            found.len(),
            *count,
            "{id}: fail case {i} gave {:#?}",
            messages(&found)
        );
        for d in &found {
            assert!(
                d.primary.is_some(),
                "{id}: fail case {i}: finding without a location"
            );
        }
    }
}

fn messages(found: &[Diagnostic]) -> Vec<String> {
    found
        .iter()
        .map(|d| format!("{} {:?}", d.message, d.start()))
        .collect()
}

/// Rules that stand in for real ones in the engine's own tests, so the engine is tested without
/// the rule list (ids need a doc, so real ids are borrowed).
pub(crate) mod stand_ins {
    use crate::diagnostic::Diagnostic;
    use crate::knowledge::View;
    use crate::lint::{Check, Context, Registry, Rule, RuleViews, declare_rule};
    use crate::source::{FileId, Span};

    fn nothing(_: &Context, _: &mut Vec<Diagnostic>) {}

    fn boom(_: &Context, _: &mut Vec<Diagnostic>) {
        panic!("boom");
    }

    fn one_finding(ctx: &Context, out: &mut Vec<Diagnostic>) {
        let span = Span::new(FileId(0), 0..1);
        out.push(
            ctx.finding(&OPENTOFU_ONLY, "found")
                .at(ctx.files, span, "here"),
        );
    }

    /// On by default, finds nothing.
    pub(crate) const ON_BY_DEFAULT: Rule = declare_rule! {
        id: "override_noop",
        severity: Warning,
        default: On,
        summary: "on by default",
        check: Check::View(RuleViews::Both, nothing),
    };

    /// Off by default, finds nothing.
    pub(crate) const OFF_BY_DEFAULT: Rule = declare_rule! {
        id: "override_undocumented",
        severity: Notice,
        default: Off,
        summary: "off by default",
        check: Check::View(RuleViews::Both, nothing),
    };

    /// Panics.
    pub(crate) const PANICS: Rule = declare_rule! {
        id: "override_shadowed",
        severity: Warning,
        default: On,
        summary: "panics",
        check: Check::View(RuleViews::Both, boom),
    };

    /// One finding at the start of the first file, in the OpenTofu view only.
    pub(crate) const OPENTOFU_ONLY: Rule = declare_rule! {
        id: "override_only_file",
        severity: Warning,
        default: On,
        summary: "one finding",
        check: Check::View(RuleViews::Only(View::OpenTofu), one_finding),
    };

    /// A registry of the stand-ins.
    pub(crate) fn registry() -> &'static Registry {
        static RULES: [&Rule; 4] = [&ON_BY_DEFAULT, &OFF_BY_DEFAULT, &PANICS, &OPENTOFU_ONLY];
        Box::leak(Box::new(Registry::new(&RULES)))
    }
}

// --- group A: override rules ---

/// Files that several override rules' tables use.
pub(crate) mod override_fixtures {
    /// An empty resource `terraform_data.a`.
    pub(crate) const EMPTY_A: &str = "resource \"terraform_data\" \"a\" {}\n";

    /// `terraform_data.a` with `input = 1`: the smallest override that changes something.
    pub(crate) const A_INPUT_1: &str = "resource \"terraform_data\" \"a\" {\n  input = 1\n}\n";

    /// A `terraform` block with Terraform's version constraint.
    pub(crate) const TF_VERSIONS: &str = "terraform {\n  required_version = \">= 1.6\"\n}\n";

    /// A `terraform` block with OpenTofu's version constraint.
    pub(crate) const TOFU_VERSIONS: &str = "terraform {\n  required_version = \">= 1.8\"\n}\n";

    /// One variable `x`.
    pub(crate) const VARIABLE_X: &str = "variable \"x\" {}\n";
}

// --- group B: backend, language, module and version rules ---

/// A `language` block selecting the one edition OpenTofu knows, as the language rules' tests
/// write it.
pub(crate) const TOFU_EDITION: &str = "language {\n  edition = tofu2024\n}\n";

/// A `language { compatible_with { opentofu = "<constraint>" } }` file, as a `&'static str` that
/// pass/fail tables (consts) can hold.
macro_rules! tofu_compatible_with {
    ($constraint:literal) => {
        concat!(
            "language {\n  compatible_with {\n    opentofu = \"",
            $constraint,
            "\"\n  }\n}\n"
        )
    };
}
pub(crate) use tofu_compatible_with;

/// A `terraform { required_version = "<constraint>" }` file, as a `&'static str` that pass/fail
/// tables (consts) can hold.
macro_rules! terraform_required_version {
    ($constraint:literal) => {
        concat!(
            "terraform {\n  required_version = \"",
            $constraint,
            "\"\n}\n"
        )
    };
}
pub(crate) use terraform_required_version;

/// `language { compatible_with { opentofu = ">= 1.12" } }`: OpenTofu's own constraint, starting
/// at the first version that reads the `language` block.
pub(crate) const TOFU_COMPATIBLE_1_12: &str = tofu_compatible_with!(">= 1.12");

// --- group C: Terragrunt ---

/// A unit's include of the root configuration, found from the unit's directory.
pub(crate) const INCLUDE_ROOT: &str =
    "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n";

/// An import of `env.hcl` one directory up.
pub(crate) const IMPORT_ENV: &str = "import \"env\" {\n  config_path = \"../env.hcl\"\n}\n";

/// A dependency on the unit `vpc` next to this one.
pub(crate) const DEPENDENCY_VPC: &str = "dependency \"vpc\" {\n  config_path = \"../vpc\"\n}\n";

/// Gruntwork's standard live layout, as `terragrunt-infrastructure-live-example` has it: a
/// `root.hcl` that reads the account, region and environment files of the unit, an
/// `_envcommon` file per component, and units that include both.
pub(crate) mod live_layout {
    /// The root configuration: reads the unit's settings up the tree, keys state by unit.
    pub(crate) const ROOT: &str = concat!(
        "locals {\n",
        "  account = read_terragrunt_config(find_in_parent_folders(\"account.hcl\"))\n",
        "  region  = read_terragrunt_config(find_in_parent_folders(\"region.hcl\"))\n",
        "}\n",
        "remote_state {\n",
        "  backend = \"s3\"\n",
        "  config = {\n",
        "    key = \"${path_relative_to_include()}/tf.tfstate\"\n",
        "  }\n",
        "}\n",
    );

    /// `_envcommon/app.hcl`: the component's common settings, reading the environment.
    pub(crate) const ENVCOMMON_APP: &str = concat!(
        "locals {\n",
        "  env = read_terragrunt_config(find_in_parent_folders(\"env.hcl\"))\n",
        "}\n",
        "dependency \"vpc\" {\n",
        "  config_path = \"${get_terragrunt_dir()}/../vpc\"\n",
        "}\n",
    );

    /// A unit including the root and its component's common file, found from the root.
    pub(crate) const UNIT_APP: &str = concat!(
        "include \"root\" {\n",
        "  path = find_in_parent_folders(\"root.hcl\")\n",
        "}\n",
        "include \"envcommon\" {\n",
        "  path   = \"${dirname(find_in_parent_folders(\"root.hcl\"))}/_envcommon/app.hcl\"\n",
        "  expose = true\n",
        "}\n",
    );

    /// The whole tree: one account, region and environment, units `vpc` and `app`.
    pub(crate) const TREE: &[(&str, &str)] = &[
        ("root.hcl", ROOT),
        ("_envcommon/app.hcl", ENVCOMMON_APP),
        ("prod/account.hcl", "locals {\n  account_id = \"1\"\n}\n"),
        (
            "prod/us-east-1/region.hcl",
            "locals {\n  region = \"us-east-1\"\n}\n",
        ),
        (
            "prod/us-east-1/prod/env.hcl",
            "locals {\n  env = \"prod\"\n}\n",
        ),
        (
            "prod/us-east-1/prod/vpc/terragrunt.hcl",
            "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n",
        ),
        ("prod/us-east-1/prod/app/terragrunt.hcl", UNIT_APP),
    ];

    /// [`UNIT_APP`] with a dependency on `vpc`, written as `terragrunt.hcl.json`.
    pub(crate) const UNIT_APP_JSON: &str = r#"{
  "include": {
    "root": {"path": "${find_in_parent_folders(\"root.hcl\")}"},
    "envcommon": {
      "path": "${dirname(find_in_parent_folders(\"root.hcl\"))}/_envcommon/app.hcl",
      "expose": true
    }
  },
  "dependency": {"vpc": {"config_path": "../vpc"}},
  "inputs": {"name": "app"}
}"#;

    /// A tree whose `app` unit is written as `terragrunt.hcl.json`, depending on `vpc`.
    pub(crate) const JSON_TREE: &[(&str, &str)] = &[
        ("root.hcl", ""),
        ("_envcommon/app.hcl", ""),
        ("prod/vpc/terragrunt.hcl.json", "{}"),
        ("prod/app/terragrunt.hcl.json", UNIT_APP_JSON),
    ];

    /// A parent with a placeholder dependency that every unit must override.
    pub(crate) const PLACEHOLDER_PARENT: &str = "dependency \"vpc\" {\n  config_path = \"\"\n}\n";

    /// A unit including the placeholder parent with `strategy` (`""` for the default), and
    /// setting the real dependency.
    macro_rules! overriding_unit {
        ($strategy:literal) => {
            concat!(
                "include \"root\" {\n",
                "  path = find_in_parent_folders(\"root.hcl\")\n",
                $strategy,
                "}\n",
                "dependency \"vpc\" {\n",
                "  config_path = \"../vpc\"\n",
                "}\n",
            )
        };
    }
    pub(crate) use overriding_unit;

    /// A Terragrunt Stacks unit template: its paths name the generated copy's neighbours and
    /// the values its stack passes in, so they resolve only after `terragrunt stack generate`.
    pub(crate) const STACK_UNIT_TEMPLATE: &str = concat!(
        "include \"root\" {\n",
        "  path = find_in_parent_folders(\"root.hcl\")\n",
        "}\n",
        "dependency \"vpc\" {\n",
        "  config_path = values.vpc_path\n",
        "}\n",
        "dependency \"db\" {\n",
        "  config_path = \"../db\"\n",
        "}\n",
    );

    /// A stack of two units, from the catalog.
    pub(crate) const STACK: &str = concat!(
        "unit \"app\" {\n",
        "  source = \"../catalog/units/app\"\n",
        "  path   = \"app\"\n",
        "  values = {\n    vpc_path = \"../vpc\"\n  }\n",
        "}\n",
    );
}
