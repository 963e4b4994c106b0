//! Plain-data diagnostics: what every stage reports and every output format renders.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use crate::source::{SourceFile, SourceFiles, Span};

pub mod bound;
pub(crate) mod escape;
pub mod fix;
mod id;
pub use bound::{SHOWN_PER_RULE_AND_FILE, Tally, bound};
pub use fix::{Applicability, Fix};
#[doc(hidden)]
pub use id::Documented as FindingIdDoc;
pub use id::FindingId;
pub(crate) use id::finding_id;
#[cfg(test)]
pub(crate) use id::{OTHER_TEST_ID, TEST_ID};

/// The project's home page.
pub const PROJECT_URL: &str = "https://github.com/tflint-merge/tflint-merge";

/// Where rule documentation lives; every diagnostic links to `<base>/<rule_id>.md`.
pub const RULES_DOC_BASE: &str = "https://github.com/tflint-merge/tflint-merge/blob/main/rules";

/// How serious a finding is. Ordered: `Notice < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Notice,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Notice => "notice",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which tool views a finding was found in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Views {
    pub terraform: bool,
    pub opentofu: bool,
}

impl Views {
    pub const NONE: Views = Views {
        terraform: false,
        opentofu: false,
    };
    pub const TERRAFORM: Views = Views {
        terraform: true,
        opentofu: false,
    };
    pub const OPENTOFU: Views = Views {
        terraform: false,
        opentofu: true,
    };
    pub const BOTH: Views = Views {
        terraform: true,
        opentofu: true,
    };

    pub fn union(self, other: Views) -> Views {
        Views {
            terraform: self.terraform || other.terraform,
            opentofu: self.opentofu || other.opentofu,
        }
    }

    /// These views but `other`'s.
    pub fn without(self, other: Views) -> Views {
        Views {
            terraform: self.terraform && !other.terraform,
            opentofu: self.opentofu && !other.opentofu,
        }
    }

    /// A short description for messages, or `None` when the finding is not view-specific.
    pub fn describe(self) -> Option<&'static str> {
        match (self.terraform, self.opentofu) {
            (true, true) => Some("Terraform and OpenTofu"),
            (true, false) => Some("Terraform only"),
            (false, true) => Some("OpenTofu only"),
            (false, false) => None,
        }
    }
}

/// A place in a file, with what it has to do with the finding.
#[derive(Debug, Clone)]
pub struct Label {
    pub file: Arc<SourceFile>,
    pub range: Range<usize>,
    pub message: Cow<'static, str>,
}

impl Label {
    pub fn new(files: &SourceFiles, span: Span, message: impl Into<Cow<'static, str>>) -> Label {
        Label {
            file: Arc::clone(files.get(span.file)),
            range: span.range(),
            message: message.into(),
        }
    }

    /// 1-based (line, column) of the start.
    pub fn start(&self) -> (usize, usize) {
        self.file.line_col(self.range.start)
    }

    /// 1-based (line, column) of the end (exclusive).
    pub fn end(&self) -> (usize, usize) {
        self.file.line_col(self.range.end)
    }
}

/// One finding: a load error, a rule violation, or an I/O problem.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    /// Stable snake_case id (`duplicate_definition`, `syntax_error`, ...).
    pub rule: FindingId,
    pub severity: Severity,
    /// One line. For load errors this is the summary Terraform/OpenTofu print.
    pub message: Cow<'static, str>,
    /// The path the finding is about (file or directory), shown as given. Shared with the
    /// file's [`SourceFile::display`] for a finding in a file: not a copy per finding.
    pub path: Arc<str>,
    /// Where exactly, when the finding is about source text.
    pub primary: Option<Label>,
    /// Related places: the first definition, the base block an override touches...
    pub secondary: Vec<Label>,
    /// Why it matters and other detail.
    pub notes: Vec<Cow<'static, str>>,
    /// How to fix it.
    pub help: Option<Cow<'static, str>>,
    pub views: Views,
    /// What would fix it, when the rule knows: `--fix` and `--unsafe-fixes` apply it. Boxed:
    /// most findings have none, and a run can hold very many findings.
    pub fix: Option<Box<Fix>>,
    /// For the finding that stands for those of its rule and file not shown
    /// ([`bound::bound`]): how many they are.
    pub omitted: Option<Box<Tally>>,
}

