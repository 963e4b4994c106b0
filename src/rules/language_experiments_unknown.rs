//! A `language` block's `experiments` element that is not a keyword naming a current experiment
//! (there are none): an old or misspelled experiment, or a quoted string, stops the module from
//! loading. Likewise `terraform { experiments }` where the targeted build does not allow
//! experiments: Terraform from 1.3 (but its alpha and development builds) and OpenTofu 1.6–1.11
//! refuse the module (`sniffActiveExperiments`).

use crate::diagnostic::Diagnostic;
use crate::knowledge::View;
use crate::knowledge::blocks::{LANGUAGE_EXPERIMENTS, TERRAFORM_CONCLUDED_EXPERIMENTS};
use crate::knowledge::releases::{self, Release, Stage};
use crate::syntax::{Attribute, Expr, ExprKind};

use crate::lint::helpers::{
    language_blocks, opentofu_reads_terraform_language, terraform_settings,
};
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "language_experiments_unknown",
    severity: Error,
    default: On,
    summary: "a language experiment that is not a current experiment keyword, or that the \
              targeted build does not allow",
    check: Check::View(RuleViews::Both, check),
};

/// The first Terraform release whose builds allow experiments only in alpha and development
/// builds (hashicorp/terraform v1.3.0 `internal/configs/experiments.go`).
const TERRAFORM_GATES_EXPERIMENTS: Release = Release::new(1, 3);

/// The concluded experiment that older releases let through alone, only to say it has concluded
/// (hashicorp/terraform v1.6 `internal/configs/experiments.go`, `sniffActiveExperiments`: "a
/// special exception a release or two after v1.3"). Later releases dropped the exception.
const CONCLUDED_ALONE: &str = "module_variable_optional_attrs";

/// The first Terraform release line known to refuse [`CONCLUDED_ALONE`] as an experiment like
/// any other (`Module uses experimental features`); v1.6 still says `Experiment has concluded`.
const TERRAFORM_ENDS_CONCLUDED_EXCEPTION: Release = Release::new(1, 9);

const NOTE: &str = "Experiments are named by bare keywords, and this OpenTofu language has no \
                    current experiments: an old or misspelled experiment stops the module from \
                    loading.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    check_terraform_experiments(ctx, out);
    if ctx.view != View::OpenTofu {
        return;
    }
    for (_, language) in language_blocks(ctx) {
        let Some(items) = language
            .body
            .attribute("experiments")
            .and_then(|a| a.expr.tuple_items())
        else {
            continue;
        };
        for item in items {
            match (item.keyword(), &item.kind) {
                (Some(name), _) if LANGUAGE_EXPERIMENTS.contains(&name) => {}
                (Some(name), _) => out.push(unknown_experiment(ctx, item, name)),
                (None, ExprKind::String(s)) => out.push(quoted_experiment(ctx, item, s)),
                _ => {} // not a constant: `language_settings_not_constant`
            }
        }
    }
}

/// `terraform { experiments }` where every targeted build refuses experiments, and its keywords
/// in a development snapshot of Terraform's development line, which has no current experiment.
fn check_terraform_experiments(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let releases = &ctx.targets.releases;
    if ctx.view == View::Terraform && ctx.targets.experiments {
        let development = releases::all(View::Terraform)
            .iter()
            .any(|&(r, stage)| stage == Stage::Development && releases.contains(&r));
        if development {
            let lists = terraform_settings(ctx, "experiments").filter_map(|a| a.expr.tuple_items());
            for item in lists.flatten() {
                out.extend(terraform_keyword(ctx, item));
            }
        }
        return;
    }
    let refused = match ctx.view {
        View::Terraform => {
            !ctx.targets.experiments && releases.iter().all(|&r| r >= TERRAFORM_GATES_EXPERIMENTS)
        }
        View::OpenTofu => opentofu_reads_terraform_language(ctx),
    };
    if !refused {
        return;
    }
    // Every targeted release refuses the module either way; the summary follows the oldest.
    let exception_kept = match ctx.view {
        View::Terraform => releases
            .iter()
            .any(|&r| r < TERRAFORM_ENDS_CONCLUDED_EXCEPTION),
        View::OpenTofu => true, // forked from Terraform 1.6, which keeps the exception
    };
    for attr in terraform_settings(ctx, "experiments") {
        let items = attr.expr.tuple_items().unwrap_or_default();
        match items {
            [only] if only.keyword() == Some(CONCLUDED_ALONE) && exception_kept => {
                // OpenTofu's answer is not judged here: left alone, as before.
                if ctx.view == View::Terraform {
                    out.extend(terraform_keyword(ctx, only));
                }
            }
            _ => out.push(experimental_features(ctx, attr)),
        }
    }
}

