//! The summaries Terraform and OpenTofu give syntax errors (HCL's, for the native and the JSON
//! parser), for the errors our parsers report on the same input. The parser's own text stays as
//! the detail: the summary is what a user of the tools recognises and searches for.

use jsonc_parser::errors::ParseErrorKind;

/// A JSON value of the wrong kind where a body, a label or the root is (HCL's JSON decoder).
pub(crate) const INCORRECT_JSON_VALUE_TYPE: &str = "Incorrect JSON value type";
/// A JSON label level with no label in it.
pub(crate) const MISSING_BLOCK_LABEL: &str = "Missing block label";

/// HCL's summary for an error hcl-edit reports with `message` at byte `offset` of `text`.
pub(crate) fn native_summary(text: &str, offset: usize, message: &str) -> &'static str {
    let rest = text.get(offset..).unwrap_or("");
    let at_end = rest.trim().is_empty();
    let next = rest.trim_start_matches([' ', '\t']).chars().next();
    let line = line_at(text, offset);
    // Characters HCL's scanner rejects outright, whatever the parser expected there.
    let lone_carriage_return = rest.trim_start_matches([' ', '\t']).starts_with('\r')
        && !rest.trim_start_matches([' ', '\t']).starts_with("\r\n");
    if matches!(next, Some('\'' | ';' | '\0' | '\u{feff}')) || lone_carriage_return {
        return "Invalid character";
    }
    if message.starts_with("invalid expression") {
        // `a == 1`: HCL scans `==` as one operator, which no argument starts with.
        let after_equals = text
            .get(..offset)
            .is_some_and(|before| before.ends_with('='));
        return if at_end {
            "Missing expression"
        } else if next == Some('=') && after_equals {
            "Argument or block definition required"
        } else {
            "Invalid expression"
        };
    }
    if message.starts_with("expected `:`") {
        // The colon of a `for` expression, else of a conditional.
        let before = &line[..line.len() - line_after(text, offset).len()];
        let in_for = ["[for ", "{for ", "[ for ", "{ for "]
            .iter()
            .any(|open| before.contains(open));
        return if in_for {
            "Invalid 'for' expression"
        } else {
            "Missing false expression in conditional"
        };
    }
    if message.starts_with("invalid escape sequence") {
        return "Invalid escape sequence";
    }
    if message.starts_with("expected heredoc end delimiter") {
        return "Unterminated template string";
    }
    if message.starts_with("invalid block body") {
        return if at_end {
            "Unclosed configuration block"
        } else if next == Some('"') && quoted_name_then_equals(rest) {
            // `"a" = 1`: an argument's name is an identifier, never a string.
            "Invalid argument name"
        } else if line.matches('"').count() % 2 == 1 {
            // A quoted string the line does not close: HCL's scanner refuses it first.
            "Invalid multi-line string"
        } else if !at_line_start(text, offset) && line.contains('{') {
            // More after a block's first argument on its opening line (`b { x = 1 y = 2 }`).
            "Invalid single-argument block definition"
        } else {
            "Argument or block definition required"
        };
    }
    if message.starts_with("expected newline or eof") {
        // After a complete argument, more on the same line (`a = 1 }` too); a stray `}` on a
        // line of its own ends no block.
        return if next == Some('}') && at_line_start(text, offset) {
            "Argument or block definition required"
        } else {
            "Missing newline after argument"
        };
    }
    if message.starts_with("invalid structure") {
        // A name followed by neither `=` nor a block (`a 1`, `a: 1`).
        return "Argument or block definition required";
    }
    if message.starts_with("invalid object item") {
        return "Missing attribute separator";
    }
    if message.starts_with("expected `)`") && !at_end {
        return "Missing argument separator";
    }
    if message.starts_with("expected `]`") {
        return if at_end {
            "Unterminated tuple constructor expression"
        } else {
            "Missing item separator"
        };
    }
    if message.starts_with("expected `}`") {
        // Inside a quoted template's `${`, more than one expression (`"${aws:username}"`).
        let before = &line[..line.len().saturating_sub(line_after(text, offset).len())];
        if before.contains("\"") && before.contains("${") && line_after(text, offset).contains('}')
        {
            return "Extra characters after interpolation expression";
        }
        // hcl-edit points at the start of the expression; HCL at what follows it.
        return if !rest.contains('}') {
            "Unterminated object constructor expression"
        } else {
            "Missing attribute separator"
        };
    }
    if message.starts_with("expected `=`") {
        return "Missing attribute value";
    }
    match next {
        Some('"') if at_line_start(text, offset) => "Argument or block definition required",
        Some('"') => "Unterminated template string",
        Some(c) if at_line_start(text, offset) && !(c.is_alphabetic() || c == '_') => {
            "Argument or block definition required"
        }
        None | Some('\n' | '\r') if at_end => "Missing expression",
        _ => "Invalid expression",
    }
}

