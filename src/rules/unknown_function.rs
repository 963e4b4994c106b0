//! Calls to functions that no targeted release of the tool has: `Call to unknown function`
//! (with the tools' "Did you mean"), and namespaced calls that the tool cannot resolve whatever
//! the providers offer, in each tool's own words (`Unknown provider function` in Terraform;
//! `Unknown function namespace`, `Invalid function format`, `Unknown function provider` in
//! OpenTofu). Judged in the expressions the tools evaluate, against the targeted releases (see
//! `lint::helpers::schema`): a function only some targeted releases have is
//! `feature_newer_than_target`'s.
//!
//! What `validate` refuses, not a load error: `init` loads the module (the tools look functions
//! up while evaluating), and in the arguments of `try` and `can` the tools evaluate, catch the
//! error and take the fallback, so calls there are not judged (but for what fails before
//! evaluation, see `judge_call`). Only the calls of the effective module are judged: the tools
//! evaluate the merged configuration, so a call an override file replaced is never looked up
//! (hashicorp/terraform `internal/configs/module.go`, `mergeFile`).

use std::collections::HashMap;

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::features::Place;
use crate::lint::helpers::evaluated_calls::Unevaluated;
use crate::module::merge::MergedBody;
use crate::source::{Span, Syntax};
use crate::syntax::{Call, Expr, hcl};

use crate::lint::helpers::function_namespace::{self, Problem};
use crate::lint::helpers::schema::{
    Judgement, Written, availability_note, did_you_mean, judgements,
};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "unknown_function",
    kind: Validate,
    summary: "a call to a function no targeted release has",
    check: Check::View(RuleViews::Both, check),
};

/// The calls of the effective module that every targeted release refuses, where the tools
/// look them up: not in the arguments of a call refused before them (see `Unevaluated`).
fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let mut refused = judgements(ctx)
        .iter()
        .filter(|j| {
            matches!(
                j.written,
                Written::Function | Written::CoreFunction | Written::Namespaced(_)
            ) && j.refused_by_all(ctx)
        })
        .peekable();
    if refused.peek().is_none() {
        return;
    }
    // Built only when some call is refused, which is rare.
    let reached = reached_calls(ctx);
    for judgement in refused {
        if !reached.contains_key(&judgement.span) {
            continue;
        }
        let type_keywords = reached
            .get(&judgement.span)
            .map(|call| type_keywords(ctx, call));
        if let Some(keywords) = type_keywords.filter(|k| !k.is_empty()) {
            // Validate analyses an expression's references before it evaluates the expression:
            // a type keyword taken for a reference (`convert(x, string)` before 1.15) is
            // refused first, and the call is never looked up.
            for keyword in keywords {
                out.push(invalid_reference(ctx, keyword));
            }
            continue;
        }
        if judgement.place != Place::FunctionNamespace || judgement.written != Written::Function {
            out.push(unknown_function(ctx, judgement));
            continue;
        }
        // A namespaced name no targeted release parses: in a native file the file does not
        // parse (`syntax_newer_than_target`); in JSON the tools parse a string's template
        // when they evaluate it, and refuse it then.
        if judgement.syntax != Syntax::Native {
            out.push(template_before_namespaces(ctx, judgement));
        }
    }
}

/// The error of a JSON string's template that a release without function namespaces parses
/// (see `syntax::hcl::parse_before_namespaces`), at the call: `Extra characters after
/// interpolation expression` where the call makes up an interpolation.
fn template_before_namespaces(ctx: &Context, judgement: &Judgement) -> Diagnostic {
    let error = enclosing_json_string(ctx, judgement.span)
        .and_then(|value| hcl::parse_value_template_before_namespaces(&value));
    let (summary, label) = match &error {
        Some(error) => (error.summary, error.message.clone()),
        None => (
            judgement.summary(),
            format!("no function `{}`", judgement.name),
        ),
    };
    let mut d = ctx
        .finding(&RULE, summary)
        .at(ctx.files, judgement.span, label)
        .with_note(function_namespace::before_namespaces_note(ctx));
    if let Some(note) = availability_note(ctx, judgement) {
        d = d.with_note(note);
    }
    d
}

