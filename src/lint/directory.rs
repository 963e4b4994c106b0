//! The stages for one module directory: list → read and parse → views → merge → rules →
//! ignores. What a directory's check finds depends on its own files and on the local modules
//! its calls name, so directories run in parallel; the local modules' summaries are found once
//! per run and shared (see `neighbours`).

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::diagnostic::{self, Applicability, Diagnostic, FindingId, JoinedViews, Views};
use crate::input::dir_handle::Anchor;
use crate::input::listing::{Listing, config_files};
use crate::input::overlay::Overlay;
use crate::input::read::{
    DEFAULT_MAX_FILE_BYTES, DirectoryStep, LoadedSource, Read, ReadProblem, Reader, parse_bytes,
    read_config_bytes,
};
use crate::knowledge::View;
use crate::knowledge::features::{Body, Place};
use crate::knowledge::files::ConfigName;
use crate::knowledge::version::Version;
use crate::module::merge::{self, LoadedFile, Module};
use crate::module::references::ObjectUses;

use super::helpers::declared::Declared;
use super::helpers::top_level::{self, TopLevel};
use crate::module::views::{ViewFiles, view_files_in};
use crate::source::{FileId, SourceFiles, display_path};
use crate::types::ParsedTypes;

use super::neighbours::{CheckNow, Neighbours, SharedSummaries};
use super::run::{Target, read_findings, run_rules};
use super::targets::{ConstraintFiles, OPENTOFU_READS_TOFU_FILES, Targets, releases_admitted_by};
use super::{Context, DirectoryContext, MergeContext, Rule, RuleSettings, ignore};

/// How to check a directory.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    pub(crate) views: ViewSelection,
    pub(crate) max_file_bytes: u64,
    pub(crate) settings: Arc<RuleSettings>,
    /// The targeted releases set by the user, per view (constraint strings, already checked).
    pub(crate) target_versions: TargetVersions,
    /// Texts read instead of the files on disk (the language server's unsaved buffers).
    pub(crate) overlay: Overlay,
    /// For `compat`, which judges the version constraints release by release itself: list the
    /// published releases they admit ([`DirectoryResult::admitted`]) and keep the findings an
    /// `Incompatible module` would drop.
    pub(crate) judge_releases: bool,
    /// Whether each safe fix is proved by checking again with it applied (see
    /// [`super::fix_proof`]); off for those checks themselves.
    pub(crate) prove_fixes: bool,
    /// Set when the check's result is no longer wanted (the language server's buffer changed
    /// again): the check then stops at its next stage.
    pub(crate) cancel: Cancel,
}

/// Whether a check is no longer wanted: shared by the check and whoever may call it off.
#[derive(Debug, Clone, Default)]
pub(crate) struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// Calls the check off: it stops at its next stage, with an empty result.
    pub(crate) fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub(crate) fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// `terraform_version:`/`opentofu_version:` (or `--terraform-version`/`--opentofu-version`).
#[derive(Debug, Clone, Default)]
pub(crate) struct TargetVersions {
    pub(crate) terraform: Option<String>,
    pub(crate) opentofu: Option<String>,
}

impl TargetVersions {
    pub(crate) fn get(&self, view: View) -> Option<&str> {
        match view {
            View::Terraform => self.terraform.as_deref(),
            View::OpenTofu => self.opentofu.as_deref(),
        }
    }
}

impl Options {
    pub(crate) fn new(views: ViewSelection, settings: RuleSettings) -> Options {
        Options {
            views,
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            settings: Arc::new(settings),
            target_versions: TargetVersions::default(),
            overlay: Overlay::default(),
            judge_releases: false,
            prove_fixes: true,
            cancel: Cancel::default(),
        }
    }
}

/// Which views to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewSelection {
    Terraform,
    OpenTofu,
    Both,
}

