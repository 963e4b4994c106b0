//! What rules see: one view of a module directory, both views at once, a Terragrunt tree, the
//! load errors a merge found, a problem reading a file, and the engine's own events: an ignore
//! comment that silences nothing, a crash.

use std::borrow::Cow;

use std::cell::OnceCell;
use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::input::overlay::Overlay;
use crate::input::read::ReadProblem;
use crate::knowledge::View;
use crate::lint::neighbours::Neighbours;
use crate::module::merge::{LoadedFile, MergeProblem, Module};
use crate::module::references::ObjectUses;

use super::helpers::ModuleCalls;
use super::helpers::declared::Declared;
use super::helpers::top_level::TopLevel;
use crate::source::{FileId, SourceFiles};
use crate::terragrunt::Tree;
use crate::types::ParsedTypes;

use super::helpers::schema::Judgement;
use super::ignore::IgnoreProblem;
use super::run::Crash;
use super::targets::{ConstraintFiles, Targets};
use super::{Rule, RuleSettings};

/// A finding of `rule` with its default severity; the engine applies the configured one.
fn finding(rule: &Rule, message: impl Into<Cow<'static, str>>) -> Diagnostic {
    Diagnostic::new(rule.meta.id, rule.meta.severity, message)
}

/// One view of one module directory.
pub(crate) struct Context<'a> {
    pub(crate) view: View,
    pub(crate) dir: &'a Path,
    pub(crate) module: &'a Module,
    pub(crate) files: &'a SourceFiles,
    /// The files this view loads, primaries then overrides, in load order.
    pub(crate) primary: &'a [LoadedFile<'a>],
    pub(crate) overrides: &'a [LoadedFile<'a>],
    /// OpenTofu: the files its releases before `.tofu` files read, for their version
    /// constraints (see [`ConstraintFiles`]); in the Terraform view, the view's files.
    pub(crate) before_tofu: (&'a [LoadedFile<'a>], &'a [LoadedFile<'a>]),
    pub(crate) settings: &'a RuleSettings,
    /// The local modules this directory's module calls name.
    pub(crate) neighbours: &'a Neighbours<'a>,
    /// The releases of this view's tool the module targets.
    pub(crate) targets: &'a Targets,
    /// The texts standing in for files (unsaved buffers, `--diff`'s fixes): what exists.
    pub(crate) overlay: &'a Overlay,
    /// What [`super::helpers::schema::judgements`] found, once it was asked.
    pub(crate) judgements: OnceCell<Vec<Judgement>>,
    /// The module's calls to local modules, found once they were asked for (see
    /// [`Context::calls`]).
    pub(crate) calls: OnceCell<ModuleCalls>,
    /// The references each object of the module evaluates, walked once for every rule that
    /// reads them.
    pub(crate) object_uses: &'a ObjectUses<'a>,
    /// What the module declares, by kind: found once for every rule that looks names up.
    pub(crate) declared: &'a Declared<'a>,
    /// The top-level blocks of `primary` and `overrides`, listed once for every rule that reads
    /// them.
    pub(crate) top_level: &'a [TopLevel<'a>],
    /// The directory's override files saved with a `.txt` extension, in name order.
    pub(crate) text_override_copies: &'a [String],
    /// The `type` expressions of the directory, each parsed once for every view.
    pub(crate) types: &'a ParsedTypes,
}

impl<'a> Context<'a> {
    /// The files whose version constraints this view's releases read.
    pub(crate) fn constraint_files(&self) -> ConstraintFiles<'a> {
        ConstraintFiles {
            primary: self.primary,
            overrides: self.overrides,
            before_tofu: self.before_tofu,
        }
    }

    /// This view judged against other releases than it targets: for rules that weigh releases
    /// the module's constraints shut out.
    pub(crate) fn with_targets<'t>(&self, targets: &'t Targets) -> Context<'t>
    where
        'a: 't,
    {
        Context {
            view: self.view,
            dir: self.dir,
            module: self.module,
            files: self.files,
            primary: self.primary,
            overrides: self.overrides,
            before_tofu: self.before_tofu,
            settings: self.settings,
            neighbours: self.neighbours,
            targets,
            overlay: self.overlay,
            judgements: OnceCell::new(),
            calls: OnceCell::new(),
            object_uses: self.object_uses,
            declared: self.declared,
            top_level: self.top_level,
            text_override_copies: self.text_override_copies,
            types: self.types,
        }
    }

    /// The module's calls to local modules with a known interface, found on the first ask.
    pub(crate) fn calls(&self) -> &ModuleCalls {
        self.calls.get_or_init(|| ModuleCalls::of(self))
    }

    /// A finding of `rule`, with its default severity (the engine applies the configured one).
    pub(crate) fn finding(&self, rule: &Rule, message: impl Into<Cow<'static, str>>) -> Diagnostic {
        finding(rule, message)
    }

    /// A numeric option of a rule, or `default`.
    pub(crate) fn number_option(&self, rule: &Rule, name: &str, default: f64) -> f64 {
        self.settings
            .number_option(rule.id(), name)
            .unwrap_or(default)
    }
}

