//! A native file that no targeted release parses: a function called by a namespaced name
//! (`core::upper(..)`, `provider::aws::arn_parse(..)`) where every targeted release predates
//! function namespaces, which came with hashicorp/hcl 2.20 (Terraform 1.8, OpenTofu 1.7; the
//! `FunctionNamespace` rows of `knowledge::features`). Before it HCL's scanner reads `::` as
//! two colons, so the name ends before them and the construct around the call meets a colon it
//! does not expect: `Missing newline after argument` for a call that makes up an argument's
//! value, `Missing item separator` in a list, `Extra characters after interpolation
//! expression` in a template... (hashicorp/hcl v2.19 `hclsyntax/parser.go`). The tools refuse
//! to load the file, and their parser reports the first such call of a file only (it is in
//! recovery from then on). Where only some targeted releases lack namespaces,
//! `feature_newer_than_target` says so; in JSON files the tools parse a string's template only
//! when they evaluate it, and `unknown_function` reports it there.

use crate::diagnostic::Diagnostic;
use crate::knowledge::features::Place;
use crate::source::Syntax;
use crate::syntax::{Body, SyntaxError, hcl};

use crate::lint::helpers::function_namespace::before_namespaces_note;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "syntax_newer_than_target",
    kind: LoadError,
    summary: "syntax that no targeted release parses (`::` in a function's name)",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let refusing = ctx.targets.refusing(Place::FunctionNamespace, "core");
    if refusing.len() != ctx.targets.releases.len() {
        return;
    }
    let files = ctx.primary.iter().chain(ctx.overrides);
    for loaded in files.filter(|f| f.extension.syntax() == Syntax::Native) {
        if !holds_namespaced_call(&loaded.file.body) {
            continue;
        }
        let Some(text) = ctx.files.get(loaded.file.id).whole_text() else {
            continue;
        };
        if let Some(error) = hcl::parse_before_namespaces(loaded.file.id, text) {
            out.push(namespace_not_parsed(ctx, &error));
        }
    }
}

/// Whether a call anywhere in the body has a namespaced name (most files have none, and are
/// not parsed again).
fn holds_namespaced_call(body: &Body) -> bool {
    let mut found = false;
    for attr in body.attributes.iter().filter(|a| a.expr.holds_calls()) {
        attr.expr
            .for_each_call(&mut |site| found |= site.call.name.contains("::"));
        if found {
            return true;
        }
    }
    body.blocks.iter().any(|b| holds_namespaced_call(&b.body))
}

/// The summary the parser without namespaces gives, at its place.
fn namespace_not_parsed(ctx: &Context, error: &SyntaxError) -> Diagnostic {
    ctx.finding(&RULE, error.summary)
        .at(ctx.files, error.span, error.message.clone())
        .with_note(before_namespaces_note(ctx))
        .with_help(
            "call a built-in function by its bare name (`upper(..)` for `core::upper(..)`); \
             provider-defined functions need a release with namespaces: raise \
             `required_version`",
        )
}

#[cfg(test)]
mod tests {
    use crate::lint::directory::TargetVersions;
    use crate::lint::testing::{Files, check_table, findings_targeting};

    /// Terraform 1.7 and OpenTofu 1.6: neither has namespaces.
    const BEFORE: &str = "terraform {\n  required_version = \"< 1.7\"\n}\n";

    const PASS: &[Files] = &[
        // Releases with namespaces.
        &[("main.tf", "locals {\n  a = core::upper(\"x\")\n}\n")],
        // No namespaced name; `::` in a string is text.
        &[
            ("main.tf", "locals {\n  a = upper(\"x::y\")\n}\n"),
            ("versions.tf", BEFORE),
        ],
        // JSON strings are parsed when they are evaluated: `unknown_function`'s.
        &[
            (
                "main.tf.json",
                r#"{"locals": {"a": "${core::upper(\"x\")}"}}"#,
            ),
            ("versions.tf", BEFORE),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("main.tf", "locals {\n  a = core::upper(\"x\")\n}\n"),
                ("versions.tf", BEFORE),
            ],
            1,
        ),
        // Anywhere in any file the view loads, evaluated or not, once per file.
        (
            &[
                (
                    "main.tf",
                    "variable \"v\" {\n  default = provider::p::f(1)\n}\nlocals {\n  b = \
                     aws::f()\n}\n",
                ),
                (
                    "x_override.tf",
                    "locals {\n  a = [try(core::upper(\"x\"), 1)]\n}\n",
                ),
                ("versions.tf", BEFORE),
            ],
            2,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// The summary and (line, column) of each finding, in one targeted Terraform release.
    fn errors(text: &str) -> Vec<(String, (usize, usize))> {
        let targets = TargetVersions {
            terraform: Some("1.6.6".into()),
            opentofu: Some("1.9.0".into()),
        };
        let found = findings_targeting(&super::RULE, &[("main.tf", text)], targets);
        found
            .iter()
            .map(|d| {
                let primary = d.primary.as_ref().expect("a location");
                (d.message.to_string(), primary.start())
            })
            .collect()
    }

    /// Each summary and place as Terraform 1.6.6 reports them: the construct around the call
    /// meets the first colon (in a conditional's first result, and in a `for` expression's
    /// collection, it takes that colon for its own and meets the second).
    #[test]
    fn the_words_of_the_construct_around_the_call() {
        let cases = [
            (
                "a = core::upper(\"x\")",
                "Missing newline after argument",
                11,
            ),
            (
                "a = \"x\" == core::upper(\"x\")",
                "Missing newline after argument",
                18,
            ),
            ("a = [1, core::upper(\"x\")]", "Missing item separator", 15),
            (
                "a = upper(core::upper(\"x\"))",
                "Missing argument separator",
                17,
            ),
            (
                "a = { k = core::upper(\"x\") }",
                "Missing attribute separator",
                17,
            ),
            ("a = (core::upper(\"x\"))", "Unbalanced parentheses", 12),
            (
                "a = \"${core::upper(\"x\")}\"",
                "Extra characters after interpolation expression",
                14,
            ),
            (
                "a = \"%{ if core::upper(\"x\") == \"X\" }y%{ endif }\"",
                "Extra characters in if marker",
                18,
            ),
            (
                "a = true ? core::upper(\"x\") : \"y\"",
                "Invalid expression",
                19,
            ),
            (
                "a = true ? \"y\" : core::upper(\"x\")",
                "Missing newline after argument",
                24,
            ),
            (
                "a = [for s in core::split(\",\", \"a\") : s]",
                "Invalid expression",
                22,
            ),
            (
                "a = [for s in [] : core::upper(s)]",
                "Invalid 'for' expression",
                26,
            ),
        ];
        for (attribute, summary, column) in cases {
            let text = format!("locals {{\n  {attribute}\n}}\n");
            assert_eq!(
                errors(&text),
                [(summary.to_string(), (2, column))],
                "{attribute}"
            );
        }
    }

    /// The parser reports the first call of a file only.
    #[test]
    fn once_per_file() {
        let text = "locals {\n  a = core::upper(\"x\")\n  b = provider::x::y(1)\n}\n";
        assert_eq!(errors(text).len(), 1);
    }
}
