//! Hover on an overridden object: where each effective value comes from, read from the merge
//! provenance the effective module carries (each attribute's and nested block's origin, the
//! attribute it replaced, the override blocks merged in, the merge events), as `tflint-merge
//! merged` prints it.

use crate::knowledge::View;
use crate::module::merge::events::{Event, Subject};
use crate::module::merge::{
    MergedAttribute, MergedBlock, MergedBody, MergedObject, Module, Origin,
};
use crate::source::{FileId, SourceFiles, Span};

use super::navigate::Target;

/// What was hovered: an overridden object's header, one of its attributes (effective or
/// replaced) or one of its nested blocks.
enum Hit<'a> {
    Object(&'a MergedObject),
    Attribute(&'a MergedObject, &'a MergedAttribute),
    Block(&'a MergedObject, &'a MergedBlock),
}

/// The hover text (Markdown) for byte `offset` of `file`, from each view's effective module;
/// `None` when the place is not part of an overridden object. Views that say the same thing
/// are shown once.
pub(crate) fn describe(
    modules: &[Module],
    files: &SourceFiles,
    file: FileId,
    offset: usize,
) -> Option<String> {
    per_view(modules, |module| {
        find(module, file, offset).map(|hit| render(&hit, files))
    })
}

/// The hover text for a reference to `target`: what each override contributed to the object
/// or local value it names, as on the object itself; `None` when no override touched it.
pub(crate) fn describe_target(
    modules: &[Module],
    files: &SourceFiles,
    target: &Target,
) -> Option<String> {
    per_view(modules, |module| match target {
        Target::Object(address) | Target::ModuleOutput(address, _) => {
            let object = module.object(address).filter(|o| !o.overrides.is_empty())?;
            Some(render(&Hit::Object(object), files))
        }
        Target::Local(name) => {
            let local = module.local(name)?;
            let attribute = &local.attribute;
            let overridden = attribute.origin == Origin::Override || attribute.replaced.is_some();
            overridden.then(|| {
                format!(
                    "**local value `{name}`**: {}\n\nEffective: {}",
                    place(files, local.declared),
                    attribute_line(files, attribute)
                )
            })
        }
    })
}

/// What `text_of` says of each view's module, each text once with the views that say it.
fn per_view(modules: &[Module], text_of: impl Fn(&Module) -> Option<String>) -> Option<String> {
    let mut shown: Vec<(Vec<View>, String)> = Vec::new();
    for module in modules {
        let Some(text) = text_of(module) else {
            continue;
        };
        match shown.iter_mut().find(|(_, said)| *said == text) {
            Some((views, _)) => views.push(module.view),
            None => shown.push((vec![module.view], text)),
        }
    }
    match shown.as_slice() {
        [] => None,
        [(_, text)] if modules.len() == 1 || shown[0].0.len() == modules.len() => {
            Some(text.clone())
        }
        _ => Some(
            shown
                .iter()
                .map(|(views, text)| {
                    let names: Vec<&str> = views.iter().map(|v| v.tool_name()).collect();
                    format!("_{}:_\n\n{text}", names.join(" and "))
                })
                .collect::<Vec<_>>()
                .join("\n\n---\n\n"),
        ),
    }
}

fn contains(span: Span, file: FileId, offset: usize) -> bool {
    span.file == file && span.range().contains(&offset)
}

fn find(module: &Module, file: FileId, offset: usize) -> Option<Hit<'_>> {
    let overridden = || module.objects.iter().filter(|o| !o.overrides.is_empty());
    overridden()
        .find_map(|object| {
            let headers = std::iter::once(&object.base_header).chain(&object.overrides);
            if headers.into_iter().any(|&h| contains(h, file, offset)) {
                return Some(Hit::Object(object));
            }
            find_in_body(object, &object.body, file, offset)
        })
        .or_else(|| replaced_further_back(module, file, offset))
}

/// An attribute replaced by an override and again by a later one: the merge events lead from
/// it to the attribute in effect.
fn replaced_further_back(module: &Module, file: FileId, offset: usize) -> Option<Hit<'_>> {
    let replacements: Vec<(&Subject, Span, Span)> = (module.events.iter())
        .filter_map(|event| match event {
            Event::AttributeReplaced {
                address, new, old, ..
            } => Some((address, *old, *new)),
            _ => None,
        })
        .collect();
    let &(subject, _, mut span) = replacements
        .iter()
        .find(|(_, old, _)| contains(*old, file, offset))?;
    // Each replacement is recorded once, and a later one starts from an earlier one's `new`:
    // the chain ends after at most as many steps as there are replacements.
    for _ in 0..replacements.len() {
        match replacements.iter().find(|(_, old, _)| *old == span) {
            Some(&(_, _, newer)) => span = newer,
            None => break,
        }
    }
    let object = module.object(subject.address()?)?;
    let start = span.start as usize;
    match find_in_body(object, &object.body, span.file, start)? {
        hit @ Hit::Attribute(..) => Some(hit),
        _ => None,
    }
}

fn find_in_body<'a>(
    object: &'a MergedObject,
    body: &'a MergedBody,
    file: FileId,
    offset: usize,
) -> Option<Hit<'a>> {
    for attribute in &body.attributes {
        let replaced = attribute
            .replaced
            .is_some_and(|r| contains(r, file, offset));
        if contains(attribute.span(), file, offset) || replaced {
            return Some(Hit::Attribute(object, attribute));
        }
    }
    for block in &body.blocks {
        if contains(block.header_span, file, offset) {
            return Some(Hit::Block(object, block));
        }
        if contains(block.header_span.to(block.body_span), file, offset) {
            return find_in_body(object, &block.body, file, offset);
        }
    }
    None
}

