//! A variable's (or an output's) `type` that is not a type constraint: both tools refuse the
//! module with `Invalid type specification`, or for the quoted form of Terraform 0.11
//! (`type = "string"` in native syntax) `Invalid quoted type constraints` / `Invalid legacy
//! variable type hint`.

use crate::diagnostic::Diagnostic;
use crate::syntax::{Attribute, ExprKind};

use crate::lint::helpers::top_level_blocks_of;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "type_constraint_invalid",
    kind: LoadError,
    summary: "a variable or output type that is not a type constraint",
    check: Check::View(RuleViews::Both, check),
};

/// One finding per `type` argument that is not a type constraint.
fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let types = top_level_blocks_of(ctx, &["variable", "output"])
        .filter_map(|(_, block)| block.body.shared_attribute("type"));
    out.extend(types.filter_map(|attr| Some(invalid_type(ctx, attr, ctx.types.error_of(attr)?))));
}

/// `Invalid type specification` (or the quoted-type summaries), with the tools' detail.
fn invalid_type(ctx: &Context, attr: &Attribute, detail: String) -> Diagnostic {
    let summary = match (&attr.expr.kind, attr.expr.json_string()) {
        (ExprKind::String(_), None) => "Invalid quoted type constraints",
        (ExprKind::Template, None) => "Invalid legacy variable type hint",
        _ => "Invalid type specification",
    };
    ctx.finding(&RULE, summary)
        .at(ctx.files, attr.expr.span, "not a type constraint")
        .with_note(detail)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, findings};

    fn summaries(files: Files) -> Vec<String> {
        let found = findings(&super::RULE, files).into_iter();
        found.map(|d| d.message.into_owned()).collect()
    }

    #[test]
    fn the_tools_summaries() {
        let variable = |ty: &str| format!("variable \"a\" {{\n  type = {ty}\n}}\n");
        assert_eq!(
            summaries(&[("v.tf", &variable("notatype"))]),
            ["Invalid type specification"]
        );
        assert_eq!(
            summaries(&[("v.tf", &variable("\"string\""))]),
            ["Invalid quoted type constraints"]
        );
        assert_eq!(
            summaries(&[("v.tf.json", r#"{"variable": {"a": {"type": "notatype"}}}"#)]),
            ["Invalid type specification"]
        );
        assert!(summaries(&[("v.tf", &variable("map(list(string))"))]).is_empty());
        // A repeated attribute: the type is refused (no later one wins, as in a value).
        assert_eq!(
            summaries(&[("v.tf", &variable("object({ a = string, a = number })"))]),
            ["Invalid type specification"]
        );
        assert!(
            summaries(&[("v.tf.json", r#"{"variable": {"a": {"type": "string"}}}"#)]).is_empty()
        );
    }
}