impl Diagnostic {
    pub fn new(
        rule: FindingId,
        severity: Severity,
        message: impl Into<Cow<'static, str>>,
    ) -> Diagnostic {
        Diagnostic {
            rule,
            severity,
            message: message.into(),
            path: Arc::from(""),
            primary: None,
            secondary: Vec::new(),
            notes: Vec::new(),
            help: None,
            views: Views::NONE,
            fix: None,
            omitted: None,
        }
    }

    pub fn error(rule: FindingId, message: impl Into<Cow<'static, str>>) -> Diagnostic {
        Diagnostic::new(rule, Severity::Error, message)
    }

    /// Sets the primary location (and the path, from its file).
    pub fn at(
        mut self,
        files: &SourceFiles,
        span: Span,
        message: impl Into<Cow<'static, str>>,
    ) -> Self {
        let label = Label::new(files, span, message);
        self.path = label.file.display.clone();
        self.primary = Some(label);
        self
    }

    /// Sets the path for a finding that has no source location.
    pub fn at_path(mut self, path: impl Into<Arc<str>>) -> Self {
        self.path = path.into();
        self
    }

    pub fn with_label(
        mut self,
        files: &SourceFiles,
        span: Span,
        message: impl Into<Cow<'static, str>>,
    ) -> Self {
        push_fitted(&mut self.secondary, Label::new(files, span, message));
        self
    }

    pub fn with_note(mut self, note: impl Into<Cow<'static, str>>) -> Self {
        push_fitted(&mut self.notes, note.into());
        self
    }

    pub fn with_help(mut self, help: impl Into<Cow<'static, str>>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Sets the fix (a `Fix`, or an `Option<Fix>` for a finding that has one only sometimes).
    pub fn with_fix(mut self, fix: impl Into<Option<Fix>>) -> Self {
        self.fix = fix.into().map(Box::new);
        self
    }

    /// Whether the fix is applied with the unsafe fixes allowed or not.
    pub fn fixable(&self, unsafe_fixes: bool) -> bool {
        self.fix
            .as_ref()
            .is_some_and(|fix| unsafe_fixes || fix.applicability == fix::Applicability::Safe)
    }

    /// How many findings it stands for: itself, or those its rule and file did not show.
    pub fn tally(&self) -> Tally {
        match &self.omitted {
            Some(omitted) => **omitted,
            None => Tally::one(self.severity, [self.fixable(false), self.fixable(true)]),
        }
    }

    /// A milder severity than the rule's default, for a milder case of what the rule finds.
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    pub fn in_views(mut self, views: Views) -> Self {
        self.views = views;
        self
    }

    /// Link to the rule's documentation.
    pub fn doc_link(&self) -> String {
        format!("{}/{}.md", RULES_DOC_BASE, self.rule)
    }

    /// 1-based (line, column) of the primary location, (0, 0) when there is none.
    pub fn start(&self) -> (usize, usize) {
        self.primary.as_ref().map_or((0, 0), Label::start)
    }

    /// The message, then each note after `note_separator` and the help after
    /// `help_separator`: for the formats that give a finding one text.
    pub fn message_with_notes(&self, note_separator: &str, help_separator: &str) -> String {
        let mut message = self.message.to_string();
        for note in &self.notes {
            message.push_str(note_separator);
            message.push_str(note);
        }
        if let Some(help) = &self.help {
            message.push_str(help_separator);
            message.push_str(help);
        }
        message
    }
}

/// A finding compared by what makes it the same finding in several views: its rule, severity,
/// message, path, notes and labels (each by file, place and message), not its views or fix.
/// Borrowed, so that telling apart many findings copies none of their text.
struct Identity<'a>(&'a Diagnostic);

impl Identity<'_> {
    /// The primary label, then the others: each as its file, place and message.
    fn labels(&self) -> impl Iterator<Item = (&str, &Range<usize>, &str)> {
        let d = self.0;
        (d.primary.iter().chain(&d.secondary)).map(|l| (&*l.file.display, &l.range, &*l.message))
    }
}

impl PartialEq for Identity<'_> {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.0, other.0);
        a.rule == b.rule
            && a.severity == b.severity
            && a.message == b.message
            && a.path == b.path
            && a.notes == b.notes
            && a.primary.is_some() == b.primary.is_some()
            && a.secondary.len() == b.secondary.len()
            && self.labels().eq(other.labels())
    }
}

impl Eq for Identity<'_> {}

