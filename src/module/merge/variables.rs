//! A variable's default through decoding and merging, as the tools compute it
//! (`named_values.go`, `module_merge.go`): each block converts its own default with its own type
//! (after applying the type's `optional()` defaults) when it is decoded; merging an override then
//! converts the merged, already converted, default to the merged type once more. So a base
//! `type = string, default = 1` overridden with `type = bool` is `true` ("1" converts to bool,
//! the number 1 does not), and the override's `optional()` defaults are never applied to a base
//! default.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use super::Merger;
use super::model::{Address, MergedAttribute, MergedObject, Origin};
use super::problems::{
    DefaultProblem, MergeProblem, MergedDefault, MergedDefaultProblem, MergedSetting,
};
use crate::source::Span;
use crate::syntax::{Attribute, Block, ExprKind};
use crate::types::{Converted, Type, Value, convert_value, decode_default};

/// Whose default a decode error is about: the problem the merge reports for it.
#[derive(Debug, Clone, Copy)]
enum Decoding {
    /// A primary variable block (`variable_default_invalid`).
    Base,
    /// An override variable block, on its own (`override_variable_default_invalid`).
    Override,
}

/// A variable's default and the settings it depends on, after the blocks merged so far.
#[derive(Debug, Clone)]
pub(super) struct VariableDefault {
    /// None without a default; `Some(None)` for a default this module cannot compute.
    value: Option<Option<Value>>,
    /// The type constraint; `Any` without one (or with one the tools reject).
    ty: Rc<Type>,
    nullable: bool,
}

/// One variable block's own `type`, `default` and `nullable`, as decoding it gives them.
struct Decoded {
    ty: Option<Rc<Type>>,
    value: Option<Option<Value>>,
    nullable: Option<bool>,
}

impl Merger<'_> {
    /// Decodes a base variable (the object at `index`, before any override is merged into
    /// it), reporting what the tools report at decode time.
    pub(super) fn decode_base_variable(&mut self, index: usize) -> VariableDefault {
        let body = &self.module.objects[index].body;
        let [ty_attr, default_attr, nullable_attr] =
            ["type", "default", "nullable"].map(|name| body.attribute(name).cloned());
        let decoded = self.decode_variable(
            ty_attr.as_ref(),
            default_attr.as_ref(),
            nullable_attr.as_ref(),
            Decoding::Base,
        );
        VariableDefault {
            value: decoded.value,
            ty: decoded.ty.unwrap_or_else(|| Rc::new(Type::Any)),
            nullable: decoded.nullable.unwrap_or(true),
        }
    }

    /// Merges an override variable block into `state`: decodes the override on its own, then
    /// converts the merged default to the merged type, as `Variable.merge` does. `index` is the
    /// variable's object, with the override already merged into its body.
    pub(super) fn merge_variable_default(
        &mut self,
        index: usize,
        state: &mut VariableDefault,
        block: &Block,
    ) {
        let own = |name: &str| {
            block
                .body
                .shared_attribute(name)
                .map(|a| MergedAttribute::from_syntax(a, Origin::Override))
        };
        let (ty_attr, default_attr, nullable_attr) = (own("type"), own("default"), own("nullable"));
        let decoded = self.decode_variable(
            ty_attr.as_ref(),
            default_attr.as_ref(),
            nullable_attr.as_ref(),
            Decoding::Override,
        );
        let (type_overridden, default_overridden) = (decoded.ty.is_some(), decoded.value.is_some());
        if let Some(value) = decoded.value {
            state.value = Some(value);
        }
        if let Some(ty) = decoded.ty {
            state.ty = ty;
        }
        if let Some(nullable) = decoded.nullable {
            state.nullable = nullable;
        }
        let Some(Some(value)) = &state.value else {
            return;
        };
        match convert_value(value, &state.ty) {
            Converted::Ok(converted) => state.value = Some(Some(converted)),
            Converted::Invalid(reason) => {
                let problem = match (type_overridden, default_overridden) {
                    (true, false) => MergedDefaultProblem::TypeOverridden { reason },
                    (false, true) => MergedDefaultProblem::DefaultOverridden { reason },
                    _ => MergedDefaultProblem::NotOfType { reason },
                };
                let merged = self.merged_default_problem(index, block, problem);
                self.report(merged);
                // `Variable.merge` keeps the unconverted default, so the next override file
                // converts it again (and is reported again if it still does not convert).
            }
            Converted::Unknown => {
                state.value = Some(None);
                return;
            }
        }
        // Checked whether or not the default converted, as `Variable.merge` does.
        if let Some(Some(value)) = &state.value
            && value.is_null()
            && !state.nullable
        {
            let problem = MergedDefaultProblem::NullNotNullable;
            let merged = self.merged_default_problem(index, block, problem);
            self.report(merged);
        }
    }

    /// Records, for printing, the default of a variable whose `default` expression alone
    /// (decoded with the merged type, as the printed module is) would not give its value.
    pub(super) fn record_merged_default(&mut self, index: usize, state: &VariableDefault) {
        let object = &mut self.module.objects[index];
        object.default_value = None;
        let (Some(Some(value)), Some(default)) = (&state.value, object.body.attribute("default"))
        else {
            return;
        };
        let as_printed = Value::of_literal(&default.expr).map(|v| decode_default(&v, &state.ty));
        if as_printed != Some(Converted::Ok(value.clone())) {
            object.default_value = Some(value.to_native().into());
        }
    }

    /// An error of an override merge: the tools point at the override block's header.
    fn merged_default_problem(
        &self,
        index: usize,
        block: &Block,
        problem: MergedDefaultProblem,
    ) -> MergeProblem {
        let object = &self.module.objects[index];
        let merged = ["default", "type", "nullable"]
            .into_iter()
            .filter_map(|name| {
                let attr = object.body.attribute(name)?;
                Some(MergedSetting {
                    name,
                    span: attr.span(),
                    from_override: attr.origin == Origin::Override,
                })
            })
            .collect();
        MergeProblem::MergedDefaultInvalid(MergedDefault {
            block: block.def_range(self.files),
            problem,
            merged,
            variable: object.address.clone(),
            declared: object.base_header,
        })
    }

    /// One block's `type`, `default` and `nullable` as decoding that block alone gives them,
    /// reporting the decode-time errors (at the default, as the problem of `decoding`). Without
    /// a type the default stays as written (converting to `any` changes nothing).
    fn decode_variable(
        &mut self,
        ty_attr: Option<&MergedAttribute>,
        default_attr: Option<&MergedAttribute>,
        nullable_attr: Option<&MergedAttribute>,
        decoding: Decoding,
    ) -> Decoded {
        // A type the tools reject is `any` to them (and reported on its own elsewhere).
        let ty = ty_attr.map(|a| self.memo.types.type_of(a.written()));
        let nullable = nullable_attr.map(|a| !matches!(a.expr.kind, ExprKind::Bool(false)));
        let Some(default_attr) = default_attr else {
            return Decoded {
                ty,
                value: None,
                nullable,
            };
        };
        let value = match (Value::of_literal(&default_attr.expr), &ty, ty_attr) {
            (Some(literal), Some(ty), Some(ty_attr)) => match decode_default(&literal, ty) {
                Converted::Ok(converted) => Some(converted),
                Converted::Invalid(reason) => {
                    let problem = DefaultProblem::NotOfType {
                        ty: ty.to_string(),
                        type_value: ty_attr.expr.span,
                        reason,
                    };
                    self.report_default(decoding, default_attr.expr.span, problem);
                    None
                }
                Converted::Unknown => None,
            },
            (literal, _, _) => literal,
        };
        if value.as_ref().is_some_and(Value::is_null) && nullable == Some(false) {
            let nullable = nullable_attr.map(|a| a.span());
            let problem = DefaultProblem::NullNotNullable { nullable };
            self.report_default(decoding, default_attr.expr.span, problem);
        }
        Decoded {
            ty,
            value: Some(value),
            nullable,
        }
    }

    fn report_default(&mut self, decoding: Decoding, default: Span, problem: DefaultProblem) {
        self.report(match decoding {
            Decoding::Base => MergeProblem::VariableDefaultInvalid { default, problem },
            Decoding::Override => MergeProblem::OverrideDefaultInvalid { default, problem },
        });
    }
}

