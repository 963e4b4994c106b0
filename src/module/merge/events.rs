//! What merging did, recorded so rules can judge it without merging again.

use std::fmt;

use crate::source::Span;

use super::model::Address;

/// What an event is about: a mergeable top-level object, or the `terraform` block (merged
/// setting by setting, with no address of its own).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Subject {
    Object(Address),
    Terraform,
    /// A whole top-level block of this type that the tool ignores in override files.
    IgnoredBlock(&'static str),
    /// A local value, by name.
    Local(String),
    /// The `lifecycle` block of a subject (its `action_trigger` blocks are merged on their own).
    Lifecycle(Box<Subject>),
}

impl Subject {
    /// How users name it in prose: ``resource `aws_instance.web` ``, ``the `terraform` block``.
    pub fn describe(&self) -> String {
        match self {
            Subject::Object(address) => address.describe(),
            Subject::Terraform => "the `terraform` block".to_string(),
            Subject::IgnoredBlock(kind) => format!("`{kind}` block"),
            Subject::Local(name) => format!("local value `{name}`"),
            Subject::Lifecycle(of) => of.describe(),
        }
    }

    /// The object's address, when the subject is an object.
    pub fn address(&self) -> Option<&Address> {
        match self {
            Subject::Object(address) => Some(address),
            Subject::Lifecycle(of) => of.address(),
            Subject::Terraform | Subject::IgnoredBlock(_) | Subject::Local(_) => None,
        }
    }
}

impl fmt::Display for Subject {
    /// `resource.T.N`, `variable.N`... or `terraform`, as in the conformance cases.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Object(address) => address.fmt(f),
            Subject::Terraform => f.write_str("terraform"),
            Subject::IgnoredBlock(kind) => f.write_str(kind),
            Subject::Local(name) => write!(f, "local.{name}"),
            Subject::Lifecycle(of) => write!(f, "{of}.lifecycle"),
        }
    }
}

/// One thing an override did (or failed to do) to the module.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// An override block was merged into its base object.
    OverrideApplied {
        address: Subject,
        override_header: Span,
        /// The whole override block.
        override_span: Span,
        base_header: Span,
    },
    /// An override attribute replaced a base (or earlier override) attribute.
    /// `name` is dotted for nested merges (`lifecycle.prevent_destroy`).
    AttributeReplaced {
        address: Subject,
        name: String,
        new: Span,
        old: Span,
        /// The replaced attribute came from an earlier override, not a primary file.
        old_from_override: bool,
        /// The two expressions are identical (ignoring position).
        identical: bool,
    },
    /// An override attribute was added where the base had none.
    AttributeAdded {
        address: Subject,
        name: String,
        new: Span,
    },
    /// The override's blocks of one type (`T {}` or `dynamic "T"`) hid every base block of that
    /// type (and a JSON attribute of that name, if any).
    NestedBlocksReplaced {
        address: Subject,
        kind: String,
        /// Headers of the override's blocks of that type.
        by: Vec<Span>,
        /// Headers (or attribute spans) of what was dropped.
        dropped: Vec<Span>,
    },
    /// An override set something the tool silently drops; the base setting stays.
    IgnoredSetting {
        address: Subject,
        name: String,
        span: Span,
        reason: &'static str,
    },
}