/// The value of the JSON string that holds `span` in its file (a call's name).
fn enclosing_json_string(ctx: &Context, span: Span) -> Option<String> {
    let text = ctx.files.get(span.file).whole_text()?;
    let bytes = text.as_bytes();
    // A quote ends a JSON string unless an odd number of backslashes precede it.
    let unescaped_quote = |at: usize| {
        bytes[at] == b'"'
            && bytes[..at]
                .iter()
                .rev()
                .take_while(|&&b| b == b'\\')
                .count()
                % 2
                == 0
    };
    let start = (0..span.start as usize)
        .rev()
        .find(|&at| unescaped_quote(at))?;
    let end = (span.end as usize..bytes.len()).find(|&at| unescaped_quote(at))?;
    serde_json::from_str(&text[start..=end]).ok()
}

/// The arguments of a call that are a bare type keyword (`string`, `number`, `bool`, `any`),
/// which a function that takes a type, `convert`, reads as a type and every other expression
/// as a reference to a resource type, an invalid one.
fn type_keywords(ctx: &Context, call: &Call) -> Vec<Span> {
    (call.arguments.items.iter())
        .filter(|argument| argument.literal.is_none())
        .filter(|argument| {
            matches!(
                ctx.files.text(argument.span),
                "string" | "number" | "bool" | "any"
            )
        })
        .map(|argument| argument.span)
        .collect()
}

/// `Invalid reference`, at a type keyword read as a reference (hashicorp/terraform
/// `internal/addrs/parse_ref.go`: a name that is no other root is a resource type).
fn invalid_reference(ctx: &Context, keyword: Span) -> Diagnostic {
    ctx.finding(&RULE, "Invalid reference")
        .at(ctx.files, keyword, "a type, read as a reference")
        .with_note(
            "A reference to a resource type must be followed by at least one attribute access, \
             specifying the resource name.",
        )
        .with_note(format!(
            "Only a function that takes a type reads it as one, and no such function is known \
             to {}.",
            ctx.targets.describe()
        ))
}

/// Where the calls of the effective module the tools reach are: in the merged objects, locals
/// and the blocks that are not merged, and not in the arguments of a refused call; each with
/// its call.
fn reached_calls<'c>(ctx: &'c Context) -> HashMap<Span, &'c Call> {
    struct Walk<'c, 'a> {
        ctx: &'c Context<'a>,
        unevaluated: Unevaluated,
        calls: HashMap<Span, &'c Call>,
    }
    impl<'c> Walk<'c, '_> {
        fn expression(&mut self, expr: &'c Expr) {
            self.unevaluated.next_expression();
            expr.for_each_call(&mut |site| {
                if self.unevaluated.reached(self.ctx, site.call) {
                    self.calls.insert(site.call.span, site.call);
                }
            });
        }
        fn body(&mut self, body: &'c MergedBody) {
            for attr in &body.attributes {
                self.expression(&attr.expr);
            }
            for block in &body.blocks {
                self.body(&block.body);
            }
        }
    }
    let mut walk = Walk {
        ctx,
        unevaluated: Unevaluated::new(ctx),
        calls: HashMap::new(),
    };
    let module = ctx.module;
    for object in &module.objects {
        walk.body(&object.body);
    }
    for block in &module.unmerged {
        walk.body(&block.body);
    }
    for local in &module.locals {
        walk.expression(&local.attribute.expr);
    }
    walk.calls
}