/// Every view of a module directory that was built.
pub(crate) struct DirectoryContext<'a> {
    pub(crate) dir: &'a Path,
    pub(crate) files: &'a SourceFiles,
    pub(crate) views: &'a [Context<'a>],
    /// OpenTofu only: (`.tf` file hidden, `.tofu` file hiding it), both parsed.
    pub(crate) shadowed: &'a [(FileId, FileId)],
    /// Load errors (and file problems) that only one view has.
    pub(crate) one_view_errors: &'a [&'a Diagnostic],
    pub(crate) settings: &'a RuleSettings,
}

impl DirectoryContext<'_> {
    pub(crate) fn view(&self, view: View) -> Option<&Context<'_>> {
        self.views.iter().find(|c| c.view == view)
    }

    pub(crate) fn finding(&self, rule: &Rule, message: impl Into<Cow<'static, str>>) -> Diagnostic {
        finding(rule, message)
    }
}

/// The load errors the merge of one view found, whether or not the view has every file it loads
/// (a view with an unreadable or unparsable file is merged from its other files all the same,
/// as the tools load them and report their errors).
pub(crate) struct MergeContext<'a> {
    pub(crate) view: View,
    pub(crate) dir: &'a Path,
    pub(crate) files: &'a SourceFiles,
    /// In the order the merge found them.
    pub(crate) problems: &'a [MergeProblem],
    /// The releases of this view's tool the module targets (the tools word some load errors
    /// differently from one release to the next).
    pub(crate) targets: &'a Targets,
    /// Whether every file the view loads was read and parsed.
    pub(crate) complete: bool,
    pub(crate) settings: &'a RuleSettings,
}

impl MergeContext<'_> {
    pub(crate) fn finding(&self, rule: &Rule, message: impl Into<Cow<'static, str>>) -> Diagnostic {
        finding(rule, message)
    }
}

/// One problem reading or parsing a file (of a module directory or a Terragrunt tree), or
/// walking or listing a directory.
pub(crate) struct ReadContext<'a> {
    pub(crate) problem: &'a ReadProblem,
    /// The files read so far, the problem's own among them when its text was recorded.
    pub(crate) files: &'a SourceFiles,
    pub(crate) settings: &'a RuleSettings,
}

impl ReadContext<'_> {
    pub(crate) fn finding(&self, rule: &Rule, message: impl Into<Cow<'static, str>>) -> Diagnostic {
        finding(rule, message)
    }
}

/// An ignore comment that silences nothing, or is not one.
pub(crate) struct IgnoreContext<'a> {
    pub(crate) problem: &'a IgnoreProblem,
    pub(crate) files: &'a SourceFiles,
    pub(crate) settings: &'a RuleSettings,
}

impl IgnoreContext<'_> {
    pub(crate) fn finding(&self, rule: &Rule, message: impl Into<Cow<'static, str>>) -> Diagnostic {
        finding(rule, message)
    }
}

/// A panic the engine caught.
pub(crate) struct CrashContext<'a> {
    pub(crate) crash: &'a Crash,
    pub(crate) settings: &'a RuleSettings,
}

impl CrashContext<'_> {
    pub(crate) fn finding(&self, rule: &Rule, message: impl Into<Cow<'static, str>>) -> Diagnostic {
        finding(rule, message)
    }
}

/// A whole Terragrunt tree.
pub(crate) struct TreeContext<'a> {
    pub(crate) tree: &'a Tree,
    pub(crate) settings: &'a RuleSettings,
    /// The modules the units deploy from local sources.
    pub(crate) unit_modules: &'a super::unit_modules::UnitModules,
}

impl TreeContext<'_> {
    pub(crate) fn files(&self) -> &SourceFiles {
        &self.tree.sources
    }

    pub(crate) fn finding(&self, rule: &Rule, message: impl Into<Cow<'static, str>>) -> Diagnostic {
        finding(rule, message)
    }
}
