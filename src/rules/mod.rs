//! The rule engine and the catalogue of every finding id.
//!
//! Three kinds of ids:
//! - load errors, reported by the loading stages (reading, parsing, merging): what makes
//!   Terraform or OpenTofu refuse the module. Always on, always errors, not ignorable.
//! - rules, one file each under `src/rules/` (metadata, check, pass/fail tests), run over the
//!   effective module of each view; the `terragrunt_*` rules run once over the Terragrunt tree
//!   ([`crate::terragrunt`]).
//! - engine findings: `unused_ignore` (an inline ignore that silenced nothing) and
//!   `internal_error` (a rule panicked).
//!
//! Every id has a user doc at `rules/<id>.md`, embedded in the binary for `explain`.

mod backend_removed;
mod backend_unknown;
mod engine;
mod language_block_duplicate;
mod language_block_in_tf_file;
mod language_block_nested;
mod language_compatible_with_duplicate;
mod language_edition_unsupported;
mod language_experiments_unknown;
mod language_settings_not_constant;
mod module_count_and_for_each;
mod module_local_source_missing;
mod module_reserved_block;
mod module_source_invalid;
mod module_source_not_static;
mod override_clobbers_nested_blocks;
mod override_count_for_each_conflict;
mod override_ignored_setting;
mod override_misspelled_argument;
mod override_noop;
mod override_only_file;
mod override_replaces_provisioners;
mod override_shadowed;
mod override_undocumented;
mod required_version_conflict;
mod required_version_ignored;
mod required_version_terraform_only;
mod terraform_language_ignored;
mod terragrunt_config_path_missing;
mod terragrunt_dependency_cycle;
mod terragrunt_deprecated_include_functions;
mod terragrunt_import_cycle;
mod terragrunt_include_and_import;
mod terragrunt_merge_conflict;
mod terragrunt_unresolvable_path;
mod tofu_shadows_tf;
mod version_constraint_ineffective;
mod version_constraint_invalid;
mod views_diverge;
pub use engine::{ignore, settings};

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use crate::diagnostic::{Diagnostic, Severity};
use crate::load::View;
use crate::merge::{LoadedFile, Module};
use crate::source::SourceFiles;

pub use settings::RuleSettings;

/// What kind of finding an id stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A load error of Terraform/OpenTofu: always on, always an error, never ignored.
    LoadError,
    /// A rule over the effective module.
    Rule,
    /// Reported by the engine itself.
    Engine,
}

/// What users can know about a finding id without running anything.
#[derive(Debug, Clone, Copy)]
pub struct RuleMeta {
    pub id: &'static str,
    pub kind: Kind,
    /// The default severity.
    pub severity: Severity,
    pub enabled_by_default: bool,
    pub summary: &'static str,
    /// The user doc (Markdown).
    pub doc: &'static str,
}

/// Which views a rule looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleViews {
    Both,
    Only(View),
}

/// One option a rule accepts in the config file (`rules: { id: { name: value } }`).
#[derive(Debug, Clone, Copy)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    pub help: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// A number from 0 to 1.
    Fraction,
    Integer,
    Bool,
}

/// A rule: its metadata, the options it takes and its check.
pub struct Rule {
    pub meta: RuleMeta,
    pub views: RuleViews,
    pub options: &'static [OptionSpec],
    pub check: Check,
}

/// What a rule looks at.
#[derive(Clone, Copy)]
pub enum Check {
    /// One view of a directory at a time.
    View(fn(&Context, &mut Vec<Diagnostic>)),
    /// Both views of a directory at once (only when both were built): rules that compare them.
    Directory(fn(&DirectoryContext, &mut Vec<Diagnostic>)),
    /// A Terragrunt tree (`terragrunt.hcl` units and the files they reference), once per run.
    Terragrunt(fn(&crate::terragrunt::Context, &mut Vec<Diagnostic>)),
}

