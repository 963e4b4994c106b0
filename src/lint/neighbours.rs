//! The local modules a directory's module calls name (`source = "../vpc"`), read once per
//! directory check however many rules and views ask, through the same reader and size limit as
//! the directory itself. The files' summaries are also shared by every directory of a run
//! ([`SharedSummaries`]): examples and tests call the same few modules, and each of their files
//! is then parsed once for all its callers rather than once per caller.
//!
//! A called module is most often a directory of the run too, whose own check parses the same
//! files, and which the run most often checks before its callers (see `input::discover::Walk`
//! and `lint::check`). That check publishes its files' summaries when the run has module
//! directories below it (the examples and tests that call it); and, until [`PUBLISHED_FILES`]
//! are published, when it is a nested module (in a `modules` directory), or once a check of the
//! run has asked for a summary: every file's summary, whether anybody calls it or not, would
//! cost memory for the whole run. A caller that reaches a module of the run whose check has not
//! started has the run check it first ([`CheckNow`]), which publishes its summaries: its files
//! are still parsed once. Only a module outside the run (or whose check another thread has
//! started and not yet published, or deeper than a few such checks stand on one another) is
//! parsed by its caller, which shares the summaries in turn.
//!
//! A module's summary and [`Interface`] per view are found once in a run too, by its canonical
//! path ([`SharedModule`]): a component repository's stacks call the same shared modules
//! hundreds of times, and each call otherwise listed the module's directory and built its
//! summary and interface again.
//!
//! This is part of the engine, not of `input`: a summary is read from the files each tool
//! loads, which `module::views` decides.

use std::cell::{OnceCell, RefCell};
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;
use std::sync::LazyLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::knowledge::View;
use crate::knowledge::features::Place;
use crate::knowledge::files::ConfigName;
use crate::knowledge::module_source::{self, SourceKind};
use crate::knowledge::provider_address::ProviderAddress;
use crate::lint::helpers::provider_reference::provider_reference;
use crate::lint::helpers::schema::dated_constructs;
use crate::module::views::view_files;
use crate::source::{FileId, Syntax};
use crate::syntax::{Body, Expr, ExprKind, File};

use crate::input::listing::config_files;
use crate::input::overlay::Overlay;
use crate::input::read::{Read, read_and_parse};

use super::sharded::ShardedMap;

/// What a local module directory holds, as far as rules need it.
#[derive(Debug)]
pub(crate) struct LocalModule {
    /// The directory exists (following symlinks).
    pub(crate) exists: bool,
    /// Its canonical path, when it exists: which module it is, however a call names it.
    canonical: Option<PathBuf>,
    /// What the run knows of it, when it exists.
    shared: Option<Arc<SharedModule>>,
}

/// The variables a module declares, or `None` when they cannot be known.
type Variables = Option<Arc<[String]>>;

/// A module's [`ViewSummary`] per directory and view, `None` when it cannot be known.
/// Paths are keyed by their bytes (`Path`'s own hash looks at each component), so two
/// spellings of one path are two entries: the same answer found twice.
/// The views are the value's (by [`view_index`]), not part of the key: a look-up needs no key
/// made for it.
type Summaries = foldhash::HashMap<OsString, [OnceCell<Option<Arc<ViewSummary>>>; 2]>;

/// What a called module offers in each view (by [`view_index`]), once found.
type CalledInViews = [OnceCell<Option<Arc<Interface>>>; 2];

/// One file's [`Summary`] by the canonical path of its directory joined with its name (two
/// callers name the same module by different relative paths), `None` when it cannot be read or
/// parsed.
type FileSummaries = foldhash::HashMap<OsString, Option<Arc<Summary>>>;

/// How many files' summaries checks publish for the callers that may come, at most, besides
/// those of the directories that have module directories below them: a bound on what the run
/// holds for callers that may never come.
const PUBLISHED_FILES: usize = 4_096;

/// What a run knows of one module directory that its checks called, found once for all of
/// them: its configuration files, and its summary and interface in each view.
#[derive(Debug, Default)]
struct SharedModule {
    files: OnceLock<Arc<[ConfigName]>>,
    /// Whether each view's tool loads a file of it, by [`view_index`].
    loaded: [OnceLock<bool>; 2],
    /// By [`view_index`].
    views: [OnceLock<Option<Arc<ViewSummary>>>; 2],
}

/// A module's summary in one view, and the interface made from it.
#[derive(Debug)]
struct ViewSummary {
    summary: Summary,
    interface: Arc<Interface>,
}

fn view_index(view: View) -> usize {
    match view {
        View::Terraform => 0,
        View::OpenTofu => 1,
    }
}

/// The file summaries of one run, shared by its directories' checks. Made per run (a run reads
/// one state of the files: the language server's next check may see other texts). The lock is
/// held for a look-up or an insert only, never while a file is read or parsed: two threads
/// may parse the same file at once, and the first summary stored is kept.
#[derive(Debug, Default)]
pub(crate) struct SharedSummaries {
    files: Mutex<FileSummaries>,
    /// Set when a check first asks for a local module's summary: the run calls local modules,
    /// and from then on checks publish their own files' summaries (within [`PUBLISHED_FILES`]).
    wanted: AtomicBool,
    /// Files whose summaries were published.
    published: AtomicUsize,
    /// Files parsed for their summary alone, apart from their own directory's check.
    parsed_apart: AtomicUsize,
    /// The module directories the checks called, by canonical path. What an entry holds is
    /// found once, outside the map's locks (`OnceLock`: a thread that wants it meanwhile waits
    /// for it, and finding it never waits for anything else, so no two threads wait for each
    /// other).
    modules: ShardedMap<Arc<SharedModule>>,
    /// What [`Neighbours::resolve`] found at each path it looked up: the stacks of a component
    /// repository all name the same few directories (`../../modules/vpc`).
    entries: ShardedMap<Option<Entry>>,
}

/// What is at a path, whose directory is a canonical path: whether it is a directory, and, when
/// it is a symlink, the canonical path it leads to.
#[derive(Debug, Clone)]
struct Entry {
    link_to: Option<Arc<Path>>,
    is_dir: bool,
}

impl Entry {
    /// What is at `path` (following a symlink); `None` when nothing is, or it cannot be seen.
    fn at(path: &Path) -> Option<Entry> {
        let kind = std::fs::symlink_metadata(path).ok()?.file_type();
        if kind.is_symlink() {
            let target = path.canonicalize().ok()?;
            let is_dir = target.is_dir();
            return Some(Entry {
                link_to: Some(target.into()),
                is_dir,
            });
        }
        Some(Entry {
            link_to: None,
            is_dir: kind.is_dir(),
        })
    }
}

