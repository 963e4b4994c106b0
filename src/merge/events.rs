//! What merging did, recorded so rules can judge it without merging again.

use crate::source::Span;

/// One thing an override did (or failed to do) to the module.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// An override block was merged into its base object.
    OverrideApplied {
        address: String,
        override_header: Span,
        /// The whole override block.
        override_span: Span,
        base_header: Span,
    },
    /// An override attribute replaced a base (or earlier override) attribute.
    /// `name` is dotted for nested merges (`lifecycle.prevent_destroy`).
    AttributeReplaced {
        address: String,
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
        address: String,
        name: String,
        new: Span,
    },
    /// The override's blocks of one type (`T {}` or `dynamic "T"`) hid every base block of that
    /// type (and a JSON attribute of that name, if any).
    NestedBlocksReplaced {
        address: String,
        kind: String,
        /// Headers of the override's blocks of that type.
        by: Vec<Span>,
        /// Headers (or attribute spans) of what was dropped.
        dropped: Vec<Span>,
    },
    /// An override sets an argument or block that this kind of block does not have; the tools
    /// decode overridden bodies leniently and drop it without a word.
    UnknownArgument {
        address: String,
        name: String,
        span: Span,
    },
    /// An override set something the tool silently drops; the base setting stays.
    IgnoredSetting {
        address: String,
        name: String,
        span: Span,
        reason: &'static str,
    },
}
