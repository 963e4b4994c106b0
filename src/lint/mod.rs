//! The lint engine: what a rule is, what it sees, and the one loop that runs rules.
//!
//! - [`Rule`] and [`declare_rule!`]: a finding id's metadata and check, written once in its file
//!   (rules, load errors and the engine's findings alike).
//! - [`registry`]: every finding id it is given, looked up by name.
//! - [`context`]: what a rule sees (one view, a whole directory, a Terragrunt tree, and the
//!   events of the stages before: the merge's load errors, read problems, unused ignores,
//!   crashes).
//! - [`run`]: runs one rule with panic isolation, severity from the settings, views set.
//! - [`directory`] and [`tree`]: the per-directory pipeline (read → parse → views → merge →
//!   rules → ignores) and the Terragrunt tree check; [`check`] runs them all in parallel, a
//!   panic in one directory's pipeline becoming `internal_error` for that directory only.
//! - [`settings`] and [`ignore`]: configuration and inline ignore comments.
//! - [`neighbours`]: the local modules that module calls name, read for the rules of their
//!   callers, their files' summaries shared by the checks of a run.
//! - [`helpers`]: queries over contexts, and larger pieces of logic, shared by several rules.
//!
//! The engine does not know the list of rules: it is given a [`Registry`] (the rule list lives
//! in `crate::rules`), so rules depend on the engine and never the other way round. What the
//! engine and the stages before it find themselves (a file that does not parse, a load error
//! of the merge, an unused ignore, a crash) they report as events, which the rule of each id
//! words through the same loop.

pub(crate) mod check;
pub(crate) mod context;
pub(crate) mod directory;
pub(crate) mod fix_guard;
pub(crate) mod fix_layout;
pub(crate) mod fix_proof;
pub(crate) mod helpers;
pub(crate) mod ignore;
pub(crate) mod neighbours;
pub(crate) mod registry;
pub(crate) mod run;
pub(crate) mod settings;
pub(crate) mod sharded;
pub(crate) mod targets;
#[cfg(test)]
pub(crate) mod testing;
pub(crate) mod tree;
pub(crate) mod unit_modules;

use crate::diagnostic::{Diagnostic, FindingId, Severity};
use crate::knowledge::View;

pub(crate) use context::{
    Context, CrashContext, DirectoryContext, IgnoreContext, MergeContext, ReadContext, TreeContext,
};
pub(crate) use registry::Registry;
pub(crate) use settings::RuleSettings;

/// What kind of finding an id stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A load error of Terraform/OpenTofu: always on, always an error, never ignored.
    LoadError,
    /// What `terraform validate` / `tofu validate` refuse once the module has loaded: an error
    /// by default, but configurable and ignorable inline (with a reason), since the tools decide
    /// some of it only while evaluating, where a static reading can be wrong.
    Validate,
    /// A rule.
    Rule,
    /// Reported by the engine itself (`unused_ignore`, `internal_error`).
    Engine,
}

impl Kind {
    /// How `tflint-merge rules` names the kind.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::LoadError => "load error",
            Kind::Validate => "validate",
            Kind::Rule => "rule",
            Kind::Engine => "engine",
        }
    }

    /// Whether an inline ignore comment silences its findings: a rule's, and what `validate`
    /// refuses (where a static reading can be wrong); never a load error's.
    pub fn ignorable_inline(self) -> bool {
        matches!(self, Kind::Rule | Kind::Validate)
    }
}

/// What users can know about a finding id without running anything.
#[derive(Debug, Clone, Copy)]
pub struct RuleMeta {
    pub id: FindingId,
    pub kind: Kind,
    /// The default severity.
    pub severity: Severity,
    pub enabled_by_default: bool,
    /// One line, lower case, no full stop: "an override that changes nothing".
    pub summary: &'static str,
    /// The fixes its findings carry.
    pub fixes: Fixes,
    /// Whether users may set its level at all: `internal_error` may not (a crash must never go
    /// unsaid). A load error may be set to `error` only: the tools refuse the module.
    pub(crate) configurable: bool,
}

/// Which fixes the findings of an id may carry (`tflint-merge rules` shows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fixes {
    None,
    /// Safe fixes only: `--fix` applies them.
    Safe,
    /// Unsafe fixes only: `--unsafe-fixes` applies them.
    Unsafe,
    /// A safe fix in some cases, an unsafe one in others.
    SafeOrUnsafe,
}

impl Fixes {
    /// How `tflint-merge rules` names it: `safe`, `unsafe`, `safe/unsafe` or `-`.
    pub fn as_str(self) -> &'static str {
        match self {
            Fixes::None => "-",
            Fixes::Safe => "safe",
            Fixes::Unsafe => "unsafe",
            Fixes::SafeOrUnsafe => "safe/unsafe",
        }
    }
}