/// Variables never overridden are only decoded; for the others, decoding happened at their
/// first override. Without a default, decoding finds nothing wrong; nor without a `type` and a
/// `nullable` (a default then has no type to be of, and may be null): what it reports is a
/// default not of the type, or null where `nullable = false` forbids it (see
/// [`Merger::decode_variable`]).
pub(super) fn needs_decoding(object: &MergedObject) -> bool {
    let has = |name| object.body.attribute(name).is_some();
    matches!(object.address, Address::Variable(_))
        && object.overrides.is_empty()
        && has("default")
        && (has("type") || has("nullable"))
}

/// The `type`, `default` and `nullable` attributes of a variable, or a null address for each
/// one it lacks.
type DecodeKey = [*const Attribute; 3];

/// The decode-time errors of the variables no override touches, by the attributes they depend
/// on: in each view that loads the same block they are the same.
#[derive(Debug, Default)]
pub(crate) struct BaseVariableErrors {
    errors: RefCell<foldhash::HashMap<DecodeKey, DecodeErrors>>,
}

/// The errors of one decode, with the attributes of its key: held, their addresses stay
/// theirs.
#[derive(Debug)]
struct DecodeErrors {
    _attributes: Vec<Arc<Attribute>>,
    errors: Vec<MergeProblem>,
}

impl Merger<'_> {
    /// Reports the decode-time errors of the variable no override touches at `index`: its
    /// block is decoded in the first view that loads it, and the others report the same.
    pub(super) fn check_base_variable(&mut self, index: usize) {
        let body = &self.module.objects[index].body;
        let attributes = ["type", "default", "nullable"]
            .map(|name| body.attribute(name).map(|a| Arc::clone(a.written())));
        let key: DecodeKey = attributes
            .each_ref()
            .map(|attr| attr.as_ref().map_or(std::ptr::null(), Arc::as_ptr));
        let memo = self.memo;
        if let Some(decoded) = memo.base_variables.errors.borrow().get(&key) {
            self.problems.extend(decoded.errors.iter().cloned());
            return;
        }
        let before = self.problems.len();
        self.decode_base_variable(index);
        let errors = self.problems[before..].to_vec();
        let _attributes = attributes.into_iter().flatten().collect();
        let decoded = DecodeErrors {
            _attributes,
            errors,
        };
        memo.base_variables.errors.borrow_mut().insert(key, decoded);
    }
}