impl ViewSelection {
    /// The views checked, as a finding names them.
    pub(crate) fn checked(self) -> Views {
        self.views()
            .iter()
            .fold(Views::NONE, |all, view| all.union(view.views()))
    }

    pub(crate) fn views(self) -> &'static [View] {
        match self {
            ViewSelection::Terraform => &[View::Terraform],
            ViewSelection::OpenTofu => &[View::OpenTofu],
            ViewSelection::Both => &View::ALL,
        }
    }

    /// Only this view.
    pub(crate) fn only(view: View) -> ViewSelection {
        match view {
            View::Terraform => ViewSelection::Terraform,
            View::OpenTofu => ViewSelection::OpenTofu,
        }
    }
}

/// Everything found in one module directory.
#[derive(Debug)]
pub(crate) struct DirectoryResult {
    pub(crate) files: SourceFiles,
    /// The effective module of each view that could be built completely (no unreadable or
    /// unparsable file among the files that view loads). A view with such a file is merged
    /// from its other files for their load errors, but has no module here and no rule runs on
    /// it.
    pub(crate) modules: Vec<Module>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// Bytes read.
    pub(crate) bytes: u64,
    /// The local module directories the checks read (as `dir` joined with a call's source):
    /// the language server checks this directory again when one of them changes.
    pub(crate) local_modules: Vec<PathBuf>,
    /// With [`Options::judge_releases`]: for each view, the published releases whose version
    /// checks the module passes, oldest first.
    pub(crate) admitted: Vec<(View, Vec<Version>)>,
}

/// One configuration file of the directory, as read and parsed (when a selected view loads it).
struct DirFile {
    name: ConfigName,
    source: LoadedSource,
    /// What went wrong reading and parsing it, as findings.
    findings: Vec<Diagnostic>,
}

/// One view's files, merged.
struct BuiltView<'a> {
    view: View,
    primary: Vec<LoadedFile<'a>>,
    overrides: Vec<LoadedFile<'a>>,
    /// OpenTofu, when a `.tofu` file hides a `.tf` one: the files its releases before `.tofu`
    /// files read (primaries, overrides), for their version constraints.
    before_tofu: Option<(Vec<LoadedFile<'a>>, Vec<LoadedFile<'a>>)>,
    module: Module,
    /// The releases the view targets: derived once, for the merge and for the rules.
    targets: Targets,
}

pub(crate) fn check_directory(dir: &Path, options: &Options) -> DirectoryResult {
    let alone = RunShare {
        summaries: &Arc::default(),
        publish: false,
        check_now: None,
    };
    check_listed_directory(dir, Discovered::default(), options, alone)
}

/// What discovery knows of a module directory: what it listed there and its canonical path.
/// A check finds what discovery does not know itself.
#[derive(Debug, Default)]
pub(crate) struct Discovered<'a> {
    pub(crate) listing: Option<Listing>,
    pub(crate) canonical: Option<&'a Path>,
}

/// What a directory's check shares with the other checks of its run.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RunShare<'a> {
    /// The summaries of the local module files the run's checks have read so far.
    pub(crate) summaries: &'a Arc<SharedSummaries>,
    /// Whether this check adds its own files' summaries, for the checks of the directories
    /// that call it.
    pub(crate) publish: bool,
    /// How the run checks a module directory that this check calls before reading its
    /// summary, when it has not checked it yet.
    pub(crate) check_now: Option<CheckNow<'a>>,
}

