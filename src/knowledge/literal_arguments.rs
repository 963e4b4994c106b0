//! The arguments Terraform and OpenTofu never read as templates in JSON syntax.
//!
//! In HCL's JSON syntax a string is a template only when its expression is evaluated with an
//! evaluation context (`json/structure.go`, `expression.Value`: with a nil context a string is
//! its literal value, and so is every string nested in an array or object under it). The tools
//! evaluate most arguments with a context, so there `"${"` is a template syntax error
//! (`Missing expression`). The arguments below are read without one (`Value(nil)`,
//! `gohcl.DecodeExpression(.., nil, ..)`, `hcldec.Decode(.., nil)`), or their JSON string is
//! taken as the source text of a keyword, traversal or type (`hcl.ExprAsKeyword`,
//! `hcl.AbsTraversalForExpr`, `unwrapJSONRefExpr`, `typeexpr`): none of them is a template.
//!
//! Where the two tools differ (OpenTofu evaluates `backend`, module `source` and `version` and
//! `prevent_destroy` with a static context), an argument is listed when either tool reads it
//! literally: a string is reported only where both would reject it.

use std::sync::LazyLock;

/// Stands for every argument of a block, and everything nested in it.
const EVERY_ARGUMENT: &str = "*";

/// Block kinds from the root of the file → the arguments of that block read literally. This
/// says how an argument is read, `blocks` which arguments exist: the names overlap (every
/// argument of a `variable` is literal) but neither list follows from the other.
/// Sources are Terraform's `internal/configs` unless named otherwise.
const LITERAL_ARGUMENTS: &[Row] = &[
    // named_values.go, decodeVariableBlock: description, sensitive, ephemeral, const,
    // nullable, deprecated by gohcl.DecodeExpression with nil; default by Value(nil); type by
    // decodeVariableType (typeexpr on the string's text).
    (
        &["variable"],
        &[
            "description",
            "default",
            "type",
            "sensitive",
            "nullable",
            "ephemeral",
            "deprecated",
            "const",
        ],
    ),
    // named_values.go, decodeOutputBlock: description, sensitive, ephemeral, deprecated by
    // gohcl.DecodeExpression with nil; type by typeexpr.TypeConstraintWithDefaults;
    // depends_on.go, decodeDependsOn: traversals.
    (
        &["output"],
        &[
            "description",
            "type",
            "sensitive",
            "ephemeral",
            "deprecated",
            "depends_on",
        ],
    ),
    // config_build.go, legacySourceHelper and the version of decodeModuleBlock:
    // gohcl.DecodeExpression with nil (version_constraint.go: Value(nil)); providers by
    // decodePassedProviderConfigs (traversals); depends_on by decodeDependsOn.
    (
        &["module"],
        &["source", "version", "providers", "depends_on"],
    ),
    // provider.go, decodeProviderBlock: alias by gohcl.DecodeExpression with nil, version by
    // decodeVersionConstraint.
    (&["provider"], &["alias", "version"]),
    // resource.go: provider by decodeProviderConfigRef, depends_on by decodeDependsOn.
    (&["resource"], &["provider", "depends_on"]),
    (&["data"], &["provider", "depends_on"]),
    (&["ephemeral"], &["provider", "depends_on"]),
    (&["action"], &["provider", "depends_on"]),
    (&["check", "data"], &["provider", "depends_on"]),
    // resource.go, decodeResourceBlock's lifecycle: create_before_destroy, prevent_destroy and
    // destroy by gohcl.DecodeExpression with nil; ignore_changes by hcl.ExprAsKeyword and
    // RelTraversalForExpr; replace_triggered_by by decodeReplaceTriggeredBy
    // (unwrapJSONRefExpr: Value(nil), then parsed as a reference).
    (
        &["resource", "lifecycle"],
        &[
            "create_before_destroy",
            "prevent_destroy",
            "destroy",
            "ignore_changes",
            "replace_triggered_by",
        ],
    ),
    // action.go, decodeActionTriggerBlock: events by hcl.ExprAsKeyword, actions by
    // decodeActionTriggerRef (traversals), on_failure by hcl.ExprAsKeyword.
    (
        &["resource", "lifecycle", "action_trigger"],
        &["events", "actions", "on_failure"],
    ),
    // provisioner.go, decodeProvisionerBlock: when and on_failure by hcl.ExprAsKeyword.
    (&["resource", "provisioner"], &["when", "on_failure"]),
    (&["removed", "provisioner"], &["when", "on_failure"]),
    // parser_config.go, terraformBlockSchema: required_version by decodeVersionConstraint,
    // experiments and language by hcl.ExprAsKeyword (experiments.go).
    (
        &["terraform"],
        &["required_version", "experiments", "language"],
    ),
    // state_store.go: the state_store body (but its `provider` block) by hcldec.Decode with nil.
    (&["terraform", "state_store"], &[EVERY_ARGUMENT]),
    // backend.go, cloud.go: hcldec.Decode with nil when the backend is configured.
    (&["terraform", "backend"], &[EVERY_ARGUMENT]),
    (&["terraform", "cloud"], &[EVERY_ARGUMENT]),
    // provider_requirements.go, decodeRequiredProvidersBlock: Value(nil) throughout.
    (&["terraform", "required_providers"], &[EVERY_ARGUMENT]),
    // provider_meta.go, decodeProviderMetaBlock: Value(nil) for every attribute.
    (&["terraform", "provider_meta"], &[EVERY_ARGUMENT]),
    // moved.go, decodeMovedBlock: from and to by hcl.AbsTraversalForExpr.
    (&["moved"], &["from", "to"]),
    // import.go, decodeImportBlock: to by unwrapJSONRefExpr (Value(nil)), provider by
    // decodeProviderConfigRef. `id`, `identity` and `for_each` are evaluated.
    (&["import"], &["to", "provider"]),
    // removed.go, decodeRemovedBlock: from by hcl.AbsTraversalForExpr, lifecycle destroy by
    // gohcl.DecodeExpression with nil.
    (&["removed"], &["from"]),
    (&["removed", "lifecycle"], &["destroy"]),
    // OpenTofu's configs/diagnostics.go: a `language` block is only looked at for its
    // `compatible_with` blocks, never evaluated.
    (&["language"], &[EVERY_ARGUMENT]),
];

