//! Finding ids: `override_without_base`, `syntax_error`, `unused_ignore`...
//!
//! A [`FindingId`] is made only by [`finding_id!`], which embeds the id's user doc
//! (`rules/<id>.md`) at compile time: an id without a doc does not compile, so neither does a
//! misspelled one. Every id is made by `declare_rule!`, in its rule's file (`src/rules/<id>.rs`):
//! load errors and the engine's findings too.

use std::fmt;
use std::hash::{Hash, Hasher};

/// A finding id, with its user documentation.
#[derive(Clone, Copy)]
pub struct FindingId {
    name: &'static str,
    doc: &'static str,
}

impl FindingId {
    /// Use [`finding_id!`]: it proves that the doc exists (and is UTF-8: a const that makes
    /// a `FindingId` of one that is not fails to compile).
    #[doc(hidden)]
    pub(crate) const fn documented(name: &'static str, doc: &'static [u8]) -> FindingId {
        match std::str::from_utf8(doc) {
            Ok(doc) => FindingId { name, doc },
            Err(_) => panic!("a finding id's doc is not UTF-8"),
        }
    }

    /// The snake_case id, as users write it in config files and ignore comments.
    pub fn as_str(self) -> &'static str {
        self.name
    }

    /// The user doc (Markdown), as in `rules/<id>.md`.
    pub fn doc(self) -> &'static str {
        self.doc
    }
}

// Identity is the name: the doc is the same text wherever an id is made.
impl PartialEq for FindingId {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for FindingId {}

impl Hash for FindingId {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.hash(state);
    }
}

impl PartialOrd for FindingId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for FindingId {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.name.cmp(other.name)
    }
}

impl fmt::Debug for FindingId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.name)
    }
}

impl serde::Serialize for FindingId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name)
    }
}

impl fmt::Display for FindingId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// The [`FindingId`] named by a string literal; fails to compile unless `rules/<id>.md` exists.
macro_rules! finding_id {
    ($id:literal) => {
        $crate::diagnostic::FindingId::documented(
            $id,
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/rules/", $id, ".md")),
        )
    };
}
pub(crate) use finding_id;

/// An id for the tests of the stages before the rules, which need one but no rule.
#[cfg(test)]
pub(crate) const TEST_ID: FindingId = finding_id!("syntax_error");

/// A second id, for the tests that tell findings of two ids apart.
#[cfg(test)]
pub(crate) const OTHER_TEST_ID: FindingId = finding_id!("io_error");
