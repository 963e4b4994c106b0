//! A module call whose `version` goes with a `source` that is not a module registry address: a
//! local path has no versions, and a remote address pins its own. Both tools refuse it while
//! decoding the call (`Invalid registry module source address`). The call is judged after
//! override files are merged, so an override that adds `version` to a call valid on its own is
//! found too.
//!
//! A null `version` is "no version" from Terraform 1.15.5 and OpenTofu 1.10 (see
//! `lint::helpers::null_module_version`): it is refused here where every targeted release takes
//! it as a `version` argument all the same; where only some do, that is
//! `feature_newer_than_target`'s.

use crate::diagnostic::Diagnostic;
use crate::knowledge::module_source::SourceKind;
use crate::knowledge::version::Version;
use crate::module::merge::MergeProblem;
use crate::module::merge::problems::VersionWithoutRegistry;

use crate::lint::helpers::null_module_version::{NullVersion, first_accepting, null_versions};
use crate::lint::{Check, Context, MergeContext, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "module_version_without_registry_source",
    kind: LoadError,
    summary: "a module call with a non-registry source sets version",
    checks: [
        Check::Merge(known_version),
        Check::View(RuleViews::Both, null_version),
    ],
};

/// Why a `version` goes with a registry source only.
const REGISTRY_ONLY: &str = "Only module registry addresses (`namespace/name/system`) take a \
                             `version`; a local path (./ or ../) has no versions, and a remote \
                             address (git::, https://, github.com/...) pins its version itself, \
                             e.g. with `?ref=`.";

/// What the source is, as the label on it says.
fn source_label(local: bool) -> &'static str {
    match local {
        true => "local source",
        false => "remote source: its address carries the version",
    }
}

/// A `version` known without evaluating, as the merge found it.
fn known_version(ctx: &MergeContext, out: &mut Vec<Diagnostic>) {
    for problem in ctx.problems {
        if let MergeProblem::VersionWithoutRegistrySource(found) = problem {
            out.push(version_without_registry_source(ctx, found));
        }
    }
}

/// `Invalid registry module source address`, or `Invalid version constraint` for a `version`
/// an override added.
fn version_without_registry_source(
    ctx: &MergeContext,
    found: &VersionWithoutRegistry,
) -> Diagnostic {
    if found.version_from_override {
        return version_added_by_override(ctx, found);
    }
    let what = source_label(found.local);
    // Decoding the block, the tools point at its source address, which they failed to read as
    // a registry one.
    ctx.finding(&RULE, "Invalid registry module source address")
        .at(ctx.files, found.source_value, what)
        .with_label(ctx.files, found.version, "`version` set here")
        .with_note(REGISTRY_ONLY)
        .with_help("remove `version`, or use a registry source")
}

/// `Invalid version constraint`, at the module call: the base block decodes (it has no
/// `version`), and it is the merged call that `terraform init` refuses to install
/// (hashicorp/terraform `internal/initwd/module_install.go`, `installLocalModule` and
/// `installGoGetterModule`).
fn version_added_by_override(ctx: &MergeContext, found: &VersionWithoutRegistry) -> Diagnostic {
    let file = ctx.files.get(found.call.file);
    let line = file.line_col(found.call.range().start).0;
    let why = match found.local {
        true => "it has a relative local path",
        false => "it doesn't come from a module registry",
    };
    ctx.finding(&RULE, "Invalid version constraint")
        .at(ctx.files, found.call, "the merged call has a `version`")
        .with_label(
            ctx.files,
            found.version,
            "`version` set here, in an override file",
        )
        .with_label(ctx.files, found.source, source_label(found.local))
        .with_note(format!(
            "Cannot apply a version constraint to module \"{}\" (at {}:{line}) because {why}.",
            found.name,
            file.file_name()
        ))
        .with_note(REGISTRY_ONLY)
        .with_help("remove `version` from the override, or use a registry source")
}

/// Each null `version` when no targeted version takes it as "no version".
fn null_version(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let first = first_accepting(ctx.view);
    if ctx.targets.some_version_from(&first) {
        return;
    }
    for null in null_versions(ctx) {
        out.push(null_version_refused(ctx, &null, &first));
    }
}

