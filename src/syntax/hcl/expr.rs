//! Expressions (hashicorp/hcl `hclsyntax/parser.go`: `parseTernaryConditional`,
//! `parseBinaryOps`, `parseExpressionTerm`, `parseExpressionTraversals`).
//!
//! Every function takes `newlines`: whether newlines are insignificant where the expression
//! stands (inside parentheses, brackets, call arguments, `for` expressions and template
//! sequences), or end it (an argument's value, an object item).

use super::gather::Found;
use super::recovery::{self, Opener};
use super::scanner::number_token_end;
use super::{ParseError, Parser, Result};
use crate::syntax::references::{Reference, ReferenceStep};
use crate::syntax::{
    Argument, Arguments, Call, Expr, ExprKind, Literal, ObjectItem, TraversalStep,
};

impl Parser<'_> {
    /// An expression: operands joined by binary operators, then maybe a conditional.
    ///
    /// The functions on the path of nesting (this one, [`Parser::operand`], [`Parser::term`],
    /// [`Parser::primary`] and the constructs that nest) keep their frames small: what only
    /// some expressions need is in functions of its own, off that path.
    pub(crate) fn expr(&mut self, newlines: bool) -> Result<Expr> {
        let start = self.pos;
        let first = self.operand(newlines)?;
        if self.operator_follows(newlines) {
            self.operations(start, first, newlines)
        } else {
            Ok(first)
        }
    }

    /// Whether a binary operator or a `?` follows, past blanks (the position unchanged).
    fn operator_follows(&mut self, newlines: bool) -> bool {
        let before = self.pos;
        self.skip_trivia(newlines);
        let follows = self.binary_operator().is_some() || self.peek() == Some(b'?');
        self.pos = before;
        follows
    }

    /// The operators after the first operand (`first`, from `start`) of an expression.
    #[inline(never)]
    fn operations(&mut self, start: usize, first: Expr, newlines: bool) -> Result<Expr> {
        let mut found = Found::from_expr(&first);
        let mut end = first.span.end as usize;
        drop(first);
        let mut logical = false;
        loop {
            let before = self.pos;
            self.skip_trivia(newlines);
            if let Some(len) = self.binary_operator() {
                // HCL evaluates what follows `&&` or `||` only when the left operand does not
                // decide the result: from there on, the calls may be left unevaluated.
                logical |= matches!(self.peek(), Some(b'&' | b'|'));
                self.pos += len;
                self.skip_trivia(newlines);
                let operand = self.operand(newlines)?;
                if logical {
                    found.add_conditional(&operand);
                } else {
                    found.add(&operand);
                }
                end = operand.span.end as usize;
                continue;
            }
            if self.peek() == Some(b'?') {
                // A conditional nests its results: one level, however deep each goes.
                self.enter()?;
                self.pos += 1;
                self.skip_trivia(newlines);
                found.add_conditional(&self.expr(newlines)?);
                self.skip_trivia(newlines);
                if !self.colon_follows() {
                    // HCL reports it without recovering: the condition stands for the whole
                    // conditional and parsing goes on at this token (`parseTernaryConditional`).
                    let error = self.unexpected(
                        "Missing false expression in conditional",
                        "the conditional needs a `:` and the value when the condition is false",
                    );
                    self.soft(error)?;
                    self.leave();
                    return Ok(found.into_expr(ExprKind::Other, self.span(start..end)));
                }
                self.pos += 1;
                self.skip_trivia(newlines);
                let no = self.expr(newlines)?;
                self.leave();
                found.add_conditional(&no);
                end = no.span.end as usize;
            } else {
                self.pos = before;
            }
            return Ok(found.into_expr(ExprKind::Other, self.span(start..end)));
        }
    }

    /// Whether a `:` token stands here: with function namespaces, `::` is a token of its own
    /// (HCL's `TokenDoubleColon`), which no conditional or `for` expression takes for its
    /// colon.
    fn colon_follows(&self) -> bool {
        self.peek() == Some(b':') && !(self.namespaces && self.peek_at(1) == Some(b':'))
    }

    /// The length of the binary operator at the current position, if there is one.
    pub(super) fn binary_operator(&self) -> Option<usize> {
        let (a, b) = (self.peek()?, self.peek_at(1));
        match (a, b) {
            (b'=', Some(b'=')) | (b'!', Some(b'=')) | (b'<', Some(b'=')) | (b'>', Some(b'=')) => {
                Some(2)
            }
            (b'&', Some(b'&')) | (b'|', Some(b'|')) => Some(2),
            // A line comment; a `/*` here has no end (else the blanks before held it), and
            // is a division for HCL's scanner.
            (b'/', Some(b'/')) => None,
            // `<<`, a marker and a newline is a heredoc to HCL's scanner, no operator: it ends
            // the expression (and the caller refuses what follows it).
            (b'<', Some(b'<'))
                if super::scanner::heredoc_start(self.read_bytes, self.pos).is_some() =>
            {
                None
            }
            (b'<' | b'>' | b'+' | b'-' | b'*' | b'/' | b'%', _) => Some(1),
            _ => None,
        }
    }

    /// An operand of a binary operator: a term, maybe after unary operators.
    pub(super) fn operand(&mut self, newlines: bool) -> Result<Expr> {
        let is_unary = match self.peek() {
            // `!=` is an operator of its own to HCL's scanner, no `!`.
            Some(b'!') => self.peek_at(1) != Some(b'='),
            Some(b'-') => !self.negative_number_follows(),
            _ => false,
        };
        if is_unary {
            self.unary(newlines)
        } else {
            self.term(newlines)
        }
    }

    /// `-x` or `!x`.
    #[inline(never)]
    fn unary(&mut self, newlines: bool) -> Result<Expr> {
        let start = self.pos;
        self.enter()?;
        self.pos += 1;
        // Where newlines are ignored (in brackets), they may stand before the operand too.
        self.skip_trivia(newlines);
        let operand = self.operand(newlines)?;
        self.leave();
        let span = self.span(start..operand.span.end as usize);
        Ok(Found::from_expr(&operand).into_expr(ExprKind::Other, span))
    }

    /// Whether the `-` at the current position starts a negative number literal (blanks
    /// between the sign and the digits allowed, as hcl-edit reads it).
    fn negative_number_follows(&self) -> bool {
        let rest = &self.bytes[self.pos + 1..];
        let digits = rest.iter().position(|&b| b != b' ' && b != b'\t');
        digits.is_some_and(|i| rest[i].is_ascii_digit())
    }

    /// A term and the traversal steps after it.
    fn term(&mut self, newlines: bool) -> Result<Expr> {
        let start = self.pos;
        let root = self.primary(newlines)?;
        if self.traversal_follows(newlines) {
            self.traversal(start, root, newlines)
        } else {
            Ok(root)
        }
    }

    /// Whether a traversal step (`.name`, `[index]`) follows, past blanks (the position
    /// unchanged). `...` is no step.
    fn traversal_follows(&mut self, newlines: bool) -> bool {
        let before = self.pos;
        self.skip_trivia(newlines);
        let follows = match self.peek() {
            Some(b'[') => true,
            // `...` is no step, but `..` is a `.` and a `.` to HCL's scanner.
            Some(b'.') => !self.starts_with("..."),
            _ => false,
        };
        self.pos = before;
        follows
    }

    /// The traversal steps after `root` (which starts at `start`).
    #[inline(never)]
    fn traversal(&mut self, start: usize, root: Expr, newlines: bool) -> Result<Expr> {
        let mut steps = Vec::new();
        // The static steps of the reference a traversal from a name is, up to the first step
        // that is not static (hashicorp/hcl `hclsyntax/variables.go`).
        let mut reference_steps = Vec::new();
        let mut reference_static = true;
        let mut reference_end = root.span.end as usize;
        let mut end = root.span.end as usize;
        let mut after_splat = false;
        // The `*` of an attribute-only splat (`.*`) whose chain of `.` steps goes on: they
        // are its own steps, where another `.*` is refused.
        let mut attribute_splat: Option<usize> = None;
        loop {
            let before = self.pos;
            self.skip_trivia(newlines);
            match (self.peek(), self.peek_at(1)) {
                // `...` (expanding a call's last argument or a `for`'s grouping) ends the
                // traversal; `..` is a `.` followed by a `.`, which no step starts with.
                (Some(b'.'), Some(b'.')) if self.starts_with("...") => {
                    self.pos = before;
                    break;
                }
                (Some(b'.'), _) => {
                    let dot = self.pos;
                    self.pos += 1;
                    self.skip_trivia(newlines);
                    let star = self.pos;
                    let (step, reference_step) = self.attribute_step(dot, attribute_splat)?;
                    if matches!(step, TraversalStep::Splat) {
                        attribute_splat = Some(star);
                    }
                    steps.push(step);
                    end = self.pos;
                    match reference_step {
                        Some(step) if reference_static => {
                            reference_steps.push(step);
                            reference_end = end;
                        }
                        _ => reference_static = false,
                    }
                }
                (Some(b'['), _) => {
                    attribute_splat = None;
                    self.enter()?;
                    self.pos += 1;
                    // HCL looks for the `*` of a splat with the newlines around the traversal
                    // still counting (`parseExpressionTraversals`): after a newline that ends
                    // something, a `*` starts the index's expression, which it cannot.
                    self.skip_trivia(newlines);
                    let step = if self.peek() == Some(b'*') {
                        self.pos += 1;
                        after_splat = true;
                        // HCL reads the token right after the `*` (newlines count where they
                        // do around the traversal), and reports a missing `]` where it
                        // recovers, as for an index.
                        self.skip_trivia(newlines);
                        if self.peek() != Some(b']') {
                            let error = self.unexpected("Missing close bracket on splat index", "");
                            if error.summary != "Missing close bracket on splat index" {
                                return Err(error);
                            }
                            // HCL has read the token after the `*` before it recovers: a `[`
                            // there opens nothing its recovery counts.
                            let read = usize::from(self.peek() == Some(b'['));
                            let at = self.closing_bracket_from(self.pos + read);
                            let mut error = self.error_at(
                                at,
                                error.summary,
                                "the star of a full splat must be followed by `]`",
                            );
                            error.recovered_from = Some(self.pos);
                            return Err(error);
                        }
                        TraversalStep::Splat
                    } else {
                        self.skip_trivia(true);
                        let mut index = self.expr(true)?;
                        if after_splat {
                            // Evaluated once per element, of a collection maybe unknown.
                            index.mark_conditional();
                        }
                        TraversalStep::Index(index)
                    };
                    self.skip_trivia(true);
                    if self.peek() != Some(b']') {
                        return Err(self.missing_index_close());
                    }
                    self.pos += 1;
                    self.leave();
                    end = self.pos;
                    let static_key = match &step {
                        TraversalStep::Index(index) => static_index(index),
                        _ => None,
                    };
                    steps.push(step);
                    match static_key {
                        Some(key) if reference_static => {
                            reference_steps.push(ReferenceStep::Index(key));
                            reference_end = end;
                        }
                        _ => reference_static = false,
                    }
                }
                _ => {
                    self.pos = before;
                    break;
                }
            }
        }
        // The lists are kept as long as the directory's check: without their spare room
        // (most traversals have one or two steps, and a `Vec` grown by pushes has room for
        // four).
        steps.shrink_to_fit();
        reference_steps.shrink_to_fit();
        let mut root = root;
        let reference = match &root.kind {
            ExprKind::Variable(name) => Some(Reference {
                root: name.clone(),
                steps: reference_steps,
                span: self.span(start..reference_end),
            }),
            _ => None,
        };
        if reference.is_some() {
            // The traversal holds the name's reference, with its steps: the name's own list
            // is dropped, allocation and all.
            root.set_references(Vec::new());
        }
        let mut expr = Expr::new(
            ExprKind::Traversal {
                root: Box::new(root),
                steps,
            },
            self.span(start..end),
        );
        if let Some(reference) = reference {
            expr.set_references(vec![reference]);
        }
        Ok(expr)
    }

    /// Where HCL's `recover` finds the `]` of an index from the current position: the file
    /// is read from its start when the parse is of a whole file, as then the scanner's mode
    /// at the position is known.
    #[cold]
    #[inline(never)]
    fn closing_bracket(&self) -> usize {
        self.closing_bracket_from(self.pos)
    }

    /// [`Self::closing_bracket`] for a recovery whose first read is at `from`.
    fn closing_bracket_from(&self, from: usize) -> usize {
        let scan_from = if self.whole_file { 0 } else { self.pos };
        recovery::closing_token(self.read_bytes, scan_from, from, Opener::Bracket)
    }

    /// The error for an index whose `]` does not follow its key. HCL reports it where it
    /// recovers: at the `]` that closes the index after all, or at the end of the text
    /// (hashicorp/hcl `hclsyntax/parser.go`, the index case of `parseExpressionTraversals`,
    /// and `recover`). A character HCL refuses outright comes first.
    #[cold]
    #[inline(never)]
    fn missing_index_close(&self) -> ParseError {
        const SUMMARY: &str = "Missing close bracket on index";
        let refused = self.unexpected(SUMMARY, "");
        if refused.summary != SUMMARY {
            return refused;
        }
        let at = self.closing_bracket();
        let mut error = self.error_at(
            at,
            SUMMARY,
            "the index operator must end with a closing bracket (`]`)",
        );
        error.recovered_from = Some(self.pos);
        error
    }

    /// What follows a `.` of a traversal (at `dot`): a name, a legacy index (`.0`) or a splat
    /// (`.*`); and the reference step it is, if static. `splat` is the `*` of the
    /// attribute-only splat this step continues, if any. The errors are HCL's (hashicorp/hcl
    /// `hclsyntax/parser.go`, `parseExpressionTraversals`): a legacy index is a whole number
    /// token, refused if it holds a `.` (`x.0.1`, two indexes read as one number), at the
    /// number or, within a splat, at the splat's `*`; a splat within an attribute-only splat
    /// (`x.*.a.*`) is refused at its `*`.
    fn attribute_step(
        &mut self,
        dot: usize,
        splat: Option<usize>,
    ) -> Result<(TraversalStep, Option<ReferenceStep>)> {
        match self.peek() {
            Some(b'*') => {
                if splat.is_some() {
                    return Err(self.error(
                        "Nested splat expression not allowed",
                        "a splat expression (`*`) cannot be used inside another attribute-only \
                         splat expression",
                    ));
                }
                self.pos += 1;
                Ok((TraversalStep::Splat, None))
            }
            Some(b'0'..=b'9') => {
                let digits_start = self.pos;
                self.pos = number_token_end(self.bytes, digits_start);
                let written = &self.text[digits_start..self.pos];
                // Both errors leave the traversal going on after the token (HCL recovers
                // from neither, `parseExpressionTraversals`).
                if written.contains('.') {
                    self.soft(self.error_at(
                        splat.unwrap_or(digits_start),
                        "Invalid legacy index syntax",
                        "two legacy indexes may not be chained (`.0.1`): use the index syntax, \
                         `[0][1]`",
                    ))?;
                } else {
                    // The token is then read as a number (`numberLitValue`,
                    // `cty.ParseNumberVal`): refused, at the token, where Go's number parsing
                    // fails.
                    match number_form(written.as_bytes()) {
                        None => self.soft(self.error_at(
                            digits_start,
                            "Invalid number literal",
                            "this is not a number: digits, then an exponent maybe",
                        ))?,
                        Some(Some(exponent_at)) => {
                            if let Err(error) =
                                check_exponent(self, digits_start, digits_start + exponent_at)
                            {
                                self.soft(error)?;
                            }
                        }
                        Some(None) => {}
                    }
                }
                let written = &self.text[digits_start..self.pos];
                let value = super::gather::number_value_text(written);
                let index = Expr::new(ExprKind::Number(value.clone()), self.span(dot..self.pos));
                Ok((
                    TraversalStep::Index(index),
                    Some(ReferenceStep::Index(value)),
                ))
            }
            _ => match self.ident() {
                Some(name) => {
                    let name = self.text[name].to_string();
                    Ok((
                        TraversalStep::Attr(name.clone()),
                        Some(ReferenceStep::Attr(name)),
                    ))
                }
                None => {
                    let error = self.unexpected(
                        "Invalid attribute name",
                        "an attribute name is required after a dot",
                    );
                    Err(match (splat, error.summary) {
                        (Some(star), "Invalid attribute name") => {
                            self.error_at(star, error.summary, error.message)
                        }
                        _ => error,
                    })
                }
            },
        }
    }

    /// A term without its traversal steps.
    fn primary(&mut self, newlines: bool) -> Result<Expr> {
        self.steps += 1;
        match self.peek() {
            None => Err(self.error("Missing expression", "an expression is expected here")),
            Some(b'"') => self.quoted_string_expr(),
            Some(b'<') if self.peek_at(1) == Some(b'<') => self.heredoc_expr(),
            Some(b'[') => self.tuple(),
            Some(b'{') => self.object(),
            Some(b'(') => self.parenthesis(),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => match self.ident() {
                Some(name) => self.name_or_call(name, newlines),
                None => Err(self.invalid_expression()),
            },
        }
    }

    /// `(expr)`. Where the `)` is missing, HCL reports the token standing there and goes on in
    /// recovery mode without reading on (see [`PARENTHESIS_NOT_CLOSED`]).
    #[inline(never)]
    fn parenthesis(&mut self) -> Result<Expr> {
        let start = self.pos;
        self.enter()?;
        self.pos += 1;
        self.skip_trivia(true);
        let soft_before = self.soft_count;
        let inner = self.expr(true)?;
        self.skip_trivia(true);
        if self.soft_count != soft_before {
            // Any error in the parentheses makes HCL recover to their closer, from where its
            // parser stands (`parseExpressionTerm`): the first error found is reported.
            return Err(self.error("Unbalanced parentheses", "an error inside parentheses"));
        }
        if self.peek() != Some(b')') {
            return Err(self.unexpected("Unbalanced parentheses", PARENTHESIS_NOT_CLOSED));
        }
        self.pos += 1;
        self.leave();
        Ok(Expr::new(
            ExprKind::Parenthesis(Box::new(inner)),
            self.span(start..self.pos),
        ))
    }

    /// A number literal, with the sign of a negative one (as hcl-edit reads it): the model
    /// keeps it as written.
    #[inline(never)]
    fn number(&mut self) -> Result<Expr> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
            while matches!(self.peek(), Some(b' ' | b'\t')) {
                self.pos += 1;
            }
        }
        // HCL's scanner reads a number token as a digit, then digits, dots and exponents
        // (`number_token_end`); its parser refuses a token Go's number parsing does not read,
        // at the token, after any sign (`parseExpressionTerm`, `cty.ParseNumberVal`).
        let digits_start = self.pos;
        let end = number_token_end(self.bytes, digits_start);
        // HCL recovers from neither error: the token stands for an unknown number.
        match number_form(&self.bytes[digits_start..end]) {
            None => {
                let error = self.error_at(
                    digits_start,
                    "Invalid number literal",
                    "this is not a number: digits, one decimal point, then an exponent maybe",
                );
                self.soft(error)?;
                self.pos = end;
            }
            Some(exponent_at) => {
                self.pos = end;
                if let Some(exponent_at) = exponent_at
                    && let Err(error) =
                        check_exponent(self, digits_start, digits_start + exponent_at)
                {
                    self.soft(error)?;
                }
            }
        }
        let written = self.text[start..self.pos].to_string();
        Ok(Expr::new(
            ExprKind::Number(written),
            self.span(start..self.pos),
        ))
    }

    /// A name, a keyword, or a function call (`name(...)`, `ns::name(...)`).
    #[inline(never)]
    fn name_or_call(&mut self, name: std::ops::Range<usize>, newlines: bool) -> Result<Expr> {
        let before = self.pos;
        self.skip_trivia(newlines);
        if !(self.peek() == Some(b'(') || (self.namespaces && self.starts_with("::"))) {
            self.pos = before;
            let text = &self.text[name.clone()];
            let span = self.span(name.clone());
            return Ok(match text {
                "null" => Expr::new(ExprKind::Null, span),
                "true" => Expr::new(ExprKind::Bool(true), span),
                "false" => Expr::new(ExprKind::Bool(false), span),
                _ => {
                    let mut expr = Expr::new(ExprKind::Variable(text.to_string()), span);
                    // `vec!`: room for the one reference, not the four a push makes.
                    expr.set_references(vec![Reference {
                        root: text.to_string(),
                        steps: Vec::new(),
                        span,
                    }]);
                    expr
                }
            });
        }
        let mut full_name = self.text[name.clone()].to_string();
        let mut name_end = name.end;
        while self.namespaces && self.starts_with("::") {
            self.pos += 2;
            self.skip_trivia(newlines);
            let Some(part) = self.ident() else {
                return Err(self.unexpected(
                    "Missing function name",
                    "a function name is expected after `::`",
                ));
            };
            full_name.push_str("::");
            full_name.push_str(&self.text[part.clone()]);
            name_end = part.end;
            self.skip_trivia(newlines);
        }
        if self.peek() != Some(b'(') {
            return Err(self.unexpected(
                "Missing open parenthesis",
                "a function's name must be followed by its arguments in parentheses",
            ));
        }
        self.enter()?;
        self.pos += 1;
        let mut args = Vec::new();
        let mut expand_final = false;
        loop {
            self.skip_trivia(true);
            if self.peek() == Some(b')') {
                self.pos += 1;
                break;
            }
            args.push(self.expr(true)?);
            self.skip_trivia(true);
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b')') => {
                    self.pos += 1;
                    break;
                }
                Some(b'.') if self.starts_with("...") => {
                    let ellipsis = self.pos;
                    self.pos += 3;
                    self.skip_trivia(true);
                    if self.peek() != Some(b')') {
                        // HCL reports it at the `...` (parseFunctionCallExpr).
                        let error = self.unexpected(
                            "Missing closing parenthesis",
                            "an expanded final argument (`...`) must be followed by `)`",
                        );
                        return Err(match error.summary {
                            "Missing closing parenthesis" => {
                                self.error_at(ellipsis, error.summary, error.message)
                            }
                            _ => error,
                        });
                    }
                    self.pos += 1;
                    expand_final = true;
                    break;
                }
                None => {
                    return Err(self.error_at(
                        name.start,
                        "Unterminated function call",
                        "the function call has no closing parenthesis",
                    ));
                }
                Some(_) => {
                    return Err(self.unexpected(
                        "Missing argument separator",
                        "a comma is required to separate each function argument from the next",
                    ));
                }
            }
        }
        self.leave();
        let span = self.span(name.start..self.pos);
        let arguments = Arguments {
            items: (args.iter())
                .map(|arg| Argument {
                    span: arg.span,
                    literal: Literal::of(arg),
                })
                .collect(),
            expand_final,
            close: self.span(self.pos - 1..self.pos),
        };
        let call = Call {
            name: full_name.clone(),
            span: self.span(name.start..name_end),
            in_try: false,
            conditional: false,
            arguments,
        };
        Ok(Expr::with_calls(
            ExprKind::FunctionCall {
                name: full_name.into(),
                args,
                expand_final,
            },
            span,
            None,
            vec![call],
        ))
    }

    /// Whether the keyword `for` starts a `for` expression at the current position: the
    /// name `for`, whatever follows it (hashicorp/hcl `parseTupleCons` and `parseObjectCons`
    /// match the token alone, so `[for]` and `{for = 1}` are `for` expressions gone wrong).
    fn for_keyword(&self) -> bool {
        self.starts_with("for") && !self.continues_ident(self.pos + 3)
    }

    /// `[a, b]` or `[for ...]`.
    #[inline(never)]
    fn tuple(&mut self) -> Result<Expr> {
        let start = self.pos;
        self.enter()?;
        self.pos += 1;
        self.skip_trivia(true);
        if self.for_keyword() {
            let expr = self.for_expr(start, b']')?;
            self.leave();
            return Ok(expr);
        }
        let mut items = Vec::new();
        loop {
            self.skip_trivia(true);
            if self.peek() == Some(b']') {
                self.pos += 1;
                break;
            }
            items.push(self.expr(true)?);
            self.skip_trivia(true);
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    break;
                }
                None => {
                    return Err(self.error_at(
                        start,
                        "Unterminated tuple constructor expression",
                        "there is no corresponding closing bracket before the end of the file",
                    ));
                }
                Some(_) => {
                    return Err(self.unexpected(
                        "Missing item separator",
                        "a comma is expected to mark the beginning of the next item",
                    ));
                }
            }
        }
        self.leave();
        Ok(Expr::new(
            ExprKind::Tuple(items),
            self.span(start..self.pos),
        ))
    }

    /// `{ key = value, ... }` or `{for ...}`.
    #[inline(never)]
    fn object(&mut self) -> Result<Expr> {
        let start = self.pos;
        self.enter()?;
        self.pos += 1;
        self.skip_trivia(true);
        if self.for_keyword() {
            let expr = self.for_expr(start, b'}')?;
            self.leave();
            return Ok(expr);
        }
        let mut items = Vec::new();
        loop {
            self.skip_trivia(true);
            match self.peek() {
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                None => {
                    return Err(self.error(
                        "Missing expression",
                        "an attribute of the object is expected here, but the file ends",
                    ));
                }
                _ => {}
            }
            let key = object_key(self.expr(false)?);
            self.skip_trivia(false);
            // What stands where the `=` should be decides the error, as in hashicorp/hcl
            // `hclsyntax/parser.go` (parseObjectCons): a newline (a line comment is one) or a
            // comma means the value is missing; the end of the file, the object unclosed.
            match (self.peek(), self.peek_at(1)) {
                (Some(b'='), next) if !matches!(next, Some(b'=' | b'>')) => self.pos += 1,
                // `::` is a token of its own (HCL's `DoubleColon`), no separator.
                (Some(b':'), next) if next != Some(b':') => self.pos += 1,
                _ if self.line_comment_ends_the_text() => {
                    return Err(self.error_at(
                        start,
                        "Unterminated object constructor expression",
                        "there is no corresponding closing brace before the end of the file",
                    ));
                }
                (Some(b'\n' | b',' | b'#'), _)
                | (Some(b'\r'), Some(b'\n'))
                | (Some(b'/'), Some(b'/')) => {
                    return Err(self.error(
                        "Missing attribute value",
                        "an attribute value, introduced by an equals sign (`=`), is expected",
                    ));
                }
                (None, _) => {
                    return Err(self.error_at(
                        start,
                        "Unterminated object constructor expression",
                        "there is no corresponding closing brace before the end of the file",
                    ));
                }
                _ => {
                    return Err(self.unexpected(
                        "Missing key/value separator",
                        "an equals sign (`=`) is expected to mark the beginning of the value",
                    ));
                }
            }
            self.skip_trivia(false);
            let value = self.expr(false)?;
            items.push(ObjectItem { key, value });
            self.skip_trivia(false);
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {}
                None => {
                    return Err(self.error_at(
                        start,
                        "Unterminated object constructor expression",
                        "there is no corresponding closing brace before the end of the file",
                    ));
                }
                // A line comment that ends the file without a newline is no newline to
                // HCL's parser (its peeker makes a newline of a comment's own): the object is
                // unclosed.
                Some(b'#' | b'/') if self.line_comment_ends_the_text() => {
                    return Err(self.error_at(
                        start,
                        "Unterminated object constructor expression",
                        "there is no corresponding closing brace before the end of the file",
                    ));
                }
                Some(_) => {
                    if !self.newline() {
                        return Err(self.unexpected(
                            "Missing attribute separator",
                            "a newline or comma is expected to mark the beginning of the next \
                             attribute",
                        ));
                    }
                }
            }
        }
        self.leave();
        Ok(Expr::new(
            ExprKind::Object(items),
            self.span(start..self.pos),
        ))
    }

    /// A `for` expression from its keyword; `start` is its opening bracket, `close` the
    /// closing one (`]` for a tuple, `}` for an object).
    #[inline(never)]
    fn for_expr(&mut self, start: usize, close: u8) -> Result<Expr> {
        const INVALID: &str = "Invalid 'for' expression";
        self.pos += 3;
        self.skip_trivia(true);
        let first = self
            .ident()
            .ok_or_else(|| self.unexpected(INVALID, "a variable name is required after `for`"))?;
        self.skip_trivia(true);
        let mut names = vec![self.text[first].to_string()];
        if self.peek() == Some(b',') {
            self.pos += 1;
            self.skip_trivia(true);
            let second = self.ident().ok_or_else(|| {
                self.unexpected(INVALID, "a value variable name is required after the comma")
            })?;
            names.push(self.text[second].to_string());
            self.skip_trivia(true);
        }
        if !self.keyword("in") {
            return Err(self.unexpected(INVALID, "the `in` keyword is expected here"));
        }
        self.skip_trivia(true);
        let collection = self.expr(true)?;
        self.skip_trivia(true);
        if !self.colon_follows() {
            return Err(self.unexpected(INVALID, "a colon is expected after the collection"));
        }
        self.pos += 1;
        self.skip_trivia(true);
        // As hashicorp/hcl `hclsyntax/parser.go` (finishParsingForExpr) reads it: an
        // expression, which is the key if `=>` follows; a grouping `...`; an `if`; the closing
        // bracket. Whether the key and the `...` fit the brackets is judged after.
        let mut inner = Found::default();
        let first = self.pos;
        inner.add(&self.expr(true)?);
        self.skip_trivia(true);
        let mut key = None;
        if self.starts_with("=>") {
            key = Some(first);
            self.pos += 2;
            self.skip_trivia(true);
            inner.add(&self.expr(true)?);
            self.skip_trivia(true);
        }
        let mut grouping = None;
        if self.starts_with("...") {
            grouping = Some(self.pos);
            self.pos += 3;
            self.skip_trivia(true);
        }
        if self.keyword("if") {
            self.skip_trivia(true);
            inner.add(&self.expr(true)?);
            self.skip_trivia(true);
        }
        if self.peek() != Some(close) {
            return Err(self.unexpected(
                INVALID,
                format!("a closing `{}` is expected here", char::from(close)),
            ));
        }
        // HCL judges whether the key and the `...` fit the brackets once it has read the
        // closing one, and does not recover: a single-line block's parse goes on (see `soft`).
        self.pos += 1;
        let misfit = match (close, key, grouping) {
            (b']', Some(key), _) => Some((
                key,
                "a key expression (`key => value`) is not valid when building a tuple",
            )),
            (b']', None, Some(grouping)) => Some((
                grouping,
                "a grouping `...` cannot be used when building a tuple",
            )),
            (b'}', None, _) => Some((
                first,
                "a key expression (`key => value`) is required when building an object",
            )),
            _ => None,
        };
        if let Some((at, message)) = misfit {
            self.soft(self.error_at(at, INVALID, message))?;
        }
        let mut found = Found::from_expr(&collection);
        let bound: Vec<&str> = names.iter().map(String::as_str).collect();
        found.add_bound(inner, &bound);
        Ok(found.into_expr(ExprKind::Other, self.span(start..self.pos)))
    }

    /// Reads `word` as a whole identifier, if it is next.
    pub(crate) fn keyword(&mut self, word: &str) -> bool {
        if !self.starts_with(word) {
            return false;
        }
        if self.continues_ident(self.pos + word.len()) {
            return false;
        }
        self.pos += word.len();
        true
    }

    /// The error for what stands at the current position where an expression is expected.
    #[cold]
    #[inline(never)]
    pub(crate) fn invalid_expression(&self) -> ParseError {
        // A line comment that ends the file without a newline is no token to HCL's parser
        // (its peeker drops comments, and makes a newline only of the one a comment ends
        // with): what follows is the end of the file.
        if self.at_end() || self.line_comment_ends_the_text() {
            return self.error_at(
                self.text.len(),
                "Missing expression",
                "an expression is expected here, but the file ends",
            );
        }
        self.unexpected(
            "Invalid expression",
            "an expression is expected here (a value, a name, a call, ...)",
        )
    }

    /// An error for the character at the current position: HCL's scanner refuses some
    /// characters outright, whatever the parser expected (hashicorp/hcl
    /// `hclsyntax/token.go`, `checkInvalidTokens`); else `summary`.
    #[cold]
    #[inline(never)]
    pub(crate) fn unexpected(
        &self,
        summary: &'static str,
        message: impl Into<String>,
    ) -> ParseError {
        // As in `invalid_expression`, such a comment is the end of the file to the parser.
        if self.line_comment_ends_the_text() {
            return self.error_at(self.text.len(), summary, message);
        }
        let rest = &self.text[self.pos.min(self.text.len())..];
        let invalid = match rest.chars().next() {
            Some('\r') if !rest.starts_with("\r\n") => {
                Some("a carriage return must be followed by a newline")
            }
            Some('\'') => Some("single quotes are not valid: strings are in double quotes (`\"`)"),
            Some(';') => Some("a semicolon is not valid: a newline ends an argument"),
            Some('\0' | '\u{feff}' | '`' | '@' | '^' | '\\') => {
                Some("this character is not valid here")
            }
            Some(c) if c as u32 >= 0x80 && !self.ident_follows() => {
                Some("this character is not valid here")
            }
            _ => None,
        };
        if let Some(message) = invalid {
            return self.error("Invalid character", message);
        }
        // A single `&` or `|`: HCL scans them as bitwise operators, which it does not support.
        let bitwise = rest.starts_with('&') && !rest.starts_with("&&")
            || rest.starts_with('|') && !rest.starts_with("||");
        if bitwise {
            return self.error(
                "Unsupported operator",
                "bitwise operators are not supported: `&&` and `||` are the boolean ones",
            );
        }
        self.error(summary, message)
    }
}

