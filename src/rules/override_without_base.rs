//! An override block (or local value) that matches nothing the primary files define: override
//! files only change what primary files define, and the tools refuse to load the module
//! (`Missing resource to override`, `Missing base variable declaration to override`...). An
//! un-aliased `provider` block is the exception: with no base, it becomes the default
//! configuration.

use crate::diagnostic::Diagnostic;
use crate::module::merge::{Address, MergeProblem};
use crate::source::Span;

use crate::lint::{Check, MergeContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_without_base",
    kind: LoadError,
    summary: "an override block with nothing to merge into",
    check: Check::Merge(check),
};

const WHY_OVERRIDE_NEEDS_BASE: &str = "Override files only change blocks that primary files \
                                       define; a block with nothing to merge into is an error.";

fn check(ctx: &MergeContext, out: &mut Vec<Diagnostic>) {
    // A file the view could not read or parse may hold the base an override merges into.
    if !ctx.complete {
        return;
    }
    for problem in ctx.problems {
        match problem {
            MergeProblem::OverrideWithoutBase { address, block } => {
                out.push(override_without_base(ctx, address, *block));
            }
            MergeProblem::LocalOverrideWithoutBase { name, at } => {
                out.push(local_override_without_base(ctx, name, *at));
            }
            _ => {}
        }
    }
}

/// `Missing resource to override` (or the summary of the block's kind)
fn override_without_base(ctx: &MergeContext, address: &Address, block: Span) -> Diagnostic {
    let summary = match address {
        Address::Resource(mode, ..) => match mode.as_str() {
            "data" => "Missing data resource to override",
            "ephemeral" => "Missing ephemeral resource to override",
            _ => "Missing resource to override",
        },
        Address::Variable(_) => "Missing base variable declaration to override",
        Address::Output(_) => "Missing base output definition to override",
        Address::ModuleCall(_) => "Missing module call to override",
        Address::Provider(..) => "Missing base provider configuration for override",
        // Never reported: the merge refuses an override `check` block as such.
        Address::Check(_) => "Can't override check blocks",
    };
    ctx.finding(&RULE, summary)
        .at(ctx.files, block, "nothing to merge into")
        .with_note(format!(
            "No primary file defines {}. {WHY_OVERRIDE_NEEDS_BASE}",
            address.describe()
        ))
        .with_help(
            "define the block in a primary file, or fix the override's labels to match the base \
             block",
        )
}

/// `Missing base local value definition to override`
fn local_override_without_base(ctx: &MergeContext, name: &str, at: Span) -> Diagnostic {
    ctx.finding(&RULE, "Missing base local value definition to override")
        .at(ctx.files, at, "nothing to merge into")
        .with_note(format!(
            "No primary file defines local value `{name}`. {WHY_OVERRIDE_NEEDS_BASE}"
        ))
        .with_help("define the local value in a primary file's `locals` block")
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use crate::input::overlay::Overlay;
    use crate::lint::directory::{Options, ViewSelection, check_directory};
    use crate::lint::testing::{Files, check_table, settings_for};

    const PASS: &[Files] = &[
        &[
            ("main.tf", "variable \"a\" {}\n"),
            ("override.tf", "variable \"a\" {\n  default = 1\n}\n"),
            // An un-aliased provider with no base is the default configuration.
            ("p_override.tf", "provider \"aws\" {}\n"),
        ],
        // The base may be in the file that does not parse.
        &[
            ("main.tf", "variable \"a\" {\n"),
            ("override.tf", "variable \"b\" {}\n"),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (&[("override.tf", "variable \"b\" {}\n")], 1),
        (&[("override.tf", "locals {\n  b = 1\n}\n")], 1),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// The files of the findings of a directory read through `overlay`.
    fn found_in(dir: &Path, overlay: Overlay) -> Vec<String> {
        let mut options = Options::new(ViewSelection::Both, settings_for(&super::RULE));
        options.overlay = overlay;
        let result = check_directory(dir, &options);
        let name = |path: &str| path.rsplit('/').next().unwrap_or_default().to_string();
        result.diagnostics.iter().map(|d| name(&d.path)).collect()
    }

    /// An unsaved buffer is checked instead of the file on disk, and a buffer never saved is a
    /// file of its directory.
    #[test]
    fn overlaid_texts_replace_and_add_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text);
        write("main.tf", "variable \"a\" {}\n").expect("write");
        write("override.tf", "variable \"a\" {\n  default = 1\n}\n").expect("write");
        assert!(found_in(dir.path(), Overlay::default()).is_empty());

        let buffer = (
            dir.path().join("main.tf"),
            "variable \"b\" {}\n".to_string(),
        );
        assert_eq!(
            found_in(dir.path(), Overlay::new([buffer])),
            ["override.tf"]
        );

        let unsaved: PathBuf = dir.path().join("new_override.tf");
        let overlay = Overlay::new([(unsaved, "variable \"c\" {}\n".to_string())]);
        assert_eq!(found_in(dir.path(), overlay), ["new_override.tf"]);

        // A file the overlay deletes (a fix renamed it away) is not loaded.
        let gone = Overlay::with_deletions([(dir.path().join("main.tf"), None)]);
        assert_eq!(found_in(dir.path(), gone), ["override.tf"]);
    }
}