impl SharedSummaries {
    /// Whether a check of the run has asked for a local module's summary.
    pub(crate) fn wanted(&self) -> bool {
        self.wanted.load(Ordering::Relaxed)
    }

    /// Whether fewer than [`PUBLISHED_FILES`] summaries are published: room for those of a
    /// check that may have callers to come.
    pub(crate) fn has_room(&self) -> bool {
        self.published.load(Ordering::Relaxed) < PUBLISHED_FILES
    }

    /// How many files were parsed for their summary alone, apart from their directory's own
    /// check: each is a second parse when that directory is checked in the run too.
    pub(crate) fn parsed_apart(&self) -> usize {
        self.parsed_apart.load(Ordering::Relaxed)
    }

    /// Publishes the summaries of the files the check of the directory whose canonical path is
    /// `canonical` read, each with its syntax tree,
    /// or `None` when it could not be read or parsed (a module with such a file is not
    /// judged, as when a caller reads it).
    pub(crate) fn publish<'f>(
        &self,
        canonical: &Path,
        files: impl IntoIterator<Item = (&'f str, Option<&'f File>)>,
    ) {
        let summaries: Vec<(OsString, Option<Arc<Summary>>)> = (files.into_iter())
            .map(|(name, file)| (canonical.join(name).into_os_string(), file.map(summarize)))
            .collect();
        (self.published).fetch_add(summaries.len(), Ordering::Relaxed);
        let mut files = self.files.lock().unwrap_or_else(PoisonError::into_inner);
        for (path, summary) in summaries {
            files.entry(path).or_insert(summary);
        }
    }

    /// Publishes the configuration files listed in the module directory whose canonical path is
    /// `canonical` (as [`config_files`] lists them), so that its callers' checks do not list the
    /// directory again.
    pub(crate) fn publish_listing(&self, canonical: &Path, names: &[ConfigName]) {
        // Already listed by a caller's check that came first: that listing stays.
        let _ = self.module(canonical).files.set(names.into());
    }

    fn get(&self, path: &Path) -> Option<Option<Arc<Summary>>> {
        let files = self.files.lock().unwrap_or_else(PoisonError::into_inner);
        files.get(path.as_os_str()).cloned()
    }

    fn insert(&self, path: PathBuf, summary: Option<Arc<Summary>>) -> Option<Arc<Summary>> {
        let mut files = self.files.lock().unwrap_or_else(PoisonError::into_inner);
        files
            .entry(path.into_os_string())
            .or_insert(summary)
            .clone()
    }

    /// The run's entry for the module directory whose canonical path is `canonical`.
    fn module(&self, canonical: &Path) -> Arc<SharedModule> {
        self.modules.get_or_insert_with(canonical, Arc::default)
    }
}

/// Checks the run's module directory whose canonical path it is given now, if the run has it
/// and its check has not started: that check then publishes its files' summaries, and a caller
/// need not parse them apart. Says whether it did.
#[derive(Clone, Copy)]
pub(crate) struct CheckNow<'r>(pub(crate) &'r dyn Fn(&Path) -> bool);

impl std::fmt::Debug for CheckNow<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CheckNow")
    }
}

/// A cache of the local modules one directory's checks look at.
#[derive(Debug)]
pub(crate) struct Neighbours<'r> {
    max_file_bytes: u64,
    overlay: Overlay,
    /// By path, as [`Summaries`] are.
    modules: RefCell<foldhash::HashMap<OsString, Rc<LocalModule>>>,
    summaries: RefCell<Summaries>,
    /// What [`Neighbours::called_interface`] found, by the source as written, in each view
    /// (by [`view_index`]).
    calls: RefCell<foldhash::HashMap<String, CalledInViews>>,
    /// Each file is parsed once in a run, whichever views and directories load it.
    file_summaries: Arc<SharedSummaries>,
    /// The directory being checked, whose calls name the module directories.
    checked: Option<CheckedDir>,
    /// How the run checks a module directory before its callers' checks ask for its summary.
    check_now: Option<CheckNow<'r>>,
}

/// A directory being checked, and its canonical path (found when first needed).
#[derive(Debug)]
struct CheckedDir {
    dir: PathBuf,
    canonical: OnceCell<Option<PathBuf>>,
}