/// Checks `dir`, with what discovery knows of it and what it shares with the other checks of
/// its run.
pub(crate) fn check_listed_directory(
    dir: &Path,
    Discovered { listing, canonical }: Discovered,
    options: &Options,
    RunShare {
        summaries,
        publish,
        check_now,
    }: RunShare,
) -> DirectoryResult {
    let mut result = DirectoryResult {
        files: SourceFiles::default(),
        modules: Vec::new(),
        diagnostics: Vec::new(),
        bytes: 0,
        local_modules: Vec::new(),
        admitted: Vec::new(),
    };
    let mut listing = listing.map_or_else(|| config_files(dir), Ok);
    // Dropped once the files are read: it may hold a directory open.
    let anchor = (listing.as_mut().ok()).and_then(|listing| listing.anchor.take());
    let (names, text_override_copies) = match listing {
        Ok(listing) if !listing.not_utf8.is_empty() => {
            let problems: Vec<ReadProblem> = (listing.not_utf8.iter())
                .map(|path| ReadProblem::NameNotUtf8 {
                    path: display_path(path),
                })
                .collect();
            result.diagnostics = read_findings(&problems, &result.files, &options.settings);
            return result;
        }
        Ok(listing) => {
            if publish && let Some(canonical) = canonical {
                summaries.publish_listing(canonical, &listing.names);
            }
            (
                with_overlaid_names(dir, listing.names, &options.overlay),
                // A copy that a fix renamed away is gone.
                (listing.text_override_copies.into_iter())
                    .filter(|name| options.overlay.file(&dir.join(name)) != Some(None))
                    .collect::<Vec<String>>(),
            )
        }
        Err(error) => {
            let problem = ReadProblem::Directory {
                path: display_path(dir),
                step: DirectoryStep::List,
                error: error.to_string(),
            };
            result.diagnostics = read_findings(&[problem], &result.files, &options.settings);
            return result;
        }
    };
    // Read and parsed in name order, the order in which the views load the files and every
    // rule walks them: each file's syntax tree is then allocated after the one walked before
    // it, and a walk reads memory in order rather than jumping across it, which in a directory
    // of many files makes the difference between data the processor fetches ahead and a cache
    // miss at every step. (A directory lists its entries in an order of its own.)
    let mut names = names;
    names.sort_unstable_by(|a, b| a.name.cmp(&b.name));
    // The names' own order is now the order the views take them in.
    let order: Vec<usize> = (0..names.len()).collect();
    let view_files: Vec<(View, ViewFiles)> = options
        .views
        .views()
        .iter()
        .map(|&view| {
            (
                view,
                view_files_in(&names, &order, files_view(view, options)),
            )
        })
        .collect();
    if options.cancel.is_cancelled() {
        return result;
    }
    // OpenTofu before 1.8 reads no `.tofu` file, and so every `.tf` file, for its version
    // constraints: the Terraform view's files, read too when a `.tofu` file hides one.
    let before_tofu = (view_files.iter().any(|(view, _)| *view == View::OpenTofu)
        && names.iter().any(|name| name.extension.is_tofu()))
    .then(|| view_files_in(&names, &order, View::Terraform));
    let mut dir_files = read_files(
        dir,
        anchor,
        names,
        (&view_files, before_tofu.as_ref()),
        options,
        &mut result,
    );
    // Parsing is most of a check: a check called off meanwhile stops here.
    if options.cancel.is_cancelled() {
        return result;
    }
    if publish {
        publish_summaries(dir, canonical, &dir_files, &view_files, summaries);
    }
    let neighbours = Neighbours::new(options.max_file_bytes)
        .with_overlay(options.overlay.clone())
        .with_shared(Arc::clone(summaries))
        .with_check_now(check_now)
        .named_from(dir, canonical);

    // Each file's findings, found once, go in once, with every view that loads the file, where
    // the first of those views is merged: not as a copy per view that is then joined, which for
    // a file full of errors held them all twice over. They are what each view's copy would have
    // been but for their views, which joining would have given alike.
    let mut file_findings: Vec<Vec<Diagnostic>> = (dir_files.iter_mut())
        .map(|file| std::mem::take(&mut file.findings))
        .collect();
    let mut loaded_in = vec![Views::NONE; dir_files.len()];
    for (view, files) in &view_files {
        for index in files.loaded() {
            loaded_in[index] = loaded_in[index].union(view.views());
        }
    }
    // Merge each view; rules run once every view is built, since some compare views.
    let memo = merge::DirectoryMemo::default();
    let mut built: Vec<BuiltView> = Vec::new();
    // Every finding of the directory is appended through `joined`, which joins each to the same
    // finding found before (in another view, or twice in one), so that each is hashed once.
    let mut joined = JoinedViews::new(silencers(&options.settings));
    for (view, files) in &view_files {
        for index in files.loaded() {
            let mut problems = std::mem::take(&mut file_findings[index]);
            for problem in &mut problems {
                problem.views = loaded_in[index];
            }
            joined.append(&mut result.diagnostics, problems);
        }
        // A broken file contributes nothing; the tools still load the others and report their
        // errors, so the view is merged all the same. Rules see only complete views.
        let complete = !files.loaded().any(|i| dir_files[i].source.broken);
        let pick = |list: &[usize]| -> Vec<LoadedFile> {
            list.iter()
                .filter_map(|&i| {
                    let f = &dir_files[i];
                    let file = f.source.parsed.as_ref()?;
                    let extension = f.name.extension;
                    Some(LoadedFile { file, extension })
                })
                .collect()
        };
        let (primary, overrides) = (pick(&files.primary), pick(&files.overrides));
        let before_tofu_files = (before_tofu.as_ref())
            .filter(|_| *view == View::OpenTofu)
            .map(|files| (pick(&files.primary), pick(&files.overrides)));
        let constraint_files = match &before_tofu_files {
            Some((tf_primary, tf_overrides)) => ConstraintFiles {
                primary: &primary,
                overrides: &overrides,
                before_tofu: (tf_primary, tf_overrides),
            },
            None => ConstraintFiles::same(&primary, &overrides),
        };
        // Terraform decodes `state_store` in experimental builds only (only there is it the
        // module's state storage), OpenTofu `lifecycle { enabled }` from 1.11.
        let setting = options.target_versions.get(*view);
        let targets = Targets::derive(*view, constraint_files, setting);
        if options.judge_releases {
            let admitted = super::targets::releases_admitted(*view, constraint_files);
            result.admitted.push((*view, admitted));
        }
        let decodes = merge::Decodes {
            state_store: (targets.refusing(Place::In(Body::Terraform), "state_store")).is_empty(),
            lifecycle_enabled: (targets.refusing(Place::In(Body::Lifecycle), "enabled")).is_empty(),
            import_id_required: targets.refusing(Place::TopLevel, "import").is_empty()
                && targets.refusing(Place::In(Body::Import), "identity").len()
                    == targets.releases.len(),
        };
        let views = (primary.as_slice(), overrides.as_slice());
        let merged = merge::merge(*view, &result.files, views, decodes, &memo);
        let load_errors = MergeContext {
            view: *view,
            dir,
            files: &result.files,
            problems: &merged.problems,
            targets: &targets,
            complete,
            settings: &options.settings,
        };
        let mut load_findings = Vec::new();
        run_rules(Target::Merge(&load_errors), &mut load_findings);
        joined.append(&mut result.diagnostics, load_findings);
        if !complete {
            continue;
        }
        built.push(BuiltView {
            view: *view,
            primary,
            overrides,
            before_tofu: before_tofu_files,
            module: merged.module,
            targets,
        });
    }
    if options.cancel.is_cancelled() {
        return result;
    }
    let listed = Listed {
        view_files: &view_files,
        dir_files: &dir_files,
        text_override_copies: &text_override_copies,
    };
    result.local_modules = run_directory_rules(
        dir,
        (&result.files, &mut result.diagnostics, &mut joined),
        (&built, &memo.types),
        &listed,
        options,
        &neighbours,
    );
    result.modules = built.into_iter().map(|b| b.module).collect();

    if !options.judge_releases {
        drop_silenced_views(&mut result.diagnostics, &options.settings);
    }
    // What `joined` kept apart (a finding that silences its view's others) is joined now that
    // the findings of the views it silences are dropped.
    let diagnostics = std::mem::take(&mut result.diagnostics);
    let mut diagnostics = diagnostic::merge_views(diagnostics, |d| joined.keeps_apart(d));
    unsafe_where_views_differ(&mut diagnostics, dir, &dir_files, &view_files);
    let parsed = dir_files.iter().filter_map(|f| f.source.parsed.as_ref());
    diagnostics = ignore::apply_ignores(diagnostics, parsed, &result.files, &options.settings);
    super::fix_layout::align_fixes(&mut diagnostics, &result.files);
    super::fix_guard::withhold_fixes_editing_strings(&mut diagnostics, &result.files);
    let checked = super::fix_proof::Checked {
        dir,
        files: &result.files,
        modules: &result.modules,
    };
    super::fix_proof::prove_fixes(&mut diagnostics, checked, options);
    name_views(&mut diagnostics, options.views);
    diagnostic::sort(&mut diagnostics);
    result.diagnostics = diagnostics;
    result
}

