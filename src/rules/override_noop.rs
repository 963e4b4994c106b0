//! An override that changes nothing: settings restated with the value they already have, or an
//! override block with nothing in it. Both hide the next real change to the base. Reported once
//! per override block (naming every restated setting), or once per file when nothing in the
//! file changes its base, so that a copy-pasted override file gives one finding, not one per
//! argument.

use std::collections::{HashMap, HashSet};

use crate::diagnostic::fix::FileOperation;
use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::lint::helpers::block_removal_span;
use crate::module::merge::events::{Event, Subject};
use crate::module::merge::{Address, LoadedFile};
use crate::source::{FileId, Span};
use crate::syntax::{Block, Body};

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_noop",
    severity: Warning,
    default: On,
    summary: "an override that changes nothing",
    fix: SafeOrUnsafe,
    check: Check::View(RuleViews::Both, check),
};

const RESTATED_NOTE: &str = "An override that restates the base value changes nothing, and \
                             hides the next real change to the base: the override will \
                             silently keep the old value.";

/// A setting of an override block set to the value it already had.
struct Restated<'a> {
    name: &'a str,
    new: Span,
    old: Span,
    /// The value restated came from an earlier override, not the base: `override_shadowed`
    /// reports (and its fix removes) that earlier setting, so this one must stay.
    from_override: bool,
    /// Both values are written alike (`[1, 2]` twice, not `[ 1,2 ]` or a JSON `"${...}"`
    /// over a native expression): without the override, `merged` prints the same text.
    written_alike: bool,
}

/// What merging did with one top-level block of an override file.
#[derive(Default)]
struct OverrideBlock<'a> {
    /// What the block overrides, and the base block's header, when it was merged into one.
    applied: Option<(&'a Subject, Span)>,
    restated: Vec<Restated<'a>>,
}

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let mut restated_spans = HashSet::new();
    let mut by_file: HashMap<FileId, FileBlocks> = ctx
        .overrides
        .iter()
        .map(|f| (f.file.id, FileBlocks::new(f)))
        .collect();
    for event in &ctx.module.events {
        match event {
            Event::OverrideApplied {
                address,
                override_span,
                base_header,
                ..
            } => {
                let block = by_file
                    .get_mut(&override_span.file)
                    .and_then(|f| f.applied_at(*override_span));
                if let Some(block) = block {
                    block.applied = Some((address, *base_header));
                }
            }
            // A provider override must restate `alias`: it is how the override names its target.
            Event::AttributeReplaced { address, name, .. } if is_provider_alias(address, name) => {}
            // A default set in an override is converted without the `optional()` defaults of
            // the type, so restating it can change the value: not a no-op.
            Event::AttributeReplaced { address, name, .. }
                if name == "default" && default_differs(ctx, address) => {}
            // A variable block decodes its `type` and `default` together: restating one next
            // to the other it changes is not a no-op.
            Event::AttributeReplaced {
                address, name, new, ..
            } if decoded_with_its_pair(ctx, address, name, *new) => {}
            Event::AttributeReplaced {
                name,
                new,
                old,
                identical: true,
                old_from_override,
                ..
            } => {
                restated_spans.insert(*new);
                let block = by_file.get_mut(&new.file).and_then(|f| f.holding(*new));
                if let Some(block) = block {
                    let (new, old) = (*new, *old);
                    let from_override = *old_from_override;
                    let written_alike = value_text(ctx, new) == value_text(ctx, old);
                    block.restated.push(Restated {
                        name,
                        new,
                        old,
                        from_override,
                        written_alike,
                    });
                }
            }
            _ => {}
        }
    }
    for loaded in ctx.overrides {
        if let Some(blocks) = by_file.remove(&loaded.file.id) {
            report_file(ctx, loaded, blocks, &restated_spans, out);
        }
    }
}

/// The value of a setting (`name = value`, or a JSON `"name": value`) as written.
fn value_text<'a>(ctx: &'a Context, setting: Span) -> Option<&'a str> {
    let text = ctx.files.text(setting);
    let value = match text.strip_prefix('"') {
        // A JSON key: its closing quote is the first one no backslash escapes.
        Some(key) => {
            let mut escaped = false;
            let end = key.char_indices().find_map(|(i, c)| {
                let closing = c == '"' && !escaped;
                escaped = c == '\\' && !escaped;
                closing.then_some(i)
            })?;
            key[end + 1..].trim_start().strip_prefix(':')?
        }
        None => text.split_once('=')?.1,
    };
    Some(value.trim())
}