/// HCL's summary for an error hcl-edit's template parser reports with `message` at byte
/// `offset` of `template` (a JSON string evaluated as a template, HCL's `parseTemplateParts`).
pub(crate) fn template_summary(template: &str, offset: usize, message: &str) -> &'static str {
    let rest = template.get(offset..).unwrap_or("");
    let at_end = rest.trim().is_empty();
    // hcl-edit rewinds to the start of a sequence it cannot finish.
    if let Some(sequence) = rest.strip_prefix("${") {
        return if sequence.trim_start_matches('~').trim().is_empty() {
            "Missing expression"
        } else {
            "Unclosed template interpolation sequence"
        };
    }
    if let Some(directive) = rest.strip_prefix("%{") {
        return directive_summary(directive.trim_start_matches('~').trim_start());
    }
    if message.starts_with("invalid expression") {
        return if at_end {
            "Missing expression"
        } else {
            "Invalid expression"
        };
    }
    if message.starts_with("expected `}`") {
        // hcl-edit points at the start of the expression; HCL at what follows it.
        return if !rest.contains('}') {
            "Unclosed template interpolation sequence"
        } else {
            "Extra characters after interpolation expression"
        };
    }
    if message.starts_with("expected identifier") {
        return "Invalid 'for' directive";
    }
    if message.starts_with("expected `end") {
        // hcl-edit points at the keyword of a misplaced directive, or at the end.
        return match at_end {
            true => "Unexpected end of template",
            false => directive_summary(rest),
        };
    }
    if message.starts_with("invalid escape sequence") {
        return "Invalid escape sequence";
    }
    "Invalid expression"
}

/// HCL's summary for a template directive starting with `keyword` where it cannot stand.
fn directive_summary(keyword: &str) -> &'static str {
    let keyword = keyword
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .next()
        .unwrap_or("");
    match keyword {
        // A directive that opens a block whose end never comes.
        "if" | "for" => "Unexpected end of template",
        "else" => "Unexpected else directive",
        "endif" => "Unexpected endif directive",
        "endfor" => "Unexpected endfor directive",
        // No keyword at all, or a word that is not one.
        "" => "Invalid template directive",
        _ if keyword.starts_with(|c: char| c.is_ascii_digit()) => "Invalid template directive",
        _ => "Invalid template control keyword",
    }
}

/// Whether `rest` starts with a quoted string followed by `=` (not `==`) on its line.
fn quoted_name_then_equals(rest: &str) -> bool {
    let Some(after_open) = rest.trim_start_matches([' ', '\t']).strip_prefix('"') else {
        return false;
    };
    let Some(close) = after_open.find('"') else {
        return false;
    };
    let after = after_open[close + 1..].trim_start_matches([' ', '\t']);
    after.starts_with('=') && !after.starts_with("==")
}

/// The whole line of `text` that holds byte `offset`, without its newline.
fn line_at(text: &str, offset: usize) -> &str {
    let start = text.get(..offset).map_or(0, |before| {
        before.rfind('\n').map_or(0, |newline| newline + 1)
    });
    let rest = text.get(start..).unwrap_or("");
    rest.split('\n').next().unwrap_or("")
}

/// What follows byte `offset` of `text` on its line.
fn line_after(text: &str, offset: usize) -> &str {
    let rest = text.get(offset..).unwrap_or("");
    rest.split('\n').next().unwrap_or("")
}