impl<'r> Neighbours<'r> {
    pub(crate) fn new(max_file_bytes: u64) -> Neighbours<'r> {
        Neighbours {
            max_file_bytes,
            overlay: Overlay::default(),
            modules: RefCell::default(),
            summaries: RefCell::default(),
            calls: RefCell::default(),
            file_summaries: Arc::default(),
            checked: None,
            check_now: None,
        }
    }

    /// Has the run check a module directory the checks ask about with `check_now`, when the
    /// run has it and has not checked it yet, so that its summary is the one its check
    /// publishes.
    pub(crate) fn with_check_now(mut self, check_now: Option<CheckNow<'r>>) -> Neighbours<'r> {
        self.check_now = check_now;
        self
    }

    /// The directories the checks look at are named from `dir`, the directory being checked,
    /// whose canonical path is `canonical` if it is known already.
    pub(crate) fn named_from(mut self, dir: &Path, canonical: Option<&Path>) -> Neighbours<'r> {
        self.checked = Some(CheckedDir {
            dir: dir.to_path_buf(),
            canonical: canonical.map_or_else(OnceCell::new, |c| Some(c.to_path_buf()).into()),
        });
        self
    }

    /// Shares the file summaries of `run` with the other directories of the run.
    pub(crate) fn with_shared(mut self, run: Arc<SharedSummaries>) -> Neighbours<'r> {
        self.file_summaries = run;
        self
    }

    /// Reads the files `overlay` holds from it rather than from the disk.
    pub(crate) fn with_overlay(mut self, overlay: Overlay) -> Neighbours<'r> {
        self.overlay = overlay;
        self
    }

    /// Every module directory the checks looked at, in no particular order.
    pub(crate) fn directories(&self) -> Vec<PathBuf> {
        self.modules.borrow().keys().map(PathBuf::from).collect()
    }

    /// The module directory at `dir`.
    pub(crate) fn module(&self, dir: &Path) -> Rc<LocalModule> {
        if let Some(found) = self.modules.borrow().get(dir.as_os_str()) {
            return Rc::clone(found);
        }
        let (exists, canonical) = match self.resolve(dir) {
            Some((canonical, true)) => (true, Some(canonical)),
            _ => (false, None),
        };
        let shared = canonical
            .as_ref()
            .map(|canonical| self.file_summaries.module(canonical));
        let module = Rc::new(LocalModule {
            exists,
            canonical,
            shared,
        });
        self.modules
            .borrow_mut()
            .insert(dir.as_os_str().to_owned(), Rc::clone(&module));
        module
    }

    /// The configuration files of `module`, the module at `dir`; none when it does not exist
    /// or cannot be listed. Listed once in the run, when first wanted: most modules a check
    /// looks at are directories of the run, whose own checks publish the listing discovery
    /// made of them (the directory being checked, whose calls `dated_in_children` follows, is
    /// one; so is a called module that [`CheckNow`] checks before its summary is read).
    fn files(module: &LocalModule, dir: &Path) -> Arc<[ConfigName]> {
        match &module.shared {
            Some(shared) => Arc::clone(
                (shared.files).get_or_init(|| config_files(dir).unwrap_or_default().names.into()),
            ),
            None => Arc::new([]),
        }
    }

    /// `dir`'s canonical path and whether it is a directory (following symlinks); `None` when
    /// it does not exist. A directory a call names lies below the checked one as written (the
    /// source joined to it), and is resolved from the checked one's canonical path with a
    /// look-up per name of the source: `canonicalize` looks up every component of the whole
    /// path, and the working directory, on every call.
    fn resolve(&self, dir: &Path) -> Option<(PathBuf, bool)> {
        let whole = || {
            let canonical = dir.canonicalize().ok()?;
            let is_dir = canonical.is_dir();
            Some((canonical, is_dir))
        };
        let below = self.checked.as_ref().and_then(|checked| {
            let rest = below_dir(dir, &checked.dir)?;
            let canonical = checked
                .canonical
                .get_or_init(|| checked.dir.canonicalize().ok());
            Some((rest, canonical.clone()?))
        });
        let Some((rest, mut path)) = below else {
            return whole();
        };
        let mut is_dir = true;
        for component in rest.components() {
            match component {
                Component::CurDir => {}
                // A canonical path holds no symlink: its parent is its lexical parent.
                Component::ParentDir if is_dir => {
                    path.pop();
                }
                Component::Normal(name) if is_dir => {
                    path.push(name);
                    // Looked up once in the run (not under the map's lock).
                    let entries = &self.file_summaries.entries;
                    let entry = match entries.get(&path) {
                        Some(known) => known,
                        None => {
                            let found = Entry::at(&path);
                            entries.get_or_insert_with(&path, || found)
                        }
                    }?;
                    if let Some(target) = entry.link_to {
                        path = target.to_path_buf();
                    }
                    is_dir = entry.is_dir;
                }
                // Below a file, or not below the checked directory after all.
                _ => return whole(),
            }
        }
        Some((path, is_dir))
    }

    /// Whether `view`'s tool loads at least one file of the module at `dir`.
    pub(crate) fn has_configuration(&self, dir: &Path, view: View) -> bool {
        let module = self.module(dir);
        let loads = || {
            let files = Self::files(&module, dir);
            view_files(&files, view).loaded().next().is_some()
        };
        match &module.shared {
            Some(shared) => *shared.loaded[view_index(view)].get_or_init(loads),
            None => loads(),
        }
    }

    /// The variables the module at `dir` declares in `view`, or `None` when it has no files or
    /// one of them cannot be read or parsed (then nothing should be judged).
    pub(crate) fn variables(&self, dir: &Path, view: View) -> Variables {
        self.summary(dir, view)
            .map(|s| Arc::clone(&s.summary.variables))
    }

    /// Whether `dir` is the directory being checked itself (`source = "./"`): a module that
    /// calls itself, which the tools refuse as a loop before they look at what it passes.
    pub(crate) fn is_checked(&self, dir: &Path) -> bool {
        let Some(checked) = &self.checked else {
            return false;
        };
        let Some(canonical) = (checked.canonical).get_or_init(|| checked.dir.canonicalize().ok())
        else {
            return false;
        };
        // Canonical paths are the same exactly when their bytes are (neither holds `.`, `..` or
        // a doubled separator): compared as bytes, not component by component.
        (self.module(dir).canonical.as_ref())
            .is_some_and(|c| c.as_os_str() == canonical.as_os_str())
    }

    /// What the module at `dir` offers its callers in `view`: its input variables, which of
    /// them are required, and its outputs; `None` when it has no files or one of them cannot be
    /// read or parsed (then nothing should be judged).
    pub(crate) fn interface(&self, dir: &Path, view: View) -> Option<Arc<Interface>> {
        self.summary(dir, view)
            .map(|found| Arc::clone(&found.interface))
    }

    /// What the module that a call of the directory being checked (`dir`) names by `source`
    /// offers in `view`, as [`Neighbours::interface`] finds it; `None` also when it is `dir`
    /// itself ([`Neighbours::is_checked`]). Found once per source and view: the rules that
    /// judge calls each ask about every call, in each view.
    pub(crate) fn called_interface(
        &self,
        dir: &Path,
        source: &str,
        view: View,
    ) -> Option<Arc<Interface>> {
        let index = view_index(view);
        let known = |calls: &foldhash::HashMap<String, CalledInViews>| {
            calls
                .get(source)
                .and_then(|views| views[index].get().cloned())
        };
        if let Some(found) = known(&self.calls.borrow()) {
            return found;
        }
        let called = dir.join(source);
        let found = if self.is_checked(&called) {
            None
        } else {
            self.interface(&called, view)
        };
        let mut calls = self.calls.borrow_mut();
        let views = calls.entry(source.to_string()).or_default();
        views[index].get_or_init(|| found).clone()
    }

    /// The module at `dir`, or one it calls through local sources however deep, that configures
    /// a provider itself in `view`: a "legacy module", which calls with `count`, `for_each`,
    /// `depends_on` or (OpenTofu 1.12 and later) `enabled` may not use, at any depth (both
    /// tools' `validateProviderConfigs`). Each directory is looked at once (calls may loop);
    /// modules with no files or a file that cannot be read or parsed are not judged.
    pub(crate) fn legacy_module(&self, dir: &Path, view: View) -> Option<LegacyModule> {
        // Depth first, in the order calls are written, without recursion (chains of local
        // modules can be long): each step is (directory, the step that called it, the call).
        let mut steps: Vec<(PathBuf, Option<usize>, (String, String))> = Vec::new();
        let mut todo = vec![(dir.to_path_buf(), None, (String::new(), String::new()))];
        let mut seen = Seen::default();
        while let Some((dir, parent, call)) = todo.pop() {
            let module = self.module(&dir);
            if !seen.first_time(&module) {
                continue;
            }
            let Some(found) = self.summary(&dir, view) else {
                continue;
            };
            let summary = &found.summary;
            steps.push((dir, parent, call));
            let here = steps.len() - 1;
            if let Some(provider) = &summary.configured_provider {
                let mut calls = Vec::new();
                let mut at = Some(here);
                while let Some(index) = at.filter(|&i| i > 0) {
                    calls.push(steps[index].2.clone());
                    at = steps[index].1;
                }
                calls.reverse();
                return Some(LegacyModule {
                    calls,
                    provider: provider.clone(),
                });
            }
            for (name, source) in summary.local_calls.iter().rev() {
                let call = (name.clone(), source.clone());
                todo.push((steps[here].0.join(source), Some(here), call));
            }
        }
        None
    }

    /// The dated constructs (see `schema::dated_constructs`) of the local modules `dir` calls,
    /// however deep, in `view`: the tools load the whole tree, so a release that refuses one
    /// of them refuses the caller. Each directory is looked at once (calls may loop); modules
    /// with no files or a file that cannot be read or parsed add nothing. `caller_files` are
    /// the files of `dir` that `view` loads, in order, as its check parsed them: the calls are
    /// read from them rather than from a summary of `dir`, which its check need not publish
    /// and which would otherwise be parsed again for this.
    pub(crate) fn dated_in_children<'f>(
        &self,
        dir: &Path,
        view: View,
        caller_files: impl Iterator<Item = &'f File>,
    ) -> Vec<(Place, Box<str>)> {
        let mut found = Vec::new();
        let mut seen = Seen::default();
        if !seen.first_time(&self.module(dir)) {
            return found;
        }
        let mut todo: Vec<PathBuf> = (caller_files.flat_map(local_module_calls))
            .map(|(_, source)| dir.join(source))
            .collect();
        while let Some(dir) = todo.pop() {
            let module = self.module(&dir);
            if !seen.first_time(&module) {
                continue;
            }
            let Some(module_summary) = self.summary(&dir, view) else {
                continue;
            };
            let summary = &module_summary.summary;
            add_new(&mut found, &summary.dated);
            for (_, source) in &summary.local_calls {
                todo.push(dir.join(source));
            }
        }
        found
    }

    /// What the module at `dir` holds for its callers' checks in `view`: the summaries of the
    /// files `view`'s tool loads, in order, and the interface they make; `None` when there are
    /// none or one cannot be read or parsed (then nothing should be judged). Found once in the
    /// run for each module and view, whichever checks and spellings of its path ask.
    fn summary(&self, dir: &Path, view: View) -> Option<Arc<ViewSummary>> {
        let index = view_index(view);
        let known = (self.summaries.borrow().get(dir.as_os_str()))
            .and_then(|views| views[index].get().cloned());
        if let Some(found) = known {
            return found;
        }
        (self.file_summaries.wanted).store(true, Ordering::Relaxed);
        let module = self.module(dir);
        // Listed, so it exists: without a canonical path (a race with the disk) the module is
        // not judged.
        let found = match (&module.canonical, &module.shared) {
            (Some(canonical), Some(shared)) => {
                let slot = &shared.views[index];
                // Not under `get_or_init`: the check may run other checks of the run on this
                // thread (rayon's work stealing), one of which may want this summary too.
                // Before the module is listed: the check publishes the listing discovery made.
                if slot.get().is_none()
                    && let Some(CheckNow(check_now)) = self.check_now
                {
                    check_now(canonical);
                }
                let found = slot.get_or_init(|| {
                    let names = Self::files(&module, dir);
                    if names.is_empty() {
                        return None;
                    }
                    let files: Option<Vec<Arc<Summary>>> = view_files(&names, view)
                        .loaded()
                        .map(|file| self.file_summary(dir, canonical, &names[file]))
                        .collect();
                    let summary = Summary::concat(&files?);
                    let interface = Arc::new(Interface::new(&summary));
                    Some(Arc::new(ViewSummary { summary, interface }))
                });
                found.clone()
            }
            _ => None,
        };
        let mut summaries = self.summaries.borrow_mut();
        let views = summaries.entry(dir.as_os_str().to_owned()).or_default();
        views[index].get_or_init(|| found).clone()
    }

    /// The summary of the file `name` in `dir` (whose canonical path is `canonical`), from one
    /// parse of it in the run.
    fn file_summary(
        &self,
        dir: &Path,
        canonical: &Path,
        name: &ConfigName,
    ) -> Option<Arc<Summary>> {
        let key = canonical.join(&name.name);
        if let Some(found) = self.file_summaries.get(&key) {
            return found;
        }
        self.file_summaries
            .parsed_apart
            .fetch_add(1, Ordering::Relaxed);
        let syntax: Syntax = name.extension.syntax();
        let max = self.max_file_bytes;
        let path = dir.join(&name.name);
        let found = match read_and_parse(&path, FileId(0), syntax, max, &self.overlay) {
            Read::Parsed { parsed, .. } => parsed.file.ok().map(|file| summarize(&file)),
            _ => None,
        };
        self.file_summaries.insert(key, found)
    }
}

