//! A file whose name looks like an override file but is not one (`providers-override.tf`,
//! `overrides.tf`, `override_main.tf`, `main.override.tf`, `Override.tf`). The tools match
//! `override` and `_override` exactly, so they load it as a primary file: its blocks are
//! appended, and each one that repeats a block of another file is a duplicate definition, or,
//! when the base was renamed, silently a second copy. An override file saved with a `.txt`
//! extension (`main_override.tf.txt`) is not loaded at all.

use crate::diagnostic::fix::FileOperation;
use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::knowledge::files::{classify, override_lookalike};
use crate::module::merge::LoadedFile;
use crate::source::Span;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_lookalike_filename",
    severity: Warning,
    default: On,
    summary: "a file whose name looks like an override file but is not one",
    fix: Unsafe,
    check: Check::View(RuleViews::Both, check),
};

const NOTE: &str = "Only `override.tf` and names ending in `_override.tf` (with `.tf.json`, and \
                    `.tofu` and `.tofu.json` for OpenTofu) are override files, merged into the \
                    blocks they name. Any other name is a primary file: its blocks are appended \
                    to the module, so a block that repeats one from another file is a duplicate \
                    definition, not a change.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for name in ctx.text_override_copies {
        out.push(not_loaded(ctx, name));
    }
    for loaded in ctx.primary {
        let name = ctx.files.get(loaded.file.id).file_name();
        let Some(config) = classify(name) else {
            continue;
        };
        if let Some(real) = override_lookalike(config.stem()) {
            let real = format!("{real}{}", config.extension.as_str());
            out.push(lookalike(ctx, loaded, name, &real));
        }
    }
}

/// `` `main_override.tf.txt` is not loaded: its name ends in `.txt` ``
fn not_loaded(ctx: &Context, name: &str) -> Diagnostic {
    let path = ctx.dir.join(name);
    let real = name.strip_suffix(".txt").unwrap_or(name);
    ctx.finding(
        &RULE,
        format!("`{name}` is not loaded: its name ends in `.txt`"),
    )
    .at_path(crate::source::display_path(&path))
    .with_note(
        "Terraform and OpenTofu read only `.tf`, `.tf.json`, `.tofu` and `.tofu.json` files: \
             the overrides in this file are not applied.",
    )
    .with_help(format!(
        "to override, rename it `{real}`; if it is kept on purpose, move it out of the module"
    ))
    .with_fix(rename(ctx, &path, real))
}

/// Renames `path` to `real` in its directory, unless a file of that name exists.
fn rename(ctx: &Context, path: &std::path::Path, real: &str) -> Option<Fix> {
    let to = path.with_file_name(real);
    if ctx.overlay.exists(&ctx.dir.join(real)) {
        return None;
    }
    let title = format!("Rename the file to `{real}`");
    let operation = FileOperation::Rename {
        from: path.to_path_buf(),
        to,
    };
    Some(Fix::new(title, Applicability::Unsafe).operation(operation))
}

/// `` `main-override.tf` is loaded as a primary file, not as an override ``
fn lookalike(ctx: &Context, loaded: &LoadedFile, name: &str, real: &str) -> Diagnostic {
    let message = format!("`{name}` is loaded as a primary file, not as an override");
    // The first block is what the name promises to override; an empty file is shown at its start.
    let (at, label) = match loaded.file.body.blocks.first() {
        Some(block) => (block.header_span, "appended to the module, not merged"),
        None => (Span::new(loaded.file.id, 0..0), "a primary file"),
    };
    ctx.finding(&RULE, message)
        .at(ctx.files, at, label)
        .with_note(NOTE)
        .with_help(format!(
            "to override, rename it `{real}`; if it is meant as a primary file, give it a name \
             that does not look like an override"
        ))
        .with_fix(rename(ctx, &ctx.files.get(loaded.file.id).path, real))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const BASE: &str = "provider \"google\" {\n  region = \"europe-west1\"\n}\n";

    const PASS: &[Files] = &[
        &[("main.tf", BASE), ("override.tf", BASE)],
        &[("main.tf", BASE), ("providers_override.tf", BASE)],
        &[("main.tf", BASE), ("providers_override.tofu.json", "{}")],
        // Names that merely contain the word.
        &[("main.tf", BASE), ("overridden.tf", "")],
        &[("main.tf", BASE), ("no_overrides_here.tf", "")],
    ];

    const FAIL: &[(Files, usize)] = &[
        (&[("main.tf", ""), ("providers-override.tf", BASE)], 1),
        (&[("main.tf", ""), ("overrides.tf", BASE)], 1),
        (&[("main.tf", ""), ("override_main.tf", BASE)], 1),
        (&[("main.tf", ""), ("main-override.tf", BASE)], 1),
        (&[("main.tf", ""), ("main_overrides.tf", BASE)], 1),
        (&[("main.tf", ""), ("Override.tf", BASE)], 1),
        (&[("main.tf", ""), ("main.override.tf", BASE)], 1),
        (&[("main.tf", ""), ("main.override.tofu.json", "{}")], 1),
        (&[("main.tf", ""), ("overrides.tf", "")], 1),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn an_override_saved_as_text_is_not_loaded() {
        let files = [
            ("main.tf", BASE),
            ("main_override.tf.txt", BASE),
            ("notes.txt", ""),
        ];
        let found = findings(&super::RULE, &files);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(
            found[0].message,
            "`main_override.tf.txt` is not loaded: its name ends in `.txt`"
        );
        assert!(
            found[0].path.ends_with("/main_override.tf.txt"),
            "{}",
            found[0].path
        );
        assert_eq!(
            found[0].help.as_deref(),
            Some(
                "to override, rename it `main_override.tf`; if it is kept on purpose, move it \
                 out of the module"
            )
        );
    }

    #[test]
    fn help_names_the_real_override_name() {
        let found = findings(&super::RULE, &[("providers-override.tf.json", "{}")]);
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].message,
            "`providers-override.tf.json` is loaded as a primary file, not as an override"
        );
        assert_eq!(
            found[0].help.as_deref(),
            Some(
                "to override, rename it `providers_override.tf.json`; if it is meant as a \
                 primary file, give it a name that does not look like an override"
            )
        );
    }
}
