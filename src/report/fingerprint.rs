//! Fingerprints: the identity of a finding across runs, for GitLab Code Quality (`fingerprint`)
//! and SARIF (`partialFingerprints`). GitLab shows findings that share a fingerprint as one
//! (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format), and GitHub code
//! scanning matches alerts between runs by them, so two findings of one report never share one,
//! and an edit elsewhere in the file (a line inserted above) changes none.

use super::location::file_of;
use crate::diagnostic::Diagnostic;

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
    let text = diagnostic
        .primary
        .as_ref()
        .map(|l| l.file.line_text(l.range.start).trim().to_string())
        .unwrap_or_default();
    fnv1a(
        FNV_OFFSET_BASIS,
        &[
            diagnostic.rule.as_str(),
            &file_of(diagnostic),
            &diagnostic.message,
            &text,
        ],
    )
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
