//! A bound on what is printed of one rule in one file: after [`SHOWN_PER_RULE_AND_FILE`]
//! findings, one finding says how many more there are. A CI log or a SARIF upload is where a
//! user meets the output, and a machine-written file (a minified `.tf.json` with thousands of
//! repeated keys) can hold more findings of one rule than either can take: GitHub code scanning
//! accepts at most 25,000 results per SARIF run
//! (<https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning#validating-your-sarif-file>).
//! The exit status, the summary line and `--statistics` still count every finding: the finding
//! that stands for the others carries their [`Tally`]. `--show-all-findings` lifts the bound.

use super::{Diagnostic, FindingId, Label, Severity, sort};

/// How many findings of one rule are shown in one file. No module written by hand comes near
/// it (in a corpus of real modules, no file has more than a few findings of one rule); a file
/// a program wrote can go far past it.
pub const SHOWN_PER_RULE_AND_FILE: usize = 1_000;

/// How many findings of one severity one finding stands for, and how many of them a fix
/// applies to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Count {
    pub found: usize,
    /// Without and with `--unsafe-fixes`.
    pub fixable: [usize; 2],
}

/// How many findings one finding stands for, by severity (notice, warning, error): one for a
/// finding shown, every finding it tells of for the one that says how many were not shown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally(pub [Count; 3]);

impl Tally {
    /// The tally of one finding of `severity`, fixable (without and with `--unsafe-fixes`)
    /// as `fixable` says.
    pub fn one(severity: Severity, fixable: [bool; 2]) -> Tally {
        let mut tally = Tally::default();
        tally.0[severity as usize] = Count {
            found: 1,
            fixable: fixable.map(usize::from),
        };
        tally
    }

    pub fn add(&mut self, other: &Tally) {
        for (mine, theirs) in self.0.iter_mut().zip(&other.0) {
            mine.found += theirs.found;
            mine.fixable[0] += theirs.fixable[0];
            mine.fixable[1] += theirs.fixable[1];
        }
    }

    /// How many findings of `severity`.
    pub fn of(&self, severity: Severity) -> Count {
        self.0[severity as usize]
    }

    /// How many findings in all.
    pub fn found(&self) -> usize {
        self.0.iter().map(|count| count.found).sum()
    }

    /// How many findings a fix applies to, with `--unsafe-fixes` or not.
    pub fn fixable(&self, unsafe_fixes: bool) -> usize {
        let i = usize::from(unsafe_fixes);
        self.0.iter().map(|count| count.fixable[i]).sum()
    }
}

/// `findings`, in [`sort`] order, with at most `shown` of one rule in one
/// file: the others of that rule and file become one finding, at the place of the first of
/// them, that says how many they are and carries their [`Tally`]. In [`sort`] order.
pub fn bound(mut findings: Vec<Diagnostic>, shown: usize) -> Vec<Diagnostic> {
    // Sorted already, as a run's findings are: the sort (stable) only checks it then.
    sort(&mut findings);
    // Compacted in place: the kept findings move to the front (`kept` of them), the omitted
    // ones behind them, which are dropped at the end. A second list as long as the first,
    // touched once per finding, was the most memory a run of many findings used.
    let mut kept = 0;
    let mut path: Option<std::sync::Arc<str>> = None;
    // Of the current file: per rule, how many are shown and where the finding that stands for
    // the others is among the kept.
    let mut per_rule = foldhash::HashMap::<FindingId, (usize, Option<usize>)>::default();
    let mut omitted_any = false;
    for next in 0..findings.len() {
        let finding = &findings[next];
        if path.as_ref() != Some(&finding.path) {
            per_rule.clear();
            path = Some(finding.path.clone());
        }
        let (count, stands_for) = per_rule.entry(finding.rule).or_default();
        if *count < shown {
            *count += 1;
            findings.swap(kept, next);
            kept += 1;
            continue;
        }
        omitted_any = true;
        match *stands_for {
            Some(at) => {
                // `at` is among the kept, all before `next`.
                let (before, after) = findings.split_at_mut(next);
                omit(&mut before[at], &after[0]);
            }
            None => {
                *stands_for = Some(kept);
                let placeholder = Diagnostic::new(finding.rule, finding.severity, String::new());
                findings.swap(kept, next);
                let first = std::mem::replace(&mut findings[kept], placeholder);
                findings[kept] = first_omitted(first, shown);
                kept += 1;
            }
        }
    }
    findings.truncate(kept);
    let mut bounded = findings;
    if omitted_any {
        for finding in &mut bounded {
            if let Some(tally) = &finding.omitted {
                finding.message = format!(
                    "{} more `{}` findings in this file are not shown",
                    tally.found(),
                    finding.rule
                )
                .into();
            }
        }
        // The finding that stands for the others sits at the first of them, its message now
        // set: among findings at the same place, it goes where its message puts it.
        sort(&mut bounded);
    }
    bounded.shrink_to_fit();
    bounded
}

