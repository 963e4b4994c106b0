//! Finding ids: `override_without_base`, `syntax_error`, `unused_ignore`...
//!
//! A [`FindingId`] is made only by [`finding_id!`], which embeds the id's user doc
//! (`rules/<id>.md`) at compile time: an id without a doc does not compile, so neither does a
//! misspelled one. Every id is made by `declare_rule!`, in its rule's file (`src/rules/<id>.rs`):
//! load errors and the engine's findings too.

use std::fmt;
use std::hash::{Hash, Hasher};

/// A finding id, with its user documentation. One pointer: every finding holds one, and a run
/// may hold very many findings.
#[derive(Clone, Copy)]
pub struct FindingId(&'static Documented);

/// What a [`FindingId`] points to: the id and its user doc, in a static that
/// [`finding_id!`] makes.
#[doc(hidden)]
pub struct Documented {
    name: &'static str,
    doc: &'static str,
}

impl Documented {
    /// Use [`finding_id!`]: it proves that the doc exists (and is UTF-8: a static made of one
    /// that is not fails to compile).
    #[doc(hidden)]
    pub(crate) const fn new(name: &'static str, doc: &'static [u8]) -> Documented {
        match std::str::from_utf8(doc) {
            Ok(doc) => Documented { name, doc },
            Err(_) => panic!("a finding id's doc is not UTF-8"),
        }
    }
}

impl FindingId {
    /// Use [`finding_id!`].
    #[doc(hidden)]
    pub(crate) const fn of(documented: &'static Documented) -> FindingId {
        FindingId(documented)
    }

    /// The snake_case id, as users write it in config files and ignore comments.
    pub fn as_str(self) -> &'static str {
        self.0.name
    }

    /// The user doc (Markdown), as in `rules/<id>.md`.
    pub fn doc(self) -> &'static str {
        self.0.doc
    }
}

// Identity is the name: the doc is the same text wherever an id is made (the tests make some
// ids a second time, in statics of their own).
impl PartialEq for FindingId {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for FindingId {}

impl Hash for FindingId {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialOrd for FindingId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for FindingId {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl fmt::Debug for FindingId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl serde::Serialize for FindingId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl fmt::Display for FindingId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The [`FindingId`] named by a string literal; fails to compile unless `rules/<id>.md` exists.
macro_rules! finding_id {
    ($id:literal) => {{
        static DOCUMENTED: $crate::diagnostic::FindingIdDoc = $crate::diagnostic::FindingIdDoc::new(
            $id,
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/rules/", $id, ".md")),
        );
        $crate::diagnostic::FindingId::of(&DOCUMENTED)
    }};
}
pub(crate) use finding_id;

/// An id for the tests of the stages before the rules, which need one but no rule.
#[cfg(test)]
pub(crate) const TEST_ID: FindingId = finding_id!("syntax_error");

/// A second id, for the tests that tell findings of two ids apart.
#[cfg(test)]
pub(crate) const OTHER_TEST_ID: FindingId = finding_id!("io_error");