/// The view whose files `view` loads: `compat` judges OpenTofu releases before `.tofu` files
/// one release line at a time, and those read the `.tf` files as Terraform does (no `.tofu` file,
/// so none hides its `.tf` twin). A lint keeps OpenTofu's files, which its rules judge for every
/// targeted release (`feature_newer_than_target` says which `.tofu` files older ones skip).
fn files_view(view: View, options: &Options) -> View {
    let before_tofu = |setting: &str| {
        releases_admitted_by(View::OpenTofu, setting)
            .is_some_and(|releases| releases.iter().all(|&r| r < OPENTOFU_READS_TOFU_FILES))
    };
    match view {
        View::OpenTofu
            if options.judge_releases
                && options.target_versions.get(view).is_some_and(before_tofu) =>
        {
            View::Terraform
        }
        view => view,
    }
}

/// The rules whose findings may silence their view's other findings (see
/// [`drop_silenced_views`]): their findings keep their own views when views are joined early.
fn silencers(settings: &RuleSettings) -> Vec<FindingId> {
    let rules = settings.registry().rules().iter();
    (rules
        .filter(|r| r.drops_view_findings.is_some())
        .map(|r| r.id()))
    .collect()
}

/// Drops a view's other findings where one of its findings says the tool drops them (OpenTofu's
/// `Incompatible module`: see the rules' `drops_view_findings`).
fn drop_silenced_views(diagnostics: &mut Vec<Diagnostic>, settings: &RuleSettings) {
    let rules = settings.registry().rules().iter().copied();
    let hooks: Vec<&Rule> = rules.filter(|r| r.drops_view_findings.is_some()).collect();
    let silences = |d: &Diagnostic| {
        (hooks.iter()).any(|r| d.rule == r.id() && r.drops_view_findings.is_some_and(|f| f(d)))
    };
    let Some(views) = diagnostics.iter().find(|d| silences(d)).map(|d| d.views) else {
        return;
    };
    // A file's findings are in every view that loads the file at once: they leave the silenced
    // view and stay in the others.
    diagnostics.retain_mut(|d| {
        if silences(d) || d.views == Views::NONE {
            return true;
        }
        d.views = d.views.without(views);
        d.views != Views::NONE
    });
}