/// Whether only spaces and tabs stand between the start of the line and `offset`.
fn at_line_start(text: &str, offset: usize) -> bool {
    let before = text.get(..offset).unwrap_or("");
    let line = before.rsplit('\n').next().unwrap_or("");
    line.chars().all(|c| c == ' ' || c == '\t')
}

/// Whether byte `offset` of `text` is a digit right after a number's leading `0` (`01`).
fn leading_zero_number(text: &str, offset: usize) -> bool {
    let (Some(before), Some(after)) = (text.get(..offset), text.get(offset..)) else {
        return false;
    };
    let number_start = before.trim_end_matches(|c: char| c.is_ascii_digit());
    let digits = &before[number_start.len()..];
    let signless = !number_start.ends_with(['.', 'e', 'E', '+']);
    digits == "0" && signless && after.starts_with(|c: char| c.is_ascii_digit())
}

/// HCL's summary for an error jsonc-parser reports (`offset` is where it points).
pub(crate) fn json_summary(text: &str, offset: usize, kind: &ParseErrorKind) -> &'static str {
    use ParseErrorKind as K;
    let before = text.get(..offset).unwrap_or("").trim_end().chars().last();
    let after = text.get(offset..).unwrap_or("");
    let next = after
        .trim_start_matches(|c: char| c == ',' || c.is_whitespace())
        .chars()
        .next();
    match kind {
        K::BareDecimalPointNumbersNotAllowed
        | K::ExpectedDigit
        | K::ExpectedDigitFollowingNegativeSign
        | K::ExpectedPlusMinusOrDigitInNumberLiteral
        | K::HexadecimalNumbersNotAllowed
        | K::UnaryPlusNumbersNotAllowed => "Invalid JSON number",
        K::ExpectedColonAfterObjectKey => "Missing attribute value colon",
        K::ExpectedObjectValue => "Missing attribute value",
        K::ExpectedStringObjectProperty => "Invalid object attribute name",
        // `01`: jsonc-parser reads `0` and stops; HCL's scanner rejects the number.
        K::ExpectedComma if leading_zero_number(text, offset) => "Invalid JSON number",
        // HCL's spelling.
        K::ExpectedComma => "Missing attribute seperator comma",
        K::MultipleRootJsonValues => "Extraneous data after value",
        K::NonFiniteNumbersNotAllowed | K::UnexpectedWord => "Invalid JSON keyword",
        K::String(_) => "Invalid JSON string",
        K::TrailingCommasNotAllowed if next == Some(']') => "Trailing comma in array",
        K::TrailingCommasNotAllowed => "Trailing comma in object",
        K::UnexpectedCloseBrace if before == Some(':') => "Missing attribute value",
        K::UnexpectedCloseBrace => "Mismatched brackets",
        K::UnexpectedCloseBracket if matches!(before, Some(',' | '[')) => {
            "Missing array element value"
        }
        K::UnexpectedCloseBracket => "Mismatched braces",
        K::UnterminatedArray | K::UnterminatedObject => "Unclosed object",
        K::NestingDepthExceeded => "Nesting too deep",
        _ if after.starts_with(char::is_alphabetic) => "Invalid JSON keyword",
        _ => "Invalid start of value",
    }
}

#[cfg(test)]
mod tests {
    use crate::source::{FileId, Syntax};
    use crate::syntax::parse;