/// What `path` adds to `dir`, as `path.strip_prefix(dir)` finds it: first by the paths' text
/// (`dir` joined with a call's source), which is cheaper than comparing them component by
/// component, as `strip_prefix` does for the paths the text does not settle.
fn below_dir<'p>(path: &'p Path, dir: &Path) -> Option<&'p Path> {
    let by_text = (path.to_str().zip(dir.to_str()))
        .and_then(|(path, dir)| path.strip_prefix(dir))
        .filter(|rest| rest.starts_with(std::path::is_separator))
        .map(|rest| rest.trim_start_matches(std::path::is_separator));
    match by_text {
        Some(rest) => Some(Path::new(rest)),
        None => path.strip_prefix(dir).ok(),
    }
}

/// The module directories a walk through calls has looked at (calls may loop), by their
/// run's entry: the one [`SharedModule`] of a canonical path, which the run keeps to its end,
/// so its address names the module as the canonical path does, without a copy of the path.
#[derive(Default)]
struct Seen(foldhash::HashSet<*const SharedModule>);

impl Seen {
    /// Whether `module` exists and is looked at for the first time.
    fn first_time(&mut self, module: &LocalModule) -> bool {
        // A module has its run's entry exactly when it has a canonical path.
        (module.shared.as_ref()).is_some_and(|shared| self.0.insert(Arc::as_ptr(shared)))
    }
}