/// The listed configuration files as the overlay has them: without the ones it deletes, with
/// the ones the disk does not have yet (a buffer never saved, a file a fix creates), those in
/// name order after the listed ones (the views sort the files by name).
fn with_overlaid_names(
    dir: &Path,
    mut names: Vec<ConfigName>,
    overlay: &Overlay,
) -> Vec<ConfigName> {
    let mut added = Vec::new();
    for (name, exists) in overlay.names_in(dir) {
        if !exists {
            names.retain(|listed| listed.name != name);
        } else if !names.iter().any(|listed| listed.name == name) {
            added.extend(crate::knowledge::files::classify(name));
        }
    }
    added.sort_by(|a: &ConfigName, b| a.name.cmp(&b.name));
    names.extend(added);
    names
}

/// A safe fix keeps every view's module the same only when its finding was found in every
/// checked view that loads a file the fix changes: an override found restating its base in
/// the Terraform view alone may change what the OpenTofu view runs. Such fixes become unsafe.
fn unsafe_where_views_differ(
    diagnostics: &mut [Diagnostic],
    dir: &Path,
    dir_files: &[DirFile],
    view_files: &[(View, ViewFiles)],
) {
    for d in diagnostics.iter_mut().filter(|d| d.views != Views::NONE) {
        let Some(fix) = d.fix.as_mut() else {
            continue;
        };
        let paths = fix.paths();
        let found_in = d.views;
        let differs = (view_files.iter())
            .filter(|(view, _)| found_in.union(view.views()) != found_in)
            .any(|(_, files)| {
                let path = |i: usize| dir.join(&dir_files[i].name.name);
                files.loaded().any(|i| paths.contains(path(i).as_path()))
            });
        if differs {
            fix.applicability = Applicability::Unsafe;
        }
    }
}

