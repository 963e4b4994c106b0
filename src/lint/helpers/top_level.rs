//! The top-level blocks of the files a view loads, listed once per view, each with a tag for
//! its block type. Most rules read the blocks of one or two types: picking them from this list
//! reads a few bytes per block, where walking the files reads each file and each block, which in
//! a directory of many files is a cache miss at every step, for every rule.

use crate::module::merge::LoadedFile;
use crate::syntax::Block;

/// The block types a rule can pick (see [`picked`]); each block of one of them is tagged with
/// its position here.
const KINDS: &[&str] = &[
    "action",
    "check",
    "data",
    "ephemeral",
    "import",
    "language",
    "list",
    "locals",
    "module",
    "moved",
    "output",
    "provider",
    "removed",
    "resource",
    "terraform",
    "variable",
];

/// The tag of every other block type.
const OTHER: u8 = u8::MAX;

fn tag(kind: &str) -> u8 {
    (KINDS.iter().position(|known| *known == kind)).map_or(OTHER, |i| i as u8)
}

/// A top-level block of a view's files, with its file.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TopLevel<'a> {
    pub(crate) file: &'a LoadedFile<'a>,
    pub(crate) block: &'a Block,
    /// The block type's position in [`KINDS`], or [`OTHER`].
    tag: u8,
}

/// The top-level blocks of `primary`, then of `overrides`, in load order.
pub(crate) fn list<'a>(
    primary: &'a [LoadedFile<'a>],
    overrides: &'a [LoadedFile<'a>],
) -> Vec<TopLevel<'a>> {
    (primary.iter().chain(overrides))
        .flat_map(|file| {
            (file.file.body.blocks.iter()).map(move |block| TopLevel {
                file,
                block,
                tag: tag(&block.kind),
            })
        })
        .collect()
}

/// The blocks of `blocks` of the types `kinds` names, in order: their block is not read to
/// find them.
pub(crate) fn picked<'l, 'a>(
    blocks: &'l [TopLevel<'a>],
    kinds: &[&str],
) -> impl Iterator<Item = (&'a LoadedFile<'a>, &'a Block)> + 'l {
    let wanted = kinds.iter().fold(0u32, |wanted, kind| {
        let tag = tag(kind);
        assert!(tag != OTHER, "`{kind}` is not a block type of `KINDS`");
        wanted | 1 << tag
    });
    (blocks.iter())
        .filter(move |b| b.tag != OTHER && wanted & (1 << b.tag) != 0)
        .map(|b| (b.file, b.block))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_tag_of_its_own() {
        assert!(KINDS.len() <= 32, "the tags of a pick are bits of a u32");
        for (i, kind) in KINDS.iter().enumerate() {
            assert_eq!(usize::from(tag(kind)), i);
        }
        assert_eq!(tag("resources"), OTHER);
        assert_eq!(tag(""), OTHER);
    }
}
