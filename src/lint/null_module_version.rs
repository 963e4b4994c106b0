//! A module call whose `version` is null (hashicorp/terraform#38632 in Terraform's 1.15.5
//! changelog, opentofu/opentofu#2660 in OpenTofu's 1.10.0): Terraform 1.15.5 and later and OpenTofu
//! 1.10 and later take it as "no version"; earlier releases take it as a `version` argument all the
//! same, which only a registry source may have, and refuse a local or remote source with `Invalid
//! registry module source address`. Judged at patch granularity against the targeted versions: an
//! error when every targeted version refuses it, else `feature_newer_than_target` when some do.

use crate::diagnostic::{Diagnostic, ids};
use crate::knowledge::View;
use crate::knowledge::module_source::{self, SourceKind};
use crate::knowledge::version::Version;
use crate::module::merge::{Address, MergedAttribute, Module};
use crate::syntax::{Expr, ExprKind, TraversalStep};

use super::Context;

/// The first release of `view`'s tool that takes a null module `version` as "no version".
pub(crate) fn first_accepting(view: View) -> Version {
    match view {
        View::Terraform => Version::new(1, 15, 5),
        View::OpenTofu => Version::new(1, 10, 0),
    }
}

/// A module call with a local or remote source and a `version` that is null.
pub(crate) struct NullVersion<'a> {
    pub(crate) version: &'a MergedAttribute,
    pub(crate) source: &'a MergedAttribute,
    kind: SourceKind,
}

/// The module calls of the view's module whose `version` is null, with a source that is not a
/// registry address (a registry source takes a null `version` as "any version" everywhere).
pub(crate) fn null_versions<'a>(ctx: &'a Context) -> Vec<NullVersion<'a>> {
    let module = ctx.module;
    module
        .objects
        .iter()
        .filter(|object| matches!(object.address, Address::ModuleCall(_)))
        .filter_map(|object| {
            let version = object.body.attribute("version")?;
            if !is_null(module, &version.expr) {
                return None;
            }
            let source = object.body.attribute("source")?;
            let kind = module_source::classify(source.expr.literal_string()?);
            matches!(kind, SourceKind::Local | SourceKind::Remote).then_some(NullVersion {
                version,
                source,
                kind,
            })
        })
        .collect()
}

/// Whether an expression is null without evaluating: `null`, or a local value that is `null`.
/// (A variable may be null too, but only its caller knows.)
fn is_null(module: &Module, expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Null => true,
        ExprKind::Traversal { root, steps } => match (&root.kind, steps.as_slice()) {
            (ExprKind::Variable(root), [TraversalStep::Attr(name)]) if root == "local" => module
                .local(name)
                .is_some_and(|local| local.attribute.expr.is_null()),
            _ => false,
        },
        _ => false,
    }
}

/// `Invalid registry module source address` on each null `version` when no targeted version
/// takes it as "no version".
pub(crate) fn check(ctx: &Context) -> Vec<Diagnostic> {
    let first = first_accepting(ctx.view);
    if ctx.targets.some_version_from(&first) {
        return Vec::new();
    }
    null_versions(ctx)
        .iter()
        .map(|null| refused(ctx, null, &first))
        .collect()
}

/// `Invalid registry module source address`, at the source as the tools point, with the null
/// `version`.
fn refused(ctx: &Context, null: &NullVersion, first: &Version) -> Diagnostic {
    let tool = ctx.view.tool_name();
    let what = match null.kind {
        SourceKind::Local => "local source",
        _ => "remote source: its address carries the version",
    };
    Diagnostic::error(
        ids::MODULE_VERSION_WITHOUT_REGISTRY_SOURCE,
        "Invalid registry module source address",
    )
    .at(ctx.files, null.source.expr.span, what)
    .with_label(ctx.files, null.version.span(), "`version` is null here")
    .with_note(format!(
        "{tool} takes a null `version` as \"no version\" from {first} on; the targeted releases \
         ({}, {}) take it as a `version` argument, which only a module registry source may \
         have.",
        ctx.targets.describe(),
        ctx.targets.basis_text()
    ))
    .with_help(format!(
        "remove `version`, or target {tool} {first} or later"
    ))
    .in_views(ctx.view.views())
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::{Diagnostic, ids};
    use crate::lint::directory::TargetVersions;
    use crate::lint::testing::{Files, findings_targeting_id};

    const NULL: &str = "module \"a\" {\n  source  = \"./a\"\n  version = null\n}\n";
    const NULL_LOCAL: &str = "locals {\n  v = null\n}\nmodule \"a\" {\n  source  = \"./a\"\n  \
                              version = local.v\n}\n";
    const NULL_JSON: &str = r#"{"module": {"a": {"source": "./a", "version": null}}}"#;

    fn errors(files: Files, terraform: &str, opentofu: &str) -> Vec<Diagnostic> {
        let targets = TargetVersions {
            terraform: Some(terraform.into()),
            opentofu: Some(opentofu.into()),
        };
        findings_targeting_id(ids::MODULE_VERSION_WITHOUT_REGISTRY_SOURCE, files, targets)
    }

    fn views(found: &[Diagnostic]) -> Vec<(bool, bool)> {
        found
            .iter()
            .map(|d| (d.views.terraform, d.views.opentofu))
            .collect()
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