/// A module that configures a provider itself, reached from a module call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LegacyModule {
    /// The module calls from the called module down to this one, (name, source as written);
    /// empty when it is the called module itself.
    pub(crate) calls: Vec<(String, String)>,
    /// The provider it configures (the `provider` block's label).
    pub(crate) provider: String,
}

/// What a local module offers its callers: the names a module call may pass and read. Made
/// once per module and view, shared by every call and rule that asks (a module may declare
/// hundreds of variables, and each argument and reference of each call is looked up).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Interface {
    /// Its input variables, in the order its files declare them.
    pub(crate) variables: Arc<[String]>,
    /// The variables no file of the module gives a `default`: a call must set each.
    pub(crate) required: Vec<String>,
    /// Its outputs.
    pub(crate) outputs: Vec<String>,
    /// The aliased provider configurations a call must pass in its `providers` map.
    pub(crate) required_configurations: Vec<RequiredConfiguration>,
    /// The last `required_providers` entry of each local name.
    provider_requirements: Vec<ProviderRequirement>,
    /// Its aliased `provider` blocks, configured or empty: (name, alias).
    aliased_providers: Vec<(String, String)>,
    variable_names: foldhash::HashSet<String>,
    output_names: foldhash::HashSet<String>,
}

impl Interface {
    fn new(summary: &Summary) -> Interface {
        // An override file's `default` counts: a variable is required when no file of the
        // module gives it one (hashicorp/terraform `internal/configs/module_merge.go`,
        // `Variable.merge`, then `transform_module_variable.go`: `v.Default == cty.NilVal`).
        let defaulted: foldhash::HashSet<&str> =
            summary.defaulted.iter().map(String::as_str).collect();
        Interface {
            variables: Arc::clone(&summary.variables),
            required: (summary.variables.iter())
                .filter(|name| !defaulted.contains(name.as_str()))
                .cloned()
                .collect(),
            outputs: summary.outputs.clone(),
            required_configurations: required_configurations(summary),
            provider_requirements: (last_requirements(summary).into_iter().cloned()).collect(),
            aliased_providers: summary.aliased_providers.clone(),
            variable_names: summary.variables.iter().cloned().collect(),
            output_names: summary.outputs.iter().cloned().collect(),
        }
    }

    /// The `source` of the module's `required_providers` entry `name` when that entry does
    /// not accept a configuration `name.alias` from a caller: `alias` is not among its
    /// `configuration_aliases` and no `provider` block of the module has that alias
    /// (hashicorp/terraform `internal/configs/provider_validation.go`,
    /// `validateProviderConfigs`: a passed configuration needs a local name, a configuration
    /// alias or an empty configuration block). `None` when it does, or when the module has no
    /// entry `name` with a `source`.
    pub(crate) fn source_refusing_alias(&self, name: &str, alias: &str) -> Option<&str> {
        let requirement = (self.provider_requirements.iter()).find(|r| r.name == name)?;
        let declared = requirement.aliases.iter().any(|a| a == alias)
            || (self.aliased_providers.iter()).any(|(n, a)| n == name && a == alias);
        (!declared)
            .then_some(requirement.source.as_deref())
            .flatten()
    }

    /// The provider the module's local name `name` stands for: its last `required_providers`
    /// entry's, or `hashicorp/NAME` without one (hashicorp/terraform `internal/configs/
    /// config.go`, `resolveProviderTypes`, then `validateProviderConfigs`'
    /// `addrs.NewDefaultProvider`). `None` when that is not known.
    pub(crate) fn provider_of(&self, name: &str, view: View) -> Option<ProviderAddress> {
        match (self.provider_requirements.iter()).find(|r| r.name == name) {
            Some(requirement) => requirement.address(view),
            None => ProviderAddress::implied(name, view),
        }
    }

    /// The local names of the module's `required_providers` entries, in the order of their
    /// first entries, each with the provider it stands for (`None` when that is not known).
    pub(crate) fn required_local_names(
        &self,
        view: View,
    ) -> impl Iterator<Item = (&str, Option<ProviderAddress>)> {
        (self.provider_requirements.iter()).map(move |r| (r.name.as_str(), r.address(view)))
    }

    /// Whether the module declares an input variable of this name.
    pub(crate) fn has_variable(&self, name: &str) -> bool {
        self.variable_names.contains(name)
    }

    /// Whether the module declares an output of this name.
    pub(crate) fn has_output(&self, name: &str) -> bool {
        self.output_names.contains(name)
    }
}

/// An aliased provider configuration a module expects its callers to pass in: listed in the
/// `configuration_aliases` of a `required_providers` entry, with no `provider` block of the
/// module configuring it (hashicorp/terraform `internal/configs/provider_validation.go`,
/// `validateProviderConfigs`: `configAliases` less `configured`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RequiredConfiguration {
    /// The provider's local name in the module.
    pub(crate) name: String,
    pub(crate) alias: String,
    /// The `source` of its `required_providers` entry, as written.
    pub(crate) source: Option<String>,
}

/// One entry of a `required_providers` block: the local name, its `source` and the aliases of
/// its `configuration_aliases`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ProviderRequirement {
    name: String,
    /// `None` when the entry has no `source` (a version constraint alone, as Terraform 0.12
    /// wrote it, or an object without one): the name then implies `hashicorp/NAME`.
    source: Option<String>,
    /// The entry has a `source` that is not a literal string: which provider it names is not
    /// known.
    source_unread: bool,
    aliases: Vec<String>,
}

impl ProviderRequirement {
    /// The provider the entry names, when that is known.
    fn address(&self, view: View) -> Option<ProviderAddress> {
        match (&self.source, self.source_unread) {
            (_, true) => None,
            (Some(source), false) => ProviderAddress::parse(source, view),
            (None, false) => ProviderAddress::implied(&self.name, view),
        }
    }
}