/// Whether merging gave a variable a default other than its `default` expression decodes to.
fn default_differs(ctx: &Context, address: &Subject) -> bool {
    let object = address.address().and_then(|a| ctx.module.object(a));
    object.is_some_and(|o| o.default_value.is_some())
}

/// Whether `name` is a variable's `type` or `default` set (at `setting`) by an override block
/// that sets the other too. Terraform decodes each block's default with that block's own type,
/// `optional()` attribute defaults included (`decodeVariableBlock`,
/// `internal/configs/named_values.go`), and converts the merged default to the merged type
/// without them (`Variable.merge`, `module_merge.go`): so with base `default = { a = "x" }`,
/// an override restating it next to `type = object({ a = string, b = optional(string, "d") })`
/// sets `b` to `"d"`, and without it `b` would be null.
fn decoded_with_its_pair(ctx: &Context, address: &Subject, name: &str, setting: Span) -> bool {
    let pair = match name {
        "type" => "default",
        "default" => "type",
        _ => return false,
    };
    if !matches!(address.address(), Some(Address::Variable(_))) {
        return false;
    }
    let blocks = ctx.overrides.iter().filter(|f| f.file.id == setting.file);
    let mut blocks = blocks.flat_map(|f| f.file.body.blocks.iter());
    blocks.any(|b| {
        b.body_span.start <= setting.start
            && setting.end <= b.body_span.end
            && b.body.attribute(pair).is_some()
    })
}

/// Whether `name` is the `alias` of a provider configuration.
fn is_provider_alias(address: &Subject, name: &str) -> bool {
    name == "alias" && matches!(address.address(), Some(Address::Provider(..)))
}

/// The top-level blocks of one override file, with what merging did with each.
struct FileBlocks<'a> {
    /// Sorted by the start of the body; top-level bodies never overlap.
    blocks: Vec<(&'a Block, OverrideBlock<'a>)>,
    /// Index in `blocks` by the whole block's span, as `OverrideApplied` names it.
    by_span: HashMap<Span, usize>,
}

impl<'a> FileBlocks<'a> {
    fn new(loaded: &LoadedFile<'a>) -> Self {
        let mut blocks: Vec<_> = (loaded.file.body.blocks.iter())
            .map(|b| (b, OverrideBlock::default()))
            .collect();
        blocks.sort_by_key(|(b, _)| b.body_span.start);
        let by_span = (blocks.iter().enumerate())
            .map(|(i, (b, _))| (b.span(), i))
            .collect();
        FileBlocks { blocks, by_span }
    }

    fn applied_at(&mut self, span: Span) -> Option<&mut OverrideBlock<'a>> {
        let index = *self.by_span.get(&span)?;
        Some(&mut self.blocks[index].1)
    }

    /// The block whose body holds `span`, found by binary search.
    fn holding(&mut self, span: Span) -> Option<&mut OverrideBlock<'a>> {
        let after = (self.blocks).partition_point(|(b, _)| b.body_span.start <= span.start);
        let (block, state) = &mut self.blocks[after.checked_sub(1)?];
        (block.body_span.end >= span.end).then_some(state)
    }
}

/// Reports one file: once if none of its blocks changes anything, else once per block that
/// restates settings or is empty.
fn report_file(
    ctx: &Context,
    loaded: &LoadedFile,
    blocks: FileBlocks,
    restated_spans: &HashSet<Span>,
    out: &mut Vec<Diagnostic>,
) {
    let judged: Vec<_> = (blocks.blocks.into_iter())
        .map(|(block, state)| {
            let noop = changes_nothing(block, &state, restated_spans);
            (block, state, noop)
        })
        .collect();
    if !judged.is_empty() && judged.iter().all(|(_, _, noop)| *noop) {
        let blocks: Vec<_> = judged.iter().map(|(b, s, _)| (*b, s)).collect();
        out.push(whole_file(ctx, loaded, &blocks));
        return;
    }
    for (block, state, noop) in &judged {
        match (noop, state.applied) {
            (true, Some((address, base))) if state.restated.is_empty() => {
                out.push(empty_override(ctx, address, block, base));
            }
            (true, _) => out.push(block_restates_base(ctx, block, state)),
            (false, _) if !state.restated.is_empty() => {
                out.push(restated_settings(ctx, block, state));
            }
            (false, _) => {}
        }
    }
}

