//! The top level of an operator or conditional expression, which the model keeps as text
//! (`ExprKind::Other`): read again from the text where a check needs its operands, operators
//! and results (hashicorp/hcl `hclsyntax/parser.go`: `parseTernaryConditional` and
//! `parseBinaryOps`, without the precedence, which no such check needs).

use super::Parser;
use crate::source::Span;
use crate::syntax::Expr;

/// Operands joined by binary operators, maybe followed by `? yes : no`.
#[derive(Debug)]
pub(crate) struct Operation {
    /// The operands, in source order; one when there is no binary operator.
    pub(crate) operands: Vec<Expr>,
    /// The binary operators between the operands, as written (`==`, `&&`, `+`...).
    pub(crate) operators: Vec<String>,
    /// The results of a conditional, whose condition is then the operands and operators.
    pub(crate) results: Option<Box<(Expr, Expr)>>,
}

/// The operation written at `span` of `text` (a file's text, or the value of a JSON string
/// whose expressions' spans are offsets into it), if the whole span is one: `None` for a unary
/// operator, a `for` expression, or a span that is not an expression.
pub(crate) fn operation(text: &str, span: Span) -> Option<Operation> {
    let range = span.range();
    if range.end > text.len() {
        return None;
    }
    let mut parser = Parser::new(span.file, text);
    parser.pos = range.start;
    // Newlines count as blanks: an expression the parser ended at a newline ends before the
    // text that follows, which the span check below then refuses.
    let mut operation = Operation {
        operands: vec![parser.operand(true).ok()?],
        operators: Vec::new(),
        results: None,
    };
    loop {
        parser.skip_trivia(true);
        let Some(len) = parser.binary_operator() else {
            break;
        };
        let operator = text.get(parser.pos..parser.pos + len)?;
        operation.operators.push(operator.to_string());
        parser.pos += len;
        parser.skip_trivia(true);
        operation.operands.push(parser.operand(true).ok()?);
    }
    if parser.peek() == Some(b'?') {
        parser.pos += 1;
        parser.skip_trivia(true);
        let yes = parser.expr(true).ok()?;
        parser.skip_trivia(true);
        if parser.peek() != Some(b':') {
            return None;
        }
        parser.pos += 1;
        parser.skip_trivia(true);
        let no = parser.expr(true).ok()?;
        operation.results = Some(Box::new((yes, no)));
    }
    let whole = operation.operands.len() > 1 || operation.results.is_some();
    let end = match &operation.results {
        Some(results) => results.1.span.end,
        None => operation.operands.last()?.span.end,
    };
    (whole && end as usize == range.end).then_some(operation)
}

/// The condition of the `%{ if }` directive that starts at `span` of `text` (a file's text, or
/// a JSON string's value): hashicorp/hcl `hclsyntax/parser_template.go`, `parseIf`, makes the
/// directive a conditional of that condition and of its two branches' templates.
pub(crate) fn if_condition(text: &str, span: Span) -> Option<Expr> {
    let start = span.range().start;
    let mut parser = Parser::new(span.file, text);
    if !text.get(start..)?.starts_with("%{") {
        return None;
    }
    parser.pos = start + 2;
    if parser.peek() == Some(b'~') {
        parser.pos += 1;
    }
    parser.skip_trivia(true);
    let keyword_end = parser.pos + 2;
    let after = text.as_bytes().get(keyword_end).copied();
    if !parser.starts_with("if") || after.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    parser.pos = keyword_end;
    parser.skip_trivia(true);
    parser.expr(true).ok()
}

#[cfg(test)]
mod tests {
    use super::{if_condition, operation};
    use crate::source::{FileId, Span};

    /// An operation as text: its operands, operators and results.
    #[derive(Debug, PartialEq)]
    struct Parts<'t> {
        operands: Vec<&'t str>,
        operators: Vec<String>,
        results: Option<(&'t str, &'t str)>,
    }

    /// The operation of the whole text.
    fn parts(text: &str) -> Option<Parts<'_>> {
        let op = operation(text, Span::new(FileId(0), 0..text.len()))?;
        let at = |e: &crate::syntax::Expr| &text[e.span.range()];
        Some(Parts {
            operands: op.operands.iter().map(at).collect(),
            operators: op.operators,
            results: op.results.as_deref().map(|(yes, no)| (at(yes), at(no))),
        })
    }

    #[test]
    fn reads_operands_operators_and_results() {
        assert_eq!(
            parts("var.a == \"x\" && !var.b"),
            Some(Parts {
                operands: vec!["var.a", "\"x\"", "!var.b"],
                operators: vec!["==".to_string(), "&&".to_string()],
                results: None,
            })
        );
        assert_eq!(
            parts("var.a != \"\" ? local.b : (var.c)"),
            Some(Parts {
                operands: vec!["var.a", "\"\""],
                operators: vec!["!=".to_string()],
                results: Some(("local.b", "(var.c)")),
            })
        );
        assert_eq!(
            parts("a ? b : c ? d : e").and_then(|p| p.results),
            Some(("b", "c ? d : e"))
        );
        assert_eq!(
            parts("var.a ==\n  1").map(|p| p.operands),
            Some(vec!["var.a", "1"])
        );
    }

    #[test]
    fn refuses_what_is_no_operation() {
        assert!(parts("-var.a").is_none());
        assert!(parts("[for x in var.a : x]").is_none());
        assert!(parts("var.a").is_none());
        assert!(parts("a ? b").is_none());
        // The span ends before what the parser would read.
        let text = "a == b + c";
        assert!(operation(text, Span::new(FileId(0), 0..6)).is_none());
    }

    #[test]
    fn reads_the_condition_of_an_if_directive() {
        let condition = |text: &str| {
            let span = Span::new(FileId(0), 0..text.len());
            if_condition(text, span).map(|e| text[e.span.range()].to_string())
        };
        assert_eq!(
            condition("%{ if var.a != \"\" }x%{ endif }").as_deref(),
            Some("var.a != \"\"")
        );
        assert_eq!(
            condition("%{~if var.b~}x%{ endif }").as_deref(),
            Some("var.b")
        );
        assert_eq!(condition("%{ for x in var.c }x%{ endfor }"), None);
        assert_eq!(condition("%{ iffy }"), None);
    }
}
