//! A Terraform version constraint that shuts OpenTofu out for nothing: OpenTofu 1.6–1.11 read
//! `required_version` in `.tf` files and compare it with their own version numbers, so
//! `required_version = ">= 1.13.1"`, written for Terraform, refuses OpenTofu 1.6–1.11 although
//! no construct of the module needs a newer OpenTofu (users ask for this: opentofu/opentofu
//! issues 2301 and 3347, modules that lock OpenTofu out by a Terraform version number).
//! OpenTofu 1.12 and later read `required_version` only in `.tofu` files
//! (opentofu/opentofu `internal/configs/diagnostics.go`, `checkVersionRequirements`).
//!
//! Reported when the module states no constraint of OpenTofu's own (no `.tofu` file's
//! `required_version`, no `language` block), calls no local module (the tools load the whole
//! tree; `tflint-merge compat` follows the calls) and the default targets are in use (with
//! OpenTofu targets set, `required_version_terraform_only` reports the targeted releases the
//! constraint refuses). Whether a release would load the module is judged by the constructs
//! the release tables date; `tflint-merge compat` weighs every load error.
//!
//! The fix (unsafe) is the layout OpenTofu's documentation recommends: a `.tofu` twin of the
//! `.tf` file holding the `terraform` block, with OpenTofu's own constraint. OpenTofu 1.8 and
//! later read the twin instead of the `.tf` file; Terraform does not read `.tofu` files.

use crate::diagnostic::fix::FileOperation;
use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::knowledge::View;
use crate::knowledge::module_source::{self, SourceKind};
use crate::knowledge::releases::{self, Release, ranges_text};
use crate::knowledge::version::{self, Version, VersionSet};
use crate::lint::helpers::dated::refusing_releases;
use crate::lint::helpers::{literal_source, module_calls};
use crate::lint::targets::{
    Basis, OPENTOFU_TOFU_ONLY_REQUIRED_VERSION, Targets, constraints_enforced_by, releases_admitted,
};
use crate::syntax::{Expr, File};

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "version_constraint_too_tight",
    severity: Warning,
    default: On,
    summary: "a Terraform version constraint that shuts out OpenTofu releases which would load the module",
    check: Check::View(RuleViews::Only(View::OpenTofu), check),
};

/// The first OpenTofu release that reads `.tofu` files, and so the twin the fix writes.
const FIRST_READING_TOFU_FILES: Release = Release::new(1, 8);

/// The OpenTofu releases shut out, and the constraints of OpenTofu's own that would admit them.
struct ShutOut {
    /// The published releases before 1.12 that the `.tf` constraints refuse and that no dated
    /// construct keeps from loading the module.
    versions: Vec<Version>,
    /// `>= ` the oldest release that would load the module.
    opentofu_constraint: String,
    /// The same for a `.tofu` twin, which only OpenTofu 1.8 and later read: `>= ` the oldest
    /// of those that would load the module (the older ones read the `.tf` file whatever the
    /// twin says).
    twin_constraint: String,
}

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    if ctx.targets.basis != Basis::Module
        || states_opentofu_constraint(ctx)
        || calls_local_module(ctx)
    {
        return;
    }
    let Some(shut_out) = shut_out(ctx) else {
        return;
    };
    let oldest = releases::line_of(&shut_out.versions[0]);
    let enforced = constraints_enforced_by(ctx.view, oldest, ctx.constraint_files());
    for constraint in enforced {
        let Some(Ok(parsed)) = constraint.literal_string().map(version::parse) else {
            continue;
        };
        let set = VersionSet::of(&parsed);
        let refused: Vec<Version> = (shut_out.versions.iter())
            .filter(|v| !set.overlaps(&VersionSet::exactly((*v).clone())))
            .cloned()
            .collect();
        if !refused.is_empty() {
            out.push(too_tight(ctx, constraint, &refused, &shut_out));
        }
    }
}

/// Whether the module states OpenTofu's own constraint: a `.tofu` file's `required_version`
/// (the OpenTofu view merges only those) or a `language` block.
fn states_opentofu_constraint(ctx: &Context) -> bool {
    !ctx.module.terraform.required_version.is_empty()
        || ctx.module.unmerged.iter().any(|b| b.kind == "language")
}