/// Whether an override block changes nothing: it was merged (or is a `terraform` or `locals`
/// block whose settings were), and every argument in it, at any depth, restates its base. A
/// nested block other than `lifecycle` and `required_providers` counts as a change: it
/// replaces the base's blocks of its type.
fn changes_nothing(block: &Block, state: &OverrideBlock, restated: &HashSet<Span>) -> bool {
    fn covered(body: &Body, restated: &HashSet<Span>, provider: bool) -> bool {
        let attributes = (body.attributes.iter())
            .all(|a| restated.contains(&a.span()) || (provider && a.name == "alias"));
        attributes
            && (body.blocks.iter()).all(|b| {
                matches!(b.kind.as_str(), "lifecycle" | "required_providers")
                    && covered(&b.body, restated, false)
            })
    }
    let merged = state.applied.is_some() || !state.restated.is_empty();
    merged && covered(&block.body, restated, block.kind == "provider")
}

/// How a block is named in messages: ``override of resource `x.y` ``, or by its type for the
/// blocks merged setting by setting (``the `locals` override block``).
fn describe(block: &Block, state: &OverrideBlock) -> String {
    match state.applied {
        Some((address, _)) => format!("override of {}", address.describe()),
        None => format!("the `{}` override block", block.kind),
    }
}

/// The restated names, as `` `a`, `b` and `c` ``.
fn names(restated: &[Restated]) -> String {
    let names: Vec<String> = restated.iter().map(|r| format!("`{}`", r.name)).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// A label on each restated setting and on the base value it repeats.
fn with_restated_labels(ctx: &Context, finding: Diagnostic, restated: &[Restated]) -> Diagnostic {
    restated.iter().fold(finding, |finding, r| {
        finding
            .with_label(ctx.files, r.new, format!("`{}` restated", r.name))
            .with_label(ctx.files, r.old, "already set here")
    })
}

/// `` override of resource `x.y` sets `a` and `b` to the values they already have ``
fn restated_settings(ctx: &Context, block: &Block, state: &OverrideBlock) -> Diagnostic {
    let (names, count) = (names(&state.restated), state.restated.len());
    let values = if count == 1 {
        "the value it already has"
    } else {
        "the values they already have"
    };
    let message = format!("{} sets {names} to {values}", describe(block, state));
    let finding =
        ctx.finding(&RULE, message)
            .at(ctx.files, block.header_span, "restates part of its base");
    with_restated_labels(ctx, finding, &state.restated)
        .with_note(RESTATED_NOTE)
        .with_help(format!(
            "remove {names} from the override; its other settings still change the base"
        ))
        .with_fix(restated_removal(ctx, &state.restated))
}

/// Removes the settings that restate the base; those that restate an earlier override stay
/// (that override's setting is what `override_shadowed`'s fix removes).
fn restated_removal(ctx: &Context, restated: &[Restated]) -> Option<Fix> {
    let removable: Vec<&Restated> = restated.iter().filter(|r| !r.from_override).collect();
    if removable.is_empty() {
        return None;
    }
    let names: Vec<String> = removable.iter().map(|r| format!("`{}`", r.name)).collect();
    let title = format!("Remove the restated {}", names.join(", "));
    let applicability = applicability(removable.iter().copied());
    let fix = (removable.iter()).fold(Fix::new(title, applicability), |fix, r| {
        fix.remove_with_comments(ctx.files, r.new)
    });
    Some(fix)
}

/// Safe when every restated value is written as the value it restates, so that `merged`
/// prints the same module; unsafe when it is only equal (`[ 1,2 ]` for `[1, 2]`): the printed
/// text would change, though not the value.
fn applicability<'a>(mut restated: impl Iterator<Item = &'a Restated<'a>>) -> Applicability {
    if restated.all(|r| r.written_alike) {
        Applicability::Safe
    } else {
        Applicability::Unsafe
    }
}

