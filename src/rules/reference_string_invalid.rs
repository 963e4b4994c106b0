//! A JSON string the tools read as a reference that holds a template sequence (`"${...}"` or
//! `"%{...}"`). In JSON syntax the tools take some strings as the source text of a reference,
//! not as a template (the arguments `knowledge::literal_arguments` lists as read without
//! evaluation): `depends_on` items, `lifecycle { ignore_changes }` items, `moved`/`removed`
//! addresses (`hcl.AbsTraversalForExpr`, `hcl.RelTraversalForExpr`), and `provider` and module
//! `providers` values (`decodeProviderConfigRef`). A template sequence is never part of a
//! reference, so the tools refuse the module: "Invalid expression" ("A single static variable
//! reference is required") or "Invalid provider configuration reference" (hashicorp/terraform
//! `internal/configs/depends_on.go`, `resource.go`, `moved.go`, `removed.go`,
//! `provider_validation.go`; opentofu/opentofu the same files). A Terraform 0.11-style
//! `"${aws_instance.web}"` is the usual cause.
//!
//! `lifecycle { replace_triggered_by }` items and an import's `to` are instead parsed as an
//! expression from the string's contents (`decodeReplaceTriggeredBy` in `resource.go`,
//! `decodeImportBlock` in `import.go`); one that starts with `${` stops the expression parser
//! at the `$`: "Invalid character".
//!
//! Strings that are not references at all are judged elsewhere: an evaluated string's template
//! errors are `syntax_error`'s, `required_version` is `version_constraint_invalid`'s and a
//! variable's `type` is `type_constraint_invalid`'s.

use crate::diagnostic::Diagnostic;
use crate::source::{Span, Syntax};
use crate::syntax::{Block, Expr, ExprKind};

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "reference_string_invalid",
    kind: LoadError,
    summary: "a JSON string read as a reference that holds a template sequence",
    check: Check::View(RuleViews::Both, check),
};

/// How the tools read a string: as a reference, or as a provider configuration reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReadAs {
    Reference,
    ProviderConfiguration,
    /// Parsed as an HCL expression from the string's contents, then read as a reference
    /// (`replace_triggered_by` items by `decodeReplaceTriggeredBy`, an import's `to` by the
    /// same `hcl.ParseExpression` of the string's contents): a `$` there is not an expression token.
    Expression,
}

/// The top-level block types whose `depends_on` and `provider` are read as references.
const WITH_DEPENDS_ON_AND_PROVIDER: &[&str] = &["resource", "data", "ephemeral", "action"];

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    // By the file's extension, not its name: looked at once per file rather than per block.
    let json_blocks = (ctx.primary.iter().chain(ctx.overrides))
        .filter(|file| file.extension.syntax() == Syntax::Json)
        .flat_map(|file| &file.file.body.blocks);
    for block in json_blocks {
        let mut each = |expr: &Expr, read_as: ReadAs| judge(ctx, expr, read_as, out);
        match block.kind.as_str() {
            kind if WITH_DEPENDS_ON_AND_PROVIDER.contains(&kind) => {
                items_of(block, "depends_on", ReadAs::Reference, &mut each);
                value_of(block, "provider", ReadAs::ProviderConfiguration, &mut each);
                if kind == "resource" {
                    for lifecycle in block.body.blocks_of("lifecycle") {
                        items_of(lifecycle, "ignore_changes", ReadAs::Reference, &mut each);
                        items_of(
                            lifecycle,
                            "replace_triggered_by",
                            ReadAs::Expression,
                            &mut each,
                        );
                    }
                }
            }
            "module" => {
                items_of(block, "depends_on", ReadAs::Reference, &mut each);
                if let Some(providers) = block.body.attribute("providers")
                    && let ExprKind::Object(items) = &providers.expr.kind
                {
                    for item in items {
                        each(&item.value, ReadAs::ProviderConfiguration);
                    }
                }
            }
            "output" => items_of(block, "depends_on", ReadAs::Reference, &mut each),
            "moved" => {
                value_of(block, "from", ReadAs::Reference, &mut each);
                value_of(block, "to", ReadAs::Reference, &mut each);
            }
            "removed" => value_of(block, "from", ReadAs::Reference, &mut each),
            "import" => value_of(block, "to", ReadAs::Expression, &mut each),
            _ => {}
        }
    }
}