/// Whether the module calls a local module: the tools load the whole tree, and what the called
/// modules need is not judged here (`tflint-merge compat` follows the calls), so a release this
/// directory alone would let in might still refuse the tree.
fn calls_local_module(ctx: &Context) -> bool {
    module_calls(ctx)
        .filter_map(literal_source)
        .any(|(_, source)| module_source::classify(source) == SourceKind::Local)
}

/// The OpenTofu releases before 1.12 that the module's constraints shut out and that would
/// load it; `None` when there are none.
fn shut_out(ctx: &Context) -> Option<ShutOut> {
    let admitted = releases_admitted(ctx.view, ctx.constraint_files());
    let excluded: Vec<Version> = releases::published_versions(ctx.view)
        .filter(|v| releases::line_of(v) < OPENTOFU_TOFU_ONLY_REQUIRED_VERSION)
        .filter(|v| !admitted.contains(v))
        .collect();
    if excluded.is_empty() {
        return None;
    }
    // Every release line judged, whatever the constraints admit.
    let every = Targets::derive(ctx.view, ctx.constraint_files(), Some(">= 0"));
    let refused = refusing_releases(&ctx.with_targets(&every));
    let would_load = |v: &Version| !refused.contains_key(&releases::line_of(v));
    let versions: Vec<Version> = excluded.into_iter().filter(would_load).collect();
    let oldest = releases::published_versions(ctx.view).find(would_load)?;
    let reads_twin = |v: &Version| releases::line_of(v) >= FIRST_READING_TOFU_FILES;
    let oldest_reading_twin =
        releases::published_versions(ctx.view).find(|v| would_load(v) && reads_twin(v))?;
    (!versions.is_empty()).then(|| ShutOut {
        versions,
        opentofu_constraint: format!(">= {oldest}"),
        twin_constraint: format!(">= {oldest_reading_twin}"),
    })
}

/// `` `>= 1.13.1` shuts out OpenTofu 1.6.0–1.11.14, which would load the module ``
fn too_tight(
    ctx: &Context,
    constraint: &Expr,
    refused: &[Version],
    shut_out: &ShutOut,
) -> Diagnostic {
    let written = constraint.literal_string().unwrap_or_default();
    let ranges = ranges_text(View::OpenTofu, refused);
    let own = &shut_out.opentofu_constraint;
    let d = ctx
        .finding(
            &RULE,
            format!("`{written}` shuts out OpenTofu {ranges}, which would load the module"),
        )
        .at(
            ctx.files,
            constraint.span,
            format!("refuses OpenTofu {ranges}"),
        )
        .with_note(
            "OpenTofu 1.6–1.11 read `required_version` in `.tf` files and compare it with their \
             own version numbers; no construct of the module needs a newer OpenTofu. OpenTofu \
             1.12 and later read it only in `.tofu` files.",
        );
    let rescued = refused
        .iter()
        .any(|v| releases::line_of(v) >= FIRST_READING_TOFU_FILES);
    if !rescued {
        return d.with_help(format!(
            "OpenTofu {ranges} read no `.tofu` file: only a constraint in this file that they \
             satisfy (OpenTofu needs `{own}`) lets them in"
        ));
    }
    let own = &shut_out.twin_constraint;
    let file = ctx.files.get(constraint.span.file);
    let holder = (ctx.primary.iter().chain(ctx.overrides))
        .find(|f| f.file.id == constraint.span.file)
        .map(|f| f.file);
    let name = file.file_name();
    let Some(twin) = twin_name(name) else {
        return d;
    };
    if !holder.is_some_and(holds_only_terraform) {
        return d.with_help(format!(
            "move the `terraform` block into a file of its own (`versions.tf`) and state \
             OpenTofu's own constraint, `{own}`, in its `.tofu` twin: a twin of `{name}` would \
             hide everything else in it from OpenTofu"
        ));
    }
    let d = d.with_help(format!(
        "state OpenTofu's own constraint, `{own}`, in `{twin}`: OpenTofu 1.8 and later read it \
         instead of `{name}`, and Terraform does not read `.tofu` files"
    ));
    // A file kept only in part (see `SourceFile::excerpt`) cannot be copied.
    let Some(text) = file.whole_text() else {
        return d;
    };
    if ctx.overlay.exists(&file.path.with_file_name(&twin)) {
        return d;
    }
    let range = constraint.span.range();
    let start = file.local_offset(range.start);
    let end = start + range.len();
    let content = format!("{}\"{own}\"{}", &text[..start], &text[end..]);
    let create = FileOperation::Create {
        path: file.path.with_file_name(&twin),
        content,
    };
    let title = format!("State OpenTofu's constraint in `{twin}`");
    d.with_fix(Fix::new(title, Applicability::Unsafe).operation(create))
}

