//! The one place a rule runs: enabled check, panic isolation, configured severity, views.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

use crate::diagnostic::{Diagnostic, FindingId, Views};
use crate::input::read::ReadProblem;
use crate::knowledge::View;
use crate::source::{SourceFiles, display_path};

use super::ignore::IgnoreProblem;
use super::{
    Check, Context, CrashContext, DirectoryContext, IgnoreContext, MergeContext, ReadContext, Rule,
    RuleSettings, TargetKind, TreeContext,
};

/// What a rule is run on.
#[derive(Clone, Copy)]
pub(crate) enum Target<'a> {
    View(&'a Context<'a>),
    Directory(&'a DirectoryContext<'a>),
    Tree(&'a TreeContext<'a>),
    Merge(&'a MergeContext<'a>),
    Read(&'a ReadContext<'a>),
    Ignore(&'a IgnoreContext<'a>),
    Crash(&'a CrashContext<'a>),
}

impl Target<'_> {
    fn settings(&self) -> &RuleSettings {
        match self {
            Target::View(ctx) => ctx.settings,
            Target::Directory(ctx) => ctx.settings,
            Target::Tree(ctx) => ctx.settings,
            Target::Merge(ctx) => ctx.settings,
            Target::Read(ctx) => ctx.settings,
            Target::Ignore(ctx) => ctx.settings,
            Target::Crash(ctx) => ctx.settings,
        }
    }

    /// The views a finding on this target is about: the one view of a per-view rule, none for
    /// rules that compare views or have none.
    fn views(&self) -> Views {
        match self {
            Target::View(ctx) => ctx.view.views(),
            Target::Merge(ctx) => ctx.view.views(),
            Target::Directory(_) | Target::Tree(_) | Target::Read(_) => Views::NONE,
            Target::Ignore(_) | Target::Crash(_) => Views::NONE,
        }
    }

    fn kind(&self) -> TargetKind {
        match self {
            Target::View(_) => TargetKind::View,
            Target::Directory(_) => TargetKind::Directory,
            Target::Tree(_) => TargetKind::Tree,
            Target::Merge(_) => TargetKind::Merge,
            Target::Read(_) => TargetKind::Read,
            Target::Ignore(_) => TargetKind::Ignore,
            Target::Crash(_) => TargetKind::Crash,
        }
    }

    /// The view of a per-view target.
    fn view(&self) -> Option<View> {
        match self {
            Target::View(ctx) => Some(ctx.view),
            Target::Merge(ctx) => Some(ctx.view),
            _ => None,
        }
    }

    /// Where an `internal_error` of this target is reported.
    fn place(&self) -> std::sync::Arc<str> {
        match self {
            Target::View(ctx) => display_path(ctx.dir).into(),
            Target::Merge(ctx) => display_path(ctx.dir).into(),
            Target::Directory(ctx) => display_path(ctx.dir).into(),
            Target::Tree(ctx) => ctx.tree.root_display().into(),
            Target::Read(ctx) => ctx.problem.shown(ctx.files),
            Target::Ignore(ctx) => ctx.problem.shown(ctx.files),
            Target::Crash(ctx) => ctx.crash.path.as_str().into(),
        }
    }
}

/// Runs every rule of the settings' registry that applies to `target`, in registry order.
pub(crate) fn run_rules(target: Target, out: &mut Vec<Diagnostic>) {
    for rule in target.settings().registry().checking(target.kind()) {
        run_rule(rule, target, out);
    }
}