/// The items of a list argument (`depends_on = [...]`).
fn items_of(block: &Block, name: &str, read_as: ReadAs, each: &mut impl FnMut(&Expr, ReadAs)) {
    if let Some(attr) = block.body.attribute(name)
        && let ExprKind::Tuple(items) = &attr.expr.kind
    {
        for item in items {
            each(item, read_as);
        }
    }
}

fn value_of(block: &Block, name: &str, read_as: ReadAs, each: &mut impl FnMut(&Expr, ReadAs)) {
    if let Some(attr) = block.body.attribute(name) {
        each(&attr.expr, read_as);
    }
}

/// Reports a JSON string holding a template sequence: never a reference.
fn judge(ctx: &Context, expr: &Expr, read_as: ReadAs, out: &mut Vec<Diagnostic>) {
    let Some(text) = expr.json_string() else {
        return;
    };
    if !(text.contains("${") || text.contains("%{")) {
        return;
    }
    if read_as == ReadAs::Expression {
        judge_expression(ctx, expr, text, out);
        return;
    }
    let (summary, detail) = match read_as {
        ReadAs::Reference => (
            "Invalid expression",
            "A single static variable reference is required: only attribute access and \
             indexing with constant keys. No calculations, function calls, template \
             expressions, etc are allowed here.",
        ),
        ReadAs::ProviderConfiguration => (
            "Invalid provider configuration reference",
            "The provider argument requires a provider type name, optionally followed by a \
             period and then a configuration alias.",
        ),
        ReadAs::Expression => unreachable!("judged by judge_expression"),
    };
    let help = match text.strip_prefix("${").and_then(|t| t.strip_suffix('}')) {
        Some(inner) if !inner.contains("${") => format!("write the reference bare: \"{inner}\""),
        _ => "write the reference bare, without `${ }`".to_string(),
    };
    out.push(
        ctx.finding(&RULE, summary)
            .at(ctx.files, expr.span, "a template, not a reference")
            .with_note(detail)
            .with_help(help),
    );
}