/// Gives every finding that names no view (directory rules, which compare the views, and
/// problems found before a view is built) the views checked: it is about all of them.
pub(crate) fn name_views(diagnostics: &mut [Diagnostic], selection: ViewSelection) {
    for d in diagnostics.iter_mut().filter(|d| d.views == Views::NONE) {
        d.views = selection.checked();
    }
}

/// Reads and parses every file that a selected view loads, in the names' order.
fn read_files(
    dir: &Path,
    anchor: Option<Anchor>,
    names: Vec<ConfigName>,
    (view_files, before_tofu): (&[(View, ViewFiles)], Option<&ViewFiles>),
    options: &Options,
    result: &mut DirectoryResult,
) -> Vec<DirFile> {
    // A large directory's files are read and parsed in parallel, so that one directory with
    // big files does not hold a run on one thread; the results keep the names' order.
    // A file's id is its place among the files whose text is recorded (all but the unreadable
    // ones), so the ids are given between reading and parsing.
    let mut loaded = loaded_by_a_view(names.len(), view_files);
    for index in before_tofu.iter().flat_map(|files| files.loaded()) {
        loaded[index] = true;
    }
    // Each file's path, joined once for reading it and for naming it.
    let (paths, bytes): (Vec<PathBuf>, Vec<_>) = (names.par_iter().enumerate())
        .map(|(index, name)| {
            let path = dir.join(&name.name);
            let read = loaded[index].then(|| {
                read_config_bytes(
                    &path,
                    anchor.as_ref(),
                    options.max_file_bytes,
                    &options.overlay,
                )
            });
            (path, read)
        })
        .unzip();
    let mut next_id = result.files.len();
    let ids: Vec<FileId> = (bytes.iter())
        .map(|read| {
            let id = FileId(next_id as u32);
            next_id += usize::from(matches!(read, Some(Ok(_))));
            id
        })
        .collect();
    // One file per job, for a thread with nothing else to do to take any: rayon otherwise
    // leaves a run of them to one thread, which the others, done, cannot take.
    let reads: Vec<Option<Read>> = (bytes.into_par_iter().zip(&names).zip(ids))
        .with_max_len(1)
        .map(|((read, name), id)| {
            read.map(|read| match read {
                Ok(bytes) => parse_bytes(bytes, id, name.extension.syntax()),
                Err(failure) => Read::Unreadable(failure),
            })
        })
        .collect();
    let mut dir_files = Vec::with_capacity(names.len());
    for ((name, read), path) in names.into_iter().zip(reads).zip(paths) {
        let source = match read {
            Some(read) => {
                let source = read.into_file(path, &mut result.files, Reader::Module);
                result.bytes += source.bytes;
                source
            }
            None => LoadedSource::default(),
        };
        let findings = read_findings(&source.problems, &result.files, &options.settings);
        dir_files.push(DirFile {
            name,
            source,
            findings,
        });
    }
    dir_files
}

