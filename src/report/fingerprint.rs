//! Fingerprints: the identity of a finding across runs, for GitLab Code Quality (`fingerprint`)
//! and SARIF (`partialFingerprints`). GitLab shows findings that share a fingerprint as one
//! (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format), and GitHub code
//! scanning matches alerts between runs by them, so two findings of one report never share one,
//! and an edit elsewhere in the file (a line inserted above) changes none.

use super::location::file_of;
use super::window;
use crate::diagnostic::Diagnostic;
use crate::source::SourceFile;

/// The fingerprint of each finding of a report, in the report's order. A finding is the rule,
/// the file, the message and the text of its primary location's line (not the line's number,
/// which moves when lines are inserted above). Findings alike in all four are told apart by
/// their occurrence: the first keeps the plain hash, the n-th (in report order, which is the
/// order of their positions in the file) hashes its index too.
pub(crate) fn fingerprints(diagnostics: &[Diagnostic]) -> Vec<String> {
    let mut seen = foldhash::HashMap::<u64, u64>::default();
    diagnostics
        .iter()
        .map(|diagnostic| {
            let identity = identity_hash(diagnostic);
            let occurrence = seen.entry(identity).or_insert(0);
            let hash = if *occurrence == 0 {
                identity
            } else {
                fnv1a(identity, &[&occurrence.to_string()])
            };
            *occurrence += 1;
            format!("{hash:016x}")
        })
        .collect()
}

/// The hash of what identifies a finding apart from its occurrence.
fn identity_hash(diagnostic: &Diagnostic) -> u64 {
    let text = (diagnostic.primary.as_ref()).map_or("", |l| line_text(&l.file, l.range.start));
    fnv1a(
        FNV_OFFSET_BASIS,
        &[
            diagnostic.rule.as_str(),
            &file_of(diagnostic),
            &diagnostic.message,
            text,
        ],
    )
}

/// The text of the line at `offset` that identifies a finding there: the whole line without
/// its surrounding whitespace; on a line longer than [`window::LONG_LINE`] (a minified JSON
/// file), only the [`window::CONTEXT`] bytes on either side of `offset`, so that the
/// fingerprints of many findings on one long line cost what their number does, not their
/// number times the line. An edit elsewhere on a long line then changes none of them, as an
/// edit on another line does not.
fn line_text(file: &SourceFile, offset: usize) -> &str {
    let line = file.line_text(offset);
    let trimmed = line.trim();
    if trimmed.len() <= window::LONG_LINE {
        return trimmed;
    }
    // Where `offset` is in `trimmed`: its column in bytes, less the whitespace trimmed before.
    let local = file.local_offset(offset);
    let line_start = (file.local_line_range(file.line_of_local(local))).map_or(local, |r| r.start);
    let leading = line.len() - line.trim_start().len();
    let at = (local - line_start)
        .saturating_sub(leading)
        .min(trimmed.len());
    let from = window::boundary_at_or_before(trimmed, at.saturating_sub(window::CONTEXT));
    let to = window::boundary_at_or_after(trimmed, (at + window::CONTEXT).min(trimmed.len()));
    &trimmed[from..to]
}

const FNV_OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a over each part and a NUL after it, continuing from `hash`: a hash that does not
/// change between releases or platforms, as a fingerprint must not.
fn fnv1a(mut hash: u64, parts: &[&str]) -> u64 {
    for part in parts {
        for byte in part.bytes().chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::TEST_ID;
    use crate::source::{SourceFiles, Span};

    /// One finding at `at..at + len` of a file `a.tf` holding `text`.
    fn finding(text: &str, at: usize, len: usize) -> Diagnostic {
        let mut files = SourceFiles::default();
        let file = files.add(SourceFile::new("a.tf".into(), text.to_string()));
        Diagnostic::error(TEST_ID, "a message").at(&files, Span::new(file, at..at + len), "here")
    }

    fn fingerprint(diagnostic: Diagnostic) -> String {
        fingerprints(&[diagnostic]).remove(0)
    }

    /// A fingerprint never changes between releases for a line of ordinary length: it is the
    /// hash of the rule, the file, the message and the whole trimmed line, as it always was.
    #[test]
    fn an_ordinary_line_is_hashed_whole() {
        let line = format!("  a = \"{}\"  ", "x".repeat(window::LONG_LINE - 20));
        let text = format!("\n{line}\nb = 2\n");
        let at = text.find('a').expect("a");
        let expected = fnv1a(
            FNV_OFFSET_BASIS,
            &[TEST_ID.as_str(), "a.tf", "a message", line.trim()],
        );
        assert_eq!(
            fingerprint(finding(&text, at, 1)),
            format!("{expected:016x}")
        );
        // FNV-1a of "syntax_error\0a.tf\0a message\0x = 1\0", worked out by hand (Python).
        assert_eq!(
            fingerprint(finding("x = 1\n", 0, 1)),
            "a0109d0eca5eac2c",
            "the fingerprint of a known finding changed"
        );
    }

    /// On a long line (minified JSON) only the text around the finding counts: what is hashed
    /// for each finding is bounded, whatever the line's length, and an edit far from the
    /// finding on the same line changes its fingerprint no more than one on another line.
    #[test]
    fn a_long_line_is_hashed_around_the_finding() {
        let line = |far: &str| format!("{far}{}here{}\n", "é".repeat(2000), "y".repeat(5000));
        let text = line("");
        let at = text.find("here").expect("here");
        let diagnostic = finding(&text, at, 4);
        let label = diagnostic.primary.as_ref().expect("a label");
        let hashed = line_text(&label.file, label.range.start);
        assert!(hashed.len() <= 2 * window::CONTEXT + 1, "{}", hashed.len());
        assert!(hashed.contains("éhere"), "{hashed}");

        let edited = line("x = 1, ");
        let moved = edited.find("here").expect("here");
        assert_eq!(
            fingerprint(finding(&text, at, 4)),
            fingerprint(finding(&edited, moved, 4))
        );
        // An edit next to the finding changes it.
        let near = text.replace("éhere", "ehere");
        let near_at = near.find("here").expect("here");
        assert_ne!(
            fingerprint(finding(&text, at, 4)),
            fingerprint(finding(&near, near_at, 4))
        );
    }
}