/// The last `required_providers` entry of each local name: an override file's entry replaces
/// the whole entry of its name (`internal/configs/module.go`, `mergeFile`).
fn last_requirements(summary: &Summary) -> Vec<&ProviderRequirement> {
    let mut last: Vec<&ProviderRequirement> = Vec::new();
    for requirement in &summary.provider_requirements {
        match last.iter_mut().find(|r| r.name == requirement.name) {
            Some(slot) => *slot = requirement,
            None => last.push(requirement),
        }
    }
    last
}

/// The configurations a module's callers must pass: an override file's entry replaces the
/// whole entry of its name (`internal/configs/module.go`, `mergeFile`), so the last entry of
/// each name counts; a `provider` block that configures the alias satisfies it.
fn required_configurations(summary: &Summary) -> Vec<RequiredConfiguration> {
    let last = last_requirements(summary);
    let configured = |name: &str, alias: &str| {
        (summary.configured_aliases.iter()).any(|(n, a)| n == name && a == alias)
    };
    let mut required = Vec::new();
    for requirement in last {
        for alias in &requirement.aliases {
            if !configured(&requirement.name, alias) {
                required.push(RequiredConfiguration {
                    name: requirement.name.clone(),
                    alias: alias.clone(),
                    source: requirement.source.clone(),
                });
            }
        }
    }
    required
}

/// What a local module holds that its callers' checks need.
#[derive(Debug)]
struct Summary {
    variables: Arc<[String]>,
    /// The variables with a `default` argument (in a primary or an override file).
    defaulted: Vec<String>,
    outputs: Vec<String>,
    /// The first provider the module configures itself.
    configured_provider: Option<String>,
    /// The entries of its `required_providers` blocks, in load order.
    provider_requirements: Vec<ProviderRequirement>,
    /// The aliased `provider` blocks that configure their provider: (name, alias).
    configured_aliases: Vec<(String, String)>,
    /// Every aliased `provider` block, configured or empty: (name, alias).
    aliased_providers: Vec<(String, String)>,
    /// Its module calls with a local source: (name, source).
    local_calls: Vec<(String, String)>,
    /// The constructs the release tables date (see `schema::dated_constructs`), each once.
    dated: Vec<(Place, Box<str>)>,
}

impl Summary {
    /// The summary of a module's files from theirs, in the order the files are loaded.
    fn concat(files: &[Arc<Summary>]) -> Summary {
        Summary {
            variables: (files.iter())
                .flat_map(|f| f.variables.iter().cloned())
                .collect(),
            defaulted: (files.iter())
                .flat_map(|f| f.defaulted.iter().cloned())
                .collect(),
            outputs: (files.iter())
                .flat_map(|f| f.outputs.iter().cloned())
                .collect(),
            configured_provider: files.iter().find_map(|f| f.configured_provider.clone()),
            provider_requirements: (files.iter())
                .flat_map(|f| f.provider_requirements.iter().cloned())
                .collect(),
            configured_aliases: (files.iter())
                .flat_map(|f| f.configured_aliases.iter().cloned())
                .collect(),
            aliased_providers: (files.iter())
                .flat_map(|f| f.aliased_providers.iter().cloned())
                .collect(),
            local_calls: (files.iter())
                .flat_map(|f| f.local_calls.iter().cloned())
                .collect(),
            dated: files.iter().fold(Vec::new(), |mut all, f| {
                add_new(&mut all, &f.dated);
                all
            }),
        }
    }
}

/// Appends the constructs of `more` that `all` does not hold yet, in order.
fn add_new(all: &mut Vec<(Place, Box<str>)>, more: &[(Place, Box<str>)]) {
    for construct in more {
        if !all.contains(construct) {
            all.push(construct.clone());
        }
    }
}

/// One file's summary; the files with nothing to tell (most of them) share one.
fn summarize(file: &File) -> Arc<Summary> {
    static NOTHING: LazyLock<Arc<Summary>> = LazyLock::new(|| {
        Arc::new(Summary {
            variables: Arc::new([]),
            defaulted: Vec::new(),
            outputs: Vec::new(),
            configured_provider: None,
            provider_requirements: Vec::new(),
            configured_aliases: Vec::new(),
            aliased_providers: Vec::new(),
            local_calls: Vec::new(),
            dated: Vec::new(),
        })
    });
    let summary = summary_of(file);
    let nothing = summary.variables.is_empty()
        && summary.outputs.is_empty()
        && summary.configured_provider.is_none()
        && summary.provider_requirements.is_empty()
        && summary.configured_aliases.is_empty()
        && summary.aliased_providers.is_empty()
        && summary.local_calls.is_empty()
        && summary.dated.is_empty();
    if nothing {
        Arc::clone(&NOTHING)
    } else {
        Arc::new(summary)
    }
}

fn summary_of(file: &File) -> Summary {
    let blocks = || file.body.blocks.iter();
    let labelled = |kind: &'static str| {
        blocks()
            .filter(move |b| b.kind == kind)
            .filter_map(|b| Some((b, b.label(0)?)))
    };
    Summary {
        variables: labelled("variable")
            .map(|(_, name)| name.to_string())
            .collect(),
        defaulted: labelled("variable")
            .filter(|(block, _)| block.body.attribute("default").is_some())
            .map(|(_, name)| name.to_string())
            .collect(),
        outputs: labelled("output")
            .map(|(_, name)| name.to_string())
            .collect(),
        configured_provider: labelled("provider")
            .find(|(block, _)| configures(&block.body))
            .map(|(_, name)| name.to_string()),
        provider_requirements: provider_requirements(file),
        // A configuration block may be written twice (primary and override), configuring in
        // either: merged, it configures when any part does.
        configured_aliases: labelled("provider")
            .filter(|(block, _)| configures(&block.body))
            .filter_map(|(block, name)| {
                let alias = block.body.attribute("alias")?.expr.literal_string()?;
                Some((name.to_string(), alias.to_string()))
            })
            .collect(),
        aliased_providers: labelled("provider")
            .filter_map(|(block, name)| {
                let alias = block.body.attribute("alias")?.expr.literal_string()?;
                Some((name.to_string(), alias.to_string()))
            })
            .collect(),
        local_calls: (local_module_calls(file))
            .map(|(name, source)| (name.to_string(), source.to_string()))
            .collect(),
        dated: dated_constructs(file),
    }
}

