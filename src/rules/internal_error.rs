//! A panic while checking: a rule that crashed on a directory (its findings there are missing;
//! the other rules ran), or the check of a whole directory or Terragrunt tree (none of its
//! findings are there; the other directories were checked). The engine catches the panic and
//! this finding says so, so that a crash never goes unsaid; it cannot be turned off.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::lint::run::{Crash, CrashPlace};

use crate::lint::{Check, CrashContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "internal_error",
    kind: Engine,
    severity: Error,
    default: Always,
    summary: "a rule crashed; its findings for that directory are missing",
    check: Check::Crash(check),
};

fn check(ctx: &CrashContext, out: &mut Vec<Diagnostic>) {
    let crash = ctx.crash;
    out.push(match crash.place {
        CrashPlace::Rule { id, view } => rule_crashed(ctx, crash, id.as_str(), view),
        CrashPlace::Directory => directory_crashed(ctx, crash),
    });
}

/// `internal error in rule `<id>`: <what the panic said>`
fn rule_crashed(ctx: &CrashContext, crash: &Crash, id: &str, view: Option<View>) -> Diagnostic {
    let view = view.map_or_else(String::new, |view| format!(" ({} view)", view.tool_name()));
    ctx.finding(
        &RULE,
        format!("internal error in rule `{id}`: {}", crash.message),
    )
    .at_path(&*crash.path)
    .with_note(format!(
        "The rule crashed on this directory{view}, so its findings here are missing; the other \
         rules and directories were checked. Please report this as a bug."
    ))
    .in_views(crash.views)
}

/// `internal error while checking this directory: <what the panic said>`
fn directory_crashed(ctx: &CrashContext, crash: &Crash) -> Diagnostic {
    ctx.finding(
        &RULE,
        format!(
            "internal error while checking this directory: {}",
            crash.message
        ),
    )
    .at_path(&*crash.path)
    .with_note(
        "Checking this directory crashed, so none of its findings are reported; the other \
         directories were checked. Please report this as a bug.",
    )
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::diagnostic::Severity;
    use crate::knowledge::View;
    use crate::lint::neighbours::Neighbours;
    use crate::lint::run::{Target, run_rule, run_rules};
    use crate::lint::settings::Level;
    use crate::lint::testing::settings_of;
    use crate::lint::testing::stand_ins::{OPENTOFU_ONLY, PANICS};
    use crate::lint::{Context, RuleSettings};
    use crate::module::merge::Module;
    use crate::source::{SourceFile, SourceFiles};

    #[test]
    fn a_panicking_rule_is_reported_and_the_others_still_run() {
        let mut files = SourceFiles::default();
        files.add(SourceFile::new("m/main.tf".into(), "x = 1\n".into()));
        let module = Module::new(View::OpenTofu);
        let mut settings: RuleSettings = settings_of(&[&PANICS, &OPENTOFU_ONLY, &super::RULE]);
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
            before_tofu: (&[], &[]),
            settings: &settings,
            neighbours: &neighbours,
            targets: &crate::lint::targets::Targets::newest_stable(View::OpenTofu),
            overlay: &crate::input::overlay::Overlay::default(),
            judgements: std::cell::OnceCell::new(),
            calls: std::cell::OnceCell::new(),
            object_uses: &crate::module::references::ObjectUses::of(&module),
            declared: &crate::lint::helpers::declared::Declared::of(&module),
            top_level: &[],
            text_override_copies: &[],
            types: &crate::types::ParsedTypes::default(),
        };
        let mut found = Vec::new();
        run_rules(Target::View(&ctx), &mut found);
        assert_eq!(found.len(), 2, "{found:#?}");
        let (crashed, ok) = if found[0].rule == super::RULE.id() {
            (&found[0], &found[1])
        } else {
            (&found[1], &found[0])
        };
        assert_eq!(
            crashed.message,
            format!("internal error in rule `{}`: boom", PANICS.id())
        );
        assert_eq!(&*crashed.path, "m");
        assert_eq!(crashed.views, View::OpenTofu.views());
        assert!(crashed.notes[0].contains("(OpenTofu view)"), "{crashed:#?}");
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

    /// It cannot be turned off or down: a crash must never go unsaid.
    #[test]
    fn cannot_be_configured() {
        let mut settings = settings_of(&[&super::RULE]);
        let name = super::RULE.id().as_str();
        assert!(settings.set_level(name, Level::Off).is_err());
        assert!(
            settings
                .set_level(name, Level::On(Severity::Notice))
                .is_err()
        );
    }
}
