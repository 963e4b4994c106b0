//! An object constructor or map that sets the same key twice (`{ min_size = 2, min_size = 4 }`).
//! Terraform and OpenTofu keep the later value without a word, so the first one is dead code
//! that readers take for the setting. With different values it is a warning; with equal ones,
//! a leftover of a copy and paste, a notice.

use foldhash::HashMap;

use crate::diagnostic::fix::list_item_removal;
use crate::diagnostic::{Applicability, Diagnostic, Fix, Severity};
use crate::source::Syntax;
use crate::syntax::{Block, Expr, ExprKind, ObjectItem};

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "object_duplicate_key",
    severity: Warning,
    default: On,
    summary: "an object that sets the same key twice",
    fix: SafeOrUnsafe,
    check: Check::View(RuleViews::Both, check),
};

const NOTE: &str = "In an object constructor the later of two equal keys wins, silently: the \
                    earlier entry is never used, yet it reads as the setting.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    // JSON files are left out: there an object's keys are JSON properties, which the JSON
    // reader of the tools judges on its own terms.
    let native = ctx.primary.iter().chain(ctx.overrides.iter());
    for loaded in native.filter(|f| f.extension.syntax() == Syntax::Native) {
        let body = &loaded.file.body;
        for attribute in &body.attributes {
            walk_expr(ctx, &attribute.expr, out);
        }
        for block in &body.blocks {
            walk_block(ctx, block, out);
        }
    }
}

fn walk_block(ctx: &Context, block: &Block, out: &mut Vec<Diagnostic>) {
    for attribute in &block.body.attributes {
        // A module call's `providers` map is judged when the module loads (OpenTofu refuses a
        // repeated provider address): a load error, not this rule's finding.
        if block.kind == "module" && attribute.name == "providers" {
            continue;
        }
        // A variable's type constraint refuses a repeated attribute (`object({ a = string,
        // a = number })`): a load error of `type_constraint_invalid`, where no later one wins.
        if block.kind == "variable" && attribute.name == "type" {
            continue;
        }
        walk_expr(ctx, &attribute.expr, out);
    }
    for nested in &block.body.blocks {
        walk_block(ctx, nested, out);
    }
}

/// Checks every object constructor in `expr`, at any depth the model shows (most expressions
/// hold none: they are not walked).
fn walk_expr(ctx: &Context, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if !expr.holds_objects() {
        return;
    }
    if let ExprKind::Object(items) = &expr.kind {
        check_object(ctx, items, out);
    }
    expr.for_each_child(|child| walk_expr(ctx, child, out));
}

/// A key written as a name or a plain string: the same key either way (`a` is `"a"`). Keys that
/// are expressions (`(var.name)`, `"${x}"`) are not known before evaluation.
fn static_key(key: &Expr) -> Option<&str> {
    match &key.kind {
        ExprKind::Variable(name) | ExprKind::String(name) => Some(name),
        _ => None,
    }
}

/// Reports each entry whose key an earlier entry of the same object already set.
fn check_object(ctx: &Context, items: &[ObjectItem], out: &mut Vec<Diagnostic>) {
    // Most objects are small: they are searched without a map, which would cost an allocation
    // for every object of every file.
    const SMALL: usize = 8;
    let mut seen: HashMap<&str, &ObjectItem> = HashMap::default();
    for (index, item) in items.iter().enumerate() {
        let Some(key) = static_key(&item.key) else {
            continue;
        };
        let earlier = if items.len() <= SMALL {
            (items[..index].iter())
                .rev()
                .find(|earlier| static_key(&earlier.key) == Some(key))
        } else {
            seen.insert(key, item)
        };
        if let Some(earlier) = earlier {
            out.push(if earlier.value.same_as(&item.value, ctx.files) {
                same_value_again(ctx, key, earlier, item)
            } else {
                overridden(ctx, key, earlier, item)
            });
        }
    }
}

/// `` key `min_size` is set twice in this object: the later value wins ``
fn overridden(ctx: &Context, key: &str, earlier: &ObjectItem, later: &ObjectItem) -> Diagnostic {
    let message = format!("key `{key}` is set twice in this object: the later value wins");
    ctx.finding(&RULE, message)
        .at(
            ctx.files,
            later.key.span.to(later.value.span),
            "this value is used",
        )
        .with_label(
            ctx.files,
            earlier.key.span.to(earlier.value.span),
            "this one is ignored",
        )
        .with_note(NOTE)
        .with_help(format!(
            "keep one `{key}` entry, with the value that should apply"
        ))
        .with_fix(remove_earlier(
            ctx,
            earlier,
            format!("Keep the later `{key}`, the value that is used"),
            Applicability::Unsafe,
        ))
}

