//! The unified diff `--diff` prints for one file, in work that grows with the file.
//!
//! A diff of the whole text with Myers' algorithm (what `similar::TextDiff` runs) takes time in
//! the number of lines times the number of lines changed, and a fix per line changes every
//! line: a file of 20,000 lines with an unused ignore on each took seconds. This keeps Myers'
//! answer where it is cheap and finds the rest in linear work, the way GNU diff and git's
//! patience diff cut a large problem up:
//!
//! - the lines the two texts begin and end with in common are kept;
//! - between them, lines that occur once in the old text and once in the new are matched in
//!   the longest run that keeps their order (patience diff's anchors), since a fix does not
//!   move a line that occurs once;
//! - between two anchors, a stretch whose old and new lines have none in common is a
//!   replacement (no diff can keep a line of it), and only a stretch that has lines in common
//!   is left to Myers, small as the fixes make it.
//!
//! Changes are then slid along repeated lines and joined as `similar` does, and the edit is
//! printed as `similar`'s unified diff prints one: the same hunks (changes
//! closer than twice the three lines of context share one), headers and "No newline" notes.

use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::ops::Range;

use similar::algorithms::{Capture, Compact, DiffHook, NoFinishHook, Replace, myers};
use similar::{DiffOp, DiffableStr};

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// A unified diff and the work it took.
pub(crate) struct UnifiedDiff {
    /// `---`/`+++` headers and hunks; empty when the texts are the same.
    pub(crate) text: String,
    /// Lines compared or looked up: the measure of work that tests hold to grow linearly.
    pub(crate) steps: u64,
}

/// The unified diff of `old` to `new`, lines split as `similar` splits them (after `\n`, `\r`
/// or `\r\n`), with `old_name` and `new_name` in its headers.
pub(crate) fn unified_diff(old: &str, new: &str, old_name: &str, new_name: &str) -> UnifiedDiff {
    let old_lines = old.tokenize_lines();
    let new_lines = new.tokenize_lines();
    let steps = Cell::new(0);
    let ops = line_ops(&old_lines, &new_lines, &steps);
    let mut text = String::new();
    for (index, hunk) in similar::group_diff_ops(ops, CONTEXT).iter().enumerate() {
        if index == 0 {
            let _ = writeln!(text, "--- {old_name}\n+++ {new_name}");
        }
        write_hunk(&mut text, hunk, &old_lines, &new_lines);
    }
    UnifiedDiff {
        text,
        steps: steps.get(),
    }
}

/// One hunk: its `@@` header and its lines, each tagged ` `, `-` or `+`.
fn write_hunk(out: &mut String, hunk: &[DiffOp], old_lines: &[&str], new_lines: &[&str]) {
    let (Some(first), Some(last)) = (hunk.first(), hunk.last()) else {
        return;
    };
    let old_range = first.old_range().start..last.old_range().end;
    let new_range = first.new_range().start..last.new_range().end;
    let _ = writeln!(
        out,
        "@@ -{} +{} @@",
        hunk_range(old_range),
        hunk_range(new_range)
    );
    for op in hunk {
        for change in op.iter_changes(old_lines, new_lines) {
            let _ = write!(out, "{}{}", change.tag(), change.value());
            if change.missing_newline() {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
}

/// A hunk's line range as unified diffs write it: `start,length` counting from 1, `start`
/// alone for one line, and for no line the line before it (GNU diffutils' format).
fn hunk_range(lines: Range<usize>) -> String {
    match lines.len() {
        1 => format!("{}", lines.start + 1),
        0 => format!("{},0", lines.start),
        length => format!("{},{length}", lines.start + 1),
    }
}

/// A line as a number, equal for equal lines, that counts each comparison made with it.
#[derive(Clone, Copy)]
struct Line<'a> {
    id: u32,
    steps: &'a Cell<u64>,
}

impl PartialEq for Line<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.steps.set(self.steps.get() + 1);
        self.id == other.id
    }
}

/// Two texts' lines as numbers, and how often each number occurs in each text.
struct Numbered<'a> {
    old: Vec<Line<'a>>,
    new: Vec<Line<'a>>,
}

