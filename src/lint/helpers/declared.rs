//! What the effective module declares, and which references name what it does not: the tools'
//! `Reference to undeclared ...` (`undeclared_reference`), which also stops `validate` before it
//! evaluates the block that holds the reference, so that what only evaluation finds there
//! (`module_output_undeclared`) is not reported (hashicorp/terraform `internal/lang/eval.go`,
//! `Scope.EvalContext`: the references' values are looked up before the expression runs).

use foldhash::HashSet;

use crate::module::merge::{Address, AddressKey, Module};
use crate::syntax::Reference;

/// Names the tools give a meaning of their own at the root of a reference (Terraform's
/// `internal/addrs/parse_ref.go`, OpenTofu's `tofu`), or reserve for later use: never a
/// resource type.
pub(crate) const RESERVED_ROOTS: &[&str] = &[
    "action",
    "arg",
    "count",
    "data",
    "each",
    "ephemeral",
    "lazy",
    "list",
    "local",
    "module",
    "path",
    "resource",
    "run",
    "self",
    "template",
    "terraform",
    "tofu",
    "var",
];

/// Whether `reference` is a name alone that the tools read as a resource type with no name
/// after it, which they refuse as `Invalid reference` (hashicorp/terraform
/// `internal/addrs/parse_ref.go`, `parseResourceRef`): no step after it, not one of the roots
/// they reserve (`self`, `count`, `each`... alone are judged by other checks, or valid where
/// the tools bind them), and not a type keyword (`string`, `number`, `bool`, `any`), which a
/// function that takes a type (`convert`) reads as a type (`unknown_function` judges it in
/// releases without such a function).
pub(crate) fn is_bare_name(reference: &Reference) -> bool {
    reference.steps.is_empty()
        && !RESERVED_ROOTS.contains(&reference.root.as_str())
        && !matches!(
            reference.root.as_str(),
            "string" | "number" | "bool" | "any"
        )
}

/// What a reference names that the module does not declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Undeclared<'r> {
    Variable(&'r str),
    Local(&'r str),
    ModuleCall(&'r str),
    Resource {
        mode: Mode,
        kind: &'r str,
        name: &'r str,
    },
}

/// The kind of resource a reference names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Managed,
    Data,
    Ephemeral,
}

impl Mode {
    /// The block type that declares it.
    pub(crate) fn block(self) -> &'static str {
        match self {
            Mode::Managed => "resource",
            Mode::Data => "data",
            Mode::Ephemeral => "ephemeral",
        }
    }
}

impl Undeclared<'_> {
    /// Whether the tools find it before evaluating (`staticValidateReference`): a module call
    /// or a resource. An undeclared variable or local is found while evaluating.
    pub(crate) fn found_before_evaluation(self) -> bool {
        matches!(
            self,
            Undeclared::ModuleCall(_) | Undeclared::Resource { .. }
        )
    }
}

/// The names the module declares, by kind, looked up for every reference: in the module's own
/// index of its objects (and of its locals), not in sets of their names built again in each
/// view, which a module of very many objects would have hashed for nothing.
pub(crate) struct Declared<'m> {
    module: &'m Module,
    /// (resource type, name) of the data sources of `check` blocks: scoped to their block in
    /// the tools, but named as the module's own.
    check_data: HashSet<(&'m str, &'m str)>,
}

impl<'m> Declared<'m> {
    pub(crate) fn of(module: &'m Module) -> Declared<'m> {
        let checks = (module.objects.iter()).filter(|o| matches!(o.address, Address::Check(_)));
        let check_data = checks
            .flat_map(|check| check.body.blocks_of("data"))
            .filter_map(|data| Some((data.label(0)?, data.label(1)?)))
            .collect();
        Declared { module, check_data }
    }

    pub(crate) fn declares(&self, undeclared: Undeclared) -> bool {
        let object = |key| self.module.object_named(key).is_some();
        match undeclared {
            Undeclared::Variable(name) => object(AddressKey::Variable(name)),
            Undeclared::Local(name) => self.module.local(name).is_some(),
            Undeclared::ModuleCall(name) => object(AddressKey::ModuleCall(name)),
            Undeclared::Resource { mode, kind, name } => {
                object(AddressKey::Resource(mode.block(), kind, name))
                    || (mode == Mode::Data && self.check_data.contains(&(kind, name)))
            }
        }
    }
}

/// What `reference` names that the module does not declare, if anything.
pub(crate) fn undeclared<'r>(
    declared: &Declared,
    reference: &'r Reference,
) -> Option<Undeclared<'r>> {
    let first = reference.attr(0)?;
    let found = match reference.root.as_str() {
        "var" => Undeclared::Variable(first),
        "local" => Undeclared::Local(first),
        "module" => Undeclared::ModuleCall(first),
        "data" | "ephemeral" => Undeclared::Resource {
            mode: match reference.root.as_str() {
                "data" => Mode::Data,
                _ => Mode::Ephemeral,
            },
            kind: first,
            name: reference.attr(1)?,
        },
        root if !RESERVED_ROOTS.contains(&root) && root.contains('_') => Undeclared::Resource {
            mode: Mode::Managed,
            kind: root,
            name: first,
        },
        _ => return None,
    };
    (!declared.declares(found)).then_some(found)
}

/// Whether `reference` is `self` where the tools bind nothing to it (`self_bound`, from
/// [`crate::module::references::Use`]): `validate` refuses it before evaluating, as it does an
/// undeclared resource (hashicorp/terraform `internal/terraform/evaluate_valid.go`,
/// `staticValidateReference`).
pub(crate) fn self_unbound(reference: &Reference, self_bound: bool) -> bool {
    reference.root == "self" && !self_bound
}

/// Whether the tools stop before evaluating the expressions that hold `reference`: its static
/// check failed (an undeclared module call or resource, `self` where nothing binds it), and
/// `Scope.EvalContext` returns before it looks up any value (hashicorp/terraform
/// `internal/lang/eval.go`), so what only evaluation finds there is not reported.
pub(crate) fn stops_evaluation(
    declared: &Declared,
    reference: &Reference,
    self_bound: bool,
) -> bool {
    self_unbound(reference, self_bound)
        || undeclared(declared, reference).is_some_and(|u| u.found_before_evaluation())
}
