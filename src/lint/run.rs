//! The one place a rule runs: enabled check, panic isolation, configured severity, views.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::diagnostic::{Diagnostic, Views};
use crate::source::display_path;

use super::registry::INTERNAL_ERROR;
use super::{Check, Context, DirectoryContext, Rule, RuleSettings, TreeContext};

/// What a rule is run on.
#[derive(Clone, Copy)]
pub(crate) enum Target<'a> {
    View(&'a Context<'a>),
    Directory(&'a DirectoryContext<'a>),
    Tree(&'a TreeContext<'a>),
}

impl Target<'_> {
    fn settings(&self) -> &RuleSettings {
        match self {
            Target::View(ctx) => ctx.settings,
            Target::Directory(ctx) => ctx.settings,
            Target::Tree(ctx) => ctx.settings,
        }
    }

    /// The views a finding on this target is about: the one view of a per-view rule, none for
    /// rules that compare views or have none.
    fn views(&self) -> Views {
        match self {
            Target::View(ctx) => ctx.view.views(),
            Target::Directory(_) | Target::Tree(_) => Views::NONE,
        }
    }

    /// Where an `internal_error` of this target is reported, and which view crashed.
    fn place(&self) -> (String, String) {
        match self {
            Target::View(ctx) => (
                display_path(ctx.dir),
                format!(" ({} view)", ctx.view.tool_name()),
            ),
            Target::Directory(ctx) => (display_path(ctx.dir), String::new()),
            Target::Tree(ctx) => (ctx.tree.root_display(), String::new()),
        }
    }
}

/// Runs every rule of the settings' registry that applies to `target`, in registry order.
pub(crate) fn run_rules(target: Target, out: &mut Vec<Diagnostic>) {
    for rule in target.settings().registry().rules() {
        run_rule(rule, target, out);
    }
}

/// Runs `rule` on `target` if it is enabled and of the target's kind (a per-view rule only in
/// its views). A panic is reported as `internal_error` and the other rules still run.
pub(crate) fn run_rule(rule: &Rule, target: Target, out: &mut Vec<Diagnostic>) {
    let settings = target.settings();
    if !settings.is_enabled(rule.id()) {
        return;
    }
    let mut found = Vec::new();
    let outcome = match (rule.check, target) {
        (Check::View(views, check), Target::View(ctx)) if views.includes(ctx.view) => {
            catch_unwind(AssertUnwindSafe(|| check(ctx, &mut found)))
        }
        (Check::Directory(check), Target::Directory(ctx)) => {
            catch_unwind(AssertUnwindSafe(|| check(ctx, &mut found)))
        }
        (Check::Terragrunt(check), Target::Tree(ctx)) => {
            catch_unwind(AssertUnwindSafe(|| check(ctx, &mut found)))
        }
        _ => return,
    };
    match outcome {
        Ok(()) => {
            let severity = settings.severity(&rule.meta);
            // Unless the user set the rule's severity, a finding keeps the milder one its rule
            // may give a milder case (equal duplicate values are a notice, not a warning).
            let configured = severity != rule.meta.severity;
            let views = target.views();
            out.extend(found.into_iter().map(|mut d| {
                if configured || d.severity > severity {
                    d.severity = severity;
                }
                if views != Views::NONE {
                    d.views = views;
                }
                d
            }));
        }
        Err(panic) => {
            let (path, view) = target.place();
            let what = format!("internal error in rule `{}`", rule.id());
            let note = format!(
                "The rule crashed on this directory{view}, so its findings here are missing; the \
                 other rules and directories were checked. Please report this as a bug."
            );
            out.push(internal_error(&what, panic, path, note).in_views(target.views()));
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

/// A panic as a finding: `what` crashed on `path`; `note` says what is missing.
pub(crate) fn internal_error(
    what: &str,
    panic: Box<dyn Any + Send>,
    path: String,
    note: String,
) -> Diagnostic {
    let message = panic_message(&*panic);
    Diagnostic::new(
        INTERNAL_ERROR.id,
        INTERNAL_ERROR.severity,
        format!("{what}: {message}"),
    )
    .at_path(path)
    .with_note(note)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::diagnostic::{Severity, ids};
    use crate::knowledge::View;
    use crate::lint::neighbours::Neighbours;
    use crate::lint::settings::Level;
    use crate::lint::testing::stand_ins::{OPENTOFU_ONLY, PANICS, registry};
    use crate::module::merge::Module;
    use crate::source::{SourceFile, SourceFiles};

    #[test]
    fn a_panicking_rule_is_reported_and_the_others_still_run() {
        let mut files = SourceFiles::default();
        files.add(SourceFile::new("m/main.tf".into(), "x = 1\n".into()));
        let module = Module::new(View::OpenTofu);
        let mut settings = RuleSettings::defaults(registry());
        let name = OPENTOFU_ONLY.id().as_str();
        settings
            .set_level(name, Level::On(Severity::Notice))
            .expect("valid");
        let neighbours = Neighbours::new(1024);
        let ctx = Context {
            view: View::OpenTofu,
            dir: Path::new("m"),
            module: &module,
            files: &files,
            primary: &[],
            overrides: &[],
            settings: &settings,
            neighbours: &neighbours,
            targets: &crate::lint::targets::Targets::newest_stable(View::OpenTofu),
            overlay: &crate::input::overlay::Overlay::default(),
            judgements: std::cell::OnceCell::new(),
            text_override_copies: &[],
            types: &crate::types::ParsedTypes::default(),
        };
        let mut found = Vec::new();
        run_rules(Target::View(&ctx), &mut found);
        assert_eq!(found.len(), 2, "{found:#?}");
        let (crashed, ok) = if found[0].rule == ids::INTERNAL_ERROR {
            (&found[0], &found[1])
        } else {
            (&found[1], &found[0])
        };
        assert_eq!(
            crashed.message,
            format!("internal error in rule `{}`: boom", PANICS.id())
        );
        assert_eq!(crashed.path, "m");
        assert_eq!(crashed.views, View::OpenTofu.views());
        assert_eq!(ok.rule, OPENTOFU_ONLY.id());
        assert_eq!(ok.severity, Severity::Notice, "configured severity applies");
        // A rule for one view does not run on the other.
        let terraform = Context {
            view: View::Terraform,
            ..ctx
        };
        let mut found = Vec::new();
        run_rule(&OPENTOFU_ONLY, Target::View(&terraform), &mut found);
        assert!(found.is_empty(), "{found:#?}");
    }
}