    /// The summary of the syntax error parsing `text` gives.
    fn summary(syntax: Syntax, text: &str) -> &'static str {
        match parse(FileId(0), syntax, text).file {
            Err(error) => error.summary,
            Ok(_) => panic!("{text:?} parsed"),
        }
    }

    #[test]
    fn native_summaries_are_hcls() {
        let cases = [
            ("a = \n", "Missing expression"),
            ("a = )\n", "Invalid expression"),
            ("a = 'x'\n", "Invalid character"),
            ("a = 1;\n", "Invalid character"),
            ("a = 1 b = 2\n", "Missing newline after argument"),
            ("resource \"x\" \"y\" {\n", "Unclosed configuration block"),
            ("= 1\n", "Argument or block definition required"),
            (
                "block {\n  a = 1\n}\n}\n",
                "Argument or block definition required",
            ),
            ("a = \"\\q\"\n", "Invalid escape sequence"),
            // No closing marker at all (a marker followed by text is caught before parsing).
            ("a = <<EOT\nhi\n", "Unterminated template string"),
            ("a = <<EOT\nhi\nEOT)\n", "Unterminated template string"),
            // Each as Terraform 1.15.5's loader summarises it.
            ("l {\n  a = 1\0\n}\n", "Invalid character"),
            (
                "l {\n  a == 1\n}\n",
                "Argument or block definition required",
            ),
            (
                "l {\n  a = true ? 1\n}\n",
                "Missing false expression in conditional",
            ),
            ("l {\n  a = [for x in y]\n}\n", "Invalid 'for' expression"),
            ("l {\n  \"a\" = 1\n}\n", "Invalid argument name"),
            ("l {\r  a = 1\r}\r", "Invalid character"),
            ("l {\n  a = 1\n}\n\u{feff}\n", "Invalid character"),
            ("l {\n  a = \"abc\n}\n", "Invalid multi-line string"),
            (
                "v \"a\" { default = 1 type = string }\n",
                "Invalid single-argument block definition",
            ),
            ("l { a = 1\n}\n", "Invalid single-argument block definition"),
            ("l {\n  a = 1 }\n", "Missing newline after argument"),
            ("l {\n  a 1\n}\n", "Argument or block definition required"),
            ("l {\n  a: 1\n}\n", "Argument or block definition required"),
            (
                "l {\n  a = { b = 1 c = 2 }\n}\n",
                "Missing attribute separator",
            ),
            ("l {\n  a = max(1, 2\n}\n", "Missing argument separator"),
            (
                "l {\n  a = \"${aws:username}\"\n}\n",
                "Extra characters after interpolation expression",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(summary(Syntax::Native, text), want, "{text:?}");
        }
    }

    #[test]
    fn template_summaries_are_hcls() {
        let cases = [
            ("${", "Missing expression"),
            ("a ${", "Missing expression"),
            ("${}", "Invalid expression"),
            ("x${)}", "Invalid expression"),
            ("${a", "Unclosed template interpolation sequence"),
            ("${a b}", "Extra characters after interpolation expression"),
            (
                "${aws:username}",
                "Extra characters after interpolation expression",
            ),
            ("%{if x}", "Unexpected end of template"),
            ("%{ bogus }", "Invalid template control keyword"),
            ("%{ 1 }", "Invalid template directive"),
            ("%{for}", "Invalid 'for' directive"),
            ("%{if x}a%{endfor}", "Unexpected endfor directive"),
        ];
        for (template, want) in cases {
            let error = match hcl_edit::parser::parse_template(template) {
                Err(error) => error,
                Ok(_) => panic!("{template:?} parsed"),
            };
            let offset = error.location().offset();
            let got = super::template_summary(template, offset, error.message());
            assert_eq!(got, want, "{template:?}");
        }
    }

    #[test]
    fn json_summaries_are_hcls() {
        let cases = [
            ("{\"a\": 1,}", "Trailing comma in object"),
            ("{\"locals\": {\"a\": 01}}", "Invalid JSON number"),
            ("{\"a\": 1 \"b\": 2}", "Missing attribute seperator comma"),
            ("{\"a\": [1,]}", "Trailing comma in array"),
            ("{\"a\" 1}", "Missing attribute value colon"),
            ("{\"a\": 1 \"b\": 2}", "Missing attribute seperator comma"),
            ("{\"a\": undefined}", "Invalid JSON keyword"),
            ("{\"a\": 1", "Unclosed object"),
            ("{} {}", "Extraneous data after value"),
            (
                "{\"variable\": {\"//\": \"a label\"}}",
                "Incorrect JSON value type",
            ),
            ("{\"resource\": {\"t\": []}}", "Missing block label"),
        ];
        for (text, want) in cases {
            assert_eq!(summary(Syntax::Json, text), want, "{text:?}");
        }
    }
}
