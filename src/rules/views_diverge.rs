//! The Terraform and OpenTofu views of a module define different objects, or only one of them
//! fails to load: what one view defines, or fails on, exists only for one tool's users, which
//! is rarely meant.

use std::collections::BTreeMap;

use foldhash::{HashMap, HashSet};

use crate::diagnostic::{Diagnostic, Label, Views};
use crate::knowledge::View;
use crate::module::merge::Address;
use crate::module::merge::events::Subject;
use crate::source::Span;

use crate::lint::{Check, Context, DirectoryContext, Kind, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "views_diverge",
    severity: Warning,
    default: On,
    summary: "the Terraform and OpenTofu views define different objects",
    check: Check::Directory(check),
};

const NOTE: &str = "`.tofu` files are read by OpenTofu only, and a `foo.tofu` hides `foo.tf` \
                    from it: what one view defines, or fails on, exists only for one tool's \
                    users, which is rarely meant.";

const HELP: &str = "define the object in both views (in the `.tf` file and its `.tofu` twin), \
                    or in a file both tools read";

fn check(dir: &DirectoryContext, out: &mut Vec<Diagnostic>) {
    let (Some(terraform), Some(opentofu)) = (dir.view(View::Terraform), dir.view(View::OpenTofu))
    else {
        return;
    };
    // The views almost always define the same objects in the same order: then neither has
    // one the other lacks, which one pass over both finds without indexing either.
    let defined = |ctx| definitions(ctx).map(|(defined, _)| defined);
    let (only_tf, only_tofu) = match defined(terraform).eq(defined(opentofu)) {
        true => (Vec::new(), Vec::new()),
        false => (only_in(terraform, opentofu), only_in(opentofu, terraform)),
    };
    // Load errors and what `validate` refuses, of one view only: the module works for one tool's
    // users and not the other's.
    let errors: Vec<&Diagnostic> = dir
        .one_view_errors
        .iter()
        .copied()
        .filter(|d| {
            dir.settings
                .registry()
                .find(d.rule.as_str())
                .is_some_and(|m| matches!(m.kind, Kind::LoadError | Kind::Validate))
                && d.primary.is_some()
        })
        .collect();

    let failures = one_view_failures(&errors);
    let mut parts = Vec::new();
    if !only_tf.is_empty() {
        parts.push(format!("only Terraform has {}", list(&only_tf)));
    }
    if !only_tofu.is_empty() {
        parts.push(format!("only OpenTofu has {}", list(&only_tofu)));
    }
    for (first, times) in &failures {
        let tool = tool(first.views);
        parts.push(match times {
            1 => format!("only {tool} fails with \"{}\"", first.message),
            _ => format!(
                "only {tool} fails with \"{}\" ({times} times)",
                first.message
            ),
        });
    }
    if parts.is_empty() {
        return;
    }
    let marked = |only: &Vec<(Subject, Span)>, message: &'static str| -> Vec<Label> {
        let only = only.iter().take(LISTED);
        only.map(|(_, span)| Label::new(dir.files, *span, message))
            .collect()
    };
    let definitions = marked(&only_tf, "only in the Terraform view")
        .into_iter()
        .chain(marked(&only_tofu, "only in the OpenTofu view"));
    let failures = failures.iter().filter_map(|(e, _)| {
        let label = e.primary.as_ref()?;
        Some(Label {
            message: format!("only {} reports: {}", tool(e.views), e.message).into(),
            ..label.clone()
        })
    });
    let labels: Vec<Label> = definitions.chain(failures).collect();
    out.push(views_differ(dir, &parts, labels));
}

/// How many objects of each view the finding names and marks: a view with thousands of its
/// own is summed up (`and 9990 more`), so the finding stays one a reader takes in.
const LISTED: usize = 10;

/// The one-view errors, one per tool and message, with how many times each was reported: a
/// file of a thousand repeated keys read by one tool is one difference, not a thousand.
fn one_view_failures<'d>(errors: &[&'d Diagnostic]) -> Vec<(&'d Diagnostic, usize)> {
    let mut failures: Vec<(&Diagnostic, usize)> = Vec::new();
    let mut seen: HashMap<(bool, &str), usize> = HashMap::default();
    for &error in errors {
        let key = (error.views.terraform, &*error.message);
        match seen.get(&key) {
            Some(&i) => failures[i].1 += 1,
            None => {
                seen.insert(key, failures.len());
                failures.push((error, 1));
            }
        }
    }
    failures
}

/// A definition of a view, borrowed from its module: both views' definitions are compared in
/// every directory, and almost always all are in both.
#[derive(PartialEq, Eq, Hash)]
enum Defined<'m> {
    Object(&'m Address),
    Local(&'m str),
}

impl Defined<'_> {
    fn subject(&self) -> Subject {
        match self {
            Defined::Object(address) => Subject::Object((*address).clone()),
            Defined::Local(name) => Subject::Local(name.to_string()),
        }
    }
}