/// `Experiment has concluded`, `Unknown experiment keyword` or `Invalid experiment keyword`, as
/// Terraform's `decodeExperimentsAttr` words them; `None` for a reference (not a constant).
fn terraform_keyword(ctx: &Context, item: &Expr) -> Option<Diagnostic> {
    let (summary, label, note) = match (item.keyword(), &item.kind) {
        (Some(name), _) => match TERRAFORM_CONCLUDED_EXPERIMENTS.iter().find(|e| e.0 == name) {
            Some((_, message)) => (
                "Experiment has concluded",
                format!("`{name}` has concluded"),
                format!("Experiment \"{name}\" is no longer available. {message}"),
            ),
            None => (
                "Unknown experiment keyword",
                format!("no current experiment is called `{name}`"),
                format!("There is no current experiment with the keyword \"{name}\"."),
            ),
        },
        (None, ExprKind::String(_)) => (
            "Invalid experiment keyword",
            "a quoted string, not a keyword".to_string(),
            "Elements of \"experiments\" must all be keywords representing active experiments."
                .to_string(),
        ),
        _ => return None,
    };
    let d = ctx.finding(&RULE, summary).at(ctx.files, item.span, label);
    Some(d.with_note(note).with_help("remove it from `experiments`"))
}

/// `Module uses experimental features`, on `experiments`.
fn experimental_features(ctx: &Context, attr: &Attribute) -> Diagnostic {
    ctx.finding(&RULE, "Module uses experimental features")
        .at(
            ctx.files,
            attr.name_span,
            "experiments are not allowed here",
        )
        .with_note(
            "Experimental features are intended only for gathering early feedback on new \
             language designs, and so are available only in alpha releases (Terraform from 1.3, \
             OpenTofu before 1.12; OpenTofu 1.12 ignores this setting).",
        )
        .with_help("remove `experiments`: a module for stable releases cannot use experiments")
}

/// `Unknown experiment keyword`, on a keyword no current experiment has.
fn unknown_experiment(ctx: &Context, item: &Expr, name: &str) -> Diagnostic {
    let label = format!("no current experiment is called `{name}`");
    experiment_finding(ctx, "Unknown experiment keyword", item, label)
}

/// `Invalid experiment keyword`, on a quoted string.
fn quoted_experiment(ctx: &Context, item: &Expr, value: &str) -> Diagnostic {
    let label = format!("a quoted string, not the keyword `{value}`");
    experiment_finding(ctx, "Invalid experiment keyword", item, label)
}