/// What a directory rule sees: every view that was built.
pub struct DirectoryContext<'a> {
    pub dir: &'a Path,
    pub files: &'a SourceFiles,
    pub views: &'a [Context<'a>],
    /// OpenTofu only: (`.tf` file hidden, `.tofu` file hiding it), both parsed.
    pub shadowed: &'a [(crate::source::FileId, crate::source::FileId)],
    /// Load errors (and file problems) that only one view has.
    pub one_view_errors: &'a [Diagnostic],
    pub settings: &'a RuleSettings,
}

impl DirectoryContext<'_> {
    pub fn view(&self, view: View) -> Option<&Context<'_>> {
        self.views.iter().find(|c| c.view == view)
    }

    pub fn finding(&self, rule: &Rule, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(rule.meta.id, rule.meta.severity, message)
    }
}

/// What a rule sees: one view of one module directory.
pub struct Context<'a> {
    pub view: View,
    pub dir: &'a Path,
    pub module: &'a Module,
    pub files: &'a SourceFiles,
    /// The files this view loads, primaries then overrides, in load order.
    pub primary: &'a [LoadedFile<'a>],
    pub overrides: &'a [LoadedFile<'a>],
    pub settings: &'a RuleSettings,
}

impl Context<'_> {
    /// A finding of `rule`, with its default severity (the engine applies the configured one).
    pub fn finding(&self, rule: &Rule, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(rule.meta.id, rule.meta.severity, message)
    }

    /// A numeric option of a rule, or `default`.
    pub fn number_option(&self, rule: &Rule, name: &str, default: f64) -> f64 {
        self.settings
            .number_option(rule.meta.id, name)
            .unwrap_or(default)
    }
}

macro_rules! load_error {
    ($id:literal, $summary:literal) => {
        RuleMeta {
            id: $id,
            kind: Kind::LoadError,
            severity: Severity::Error,
            enabled_by_default: true,
            summary: $summary,
            doc: include_str!(concat!("../../rules/", $id, ".md")),
        }
    };
}

/// Findings of the loading stages, in alphabetical order.
pub const LOAD_ERRORS: &[RuleMeta] = &[
    load_error!("backend_duplicate", "a second backend or cloud block"),
    load_error!(
        "backend_and_cloud",
        "a module has both a backend and a cloud block"
    ),
    load_error!(
        "count_and_for_each",
        "one block sets both count and for_each"
    ),
    load_error!(
        "duplicate_definition",
        "an object or argument is defined twice in the primary files"
    ),
    load_error!("io_error", "a file or directory could not be read"),
    load_error!(
        "language_block_in_override",
        "a language block in an override file (OpenTofu)"
    ),
    load_error!("missing_required_argument", "an output without value"),
    load_error!("module_source_missing", "a module call without source"),
    load_error!(
        "module_version_without_registry_source",
        "a module call with a non-registry source sets version"
    ),
    load_error!("override_depends_on", "depends_on in an override file"),
    load_error!(
        "override_not_allowed",
        "a block that override files may not contain"
    ),
    load_error!(
        "override_variable_default_invalid",
        "an override made a variable's default invalid for its type"
    ),
    load_error!(
        "override_without_base",
        "an override block with nothing to merge into"
    ),
    load_error!(
        "read_error",
        "a file that is not valid configuration text (not UTF-8, too large, a directory)"
    ),
    load_error!(
        "required_providers_top_level",
        "a required_providers block outside a terraform block"
    ),
    load_error!("syntax_error", "a file that does not parse"),
    load_error!(
        "variable_default_invalid",
        "a variable's default does not convert to its type"
    ),
];

