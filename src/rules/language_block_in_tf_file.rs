//! A `language` block in a `.tf` file: the block is OpenTofu's, and Terraform, which reads every
//! `.tf` file, does not know it and fails to load the module.

use crate::diagnostic::fix::{FileOperation, is_json, layout};
use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::knowledge::View;
use crate::syntax::Block;

use crate::lint::helpers::{block_removal_span, is_primary, top_level_blocks_of};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "language_block_in_tf_file",
    severity: Error,
    default: On,
    summary: "a language block in a .tf file, which Terraform cannot load",
    fix: Unsafe,
    check: Check::View(RuleViews::Only(View::Terraform), check),
};

const NOTE: &str = "The `language` block is OpenTofu's (1.12 and later). Terraform reads every \
                    `.tf` file and rejects blocks it does not know with `Unsupported block type`, \
                    so Terraform users of this module cannot load it at all.";

const HELP: &str = "move the block to a `.tofu` file (for instance `language.tofu`; a \
                    `versions.tofu` would hide `versions.tf` from OpenTofu), which only OpenTofu \
                    reads";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for (file, block) in top_level_blocks_of(ctx, &["language"]) {
        let name = ctx.files.get(file.file.id).file_name();
        // In an override file the block is a load error of its own; moving it to a primary
        // file changes more than this finding is about.
        let primary = is_primary(ctx, file);
        let fix = primary.then(|| move_to_tofu_file(ctx, block)).flatten();
        out.push(language_in_tf(ctx, block, name).with_fix(fix));
    }
}

/// Terraform's own summary (`Unsupported block type`, in JSON `Extraneous JSON object
/// property`), with the file named in the label: Terraform cannot load this module.
fn language_in_tf(ctx: &Context, block: &Block, file_name: &str) -> Diagnostic {
    let path = &ctx.files.get(block.header_span.file).path;
    let summary = match is_json(path) {
        true => "Extraneous JSON object property",
        false => "Unsupported block type",
    };
    ctx.finding(&RULE, summary)
        .at(
            ctx.files,
            block.header_span,
            format!("`language` block in `{file_name}`: Terraform cannot load this module"),
        )
        .with_note(NOTE)
        .with_help(HELP)
}

/// Moves the block to a new `.tofu` file (`.tofu.json` for a JSON file) of the same directory
/// whose name hides no `.tf` file: `language.tofu`, else `language_2.tofu` and so on.
fn move_to_tofu_file(ctx: &Context, block: &Block) -> Option<Fix> {
    let span = block_removal_span(ctx.files, block)?;
    let file = ctx.files.get(span.file);
    let json = is_json(&file.path);
    let taken = |stem: &str| {
        ["tf", "tf.json", "tofu", "tofu.json"]
            .iter()
            .any(|extension| {
                ctx.overlay
                    .exists(&ctx.dir.join(format!("{stem}.{extension}")))
            })
    };
    let stem = std::iter::once("language".to_string())
        .chain((2..10).map(|n| format!("language_{n}")))
        .find(|stem| !taken(stem))?;
    let text = ctx.files.text(span);
    // The new file is written the way the file the block comes from is: its line ending and,
    // in JSON, its indentation.
    let ending = layout::line_ending(&file.text);
    let (name, content) = if json {
        let indent = layout::indent_unit(&file.text);
        let content = format!("{{{ending}{indent}{text}{ending}}}{ending}");
        (format!("{stem}.tofu.json"), content)
    } else {
        (format!("{stem}.tofu"), format!("{text}{ending}"))
    };
    let create = FileOperation::Create {
        path: file.path.with_file_name(&name),
        content,
    };
    let title = format!("Move the `language` block to `{name}`");
    Some(
        Fix::new(title, Applicability::Unsafe)
            .remove(ctx.files, span)
            .operation(create),
    )
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, TOFU_COMPATIBLE_1_12, check_table, findings};

    const PASS: &[Files] = &[&[
        ("main.tf", "resource \"terraform_data\" \"a\" {}\n"),
        ("versions.tofu", TOFU_COMPATIBLE_1_12),
    ]];
    const FAIL: &[(Files, usize)] = &[
        (&[("versions.tf", TOFU_COMPATIBLE_1_12)], 1),
        (
            &[(
                "versions.tf.json",
                r#"{"language": {"compatible_with": {"opentofu": ">= 1.12"}}}"#,
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// Terraform's own summary for each syntax (hashicorp/hcl's `hclsyntax/structure.go` and
    /// `json/structure.go`), at the block's header.
    #[test]
    fn terraforms_summary() {
        for (files, summary) in FAIL
            .iter()
            .map(|(files, _)| *files)
            .zip(["Unsupported block type", "Extraneous JSON object property"])
        {
            let found = findings(&super::RULE, files);
            assert_eq!(found.len(), 1);
            assert_eq!(found[0].message, summary);
            assert_eq!(found[0].start().0, 1);
        }
    }
}
