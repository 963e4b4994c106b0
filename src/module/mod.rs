//! The module stage: which files each tool loads ([`views`]), the effective module they build
//! from them with override files merged in ([`merge`]), what its blocks use ([`references`]),
//! printing it ([`print`]) and its semantic form, which fixes are proved against
//! ([`semantic`]).

pub(crate) mod merge;
pub(crate) mod print;
pub(crate) mod references;
pub(crate) mod semantic;
pub(crate) mod source_map;
pub(crate) mod used;
pub(crate) mod views;