/// Block kinds, wherever they nest → the arguments read literally. HCL's `ext/dynblock`: the
/// `iterator` of a `dynamic` block is a traversal (`hcl.AbsTraversalForExpr`).
const LITERAL_ARGUMENTS_ANYWHERE: &[(&str, &[&str])] = &[("dynamic", &["iterator"])];

/// The rows of [`LITERAL_ARGUMENTS`] by the first block kind of their path: every block of every
/// file is looked up (for its calls, its references, per view), and most kinds start no row.
static BY_ROOT: LazyLock<foldhash::HashMap<&'static str, Vec<Row>>> = LazyLock::new(|| {
    let mut rows: foldhash::HashMap<&'static str, Vec<Row>> = foldhash::HashMap::default();
    for row in LITERAL_ARGUMENTS {
        if let Some(root) = row.0.first() {
            rows.entry(root).or_default().push(*row);
        }
    }
    rows
});

/// A row of [`LITERAL_ARGUMENTS`]: a path of block kinds and the arguments read literally there.
type Row = (&'static [&'static str], &'static [&'static str]);

/// The arguments of one block (reached by a path of block kinds from the root of the file) that
/// the tools read literally: looked up once per block, then asked for each of its arguments,
/// rather than the tables being searched again for every argument.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LiteralIn {
    /// The whole block is read literally (a backend's body, `required_providers`, ...).
    every: bool,
    /// The arguments its path lists.
    listed: &'static [&'static str],
    /// The arguments its kind lists wherever it nests.
    anywhere: &'static [&'static str],
}

impl LiteralIn {
    /// The literal arguments of the block reached by `block_path`.
    pub(crate) fn block<S: AsRef<str>>(block_path: &[S]) -> LiteralIn {
        let reaches = |path: &[&str]| {
            path.len() <= block_path.len()
                && path.iter().zip(block_path).all(|(a, b)| *a == b.as_ref())
        };
        let kind = block_path.last().map(AsRef::as_ref);
        let mut found = LiteralIn {
            every: false,
            listed: &[],
            anywhere: (LITERAL_ARGUMENTS_ANYWHERE.iter())
                .find(|(block, _)| kind == Some(*block))
                .map_or(&[], |(_, arguments)| arguments),
        };
        let rows = (block_path.first())
            .and_then(|root| BY_ROOT.get(root.as_ref()))
            .map_or(&[][..], Vec::as_slice);
        for (path, arguments) in rows.iter().filter(|(path, _)| reaches(path)) {
            found.every |= arguments.contains(&EVERY_ARGUMENT);
            if path.len() == block_path.len() {
                found.listed = arguments;
            }
        }
        found
    }

    /// Whether the argument `name` of this block is read without an evaluation context, so
    /// that its strings are not templates.
    pub(crate) fn reads_literally(&self, name: &str) -> bool {
        self.every || self.listed.contains(&name) || self.anywhere.contains(&name)
    }
}

/// Whether the argument `name` of the block reached by `block_path` (block kinds from the root
/// of the file) is read without an evaluation context, so that its strings are not templates.
pub(crate) fn reads_literally<S: AsRef<str>>(block_path: &[S], name: &str) -> bool {
    LiteralIn::block(block_path).reads_literally(name)
}

#[cfg(test)]
mod tests {
    use super::{LITERAL_ARGUMENTS, reads_literally};

    #[test]
    fn literal_arguments_by_block_path() {
        let cases: &[(&[&str], &str, bool)] = &[
            (&["variable"], "description", true),
            (&["variable"], "default", true),
            (&["variable", "validation"], "error_message", false),
            (&["output"], "description", true),
            (&["output"], "value", false),
            (&["resource"], "ami", false),
            (&["resource"], "provider", true),
            (&["resource", "lifecycle"], "prevent_destroy", true),
            (
                &["resource", "lifecycle", "precondition"],
                "condition",
                false,
            ),
            (&["check", "data"], "depends_on", true),
            (&["terraform", "backend"], "bucket", true),
            (&["terraform", "cloud", "workspaces"], "name", true),
            (&["module"], "source", true),
            (&["module"], "name", false),
            (&["locals"], "a", false),
            (&["import"], "id", false),
            (&["import"], "to", true),
            (&["resource", "dynamic"], "iterator", true),
            (&["resource", "dynamic"], "for_each", false),
            (&["resource", "provisioner"], "when", true),
            (&["resource", "provisioner"], "command", false),
        ];
        for &(path, name, want) in cases {
            assert_eq!(reads_literally(path, name), want, "{path:?} {name}");
        }
    }

    /// A block's listed arguments come from the one row of its path.
    #[test]
    fn each_path_has_one_row() {
        let mut paths: Vec<&[&str]> = LITERAL_ARGUMENTS.iter().map(|(path, _)| *path).collect();
        let count = paths.len();
        paths.sort();
        paths.dedup();
        assert_eq!(paths.len(), count, "a path listed twice");
    }
}