/// Every rule, in alphabetical order.
pub static RULES: &[&Rule] = &[
    &backend_removed::RULE,
    &backend_unknown::RULE,
    &language_block_duplicate::RULE,
    &language_block_in_tf_file::RULE,
    &language_block_nested::RULE,
    &language_compatible_with_duplicate::RULE,
    &language_edition_unsupported::RULE,
    &language_experiments_unknown::RULE,
    &language_settings_not_constant::RULE,
    &module_count_and_for_each::RULE,
    &module_local_source_missing::RULE,
    &module_reserved_block::RULE,
    &module_source_invalid::RULE,
    &module_source_not_static::RULE,
    &override_clobbers_nested_blocks::RULE,
    &override_count_for_each_conflict::RULE,
    &override_ignored_setting::RULE,
    &override_misspelled_argument::RULE,
    &override_noop::RULE,
    &override_only_file::RULE,
    &override_replaces_provisioners::RULE,
    &override_shadowed::RULE,
    &override_undocumented::RULE,
    &required_version_conflict::RULE,
    &required_version_ignored::RULE,
    &required_version_terraform_only::RULE,
    &terraform_language_ignored::RULE,
    &terragrunt_config_path_missing::RULE,
    &terragrunt_dependency_cycle::RULE,
    &terragrunt_deprecated_include_functions::RULE,
    &terragrunt_import_cycle::RULE,
    &terragrunt_include_and_import::RULE,
    &terragrunt_merge_conflict::RULE,
    &terragrunt_unresolvable_path::RULE,
    &tofu_shadows_tf::RULE,
    &version_constraint_ineffective::RULE,
    &version_constraint_invalid::RULE,
    &views_diverge::RULE,
];

pub const UNUSED_IGNORE: RuleMeta = RuleMeta {
    id: "unused_ignore",
    kind: Kind::Engine,
    severity: Severity::Warning,
    enabled_by_default: true,
    summary: "an inline ignore comment that silences nothing",
    doc: include_str!("../../rules/unused_ignore.md"),
};

pub const INTERNAL_ERROR: RuleMeta = RuleMeta {
    id: "internal_error",
    kind: Kind::Engine,
    severity: Severity::Error,
    enabled_by_default: true,
    summary: "a rule crashed; its findings for that directory are missing",
    doc: include_str!("../../rules/internal_error.md"),
};

/// Every finding id: load errors, rules, engine findings, sorted by id.
pub fn catalogue() -> Vec<&'static RuleMeta> {
    let mut all: Vec<&'static RuleMeta> = LOAD_ERRORS
        .iter()
        .chain(RULES.iter().map(|r| &r.meta))
        .chain([&UNUSED_IGNORE, &INTERNAL_ERROR])
        .collect();
    all.sort_by_key(|m| m.id);
    all
}

/// Looks up any finding id.
pub fn find(id: &str) -> Option<&'static RuleMeta> {
    catalogue().into_iter().find(|r| r.id == id)
}

/// Looks up a rule (not a load error or engine finding).
pub fn find_rule(id: &str) -> Option<&'static Rule> {
    RULES.iter().copied().find(|r| r.meta.id == id)
}

/// Runs the enabled rules on every view of a directory, and the directory rules once when both
/// views were built.
pub fn run_all(directory: &DirectoryContext, rules: &[&Rule]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for ctx in directory.views {
        out.extend(run(ctx, rules));
    }
    if directory.views.len() < 2 {
        return out;
    }
    for rule in rules {
        let Check::Directory(check) = rule.check else {
            continue;
        };
        if !directory.settings.is_enabled(rule.meta.id) {
            continue;
        }
        let mut found = Vec::new();
        match catch_unwind(AssertUnwindSafe(|| check(directory, &mut found))) {
            Ok(()) => {
                let severity = directory.settings.severity(&rule.meta);
                out.extend(found.into_iter().map(|mut d| {
                    d.severity = severity;
                    d
                }));
            }
            Err(panic) => out.push(internal_error(rule, directory.dir, panic, None)),
        }
    }
    out
}

/// Runs the enabled per-view rules on one view. A rule that panics is reported as
/// `internal_error` and the others still run. Findings get the configured severity and the view.
pub fn run(ctx: &Context, rules: &[&Rule]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for rule in rules {
        let Check::View(check) = rule.check else {
            continue;
        };
        if !ctx.settings.is_enabled(rule.meta.id) {
            continue;
        }
        if let RuleViews::Only(view) = rule.views
            && view != ctx.view
        {
            continue;
        }
        let mut found = Vec::new();
        let outcome = catch_unwind(AssertUnwindSafe(|| check(ctx, &mut found)));
        match outcome {
            Ok(()) => {
                let severity = ctx.settings.severity(&rule.meta);
                out.extend(found.into_iter().map(|mut d| {
                    d.severity = severity;
                    d.views = ctx.view.views();
                    d
                }));
            }
            Err(panic) => out.push(internal_error(rule, ctx.dir, panic, Some(ctx.view))),
        }
    }
    out
}