/// Whether a block restates what an earlier override set: removing it would change the
/// module once `override_shadowed`'s fix removes that earlier setting.
fn restates_an_override(state: &OverrideBlock) -> bool {
    state.restated.iter().any(|r| r.from_override)
}

/// The fix that removes a whole override block, when its text can be cut out.
fn block_removal(
    ctx: &Context,
    block: &Block,
    restated: &[Restated],
    title: String,
) -> Option<Fix> {
    let span = block_removal_span(ctx.files, block)?;
    let applicability = applicability(restated.iter());
    Some(Fix::new(title, applicability).remove_with_comments(ctx.files, span))
}

/// `` override of resource `x.y` changes nothing: it only restates its base ``
fn block_restates_base(ctx: &Context, block: &Block, state: &OverrideBlock) -> Diagnostic {
    let message = format!(
        "{} changes nothing: it only restates its base",
        describe(block, state)
    );
    let finding = ctx
        .finding(&RULE, message)
        .at(ctx.files, block.header_span, "changes nothing");
    let finding = with_restated_labels(ctx, finding, &state.restated)
        .with_note(RESTATED_NOTE)
        .with_help("remove this override block");
    if restates_an_override(state) {
        return finding;
    }
    let title = format!("Remove the {}", describe(block, state));
    finding.with_fix(block_removal(ctx, block, &state.restated, title))
}

/// `` empty override of resource `x.y` changes nothing ``
fn empty_override(
    ctx: &Context,
    address: &Subject,
    block: &Block,
    base_header: Span,
) -> Diagnostic {
    let message = format!("empty override of {} changes nothing", address.describe());
    let finding = ctx
        .finding(&RULE, message)
        .at(ctx.files, block.header_span, "empty override block")
        .with_label(ctx.files, base_header, "base block")
        .with_note("An override block only changes what it sets; this one sets nothing.")
        .with_help("remove the empty override block");
    let title = format!("Remove the empty override of {}", address.describe());
    finding.with_fix(block_removal(ctx, block, &[], title))
}