impl RuleMeta {
    /// The user doc (Markdown), as in `rules/<id>.md`.
    pub fn doc(&self) -> &'static str {
        self.id.doc()
    }
}

/// Which views a per-view rule runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RuleViews {
    Both,
    Only(View),
}

impl RuleViews {
    pub(crate) fn includes(self, view: View) -> bool {
        match self {
            RuleViews::Both => true,
            RuleViews::Only(only) => only == view,
        }
    }
}

/// What a rule looks at, and its check.
#[derive(Clone, Copy)]
pub(crate) enum Check {
    /// One view of a directory at a time, in the views given, when the view has every file it
    /// loads (a view with an unreadable or unparsable file is seen by `Merge` checks only).
    View(RuleViews, fn(&Context, &mut Vec<Diagnostic>)),
    /// Both views of a directory at once (only when both were built): rules that compare them.
    Directory(fn(&DirectoryContext, &mut Vec<Diagnostic>)),
    /// A Terragrunt tree (`terragrunt.hcl` units and the files they reference), once per run.
    Terragrunt(fn(&TreeContext, &mut Vec<Diagnostic>)),
    /// The load errors the merge of a view found while building its effective module
    /// (`MergeContext::problems`), in every view merged, complete or not, before the other
    /// checks of the directory run.
    Merge(fn(&MergeContext, &mut Vec<Diagnostic>)),
    /// Each problem reading and parsing a file, or walking and listing a directory, wherever a
    /// file is read: in a module directory, a Terragrunt tree, the walk.
    Read(fn(&ReadContext, &mut Vec<Diagnostic>)),
    /// Each ignore comment that silences nothing, or is not one (an engine finding).
    Ignore(fn(&IgnoreContext, &mut Vec<Diagnostic>)),
    /// Each panic the engine caught, in a rule or in a directory's check (an engine finding).
    Crash(fn(&CrashContext, &mut Vec<Diagnostic>)),
}

impl Check {
    /// What it runs on: the registry lists the rules of each, so that running the rules on
    /// one thing looks only at those that check it.
    pub(crate) fn runs_on(self) -> TargetKind {
        match self {
            Check::View(..) => TargetKind::View,
            Check::Directory(_) => TargetKind::Directory,
            Check::Terragrunt(_) => TargetKind::Tree,
            Check::Merge(_) => TargetKind::Merge,
            Check::Read(_) => TargetKind::Read,
            Check::Ignore(_) => TargetKind::Ignore,
            Check::Crash(_) => TargetKind::Crash,
        }
    }
}

/// What a check runs on, one kind for each variant of [`Check`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TargetKind {
    View,
    Directory,
    Tree,
    Merge,
    Read,
    Ignore,
    Crash,
}

impl TargetKind {
    /// Every kind, in the order of their discriminants (the registry's index).
    pub(crate) const ALL: [TargetKind; 7] = [
        TargetKind::View,
        TargetKind::Directory,
        TargetKind::Tree,
        TargetKind::Merge,
        TargetKind::Read,
        TargetKind::Ignore,
        TargetKind::Crash,
    ];
}

/// One option a rule accepts in the config file (`rules: { id: { name: value } }`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct OptionSpec {
    pub(crate) name: &'static str,
    pub(crate) kind: OptionKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OptionKind {
    /// A number from 0 to 1.
    Fraction,
    Integer,
}

/// A finding id with its metadata, the options it takes and its checks: a rule, a load error or
/// an engine finding, each written with [`declare_rule!`] in its own file (`src/rules/<id>.rs`).
pub(crate) struct Rule {
    pub(crate) meta: RuleMeta,
    pub(crate) options: &'static [OptionSpec],
    /// What it looks at: most rules one thing, a load error that two stages find two.
    pub(crate) checks: &'static [Check],
    /// For a load error after which the tool says nothing else of the view (OpenTofu's
    /// `Incompatible module`): whether this finding is one. The engine then drops the view's
    /// other findings.
    pub(crate) drops_view_findings: Option<fn(&Diagnostic) -> bool>,
}

impl Rule {
    pub(crate) fn id(&self) -> FindingId {
        self.meta.id
    }
}