/// Hashes what tells findings apart without reading their texts where it can: the rule, path
/// and place, and the lengths of the rest. Many findings of one file (a hundred thousand
/// duplicate keys) are told apart by their places; reading each one's message and label texts,
/// each in memory of its own, would cost more than hashing them saves. A finding with no place
/// hashes its message too, for the findings of one path are told apart by it.
impl std::hash::Hash for Identity<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let d = self.0;
        (d.rule, d.severity, &d.path, d.message.len(), d.notes.len()).hash(state);
        (d.primary.as_ref().map(|l| &l.range), d.secondary.len()).hash(state);
        if d.primary.is_none() {
            d.message.hash(state);
        }
    }
}

/// Findings appended to one list with the findings the same as earlier ones of the list joined
/// to them, as [`merge_views`] joins them: each view's merge and rules find again what the
/// other views found (a hundred thousand duplicate locals, say), which the list would otherwise
/// hold once per view until the directory's findings are merged. Only findings appended
/// through it are looked for, and not those it is told to keep apart, which `merge_views`
/// joins later.
pub(crate) struct JoinedViews {
    /// Positions in the list of the findings appended through this, each with the hash of its
    /// [`Identity`].
    positions: hashbrown::HashTable<(u64, usize)>,
    hasher: foldhash::fast::RandomState,
    /// The rules whose findings are kept as they are, not joined: a finding that silences its
    /// view's other findings must keep its own views until they are dropped.
    apart: Vec<FindingId>,
}

impl JoinedViews {
    /// Joins the findings of every rule but those of `apart`.
    pub(crate) fn new(apart: Vec<FindingId>) -> JoinedViews {
        JoinedViews {
            positions: hashbrown::HashTable::new(),
            hasher: foldhash::fast::RandomState::default(),
            apart,
        }
    }

    /// Whether `finding` is kept apart, not joined, as it is appended.
    pub(crate) fn keeps_apart(&self, finding: &Diagnostic) -> bool {
        self.apart.contains(&finding.rule)
    }

    /// Appends `more` to `list`: a finding the same as one appended before adds its views to
    /// it and is dropped, unless it is kept apart.
    pub(crate) fn append(&mut self, list: &mut Vec<Diagnostic>, mut more: Vec<Diagnostic>) {
        use std::hash::BuildHasher;
        // The new findings are moved to the front of `more`, in order, and the others dropped:
        // no second list is made (`more` may be a view's hundreds of thousands).
        let mut kept = 0;
        for next in 0..more.len() {
            let finding = &more[next];
            let hash =
                (!self.keeps_apart(finding)).then(|| self.hasher.hash_one(Identity(finding)));
            let at = |i: usize| {
                if i < list.len() {
                    &list[i]
                } else {
                    &more[i - list.len()]
                }
            };
            let same = |&(h, i): &(u64, usize)| {
                Some(h) == hash && Identity(at(i)) == Identity(&more[next])
            };
            match hash.and_then(|hash| self.positions.find(hash, same)) {
                Some(&(_, first)) => {
                    let views = more[next].views;
                    let earlier = match first.checked_sub(list.len()) {
                        Some(in_more) => &mut more[in_more],
                        None => &mut list[first],
                    };
                    earlier.views = earlier.views.union(views);
                }
                None => {
                    if let Some(hash) = hash {
                        let position = list.len() + kept;
                        self.positions
                            .insert_unique(hash, (hash, position), |&(h, _)| h);
                    }
                    more.swap(kept, next);
                    kept += 1;
                }
            }
        }
        more.truncate(kept);
        append_exact(list, more);
    }
}

/// Appends `more` to `findings`, moved whole when `findings` is empty, else growing the list
/// by what it takes: a list grown by pushes doubles when it is full, and a directory's first
/// findings may be a file's hundreds of thousands, with a few more to come (a rule's, another
/// view's).
pub(crate) fn append_exact(findings: &mut Vec<Diagnostic>, mut more: Vec<Diagnostic>) {
    if more.is_empty() {
        return;
    }
    if findings.is_empty() {
        *findings = more;
        return;
    }
    findings.reserve_exact(more.len());
    findings.append(&mut more);
}

