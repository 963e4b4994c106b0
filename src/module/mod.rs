//! The module stage: which files each tool loads ([`views`]), the effective module they build
//! from them with override files merged in ([`merge`]), and printing it ([`print`]).

pub(crate) mod merge;
pub(crate) mod print;
pub(crate) mod source_map;
pub(crate) mod views;
