//! The summaries Terraform and OpenTofu give syntax errors: both parsers give HCL's summaries
//! themselves ([`super::hcl`], [`super::json`]); these are the JSON decoder's, and the tests
//! pin the summaries of both syntaxes.

/// A JSON value of the wrong kind where a body, a label or the root is (HCL's JSON decoder).
pub(crate) const INCORRECT_JSON_VALUE_TYPE: &str = "Incorrect JSON value type";
/// A JSON label level with no label in it.
pub(crate) const MISSING_BLOCK_LABEL: &str = "Missing block label";

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
            // A newline where the value should be: Terraform 1.15.5 says so, and "Missing
            // expression" only at the end of the file.
            ("a = \n", "Invalid expression"),
            ("a =", "Missing expression"),
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
            // No closing marker at all, or none alone on its line.
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
            ("${x\"", "Extra characters after interpolation expression"),
            ("${\"a", "Unterminated template string"),
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
            let error = match crate::syntax::hcl::parse_value_template(template) {
                Err(error) => error,
                Ok(_) => panic!("{template:?} parsed"),
            };
            assert_eq!(error.summary, want, "{template:?}");
        }
    }

    #[test]
    fn json_summaries_are_hcls() {
        let cases = [
            ("{\"a\": 1,}", "Trailing comma in object"),
            ("{\"locals\": {\"a\": 01}}", "Invalid JSON number"),
            ("{\"a\": 1 \"b\": 2}", "Missing attribute seperator comma"),
            ("{\"a\": [1,]}", "Trailing comma in array"),
            ("{\"a\" 1}", "Missing property value colon"),
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