/// Replaces the files `diagnostics`' labels point into by excerpts of them: the lines the
/// labels touch ([`SourceFile::excerpt`]), one excerpt per file, so that a report keeps a few
/// lines of each file with a finding instead of the whole file. The files a fix changes stay
/// whole: applying the fix needs their text. What the formats print does not change.
pub fn excerpt_files(diagnostics: &mut [Diagnostic]) {
    use std::collections::{HashMap, HashSet};
    let fixed: HashSet<&std::path::Path> = (diagnostics.iter())
        .filter_map(|d| d.fix.as_deref())
        .flat_map(Fix::paths)
        .collect();
    // Each file (by identity) with the ranges of its labels, in first-seen order.
    let mut ranges: HashMap<*const SourceFile, (&Arc<SourceFile>, Vec<Range<usize>>)> =
        HashMap::new();
    let labels = diagnostics
        .iter()
        .flat_map(|d| d.primary.iter().chain(&d.secondary));
    for label in labels {
        if fixed.contains(label.file.path.as_path()) || label.file.whole_text().is_none() {
            continue;
        }
        (ranges.entry(Arc::as_ptr(&label.file)))
            .or_insert_with(|| (&label.file, Vec::new()))
            .1
            .push(label.range.clone());
    }
    let excerpts: HashMap<*const SourceFile, Arc<SourceFile>> = (ranges.into_iter())
        .map(|(key, (file, ranges))| (key, Arc::new(file.excerpt(ranges))))
        .collect();
    for diagnostic in diagnostics.iter_mut() {
        for label in diagnostic
            .primary
            .iter_mut()
            .chain(&mut diagnostic.secondary)
        {
            if let Some(excerpt) = excerpts.get(&Arc::as_ptr(&label.file)) {
                label.file = Arc::clone(excerpt);
            }
        }
    }
}

/// What a run keeps of a finding until the report: the whole [`Diagnostic`], or what the report
/// needs of it (the command line's human and short formats keep it rendered,
/// `report::Rendered`). Everything that orders, counts or judges findings reads this.
pub(crate) trait Finding {
    /// Sort key: path, position, rule, message. Output order depends on nothing else.
    fn sort_key(&self) -> (&str, usize, &'static str, &str);
    fn rule(&self) -> FindingId;
    fn severity(&self) -> Severity;
    /// How many findings it stands for (see [`bound`]): what counts findings counts these.
    fn tally(&self) -> Tally;
}

impl Finding for Diagnostic {
    fn sort_key(&self) -> (&str, usize, &'static str, &str) {
        let offset = self.primary.as_ref().map_or(0, |l| l.range.start);
        (&self.path, offset, self.rule.as_str(), &self.message)
    }

    fn rule(&self) -> FindingId {
        self.rule
    }

    fn severity(&self) -> Severity {
        self.severity
    }

