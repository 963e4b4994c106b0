//! A module source that is neither a local path, a registry address, nor a known remote form:
//! a local path without its leading `./` is the usual cause, and `init` fails on it.

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::module_source::{SourceKind, classify};
use crate::knowledge::releases::Release;
use crate::syntax::{Attribute, hcl};

use crate::lint::helpers::{literal_source, module_calls};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_source_invalid",
    severity: Error,
    default: On,
    summary: "a module source that is no kind of source address",
    check: Check::View(RuleViews::Both, check),
};

const NOTE: &str = "A local module path must start with `./` or `../`; anything else is read as \
                    a registry address (`[host/]namespace/name/system`) or a remote address, and \
                    this is neither.";

const HELP: &str = "use `./path` for a local directory, `namespace/name/system` for a registry \
                    module, or a `git::`/`https://` address";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for block in module_calls(ctx) {
        let Some(attr) = block.body.attribute("source") else {
            continue;
        };
        if let Some(written) = attr.expr.json_string() {
            if let Some(problem) = json_source_problem(ctx, written) {
                out.push(match problem {
                    JsonSourceProblem::Address(source) => {
                        invalid_source(ctx, attr, help(ctx, &source))
                    }
                    JsonSourceProblem::Template { summary, detail } => {
                        invalid_template(ctx, attr, summary, detail)
                    }
                });
            }
            continue;
        }
        let Some((attr, source)) = literal_source(block) else {
            continue;
        };
        if source.contains("${") || classify(source) != SourceKind::Invalid {
            continue;
        }
        out.push(invalid_source(ctx, attr, help(ctx, source)));
    }
}

fn help(ctx: &Context, source: &str) -> String {
    if !source.is_empty() && ctx.neighbours.module(&ctx.dir.join(source)).exists {
        format!("a local directory needs a leading `./`: `source = \"./{source}\"`")
    } else {
        HELP.to_string()
    }
}

/// The first Terraform release that evaluates a module's `source` (with local values and `const`
/// variables, hashicorp/terraform v1.15.0 `internal/terraform/node_module_install.go`), and so
/// reads a JSON string there as a template; older releases decode it with no evaluation context
/// (`config_build.go`, `gohcl.DecodeExpression(.., nil, ..)`), where a JSON string is its literal
/// text (HCL `json/structure.go`, `expression.Value`).
const TERRAFORM_EVALUATES_SOURCE: Release = Release::new(1, 15);

/// The first OpenTofu release that evaluates a module's `source` with its static evaluator
/// (opentofu/opentofu v1.8.0 `internal/configs/module_call.go`, `decodeStaticSource`).
const OPENTOFU_EVALUATES_SOURCE: Release = Release::new(1, 8);

/// Why a JSON `source` string fails to load.
enum JsonSourceProblem {
    /// Read literally, or a template without sequences: this text is no source address.
    Address(String),
    /// Read as a template, it does not parse (HCL's summary and detail).
    Template {
        summary: &'static str,
        detail: String,
    },
}

/// What every targeted release of the view refuses in a JSON `source` string, in the lowest
/// one's words; `None` when some targeted release loads it (or decides only when evaluating
/// it: an interpolation is `module_source_not_static`'s).
fn json_source_problem(ctx: &Context, written: &str) -> Option<JsonSourceProblem> {
    let evaluates_from = match ctx.view {
        View::Terraform => TERRAFORM_EVALUATES_SOURCE,
        View::OpenTofu => OPENTOFU_EVALUATES_SOURCE,
    };
    let mut problems = ctx.targets.releases.iter().map(|&release| {
        if release < evaluates_from {
            return address_problem(written);
        }
        match hcl::parse_value_template(written) {
            Err(error) => Some(JsonSourceProblem::Template {
                summary: error.summary,
                detail: error.message,
            }),
            Ok(template) if template.has_sequences => None,
            Ok(template) => address_problem(&template.literal),
        }
    });
    let first = problems.next()??;
    problems.all(|p| p.is_some()).then_some(first)
}