/// The finding that stands for `finding` and the ones after it: at its place, with its rule,
/// path and views, and nothing of it that a user acts on alone (its fix, its other places).
fn first_omitted(finding: Diagnostic, shown: usize) -> Diagnostic {
    let tally = finding.tally();
    let primary = finding.primary.map(|label| Label {
        message: "the first of them".into(),
        ..label
    });
    let mut stands_for = Diagnostic::new(finding.rule, finding.severity, String::new())
        .at_path(finding.path)
        .in_views(finding.views)
        .with_note(format!(
            "at most {shown} findings of one rule are shown in one file (`--show-all-findings` \
             on the command line shows every one)"
        ));
    stands_for.primary = primary;
    stands_for.omitted = Some(Box::new(tally));
    stands_for
}

/// Counts `finding` in the one that stands for it, `stands_for`.
fn omit(stands_for: &mut Diagnostic, finding: &Diagnostic) {
    stands_for.severity = stands_for.severity.max(finding.severity);
    stands_for.views = stands_for.views.union(finding.views);
    if let Some(tally) = &mut stands_for.omitted {
        tally.add(&finding.tally());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Applicability, Fix, TEST_ID, Views};
    use crate::source::{SourceFile, SourceFiles, Span};

    /// Past the bound, one finding per rule and file stands for the rest: at the place of the
    /// first of them, with the worst severity, and a tally of every one it stands for (by
    /// severity, fixable or not); another rule, or another file, has a bound of its own.
    #[test]
    fn findings_past_the_bound_become_one_that_counts_them() {
        let mut files = SourceFiles::default();
        let a = files.add(SourceFile::new("a.tf".into(), "x".repeat(100)));
        let b = files.add(SourceFile::new("b.tf".into(), "x".repeat(100)));
        let other = crate::diagnostic::OTHER_TEST_ID;
        let finding = |file, at: usize, rule, severity| {
            let fix = Fix::new("edit", Applicability::Unsafe).edit(
                &files.get(file).path,
                at..at + 1,
                "y",
            );
            Diagnostic::new(rule, severity, format!("finding {at}"))
                .at(&files, Span::new(file, at..at + 1), "here")
                .in_views(Views::TERRAFORM)
                .with_fix(at.is_multiple_of(2).then_some(fix))
        };
        let mut findings = Vec::new();
        for at in 0..6 {
            let severity = [Severity::Warning, Severity::Error][usize::from(at == 4)];
            findings.push(finding(a, at, TEST_ID, severity));
            findings.push(finding(b, at, TEST_ID, Severity::Notice));
        }
        findings.push(finding(a, 50, other, Severity::Warning));
        sort(&mut findings);
        let bounded = bound(findings.clone(), 2);
        let shown: Vec<(String, usize, &str, Severity)> = (bounded.iter())
            .map(|d| {
                let offset = d.primary.as_ref().map_or(0, |l| l.range.start);
                (d.message.to_string(), offset, &*d.path, d.severity)
            })
            .collect();
        let more = format!("4 more `{TEST_ID}` findings in this file are not shown");
        assert_eq!(
            shown,
            [
                ("finding 0".into(), 0, "a.tf", Severity::Warning),
                ("finding 1".into(), 1, "a.tf", Severity::Warning),
                (more.clone(), 2, "a.tf", Severity::Error),
                ("finding 50".into(), 50, "a.tf", Severity::Warning),
                ("finding 0".into(), 0, "b.tf", Severity::Notice),
                ("finding 1".into(), 1, "b.tf", Severity::Notice),
                (more, 2, "b.tf", Severity::Notice),
            ]
        );
        let tally = bounded[2].omitted.as_deref().expect("a tally");
        assert_eq!(tally.of(Severity::Warning).found, 3);
        assert_eq!(tally.of(Severity::Error).found, 1);
        assert_eq!((tally.fixable(false), tally.fixable(true)), (0, 2));
        assert!(bounded[2].fix.is_none() && bounded[2].views == Views::TERRAFORM);
        // Every finding is counted once, shown or not.
        let total = |findings: &[Diagnostic]| {
            let mut all = Tally::default();
            findings.iter().for_each(|d| all.add(&d.tally()));
            all
        };
        assert_eq!(total(&bounded), total(&findings));
        // Within the bound, nothing changes.
        let kept = bound(findings.clone(), 6);
        assert_eq!(format!("{kept:?}"), format!("{findings:?}"));
    }

    /// The bound keeps its findings in the list it was given: a run of very many findings is
    /// not held twice while they are copied into a second list.
    #[test]
    fn the_bound_works_in_the_list_it_is_given() {
        let mut files = SourceFiles::default();
        let file = files.add(SourceFile::new("a.tf".into(), "x".repeat(100)));
        let findings = |n: usize| -> Vec<Diagnostic> {
            let mut list = Vec::with_capacity(n);
            list.extend((0..n).map(|at| {
                Diagnostic::error(TEST_ID, "m").at(&files, Span::new(file, at..at + 1), "here")
            }));
            list
        };
        for (n, shown) in [(10, 20), (10, 10), (40, 20)] {
            let list = findings(n);
            let given = list.as_ptr();
            let bounded = bound(list, shown);
            assert_eq!(bounded.len(), n.min(shown + 1));
            // Nothing omitted: the list, exactly as long as it was, is the one given.
            if bounded.len() == n {
                assert_eq!(bounded.as_ptr(), given, "{n} findings, {shown} shown");
            }
        }
    }
}
