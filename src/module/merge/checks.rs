//! Checks the tools make on the merged objects: variable defaults against their (possibly
//! overridden) type, and module versions against their source.

use super::Merger;
use super::model::{Address, MergedAttribute, MergedObject, Origin};
use crate::diagnostic::ids;
use crate::knowledge::module_source::SourceKind;
use crate::types::{Conversion, convert, parse_type};

impl Merger<'_> {
    pub(super) fn check_merged_objects(&mut self) {
        let mut found = Vec::new();
        for object in &self.module.objects {
            match &object.address {
                Address::Variable(_) => found.extend(self.check_variable_default(object)),
                Address::ModuleCall(_) => found.extend(self.check_module_version(object)),
                _ => {}
            }
        }
        self.diagnostics.extend(found);
    }

    /// After merging, a default must convert to the type (spec §3, `variable`).
    fn check_variable_default(
        &self,
        object: &MergedObject,
    ) -> Option<crate::diagnostic::Diagnostic> {
        let default = object.body.attribute("default")?;
        let from_override = |a: &MergedAttribute| a.origin == Origin::Override;
        if default.expr.is_null() {
            let nullable = object.body.attribute("nullable")?;
            if !matches!(nullable.expr.kind, crate::syntax::ExprKind::Bool(false)) {
                return None;
            }
            let rule = if from_override(default) || from_override(nullable) {
                ids::OVERRIDE_VARIABLE_DEFAULT_INVALID
            } else {
                ids::VARIABLE_DEFAULT_INVALID
            };
            return Some(
                self.error(
                    rule,
                    "Invalid default value for variable",
                    default.expr.span,
                    "null default",
                )
                .with_label(self.files, nullable.span(), "`nullable = false`")
                .with_note("A null default value is not valid when nullable=false."),
            );
        }
        let ty_attr = object.body.attribute("type")?;
        let ty = parse_type(&ty_attr.expr).ok()?;
        let Conversion::Invalid(reason) = convert(&default.expr, &ty) else {
            return None;
        };
        let (rule, detail) = match (from_override(ty_attr), from_override(default)) {
            (true, false) => (
                ids::OVERRIDE_VARIABLE_DEFAULT_INVALID,
                format!(
                    "Overriding this variable's type constraint has made its default value invalid: {reason}."
                ),
            ),
            (false, true) => (
                ids::OVERRIDE_VARIABLE_DEFAULT_INVALID,
                format!(
                    "The overridden default value for this variable is not compatible with the variable's type constraint: {reason}."
                ),
            ),
            (true, true) => (
                ids::OVERRIDE_VARIABLE_DEFAULT_INVALID,
                format!(
                    "This variable's default value is not compatible with its type constraint: {reason}."
                ),
            ),
            (false, false) => (
                ids::VARIABLE_DEFAULT_INVALID,
                format!(
                    "This default value is not compatible with the variable's type constraint: {reason}."
                ),
            ),
        };
        let mut d = self
            .error(
                rule,
                "Invalid default value for variable",
                default.expr.span,
                format!("not a valid `{ty}`").as_str(),
            )
            .with_label(self.files, ty_attr.expr.span, format!("type is `{ty}`"))
            .with_note(detail);
        if object.base_header != default.name_span && object.base_header != ty_attr.name_span {
            d = d.with_label(
                self.files,
                object.base_header,
                format!("{} is declared here", object.address.describe()),
            );
        }
        Some(d)
    }

    /// Whether a module `version` is a value known without evaluating, and not null: a literal
    /// string, or a local value that is one. Null means "no version" (OpenTofu ≥ 1.10,
    /// Terraform ≥ 1.15.5), and a variable may be null, so neither is judged here.
    fn is_known_version(&self, expr: &crate::syntax::Expr) -> bool {
        use crate::syntax::{ExprKind, TraversalStep};
        if expr
            .json_string
            .as_deref()
            .is_some_and(|s| s.contains("${"))
        {
            return false; // a JSON template: its value is only known when evaluating
        }
        match &expr.kind {
            _ if expr.literal_string().is_some() => true,
            ExprKind::Traversal { root, steps } => match (&root.kind, steps.as_slice()) {
                (ExprKind::Variable(root), [TraversalStep::Attr(name)]) if root == "local" => self
                    .module
                    .local(name)
                    .is_some_and(|l| l.attribute.expr.literal_string().is_some()),
                _ => false,
            },
            _ => false,
        }
    }

    /// `version` needs a registry source (spec §6); an override adding one to a call with a
    /// local source breaks loading.
    fn check_module_version(&self, object: &MergedObject) -> Option<crate::diagnostic::Diagnostic> {
        let version = object.body.attribute("version")?;
        if !self.is_known_version(&version.expr) {
            return None;
        }
        let source = object.body.attribute("source")?;
        let path = source.expr.literal_string()?;
        let kind = crate::knowledge::module_source::classify(path);
        if !matches!(kind, SourceKind::Local | SourceKind::Remote) {
            return None;
        }
        let what = if kind == SourceKind::Local {
            "local source"
        } else {
            "remote source: its address carries the version"
        };
        let mut d = self.error(
            ids::MODULE_VERSION_WITHOUT_REGISTRY_SOURCE, "Invalid registry module source address", version.span(), "`version` set here")
                .with_label(self.files, source.span(), what)
                .with_note("Only module registry addresses (`namespace/name/system`) take a `version`; a local path (./ or ../) has no versions, and a remote address (git::, https://, github.com/...) pins its version itself, e.g. with `?ref=`.")
                .with_help("remove `version`, or use a registry source");
        if version.origin == Origin::Override {
            d = d.with_note(
                "`version` comes from an override file: the base module call was valid on its own.",
            );
        }
        Some(d)
    }
}