fn number_lines<'t, 'a>(
    old_lines: &[&'t str],
    new_lines: &[&'t str],
    steps: &'a Cell<u64>,
) -> Numbered<'a> {
    let mut ids: HashMap<&'t str, u32> = HashMap::new();
    let mut number = |lines: &[&'t str]| -> Vec<Line<'a>> {
        (lines.iter())
            .map(|line| {
                steps.set(steps.get() + 1);
                let next = ids.len() as u32;
                Line {
                    id: *ids.entry(line).or_insert(next),
                    steps,
                }
            })
            .collect()
    };
    let old = number(old_lines);
    let new = number(new_lines);
    Numbered { old, new }
}

/// Bound on the work of Myers' diff of a whole file, in lines times lines changed: below it,
/// the diff is the minimal one `similar::TextDiff` finds (what `--diff` always printed, and
/// which breaks ties between repeated lines its own way); above it, the anchored one.
const WHOLE_TEXT_WORK: usize = 1 << 20;

/// The edit from `old_lines` to `new_lines` as `similar`'s operations: equal runs, and
/// deletions and insertions between them joined into one replacement.
fn line_ops(old_lines: &[&str], new_lines: &[&str], steps: &Cell<u64>) -> Vec<DiffOp> {
    let Numbered { old, new } = number_lines(old_lines, new_lines, steps);
    let anchored = anchored_ops(&old, &new, steps);
    // Myers' work grows with the lines times the size of the smallest edit, which is at most
    // the anchored one's.
    let changed: usize = (anchored.iter())
        .map(|op| match *op {
            DiffOp::Equal { .. } => 0,
            _ => op.old_range().len() + op.new_range().len(),
        })
        .sum();
    if (old.len() + new.len()).saturating_mul(changed) <= WHOLE_TEXT_WORK {
        let mut hook = edit_hook(&old, &new);
        let _ = myers::diff(&mut hook, &old, 0..old.len(), &new, 0..new.len());
        return hook.into_inner().into_inner().into_ops();
    }
    anchored
}

/// The edit found in linear work: common ends kept, lines once in each text matched as
/// anchors, Myers only between anchors where the two sides share a line.
fn anchored_ops(old: &[Line], new: &[Line], steps: &Cell<u64>) -> Vec<DiffOp> {
    let mut hook = edit_hook(old, new);
    let prefix = (old.iter().zip(new)).take_while(|(a, b)| a == b).count();
    let suffix = (old[prefix..].iter().rev())
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (old_end, new_end) = (old.len() - suffix, new.len() - suffix);
    // `Replace` and `Capture` report no error.
    if prefix > 0 {
        let _ = hook.equal(0, 0, prefix);
    }
    let mut old_at = prefix;
    let mut new_at = prefix;
    for (old_anchor, new_anchor) in anchors(old, prefix..old_end, new, prefix..new_end, steps) {
        diff_between(
            &mut hook,
            Stretch {
                old,
                old_range: old_at..old_anchor,
                new,
                new_range: new_at..new_anchor,
            },
        );
        let _ = hook.equal(old_anchor, new_anchor, 1);
        (old_at, new_at) = (old_anchor + 1, new_anchor + 1);
    }
    diff_between(
        &mut hook,
        Stretch {
            old,
            old_range: old_at..old_end,
            new,
            new_range: new_at..new_end,
        },
    );
    if suffix > 0 {
        let _ = hook.equal(old_end, new_end, suffix);
    }
    let _ = hook.finish();
    hook.into_inner().into_inner().into_ops()
}

/// What `similar::TextDiff` collects a diff with: changes slid along runs of equal lines to
/// stand together (`Compact`), then deletions and insertions next to each other joined into a
/// replacement (`Replace`).
type EditHook<'s, 'a> = Compact<'s, 's, [Line<'a>], [Line<'a>], Replace<Capture>>;

fn edit_hook<'s, 'a>(old: &'s [Line<'a>], new: &'s [Line<'a>]) -> EditHook<'s, 'a> {
    Compact::new(Replace::new(Capture::new()), old, new)
}

/// The lines of each text that occur once in its range and once in the other's, matched in the
/// longest sequence that keeps both texts' order: (old index, new index) pairs, rising.
fn anchors(
    old: &[Line],
    old_range: Range<usize>,
    new: &[Line],
    new_range: Range<usize>,
    steps: &Cell<u64>,
) -> Vec<(usize, usize)> {
    // Per line: occurrences in old, in new, and the index of the last of each.
    let mut seen: HashMap<u32, (u32, u32, usize, usize)> = HashMap::new();
    for at in old_range.clone() {
        steps.set(steps.get() + 1);
        let entry = seen.entry(old[at].id).or_default();
        entry.0 += 1;
        entry.2 = at;
    }
    for at in new_range.clone() {
        steps.set(steps.get() + 1);
        let entry = seen.entry(new[at].id).or_default();
        entry.1 += 1;
        entry.3 = at;
    }
    let pairs: Vec<(usize, usize)> = (old_range.clone())
        .filter_map(|at| match seen[&old[at].id] {
            (1, 1, _, new_at) => Some((at, new_at)),
            _ => None,
        })
        .collect();
    longest_rising(&pairs, steps)
}