/// The entries of the `required_providers` blocks of `file`'s `terraform` blocks. An alias is
/// read as `NAME.ALIAS` (a reference, or a string in JSON) of the entry's own name.
fn provider_requirements(file: &File) -> Vec<ProviderRequirement> {
    let blocks = (file.body.blocks.iter())
        .filter(|block| block.kind == "terraform")
        .flat_map(|block| block.body.blocks.iter())
        .filter(|block| block.kind == "required_providers");
    let mut requirements = Vec::new();
    for block in blocks {
        for entry in &block.body.attributes {
            let ExprKind::Object(items) = &entry.expr.kind else {
                // A version constraint alone, as Terraform 0.12 wrote it: no source, no
                // aliases; not a constraint the model reads: not known.
                requirements.push(ProviderRequirement {
                    name: entry.name.clone(),
                    source: None,
                    source_unread: entry.expr.literal_string().is_none(),
                    aliases: Vec::new(),
                });
                continue;
            };
            let setting = |key: &str| {
                (items.iter())
                    .find(|item| {
                        item.key.keyword().or_else(|| item.key.literal_string()) == Some(key)
                    })
                    .map(|item| &item.value)
            };
            let aliases = match setting("configuration_aliases").map(|e| &e.kind) {
                Some(ExprKind::Tuple(list)) => (list.iter())
                    .filter_map(provider_reference)
                    .filter(|(name, _)| *name == entry.name)
                    .filter_map(|(_, alias)| alias.map(str::to_string))
                    .collect(),
                _ => Vec::new(),
            };
            let source = setting("source");
            requirements.push(ProviderRequirement {
                name: entry.name.clone(),
                source: source.and_then(Expr::literal_string).map(str::to_string),
                source_unread: source.is_some_and(|s| s.literal_string().is_none()),
                aliases,
            });
        }
    }
    requirements
}

/// The module calls in `file` with a local source (`source = "../vpc"`): (name, source).
pub(crate) fn local_module_calls(file: &File) -> impl Iterator<Item = (&str, &str)> {
    (file.body.blocks.iter())
        .filter(|block| block.kind == "module")
        .filter_map(|block| {
            let source = block.body.attribute("source")?.expr.literal_string()?;
            (module_source::classify(source) == SourceKind::Local)
                .then_some((block.label(0)?, source))
        })
}