/// Of the directory's `count` files, those that a selected view loads.
fn loaded_by_a_view(count: usize, view_files: &[(View, ViewFiles)]) -> Vec<bool> {
    let mut loaded = vec![false; count];
    for index in view_files.iter().flat_map(|(_, files)| files.loaded()) {
        loaded[index] = true;
    }
    loaded
}

/// Publishes the summaries of the files the selected views load in `dir` (whose canonical path
/// is `canonical`, if discovery knows it), for the run's directories that call this one: their
/// checks need not parse these files again.
fn publish_summaries(
    dir: &Path,
    canonical: Option<&Path>,
    dir_files: &[DirFile],
    view_files: &[(View, ViewFiles)],
    shared: &SharedSummaries,
) {
    let canonical = match canonical {
        Some(canonical) => Cow::Borrowed(canonical),
        None => match dir.canonicalize() {
            Ok(canonical) => Cow::Owned(canonical),
            Err(_) => return,
        },
    };
    let read = (dir_files
        .iter()
        .zip(loaded_by_a_view(dir_files.len(), view_files)))
    .filter(|(_, loaded)| *loaded)
    .map(|(f, _)| (f.name.name.as_str(), f.source.parsed.as_ref()));
    shared.publish(&canonical, read);
}

/// What the directory holds: each view's files, every file as read, and the `.txt` copies of
/// override files.
struct Listed<'a> {
    view_files: &'a [(View, ViewFiles)],
    dir_files: &'a [DirFile],
    text_override_copies: &'a [String],
}

/// Runs the per-view rules on every built view (with the type constraints their merges
/// parsed), then the directory rules, appending their findings to the directory's through
/// `joined`; returns the local module directories they read.
fn run_directory_rules(
    dir: &Path,
    (files, findings, joined): (&SourceFiles, &mut Vec<Diagnostic>, &mut JoinedViews),
    (built, types): (&[BuiltView], &ParsedTypes),
    listed: &Listed,
    options: &Options,
    neighbours: &Neighbours<'_>,
) -> Vec<PathBuf> {
    let Listed {
        view_files,
        dir_files,
        text_override_copies,
    } = listed;
    // What several rules read of each view's module, found once for all of them.
    let object_uses: Vec<ObjectUses> = (built.iter()).map(|b| ObjectUses::of(&b.module)).collect();
    let declared: Vec<Declared> = built.iter().map(|b| Declared::of(&b.module)).collect();
    let top_level: Vec<Vec<TopLevel>> = (built.iter())
        .map(|b| top_level::list(&b.primary, &b.overrides))
        .collect();
    let contexts: Vec<Context> = (built
        .iter()
        .zip(&object_uses)
        .zip(&declared)
        .zip(&top_level))
    .map(|(((b, object_uses), declared), top_level)| Context {
        view: b.view,
        dir,
        module: &b.module,
        files,
        primary: &b.primary,
        overrides: &b.overrides,
        before_tofu: (b.before_tofu.as_ref()).map_or((&b.primary, &b.overrides), |(p, o)| (p, o)),
        settings: &options.settings,
        neighbours,
        targets: &b.targets,
        overlay: &options.overlay,
        judgements: std::cell::OnceCell::new(),
        calls: std::cell::OnceCell::new(),
        object_uses,
        declared,
        top_level,
        text_override_copies,
        types,
    })
    .collect();
    // What the directory rules and `validate`'s findings depend on is the load errors found so
    // far (the files' and the merges'), looked at before the views' rules add theirs.
    let one_view_errors = one_view_errors(findings);
    let refused_by_load: Vec<bool> = (contexts.iter())
        .map(|ctx| refuses_to_load(findings, ctx.view, &options.settings))
        .collect();
    for (ctx, refused_by_load) in contexts.iter().zip(refused_by_load) {
        let mut in_view = Vec::new();
        run_rules(Target::View(ctx), &mut in_view);
        // `terraform validate` judges only a module its loader accepts
        // (hashicorp/terraform `internal/command/validate.go` returns the loader's errors
        // alone): what validate refuses shows once the load errors are fixed, as there.
        if refused_by_load || refuses_to_load(&in_view, ctx.view, &options.settings) {
            in_view.retain(|d| kind_of(&options.settings, d.rule) != Some(super::Kind::Validate));
        }
        joined.append(findings, in_view);
    }
    if contexts.len() == 2 {
        let shadowed: Vec<(FileId, FileId)> = view_files
            .iter()
            .flat_map(|(_, files)| &files.shadowed)
            .filter_map(|&(hidden, by)| {
                let id = |i: usize| dir_files[i].source.parsed.as_ref().map(|f| f.id);
                Some((id(hidden)?, id(by)?))
            })
            .collect();
        // The views' findings were appended after these.
        let one_view_errors: Vec<&Diagnostic> =
            one_view_errors.iter().map(|&i| &findings[i]).collect();
        let directory = DirectoryContext {
            dir,
            files,
            views: &contexts,
            shadowed: &shadowed,
            one_view_errors: &one_view_errors,
            settings: &options.settings,
        };
        let mut found = Vec::new();
        run_rules(Target::Directory(&directory), &mut found);
        joined.append(findings, found);
    }
    neighbours.directories()
}