/// `versions.tofu` for `versions.tf`, `versions.tofu.json` for `versions.tf.json`.
fn twin_name(name: &str) -> Option<String> {
    if let Some(stem) = name.strip_suffix(".tf.json") {
        return Some(format!("{stem}.tofu.json"));
    }
    name.strip_suffix(".tf").map(|stem| format!("{stem}.tofu"))
}

/// Whether a file holds nothing but `terraform` blocks (its twin then hides nothing else).
fn holds_only_terraform(file: &File) -> bool {
    file.body.attributes.is_empty() && file.body.blocks.iter().all(|b| b.kind == "terraform")
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::fix::FileOperation;
    use crate::lint::testing::{Files, check_table, findings, only};

    const VERSIONS: &str = "terraform {\n  required_version = \">= 1.13.1\"\n}\n";

    const PASS: &[Files] = &[
        // Admits every OpenTofu release.
        &[(
            "versions.tf",
            "terraform {\n  required_version = \">= 1.5\"\n}\n",
        )],
        // OpenTofu's own constraint is stated: the `.tf` one is Terraform's alone.
        &[
            ("versions.tf", VERSIONS),
            (
                "main.tofu",
                "terraform {\n  required_version = \">= 1.6\"\n}\n",
            ),
        ],
        // A local module call: what the called module needs is `compat`'s to judge.
        &[
            ("versions.tf", VERSIONS),
            ("main.tf", "module \"m\" {\n  source = \"./m\"\n}\n"),
        ],
        // `templatestring` came in OpenTofu 1.7, `ephemeral` blocks in 1.11: 1.6–1.10 refuse
        // the module anyway, and 1.11 is admitted.
        &[
            (
                "versions.tf",
                "terraform {\n  required_version = \">= 1.11\"\n}\n",
            ),
            (
                "main.tf",
                "ephemeral \"random_password\" \"p\" {\n  length = 8\n}\n",
            ),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (&[("versions.tf", VERSIONS)], 1),
        (
            &[(
                "versions.tf.json",
                r#"{"terraform": {"required_version": ">= 1.13.1"}}"#,
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    fn created(files: Files) -> (String, String) {
        let found = only(findings(&super::RULE, files));
        let fix = found.fix.expect("a fix");
        match &fix.operations[..] {
            [FileOperation::Create { path, content }] => (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                content.clone(),
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_fix_writes_a_tofu_twin_with_opentofus_own_constraint() {
        let found = only(findings(&super::RULE, &[("versions.tf", VERSIONS)]));
        assert!(
            found
                .message
                .starts_with("`>= 1.13.1` shuts out OpenTofu 1.6.0–"),
            "{}",
            found.message
        );
        let (name, content) = created(&[("versions.tf", VERSIONS)]);
        assert_eq!(name, "versions.tofu");
        // OpenTofu 1.6 and 1.7 read no `.tofu` file: the twin speaks for 1.8 and later.
        let twin = "terraform {\n  required_version = \">= 1.8.0\"\n}\n";
        assert_eq!(content, twin);
        let json = r#"{"terraform": {"required_version": ">= 1.13.1"}}"#;
        let (name, content) = created(&[("versions.tf.json", json)]);
        assert_eq!(name, "versions.tofu.json");
        assert_eq!(
            content,
            r#"{"terraform": {"required_version": ">= 1.8.0"}}"#
        );
        // The twin states what the module needs: `ephemeral` blocks came in OpenTofu 1.11.
        let (_, content) = created(&[
            ("versions.tf", VERSIONS),
            (
                "main.tf",
                "ephemeral \"random_password\" \"p\" {\n  length = 8\n}\n",
            ),
        ]);
        let twin = "terraform {\n  required_version = \">= 1.11.0\"\n}\n";
        assert_eq!(content, twin);
    }

    /// A twin would hide the file's other blocks from OpenTofu: no fix then.
    #[test]
    fn no_twin_for_a_file_holding_more_than_the_terraform_block() {
        let files: Files = &[(
            "main.tf",
            "terraform {\n  required_version = \">= 1.13.1\"\n}\nresource \"terraform_data\" \
             \"a\" {}\n",
        )];
        let found = only(findings(&super::RULE, files));
        assert!(found.fix.is_none());
    }
}