/// `Invalid registry module source address`, at the source as the tools point, with the null
/// `version`.
fn null_version_refused(ctx: &Context, null: &NullVersion, first: &Version) -> Diagnostic {
    let tool = ctx.view.tool_name();
    ctx.finding(&RULE, "Invalid registry module source address")
        .at(
            ctx.files,
            null.source.expr.span,
            source_label(null.kind == SourceKind::Local),
        )
        .with_label(ctx.files, null.version.span(), "`version` is null here")
        .with_note(format!(
            "{tool} takes a null `version` as \"no version\" from {first} on; the targeted \
             releases ({}, {}) take it as a `version` argument, which only a module registry \
             source may have.",
            ctx.targets.describe(),
            ctx.targets.basis_text()
        ))
        .with_help(format!(
            "remove `version`, or target {tool} {first} or later"
        ))
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Diagnostic;
    use crate::lint::directory::TargetVersions;
    use crate::lint::testing::{Files, check_table, findings, findings_targeting};

    const NULL: &str = "module \"a\" {\n  source  = \"./a\"\n  version = null\n}\n";
    const NULL_LOCAL: &str = "locals {\n  v = null\n}\nmodule \"a\" {\n  source  = \"./a\"\n  \
                              version = local.v\n}\n";
    const NULL_JSON: &str = r#"{"module": {"a": {"source": "./a", "version": null}}}"#;

    fn errors(files: Files, terraform: &str, opentofu: &str) -> Vec<Diagnostic> {
        let targets = TargetVersions {
            terraform: Some(terraform.into()),
            opentofu: Some(opentofu.into()),
        };
        findings_targeting(&super::RULE, files, targets)
    }

    fn views(found: &[Diagnostic]) -> Vec<(bool, bool)> {
        found
            .iter()
            .map(|d| (d.views.terraform, d.views.opentofu))
            .collect()
    }

    const VERSIONED: &str = "module \"a\" {\n  source  = \"./a\"\n  version = \"1.0.0\"\n}\n";

    const PASS: &[Files] = &[&[(
        "main.tf",
        "module \"a\" {\n  source  = \"hashicorp/a/aws\"\n  version = \"1.0.0\"\n}\n",
    )]];

    const FAIL: &[(Files, usize)] = &[
        (&[("main.tf", VERSIONED)], 1),
        // An override adds `version` to a call that was valid on its own.
        (
            &[
                ("main.tf", "module \"a\" {\n  source = \"./a\"\n}\n"),
                ("override.tf", "module \"a\" {\n  version = \"1.0.0\"\n}\n"),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// From an override, the base block decodes and the merged call is what `terraform init`
    /// refuses: `Invalid version constraint` at the call, in the tools' words.
    #[test]
    fn a_version_from_an_override_is_an_invalid_version_constraint() {
        let json = r#"{"module": {"a": {"version": "1.0.0"}}}"#;
        for files in [
            &[
                ("main.tf", "module \"a\" {\n  source = \"./a\"\n}\n"),
                ("override.tf", "module \"a\" {\n  version = \"1.0.0\"\n}\n"),
            ][..],
            &[
                ("main.tf", "module \"a\" {\n  source = \"./a\"\n}\n"),
                ("override.tf.json", json),
            ],
        ] {
            let found = findings(&super::RULE, files);
            assert_eq!(found.len(), 1, "{found:#?}");
            assert_eq!(found[0].message, "Invalid version constraint");
            assert!(found[0].path.ends_with("main.tf"), "{}", found[0].path);
            assert_eq!(found[0].start(), (1, 1));
            assert_eq!(
                found[0].notes[0],
                "Cannot apply a version constraint to module \"a\" (at main.tf:1) because it \
                 has a relative local path."
            );
        }
        let remote: Files = &[
            (
                "main.tf",
                "\nmodule \"b\" {\n  source = \"git::https://example.com/b.git\"\n}\n",
            ),
            ("override.tf", "module \"b\" {\n  version = \"1.0.0\"\n}\n"),
        ];
        let found = findings(&super::RULE, remote);
        assert_eq!(
            found[0].notes[0],
            "Cannot apply a version constraint to module \"b\" (at main.tf:2) because it \
             doesn't come from a module registry."
        );
    }

    #[test]
    fn refused_where_every_targeted_version_refuses_it() {
        for files in [
            &[("main.tf", NULL)] as Files,
            &[("main.tf", NULL_LOCAL)],
            &[("main.tf.json", NULL_JSON)],
        ] {
            let found = errors(files, "< 1.15.5", "< 1.10");
            // Each view says which of its releases refuse it.
            assert_eq!(views(&found), [(true, false), (false, true)], "{files:?}");
            assert_eq!(found[0].message, "Invalid registry module source address");
        }
        let found = errors(&[("main.tf", NULL)], "< 1.15.5", "< 1.10");
        assert_eq!(found[0].start(), (2, 13));
        // Terraform 1.15.0–1.15.4 refuse it: the patch releases are told apart.
        let patch = errors(&[("main.tf", NULL)], ">= 1.15.0, < 1.15.5", ">= 1.10");
        assert_eq!(views(&patch), [(true, false)]);
        assert!(
            errors(&[("main.tf", NULL)], ">= 1.15.5", "< 1.10")[0]
                .views
                .opentofu
        );
    }

    #[test]
    fn accepted_where_some_targeted_version_takes_it_as_no_version() {
        assert!(errors(&[("main.tf", NULL)], ">= 1.15.5", ">= 1.10").is_empty());
        assert_eq!(
            views(&errors(&[("main.tf", NULL)], ">= 1.14", "~> 1.9.0")),
            [(false, true)]
        );
        // A registry source takes a null `version` as any version; a variable is not known.
        let registry = "module \"a\" {\n  source  = \"hashicorp/a/aws\"\n  version = null\n}\n";
        assert!(errors(&[("main.tf", registry)], "< 1.15", "< 1.10").is_empty());
        let variable = "variable \"v\" {}\nmodule \"a\" {\n  source  = \"./a\"\n  \
                        version = var.v\n}\n";
        assert!(errors(&[("main.tf", variable)], "< 1.15", "< 1.10").is_empty());
    }
}