/// What the two findings share: the place, the note and the help.
fn experiment_finding(
    ctx: &Context,
    summary: &'static str,
    item: &Expr,
    label: String,
) -> Diagnostic {
    ctx.finding(&RULE, summary)
        .at(ctx.files, item.span, label)
        .with_note(NOTE)
        .with_help("remove it from `experiments`")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[&[("versions.tofu", "language {\n  experiments = []\n}\n")]];
    const FAIL: &[(Files, usize)] = &[
        (
            &[(
                "versions.tofu",
                "language {\n  experiments = [module_variable_optional_attrs]\n}\n",
            )],
            1,
        ),
        (
            &[(
                "versions.tofu",
                "language {\n  experiments = [\"a\", b]\n}\n",
            )],
            2,
        ),
        (
            &[(
                "versions.tofu.json",
                r#"{"language": {"experiments": ["x"]}}"#,
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// `terraform { experiments }`: refused by stable Terraform builds from 1.3 and by OpenTofu
    /// 1.6–1.11, even empty; allowed by alpha and development builds.
    #[test]
    fn terraform_block_experiments() {
        use crate::diagnostic::Views;
        use crate::lint::directory::TargetVersions;
        use crate::lint::testing::findings_targeting;
        let found = |files: Files, terraform: &str, opentofu: &str| -> Vec<Views> {
            let targets = TargetVersions {
                terraform: Some(terraform.into()),
                opentofu: Some(opentofu.into()),
            };
            let all = findings_targeting(&super::RULE, files, targets);
            assert!(
                all.iter()
                    .all(|d| d.message == "Module uses experimental features")
            );
            all.into_iter().map(|d| d.views).collect()
        };
        let native = "terraform {\n  experiments = [some_feature]\n}\n";
        let empty = "terraform {\n  experiments = []\n}\n";
        let json = r#"{"terraform": {"experiments": ["some_feature"]}}"#;
        for files in [
            &[("main.tf", native)][..],
            &[("main.tf", empty)][..],
            &[("main.tf.json", json)][..],
        ] {
            assert_eq!(
                found(files, ">= 1.3", "~> 1.11.0"),
                [Views::BOTH],
                "{files:?}"
            );
            assert_eq!(
                found(files, ">= 1.3", ">= 1.11"),
                [Views::TERRAFORM],
                "{files:?}"
            );
            assert!(
                found(files, "1.15.0-alpha1", ">= 1.12").is_empty(),
                "{files:?}"
            );
            assert!(found(files, ">= 1.2", ">= 1.12").is_empty(), "{files:?}");
        }
    }

    /// `module_variable_optional_attrs` alone: Terraform 1.6 lets it through to say it has
    /// concluded, 1.9 and later refuse it as an experiment; OpenTofu's answer is not judged.
    #[test]
    fn concluded_experiment_alone() {
        use crate::lint::directory::TargetVersions;
        use crate::lint::testing::findings_targeting;
        let found = |files: Files, terraform: &str| -> Vec<(String, String)> {
            let targets = TargetVersions {
                terraform: Some(terraform.into()),
                opentofu: Some("~> 1.11.0".into()),
            };
            let all = findings_targeting(&super::RULE, files, targets);
            let place = |d: &crate::diagnostic::Diagnostic| format!("{:?}", d.primary);
            all.iter()
                .map(|d| (d.message.to_string(), place(d)))
                .collect()
        };
        let native = "terraform {\n  experiments = [module_variable_optional_attrs]\n}\n";
        let json = r#"{"terraform": {"experiments": ["module_variable_optional_attrs"]}}"#;
        for files in [&[("main.tf", native)][..], &[("main.tf.json", json)][..]] {
            let newer = found(files, ">= 1.9");
            assert_eq!(newer.len(), 1, "{files:?}");
            assert_eq!(newer[0].0, "Module uses experimental features");
            let older = found(files, "~> 1.6.0");
            assert_eq!(older.len(), 1, "{files:?}");
            assert_eq!(older[0].0, "Experiment has concluded");
            assert_ne!(
                older[0].1, newer[0].1,
                "the element, not the argument's name"
            );
        }
    }

    /// Terraform's development snapshot has no current experiment: each keyword has concluded
    /// or is unknown. Older alpha builds had experiments of their own and are not judged.
    #[test]
    fn keywords_in_a_development_snapshot() {
        use crate::lint::directory::TargetVersions;
        use crate::lint::testing::findings_targeting;
        let found = |files: Files, terraform: &str| -> Vec<String> {
            let targets = TargetVersions {
                terraform: Some(terraform.into()),
                opentofu: Some(">= 1.12".into()),
            };
            let all = findings_targeting(&super::RULE, files, targets);
            all.into_iter().map(|d| d.message.into_owned()).collect()
        };
        let native = "terraform {\n  experiments = [ephemeral_values, everything_is_a_plan, \
                      \"x\"]\n}\n";
        assert_eq!(
            found(&[("main.tf", native)], "1.17.0-dev"),
            [
                "Experiment has concluded",
                "Unknown experiment keyword",
                "Invalid experiment keyword"
            ]
        );
        let json = r#"{"terraform": {"experiments": ["ephemeral_values"]}}"#;
        assert_eq!(
            found(&[("main.tf.json", json)], "1.17.0-dev"),
            ["Experiment has concluded"]
        );
        assert!(found(&[("main.tf", native)], "1.15.0-alpha20250101").is_empty());
    }
}