pub(crate) fn internal_error(
    rule: &Rule,
    dir: &Path,
    panic: Box<dyn std::any::Any + Send>,
    view: Option<View>,
) -> Diagnostic {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into());
    let where_ = view.map_or(String::new(), |v| format!(" ({} view)", v.tool_name()));
    Diagnostic::new(
        INTERNAL_ERROR.id,
        Severity::Error,
        format!("internal error in rule `{}`: {what}", rule.meta.id),
    )
    .at_path(crate::source::display_path(dir))
    .with_note(format!(
        "The rule crashed on this directory{where_}, so its findings here are missing; the other rules and directories were checked. Please report this as a bug."
    ))
    .in_views(view.map_or(crate::diagnostic::Views::NONE, View::views))
}

/// How users name what an event address points at: ``resource `aws_instance.web` ``.
pub fn describe(address: &str) -> String {
    let parts: Vec<&str> = address.splitn(3, '.').collect();
    match parts.as_slice() {
        ["resource", ty, name] => format!("resource `{ty}.{name}`"),
        ["data", ty, name] => format!("data source `{ty}.{name}`"),
        ["ephemeral", ty, name] => format!("ephemeral resource `{ty}.{name}`"),
        ["variable", name] => format!("variable `{name}`"),
        ["output", name] => format!("output `{name}`"),
        ["module", name] => format!("module call `{name}`"),
        ["local", name] => format!("local value `{name}`"),
        ["provider", rest @ ..] => format!("provider `{}`", rest.join(".")),
        ["terraform"] => "the `terraform` block".to_string(),
        _ => format!("`{address}`"),
    }
}

/// The merged object an event address names.
pub fn object<'m>(module: &'m Module, address: &str) -> Option<&'m crate::merge::MergedObject> {
    module
        .objects
        .iter()
        .find(|o| o.address.to_string() == address)
}