/// `override.tf:3`.
fn place(files: &SourceFiles, span: Span) -> String {
    let file = files.get(span.file);
    format!(
        "{}:{}",
        file.file_name(),
        file.line_col(span.start as usize).0
    )
}

fn origin(origin: Origin) -> &'static str {
    match origin {
        Origin::Base => "base file",
        Origin::Override => "override file",
    }
}

/// The value as written, on one line and cut short.
fn value(files: &SourceFiles, attribute: &MergedAttribute) -> String {
    const MAX: usize = 60;
    let text: String = files
        .text(attribute.value_span())
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

fn attribute_line(files: &SourceFiles, attribute: &MergedAttribute) -> String {
    let mut line = format!(
        "`{}` = `{}` — {} ({})",
        attribute.name,
        value(files, attribute),
        place(files, attribute.name_span),
        origin(attribute.origin)
    );
    if let Some(replaced) = attribute.replaced {
        line.push_str(&format!(", replacing {}", place(files, replaced)));
    }
    line
}

fn render(hit: &Hit, files: &SourceFiles) -> String {
    match hit {
        Hit::Object(object) => {
            let mut out = title(files, object);
            out.push_str("\n\nEffective values:\n");
            for attribute in &object.body.attributes {
                out.push_str(&format!("- {}\n", attribute_line(files, attribute)));
            }
            for block in &object.body.blocks {
                out.push_str(&format!(
                    "- `{}` block — {} ({})\n",
                    block.effective_kind(),
                    place(files, block.header_span),
                    origin(block.origin)
                ));
            }
            out
        }
        Hit::Attribute(object, attribute) => format!(
            "{}\n\nEffective: {}",
            title(files, object),
            attribute_line(files, attribute)
        ),
        Hit::Block(object, block) => format!(
            "{}\n\nEffective `{}` block: {} ({})",
            title(files, object),
            block.effective_kind(),
            place(files, block.header_span),
            origin(block.origin)
        ),
    }
}

/// `**resource `aws_instance.web`**: main.tf:1, overridden by override.tf:1`.
fn title(files: &SourceFiles, object: &MergedObject) -> String {
    let overrides: Vec<String> = object.overrides.iter().map(|&s| place(files, s)).collect();
    let base = place(files, object.base_header);
    if object.overrides == [object.base_header] {
        return format!(
            "**{}**: defined by the override {base}",
            object.address.describe()
        );
    }
    format!(
        "**{}**: {base}, overridden by {}",
        object.address.describe(),
        overrides.join(", then ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::RuleSettings;
    use crate::lint::directory::{Options, ViewSelection, check_directory};
    use crate::rules;

    /// `main_override.tofu` is loaded by OpenTofu only, and merged before `override.tf` (override
    /// files merge in name order): the views differ, and each says so. The base's `x` was
    /// replaced twice in OpenTofu: the merge events lead to the value in effect.
    #[test]
    fn views_that_differ_are_shown_apart() {
        let dir = tempfile::tempdir().expect("tempdir");
        let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text);
        write("main.tf", "resource \"a\" \"b\" {\n  x = 1\n  y = 2\n}\n").expect("write");
        let over = "resource \"a\" \"b\" {\n  x = 3\n  ebs {\n    size = 2\n  }\n}\n";
        write("override.tf", over).expect("write");
        write("main_override.tofu", "resource \"a\" \"b\" {\n  x = 4\n}\n").expect("write");
        let settings = RuleSettings::defaults(rules::registry());
        let result = check_directory(dir.path(), &Options::new(ViewSelection::Both, settings));
        let (main, _) = (result.files.iter())
            .find(|(_, f)| f.file_name() == "main.tf")
            .expect("main.tf");
        // On `x` of the base, which both views replace, each in its own way.
        let text = describe(&result.modules, &result.files, main, 21).expect("a hover");
        assert_eq!(
            text,
            "_Terraform:_\n\n**resource `a.b`**: main.tf:1, overridden by override.tf:1\n\n\
             Effective: `x` = `3` — override.tf:2 (override file), replacing main.tf:2\n\n---\n\n\
             _OpenTofu:_\n\n**resource `a.b`**: main.tf:1, overridden by main_override.tofu:1, \
             then override.tf:1\n\nEffective: `x` = `3` — override.tf:2 (override file), \
             replacing main_override.tofu:2"
        );
        // On `y`, which no override touches: from the base in both views (whose overrides
        // differ).
        let text = describe(&result.modules, &result.files, main, 29).expect("a hover");
        let line = "Effective: `y` = `2` — main.tf:3 (base file)";
        assert_eq!(text.matches(line).count(), 2, "{text}");
        // On a nested block the override adds.
        let (over, file) = (result.files.iter())
            .find(|(_, f)| f.file_name() == "override.tf")
            .expect("override.tf");
        let at = file.text.find("ebs").expect("the block");
        let text = describe(&result.modules, &result.files, over, at).expect("a hover");
        assert!(
            text.ends_with("Effective `ebs` block: override.tf:3 (override file)"),
            "{text}"
        );
        // Outside any overridden object: nothing.
        assert_eq!(describe(&result.modules, &result.files, main, 10_000), None);
    }
}