/// The detail of "Unbalanced parentheses" where the `)` is missing after a whole expression:
/// HCL's `parseExpressionTerm` then stands at the token it found, not at the parentheses' closer,
/// which a single-line block's recovery starts from (see `body::single_line_value_refused`).
pub(super) const PARENTHESIS_NOT_CLOSED: &str =
    "a closing parenthesis (`)`) is expected to end the expression";

impl Found {
    /// What one expression holds.
    pub(crate) fn from_expr(expr: &Expr) -> Found {
        let mut found = Found::default();
        found.add(expr);
        found
    }
}

/// An object's key as the model holds it: a bare name is a name, not a reference (hcl-edit's
/// `ObjectKey::Ident`); any other key is the expression it is.
fn object_key(key: Expr) -> Expr {
    match key.kind {
        ExprKind::Variable(name) => Expr::new(ExprKind::Variable(name), key.span),
        _ => key,
    }
}

/// The key of an index that is a literal (`[0]`, `["name"]`), as a reference prints it.
fn static_index(index: &Expr) -> Option<String> {
    match &index.kind {
        ExprKind::Number(written) => Some(super::gather::number_value_text(written)),
        ExprKind::String(s) if index.json_string().is_none() => Some(format!("{s:?}")),
        _ => None,
    }
}

