//! `depends_on` in a block of an override file that is merged into a `resource`, `data`,
//! `ephemeral`, `module` or `output` block: the tools refuse to override it (`Unsupported
//! override`), at its first element; an empty `depends_on` overrides nothing and is no error.
//! The fix moves it into the base block.

use std::collections::HashSet;

use crate::diagnostic::fix::{is_json, layout};
use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::module::merge::MergeProblem;
use crate::module::merge::problems::DependsOnOverride;
use crate::source::Span;

use crate::lint::{Check, MergeContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_depends_on",
    kind: LoadError,
    summary: "depends_on in an override file",
    fix: Unsafe,
    check: Check::Merge(check),
};

fn check(ctx: &MergeContext, out: &mut Vec<Diagnostic>) {
    for problem in ctx.problems {
        if let MergeProblem::OverrideDependsOn(found) = problem {
            out.push(override_depends_on(ctx, found));
        }
    }
}

/// `Unsupported override`
fn override_depends_on(ctx: &MergeContext, found: &DependsOnOverride) -> Diagnostic {
    ctx.finding(&RULE, "Unsupported override")
        .at(ctx.files, found.at, "`depends_on` in an override")
        .with_label(ctx.files, found.base_header, "base block")
        .with_note("The depends_on argument may not be overridden.")
        .with_help("set `depends_on` in the base block instead")
        .with_fix(move_into_base(ctx, found))
}

/// Moves an override's `depends_on` into its base block: its elements appended to the base's
/// list (those it does not have yet), or the argument added at the end of the base block.
/// Native syntax only, in both files; `None` for a base block on one line or a base
/// `depends_on` that is not a list.
fn move_into_base(ctx: &MergeContext, found: &DependsOnOverride) -> Option<Fix> {
    let files = ctx.files;
    let native = |span: Span| !is_json(&files.get(span.file).path);
    let depends_on = &found.depends_on;
    let items = depends_on.elements.as_deref()?;
    if !native(depends_on.argument) || !native(found.base) {
        return None;
    }
    let text = |span: Span| files.text(span).split_whitespace().collect::<String>();
    let base_file = files.get(found.base.file);
    let fix = Fix::new(
        "Move `depends_on` into the base block",
        Applicability::Unsafe,
    )
    .remove(files, depends_on.argument);
    match &found.base_depends_on {
        Some(existing) => {
            let present = existing.elements.as_deref()?;
            let present: HashSet<String> = present.iter().map(|&e| text(e)).collect();
            let added: Vec<&str> = (items.iter())
                .filter(|&&e| !present.contains(&text(e)))
                .map(|&e| files.text(e))
                .collect();
            if added.is_empty() {
                return Some(fix);
            }
            let list = existing.value.range();
            let (at, insert) = match existing.elements.as_deref()?.last() {
                Some(last) => (last.end as usize, format!(", {}", added.join(", "))),
                None => (list.start + 1, added.join(", ")),
            };
            Some(fix.edit(&base_file.path, at..at, insert))
        }
        None => {
            // Before the base block's closing brace, which must be alone on its line.
            let close = (found.base.end as usize).checked_sub(1)?;
            let line_start = base_file.text[..close].rfind('\n')? + 1;
            let indent = &base_file.text[line_start..close];
            if !indent.trim().is_empty() {
                return None;
            }
            let text = &base_file.text;
            let inner = attribute_indentation(text, found.base.start as usize, line_start)
                .unwrap_or_else(|| format!("{indent}{}", layout::indent_unit(text)));
            let list: Vec<&str> = items.iter().map(|&e| files.text(e)).collect();
            let ending = layout::line_ending(text);
            let line = format!("{inner}depends_on = [{}]{ending}", list.join(", "));
            Some(fix.edit(&base_file.path, line_start..line_start, line))
        }
    }
}

/// The indentation of the line above the base block's closing line (which starts at
/// `closing_line`), when that line is inside the block (after the line of its header, which
/// starts at or before `block_start`) and not blank: an inserted attribute is indented as its
/// neighbour is, tabs or spaces.
fn attribute_indentation(text: &str, block_start: usize, closing_line: usize) -> Option<String> {
    let previous = text[..closing_line.checked_sub(1)?].rfind('\n')? + 1;
    let line = &text[previous..closing_line];
    if previous <= block_start || line.trim().is_empty() {
        return None;
    }
    Some(layout::indentation_at(text, previous).to_string())
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const BASE: &str =
        "resource \"terraform_data\" \"a\" {}\nresource \"terraform_data\" \"b\" {}\n";

    const PASS: &[Files] = &[&[
        ("main.tf", BASE),
        // Empty: overrides nothing.
        (
            "override.tf",
            "resource \"terraform_data\" \"a\" {\n  depends_on = []\n}\n",
        ),
    ]];

    const FAIL: &[(Files, usize)] = &[(
        &[
            ("main.tf", BASE),
            (
                "override.tf",
                "resource \"terraform_data\" \"a\" {\n  depends_on = [terraform_data.b]\n}\n",
            ),
        ],
        1,
    )];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
