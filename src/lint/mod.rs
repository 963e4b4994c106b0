//! The lint engine: what a rule is, what it sees, and the one loop that runs rules.
//!
//! - [`Rule`] and [`declare_rule!`]: a rule's metadata and check, written once in its file.
//! - [`registry`]: every finding id (load errors, rules, engine findings), looked up by name.
//! - [`context`]: what a rule sees (one view, a whole directory, a Terragrunt tree).
//! - [`run`]: runs one rule with panic isolation, severity from the settings, views set.
//! - [`directory`] and [`tree`]: the per-directory pipeline (read → parse → views → merge →
//!   rules → ignores) and the Terragrunt tree check; [`check`] runs them all in parallel, a
//!   panic in one directory's pipeline becoming `internal_error` for that directory only.
//! - [`settings`] and [`ignore`]: configuration and inline ignore comments.
//! - [`neighbours`]: the local modules that module calls name, read for the rules of their
//!   callers, their files' summaries shared by the checks of a run.
//! - [`helpers`]: queries over contexts shared by several rules.
//!
//! The engine does not know the list of rules: it is given a [`Registry`] (the rule list lives
//! in `crate::rules`), so rules depend on the engine and never the other way round.

pub(crate) mod check;
pub(crate) mod const_variable;
pub(crate) mod context;
pub(crate) mod core_version;
pub(crate) mod depends_on_action;
pub(crate) mod directory;
pub(crate) mod enabled_combination;
pub(crate) mod function_namespace;
pub(crate) mod helpers;
pub(crate) mod ignore;
pub(crate) mod legacy_module;
pub(crate) mod neighbours;
pub(crate) mod null_module_version;
pub(crate) mod registry;
pub(crate) mod removed_provisioner;
pub(crate) mod run;
pub(crate) mod schema;
pub(crate) mod settings;
pub(crate) mod targets;
#[cfg(test)]
pub(crate) mod testing;
pub(crate) mod tree;
pub(crate) mod type_constraint;

use crate::diagnostic::{Diagnostic, FindingId, Severity};
use crate::knowledge::View;

pub(crate) use context::{Context, DirectoryContext, TreeContext};
pub(crate) use registry::Registry;
pub(crate) use settings::RuleSettings;

/// What kind of finding an id stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A load error of Terraform/OpenTofu: always on, always an error, never ignored.
    LoadError,
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
            Kind::Rule => "rule",
            Kind::Engine => "engine",
        }
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
    /// One view of a directory at a time, in the views given.
    View(RuleViews, fn(&Context, &mut Vec<Diagnostic>)),
    /// Both views of a directory at once (only when both were built): rules that compare them.
    Directory(fn(&DirectoryContext, &mut Vec<Diagnostic>)),
    /// A Terragrunt tree (`terragrunt.hcl` units and the files they reference), once per run.
    Terragrunt(fn(&TreeContext, &mut Vec<Diagnostic>)),
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

/// A rule: its metadata, the options it takes and its check. Written with [`declare_rule!`].
pub(crate) struct Rule {
    pub(crate) meta: RuleMeta,
    pub(crate) options: &'static [OptionSpec],
    pub(crate) check: Check,
}

impl Rule {
    pub(crate) fn id(&self) -> FindingId {
        self.meta.id
    }
}

/// A rule's metadata and check, in the one form every rule file uses:
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
/// comes last. The id must have its doc at `rules/<id>.md`, or the rule does not compile.
macro_rules! declare_rule {
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
        $crate::lint::Rule {
            meta: $crate::lint::RuleMeta {
                id: $crate::diagnostic::finding_id!($id),
                kind: $crate::lint::Kind::Rule,
                severity: $crate::diagnostic::Severity::$severity,
                enabled_by_default: $crate::lint::declare_rule!(@default $default),
                summary: $summary,
                fixes: $crate::lint::declare_rule!(@fixes $($fix)?),
            },
            options: $crate::lint::declare_rule!(@options $($options)?),
            check: $check,
        }
    };
    (@default On) => { true };
    (@default Off) => { false };
    (@fixes) => { $crate::lint::Fixes::None };
    (@fixes $fix:ident) => { $crate::lint::Fixes::$fix };
    (@options) => { &[] };
    (@options $options:expr) => { $options };
}
pub(crate) use declare_rule;