/// Whether `view`'s tool refuses to load the module: a load error found in that view (or in
/// every view).
fn refuses_to_load(diagnostics: &[Diagnostic], view: View, settings: &RuleSettings) -> bool {
    let in_view = view.views();
    diagnostics.iter().any(|d| {
        let views = d.views;
        let here = views == Views::NONE
            || (in_view.terraform && views.terraform)
            || (in_view.opentofu && views.opentofu);
        here && d.severity == diagnostic::Severity::Error
            && kind_of(settings, d.rule) == Some(super::Kind::LoadError)
    })
}

fn kind_of(settings: &RuleSettings, id: FindingId) -> Option<super::Kind> {
    settings.registry().find(id.as_str()).map(|meta| meta.kind)
}

/// Where in `diagnostics` the load errors found in one view only are. The same error can be
/// worded differently by the two tools, so errors are matched by id and place, not by message.
fn one_view_errors<'d>(diagnostics: &'d [Diagnostic]) -> Vec<usize> {
    type Place<'d> = (FindingId, Option<(&'d str, std::ops::Range<usize>)>);
    let place = |d: &'d Diagnostic| -> Place<'d> {
        let at = d
            .primary
            .as_ref()
            .map(|l| (&*l.file.display, l.range.clone()));
        (d.rule, at)
    };
    let one_view = |views: Views| views.terraform != views.opentofu;
    // The places of the findings of one view, with the views of every finding there. Only a
    // place that has one can have its findings in one view only: the others are looked up,
    // not added (a machine-written file can give a hundred thousand findings, in every view
    // that loads it at once). foldhash, not the default SipHash, for the same reason.
    let mut seen: foldhash::HashMap<Place, Views> = foldhash::HashMap::default();
    for d in diagnostics.iter().filter(|d| one_view(d.views)) {
        let views = seen.entry(place(d)).or_default();
        *views = views.union(d.views);
    }
    if seen.is_empty() {
        return Vec::new();
    }
    for d in diagnostics.iter().filter(|d| !one_view(d.views)) {
        if let Some(views) = seen.get_mut(&place(d)) {
            *views = views.union(d.views);
        }
    }
    let mut out = Vec::new();
    let mut reported: foldhash::HashSet<Place> = foldhash::HashSet::default();
    for (index, d) in diagnostics.iter().enumerate() {
        let at = place(d);
        if seen.get(&at).is_some_and(|&views| one_view(views)) && reported.insert(at) {
            out.push(index);
        }
    }
    out
}