/// A string the tools parse as an expression: when it starts with `${` the expression parser
/// stops at the `$`, reported at the opening quote: "Invalid character" (followed by "Invalid expression", same place). Other
/// placements (`"a.b${x}"`) give other errors from the expression parser, which we leave unsaid
/// rather than guess.
fn judge_expression(ctx: &Context, expr: &Expr, text: &str, out: &mut Vec<Diagnostic>) {
    let Some(inner) = text.strip_prefix("${") else {
        return;
    };
    // The tools parse the contents from the position of the opening quote (hcl's JSON
    // `parseExpression` starts the expression's position at the string token), so the error
    // is one character wide at the quote. An escaped `\u0024` is left unsaid: the offsets
    // of the text after it are not the tools'.
    if !ctx.files.text(expr.span).starts_with("\"$") {
        return;
    }
    let start = expr.span.range().start;
    let quote = Span::new(expr.span.file, start..start + 1);
    let help = match inner.strip_suffix('}') {
        Some(bare) if !bare.contains("${") => format!("write the reference bare: \"{bare}\""),
        _ => "write the reference bare, without `${ }`".to_string(),
    };
    out.push(
        ctx.finding(&RULE, "Invalid character")
            .at(ctx.files, quote, "a template, not a reference")
            .with_note(
                "This character is not used within the language. The string is parsed as an \
                 expression, and a template sequence is not one.",
            )
            .with_help(help),
    );
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const PASS: &[Files] = &[
        &[(
            "main.tf.json",
            r#"{"resource": {"terraform_data": {"a": {"depends_on": ["terraform_data.b"], "provider": "terraform", "lifecycle": {"ignore_changes": ["input"]}}, "b": {}}}}"#,
        )],
        // An evaluated string is a template: its syntax errors are `syntax_error`'s, and
        // `"${var.x}"` is fine.
        &[(
            "main.tf.json",
            r#"{"resource": {"terraform_data": {"a": {"input": "${upper(\"x\")}"}}}}"#,
        )],
        // Native syntax has no such strings.
        &[(
            "main.tf",
            "resource \"terraform_data\" \"a\" {\n  depends_on = [terraform_data.b]\n}\n",
        )],
    ];

    // Terraform 1.6.6 and 1.15.5 (the judges) refuse each, at the string: "Invalid
    // expression" for `depends_on`, `ignore_changes`, `moved` and `removed` addresses, "Invalid
    // provider configuration reference" for `provider` and module `providers` values.
    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "main.tf.json",
                r#"{"resource": {"terraform_data": {"a": {"depends_on": ["${terraform_data.b}"]}, "b": {}}}}"#,
            )],
            1,
        ),
        (
            &[(
                "main.tf.json",
                r#"{"resource": {"terraform_data": {"a": {"lifecycle": {"ignore_changes": ["${input}"]}}}}}"#,
            )],
            1,
        ),
        (
            &[(
                "main.tf.json",
                r#"{"resource": {"terraform_data": {"a": {"provider": "${"}}}}"#,
            )],
            1,
        ),
        (
            &[(
                "main.tf.json",
                r#"{"moved": [{"from": "${terraform_data.a}", "to": "terraform_data.b"}], "output": {"o": {"value": 1, "depends_on": ["${"]}}}"#,
            )],
            2,
        ),
        (
            &[(
                "main.tf.json",
                r#"{"module": {"m": {"source": "./m", "providers": {"aws": "${"}}}}"#,
            )],
            1,
        ),
        // "Invalid character" at the `$` for `replace_triggered_by` items and an import's `to`.
        (
            &[(
                "main.tf.json",
                r#"{"resource": {"terraform_data": {"a": {"lifecycle": {"replace_triggered_by": ["${terraform_data.b}"]}}, "b": {}}}}"#,
            )],
            1,
        ),
        (
            &[(
                "main.tf.json",
                r#"{"import": [{"id": "x", "to": "${terraform_data.a}"}], "resource": {"terraform_data": {"a": {}}}}"#,
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// At the string, quotes included, as the tools report it (1:55 to 1:76).
    #[test]
    fn at_the_string() {
        let found = findings(
            &super::RULE,
            &[(
                "main.tf.json",
                r#"{"resource": {"terraform_data": {"a": {"depends_on": ["${terraform_data.b}"]}, "b": {}}}}"#,
            )],
        );
        let label = found[0].primary.as_ref().expect("a location");
        assert_eq!(label.file.line_col(label.range.start), (1, 55));
        assert_eq!(label.file.line_col(label.range.end), (1, 76));
        assert_eq!(
            found[0].help.as_deref(),
            Some("write the reference bare: \"terraform_data.b\"")
        );
    }

    /// Parsed as an expression, the tools stop at the `$` and report it at the opening quote:
    /// "Invalid character" at 1:79 to 1:80 for `replace_triggered_by` and 1:31 to 1:32 for an import's `to` (Terraform 1.15.5).
    #[test]
    fn parsed_as_an_expression_at_the_quote() {
        let cases = [
            (
                r#"{"resource": {"terraform_data": {"a": {"lifecycle": {"replace_triggered_by": ["${terraform_data.b}"]}}, "b": {}}}}"#,
                (1, 79),
            ),
            (
                r#"{"import": [{"id": "x", "to": "${terraform_data.a}"}], "resource": {"terraform_data": {"a": {}}}}"#,
                (1, 31),
            ),
        ];
        for (text, (line, column)) in cases {
            let found = findings(&super::RULE, &[("main.tf.json", text)]);
            assert_eq!(found.len(), 1, "{text}");
            assert_eq!(found[0].message, "Invalid character");
            let label = found[0].primary.as_ref().expect("a location");
            assert_eq!(label.file.line_col(label.range.start), (line, column));
            assert_eq!(label.file.line_col(label.range.end), (line, column + 1));
        }
    }
}