/// The candidate closest to `name` by edit distance, if it is close enough to be a typo.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).clamp(1, 3);
    candidates
        .into_iter()
        .map(|c| (edit_distance(name, c), c))
        .filter(|&(d, _)| d <= limit)
        .min()
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(previous + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
pub(crate) mod testing {
    //! Pass/fail tables for rules: each case is a module directory written to a temp dir.

    use std::sync::Arc;

    use crate::diagnostic::Diagnostic;
    use crate::pipeline::{Options, ViewSelection, check_directory_with};

    use super::RuleSettings;

    pub type Files<'a> = &'a [(&'a str, &'a str)];

    /// The findings of one rule (enabled even if off by default) on a module directory.
    pub fn findings(rule: &str, files: Files) -> Vec<Diagnostic> {
        let dir = tempfile::tempdir().expect("tempdir");
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).expect("write");
        }
        let mut settings = RuleSettings::defaults();
        settings.enable(rule).expect("known rule");
        let mut options = Options::new(ViewSelection::Both);
        options.settings = Arc::new(settings);
        check_directory_with(dir.path(), &options)
            .diagnostics
            .into_iter()
            .filter(|d| d.rule == rule)
            .collect()
    }

    /// Every `pass` case gives no finding of `rule`; every `fail` case exactly `count`.
    pub fn check_table(rule: &str, pass: &[Files], fail: &[(Files, usize)]) {
        check_table_with(rule, pass, fail, findings);
    }

    /// [`check_table`] with another way to get a case's findings (a module directory, a
    /// Terragrunt tree...).
    pub fn check_table_with(
        rule: &str,
        pass: &[Files],
        fail: &[(Files, usize)],
        findings: impl Fn(&str, Files) -> Vec<Diagnostic>,
    ) {
        for (i, case) in pass.iter().enumerate() {
            let found = findings(rule, case);
            assert!(
                found.is_empty(),
                "{rule}: pass case {i} gave {:#?}",
                messages(&found)
            );
        }
        for (i, (case, count)) in fail.iter().enumerate() {
            let found = findings(rule, case);
            assert_eq!(
                found.len(),
                *count,
                "{rule}: fail case {i} gave {:#?}",
                messages(&found)
            );
            for d in &found {
                assert!(
                    d.primary.is_some(),
                    "{rule}: fail case {i}: finding without a location"
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{FileId, Span};

    fn boom(_: &Context, _: &mut Vec<Diagnostic>) {
        panic!("boom");
    }

    fn one_finding(ctx: &Context, out: &mut Vec<Diagnostic>) {
        out.push(
            ctx.finding(&CALM, "found")
                .at(ctx.files, Span::new(FileId(0), 0..1), "here"),
        );
    }

    static PANICKY: Rule = Rule {
        meta: RuleMeta {
            id: "override_noop",
            ..UNUSED_IGNORE
        },
        views: RuleViews::Both,
        options: &[],
        check: Check::View(boom),
    };

    static CALM: Rule = Rule {
        meta: RuleMeta {
            id: "override_shadowed",
            severity: Severity::Warning,
            ..UNUSED_IGNORE
        },
        views: RuleViews::Only(View::OpenTofu),
        options: &[],
        check: Check::View(one_finding),
    };

    #[test]
    fn a_panicking_rule_is_reported_and_the_others_still_run() {
        let mut files = SourceFiles::default();
        files.add(crate::source::SourceFile::new(
            "m/main.tf".into(),
            "x = 1\n".into(),
        ));
        let module = Module::new(View::OpenTofu);
        let mut settings = RuleSettings::defaults();
        settings
            .set_level("override_shadowed", settings::Level::On(Severity::Notice))
            .expect("valid");
        let ctx = Context {
            view: View::OpenTofu,
            dir: Path::new("m"),
            module: &module,
            files: &files,
            primary: &[],
            overrides: &[],
            settings: &settings,
        };
        let found = run(&ctx, &[&PANICKY, &CALM]);
        assert_eq!(found.len(), 2, "{found:#?}");
        assert_eq!(found[0].rule, "internal_error");
        assert_eq!(
            found[0].message,
            "internal error in rule `override_noop`: boom"
        );
        assert_eq!(found[0].path, "m");
        assert_eq!(found[1].rule, "override_shadowed");
        assert_eq!(
            found[1].severity,
            Severity::Notice,
            "configured severity applies"
        );
        // A rule for one view does not run on the other.
        let tf_ctx = Context {
            view: View::Terraform,
            ..ctx
        };
        assert_eq!(run(&tf_ctx, &[&CALM]).len(), 0);
    }

    #[test]
    fn close_names() {
        assert_eq!(
            closest("defualt", ["default", "description"]),
            Some("default")
        );
        assert_eq!(closest("zzz", ["default"]), None);
    }
}

/// Every top-level block of the files a view loads, with its file.
pub fn top_level_blocks<'a>(
    ctx: &'a Context<'a>,
) -> impl Iterator<Item = (&'a LoadedFile<'a>, &'a crate::syntax::Block)> + 'a {
    ctx.primary
        .iter()
        .chain(ctx.overrides.iter())
        .flat_map(|f| f.file.body.blocks.iter().map(move |b| (f, b)))
}

/// A rule's file-level metadata, written once: `rule!(id, severity, on, summary)`.
macro_rules! rule_meta {
    ($id:literal, $severity:ident, $on:expr, $summary:literal) => {
        crate::rules::RuleMeta {
            id: $id,
            kind: crate::rules::Kind::Rule,
            severity: crate::diagnostic::Severity::$severity,
            enabled_by_default: $on,
            summary: $summary,
            doc: include_str!(concat!("../../rules/", $id, ".md")),
        }
    };
}
pub(crate) use rule_meta;

/// The top-level `language` blocks of a view's primary files, with their files.
pub fn language_blocks<'a>(
    ctx: &'a Context<'a>,
) -> impl Iterator<Item = (&'a LoadedFile<'a>, &'a crate::syntax::Block)> + 'a {
    ctx.primary
        .iter()
        .flat_map(|f| f.file.body.blocks_of("language").map(move |b| (f, b)))
}

/// A constraint string's parsed constraints, or the error located in the file: the exact bad
/// part when the string is written without escapes, else the whole string.
pub fn parse_constraints(
    files: &SourceFiles,
    expr: &crate::syntax::Expr,
) -> Option<Result<Vec<crate::version::Constraint>, (crate::source::Span, String)>> {
    let text = expr.literal_string()?;
    Some(
        crate::version::parse(text)
            .map_err(|error| (constraint_span(files, expr, error.range), error.message)),
    )
}

/// The span of a byte range of a constraint string's value: exact when the string is written
/// without escapes, else the whole string.
pub fn constraint_span(
    files: &SourceFiles,
    expr: &crate::syntax::Expr,
    range: std::ops::Range<usize>,
) -> crate::source::Span {
    let text = expr.literal_string().unwrap_or("");
    let written = files.text(expr.span);
    if written.len() == text.len() + 2 && &written[1..written.len() - 1] == text {
        let start = expr.span.start as usize + 1;
        crate::source::Span::new(expr.span.file, start + range.start..start + range.end)
    } else {
        expr.span
    }
}

/// Every block (at any depth) of the view's files whose header is one of `headers`. Blocks of
/// one JSON array share a header, so all of them are returned.
pub fn blocks_with_headers<'a>(
    ctx: &'a Context<'a>,
    headers: &[crate::source::Span],
) -> Vec<&'a crate::syntax::Block> {
    fn walk<'b>(
        blocks: &'b [crate::syntax::Block],
        headers: &[crate::source::Span],
        out: &mut Vec<&'b crate::syntax::Block>,
    ) {
        for block in blocks {
            if headers.contains(&block.header_span) {
                out.push(block);
            }
            walk(&block.body.blocks, headers, out);
        }
    }
    let mut out = Vec::new();
    for file in ctx.primary.iter().chain(ctx.overrides.iter()) {
        if headers.iter().any(|h| h.file == file.file.id) {
            walk(&file.file.body.blocks, headers, &mut out);
        }
    }
    out
}

