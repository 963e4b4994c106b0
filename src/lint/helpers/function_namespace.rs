//! Namespaced function calls that no release of a tool resolves, whatever its providers offer, with
//! each tool's own texts (`internal/lang/eval.go` of hashicorp/terraform and opentofu/opentofu).
//! Both tools have had the `core::` and `provider::` namespaces since Terraform 1.8 and OpenTofu
//! 1.7 (the release tables say so). Older releases cannot parse a namespaced name: a native file
//! with one is `syntax_newer_than_target`'s, a JSON template with one `unknown_function`'s, both
//! with [`before_namespaces_note`].
//!
//! - Terraform (`internal/lang/eval.go`, `CheckForUnknownFunctionDiags`, 1.8 to HEAD): every
//!   unresolved namespaced call becomes `Unknown provider function`. Its functions are the
//!   built-ins under `core::` and, under `provider::NAME::`, the functions of the providers in
//!   the module's `required_providers` (`internal/terraform/eval_context_builtin.go`,
//!   `evaluationExternalFunctions`): never the alias form `provider::NAME::ALIAS::FUNC`.
//! - OpenTofu (`internal/lang/eval.go`, `enhanceFunctionDiag`, 1.7 to HEAD): `Unknown function
//!   namespace` for a namespace other than `core::` and `provider::`, `Invalid function format`
//!   for a `provider::` call that is neither `provider::NAME::FUNC` nor
//!   `provider::NAME::ALIAS::FUNC`, `There is no builtin (core::) function named "FUNC".`; and
//!   from the graph (`internal/tofu/transform_provider.go`) `Unknown function provider` when
//!   NAME is not in `required_providers`.
//!
//! Whether a declared provider offers the function is the provider's schema: left to the tools.

use crate::knowledge::View;
use crate::knowledge::features::{self, Place};
use crate::lint::Context;

/// Why a targeted release refuses a namespaced name: its parser (HCL before 2.20 scans `::` as
/// two colons) ends the name before them.
pub(crate) fn before_namespaces_note(ctx: &Context) -> String {
    let since = features::find(Place::FunctionNamespace, "core")
        .and_then(|f| f.availability(ctx.view).since())
        .map_or_else(String::new, |since| format!(" before {since}"));
    format!(
        "{} has no `::` in function names{since}: its parser ends the name before the `::`, and \
         what follows is out of place; this module targets {}.",
        ctx.view.tool_name(),
        ctx.targets.describe()
    )
}

/// What is wrong with a namespaced call, as one tool sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Problem {
    /// A namespace neither tool has (`foo::bar`; in Terraform also `core::a::b`).
    InvalidNamespace,
    /// OpenTofu: `core::a::b`, which names no built-in.
    NoBuiltin,
    /// Terraform: `provider::f`, with no provider name.
    ProviderNameMissing,
    /// OpenTofu: a `provider::` call with too few or too many parts.
    InvalidProviderFormat,
    /// A provider function whose provider is not in `required_providers`.
    ProviderNotRequired,
    /// Terraform: OpenTofu's alias form `provider::NAME::ALIAS::FUNC` (or longer), which
    /// Terraform never resolves, with the text of an undeclared provider.
    AliasForm,
}

/// The problem of the namespaced call `name` (`ns::...::func`) in `view`, if the tool cannot
/// resolve it whatever the providers offer. `required` says whether a provider local name is in
/// the module's `required_providers`. `core::FUNC` is judged as the built-in `FUNC` elsewhere.
pub(crate) fn problem(view: View, name: &str, required: impl Fn(&str) -> bool) -> Option<Problem> {
    let parts: Vec<&str> = name.split("::").collect();
    let (namespace, middle) = match parts.as_slice() {
        [namespace, middle @ .., _function] => (*namespace, middle),
        _ => return None,
    };
    match (view, namespace, middle) {
        (_, "core", []) => None,
        (View::OpenTofu, "core", _) => Some(Problem::NoBuiltin),
        (View::Terraform, "provider", []) => Some(Problem::ProviderNameMissing),
        (View::Terraform, "provider", [provider])
        | (View::OpenTofu, "provider", [provider, ..])
            if middle.len() <= 2 =>
        {
            (!required(provider)).then_some(Problem::ProviderNotRequired)
        }
        (View::Terraform, "provider", _) => Some(Problem::AliasForm),
        (View::OpenTofu, "provider", _) => Some(Problem::InvalidProviderFormat),
        _ => Some(Problem::InvalidNamespace),
    }
}