/// `` override file `x_override.tf` changes nothing: every block in it restates its base ``
fn whole_file(
    ctx: &Context,
    loaded: &LoadedFile,
    blocks: &[(&Block, &OverrideBlock)],
) -> Diagnostic {
    let name = ctx.files.get(loaded.file.id).file_name();
    let message = format!("override file `{name}` changes nothing: it only restates its base");
    let mut finding = ctx.finding(&RULE, message);
    for (i, (block, state)) in blocks.iter().enumerate() {
        let label = match state.applied {
            Some((address, _)) if state.restated.is_empty() => {
                format!("empty override of {}", address.describe())
            }
            Some((address, _)) => format!("restates {}", address.describe()),
            None => "restates its base".to_string(),
        };
        finding = if i == 0 {
            finding.at(ctx.files, block.header_span, label)
        } else {
            finding.with_label(ctx.files, block.header_span, label)
        };
    }
    let path = ctx.files.get(loaded.file.id).path.clone();
    let restated = blocks.iter().flat_map(|(_, state)| &state.restated);
    let deletion = Fix::new(format!("Delete `{name}`"), applicability(restated))
        .operation(FileOperation::Delete { path });
    let removable = !blocks.iter().any(|(_, state)| restates_an_override(state));
    finding
        .with_note(RESTATED_NOTE)
        .with_help(format!(
            "delete `{name}`: the module is the same without it"
        ))
        .with_fix(removable.then_some(deletion))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const BASE: &str = "resource \"terraform_data\" \"x\" {\n  input = [1, 2]\n}\n";

    const PROVIDER: &str = "provider \"aws\" {\n  alias  = \"us\"\n  region = \"us-east-1\"\n}\n";

    const JSON_VARIABLE: &str = r#"{"variable": {"v": {"default": "a"}}}"#;

    /// A variable whose type has an `optional()` default.
    const OPTIONAL: &str = concat!(
        "variable \"v\" {\n",
        "  type    = object({ a = string, b = optional(string, \"d\") })\n",
        "  default = { a = \"x\" }\n",
        "}\n",
    );

    const PASS: &[Files] = &[
        // The override's type and default are decoded together: its restated default gets the
        // type's `optional()` default (`b = "dflt"`); without it, the base default converted
        // to that type has `b = null`.
        &[
            (
                "main.tf",
                "variable \"v\" {\n  type    = any\n  default = { a = \"x\" }\n}\n",
            ),
            (
                "main_override.tf",
                "variable \"v\" {\n  type    = object({ a = string, b = optional(string, \"dflt\") })\n  default = { a = \"x\" }\n}\n",
            ),
        ],
        // JSON variable defaults are read literally: `"$${x}"` is the text `$${x}`, where the
        // native `"$${x}"` is `${x}`; and `"${1}"` is the text `${1}`, not the number 1.
        &[
            ("main.tf", "variable \"v\" {\n  default = \"$${x}\"\n}\n"),
            (
                "main_override.tf.json",
                "{\"variable\": {\"v\": {\"default\": \"$${x}\"}}}\n",
            ),
        ],
        &[
            ("main.tf", "variable \"v\" {\n  default = 1\n}\n"),
            (
                "main_override.tf.json",
                "{\"variable\": {\"v\": {\"default\": \"${1}\"}}}\n",
            ),
        ],
        // An output's description likewise.
        &[
            (
                "main.tf",
                "output \"o\" {\n  value       = 1\n  description = \"$${x}\"\n}\n",
            ),
            (
                "main_override.tf.json",
                "{\"output\": {\"o\": {\"description\": \"$${x}\"}}}\n",
            ),
        ],
        // Restating such a variable's default changes it: an override's default is converted
        // without the `optional()` defaults (`b` is null, not "d").
        &[
            ("main.tf", OPTIONAL),
            (
                "override.tf",
                "variable \"v\" {\n  default = { a = \"x\" }\n}\n",
            ),
        ],
        &[
            ("main.tf", BASE),
            (
                "override.tf",
                "resource \"terraform_data\" \"x\" {\n  input = [1, 3]\n}\n",
            ),
        ],
        // Same value written differently is still a change of text we don't judge.
        &[
            ("main.tf", BASE),
            (
                "override.tf",
                "resource \"terraform_data\" \"x\" {\n  input = tolist([1, 2])\n}\n",
            ),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("main.tf", BASE),
                (
                    "override.tf",
                    "resource \"terraform_data\" \"x\" {\n  input = [ 1,2 ]\n}\n",
                ),
            ],
            1,
        ),
        (
            &[
                ("main.tf", BASE),
                ("override.tf", "resource \"terraform_data\" \"x\" {}\n"),
            ],
            1,
        ),
        // An aliased provider override restates its alias: only `region` is a no-op.
        (&[("main.tf", PROVIDER), ("override.tf", PROVIDER)], 1),
        (
            &[
                ("main.tf", BASE),
                (
                    "override.tf.json",
                    r#"{"resource": {"terraform_data": {"x": {}}}}"#,
                ),
            ],
            1,
        ),
        // A `locals` override block restating one local, beside a block that changes a value:
        // the `locals` block is reported on its own.
        (
            &[
                ("main.tf", "locals {\n  a = 1\n  b = 2\n}\n"),
                (
                    "override.tf",
                    "locals {\n  a = 1\n}\nvariable \"v\" {\n  default = 1\n}\n",
                ),
                ("variables.tf", "variable \"v\" {}\n"),
            ],
            1,
        ),
        // A JSON value equal to the JSON base value.
        (
            &[
                ("main.tf.json", JSON_VARIABLE),
                ("override.tf.json", JSON_VARIABLE),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    const TWO: &str = concat!(
        "resource \"terraform_data\" \"x\" {\n  input = 1\n  triggers_replace = 2\n}\n",
        "variable \"v\" {\n  default = 1\n}\n",
    );

    fn only(files: Files) -> crate::diagnostic::Diagnostic {
        let mut found = findings(&super::RULE, files);
        assert_eq!(found.len(), 1, "one finding, for both views: {found:#?}");
        found.pop().expect("a finding")
    }

    #[test]
    fn a_file_that_restates_its_base_is_one_finding() {
        let finding = only(&[("main.tf", TWO), ("main_override.tf", TWO)]);
        assert_eq!(
            finding.message,
            "override file `main_override.tf` changes nothing: it only restates its base"
        );
        assert_eq!(
            finding.help.as_deref(),
            Some("delete `main_override.tf`: the module is the same without it")
        );
        assert_eq!(finding.secondary.len(), 1, "the second block is a label");
    }

    #[test]
    fn a_block_that_restates_its_base_is_one_finding() {
        let over = TWO.replace("default = 1", "default = 5");
        let finding = only(&[("main.tf", TWO), ("override.tf", &over)]);
        assert_eq!(
            finding.message,
            "override of resource `terraform_data.x` changes nothing: it only restates its base"
        );
        assert_eq!(finding.help.as_deref(), Some("remove this override block"));
        assert_eq!(
            finding.secondary.len(),
            4,
            "each setting and its base value"
        );
    }

    #[test]
    fn restated_settings_beside_real_changes_are_one_finding() {
        let over = TWO
            .replace("input = 1", "input = 7")
            .replace("default = 1", "default = 5");
        let finding = only(&[("main.tf", TWO), ("override.tf", &over)]);
        assert_eq!(
            finding.message,
            "override of resource `terraform_data.x` sets `triggers_replace` to the value it \
             already has"
        );
        assert_eq!(
            finding.help.as_deref(),
            Some(
                "remove `triggers_replace` from the override; its other settings still change \
                  the base"
            )
        );
    }

    #[test]
    fn a_fix_is_safe_only_when_merged_prints_the_same() {
        use crate::diagnostic::Applicability::{Safe, Unsafe};
        let applicability = |over: &str| {
            let finding = only(&[("main.tf", BASE), ("override.tf", over)]);
            finding.fix.map(|fix| fix.applicability)
        };
        let same = "resource \"terraform_data\" \"x\" {\n  input = [1, 2]\n}\n";
        assert_eq!(applicability(same), Some(Safe));
        let spaced = "resource \"terraform_data\" \"x\" {\n  input = [ 1,2 ]\n}\n";
        assert_eq!(applicability(spaced), Some(Unsafe));
    }

    /// Removing the only block of a JSON label object removes the object's member too:
    /// `"terraform_data": {}` has no label, which is an error.
    #[test]
    fn a_json_block_goes_with_the_label_objects_it_leaves_empty() {
        let over = concat!(
            "{\"resource\": {\"terraform_data\": {\"x\": {}}},\n",
            " \"variable\": {\"v\": {\"default\": 2}}}\n",
        );
        let files = [
            ("main.tf", BASE),
            ("variables.tf", "variable \"v\" {}\n"),
            ("override.tf.json", over),
        ];
        let finding = only(&files);
        let fix = finding.fix.expect("a fix");
        let mut text = over.to_string();
        let edit = &fix.edits[0];
        text.replace_range(edit.range.clone(), &edit.replacement);
        assert_eq!(text, "{\"variable\": {\"v\": {\"default\": 2}}}\n");
    }

    /// A setting that restates an earlier override stays: `override_shadowed`'s fix removes
    /// the earlier one, and removing both would drop the value.
    #[test]
    fn restating_an_earlier_override_has_no_fix() {
        let a = "resource \"terraform_data\" \"x\" {\n  input = 5\n}\n";
        let finding = only(&[
            ("main.tf", BASE),
            ("a_override.tf", a),
            ("b_override.tf", a),
        ]);
        assert!(finding.fix.is_none(), "{finding:#?}");
    }

    /// Many override blocks, each matched to its own base block. How the time grows with their
    /// number is measured by `scripts/bench.sh` (its many-overrides tree), not here: a timed
    /// test fails on a busy machine.
    #[test]
    fn many_override_blocks_each_restate_their_own_base() {
        let count = 2_000;
        let base: String = (0..count)
            .map(|i| format!("variable \"v{i}\" {{\n  default = {i}\n}}\n"))
            .collect();
        let over = base.replace("default = 1", "default = 9");
        let found = findings(&super::RULE, &[("main.tf", &base), ("override.tf", &over)]);
        // Every `default` not starting with a 1 is restated: 2000 - (1 + 10 + 100 + 1000).
        assert_eq!(found.len(), 889);
    }
}
