//! `--statistics`: the number of findings of each id, as a table or, with `--format json`, as
//! JSON (ruff prints its statistics as JSON with `--output-format json` too).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::diagnostic::{Finding, Severity};
use crate::report::Format;

/// One id's count.
#[derive(Debug, Serialize)]
struct Row<'a> {
    rule: &'a str,
    severity: &'a str,
    count: usize,
    /// How many of them `--fix` would fix (with `--unsafe-fixes`: the unsafe fixes too).
    fixable: usize,
}

/// What to count and how to print it.
pub(super) struct Statistics {
    pub(super) format: Format,
    pub(super) unsafe_fixes: bool,
}

impl Statistics {
    /// Findings per id, most first (then by id): JSON for `--format json`, else a table.
    pub(super) fn render<F: Finding>(&self, findings: &[F]) -> String {
        let mut counts: BTreeMap<(&str, Severity), (usize, usize)> = BTreeMap::new();
        let severities = [Severity::Notice, Severity::Warning, Severity::Error];
        for finding in findings {
            // A finding that stands for others not shown counts them all, by severity.
            let tally = finding.tally();
            for severity in severities {
                let count = tally.of(severity);
                if count.found == 0 {
                    continue;
                }
                let entry = counts
                    .entry((finding.rule().as_str(), severity))
                    .or_default();
                entry.0 += count.found;
                entry.1 += count.fixable[usize::from(self.unsafe_fixes)];
            }
        }
        let mut rows: Vec<Row> = counts
            .into_iter()
            .map(|((rule, severity), (count, fixable))| Row {
                rule,
                severity: severity.as_str(),
                count,
                fixable,
            })
            .collect();
        rows.sort_by(|a, b| b.count.cmp(&a.count).then(a.rule.cmp(b.rule)));
        if self.format == Format::Json {
            let mut text = serde_json::to_string_pretty(&rows).unwrap_or_default();
            text.push('\n');
            return text;
        }
        let width = rows.iter().map(|row| row.rule.len()).max().unwrap_or(0);
        rows.iter()
            .map(|row| {
                let Row {
                    rule,
                    severity,
                    count,
                    ..
                } = row;
                format!("{count:>5}  {rule:<width$}  {severity}\n")
            })
            .collect()
    }
}