/// A rule's metadata and check, in the one form every file of `src/rules` uses. A rule:
///
/// ```text
/// pub(crate) const RULE: Rule = declare_rule! {
///     id: "override_noop",
///     severity: Warning,
///     default: On,
///     summary: "an override that changes nothing",
///     fix: SafeOrUnsafe,
///     check: Check::View(RuleViews::Both, check),
/// };
/// ```
///
/// `default` is `On` or `Off`; `fix` (`Safe`, `Unsafe` or `SafeOrUnsafe`, see [`Fixes`]) is
/// there when the rule's findings carry fixes; an optional `options: &[OptionSpec { .. }]`
/// comes last.
///
/// A load error of Terraform/OpenTofu says `kind: LoadError` instead of a severity and default:
/// it is always an error, always on, and cannot be ignored:
///
/// ```text
/// pub(crate) const RULE: Rule = declare_rule! {
///     id: "depends_on_action",
///     kind: LoadError,
///     summary: "an action in depends_on (Terraform)",
///     check: Check::View(RuleViews::Only(View::Terraform), check),
/// };
/// ```
///
/// What `validate` refuses says `kind: Validate` instead of a severity and default: an error,
/// on by default, which users may configure and ignore inline like a rule's finding:
///
/// ```text
/// pub(crate) const RULE: Rule = declare_rule! {
///     id: "unknown_function",
///     kind: Validate,
///     summary: "a call to a function no targeted release has",
///     check: Check::View(RuleViews::Both, check),
/// };
/// ```
///
/// A finding of the engine itself says `kind: Engine` before its severity and default
/// (`default: Always` for one that cannot be configured). Where two stages find one id, `checks:
/// [.., ..]` lists a check for each. The id must have its doc at `rules/<id>.md`, or the rule
/// does not compile.
macro_rules! declare_rule {
    (
        id: $id:literal,
        kind: LoadError,
        summary: $summary:literal,
        $(fix: $fix:ident,)?
        $(check: $check:expr,)?
        $(checks: [$($checks:expr),+ $(,)?],)?
        $(drops_view_findings: $drops:expr,)?
    ) => {
        $crate::lint::declare_rule!(@rule $id, LoadError, Error, On, $summary, ($($fix)?),
            &[$($check)? $($($checks),+)?], &[], ($($drops)?))
    };
    (
        id: $id:literal,
        kind: Validate,
        summary: $summary:literal,
        $(fix: $fix:ident,)?
        check: $check:expr
        $(,)?
    ) => {
        $crate::lint::declare_rule!(@rule $id, Validate, Error, On, $summary, ($($fix)?),
            &[$check], &[], ())
    };
    (
        id: $id:literal,
        kind: Engine,
        severity: $severity:ident,
        default: $default:ident,
        summary: $summary:literal,
        $(fix: $fix:ident,)?
        $(check: $check:expr,)?
        $(checks: [$($checks:expr),+ $(,)?],)?
    ) => {
        $crate::lint::declare_rule!(@rule $id, Engine, $severity, $default, $summary, ($($fix)?),
            &[$($check)? $($($checks),+)?], &[], ())
    };
    (
        id: $id:literal,
        severity: $severity:ident,
        default: $default:ident,
        summary: $summary:literal,
        $(fix: $fix:ident,)?
        check: $check:expr
        $(, options: $options:expr)?
        $(,)?
    ) => {
        $crate::lint::declare_rule!(@rule $id, Rule, $severity, $default, $summary, ($($fix)?),
            &[$check], $crate::lint::declare_rule!(@options $($options)?), ())
    };
    (@rule $id:literal, $kind:ident, $severity:ident, $default:ident, $summary:literal,
        ($($fix:ident)?), $checks:expr, $options:expr, ($($drops:expr)?)) => {
        $crate::lint::Rule {
            meta: $crate::lint::RuleMeta {
                id: $crate::diagnostic::finding_id!($id),
                kind: $crate::lint::Kind::$kind,
                severity: $crate::diagnostic::Severity::$severity,
                enabled_by_default: $crate::lint::declare_rule!(@default $default),
                summary: $summary,
                fixes: $crate::lint::declare_rule!(@fixes $($fix)?),
                configurable: $crate::lint::declare_rule!(@configurable $default),
            },
            options: $options,
            checks: $checks,
            drops_view_findings: $crate::lint::declare_rule!(@drops $($drops)?),
        }
    };
    (@default On) => { true };
    (@default Off) => { false };
    (@default Always) => { true };
    (@configurable Always) => { false };
    (@configurable $default:ident) => { true };
    (@fixes) => { $crate::lint::Fixes::None };
    (@fixes $fix:ident) => { $crate::lint::Fixes::$fix };
    (@drops) => { None };
    (@drops $drops:expr) => { Some($drops) };
    (@options) => { &[] };
    (@options $options:expr) => { $options };
}
pub(crate) use declare_rule;