/// Whether a `provider` block configures its provider rather than only naming a configuration
/// the caller passes in (a "proxy"): the tools take away the meta-arguments (`alias`, `version`,
/// the reserved `count`, `depends_on`, `for_each`, `source`; the blocks `lifecycle`, `locals`
/// and the escaping block `_`, whose contents go back to the provider) and call it configured
/// when anything is left, or when it sets a `version` (`provider_validation.go`,
/// `validateProviderConfigs`: `pc.Config.Content(&hcl.BodySchema{})` fails, or
/// `pc.Version.Required != nil`).
fn configures(body: &Body) -> bool {
    const META_ARGUMENTS: &[&str] = &["alias", "count", "depends_on", "for_each", "source"];
    let argument = (body.attributes.iter()).any(|a| match a.name.as_str() {
        "version" => !a.expr.is_null(),
        name => !META_ARGUMENTS.contains(&name),
    });
    let block = body.blocks.iter().any(|b| match b.kind.as_str() {
        "_" => !b.body.attributes.is_empty() || !b.body.blocks.is_empty(),
        kind => !matches!(kind, "lifecycle" | "locals"),
    });
    argument || block
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module directory resolved from the checked directory's canonical path is what
    /// `canonicalize` gives, through symlinks (a symlink then `..` is the symlink's target's
    /// parent), `.` and `..`, and nothing for a missing path or one below a file.
    #[cfg(unix)]
    #[test]
    fn module_directories_resolve_as_canonicalize_does() {
        let root = tempfile::tempdir().expect("tempdir");
        let at = |path: &str| root.path().join(path);
        for dir in ["caller", "modules/vpc", "elsewhere/deep/target"] {
            std::fs::create_dir_all(at(dir)).expect("mkdir");
        }
        std::fs::write(at("modules/file.tf"), "").expect("write");
        std::os::unix::fs::symlink(at("elsewhere/deep/target"), at("caller/link"))
            .expect("symlink");
        std::os::unix::fs::symlink(at("caller"), at("caller-link")).expect("symlink");
        let sources = [
            "",
            ".",
            "../modules/vpc",
            "./../modules/./vpc/",
            "link",
            "link/..",
            "link/../..",
            "../caller/link/../target",
            "../modules/file.tf",
            "../modules/file.tf/..",
            "missing",
            "../missing/..",
            "../../..",
        ];
        // Checked by its real path, by a symlink to it, and without a known canonical path.
        let checked = [
            (
                at("caller"),
                Some(at("caller").canonicalize().expect("canonical")),
            ),
            (
                at("caller-link"),
                Some(at("caller").canonicalize().expect("canonical")),
            ),
            (at("caller-link"), None),
        ];
        for (dir, canonical) in checked {
            let neighbours = Neighbours::new(1024).named_from(&dir, canonical.as_deref());
            for source in sources {
                let named = dir.join(source);
                let expected = named.canonicalize().ok().map(|c| {
                    let is_dir = c.is_dir();
                    (c, is_dir)
                });
                assert_eq!(neighbours.resolve(&named), expected, "{}", named.display());
            }
        }
    }

    /// What a path adds to a directory is what `strip_prefix` finds, whether the text settles
    /// it or not: a name that only starts like the directory's last one is not below it.
    #[test]
    fn below_dir_is_strip_prefix() {
        let cases = [
            ("/a/b/../c", "/a/b"),
            ("/a/b", "/a/b"),
            ("/a/bc", "/a/b"),
            ("/a/bc/d", "/a/b"),
            ("/a/b//x/./y", "/a/b"),
            ("/a/b/x", "/a/b/"),
            ("/a/./b/x", "/a/b"),
            ("a/b/c", "a"),
            ("/elsewhere", "/a/b"),
            ("/a", "/a/b"),
        ];
        for (path, dir) in cases {
            let (path, dir) = (Path::new(path), Path::new(dir));
            let expected = path.strip_prefix(dir).ok();
            assert_eq!(below_dir(path, dir), expected, "{path:?} below {dir:?}");
        }
    }

    /// A module's interface in a view is made once in a run, for every check and every
    /// spelling of its path that asks; each view has its own, and a check's own directory has
    /// none for its calls (`source = "./"`).
    #[test]
    fn a_modules_interface_is_made_once_per_run_and_view() {
        let dir = tempfile::tempdir().expect("tempdir");
        let module = dir.path().join("mod");
        std::fs::create_dir(&module).expect("mkdir");
        std::fs::write(module.join("main.tf"), "variable \"a\" {}\n").expect("write");
        std::fs::write(module.join("x.tofu"), "variable \"b\" {}\n").expect("write");
        for caller in ["one", "two"] {
            std::fs::create_dir(dir.path().join(caller)).expect("mkdir");
        }
        let shared = Arc::new(SharedSummaries::default());
        let checking = |caller: &str| {
            Neighbours::new(1024)
                .with_shared(Arc::clone(&shared))
                .named_from(&dir.path().join(caller), None)
        };
        let (one, two) = (checking("one"), checking("two"));
        let one_dir = dir.path().join("one");
        let terraform = one.called_interface(&one_dir, "../mod", View::Terraform);
        let terraform = terraform.expect("an interface");
        assert_eq!(terraform.variables.to_vec(), ["a"]);
        let again = two.called_interface(&dir.path().join("two"), "../mod/", View::Terraform);
        assert!(Arc::ptr_eq(&terraform, &again.expect("an interface")));
        let opentofu = two.interface(&dir.path().join("one/../mod"), View::OpenTofu);
        assert_eq!(
            opentofu.expect("an interface").variables.to_vec(),
            ["a", "b"]
        );
        assert_eq!(shared.parsed_apart(), 2);
        assert!(
            one.called_interface(&one_dir, "./", View::Terraform)
                .is_none()
        );
    }

    /// A file is parsed once for all the checks of a run that ask for it, and not at all when
    /// its own directory's check published it. Asking makes the run want summaries.
    #[test]
    fn each_file_is_parsed_once_for_its_callers() {
        let dir = tempfile::tempdir().expect("tempdir");
        let write = |module: &str, text: &str| {
            let module = dir.path().join(module);
            std::fs::create_dir(&module).expect("mkdir");
            std::fs::write(module.join("main.tf"), text).expect("write");
            module
        };
        let called = write("called", "variable \"a\" {}\n");
        let published = write("published", "variable \"b\" {}\n");
        let shared = Arc::new(SharedSummaries::default());
        let caller = || Neighbours::new(1024).with_shared(Arc::clone(&shared));
        assert!(!shared.wanted());

        let variables = |neighbours: &Neighbours, module: &Path| {
            let found = neighbours.variables(module, View::Terraform);
            found.map(|names| names.to_vec())
        };
        assert_eq!(variables(&caller(), &called), Some(vec!["a".to_string()]));
        assert!(shared.wanted());
        assert_eq!(shared.parsed_apart(), 1);
        // Another directory's check that calls the same module reads what the first parsed.
        assert_eq!(variables(&caller(), &called), Some(vec!["a".to_string()]));
        assert_eq!(shared.parsed_apart(), 1);

        // A module whose own check published its summaries is not parsed for its callers
        // (what its check read is not what the disk holds now).
        let text = "variable \"as_checked\" {}\n";
        let parsed = crate::syntax::parse(FileId(0), Syntax::Native, text);
        let file = parsed.file.expect("parses");
        let canonical = published.canonicalize().expect("canonical");
        shared.publish(&canonical, [("main.tf", Some(&file))]);
        let expected = Some(vec!["as_checked".to_string()]);
        assert_eq!(variables(&caller(), &published), expected);
        assert_eq!(shared.parsed_apart(), 1);
    }

    /// Looking at a module directory (whether it exists, whether it is the checked one) does
    /// not list it, nor does following the calls of the checked directory list that one: a
    /// directory of the run is listed by discovery, and its own check publishes that listing.
    /// A called module is listed when its summary is wanted.
    #[test]
    fn a_module_is_listed_only_for_its_summary() {
        let dir = tempfile::tempdir().expect("tempdir");
        let caller_text = "module \"child\" {\n  source = \"../child\"\n}\n";
        for (module, text) in [("caller", caller_text), ("child", "variable \"a\" {}\n")] {
            let module = dir.path().join(module);
            std::fs::create_dir(&module).expect("mkdir");
            std::fs::write(module.join("main.tf"), text).expect("write");
        }
        let shared = Arc::new(SharedSummaries::default());
        let (caller, child) = (dir.path().join("caller"), dir.path().join("child"));
        let neighbours = Neighbours::new(1024)
            .with_shared(Arc::clone(&shared))
            .named_from(&caller, None);
        let listed = |dir: &Path| {
            let canonical = dir.canonicalize().expect("canonical");
            shared.module(&canonical).files.get().is_some()
        };
        assert!(neighbours.module(&child).exists);
        assert!(!neighbours.is_checked(&child));
        assert!(!listed(&child));
        let parsed = crate::syntax::parse(FileId(0), Syntax::Native, caller_text);
        let file = parsed.file.expect("parses");
        let found = neighbours.dated_in_children(&caller, View::Terraform, [&file].into_iter());
        assert!(found.is_empty());
        assert!(listed(&child));
        assert!(!listed(&caller));
    }

    /// The dated constructs of a directory's children are found from the caller's own parsed
    /// files and the children's summaries: the caller's files are not parsed again (its check
    /// parsed them and need not have published them).
    #[test]
    fn dated_in_children_parses_only_the_children() {
        let dir = tempfile::tempdir().expect("tempdir");
        let caller_text = "module \"child\" {\n  source = \"../child\"\n}\n";
        for (module, text) in [
            ("caller", caller_text),
            ("child", "import {\n  to = a.b\n  id = \"x\"\n}\n"),
        ] {
            let module = dir.path().join(module);
            std::fs::create_dir(&module).expect("mkdir");
            std::fs::write(module.join("main.tf"), text).expect("write");
        }
        let shared = Arc::new(SharedSummaries::default());
        let caller = dir.path().join("caller");
        let neighbours = Neighbours::new(1024)
            .with_shared(Arc::clone(&shared))
            .named_from(&caller, None);
        let parsed = crate::syntax::parse(FileId(0), Syntax::Native, caller_text);
        let file = parsed.file.expect("parses");
        let found = neighbours.dated_in_children(&caller, View::Terraform, [&file].into_iter());
        let import = |place: Place, name: &str| (place, Box::<str>::from(name));
        let body = Place::In(crate::knowledge::features::Body::Import);
        let expected = [
            import(Place::TopLevel, "import"),
            import(body, "to"),
            import(body, "id"),
        ];
        assert_eq!(found, expected);
        assert_eq!(shared.parsed_apart(), 1);
    }
}