    fn tally(&self) -> Tally {
        Diagnostic::tally(self)
    }
}

/// Pushes `item`, allocating room for it alone when the list is empty: most findings have
/// one related label or note, and a push into an empty `Vec` makes room for four, which a
/// run holding many findings pays for each (`RawVec`'s `MIN_NON_ZERO_CAP`). Later pushes grow
/// the list as usual, so a long list is not reallocated for every item.
pub(crate) fn push_fitted<T>(list: &mut Vec<T>, item: T) {
    if list.capacity() == 0 {
        list.reserve_exact(1);
    }
    list.push(item);
}

/// Sorts findings into their stable output order.
pub(crate) fn sort<F: Finding>(findings: &mut [F]) {
    // A stable sort allocates a scratch buffer of up to the whole slice before it looks at the
    // order; findings come sorted more often than not (each directory's, then the run's), and
    // then the check alone is enough.
    if findings.is_sorted_by(|a, b| a.sort_key() <= b.sort_key()) {
        return;
    }
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
}

/// The findings of `sources` in the order [`sort`] gives their concatenation, each source
/// (already in that order: [`sort`]ed, or a directory's findings) consumed as the result is
/// built: every finding exists once, never in a source and the result at the same time, and
/// the sort moves indexes, not findings.
pub(crate) fn merge_sorted<F: Finding>(sources: Vec<Vec<F>>) -> Vec<F> {
    debug_assert!(
        sources
            .iter()
            .all(|s| s.is_sorted_by(|a, b| a.sort_key() <= b.sort_key()))
    );
    // One source is already in order: nothing to merge, and no second list to build.
    if sources.iter().filter(|s| !s.is_empty()).count() <= 1 {
        return sources
            .into_iter()
            .find(|s| !s.is_empty())
            .unwrap_or_default();
    }
    // Each finding by (source, index), stably sorted: equal keys keep the concatenation order.
    let mut order: Vec<(usize, usize)> = (sources.iter().enumerate())
        .flat_map(|(s, findings)| (0..findings.len()).map(move |i| (s, i)))
        .collect();
    let key = |&(s, i): &(usize, usize)| sources[s][i].sort_key();
    order.sort_by(|a, b| key(a).cmp(&key(b)));
    // A sorted source's findings come in its own order, so each source is read front to back,
    // and freed once read.
    let mut sources: Vec<std::vec::IntoIter<F>> = sources.into_iter().map(Vec::into_iter).collect();
    let mut merged = Vec::with_capacity(order.len());
    for (s, _) in order {
        let source = &mut sources[s];
        merged.extend(source.next());
        if source.len() == 0 {
            *source = Vec::new().into_iter();
        }
    }
    merged
}

/// Merges the findings `among` picks that are the same in several views into one naming all of
/// them, keeping first-seen order; the findings it does not pick are left as they are. What
/// [`JoinedViews`] appended is joined already and is not hashed again: `among` picks what it
/// kept apart.
// The key's interior mutability is a label's file's lazily built line index (`OnceLock`),
// which `Identity` neither hashes nor compares.
#[allow(clippy::mutable_key_type)]
pub fn merge_views(
    mut diagnostics: Vec<Diagnostic>,
    among: impl Fn(&Diagnostic) -> bool,
) -> Vec<Diagnostic> {
    /// What becomes of each finding.
    #[derive(Clone, Copy)]
    enum Joined {
        /// Not picked: left as it is.
        Untouched,
        /// The first occurrence, with the views of all occurrences.
        First(Views),
        /// A later occurrence, joined to the first.
        Later,
    }
    if !diagnostics.iter().any(&among) {
        return diagnostics;
    }
    let mut joined = vec![Joined::Untouched; diagnostics.len()];
    let mut first = foldhash::HashMap::<Identity, usize>::default();
    for (i, diagnostic) in diagnostics.iter().enumerate() {
        if !among(diagnostic) {
            continue;
        }
        let at = *first.entry(Identity(diagnostic)).or_insert(i);
        if at != i {
            joined[i] = Joined::Later;
        }
        joined[at] = match joined[at] {
            Joined::First(views) => Joined::First(views.union(diagnostic.views)),
            _ => Joined::First(diagnostic.views),
        };
    }
    drop(first);
    // In place: the list may be long, and a second one would be fresh memory.
    let mut joined = joined.into_iter();
    diagnostics.retain_mut(|diagnostic| match joined.next() {
        Some(Joined::First(views)) => {
            diagnostic.views = views;
            true
        }
        Some(Joined::Later) => false,
        Some(Joined::Untouched) | None => true,
    });
    diagnostics
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finding's first label, note and fix edit take room for one, not the four a push into
    /// an empty list makes; more still fit (a run may hold very many findings, most with one
    /// of each).
    #[test]
    fn a_findings_lists_hold_no_spare_room_for_one_item() {
        let mut files = SourceFiles::default();
        let file = files.add(SourceFile::new("main.tf".into(), "a = 1\n".to_string()));
        let span = Span::new(file, 0..1);
        let finding = Diagnostic::error(TEST_ID, "m")
            .with_label(&files, span, "first")
            .with_note("note");
        assert_eq!(finding.secondary.capacity(), 1);
        assert_eq!(finding.notes.capacity(), 1);
        let fix = Fix::new("t", Applicability::Safe).edit("main.tf".as_ref(), 0..1, "b");
        assert_eq!(fix.edits.capacity(), 1);
        let two = finding.with_label(&files, span, "second");
        assert_eq!(two.secondary.len(), 2);
    }

    /// Findings appended view by view keep the first of each, with the views of all of them,
    /// in order, as `merge_views` joins them; one kept apart stays as it is; the list grows by
    /// what is new, not by doubling.
    #[test]
    fn findings_appended_view_by_view_are_joined() {
        let finding = |message: &'static str, views: Views| {
            let mut d = Diagnostic::error(TEST_ID, message).at_path("m/main.tf");
            d.views = views;
            d
        };
        let mut list = vec![finding("from a file", Views::BOTH)];
        list.shrink_to_fit();
        let mut joined = JoinedViews::new(vec![OTHER_TEST_ID]);
        let silences = |views: Views| {
            let mut d = finding("silences", views);
            d.rule = OTHER_TEST_ID;
            d
        };
        let terraform = vec![
            finding("a", Views::TERRAFORM),
            finding("b", Views::TERRAFORM),
        ];
        joined.append(&mut list, terraform);
        let opentofu = vec![
            finding("b", Views::OPENTOFU),
            silences(Views::OPENTOFU),
            finding("a", Views::OPENTOFU),
            finding("c", Views::OPENTOFU),
        ];
        joined.append(&mut list, opentofu);
        let got: Vec<(&str, Views)> = list.iter().map(|d| (&*d.message, d.views)).collect();
        assert_eq!(
            got,
            [
                ("from a file", Views::BOTH),
                ("a", Views::BOTH),
                ("b", Views::BOTH),
                ("silences", Views::OPENTOFU),
                ("c", Views::OPENTOFU),
            ]
        );
        assert_eq!(list.capacity(), list.len());
        // What was kept apart is joined by `merge_views` once the silenced views are dropped;
        // what it does not pick stays as it is, even the same as another finding.
        joined.append(&mut list, vec![silences(Views::TERRAFORM)]);
        list.push(finding("c", Views::TERRAFORM));
        let merged = merge_views(list, |d| joined.keeps_apart(d));
        let got: Vec<(&str, Views)> = merged.iter().map(|d| (&*d.message, d.views)).collect();
        assert_eq!(
            got,
            [
                ("from a file", Views::BOTH),
                ("a", Views::BOTH),
                ("b", Views::BOTH),
                ("silences", Views::BOTH),
                ("c", Views::OPENTOFU),
                ("c", Views::TERRAFORM),
            ]
        );
    }