fn address_problem(source: &str) -> Option<JsonSourceProblem> {
    (classify(source) == SourceKind::Invalid).then(|| JsonSourceProblem::Address(source.into()))
}

/// `Missing expression` and HCL's other template errors, on a JSON `source` the releases read as
/// a template.
fn invalid_template(
    ctx: &Context,
    source: &Attribute,
    summary: &'static str,
    detail: String,
) -> Diagnostic {
    ctx.finding(&RULE, summary)
        .at(
            ctx.files,
            source.expr.span,
            format!("in this template: {detail}"),
        )
        .with_note(format!(
            "{} reads a module's `source` as a template in JSON syntax (the releases before {} \
             take the string as it is written).",
            ctx.view.tool_name(),
            match ctx.view {
                View::Terraform => TERRAFORM_EVALUATES_SOURCE,
                View::OpenTofu => OPENTOFU_EVALUATES_SOURCE,
            }
        ))
        .with_help("write `$${` for a literal `${`, or finish the interpolation")
}

/// `Invalid module source address`
fn invalid_source(ctx: &Context, source: &Attribute, help: String) -> Diagnostic {
    let label = "not a local path, registry address or remote address";
    ctx.finding(&RULE, "Invalid module source address")
        .at(ctx.files, source.expr.span, label)
        .with_note(NOTE)
        .with_help(help)
}

#[cfg(test)]
mod tests {
    use crate::lint::directory::TargetVersions;
    use crate::lint::testing::{Files, check_table, findings, findings_targeting};

    const PASS: &[Files] = &[
        &[(
            "main.tf",
            "module \"a\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\n",
        )],
        &[(
            "main.tf",
            "module \"a\" {\n  source = \"git::https://example.com/vpc.git?ref=v1\"\n}\n",
        )],
    ];
    const FAIL: &[(Files, usize)] = &[
        (
            &[("main.tf", "module \"a\" {\n  source = \"stage\"\n}\n")],
            1,
        ),
        (
            &[(
                "main.tf.json",
                r#"{"module": {"a": {"source": "modules/vpc"}}}"#,
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// An unterminated interpolation in a JSON `source`: Terraform 1.6.6 and 1.14.9 read the
    /// string as it is written ("Invalid module source address"), 1.15.5 as a template ("Missing
    /// expression", from `validate`); OpenTofu reads it as a template from 1.8.
    #[test]
    fn json_source_read_per_release() {
        let files: Files = &[("main.tf.json", r#"{"module": {"a": {"source": "${"}}}"#)];
        let cases = [
            ("~> 1.6.0", "~> 1.7.0", "Invalid module source address"),
            ("~> 1.14.0", "~> 1.7.0", "Invalid module source address"),
            ("~> 1.15.0", "~> 1.8.0", "Missing expression"),
            // Both readings refuse it: the lowest release's words.
            (">= 1.14", ">= 1.7", "Invalid module source address"),
        ];
        for (terraform, opentofu, summary) in cases {
            let targets = TargetVersions {
                terraform: Some(terraform.into()),
                opentofu: Some(opentofu.into()),
            };
            let found = findings_targeting(&super::RULE, files, targets);
            // One finding per view, or one for both when the views' texts agree.
            assert!(
                found.iter().any(|f| f.views.terraform),
                "{terraform}: {found:#?}"
            );
            assert!(
                found.iter().any(|f| f.views.opentofu),
                "{opentofu}: {found:#?}"
            );
            assert!(
                found.iter().all(|f| f.message == summary),
                "{terraform}: {found:#?}"
            );
        }
        // A template that parses, in a release that evaluates it: the interpolation is
        // module_source_not_static's; read literally it is no address.
        let interpolated: Files = &[(
            "main.tf.json",
            r#"{"module": {"a": {"source": "${var.x}"}}}"#,
        )];
        let old = TargetVersions {
            terraform: Some("~> 1.14.0".into()),
            opentofu: Some("~> 1.7.0".into()),
        };
        assert_eq!(findings_targeting(&super::RULE, interpolated, old).len(), 1);
        assert!(findings(&super::RULE, interpolated).is_empty());
    }
}