/// Runs `rule` on `target` if it is enabled, with each of its checks of the target's kind (a
/// per-view check only in its views). A panic is reported as `internal_error` and the other
/// rules still run.
pub(crate) fn run_rule(rule: &Rule, target: Target, out: &mut Vec<Diagnostic>) {
    let settings = target.settings();
    let Some(severity) = settings.enabled_severity(&rule.meta) else {
        return;
    };
    for check in rule.checks {
        // Each check pushes onto `out` itself, and its findings are adjusted in place there:
        // no list per check, which a file of a hundred thousand read problems made per
        // problem.
        let start = out.len();
        let found = &mut *out;
        let outcome = match (*check, target) {
            (Check::View(views, check), Target::View(ctx)) if views.includes(ctx.view) => {
                catch_unwind(AssertUnwindSafe(|| check(ctx, found)))
            }
            (Check::Directory(check), Target::Directory(ctx)) => {
                catch_unwind(AssertUnwindSafe(|| check(ctx, found)))
            }
            (Check::Terragrunt(check), Target::Tree(ctx)) => {
                catch_unwind(AssertUnwindSafe(|| check(ctx, found)))
            }
            (Check::Merge(check), Target::Merge(ctx)) => {
                catch_unwind(AssertUnwindSafe(|| check(ctx, found)))
            }
            (Check::Read(check), Target::Read(ctx)) => {
                catch_unwind(AssertUnwindSafe(|| check(ctx, found)))
            }
            (Check::Ignore(check), Target::Ignore(ctx)) => {
                catch_unwind(AssertUnwindSafe(|| check(ctx, found)))
            }
            (Check::Crash(check), Target::Crash(ctx)) => {
                catch_unwind(AssertUnwindSafe(|| check(ctx, found)))
            }
            _ => continue,
        };
        match outcome {
            Ok(()) => {
                // Unless the user set the rule's severity, a finding keeps the milder one its
                // rule may give a milder case (equal duplicate values are a notice, not a
                // warning).
                let configured = severity != rule.meta.severity;
                let views = target.views();
                for d in &mut out[start..] {
                    if configured || d.severity > severity {
                        d.severity = severity;
                    }
                    if views != Views::NONE {
                        d.views = views;
                    }
                }
            }
            // The rule that reports crashes crashed: nothing is left to say it but the panic.
            Err(panic) if matches!(target, Target::Crash(_)) => resume_unwind(panic),
            Err(panic) => {
                // What the check pushed before it panicked is not reported, as before.
                out.truncate(start);
                let crash = Crash {
                    path: target.place().to_string(),
                    message: panic_message(&*panic),
                    place: CrashPlace::Rule {
                        id: rule.id(),
                        view: target.view(),
                    },
                    views: target.views(),
                };
                out.extend(crash_findings(&crash, settings));
            }
        }
    }
}

/// What a panic said, when it said it with a string.
pub(crate) fn panic_message(panic: &(dyn Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// A panic the engine caught: the `internal_error` rule words it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Crash {
    /// The directory (or file, or tree) being checked.
    pub(crate) path: String,
    /// What the panic said.
    pub(crate) message: String,
    pub(crate) place: CrashPlace,
    /// The views the crash is about (none for a whole directory).
    pub(crate) views: Views,
}

/// What crashed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CrashPlace {
    /// One rule, on one directory (in one view, for a per-view rule): the other rules ran.
    Rule { id: FindingId, view: Option<View> },
    /// The check of a whole directory (or tree): none of its findings are there.
    Directory,
}

/// The findings of problems reading files or walking directories, each as the rule of its id
/// words it, in order.
pub(crate) fn read_findings(
    problems: &[ReadProblem],
    files: &SourceFiles,
    settings: &RuleSettings,
) -> Vec<Diagnostic> {
    // Most problems are one finding each: a file can hold a hundred thousand.
    let mut out = Vec::with_capacity(problems.len());
    for problem in problems {
        let ctx = ReadContext {
            problem,
            files,
            settings,
        };
        run_rules(Target::Read(&ctx), &mut out);
    }
    out
}

/// The findings of ignore comments that silence nothing, in order.
pub(crate) fn ignore_findings(
    problems: &[IgnoreProblem],
    files: &SourceFiles,
    settings: &RuleSettings,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for problem in problems {
        let ctx = IgnoreContext {
            problem,
            files,
            settings,
        };
        run_rules(Target::Ignore(&ctx), &mut out);
    }
    out
}

/// The findings of a crash.
pub(crate) fn crash_findings(crash: &Crash, settings: &RuleSettings) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    run_rules(Target::Crash(&CrashContext { crash, settings }), &mut out);
    out
}

/// A crash of the check of the directory (or tree) at `path`, as findings.
pub(crate) fn directory_crashed(
    path: String,
    panic: Box<dyn Any + Send>,
    settings: &RuleSettings,
) -> Vec<Diagnostic> {
    let crash = Crash {
        path,
        message: panic_message(&*panic),
        place: CrashPlace::Directory,
        views: Views::NONE,
    };
    crash_findings(&crash, settings)
}