/// Removes the earlier entry, with its comma (the later one is what the tools use).
fn remove_earlier(
    ctx: &Context,
    earlier: &ObjectItem,
    title: String,
    applicability: Applicability,
) -> Fix {
    let span = earlier.key.span.to(earlier.value.span);
    let file = ctx.files.get(span.file);
    let range = list_item_removal(&file.text, span.range());
    Fix::new(title, applicability).edit(&file.path, range, "")
}

/// `` key `location` is set twice in this object, to the same value ``
fn same_value_again(
    ctx: &Context,
    key: &str,
    earlier: &ObjectItem,
    later: &ObjectItem,
) -> Diagnostic {
    let message = format!("key `{key}` is set twice in this object, to the same value");
    ctx.finding(&RULE, message)
        .with_severity(Severity::Notice)
        .at(ctx.files, later.key.span.to(later.value.span), "set again")
        .with_label(
            ctx.files,
            earlier.key.span.to(earlier.value.span),
            "first set here",
        )
        .with_note(NOTE)
        .with_help(format!("remove one of the two `{key}` entries"))
        .with_fix(remove_earlier(
            ctx,
            earlier,
            format!("Remove the first `{key}`"),
            Applicability::Safe,
        ))
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity;
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "locals {\n  a = { x = 1, y = 2, \"z\" = 3 }\n}\n",
        )],
        // Keys that are expressions are not compared.
        &[(
            "main.tf",
            "locals {\n  a = { (var.k) = 1, (var.k) = 2 }\n}\n",
        )],
        // Equal keys in different objects.
        &[("main.tf", "locals {\n  a = [{ x = 1 }, { x = 2 }]\n}\n")],
        // A module call's `providers` map is a load error's business.
        &[(
            "main.tf",
            "module \"m\" {\n  source = \"./m\"\n  providers = { aws = aws, aws = aws.b }\n}\n",
        )],
        // JSON objects are left to the JSON reader.
        &[("main.tf.json", r#"{"locals": {"a": {"x": 1, "x": 2}}}"#)],
        // A type constraint's repeated attribute is a load error (`type_constraint_invalid`).
        &[(
            "main.tf",
            "variable \"v\" {\n  type = object({ a = string, a = number })\n}\n",
        )],
    ];

    const EKS: &str = concat!(
        "module \"eks\" {\n  source = \"./eks\"\n  eks_managed_node_groups = {\n",
        "    default = {\n      min_size = 2\n      max_size = 2\n      desired_size = 2\n",
        "      min_size = 4\n      max_size = 5\n      desired_size = 2\n    }\n  }\n}\n",
    );

    const FAIL: &[(Files, usize)] = &[
        (&[("main.tf", "locals {\n  a = { x = 1, x = 2 }\n}\n")], 1),
        // A name and a string are the same key; three copies are two repeats.
        (
            &[(
                "main.tf",
                "locals {\n  a = { x = 1, \"x\" = 2, x = 3 }\n}\n",
            )],
            2,
        ),
        // Inside a function call, a tuple and a nested block.
        (
            &[(
                "main.tf",
                "resource \"a\" \"b\" {\n  tags = merge(var.t, [{ k = 1, k = 1 }][0])\n\
                 dynamic \"d\" {\n    for_each = []\n    content {\n      m = { q = 1, q = 2 }\n\
                 }\n  }\n}\n",
            )],
            2,
        ),
        (&[("main.tf", EKS)], 3),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn equal_values_are_a_notice_and_different_ones_a_warning() {
        let found = findings(&super::RULE, &[("main.tf", EKS)]);
        let severities: Vec<_> = found.iter().map(|d| (d.severity, &*d.message)).collect();
        assert_eq!(
            severities,
            [
                (
                    Severity::Warning,
                    "key `min_size` is set twice in this object: the later value wins"
                ),
                (
                    Severity::Warning,
                    "key `max_size` is set twice in this object: the later value wins"
                ),
                (
                    Severity::Notice,
                    "key `desired_size` is set twice in this object, to the same value"
                ),
            ]
        );
    }

    #[test]
    fn a_configured_severity_applies_to_every_finding() {
        use crate::lint::directory::{Options, ViewSelection, check_directory};
        use crate::lint::settings::Level;
        use crate::lint::testing::{settings_for, write_files};
        let dir = write_files(&[("main.tf", EKS)]);
        let mut settings = settings_for(&super::RULE);
        (settings.set_level(super::RULE.id().as_str(), Level::On(Severity::Error)))
            .expect("a valid level");
        let found = check_directory(dir.path(), &Options::new(ViewSelection::Both, settings));
        let severities: Vec<_> = found.diagnostics.iter().map(|d| d.severity).collect();
        assert_eq!(severities, [Severity::Error; 3]);
    }
}