/// `Call to unknown function`, or for a namespaced call the tool's own summary, with the tools'
/// detail.
fn unknown_function(ctx: &Context, judgement: &Judgement) -> Diagnostic {
    let name = &judgement.name;
    let (detail, label) = match judgement.written {
        Written::CoreFunction => (
            match ctx.view {
                View::Terraform => {
                    Problem::InvalidNamespace.detail(ctx.view, &format!("core::{name}"))
                }
                View::OpenTofu => function_namespace::core_detail(name),
            },
            format!("no built-in function `{name}`"),
        ),
        Written::Namespaced(problem) => (
            problem.detail(ctx.view, name),
            match problem {
                Problem::ProviderNotRequired => format!(
                    "provider `{}` not in `required_providers`",
                    name.split("::").nth(1).unwrap_or_default()
                ),
                Problem::AliasForm => "Terraform has no alias form of provider functions".into(),
                _ => format!("no function `{name}`"),
            },
        ),
        _ => (
            format!(
                "There is no function named \"{name}\".{}",
                did_you_mean(ctx, judgement)
            ),
            format!("no function `{name}`"),
        ),
    };
    let mut d = ctx
        .finding(&RULE, judgement.summary())
        .at(ctx.files, judgement.span, label)
        .with_note(detail);
    let provider = name.split("::").nth(1).unwrap_or_default();
    match judgement.written {
        Written::Namespaced(Problem::ProviderNotRequired) => {
            d = d.with_help(format!(
                "declare `{provider}` in `terraform {{ required_providers {{ ... }} }}`, or call \
                 the function by the local name the module gives its provider there"
            ));
        }
        Written::Namespaced(Problem::AliasForm) => {
            d = d.with_help(format!(
                "call it as `provider::{provider}::{}` (`provider::NAME::ALIAS::FUNC` is \
                 OpenTofu's), or keep the call in a `.tofu` file",
                name.rsplit("::").next().unwrap_or_default()
            ));
        }
        _ => {}
    }
    match availability_note(ctx, judgement) {
        Some(note) => d.with_note(note),
        None => d,
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::directory::TargetVersions;
    use crate::lint::testing::{Files, described, findings, findings_of, findings_targeting, only};

    use crate::rules::unsupported_construct;

    /// The schema load errors of a case, (summary, first note, views): one judgement gives
    /// either, so their tests look at both.
    fn errors(files: Files) -> Vec<(String, String, String)> {
        let rules = [&super::RULE, &unsupported_construct::RULE];
        described(findings_of(&rules, files))
    }

    fn one(files: Files) -> (String, String, String) {
        only(errors(files))
    }

    /// A module that may call the `aws` provider's functions.
    const REQUIRES_AWS: &str = "terraform {\n  required_providers {\n    aws = {\n      source = \
                                \"hashicorp/aws\"\n    }\n  }\n}\n";

    /// HCL looks a function up and counts its arguments before it evaluates them: in the
    /// arguments of an unknown call or of a call with the wrong number of arguments, nothing is
    /// looked up (Terraform 1.15.5 `validate` reports only the outer call), native and JSON.
    #[test]
    fn nothing_is_looked_up_in_the_arguments_of_a_refused_call() {
        let native = "locals {\n  a = nofunc(otherfunc())\n  b = upper(\"a\", nofunc())\n  c = \
                      length(nofunc(), 2)\n  d = upper(nofunc())\n}\n";
        let lines: Vec<usize> = findings(&super::RULE, &[("main.tf", native)])
            .iter()
            .map(|d| {
                d.primary
                    .as_ref()
                    .map_or(0, |l| native[..l.range.start].lines().count())
            })
            .collect();
        assert_eq!(lines, [2, 5]);
        let json =
            r#"{"locals": {"a": "${nofunc(otherfunc())}", "b": "${upper(\"a\", nofunc())}"}}"#;
        let found = findings(&super::RULE, &[("main.tf.json", json)]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].notes[0].contains("\"nofunc\""), "{found:?}");
    }

    /// A call an override file replaced is never evaluated: Terraform loads this module.
    #[test]
    fn a_call_an_override_replaced_is_not_judged() {
        let main = "locals {\n  x = nofunc(1)\n}\nresource \"terraform_data\" \"a\" {\n  input = nofunc(2)\n}\n";
        let over = "locals {\n  x = 1\n}\nresource \"terraform_data\" \"a\" {\n  input = 2\n}\n";
        assert!(errors(&[("main.tf", main), ("override.tf", over)]).is_empty());
        // Without the override, both calls are refused.
        assert_eq!(errors(&[("main.tf", main)]).len(), 2);
    }

    #[test]
    fn unknown_functions() {
        let call = "locals {\n  a = startwith(\"ab\", \"a\")\n  b = core::upper(\"x\")\n}\n";
        let (summary, detail, _) = one(&[("main.tf", call)]);
        assert_eq!(summary, "Call to unknown function");
        assert_eq!(
            detail,
            "There is no function named \"startwith\". Did you mean \"startswith\"?"
        );
        // The tools suggest any name under three edits away, however short the name (HCL's and
        // Terraform's `NameSuggestion`): "titel" is two edits from "title".
        let (_, detail, _) = one(&[("main.tf", "locals {\n  a = titel(\"x\")\n}\n")]);
        assert_eq!(
            detail,
            "There is no function named \"titel\". Did you mean \"title\"?"
        );
        let tofu_only = "locals {\n  a = urldecode(\"x\")\n}\n";
        let (_, _, views) = one(&[("main.tf", tofu_only)]);
        assert!(
            views.contains("terraform: true") && views.contains("opentofu: false"),
            "{views}"
        );
        assert!(
            errors(&[
                (
                    "main.tf",
                    "locals {\n  a = provider::aws::arn_parse(\"x\")\n}\n"
                ),
                ("versions.tf", REQUIRES_AWS),
            ])
            .is_empty()
        );
        // A type constraint is not a call.
        let typed = "variable \"a\" {\n  type = set(object({ b = optional(string) }))\n}\n";
        assert!(errors(&[("main.tf", typed)]).is_empty());
    }

    /// An unknown function as reported: its name, and the (line, column) of its start and end.
    type UnknownCall = (String, (usize, usize), (usize, usize));

    /// The unknown functions of a case, in order.
    fn unknown_calls(files: Files) -> Vec<UnknownCall> {
        let found = findings(&super::RULE, files);
        let mut calls: Vec<_> = found
            .into_iter()
            .map(|d| {
                let primary = d.primary.as_ref().expect("a location");
                let name = primary
                    .message
                    .split('`')
                    .nth(1)
                    .unwrap_or_default()
                    .to_string();
                (name, primary.start(), primary.end())
            })
            .collect();
        calls.sort_by_key(|c| c.1);
        calls
    }

    /// Every call in an evaluated expression is judged, with the name's own place: in templates,
    /// heredocs and directives, operators, conditionals, `for` expressions, indexes and splats,
    /// parentheses, arguments and collections, in tool-defined and provider-defined bodies.
    #[test]
    fn unknown_functions_anywhere_in_an_expression() {
        let native = r#"locals {
  a = "x-${upperr("x")}"
  b = <<EOT
%{ if lowerr("a") == "a" }y%{ endif }
EOT
  c = 1 + absx(1)
  d = true ? joinn(",", []) : ""
  e = [for s in splitt(",", "a") : s if containss([], s)]
  f = local.m[keyss(local.m)[0]]
  g = (lengthh([]))
  h = max(minn(1), 2)
  i = { k = tostringg(1), (lowerr("k")) = 1 }
  j = local.m[*].x[floorr(1)]
  k = !alltruee([])
  l = "${provider::aws::arn_parse("x")} ${core::upperr("x")}"
}
resource "aws_instance" "a" {
  tags = { Name = "${formatt("%s", "a")}" }
}
"#;
        let found = unknown_calls(&[("main.tf", native), ("versions.tf", REQUIRES_AWS)]);
        let names: Vec<&str> = found.iter().map(|c| c.0.as_str()).collect();
        assert_eq!(
            names,
            [
                "upperr",
                "lowerr",
                "absx",
                "joinn",
                "splitt",
                "containss",
                "keyss",
                "lengthh",
                "minn",
                "tostringg",
                "lowerr",
                "floorr",
                "alltruee",
                // Each tool words `core::` apart: one finding per view.
                "upperr",
                "upperr",
                "formatt",
            ]
        );
        // The name, as written, is the place.
        assert_eq!((found[0].1, found[0].2), ((2, 12), (2, 18)));
        assert_eq!((found[1].1, found[1].2), ((4, 7), (4, 13)));
        assert_eq!((found[13].1, found[13].2), ((15, 43), (15, 55)));
    }

    #[test]
    fn unknown_functions_in_json_templates_the_tools_evaluate() {
        let json = r#"{
  "locals": {
    "a": "\u00e9\n-${upperr(\"x\")}",
    "b": "${1 + absx(1)}",
    "c": {"${keyy(\"k\")}": ["%{ if lowerr(\"a\") == \"a\" }y%{ endif }"]},
    "d": "${provider::aws::arn_parse(\"x\")}"
  },
  "resource": {"aws_instance": {"a": {"tags": {"Name": "${formatt(\"%s\", \"a\")}"}}}},
  "variable": {"v": {"default": "${nofunc()}", "description": "${nofunc()}"}},
  "module": {"m": {"source": "./${nofunc()}"}}
}"#;
        let found = unknown_calls(&[("main.tf.json", json), ("versions.tf", REQUIRES_AWS)]);
        let names: Vec<&str> = found.iter().map(|c| c.0.as_str()).collect();
        assert_eq!(names, ["upperr", "absx", "keyy", "lowerr", "formatt"]);
        // Escapes before the call shift its place in the file: `\u00e9\n-${` is 12 bytes there.
        assert_eq!((found[0].1, found[0].2), ((3, 22), (3, 28)));
        assert_eq!((found[1].1, found[1].2), ((4, 17), (4, 21)));
        // Arguments read literally and Terragrunt's JSON are not templates for the tools.
        let literal = r#"{"variable": {"v": {"default": "${nofunc()}"}}}"#;
        assert!(unknown_calls(&[("main.tf.json", literal)]).is_empty());
    }

    #[test]
    fn calls_the_tools_do_not_evaluate_are_not_judged() {
        let native = r#"variable "v" {
  type    = list(string)
  default = nofunc()
}
module "m" {
  source     = "./m"
  depends_on = [nofunc()]
}
unknown "x" {
  a = nofunc()
}
"#;
        assert!(unknown_calls(&[("main.tf", native), ("m/main.tf", "")]).is_empty());
    }

    /// Terraform 1.15.5 validates and plans `try(toint("1"), 2)`: `try` and `can` evaluate their
    /// arguments and take the fallback on any error, an unknown function's included, at any
    /// depth and in either syntax.
    #[test]
    fn calls_in_try_and_can_are_not_judged() {
        let guarded = r#"locals {
  a = try(toint("1"), 2)
  b = can(toint("1"))
  c = try(upper(nofunc()), 1)
  d = "${try(nofunc(), 1)}"
  e = try([for s in ["a"] : nofunc(s)], 1)
  f = core::try(nofunc(), 1)
  g = try(1, nofunc())
  h = 1 + try(nofunc(), 1)
  i = try(provider::aws::f(1), core::nofunc(), 1)
}
"#;
        let found = unknown_calls(&[("main.tf", guarded)]);
        // Terraform: none. OpenTofu resolves `provider::aws::` while building its graph, before
        // `try` runs: still refused there (one finding, labelled with the provider's name).
        let names: Vec<&str> = found.iter().map(|c| c.0.as_str()).collect();
        assert_eq!(names, ["aws"], "{found:?}");
        let json = r#"{"locals": {"a": "${try(toint(\"1\"), 2)}", "b": "x${can(nofunc())}"}}"#;
        assert!(unknown_calls(&[("main.tf.json", json)]).is_empty());
        // Outside the arguments of `try`, or in a `try` that is not the tools' function.
        let unguarded = r#"locals {
  a = format("%s%s", try(1, 2), nofunc())
  b = "${nofunc(try(1, 2))}"
  c = [try(1, 2), nofunc()]
}
"#;
        let names: Vec<String> = unknown_calls(&[("main.tf", unguarded)])
            .into_iter()
            .map(|c| c.0)
            .collect();
        assert_eq!(names, ["nofunc", "nofunc", "nofunc"]);
    }

    /// A release without `convert` reads its type argument as a reference, and refuses that
    /// first: Terraform 1.6.6 to 1.14.9 `validate` say `Invalid reference` at `string` (line 2,
    /// column 18) and nothing of the call; 1.15 has `convert`.
    #[test]
    fn a_type_keyword_read_as_a_reference() {
        let files: Files = &[("main.tf", "locals {\n  a = convert(1, string)\n}\n")];
        let targeting = |terraform: &str| {
            let targets = TargetVersions {
                terraform: Some(terraform.into()),
                opentofu: Some("1.13.0".into()),
            };
            let found = findings_targeting(&super::RULE, files, targets);
            (found.iter())
                .map(|d| {
                    let start = d.primary.as_ref().map(|l| l.start());
                    (d.message.to_string(), start)
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            targeting("1.9.8"),
            [("Invalid reference".to_string(), Some((2, 18)))]
        );
        assert!(targeting("1.15.0").is_empty());
        // A value that is not a type keyword: the call itself.
        let other: Files = &[(
            "main.tf",
            "locals {\n  a = convert(1, local.t)\n  t = 1\n}\n",
        )];
        let targets = TargetVersions {
            terraform: Some("1.9.8".into()),
            opentofu: Some("1.13.0".into()),
        };
        let found = findings_targeting(&super::RULE, other, targets);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].message, "Call to unknown function");
    }

    /// What `validate` refuses can be wrong where the tools evaluate: an inline ignore silences
    /// it, and the configuration turns it off (a load error allows neither).
    #[test]
    fn ignorable_inline_and_configurable() {
        use crate::lint::directory::{Options, ViewSelection, check_directory};
        use crate::lint::testing::{settings_of, write_files};
        use crate::rules::unused_ignore;

        let ignored = "locals {\n  # tflint-merge-ignore: unknown_function  a provider adds it\n  \
                       a = nofunc()\n}\n";
        let found = findings_of(
            &[&super::RULE, &unused_ignore::RULE],
            &[("main.tf", ignored)],
        );
        assert!(found.is_empty(), "{found:#?}");
        let dir = write_files(&[("main.tf", "locals {\n  a = nofunc()\n}\n")]);
        let mut settings = settings_of(&[&super::RULE]);
        settings.disable("unknown_function").expect("configurable");
        let options = Options::new(ViewSelection::Both, settings);
        assert!(check_directory(dir.path(), &options).diagnostics.is_empty());
    }

    /// The summary and detail of each unknown function of a case in one view.
    fn namespace_errors(files: Files, view: crate::knowledge::View) -> Vec<(String, String)> {
        let found = findings(&super::RULE, files);
        found
            .into_iter()
            .filter(|d| match view {
                crate::knowledge::View::Terraform => d.views.terraform,
                crate::knowledge::View::OpenTofu => d.views.opentofu,
            })
            .map(|d| {
                (
                    d.message.into_owned(),
                    d.notes.first().map(|n| n.to_string()).unwrap_or_default(),
                )
            })
            .collect()
    }

    #[test]
    fn namespaced_calls_with_each_tools_texts() {
        use crate::knowledge::View::{OpenTofu, Terraform};
        let required = REQUIRES_AWS;
        let calls = |call: &str| format!("locals {{\n  a = \"${{{call}(\"x\")}}\"\n}}\n");
        let case = |call: &str, view| {
            let main = calls(call);
            let files: Files = &[("versions.tf", required), ("main.tf", &main)];
            // `Files` borrows: run it here.
            namespace_errors(files, view)
        };
        // Declared providers and built-ins by their `core::` name resolve.
        for call in ["provider::aws::arn_parse", "core::upper"] {
            assert!(case(call, Terraform).is_empty(), "{call}");
            assert!(case(call, OpenTofu).is_empty(), "{call}");
        }
        // OpenTofu's alias form; Terraform has none.
        assert!(case("provider::aws::east::arn_parse", OpenTofu).is_empty());
        let not_required = |provider: &str, function: &str| {
            format!(
                "There is no function named \"{function}\". Ensure that provider name \
                 \"{provider}\" is declared in this module's required_providers block, and that \
                 this provider offers a function named \"f\"."
            )
        };
        assert_eq!(
            case("provider::aws::east::f", Terraform),
            [(
                "Unknown provider function".into(),
                not_required("aws", "provider::aws::east::f")
            )]
        );
        assert_eq!(
            case("provider::gcp::f", Terraform),
            [(
                "Unknown provider function".into(),
                not_required("gcp", "provider::gcp::f")
            )]
        );
        assert_eq!(
            case("provider::gcp::f", OpenTofu),
            [(
                "Unknown function provider".into(),
                "Provider \"gcp\" does not exist within the required_providers of this module"
                    .into()
            )]
        );
        assert_eq!(
            case("aws::f", Terraform),
            [(
                "Unknown provider function".into(),
                "The function namespace \"aws\" is not valid. Provider function calls must use the \
                 \"provider::\" namespace prefix."
                    .into()
            )]
        );
        assert_eq!(
            case("aws::f", OpenTofu),
            [(
                "Unknown function namespace".into(),
                "Function \"aws::f\" does not exist within a valid namespace (provider,core)"
                    .into()
            )]
        );
        assert_eq!(
            case("provider::f", OpenTofu),
            [(
                "Invalid function format".into(),
                "invalid provider function \"provider::f\": expected provider::<name>::<function> \
                 or provider::<name>::<alias>::<function>"
                    .into()
            )]
        );
        assert_eq!(
            case("provider::f", Terraform),
            [(
                "Unknown provider function".into(),
                "The function call must include the provider name after the \"provider::\" prefix."
                    .into()
            )]
        );
        assert_eq!(
            case("core::uper", OpenTofu),
            [(
                "Call to unknown function".into(),
                "There is no builtin (core::) function named \"uper\".".into()
            )]
        );
        assert_eq!(
            case("core::uper", Terraform),
            [(
                "Unknown provider function".into(),
                "The function namespace \"core\" is not valid. Provider function calls must use \
                 the \"provider::\" namespace prefix."
                    .into()
            )]
        );
    }

    #[test]
    fn provider_functions_in_json_and_with_required_providers_in_an_override() {
        use crate::knowledge::View::{OpenTofu, Terraform};
        let json = r#"{"locals": {"a": "${provider::gcp::f(1)}"}}"#;
        for view in [Terraform, OpenTofu] {
            assert_eq!(namespace_errors(&[("main.tf.json", json)], view).len(), 1);
        }
        let override_declares = r#"{"terraform": {"required_providers": {"gcp": {}}}}"#;
        let files: Files = &[
            ("main.tf.json", json),
            ("x_override.tf.json", override_declares),
        ];
        assert!(namespace_errors(files, Terraform).is_empty());
        assert!(namespace_errors(files, OpenTofu).is_empty());
    }

    /// Before namespaces (Terraform 1.8, OpenTofu 1.7) the parser ends a function's name before
    /// `::`: in a JSON template the interpolation then meets a colon, as Terraform 1.6.6
    /// `validate` reports (`Extra characters after interpolation expression`), one finding per
    /// view; a native file does not parse at all (`syntax_newer_than_target`), whatever the
    /// namespace.
    #[test]
    fn namespaced_calls_before_namespaces() {
        let targets = || TargetVersions {
            terraform: Some("~> 1.7.0".into()),
            opentofu: Some("~> 1.6.0".into()),
        };
        for name in ["provider::gcp::f", "core::upper", "aws::f"] {
            let json = format!(r#"{{"locals": {{"a": "x${{{name}(1)}}"}}}}"#);
            let unknown = findings_targeting(&super::RULE, &[("main.tf.json", &json)], targets());
            assert_eq!(unknown.len(), 2, "{unknown:#?}"); // one per view, each its own release
            assert!(
                unknown
                    .iter()
                    .all(|d| d.message == "Extra characters after interpolation expression"),
                "{unknown:#?}"
            );
            let native = format!("locals {{\n  a = {name}(1)\n}}\n");
            let files: Files = &[("main.tf", &native)];
            assert!(findings_targeting(&super::RULE, files, targets()).is_empty());
        }
        let call = "locals {\n  a = provider::gcp::f(1)\n}\n";
        // With a release that has namespaces among the targets: the problem, and the warning.
        let targets = TargetVersions {
            terraform: Some(">= 1.7".into()),
            opentofu: Some(">= 1.6".into()),
        };
        let found = findings_targeting(&super::RULE, &[("main.tf", call)], targets);
        let mut messages: Vec<_> = found.iter().map(|d| &*d.message).collect();
        messages.sort_unstable();
        assert_eq!(
            messages,
            ["Unknown function provider", "Unknown provider function"]
        );
    }
}