/// Whether two blocks say the same: type, labels, the same arguments with the same values, and
/// the same nested blocks in the same order.
pub fn same_block(a: &crate::syntax::Block, b: &crate::syntax::Block, files: &SourceFiles) -> bool {
    let labels =
        |x: &crate::syntax::Block| x.labels.iter().map(|l| l.value.clone()).collect::<Vec<_>>();
    a.kind == b.kind
        && labels(a) == labels(b)
        && a.body.attributes.len() == b.body.attributes.len()
        && a.body.attributes.iter().all(|x| {
            b.body
                .attribute(&x.name)
                .is_some_and(|y| x.expr.same_as(&y.expr, files))
        })
        && a.body.blocks.len() == b.body.blocks.len()
        && a.body
            .blocks
            .iter()
            .zip(&b.body.blocks)
            .all(|(x, y)| same_block(x, y, files))
}

/// Whether every dropped base block is restated, unchanged, among the override's blocks.
pub fn all_restated(
    ctx: &Context,
    dropped: &[crate::source::Span],
    by: &[crate::source::Span],
) -> bool {
    let base = blocks_with_headers(ctx, dropped);
    let over = blocks_with_headers(ctx, by);
    !base.is_empty()
        && base
            .iter()
            .all(|d| over.iter().any(|o| same_block(d, o, ctx.files)))
}

/// The top-level `module` blocks of the files a view loads.
pub fn module_calls<'a>(
    ctx: &'a Context<'a>,
) -> impl Iterator<Item = &'a crate::syntax::Block> + 'a {
    top_level_blocks(ctx)
        .map(|(_, b)| b)
        .filter(|b| b.kind == "module")
}

/// A module block's `source` attribute and its literal value, when it has one.
pub fn literal_source(block: &crate::syntax::Block) -> Option<(&crate::syntax::Attribute, &str)> {
    let attr = block.body.attribute("source")?;
    Some((attr, attr.expr.literal_string()?))
}

/// The effective backend block and its type.
pub fn backend_type<'a>(ctx: &'a Context<'a>) -> Option<(&'a crate::merge::MergedBlock, &'a str)> {
    let backend = ctx.module.terraform.backend.as_ref()?;
    Some((backend, backend.label(0)?))
}