/// The longest subsequence of `pairs` (rising in their first index) whose second index rises
/// too, by patience sorting: O(n log n).
fn longest_rising(pairs: &[(usize, usize)], steps: &Cell<u64>) -> Vec<(usize, usize)> {
    // tails[k]: the index in `pairs` of the smallest second index ending a rising run of k + 1.
    let mut tails: Vec<usize> = Vec::new();
    let mut previous: Vec<Option<usize>> = Vec::with_capacity(pairs.len());
    for (index, &(_, new_at)) in pairs.iter().enumerate() {
        steps.set(steps.get() + 1);
        let length = tails.partition_point(|&tail| pairs[tail].1 < new_at);
        previous.push(length.checked_sub(1).map(|before| tails[before]));
        if length == tails.len() {
            tails.push(index);
        } else {
            tails[length] = index;
        }
    }
    let mut run = Vec::with_capacity(tails.len());
    let mut at = tails.last().copied();
    while let Some(index) = at {
        run.push(pairs[index]);
        at = previous[index];
    }
    run.reverse();
    run
}

/// A stretch of each text between two kept lines.
struct Stretch<'s, 'a> {
    old: &'s [Line<'a>],
    old_range: Range<usize>,
    new: &'s [Line<'a>],
    new_range: Range<usize>,
}

