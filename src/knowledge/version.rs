//! Version constraints as Terraform and OpenTofu write them (`>= 1.6, < 2.0`, `~> 1.12`), and
//! the sets of versions they admit.
//!
//! Syntax: comma-separated `OP VERSION` where OP is `=`, `!=`, `>`, `>=`, `<`, `<=`, `~>` or
//! nothing (meaning `=`); VERSION has one to three numeric segments, an optional `-prerelease`
//! and an optional `+metadata` (ignored). A pre-release version only matches itself exactly.

use std::cmp::Ordering;
use std::fmt;
use std::ops::Range;

/// A version: up to three numeric segments (missing ones are 0) and an optional pre-release.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Version {
    pub(crate) segments: [u64; 3],
    /// How many segments were written (`~>` depends on it).
    pub(crate) written: usize,
    pub(crate) pre: Option<String>,
}

impl Version {
    pub(crate) fn new(major: u64, minor: u64, patch: u64) -> Version {
        Version {
            segments: [major, minor, patch],
            written: 3,
            pre: None,
        }
    }

    fn parse(text: &str) -> Option<Version> {
        let text = text.split('+').next()?;
        let (numbers, pre) = match text.split_once('-') {
            Some((n, p))
                if !p.is_empty()
                    && p.chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-') =>
            {
                (n, Some(p.to_string()))
            }
            Some(_) => return None,
            None => (text, None),
        };
        let numbers = numbers.strip_prefix('v').unwrap_or(numbers);
        let parts: Vec<&str> = numbers.split('.').collect();
        if parts.is_empty() || parts.len() > 3 {
            return None;
        }
        let mut segments = [0u64; 3];
        for (i, part) in parts.iter().enumerate() {
            if part.is_empty() || !part.chars().all(|c| c.is_ascii_digit()) {
                return None;
            }
            segments[i] = part.parse().ok()?;
        }
        Some(Version {
            segments,
            written: parts.len(),
            pre,
        })
    }

    fn release(&self) -> Version {
        Version {
            pre: None,
            written: 3,
            ..self.clone()
        }
    }

    /// The release right after this one (`1.11.4` → `1.11.5`): no version lies between them,
    /// so `> 1.11.4` is `>= 1.11.5` and `<= 1.11.4` is `< 1.11.5`.
    fn next_patch(&self) -> Version {
        let [major, minor, patch] = self.segments;
        Version::new(major, minor, patch + 1)
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Version) -> Ordering {
        self.segments
            .cmp(&other.segments)
            .then_with(|| match (&self.pre, &other.pre) {
                (None, None) => Ordering::Equal,
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (Some(a), Some(b)) => a.cmp(b),
            })
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Version) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c] = self.segments;
        write!(f, "{a}.{b}.{c}")?;
        if let Some(pre) = &self.pre {
            write!(f, "-{pre}")?;
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Eq,
    Ne,
    Gt,
    Ge,
    Lt,
    Le,
    Pessimistic,
}

/// One `OP VERSION` of a constraint string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Constraint {
    pub(crate) op: Op,
    pub(crate) version: Version,
    /// Byte range of this part in the string.
    pub(crate) range: Range<usize>,
}

/// A part of a constraint string that does not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConstraintError {
    pub(crate) range: Range<usize>,
    pub(crate) message: String,
}

/// Parses `">= 1.6, < 2.0"`.
pub(crate) fn parse(text: &str) -> Result<Vec<Constraint>, ConstraintError> {
    let mut out = Vec::new();
    let mut offset = 0;
    for part in text.split(',') {
        let start = offset + (part.len() - part.trim_start().len());
        let trimmed = part.trim();
        let range = start..start + trimmed.len();
        offset += part.len() + 1;
        if trimmed.is_empty() {
            return Err(ConstraintError {
                range,
                message: "empty version constraint".into(),
            });
        }
        let (op, rest) = [
            ("~>", Op::Pessimistic),
            (">=", Op::Ge),
            ("<=", Op::Le),
            ("!=", Op::Ne),
            (">", Op::Gt),
            ("<", Op::Lt),
            ("=", Op::Eq),
        ]
        .into_iter()
        .find_map(|(sym, op)| trimmed.strip_prefix(sym).map(|rest| (op, rest)))
        .unwrap_or((Op::Eq, trimmed));
        let version_text = rest.trim();
        let version = Version::parse(version_text).ok_or_else(|| ConstraintError {
            range: range.clone(),
            message: format!("`{trimmed}` is not a valid version constraint"),
        })?;
        out.push(Constraint { op, version, range });
    }
    Ok(out)
}