impl Problem {
    /// The tool's summary.
    pub(crate) fn summary(self, view: View) -> &'static str {
        match (view, self) {
            (View::Terraform, _) => "Unknown provider function",
            (View::OpenTofu, Problem::InvalidNamespace) => "Unknown function namespace",
            (View::OpenTofu, Problem::InvalidProviderFormat) => "Invalid function format",
            (View::OpenTofu, Problem::ProviderNotRequired) => "Unknown function provider",
            (View::OpenTofu, Problem::NoBuiltin | Problem::ProviderNameMissing) => {
                "Call to unknown function"
            }
            (View::OpenTofu, Problem::AliasForm) => "Invalid function format",
        }
    }

    /// The tool's detail for the call `name`.
    pub(crate) fn detail(self, view: View, name: &str) -> String {
        let parts: Vec<&str> = name.split("::").collect();
        let namespace = parts.first().copied().unwrap_or_default();
        let provider = parts.get(1).copied().unwrap_or_default();
        let function = parts.last().copied().unwrap_or_default();
        match (view, self) {
            (View::Terraform, Problem::InvalidNamespace) => format!(
                "The function namespace \"{namespace}\" is not valid. Provider function calls \
                 must use the \"provider::\" namespace prefix."
            ),
            (View::Terraform, Problem::ProviderNameMissing) => "The function call must include \
                the provider name after the \"provider::\" prefix."
                .to_string(),
            (View::Terraform, _) => format!(
                "There is no function named \"{name}\". Ensure that provider name \
                 \"{provider}\" is declared in this module's required_providers block, and that \
                 this provider offers a function named \"{function}\"."
            ),
            (View::OpenTofu, Problem::InvalidNamespace) => format!(
                "Function \"{name}\" does not exist within a valid namespace (provider,core)"
            ),
            (View::OpenTofu, Problem::InvalidProviderFormat | Problem::AliasForm) => format!(
                "invalid provider function \"{name}\": expected provider::<name>::<function> or \
                 provider::<name>::<alias>::<function>"
            ),
            (View::OpenTofu, Problem::ProviderNotRequired) => format!(
                "Provider \"{provider}\" does not exist within the required_providers of this \
                 module"
            ),
            (View::OpenTofu, Problem::NoBuiltin | Problem::ProviderNameMissing) => {
                core_detail(function)
            }
        }
    }
}

/// OpenTofu's detail for an unknown `core::FUNC`.
pub(crate) fn core_detail(function: &str) -> String {
    format!("There is no builtin (core::) function named \"{function}\".")
}

#[cfg(test)]
mod tests {
    use super::{Problem, problem};
    use crate::knowledge::View;

    #[test]
    fn problems_per_tool() {
        let required = |p: &str| p == "aws";
        let cases: &[(&str, Option<Problem>, Option<Problem>)] = &[
            ("core::upper", None, None),
            ("provider::aws::arn_parse", None, None),
            (
                "provider::aws::east::arn_parse",
                Some(Problem::AliasForm),
                None,
            ),
            (
                "provider::gcp::f",
                Some(Problem::ProviderNotRequired),
                Some(Problem::ProviderNotRequired),
            ),
            (
                "provider::gcp::east::f",
                Some(Problem::AliasForm),
                Some(Problem::ProviderNotRequired),
            ),
            (
                "provider::f",
                Some(Problem::ProviderNameMissing),
                Some(Problem::InvalidProviderFormat),
            ),
            (
                "provider::aws::a::b::f",
                Some(Problem::AliasForm),
                Some(Problem::InvalidProviderFormat),
            ),
            (
                "aws::arn_parse",
                Some(Problem::InvalidNamespace),
                Some(Problem::InvalidNamespace),
            ),
            (
                "core::a::upper",
                Some(Problem::InvalidNamespace),
                Some(Problem::NoBuiltin),
            ),
        ];
        for &(name, terraform, opentofu) in cases {
            assert_eq!(
                problem(View::Terraform, name, required),
                terraform,
                "{name}"
            );
            assert_eq!(problem(View::OpenTofu, name, required), opentofu, "{name}");
        }
    }
}