/// Refuses a number whose binary exponent the tools cannot represent. hashicorp/hcl parses a
/// number literal with `cty.ParseNumberVal`, Go's `big.Float` parsing, which fails with
/// "exponent overflow" when the binary exponent of the value (the bit length of its digits,
/// plus the decimal exponent less the digits after the point) leaves the range of an `int32`
/// (`math/big`, `Float.scan`).
fn check_exponent(parser: &Parser, start: usize, exponent_start: usize) -> Result<()> {
    let written = &parser.text[start..parser.pos];
    let mantissa_end = written.find(['e', 'E']).unwrap_or(written.len());
    let mantissa = written[..mantissa_end].trim_start_matches(['-', ' ', '\t']);
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    let digits = digits.trim_start_matches('0');
    let exponent_text = &parser.text[exponent_start..parser.pos];
    let negative = parser.text.as_bytes()[exponent_start - 1] == b'-';
    let overflow = || {
        parser.error_at(
            start,
            "Invalid number literal",
            "the exponent of this number is too large (the tools fail with an exponent overflow)",
        )
    };
    // The decimal exponent is read as an `int64` first (`math/big`, `scanExponent`), whatever
    // the digits before it: beyond that range even zero fails.
    let sign = if negative { "-" } else { "" };
    if format!("{sign}{exponent_text}").parse::<i64>().is_err() {
        return Err(overflow());
    }
    if digits.is_empty() {
        // Zero has no binary exponent.
        return Ok(());
    }
    let exponent_digits = exponent_text.trim_start_matches('0');
    let limit = i64::from(i32::MAX);
    let exponent = if exponent_digits.len() > 12 {
        limit * 4
    } else {
        exponent_digits.parse::<i64>().unwrap_or(0)
    };
    let exponent = if negative { -exponent } else { exponent };
    let bit_length = match digits.parse::<u64>() {
        Ok(value) => i64::from(64 - value.leading_zeros()),
        // Beyond 19 digits: from the number of digits (exact enough far from the limits).
        Err(_) => (digits.len() as f64 * std::f64::consts::LOG2_10).ceil() as i64,
    };
    let binary_exponent = bit_length + exponent - fraction.len() as i64;
    if binary_exponent > limit || binary_exponent < -limit - 1 {
        return Err(overflow());
    }
    Ok(())
}

/// Whether a number token (see [`number_token_end`]) is a number: digits, a decimal point and
/// digits maybe, an exponent maybe (`1.e5` is one). `Some` with where the exponent's digits
/// start, if it has one; `None` for a token that is no number (`1.2.3`, `1e5e5`).
fn number_form(token: &[u8]) -> Option<Option<usize>> {
    let digits_end = |from: usize| {
        from + token[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut i = digits_end(0);
    if token.get(i) == Some(&b'.') {
        i = digits_end(i + 1);
    }
    let mut exponent = None;
    if matches!(token.get(i), Some(b'e' | b'E')) {
        i += 1 + usize::from(matches!(token.get(i + 1), Some(b'+' | b'-')));
        exponent = Some(i);
        i = digits_end(i);
    }
    (i == token.len()).then_some(exponent)
}