/// `written` with its lower bounds replaced by `>= minimum` (a `~>` keeps its upper bound as a
/// `<`): the narrowest constraint that admits the releases `written` admits from `minimum` on.
/// A constraint that does not parse gives `>= minimum`.
pub(crate) fn with_lower_bound(written: &str, minimum: &Version) -> String {
    let Ok(parts) = parse(written) else {
        return format!(">= {minimum}");
    };
    let mut out = vec![format!(">= {minimum}")];
    for part in parts {
        let text = &written[part.range.clone()];
        match part.op {
            Op::Ge | Op::Gt => {}
            Op::Pessimistic => {
                let [major, minor, _] = part.version.segments;
                let upper = match part.version.written {
                    3 => Version::new(major, minor + 1, 0),
                    _ => Version::new(major + 1, 0, 0),
                };
                out.push(format!("< {upper}"));
            }
            _ => out.push(text.to_string()),
        }
    }
    out.join(", ")
}

/// A set of versions: a union of disjoint, sorted intervals over release versions. (Pre-release
/// versions are left out: constraints only ever admit them by exact match.)
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct VersionSet {
    intervals: Vec<Interval>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Interval {
    /// Inclusive lower bound (`None`: unbounded).
    low: Option<(Version, bool)>,
    /// Upper bound, with whether it is inclusive (`None`: unbounded).
    high: Option<(Version, bool)>,
}

impl VersionSet {
    pub(crate) fn all() -> VersionSet {
        VersionSet {
            intervals: vec![Interval {
                low: None,
                high: None,
            }],
        }
    }

    pub(crate) fn none() -> VersionSet {
        VersionSet {
            intervals: Vec::new(),
        }
    }

    /// The versions every constraint admits.
    pub(crate) fn of(constraints: &[Constraint]) -> VersionSet {
        constraints.iter().fold(VersionSet::all(), |set, c| {
            set.intersect(&VersionSet::single(c))
        })
    }

    /// The versions `>= low, < high`.
    pub(crate) fn between(low: Version, high: Version) -> VersionSet {
        VersionSet {
            intervals: vec![Interval {
                low: Some((low, true)),
                high: Some((high, false)),
            }],
        }
    }

    /// The versions `>= low`.
    pub(crate) fn at_least(low: Version) -> VersionSet {
        VersionSet {
            intervals: vec![Interval {
                low: Some((low, true)),
                high: None,
            }],
        }
    }

    /// Just `version`.
    pub(crate) fn exactly(version: Version) -> VersionSet {
        VersionSet {
            intervals: vec![Interval {
                low: Some((version.clone(), true)),
                high: Some((version, true)),
            }],
        }
    }

    /// Whether the two sets share a version.
    pub(crate) fn overlaps(&self, other: &VersionSet) -> bool {
        !self.intersect(other).is_empty()
    }

    fn single(c: &Constraint) -> VersionSet {
        let v = c.version.release();
        let interval = |low: Option<(Version, bool)>, high: Option<(Version, bool)>| VersionSet {
            intervals: vec![Interval { low, high }],
        };
        if c.version.pre.is_some() {
            // A pre-release only matches itself: as a set of releases, `=` admits nothing and
            // `!=` everything; the ordering operators compare as usual.
            return match c.op {
                Op::Eq | Op::Pessimistic => VersionSet::none(),
                Op::Ne => VersionSet::all(),
                Op::Gt | Op::Ge => interval(Some((v, true)), None),
                Op::Lt | Op::Le => interval(None, Some((v, false))),
            };
        }
        // Bounds are written inclusive below and exclusive above wherever they can be, so that
        // an interval between two adjacent releases (`> 1.11.4, < 1.11.5`) is seen to be empty.
        match c.op {
            Op::Eq => interval(Some((v.clone(), true)), Some((v, true))),
            Op::Ne => VersionSet {
                intervals: vec![
                    Interval {
                        low: None,
                        high: Some((v.clone(), false)),
                    },
                    Interval {
                        low: Some((v.next_patch(), true)),
                        high: None,
                    },
                ],
            },
            Op::Gt => interval(Some((v.next_patch(), true)), None),
            Op::Ge => interval(Some((v, true)), None),
            Op::Lt => interval(None, Some((v, false))),
            Op::Le => interval(None, Some((v.next_patch(), false))),
            Op::Pessimistic => {
                // ~> 1.2 means >= 1.2, < 2.0; ~> 1.2.3 means >= 1.2.3, < 1.3.0; ~> 1 means >= 1, < 2.
                let [major, minor, _] = v.segments;
                let upper = match c.version.written {
                    3 => Version::new(major, minor + 1, 0),
                    _ => Version::new(major + 1, 0, 0),
                };
                interval(Some((v, true)), Some((upper, false)))
            }
        }
    }

    pub(crate) fn intersect(&self, other: &VersionSet) -> VersionSet {
        let mut intervals = Vec::new();
        for a in &self.intervals {
            for b in &other.intervals {
                let low = max_low(&a.low, &b.low);
                let high = min_high(&a.high, &b.high);
                let interval = Interval { low, high };
                if !interval.is_empty() {
                    intervals.push(interval);
                }
            }
        }
        VersionSet { intervals }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.intervals.is_empty()
    }

    /// Whether some admitted version is lower than `v`.
    pub(crate) fn admits_below(&self, v: &Version) -> bool {
        self.intervals.iter().any(|i| match &i.low {
            None => true,
            Some((low, _)) => low < v,
        })
    }
}

fn max_low(a: &Option<(Version, bool)>, b: &Option<(Version, bool)>) -> Option<(Version, bool)> {
    match (a, b) {
        (None, x) | (x, None) => x.clone(),
        (Some((va, ia)), Some((vb, ib))) => Some(match va.cmp(vb) {
            Ordering::Greater => (va.clone(), *ia),
            Ordering::Less => (vb.clone(), *ib),
            Ordering::Equal => (va.clone(), *ia && *ib),
        }),
    }
}

fn min_high(a: &Option<(Version, bool)>, b: &Option<(Version, bool)>) -> Option<(Version, bool)> {
    match (a, b) {
        (None, x) | (x, None) => x.clone(),
        (Some((va, ia)), Some((vb, ib))) => Some(match va.cmp(vb) {
            Ordering::Less => (va.clone(), *ia),
            Ordering::Greater => (vb.clone(), *ib),
            Ordering::Equal => (va.clone(), *ia && *ib),
        }),
    }
}

impl Interval {
    fn is_empty(&self) -> bool {
        match (&self.low, &self.high) {
            (Some((low, low_inclusive)), Some((high, high_inclusive))) => match low.cmp(high) {
                Ordering::Greater => true,
                Ordering::Equal => !(*low_inclusive && *high_inclusive),
                Ordering::Less => false,
            },
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(text: &str) -> VersionSet {
        VersionSet::of(&parse(text).expect("valid"))
    }

    #[test]
    fn parses_every_operator() {
        let parsed =
            parse(">= 1.6, < 2.0,~> 1.12, != 1.7.1, =1.8, 1.9.0-beta1, <= 3").expect("valid");
        let ops: Vec<Op> = parsed.iter().map(|c| c.op).collect();
        assert_eq!(
            ops,
            [
                Op::Ge,
                Op::Lt,
                Op::Pessimistic,
                Op::Ne,
                Op::Eq,
                Op::Eq,
                Op::Le
            ]
        );
        assert_eq!(parsed[5].version.pre.as_deref(), Some("beta1"));
        assert_eq!(parsed[1].range, 8..13);
    }

    #[test]
    fn invalid_parts_are_located() {
        let error = parse(">= 1.6, >= one.two").expect_err("invalid");
        assert_eq!(error.range, 8..18);
        assert!(parse("").is_err());
        assert!(parse(">= 1.6,").is_err());
        assert!(parse(">== 1").is_err());
        assert!(parse("1.2.3.4").is_err());
        assert!(parse("~>").is_err());
    }

    #[test]
    fn sets_and_their_questions() {
        let v112 = Version::new(1, 12, 0);
        assert!(set(">= 1.11").admits_below(&v112));
        assert!(!set(">= 1.12").admits_below(&v112));
        assert!(!set("~> 1.12").admits_below(&v112));
        assert!(set("~> 1.11.0").admits_below(&v112));
        assert!(set(">= 1.9, < 1.8").is_empty());
        assert!(set(">= 1.9").intersect(&set("< 1.9")).is_empty());
        assert!(!set(">= 1.9").intersect(&set("<= 1.9")).is_empty());
        assert!(set("= 1.9, != 1.9").is_empty());
        assert!(!set("~> 1.2").intersect(&set("1.9.3")).is_empty());
        assert!(set("~> 1.2.0").intersect(&set("1.3.0")).is_empty());
        assert_eq!(set(">= 1.0, >= 1.2"), set(">= 1.2"));
        // No release lies between two adjacent patches.
        assert!(set("> 1.11.4, < 1.11.5").is_empty());
        assert!(set("> 1.11.4, <= 1.11.4").is_empty());
        assert!(set("!= 1.11.4, >= 1.11.4, < 1.11.5").is_empty());
        assert!(set(">= 1.12, < 1.12.0").is_empty());
        assert_eq!(set("> 1.11.4"), set(">= 1.11.5"));
    }
}
