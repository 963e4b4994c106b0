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
    settings_of(&[rule])
}

/// Settings in which `rules` are the only rules, and enabled: a load error's tests register the
/// load errors they look at, as the engine reports only what it is given.
pub(crate) fn settings_of(rules: &[&'static Rule]) -> RuleSettings {
    // Each case gets a registry of its own; leaking it keeps the settings `'static` as in a run.
    let registry: &'static Registry = Box::leak(Box::new(Registry::new(rules)));
    let mut settings = RuleSettings::defaults(registry);
    for rule in rules {
        settings
            .enable(rule.id().as_str())
            .expect("the rule is registered");
    }
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

/// Every finding of a module directory with `rule` enabled.
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

/// Every finding on a case with `rule` enabled (the findings of other ids included).
pub(crate) fn all_findings(rule: &'static Rule, files: Files) -> Vec<Diagnostic> {
    let dir = write_files(files);
    match rule
        .checks
        .iter()
        .any(|c| matches!(c, Check::Terragrunt(_)))
    {
        true => {
            let units: Vec<PathBuf> = files
                .iter()
                .map(|(name, _)| dir.path().join(name))
                .filter(|p| {
                    (p.file_name().and_then(|n| n.to_str())).is_some_and(is_terragrunt_entry)
                })
                .collect();
            tree_findings_in(rule, dir.path(), &units)
        }
        false => findings_in(rule, dir.path()),
    }
}

/// Every finding of a module directory case with `rules` registered and enabled.
pub(crate) fn all_findings_of(rules: &[&'static Rule], files: Files) -> Vec<Diagnostic> {
    let dir = write_files(files);
    let options = Options::new(ViewSelection::Both, settings_of(rules));
    check_directory(dir.path(), &options).diagnostics
}

/// The findings of `rule` on a case.
pub(crate) fn findings(rule: &'static Rule, files: Files) -> Vec<Diagnostic> {
    all_findings(rule, files)
        .into_iter()
        .filter(|d| d.rule == rule.id())
        .collect()
}

/// The findings of `rules` on a module directory case, with those rules registered.
pub(crate) fn findings_of(rules: &[&'static Rule], files: Files) -> Vec<Diagnostic> {
    let found = all_findings_of(rules, files).into_iter();
    found
        .filter(|d| rules.iter().any(|r| r.id() == d.rule))
        .collect()
}

/// The findings of `rule` on a case, with the targeted releases set as by
/// `terraform_version:`/`opentofu_version:`.
pub(crate) fn findings_targeting(
    rule: &'static Rule,
    files: Files,
    targets: super::directory::TargetVersions,
) -> Vec<Diagnostic> {
    findings_targeting_of(&[rule], files, targets)
}

/// The findings of `rules` on a case, with the targeted releases set.
pub(crate) fn findings_targeting_of(
    rules: &[&'static Rule],
    files: Files,
    targets: super::directory::TargetVersions,
) -> Vec<Diagnostic> {
    let dir = write_files(files);
    let mut options = Options::new(ViewSelection::Both, settings_of(rules));
    options.target_versions = targets;
    check_directory(dir.path(), &options)
        .diagnostics
        .into_iter()
        .filter(|d| rules.iter().any(|r| r.id() == d.rule))
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

/// The findings of `rule` on a case, with the Terraform releases `terraform` (a constraint)
/// targeted and OpenTofu's derived from the module.
pub(crate) fn findings_targeting_terraform(
    rule: &'static Rule,
    files: Files,
    terraform: &str,
) -> Vec<Diagnostic> {
    let targets = super::directory::TargetVersions {
        terraform: Some(terraform.into()),
        opentofu: None,
    };
    findings_targeting(rule, files, targets)
}

/// Where each of `found` starts: its file's name and (line, column), sorted.
pub(crate) fn places<'a>(
    found: impl IntoIterator<Item = &'a Diagnostic>,
) -> Vec<(String, (usize, usize))> {
    let mut places: Vec<_> = found
        .into_iter()
        .filter_map(|d| d.primary.as_ref())
        .map(|l| (l.file.file_name().to_string(), l.start()))
        .collect();
    places.sort_unstable();
    places
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

/// (message, first note, views) of each finding: what the tests of load errors compare, as the
/// tools' summary and detail per view.
pub(crate) fn described(found: Vec<Diagnostic>) -> Vec<(String, String, String)> {
    let describe = |d: Diagnostic| {
        let note = d.notes.first().map(|n| n.to_string()).unwrap_or_default();
        (d.message.into_owned(), note, format!("{:?}", d.views))
    };
    found.into_iter().map(describe).collect()
}

/// The one item of `found`.
pub(crate) fn only<T: std::fmt::Debug>(found: Vec<T>) -> T {
    assert_eq!(found.len(), 1, "{found:#?}");
    found.into_iter().next().expect("one")
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
    use crate::lint::helpers::legacy_module::legacy_calls;
    use crate::lint::{
        Check, Context, MergeContext, ReadContext, Registry, Rule, RuleViews, declare_rule,
    };
    use crate::source::{FileId, Span, display_path};

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

    /// A load error that finds nothing.
    pub(crate) const LOAD_ERROR: Rule = declare_rule! {
        id: "duplicate_definition",
        kind: LoadError,
        summary: "a load error",
        check: Check::View(RuleViews::Both, nothing),
    };

    /// What `validate` refuses, finding nothing.
    pub(crate) const VALIDATE: Rule = declare_rule! {
        id: "unknown_function",
        kind: Validate,
        summary: "validate refuses this",
        check: Check::View(RuleViews::Both, nothing),
    };

    /// A registry of the stand-ins.
    pub(crate) fn registry() -> &'static Registry {
        static RULES: [&Rule; 6] = [
            &ON_BY_DEFAULT,
            &OFF_BY_DEFAULT,
            &PANICS,
            &OPENTOFU_ONLY,
            &LOAD_ERROR,
            &VALIDATE,
        ];
        Box::leak(Box::new(Registry::new(&RULES)))
    }

    fn each_merge_problem(ctx: &MergeContext, out: &mut Vec<Diagnostic>) {
        for problem in ctx.problems {
            let message = format!("{problem:?}");
            out.push(
                ctx.finding(&MERGE_PROBLEMS, message)
                    .at_path(display_path(ctx.dir)),
            );
        }
    }

    fn each_legacy_call(ctx: &Context, out: &mut Vec<Diagnostic>) {
        for call in legacy_calls(ctx) {
            let Some(span) = call.always.map(|(_, span)| span).or(call.enabled) else {
                continue;
            };
            let finding = ctx.finding(&LEGACY_CALLS, call.name.to_string());
            out.push(finding.at(ctx.files, span, "a call to a legacy module"));
        }
    }

    /// Every load error the merge of a view finds, named by the problem, at the directory.
    pub(crate) const MERGE_PROBLEMS: Rule = declare_rule! {
        id: "override_without_base",
        kind: LoadError,
        summary: "every merge problem",
        check: Check::Merge(each_merge_problem),
    };

    /// Every call to a local module that configures a provider, with a meta-argument: what the
    /// module calls read of their neighbours.
    pub(crate) const LEGACY_CALLS: Rule = declare_rule! {
        id: "legacy_module_meta_argument",
        kind: LoadError,
        summary: "every call to a legacy module",
        check: Check::View(RuleViews::Both, each_legacy_call),
    };

    fn each_read_problem(ctx: &ReadContext, out: &mut Vec<Diagnostic>) {
        let problem = format!("{:?}", ctx.problem);
        let kind = problem.split([' ', '{']).next().unwrap_or_default();
        let path = ctx.problem.shown(ctx.files);
        out.push(ctx.finding(&READ_PROBLEMS, kind.to_string()).at_path(path));
    }

    /// Every problem reading a file or walking a directory, named by its kind (`Syntax`,
    /// `TooLarge`...), at its path.
    pub(crate) const READ_PROBLEMS: Rule = declare_rule! {
        id: "syntax_error",
        kind: LoadError,
        summary: "every read problem",
        check: Check::Read(each_read_problem),
    };

    /// A registry of stand-ins for the loading stages' findings, for the tests of a whole run.
    pub(crate) fn loading() -> &'static Registry {
        static RULES: [&Rule; 3] = [&MERGE_PROBLEMS, &LEGACY_CALLS, &READ_PROBLEMS];
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