    /// Findings are told apart by their texts too, though their hash reads only the lengths
    /// of texts where they have a place: two findings at one place whose messages differ (in
    /// the same number of bytes) both stay; the same finding again is joined.
    #[test]
    fn findings_at_one_place_differing_in_text_alone_stay_apart() {
        let mut files = SourceFiles::default();
        let file = files.add(SourceFile::new("main.tf".into(), "a = 1\n".to_string()));
        let span = Span::new(file, 0..1);
        let finding = |message: &'static str, label: &'static str, views: Views| {
            let mut d = Diagnostic::error(TEST_ID, message).at(&files, span, label);
            d.views = views;
            d
        };
        let mut list = Vec::new();
        let mut joined = JoinedViews::new(Vec::new());
        let terraform = vec![
            finding("one", "x", Views::TERRAFORM),
            finding("two", "x", Views::TERRAFORM),
        ];
        joined.append(&mut list, terraform);
        let opentofu = vec![
            finding("two", "x", Views::OPENTOFU),
            finding("two", "y", Views::OPENTOFU),
        ];
        joined.append(&mut list, opentofu);
        let got: Vec<(&str, &str, Views)> = (list.iter())
            .map(|d| (&*d.message, &*d.primary.as_ref().unwrap().message, d.views))
            .collect();
        assert_eq!(
            got,
            [
                ("one", "x", Views::TERRAFORM),
                ("two", "x", Views::BOTH),
                ("two", "y", Views::OPENTOFU),
            ]
        );
    }

    /// Merging sorted sources gives what a stable sort of their concatenation gives: findings
    /// with equal keys (told apart by their note) stay in source order, whatever source and
    /// place they are in.
    #[test]
    fn merge_sorted_is_the_stable_sort_of_the_concatenation() {
        let finding = |path: &str, message: &str, note: usize| {
            Diagnostic::error(TEST_ID, message.to_string())
                .at_path(path)
                .with_note(note.to_string())
        };
        let mut sources: Vec<Vec<Diagnostic>> = vec![
            vec![
                finding("b", "x", 0),
                finding("a", "y", 1),
                finding("b", "x", 2),
            ],
            vec![],
            vec![
                finding("a/c", "x", 3),
                finding("b", "x", 4),
                finding("a", "y", 5),
            ],
            vec![finding("a", "x", 6)],
            vec![finding("b", "w", 7), finding("a", "y", 8)],
        ];
        for source in &mut sources {
            sort(source);
        }
        let mut expected = sources.concat();
        sort(&mut expected);
        let notes = |findings: &[Diagnostic]| -> Vec<String> {
            findings.iter().map(|f| f.notes.concat()).collect()
        };
        assert_eq!(notes(&merge_sorted(sources)), notes(&expected));
        assert_eq!(
            notes(&expected),
            ["6", "1", "5", "8", "3", "7", "0", "2", "4"]
        );
        // The findings of one directory (with empty ones beside it) are returned as they are,
        // not copied into a second list.
        let one = vec![finding("a", "x", 0), finding("b", "x", 1)];
        let given = one.as_ptr();
        let merged = merge_sorted(vec![vec![], one, vec![]]);
        assert_eq!(
            (merged.as_ptr(), notes(&merged)),
            (given, vec!["0".into(), "1".into()])
        );
    }
}