/// Everything a view defines (objects and local values), each with its first definition.
fn definitions<'m>(ctx: &Context<'m>) -> impl Iterator<Item = (Defined<'m>, Span)> {
    let module = ctx.module;
    let objects = (module.objects.iter()).map(|o| (Defined::Object(&o.address), o.base_header));
    let locals = (module.locals.iter()).map(|l| {
        (
            Defined::Local(l.attribute.name.as_str()),
            l.attribute.name_span,
        )
    });
    objects.chain(locals)
}

/// What `view` defines and `other` does not, once each, in the order users read the addresses
/// (`local.x`, `resource.T.N`...).
fn only_in(view: &Context, other: &Context) -> Vec<(Subject, Span)> {
    let theirs: HashSet<Defined> = definitions(other).map(|(d, _)| d).collect();
    let mut only: BTreeMap<String, (Subject, Span)> = BTreeMap::new();
    for (defined, span) in definitions(view) {
        if !theirs.contains(&defined) {
            let subject = defined.subject();
            only.entry(subject.to_string()).or_insert((subject, span));
        }
    }
    only.into_values().collect()
}

/// `` `resource.T.N`, `local.x` ``, the first [`LISTED`] of them and how many more.
fn list(items: &[(Subject, Span)]) -> String {
    let quoted: Vec<String> = (items.iter().take(LISTED))
        .map(|(s, _)| format!("`{s}`"))
        .collect();
    match items.len().saturating_sub(LISTED) {
        0 => quoted.join(", "),
        more => format!("{} and {more} more", quoted.join(", ")),
    }
}

/// The tool of a one-view finding.
fn tool(views: Views) -> &'static str {
    if views.terraform {
        "Terraform"
    } else {
        "OpenTofu"
    }
}

/// `the Terraform and OpenTofu views differ: only Terraform has `variable.y``, located at the
/// first label (definitions first, then load errors), the others secondary.
fn views_differ(dir: &DirectoryContext, parts: &[String], labels: Vec<Label>) -> Diagnostic {
    let message = format!(
        "the Terraform and OpenTofu views differ: {}",
        parts.join("; ")
    );
    let mut d = dir.finding(&RULE, message);
    for label in labels {
        if d.primary.is_none() {
            d.path = label.file.display.clone();
            d.primary = Some(label);
        } else {
            d.secondary.push(label);
        }
    }
    d.with_note(NOTE).with_help(HELP)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::override_fixtures::{
        EMPTY_A, TF_VERSIONS, TOFU_VERSIONS, VARIABLE_X,
    };
    use crate::lint::testing::{Files, check_table, findings_of};

    const PASS: &[Files] = &[
        &[
            ("versions.tf", TF_VERSIONS),
            ("versions.tofu", TOFU_VERSIONS),
        ],
        &[
            ("main.tf", VARIABLE_X),
            ("main.tofu", "variable \"x\" {\n  default = 1\n}\n"),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("main.tf", "variable \"x\" {}\nvariable \"y\" {}\n"),
                ("main.tofu", VARIABLE_X),
            ],
            1,
        ),
        (
            &[
                ("main.tf", VARIABLE_X),
                ("extra.tofu.json", r#"{"output": {"o": {"value": 1}}}"#),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn a_load_error_in_one_view_only_is_a_divergence() {
        let rules = [&super::RULE, &crate::rules::duplicate_definition::RULE];
        let files: Files = &[("main.tf", EMPTY_A), ("extra.tofu", EMPTY_A)];
        let all = findings_of(&rules, files).into_iter();
        let found: Vec<_> = all.filter(|d| d.rule == super::RULE.id()).collect();
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0]
                .message
                .contains("only OpenTofu fails with \"Duplicate resource"),
            "{}",
            found[0].message
        );
    }

    /// A view with many objects or errors of its own is summed up: the finding names and marks
    /// the first ten objects and says how many more, and each one-view error once, with how
    /// many times it was reported.
    #[test]
    fn many_differences_are_summed_up() {
        let rules = [&super::RULE, &crate::rules::duplicate_definition::RULE];
        let variables: String = (0..25)
            .map(|i| format!("variable \"v{i}\" {{}}\n"))
            .collect();
        let keys = vec![r#""k": 1"#; 30].join(", ");
        let json = format!(r#"{{"locals": {{{keys}}}}}"#);
        let files: Files = &[
            ("main.tf", "variable \"x\" {}\n"),
            ("more.tofu", &variables),
            ("locals.tofu.json", &json),
        ];
        let all = findings_of(&rules, files).into_iter();
        let found: Vec<_> = all.filter(|d| d.rule == super::RULE.id()).collect();
        assert_eq!(found.len(), 1, "{found:#?}");
        let message = &found[0].message;
        assert!(message.contains("`variable.v16` and 16 more;"), "{message}");
        assert!(
            message.ends_with("only OpenTofu fails with \"Duplicate argument\" (29 times)"),
            "{message}"
        );
        // Ten definitions and the first of the repeated errors.
        let labels = found[0].primary.iter().count() + found[0].secondary.len();
        assert_eq!(labels, 11, "{:#?}", found[0]);
    }
}