/// The edit of one stretch: a replacement when its two sides have no line in common, else
/// Myers' diff of it.
fn diff_between<D: DiffHook>(hook: &mut D, stretch: Stretch) {
    let Stretch {
        old,
        old_range,
        new,
        new_range,
    } = stretch;
    if old_range.is_empty() && new_range.is_empty() {
        return;
    }
    let old_ids: HashSet<u32> = old[old_range.clone()].iter().map(|line| line.id).collect();
    let shared = new[new_range.clone()].iter().any(|line| {
        line.steps.set(line.steps.get() + 1);
        old_ids.contains(&line.id)
    });
    if shared {
        // Myers reports the end of its diff to the hook; the stretches after this one go on.
        let _ = myers::diff(
            &mut NoFinishHook::new(&mut *hook),
            old,
            old_range,
            new,
            new_range,
        );
        return;
    }
    if !old_range.is_empty() {
        let _ = hook.delete(old_range.start, old_range.len(), new_range.start);
    }
    if !new_range.is_empty() {
        let _ = hook.insert(old_range.end, new_range.start, new_range.len());
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use similar::DiffableStr;

    use super::{anchored_ops, number_lines, unified_diff};

    /// What `--diff` printed before this module: `similar`'s Myers diff of the whole text.
    fn whole_text_myers(old: &str, new: &str) -> String {
        similar::TextDiff::from_lines(old, new)
            .unified_diff()
            .context_radius(3)
            .header("a/f", "b/f")
            .to_string()
    }

    fn same_as_whole_text_myers(old: &str, new: &str) {
        assert_eq!(
            unified_diff(old, new, "a/f", "b/f").text,
            whole_text_myers(old, new),
            "old: {old:?}\nnew: {new:?}"
        );
    }

    /// A xorshift generator: the same cases on every run.
    fn random(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |bound: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % bound as u64) as usize
        }
    }

    /// Lines of `old` and edits like a fix's at random places: lines removed, changed and
    /// inserted, some of them (`pool`) repeated lines.
    fn edited(old: &[String], pool: &[&str], next: &mut impl FnMut(usize) -> usize) -> Vec<String> {
        let mut new = old.to_vec();
        for edit in 0..next(6) {
            let at = next(new.len() + 1);
            match next(4) {
                0 if at < new.len() => {
                    new.remove(at);
                }
                1 if !pool.is_empty() => new.insert(at, pool[next(pool.len())].to_string()),
                2 if at < new.len() => new[at] = format!("edited {edit} {at}\n"),
                _ => new.insert(at, format!("new {edit} {at}\n")),
            }
        }
        new
    }

    #[test]
    fn prints_what_a_diff_of_the_whole_text_prints() {
        same_as_whole_text_myers("a\nb\nc\n", "a\nb\nc\n");
        same_as_whole_text_myers("", "a\n");
        same_as_whole_text_myers("a\n", "");
        same_as_whole_text_myers("a\nb", "a\nc");
        same_as_whole_text_myers("a\r\nb\rc\n", "a\r\nB\rc\n");
        same_as_whole_text_myers("x\n", "x");
        let lines = |n: usize| (0..n).map(|i| format!("line {i}\n")).collect::<String>();
        // Changes far apart make hunks of their own; near ones share one.
        let old = lines(40);
        for changed in [&[3usize, 30][..], &[5, 9], &[0, 39], &[10, 16], &[10, 17]] {
            let mut new = old.clone();
            for &line in changed {
                new = new.replace(&format!("line {line}\n"), &format!("LINE {line}\n"));
            }
            same_as_whole_text_myers(&old, &new);
        }
    }

    #[test]
    fn random_edits_print_what_a_diff_of_the_whole_text_prints() {
        let pool = ["}\n", "\n", "  a = 1\n", "# c\n", "{\n", "x"];
        let mut next = random(0x2545_f491_4f6c_dd1d);
        for case in 0..2000 {
            let mut old: Vec<String> = (0..next(30))
                .map(|i| match next(3) {
                    0 => pool[next(pool.len())].to_string(),
                    _ => format!("line {i}\n"),
                })
                .collect();
            let new = edited(&old, &pool, &mut next);
            if case % 2 == 0 {
                old.push("last".to_string());
            }
            same_as_whole_text_myers(&old.concat(), &new.concat());
        }
    }

    /// The anchored edit keeps every old line or deletes it and every new line or inserts it,
    /// in order; where no line repeats it is the one edit Myers finds too.
    #[test]
    fn the_anchored_edit_turns_the_old_text_into_the_new() {
        let pool = ["}\n", "\n", "  a = 1\n", "# c\n"];
        let mut next = random(0x9e37_79b9_7f4a_7c15);
        for case in 0..2000 {
            let repeats: &[&str] = if case % 2 == 0 { &pool } else { &[] };
            let old: Vec<String> = (0..next(40))
                .map(|i| match next(3) {
                    0 if !repeats.is_empty() => repeats[next(repeats.len())].to_string(),
                    _ => format!("line {i}\n"),
                })
                .collect();
            let new = edited(&old, repeats, &mut next);
            let (old, new) = (old.concat(), new.concat());
            let (old_lines, new_lines) = (old.tokenize_lines(), new.tokenize_lines());
            let steps = Cell::new(0);
            let numbered = number_lines(&old_lines, &new_lines, &steps);
            let ops = anchored_ops(&numbered.old, &numbered.new, &steps);
            let (mut kept_old, mut kept_new) = (String::new(), String::new());
            for op in &ops {
                for change in op.iter_changes(&old_lines, &new_lines) {
                    match change.tag() {
                        similar::ChangeTag::Equal => {
                            kept_old.push_str(change.value());
                            kept_new.push_str(change.value());
                        }
                        similar::ChangeTag::Delete => kept_old.push_str(change.value()),
                        similar::ChangeTag::Insert => kept_new.push_str(change.value()),
                    }
                }
            }
            assert_eq!((&kept_old, &kept_new), (&old, &new), "{ops:?}");
            if repeats.is_empty() {
                assert_eq!(
                    ops,
                    similar::TextDiff::from_lines(&old, &new).ops(),
                    "old: {old:?}\nnew: {new:?}"
                );
            }
        }
    }

    /// The shapes of #37 (a fix on every line), large enough for the anchored edit: the same
    /// diff as the whole-text one.
    #[test]
    fn a_fix_on_every_line_prints_what_a_diff_of_the_whole_text_prints() {
        let aligned = |comment: bool| -> String {
            (0..2000)
                .map(|i| match comment {
                    true => format!("  a{i:06} = {i:06} # tflint-merge-ignore: x\n"),
                    false => format!("  a{i:06} = {i:06}\n"),
                })
                .collect()
        };
        same_as_whole_text_myers(
            &format!("locals {{\n{}}}\n", aligned(true)),
            &format!("locals {{\n{}}}\n", aligned(false)),
        );
        let ignored = |ignore: &str| -> String {
            (0..2000)
                .map(|i| format!("{ignore}variable \"v{i}\" {{}}\n"))
                .collect()
        };
        same_as_whole_text_myers(&ignored("# tflint-merge-ignore: x\n"), &ignored(""));
    }
}
