//! Finds the module directories to check from the command-line paths.
//!
//! A directory argument is walked recursively; every directory holding a configuration file is
//! a module directory. A file argument stands for the directory it is in (this is what
//! pre-commit passes), even when the file itself was deleted. Symlinked directories are
//! followed; a symlink back to a directory above it is not walked into, and a directory (or
//! unit) reached twice is checked once. Both are notes for the user, not findings: Terraform
//! and OpenTofu never walk directories, so neither says anything about a module.
//!
//! The walk also collects Terragrunt units (`terragrunt.hcl` files), checked as one tree by
//! `crate::terragrunt`; the `.hcl` files they reference are found by following references.

use std::collections::{BTreeMap, HashSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use globset::{GlobSet, GlobSetBuilder};

use crate::knowledge::files::{
    TERRAGRUNT_STACK_DIR, classify, is_terragrunt_entry as is_terragrunt_unit_name,
};
use crate::source::{absolute, display_path};

use super::dir_handle::{ANCHOR_EVERY, Anchor, DirHandle, EntryKind, HeldDir, Links};
use super::gitignore::GitIgnores;
use super::listing::Listing;
use super::read::{DirectoryStep, ReadProblem};
use super::scope::Scope;

/// The module directories found, in sorted order, and what went wrong on the way.
#[derive(Debug, Default)]
pub(crate) struct Discovery {
    /// Shared with what the run keeps of each (a path is kept once, however many hold it).
    pub(crate) dirs: Vec<Arc<Path>>,
    /// The canonical path of each of `dirs`, when it is known: the walk resolves a directory's
    /// from its parent's, without a system call.
    pub(crate) canonical: Vec<Option<Arc<Path>>>,
    /// What the walk kept of its listing of each of `dirs`: a directory is read once, not
    /// again when checked.
    pub(crate) listings: Vec<DirListing>,
    /// The Terragrunt units (`terragrunt.hcl` files) found, in sorted order.
    pub(crate) terragrunt: Vec<PathBuf>,
    /// Walk problems (unreadable directories), for `io_error` findings.
    pub(crate) problems: Vec<ReadProblem>,
    /// What the walk skipped and why (a symlink back to a directory above it, a directory
    /// reached twice), for the user but not findings: the tools never walk directories, so
    /// these say nothing about a module.
    pub(crate) notes: Vec<String>,
    /// Arguments that name nothing: a usage error.
    pub(crate) missing: Vec<PathBuf>,
}

/// What to skip: `--exclude` globs, matched against a path as shown, relative to the
/// command-line path it was found under, or (for an absolute glob) absolute, and the config
/// file's `exclude` globs, matched against a path relative to the config file's directory
/// (whatever the working directory and however the path was given). A leading `./` of a glob
/// is dropped: the paths it is matched against never have one.
///
/// An excluded directory is not walked; an excluded file is still loaded with its module (the
/// tools load it), but its findings are not reported (see [`Excludes::excludes_finding`]).
#[derive(Debug, Default)]
pub(crate) struct Excludes {
    given: GlobSet,
    given_globs: Vec<String>,
    /// For each pattern of `given`, the index in `given_globs` of the glob it was made from.
    given_sources: Vec<usize>,
    /// Whether each of `given_globs` has matched a path: one that never does is a notice.
    given_matched: Vec<AtomicBool>,
    /// Whether a glob of `given` is absolute, so that paths are matched absolute too.
    given_absolute: bool,
    /// The config file's directory (absolute, clean) and its globs.
    config: Option<(PathBuf, GlobSet)>,
    /// Where directory links may lead: one outside it is noted and not walked. `None` follows
    /// every link (a walk of the tools' own fixtures).
    scope: Option<Arc<Scope>>,
}

impl Excludes {
    /// Command-line globs only.
    pub(crate) fn given(globs: &[String]) -> Result<Excludes, String> {
        let (given, given_sources) = exclude_set(globs)?;
        Ok(Excludes {
            given,
            given_globs: globs.to_vec(),
            given_sources,
            given_matched: globs.iter().map(|_| AtomicBool::new(false)).collect(),
            given_absolute: globs.iter().any(|glob| Path::new(glob).is_absolute()),
            config: None,
            scope: None,
        })
    }

    /// Walks directory links only where `scope` says.
    pub(crate) fn set_scope(&mut self, scope: Arc<Scope>) {
        self.scope = Some(scope);
    }

    /// The command-line globs, as given.
    pub(crate) fn given_globs(&self) -> &[String] {
        &self.given_globs
    }

    /// The command-line globs that have matched no path so far (after a walk: none it
    /// reached), as given.
    pub(crate) fn unmatched_globs(&self) -> Vec<&str> {
        (self.given_globs.iter().zip(&self.given_matched))
            .filter(|(_, matched)| !matched.load(Ordering::Relaxed))
            .map(|(glob, _)| glob.as_str())
            .collect()
    }

    /// Adds the globs of the config file at `config_file`.
    pub(crate) fn with_config(
        mut self,
        config_file: &Path,
        globs: &[String],
    ) -> Result<Excludes, String> {
        if globs.is_empty() {
            return Ok(self);
        }
        let base = absolute(config_file.parent().unwrap_or(Path::new(".")));
        let (set, _) =
            exclude_set(globs).map_err(|e| format!("{e} (in {})", display_path(config_file)))?;
        self.config = Some((base, set));
        Ok(self)
    }

    /// Whether there is any glob at all.
    pub(crate) fn is_empty(&self) -> bool {
        self.given.is_empty() && self.config.is_none()
    }
}

impl Excludes {
    /// Excluded when a `--exclude` glob matches the path as shown or relative to `root` (the
    /// path it was found under), or a config glob matches it relative to the config file's
    /// directory.
    pub(crate) fn is_excluded(&self, path: &Path, root: &Path) -> bool {
        let Excludes { given, config, .. } = self;
        if !given.is_empty() {
            let shown = display_path(path);
            let relative = path
                .strip_prefix(root)
                .ok()
                .map(display_path)
                .filter(|r| !r.is_empty());
            let whole = self.given_absolute.then(|| display_path(&absolute(path)));
            let candidates = [Some(shown), relative, whole];
            let candidates = candidates.iter().flatten();
            if candidates.clone().any(|c| given.is_match(c)) {
                for pattern in candidates.flat_map(|c| given.matches(c)) {
                    self.given_matched[self.given_sources[pattern]].store(true, Ordering::Relaxed);
                }
                return true;
            }
        }
        config.as_ref().is_some_and(|(base, set)| {
            absolute(path)
                .strip_prefix(base)
                .ok()
                .map(display_path)
                .is_some_and(|r| !r.is_empty() && set.is_match(r))
        })
    }

    /// Whether a finding at `path` (as shown) is in an excluded file, below one of the
    /// command-line paths `given`: its module is checked (another of its files is not
    /// excluded), but what is found in this file is not reported, as ruff reports nothing of
    /// an excluded file.
    pub(crate) fn excludes_finding(&self, path: &str, given: &[PathBuf]) -> bool {
        let path = Path::new(path);
        let whole = absolute(path);
        given
            .iter()
            .any(|root| self.is_excluded(path, root) || self.is_excluded(&whole, &absolute(root)))
    }
}

/// Compiles `--exclude` globs; `*` does not cross `/`, `**` does. Also gives, for each
/// pattern of the set, the index of the glob it was made from.
fn exclude_set(globs: &[String]) -> Result<(GlobSet, Vec<usize>), String> {
    let mut builder = GlobSetBuilder::new();
    let mut sources = Vec::new();
    // Each glob once: repeats (a config and the command line naming the same one, or a
    // generated list) would each make every match slower.
    let mut seen = HashSet::new();
    for (index, glob) in globs.iter().enumerate() {
        if !seen.insert(glob.as_str()) {
            continue;
        }
        let mut trimmed = glob.trim_end_matches('/');
        while let Some(rest) = trimmed.strip_prefix("./").filter(|rest| !rest.is_empty()) {
            trimmed = rest.trim_start_matches('/');
        }
        for pattern in [trimmed.to_string(), format!("{trimmed}/**")] {
            let compiled = globset::GlobBuilder::new(&pattern)
                .literal_separator(true)
                .build()
                .map_err(|e| format!("invalid exclude glob `{glob}`: {e}"))?;
            builder.add(compiled);
            sources.push(index);
        }
    }
    let set = builder
        .build()
        .map_err(|e| format!("invalid exclude globs: {e}"))?;
    Ok((set, sources))
}

/// Finds what `paths` name; with `respect_gitignore`, a walk skips what `.gitignore` files
/// ignore (a path named in `paths` is always checked).
pub(crate) fn discover(
    paths: &[PathBuf],
    exclude: &Excludes,
    respect_gitignore: bool,
) -> Discovery {
    Walk::new(paths, exclude, respect_gitignore).finish()
}

/// A module directory that a [`Walk`] gives out as soon as it finds it: one the [`Discovery`]
/// lists under the same path, as [`DirListing::GivenOut`] with the same `index`.
#[derive(Debug)]
pub(crate) struct FoundDir {
    pub(crate) dir: Arc<Path>,
    pub(crate) canonical: Arc<Path>,
    /// What the walk listed in it: the check need not read the directory again.
    pub(crate) listing: Option<Box<Listing>>,
    /// How many directories the walk gave out before this one.
    pub(crate) index: usize,
}

/// A walk of the command-line paths, one directory at a time. As an iterator, it gives out
/// the module directories it is sure the [`Discovery`] will list under the path it reached
/// them by, as it reaches them: so that they can be checked while the walk goes on. Those are
/// the directories whose path is their canonical path (once `.` and `..` are folded, as
/// [`absolute`] does): reached through real directories from the one argument, a directory
/// whose absolute path is its canonical path. Of the paths of one real directory,
/// [`once_each`] keeps that one. The others (and every directory of several arguments) are
/// only in the [`Discovery`], which [`Walk::finish`] gives once the walk is done.
///
/// The walk goes depth first, each directory's entries in the order of their paths, except
/// that a sub-directory named `modules` comes first, and the directory itself after it:
/// that is where the standard module structure keeps the nested modules that the directory
/// and its examples call (<https://developer.hashicorp.com/terraform/language/modules/develop/structure>).
/// Within a `modules` directory, the module directories below its nested modules (their
/// examples, which call them and their siblings) are given out after all of them. A module is
/// then most often given out before the directories that call it.
pub(crate) struct Walk<'a> {
    paths: std::slice::Iter<'a, PathBuf>,
    exclude: &'a Excludes,
    respect_gitignore: bool,
    /// The walk of the directory argument in progress.
    current: Option<DirWalk<'a>>,
    /// Whether module directories are given out (see above).
    gives_out: bool,
    /// How many were given out.
    given_out: usize,
    /// The one argument's canonical path, resolved once: the walk starts from it.
    root_canonical: Option<PathBuf>,
    records: Records,
}

/// What a walk has found so far.
#[derive(Default)]
struct Records {
    /// Module directories, each with what the walk knows of it.
    module_dirs: Found,
    /// Terragrunt units, each with its canonical path when the walk knows it (a regular file
    /// in a directory whose canonical path is known): canonicalising each unit would resolve
    /// every component of its path again.
    units: Units,
    /// Problems and notes (the rest of the [`Discovery`] is made from the other records).
    out: Discovery,
}

impl<'a> Walk<'a> {
    /// A walk of `paths`, skipping what `exclude` excludes and, with `respect_gitignore`, what
    /// `.gitignore` files ignore (a path named in `paths` is always checked).
    pub(crate) fn new(
        paths: &'a [PathBuf],
        exclude: &'a Excludes,
        respect_gitignore: bool,
    ) -> Self {
        let root_canonical = match paths {
            [root] => root.canonicalize().ok(),
            _ => None,
        };
        // Nothing is given out unless the one argument is its own canonical path: `link/..`
        // folds to the directory holding `link`, which is not where it leads.
        let gives_out =
            matches!((paths, &root_canonical), ([root], Some(real)) if *real == absolute(root));
        Walk {
            paths: paths.iter(),
            exclude,
            respect_gitignore,
            current: None,
            gives_out,
            given_out: 0,
            root_canonical,
            records: Records::default(),
        }
    }

    /// Walks what is left, giving nothing more out, and returns everything found.
    pub(crate) fn finish(mut self) -> Discovery {
        self.gives_out = false;
        let rest = self.next();
        debug_assert!(
            rest.is_none(),
            "a walk that gives nothing out gave something"
        );
        let Records {
            module_dirs,
            units,
            mut out,
        } = self.records;
        let dirs = (module_dirs.into_sorted().into_iter())
            .map(|(dir, walked)| (dir, walked.canonical, walked.listing));
        for (dir, canonical, listing) in once_each(dirs, "directory", &mut out.notes) {
            out.dirs.push(dir);
            out.canonical.push(canonical);
            out.listings.push(listing);
        }
        let units = (units.into_iter()).map(|(unit, canonical)| (Arc::from(unit), canonical, ()));
        out.terragrunt = (once_each(units, "file", &mut out.notes).into_iter())
            .map(|(unit, _, ())| unit.to_path_buf())
            .collect();
        out
    }

    /// Starts on the next argument: a directory is walked step by step; a file stands for its
    /// directory (and is a unit if it is named like one); a missing path is noted.
    fn start(&mut self, path: &'a PathBuf) {
        let walker = Walker {
            root: path,
            exclude: self.exclude,
        };
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                if !walker.is_excluded(path) {
                    let trail = Trail {
                        ancestors: Vec::new(),
                        ancestor_set: foldhash::HashSet::default(),
                        gitignores: (self.respect_gitignore)
                            .then(|| GitIgnores::above(path, &mut self.records.out.notes))
                            .flatten(),
                        visited: foldhash::HashMap::default(),
                    };
                    let first = Step::Enter {
                        dir: path.clone(),
                        canonical: self.root_canonical.take(),
                        may_give_out: self.gives_out,
                        from: None,
                    };
                    self.current = Some(DirWalk {
                        walker,
                        trail,
                        steps: vec![first],
                        held: Vec::new(),
                    });
                }
            }
            Ok(_) => {
                let dir = parent_dir(path);
                if !walker.is_excluded(path) && is_terragrunt_unit(path) {
                    self.records.units.insert(path.clone(), None);
                }
                if !walker.is_excluded(path) && has_config_files(&dir) {
                    self.records.module_dirs.or_default(dir);
                }
            }
            Err(_) => {
                // A deleted file (pre-commit passes staged deletions) still means its directory.
                let dir = parent_dir(path);
                let is_config_name = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| classify(n).is_some() || is_terragrunt_unit_name(n));
                if is_config_name && dir.is_dir() {
                    if !walker.is_excluded(path) && has_config_files(&dir) {
                        self.records.module_dirs.or_default(dir);
                    }
                } else {
                    self.records.out.missing.push(path.clone());
                }
            }
        }
    }
}

impl Iterator for Walk<'_> {
    type Item = FoundDir;

    /// Walks on until it finds a module directory to give out, or to the end.
    fn next(&mut self) -> Option<FoundDir> {
        loop {
            let Some(walk) = self.current.as_mut() else {
                let path = self.paths.next()?;
                self.start(path);
                continue;
            };
            let Some(step) = walk.steps.pop() else {
                self.current = None;
                continue;
            };
            match step {
                Step::Enter {
                    dir,
                    canonical,
                    may_give_out,
                    from,
                } => {
                    let place = Place {
                        dir,
                        canonical,
                        may_give_out,
                        from,
                    };
                    walk.enter(place, &mut self.records);
                }
                Step::Found(module) => {
                    if let Some(found) = self.record(module) {
                        return Some(found);
                    }
                }
                Step::Leave(entered) => walk.leave(entered),
            }
        }
    }
}

impl Walk<'_> {
    /// Records a module directory the walk has listed, and gives it out if it may.
    fn record(&mut self, module: ListedModule) -> Option<FoundDir> {
        let give_out = module.may_give_out && self.gives_out;
        let (listing, given_out) = if give_out {
            let index = self.given_out;
            self.given_out += 1;
            (DirListing::GivenOut(index), Some((index, module.listing)))
        } else {
            (DirListing::from(module.listing), None)
        };
        let walked = Walked {
            canonical: Some(Arc::clone(&module.canonical)),
            listing,
        };
        self.records.module_dirs.fill(module.place, walked);
        given_out.map(|(index, listing)| FoundDir {
            dir: module.dir,
            canonical: module.canonical,
            listing,
            index,
        })
    }
}

/// The paths in order, each file or directory once: of paths that are the same one (through a
/// symlink, or `a` and `./a`), the real path is kept (else the first), with a note for each
/// other. Each path comes with its canonical path if it is known already, and with something
/// that stays with it; each kept one with its canonical path, if it has one.
fn once_each<T>(
    paths: impl IntoIterator<Item = (Arc<Path>, Option<Arc<Path>>, T)>,
    what: &str,
    notes: &mut Vec<String>,
) -> Vec<(Arc<Path>, Option<Arc<Path>>, T)> {
    let mut index_by_identity: foldhash::HashMap<CleanPath, usize> = Default::default();
    let mut kept: Vec<(Arc<Path>, Option<Arc<Path>>, T)> = Vec::new();
    for (path, canonical, with) in paths {
        let canonical = canonical.or_else(|| path.canonicalize().ok().map(Arc::from));
        let identity = canonical
            .clone()
            .unwrap_or_else(|| Arc::from(absolute(&path)));
        let Some(&index) = index_by_identity.get(&CleanPath(Arc::clone(&identity))) else {
            index_by_identity.insert(CleanPath(identity), kept.len());
            kept.push((path, canonical, with));
            continue;
        };
        let is_identity = |path: &Path| *absolute(path) == *identity;
        let dropped = if is_identity(&path) && !is_identity(&kept[index].0) {
            std::mem::replace(&mut kept[index], (path, canonical, with)).0
        } else {
            path
        };
        notes.push(format!(
            "{}: the same {what} as {}, checked once",
            display_path(&dropped),
            display_path(&kept[index].0)
        ));
    }
    kept
}

fn is_terragrunt_unit(path: &Path) -> bool {
    (path.file_name().and_then(|n| n.to_str())).is_some_and(is_terragrunt_unit_name)
}

pub(crate) fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn has_config_files(dir: &Path) -> bool {
    super::listing::config_files(dir).is_ok_and(|names| !names.is_empty())
}

/// A clean path (absolute and folded, canonical, or one joined with a name), hashed and compared
/// by its bytes: for such a path the same as by its components (as `Path` does), and much
/// faster for a long one, such as a deep chain's.
#[derive(Debug, Clone)]
struct CleanPath(Arc<Path>);

impl PartialEq for CleanPath {
    fn eq(&self, other: &Self) -> bool {
        self.0.as_os_str() == other.0.as_os_str()
    }
}

impl Eq for CleanPath {}

impl std::hash::Hash for CleanPath {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.as_os_str().hash(state);
    }
}

/// Where a walk is: the canonical paths of the directories above, and the ignore files that
/// apply.
struct Trail {
    /// The canonical paths of the directories above the current one: a symlink back to one of
    /// them is a loop.
    ancestors: Vec<Arc<Path>>,
    /// The same paths, to look one up without comparing it with each (a chain of directories
    /// may be a thousand deep).
    ancestor_set: foldhash::HashSet<CleanPath>,
    gitignores: Option<GitIgnores>,
    /// Every directory walked so far (canonical path → whether it is a module directory): a
    /// directory that several symlinks reach (a "diamond") is walked once, so the walk stays
    /// linear in the number of real directories.
    visited: foldhash::HashMap<CleanPath, bool>,
}

struct Walker<'a> {
    root: &'a Path,
    exclude: &'a Excludes,
}

impl Walker<'_> {
    fn is_excluded(&self, path: &Path) -> bool {
        self.exclude.is_excluded(path, self.root)
    }

    /// Whether the walk goes into the directory at `path`: a real one always (it lies below
    /// an entered one); a link only where the scope follows it, else it is noted, once, with
    /// where it leads, and nothing below it is read. ripgrep and ruff follow no directory
    /// link unless asked; Terraform never walks directories at all.
    fn may_enter(&self, path: &Path, kind: Kind, notes: &mut Vec<String>) -> bool {
        let Some(scope) = self.exclude.scope.as_deref() else {
            return true;
        };
        if kind == Kind::Directory {
            return true;
        }
        // One that does not resolve is entered, for the walk to say why it cannot be read.
        let Ok(target) = path.canonicalize() else {
            return true;
        };
        if scope.follows_link_to(&target) {
            return true;
        }
        notes.push(format!(
            "{}: a link to {}, outside the checked paths: not walked (--follow-links walks it, \
             but never into /proc, /sys or /dev)",
            display_path(path),
            display_path(&target)
        ));
        false
    }
}

/// The walk of one directory argument, depth first: the steps still to take are on a stack,
/// the next on top, so that the walk can stop after any directory and go on later.
struct DirWalk<'a> {
    walker: Walker<'a>,
    trail: Trail,
    steps: Vec<Step>,
    /// The `modules` directories the walk is in, innermost last, each with the module
    /// directories below its nested modules, given out when the walk leaves it (see [`Walk`]).
    held: Vec<Held>,
}

/// A `modules` directory the walk is in: its depth, and the module directories held back.
struct Held {
    depth: usize,
    found: Vec<ListedModule>,
}

enum Step {
    /// Walk into `dir`. `canonical` is its canonical path when known already: a real (not
    /// symlinked) sub-directory of a directory whose canonical path is known. `may_give_out`:
    /// whether it is given out if it is a module directory (see [`Walk`]).
    Enter {
        dir: PathBuf,
        canonical: Option<PathBuf>,
        may_give_out: bool,
        from: Option<Below>,
    },
    /// Record a module directory, and give it out if it may.
    Found(ListedModule),
    /// Done with a directory and everything below it.
    Leave(Entered),
}

/// A directory to enter, as a [`Step::Enter`] gives it.
struct Place {
    dir: PathBuf,
    canonical: Option<PathBuf>,
    may_give_out: bool,
    from: Option<Below>,
}

/// How a sub-directory is reached from the directory above it, which the walk held open: by
/// its name there, not its whole path (see [`crate::input::dir_handle`]).
struct Below {
    parent: Option<Arc<HeldDir>>,
    name: std::ffi::OsString,
    /// [`Links::Refuse`] for a real directory (one replaced by a link since it was listed is
    /// not followed), [`Links::Follow`] for a link the walk follows.
    links: Links,
    /// Where its files are read from, when the walk holds an ancestor open.
    anchor: Option<Anchor>,
}

/// A module directory the walk has listed.
struct ListedModule {
    dir: Arc<Path>,
    canonical: Arc<Path>,
    /// Its place among the [`Found`] directories.
    place: usize,
    listing: Option<Box<Listing>>,
    may_give_out: bool,
}

/// A directory the walk is in.
struct Entered {
    canonical: Arc<Path>,
    is_module: bool,
    /// Whether it is a `modules` directory, which holds module directories back.
    holds: bool,
    /// Whether it has a `.gitignore` of its own, to leave with it.
    has_gitignore: bool,
}

impl DirWalk<'_> {
    /// Enters `dir` (see [`Step::Enter`]): records its units, and queues the steps below it
    /// (see [`Walk`] for their order). Only the root and symlinks are canonicalised, which
    /// resolves every component of the path with its own system calls: canonicalising every
    /// directory was most of discovery's kernel time.
    fn enter(&mut self, place: Place, records: &mut Records) {
        let Place {
            dir,
            canonical,
            may_give_out,
            from,
        } = place;
        let Records {
            module_dirs,
            units,
            out,
        } = records;
        let trail = &mut self.trail;
        let canonical: Arc<Path> = match canonical.map_or_else(|| dir.canonicalize(), Ok) {
            Ok(c) => Arc::from(c),
            Err(error) => {
                let problem = unreadable(&dir, DirectoryStep::Resolve, &error);
                out.problems.push(problem);
                return;
            }
        };
        if (trail.ancestor_set).contains(&CleanPath(Arc::clone(&canonical))) {
            out.notes.push(format!(
                "{}: a symlink back to {}, a directory above it: not walked into",
                display_path(&dir),
                display_path(&canonical)
            ));
            return;
        }
        if let Some(&is_module) = trail.visited.get(&CleanPath(Arc::clone(&canonical))) {
            // Reached again by another path: not walked again. A module directory is listed
            // under this path too, so that the run says it is checked once (`once_each`).
            if is_module {
                let walked = Walked {
                    canonical: Some(canonical),
                    listing: DirListing::NotListed,
                };
                module_dirs.set(Arc::from(dir), walked);
            }
            return;
        }
        let opened = match &from {
            Some(Below {
                parent: Some(parent),
                name,
                links,
                ..
            }) => parent.open_below(name, *links),
            _ => DirHandle::open(&dir),
        };
        let handle = match opened {
            Ok(handle) => handle,
            Err(error) => {
                out.problems
                    .push(unreadable(&dir, DirectoryStep::List, &error));
                return;
            }
        };
        let Some((names, listing)) = read_entries(&dir, &handle, &mut out.problems) else {
            return;
        };
        // Reserved before the directories below it: in the order of their paths, but for
        // `modules` sub-directories, walked first (see `Walk`).
        let dir: Arc<Path> = Arc::from(dir);
        let place = module_dirs.reserve(Arc::clone(&dir));
        trail.ancestors.push(Arc::clone(&canonical));
        trail.ancestor_set.insert(CleanPath(Arc::clone(&canonical)));
        let depth = trail.ancestors.len();
        let holds = dir.file_name() == Some(MODULES.as_ref());
        if holds {
            let found = Vec::new();
            self.held.push(Held { depth, found });
        }
        let has_gitignore =
            (trail.gitignores.as_mut()).is_some_and(|g| g.enter(&dir, &mut out.notes));
        // The files first: whether this is a module directory is known before the walk goes
        // below it.
        let mut is_module = false;
        let mut subdirs = Vec::new();
        // Configuration files that .gitignore ignores: not loaded (see below).
        let mut ignored_files = Vec::new();
        for (name, path, kind) in names {
            let is_dir = match kind {
                Kind::Directory => true,
                // Followed; a dangling link is not a directory.
                Kind::Followed => path.file_name().is_some_and(|n| handle.is_dir_below(n)),
                Kind::Other => false,
            };
            let ignored = (trail.gitignores.as_ref()).is_some_and(|g| g.ignores(&path, is_dir));
            if ignored && !is_dir && classify(&name).is_some() {
                ignored_files.push((name, path));
                continue;
            }
            if ignored || self.walker.is_excluded(&path) {
                continue;
            }
            if is_dir {
                // Hidden directories are skipped, but for the units a stack generates.
                let walked = !name.starts_with('.') || name == TERRAGRUNT_STACK_DIR;
                if walked && self.walker.may_enter(&path, kind, &mut out.notes) {
                    subdirs.push((path, kind));
                }
            } else if classify(&name).is_some() {
                is_module = true;
            } else if is_terragrunt_unit_name(&name) {
                // A symlink's canonical path is where it leads: resolved later.
                let known = (path.file_name())
                    .filter(|_| matches!(kind, Kind::Other))
                    .map(|name| Arc::from(canonical.join(name)));
                units.insert(path, known);
            }
        }
        // A git-ignored configuration file of a module directory is not loaded: it is not in
        // the repository (Terraform's own .gitignore template ignores override files, which
        // are "usually used to override resources locally"), so a pre-commit hook or CI run
        // checks the module as committed, not one developer's local overrides. The tools do
        // load it in this checkout, so the run says so; --no-respect-gitignore loads it.
        let mut listing = listing;
        if let (true, Some(listing)) = (is_module, listing.as_mut()) {
            // By name, looked up: a directory may hold thousands of ignored files.
            let ignored: HashSet<&str> = (ignored_files.iter()).map(|(n, _)| n.as_str()).collect();
            listing
                .names
                .retain(|config| !ignored.contains(config.name.as_str()));
            // Each file by name, up to a few per directory; the rest in one line, so that a
            // directory of thousands of ignored files does not flood a CI log.
            for (_, path) in ignored_files.iter().take(IGNORED_FILES_NAMED) {
                out.notes.push(format!(
                    "{}: ignored by .gitignore: not loaded, though Terraform and OpenTofu load \
                     it here (--no-respect-gitignore checks it)",
                    display_path(path)
                ));
            }
            let more = ignored_files.len().saturating_sub(IGNORED_FILES_NAMED);
            if more > 0 {
                out.notes.push(format!(
                    "{}: {more} more configuration files ignored by .gitignore: not loaded, \
                     though Terraform and OpenTofu load them here (--no-respect-gitignore checks \
                     them)",
                    display_path(&dir)
                ));
            }
        }
        self.steps.push(Step::Leave(Entered {
            canonical: Arc::clone(&canonical),
            is_module,
            holds,
            has_gitignore,
        }));
        // Held open while a directory below waits to be entered, or a module directory below
        // to be checked (as an anchor), unless the run holds as many as it may.
        let held = handle.hold();
        let anchor = match from.and_then(|from| from.anchor) {
            Some(anchor) if anchor.depth() < ANCHOR_EVERY || held.is_none() => Some(anchor),
            _ => held.clone().map(Anchor::at),
        };
        let enter = |(path, kind): (PathBuf, Kind)| {
            let (canonical, may_give_out, links) = match kind {
                // A real directory: its canonical path is this one's joined with its name.
                Kind::Directory => (
                    path.file_name().map(|n| canonical.join(n)),
                    may_give_out,
                    Links::Refuse,
                ),
                // Through a symlink: another path may name it better (see `Walk`).
                _ => (None, false, Links::Follow),
            };
            let from = path.file_name().map(|name| Below {
                parent: held.clone(),
                name: name.to_os_string(),
                links,
                anchor: anchor.as_ref().map(|anchor| anchor.join(name)),
            });
            Step::Enter {
                dir: path,
                canonical,
                may_give_out,
                from,
            }
        };
        let modules =
            (subdirs.iter()).position(|(path, _)| path.file_name() == Some(MODULES.as_ref()));
        let modules = modules.map(|at| subdirs.remove(at));
        // Last pushed, first taken.
        self.steps.extend(subdirs.into_iter().rev().map(enter));
        if is_module {
            let found = ListedModule {
                dir,
                canonical: Arc::clone(&canonical),
                place,
                // Boxed: most places that hold a directory's listing slot hold none.
                listing: listing.map(|mut listing| {
                    listing.anchor = anchor.clone();
                    Box::new(listing.finish())
                }),
                may_give_out,
            };
            match self.held.last_mut() {
                Some(held) if depth >= held.depth + 2 => held.found.push(found),
                _ => self.steps.push(Step::Found(found)),
            }
        }
        self.steps.extend(modules.map(enter));
    }

    /// Leaves a directory the walk is done with, and with everything below it.
    fn leave(&mut self, entered: Entered) {
        let trail = &mut self.trail;
        if let Some(left) = trail.ancestors.pop() {
            trail.ancestor_set.remove(&CleanPath(left));
        }
        if let (true, Some(gitignores)) = (entered.has_gitignore, trail.gitignores.as_mut()) {
            gitignores.leave();
        }
        (trail.visited).insert(CleanPath(entered.canonical), entered.is_module);
        if let Some(held) = entered.holds.then(|| self.held.pop()).flatten() {
            // Last pushed, first taken: in the order found.
            self.steps
                .extend(held.found.into_iter().rev().map(Step::Found));
        }
    }
}

/// Where the standard module structure keeps nested modules (see [`Walk`]).
const MODULES: &str = "modules";

/// How many git-ignored configuration files of one directory the run names, each in a notice of
/// its own; one more notice counts the others.
const IGNORED_FILES_NAMED: usize = 5;

/// Whether `dir` is a nested module: a directory of a `modules` directory, where the standard
/// module structure keeps the modules that the directory holding it, its examples and its
/// other nested modules call (see [`Walk`]).
pub(crate) fn is_nested_module(dir: &Path) -> bool {
    (dir.parent()).is_some_and(|parent| parent.file_name() == Some(MODULES.as_ref()))
}

/// An entry of a directory: its name (shown lossily), path and kind.
type DirEntry = (String, PathBuf, Kind);

/// The Terragrunt units found, each with its canonical path if the walk knows it.
type Units = BTreeMap<PathBuf, Option<Arc<Path>>>;

/// The entries of `dir`, opened as `handle`, in the order of their paths, and its listing: none
/// if an entry could not be read, so that the check of the directory reads it again. `None`
/// if the directory cannot be read; the problems are `problems`.
fn read_entries(
    dir: &Path,
    handle: &DirHandle,
    problems: &mut Vec<ReadProblem>,
) -> Option<(Vec<DirEntry>, Option<Listing>)> {
    let entries = match handle.entries() {
        Ok(entries) => entries,
        Err(error) => {
            problems.push(unreadable(dir, DirectoryStep::List, &error));
            return None;
        }
    };
    let mut found: Vec<(OsString, Kind)> = Vec::new();
    // The configuration files, as the check of a module directory lists them (every entry,
    // ignored or not).
    let mut listing = Some(Listing::default());
    for entry in entries {
        match entry {
            Ok(entry) => {
                if let Some(listing) = listing.as_mut() {
                    listing.add(dir, &entry.name, entry.kind);
                }
                found.push((entry.name, Kind::of(entry.kind)));
            }
            Err(error) => {
                listing = None;
                problems.push(unreadable(dir, DirectoryStep::ListEntry, &error));
            }
        }
    }
    // By path, not by the name shown: a name that is not UTF-8 is shown lossily, out of the
    // order of the bytes that paths sort by (and that a `Walk` gives directories out in). The
    // paths share `dir`, so their names' bytes order them alike; sorting the names before they
    // are joined compares neither `dir` (long in a deep chain) nor paths component by component.
    found.sort_unstable_by(|a, b| a.0.as_encoded_bytes().cmp(b.0.as_encoded_bytes()));
    let names = (found.into_iter())
        .map(|(name, kind)| (name.to_string_lossy().into_owned(), dir.join(&name), kind))
        .collect();
    Some((names, listing))
}

/// The module directories a discovery finds, as a map of directory to [`Walked`] would hold
/// them after the same inserts, kept as a list of the inserts: a walk finds directories mostly
/// in sorted order (depth first, each directory's entries by name), so sorting them at the end
/// is about one comparison per directory, where a map compared paths, component by component,
/// at each level of its tree for every insert.
#[derive(Default)]
struct Found {
    inserts: Vec<(Arc<Path>, Insert)>,
}

enum Insert {
    /// The value, replacing any before.
    Set(Walked),
    /// A value with nothing known, unless there is one already.
    Default,
    /// A directory the walk entered: set when it turns out to be a module directory.
    Reserved,
}

impl Found {
    fn set(&mut self, dir: Arc<Path>, walked: Walked) {
        self.inserts.push((dir, Insert::Set(walked)));
    }

    fn or_default(&mut self, dir: PathBuf) {
        self.inserts.push((Arc::from(dir), Insert::Default));
    }

    /// A place for `dir`, in the order it was entered, for [`Found::fill`].
    fn reserve(&mut self, dir: Arc<Path>) -> usize {
        self.inserts.push((dir, Insert::Reserved));
        self.inserts.len() - 1
    }

    fn fill(&mut self, place: usize, walked: Walked) {
        self.inserts[place].1 = Insert::Set(walked);
    }

    /// Each directory once, in sorted order, with what the last of its inserts left.
    fn into_sorted(self) -> Vec<(Arc<Path>, Walked)> {
        let mut inserts = self.inserts;
        inserts.retain(|(_, insert)| !matches!(insert, Insert::Reserved));
        if !inserts.is_sorted_by(|(a, _), (b, _)| a < b) {
            // Stable: a directory's inserts stay in the order they were made.
            inserts.sort_by(|(a, _), (b, _)| a.cmp(b));
        }
        let mut sorted: Vec<(Arc<Path>, Walked)> = Vec::with_capacity(inserts.len());
        for (dir, insert) in inserts {
            // `cmp`, not `==`, which compares the components from the end: a path with the one
            // before as its prefix (a deep chain's) would be read whole, component by
            // component, where `cmp` skips the common bytes at once.
            let same = sorted
                .last()
                .is_some_and(|(last, _)| last.cmp(&dir).is_eq());
            match (insert, same) {
                (Insert::Set(walked), true) => {
                    if let Some(last) = sorted.last_mut() {
                        last.1 = walked;
                    }
                }
                (Insert::Set(walked), false) => sorted.push((dir, walked)),
                (Insert::Default, false) => sorted.push((dir, Walked::default())),
                (Insert::Default | Insert::Reserved, _) => {}
            }
        }
        sorted
    }
}

/// What the walk knows of a module directory: its canonical path, and its listing.
#[derive(Debug, Default)]
struct Walked {
    canonical: Option<Arc<Path>>,
    listing: DirListing,
}

/// What the walk kept of a module directory's listing.
#[derive(Debug, Default)]
pub(crate) enum DirListing {
    /// What it listed there: the check need not read the directory again.
    Listed(Box<Listing>),
    /// Given out with its listing, as the walk's `index`-th directory (see [`FoundDir`]).
    GivenOut(usize),
    /// Not listed: named by a file argument, reached again by another path, or an entry of it
    /// could not be read. The check lists it.
    #[default]
    NotListed,
}

impl From<Option<Box<Listing>>> for DirListing {
    fn from(listing: Option<Box<Listing>>) -> DirListing {
        listing.map_or(DirListing::NotListed, DirListing::Listed)
    }
}

/// What a directory entry is, from the directory listing itself (`d_type`): no `stat` per
/// entry, except to follow a symlink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Directory,
    /// A symlink, or an entry whose type the listing does not give: followed with `stat`.
    Followed,
    Other,
}

impl Kind {
    fn of(kind: EntryKind) -> Kind {
        match kind {
            EntryKind::Directory => Kind::Directory,
            EntryKind::Link => Kind::Followed,
            EntryKind::Other => Kind::Other,
        }
    }
}

fn unreadable(path: &Path, step: DirectoryStep, error: &std::io::Error) -> ReadProblem {
    let (path, error) = (display_path(path), error.to_string());
    ReadProblem::Directory { path, step, error }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn tree(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        for file in files {
            let path = dir.path().join(file);
            fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            fs::write(path, "").expect("write");
        }
        dir
    }

    fn rel(root: &Path, dirs: &[impl AsRef<Path>]) -> Vec<String> {
        (dirs.iter().map(AsRef::as_ref))
            .map(|d| display_path(d.strip_prefix(root).unwrap_or(d)))
            .collect()
    }

    /// Each directory of a chain deeper than anchors are apart is listed with an anchor at
    /// most that many levels above it, from which its files read as by their paths.
    #[test]
    fn a_deep_chain_reads_each_file_from_a_near_anchor() {
        let depth = 2 * ANCHOR_EVERY + 3;
        let root = tempfile::tempdir().expect("tempdir");
        let mut dir = root.path().to_path_buf();
        for level in 0..depth {
            dir.push("d");
            fs::create_dir(&dir).expect("mkdir");
            fs::write(dir.join("main.tf"), format!("# {level}\n")).expect("write");
        }
        let paths = [root.path().to_path_buf()];
        let excludes = Excludes::default();
        let found: Vec<FoundDir> = Walk::new(&paths, &excludes, false).collect();
        let found = if found.is_empty() {
            // The temporary directory's path holds a link (macOS): nothing is given out.
            let discovery = discover(&paths, &excludes, false);
            let listings = discovery.listings.into_iter();
            (discovery.dirs.into_iter().zip(listings).enumerate())
                .filter_map(|(index, (dir, listing))| match listing {
                    DirListing::Listed(listing) => Some(FoundDir {
                        canonical: Arc::clone(&dir),
                        dir,
                        listing: Some(listing),
                        index,
                    }),
                    _ => None,
                })
                .collect()
        } else {
            found
        };
        assert_eq!(found.len(), depth);
        for dir in found {
            let anchor = (dir.listing.and_then(|l| l.anchor)).expect("an anchor");
            assert!(anchor.depth() < ANCHOR_EVERY, "{}", anchor.depth());
            let mut file = (anchor.open_file("main.tf".as_ref(), Links::Refuse)).expect("open");
            let mut text = String::new();
            std::io::Read::read_to_string(&mut file, &mut text).expect("read");
            let by_path = crate::input::read::read_bytes(&dir.dir.join("main.tf"), u64::MAX);
            assert_eq!(text.as_bytes(), by_path.expect("read"));
        }
    }

    /// The inserts leave what a map would hold after them, in sorted order, however they came.
    #[test]
    fn found_directories_are_what_a_map_would_hold() {
        let path = |path: &str| Arc::from(Path::new(path));
        let walked = |canonical: &str| Walked {
            canonical: Some(path(canonical)),
            listing: DirListing::NotListed,
        };
        let mut found = Found::default();
        let a = found.reserve(path("a"));
        let a_sub = found.reserve(path("a/sub"));
        found.fill(a_sub, walked("1"));
        let _not_a_module = found.reserve(path("a/x"));
        found.fill(a, walked("2"));
        found.or_default("b".into());
        found.set(path("b"), walked("3"));
        found.or_default("b".into());
        found.set(path("a-b"), walked("4"));
        found.or_default("a".into());
        found.or_default("c".into());
        let sorted: Vec<(String, Option<PathBuf>)> = (found.into_sorted().into_iter())
            .map(|(dir, walked)| {
                (
                    display_path(&dir),
                    walked.canonical.map(|c| c.to_path_buf()),
                )
            })
            .collect();
        let expected = [
            ("a", Some("2")),
            ("a/sub", Some("1")),
            ("a-b", Some("4")),
            ("b", Some("3")),
            ("c", None),
        ]
        .map(|(dir, canonical)| (dir.to_string(), canonical.map(PathBuf::from)));
        assert_eq!(sorted, expected);
    }

    #[test]
    fn finds_module_dirs_recursively_sorted_skipping_hidden() {
        let t = tree(&[
            "b/main.tf",
            "a/x.tofu.json",
            "a/sub/override.tf",
            "a/sub/deeper/README.md",
            ".terraform/modules/m/main.tf",
            ".git/x.tf",
            "c/.hidden/main.tf",
            "c/notes.tf.bak",
        ]);
        let found = discover(&[t.path().to_path_buf()], &Excludes::default(), true);
        assert_eq!(rel(t.path(), &found.dirs), ["a", "a/sub", "b"]);
        assert!(found.problems.is_empty());
    }

    #[test]
    fn file_argument_means_its_directory_even_when_deleted() {
        let t = tree(&["m/main.tf", "m/variables.tf"]);
        let paths = [
            t.path().join("m/main.tf"),
            t.path().join("m/variables.tf"),
            t.path().join("m/gone.tf"),
        ];
        let found = discover(&paths, &Excludes::default(), true);
        assert_eq!(rel(t.path(), &found.dirs), ["m"]);
        assert!(found.missing.is_empty());
        let found = discover(&[t.path().join("nope")], &Excludes::default(), true);
        assert_eq!(found.missing.len(), 1);
    }

    #[test]
    fn exclude_globs_do_not_cross_separators_with_single_star() {
        let t = tree(&[
            "examples/a/main.tf",
            "modules/x/main.tf",
            "modules/x/test/main.tf",
        ]);
        let root = t.path().to_path_buf();
        let found = discover(
            std::slice::from_ref(&root),
            &Excludes::given(&["examples".into()]).expect("glob"),
            true,
        );
        assert_eq!(rel(t.path(), &found.dirs), ["modules/x", "modules/x/test"]);
        let found = discover(
            std::slice::from_ref(&root),
            &Excludes::given(&["*/test".into()]).expect("glob"),
            true,
        );
        assert_eq!(
            rel(t.path(), &found.dirs),
            ["examples/a", "modules/x", "modules/x/test"]
        );
        let found = discover(
            &[root],
            &Excludes::given(&["**/test".into()]).expect("glob"),
            true,
        );
        assert_eq!(rel(t.path(), &found.dirs), ["examples/a", "modules/x"]);
    }

    #[cfg(unix)]
    #[test]
    fn symlink_loop_is_reported_not_followed_forever() {
        let t = tree(&["a/main.tf"]);
        std::os::unix::fs::symlink(t.path().join("a"), t.path().join("a/loop")).expect("symlink");
        let found = discover(&[t.path().to_path_buf()], &Excludes::default(), true);
        assert_eq!(rel(t.path(), &found.dirs), ["a"]);
        assert!(found.problems.is_empty(), "{:?}", found.problems);
        assert_eq!(found.notes.len(), 1);
        assert!(
            found.notes[0].contains("a/loop: a symlink back to"),
            "{:?}",
            found.notes
        );
    }

    #[test]
    fn each_module_directory_comes_with_the_walks_listing_of_it() {
        let t = tree(&[
            "a/main.tf",
            "b/y.tf",
            "b/x.tofu",
            "b/README.md",
            "c/notes.md",
        ]);
        let found = discover(&[t.path().to_path_buf()], &Excludes::default(), true);
        assert_eq!(rel(t.path(), &found.dirs), ["a", "b"]);
        let names: Vec<Vec<String>> = (found.listings.iter())
            .map(|listing| {
                let DirListing::Listed(listing) = listing else {
                    panic!("not listed by the walk: {listing:?}");
                };
                let mut names: Vec<String> = listing.names.iter().map(|n| n.name.clone()).collect();
                names.sort();
                names
            })
            .collect();
        assert_eq!(names, [vec!["main.tf"], vec!["x.tofu", "y.tf"]]);
        // A directory named by a file argument is listed when it is checked.
        let found = discover(&[t.path().join("a/main.tf")], &Excludes::default(), true);
        assert_eq!(found.listings.len(), 1);
        assert!(matches!(found.listings[..], [DirListing::NotListed]));
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_reached_twice_is_found_once_with_a_note() {
        let t = tree(&["a/main.tf", "a/terragrunt.hcl"]);
        fs::create_dir(t.path().join("b")).expect("mkdir");
        std::os::unix::fs::symlink(t.path().join("a"), t.path().join("b/link")).expect("symlink");
        let found = discover(&[t.path().to_path_buf()], &Excludes::default(), true);
        assert_eq!(rel(t.path(), &found.dirs), ["a"]);
        assert_eq!(rel(t.path(), &found.terragrunt), ["a/terragrunt.hcl"]);
        let notes: Vec<String> = found
            .notes
            .iter()
            .map(|n| n.replace(&display_path(t.path()), "ROOT"))
            .collect();
        // The directory is walked once, so its Terragrunt unit is met once: one note.
        assert_eq!(
            notes,
            ["ROOT/b/link: the same directory as ROOT/a, checked once"]
        );
    }

    #[test]
    fn finds_terragrunt_units_but_not_as_modules() {
        let t = tree(&[
            "live/prod/app/terragrunt.hcl",
            "live/prod/db/terragrunt.hcl.json",
            "live/prod/env.hcl",
            "live/root.hcl",
            "live/.terragrunt-cache/x/terragrunt.hcl",
            "live/stack/terragrunt.stack.hcl",
            "live/stack/.terragrunt-stack/app/terragrunt.hcl",
            "live/stack/.terragrunt-stack/inner/.terragrunt-stack/db/terragrunt.hcl",
            "modules/vpc/main.tf",
        ]);
        let found = discover(&[t.path().to_path_buf()], &Excludes::default(), true);
        assert_eq!(rel(t.path(), &found.dirs), ["modules/vpc"]);
        assert_eq!(
            rel(t.path(), &found.terragrunt),
            [
                "live/prod/app/terragrunt.hcl",
                "live/prod/db/terragrunt.hcl.json",
                "live/stack/.terragrunt-stack/app/terragrunt.hcl",
                "live/stack/.terragrunt-stack/inner/.terragrunt-stack/db/terragrunt.hcl",
                "live/stack/terragrunt.stack.hcl"
            ]
        );
        let unit = t.path().join("live/prod/app/terragrunt.hcl");
        let found = discover(std::slice::from_ref(&unit), &Excludes::default(), true);
        assert_eq!(found.terragrunt, [unit]);
        let deleted = discover(
            &[t.path().join("live/terragrunt.hcl")],
            &Excludes::default(),
            true,
        );
        assert!(deleted.missing.is_empty() && deleted.terragrunt.is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_unit_reached_through_a_symlink_is_checked_once_at_its_real_path() {
        // The walk knows the canonical path of a real unit file and resolves a symlinked one:
        // both name the same file, whichever the walk meets first.
        for (real, link) in [("a", "b"), ("z", "b")] {
            let t = tree(&[&format!("live/{real}/terragrunt.hcl")]);
            let root = t.path().canonicalize().expect("canonical");
            std::fs::create_dir(root.join("live").join(link)).expect("mkdir");
            std::os::unix::fs::symlink(
                format!("../{real}/terragrunt.hcl"),
                root.join(format!("live/{link}/terragrunt.hcl")),
            )
            .expect("symlink");
            let found = discover(std::slice::from_ref(&root), &Excludes::default(), true);
            assert_eq!(
                rel(&root, &found.terragrunt),
                [format!("live/{real}/terragrunt.hcl")]
            );
            let notes: Vec<String> = (found.notes.iter())
                .map(|n| n.replace(&display_path(&root), "ROOT"))
                .collect();
            assert_eq!(
                notes,
                [format!(
                    "ROOT/live/{link}/terragrunt.hcl: the same file as ROOT/live/{real}/terragrunt.hcl, checked once"
                )]
            );
        }
    }

    #[test]
    fn invalid_glob_is_an_error() {
        assert!(Excludes::given(&["a[".into()]).is_err());
    }

    /// Two links per level to the next level's directory: 2^20 paths, 21 real directories.
    #[cfg(unix)]
    #[test]
    fn symlink_diamond_walks_each_real_directory_once() {
        const LEVELS: usize = 20;
        let t = tree(&[]);
        let level = |n: usize| t.path().join(format!("level{n}"));
        for n in 0..=LEVELS {
            fs::create_dir_all(level(n)).expect("mkdir");
            fs::write(level(n).join("main.tf"), "").expect("write");
            if n > 0 {
                for link in ["left", "right"] {
                    std::os::unix::fs::symlink(level(n), level(n - 1).join(link)).expect("link");
                }
            }
        }
        let start = std::time::Instant::now();
        let found = discover(&[t.path().to_path_buf()], &Excludes::default(), true);
        let elapsed = start.elapsed();
        assert_eq!(
            found.dirs.len(),
            LEVELS + 1,
            "{:?}",
            rel(t.path(), &found.dirs)
        );
        assert!(found.problems.is_empty());
        assert!(
            elapsed < std::time::Duration::from_secs(1),
            "took {elapsed:?}"
        );
    }

    /// Walks `given` to the end, as a run does: each directory given out (shown relative to
    /// `root`, and whether it came with a listing), and the discovery.
    fn walk_to_the_end(root: &Path, given: &[PathBuf]) -> (Vec<(String, bool)>, Discovery) {
        let exclude = Excludes::default();
        let mut walk = Walk::new(given, &exclude, true);
        let given_out = (&mut walk)
            .enumerate()
            .map(|(n, found)| {
                assert_eq!(found.index, n);
                (rel(root, &[&found.dir]).remove(0), found.listing.is_some())
            })
            .collect();
        (given_out, walk.finish())
    }

    /// How the discovery lists each directory's listing.
    fn listings(found: &Discovery) -> Vec<String> {
        (found.listings.iter())
            .map(|listing| match listing {
                DirListing::Listed(_) => "listed".to_string(),
                DirListing::GivenOut(n) => format!("given out {n}"),
                DirListing::NotListed => "not listed".to_string(),
            })
            .collect()
    }

    /// Units reached through a symlinked directory or a symlinked unit file are listed once,
    /// at their real paths, in sorted order.
    #[cfg(unix)]
    #[test]
    fn units_reached_through_symlinks_are_listed_once_in_sorted_order() {
        let t = tree(&[
            "live/a/terragrunt.hcl",
            "live/b/terragrunt.hcl",
            "live/b/c/terragrunt.hcl",
            "live/root.hcl",
        ]);
        let root = t.path().canonicalize().expect("canonical");
        let link = |to: &str, at: &str| {
            std::os::unix::fs::symlink(root.join(to), root.join(at)).expect("symlink");
        };
        link("live/b", "live/l");
        std::fs::create_dir(root.join("live/d")).expect("mkdir");
        link("live/a/terragrunt.hcl", "live/d/terragrunt.hcl");
        let found = discover(std::slice::from_ref(&root), &Excludes::default(), true);
        assert_eq!(
            rel(&root, &found.terragrunt),
            [
                "live/a/terragrunt.hcl",
                "live/b/c/terragrunt.hcl",
                "live/b/terragrunt.hcl"
            ]
        );
        let found = discover(
            &[root.join("live/a"), root.join("live/b")],
            &Excludes::default(),
            true,
        );
        assert_eq!(found.terragrunt.len(), 3);
    }

    /// The walk gives out the module directories it reaches without a symlink, in sorted order,
    /// each before those below it, with their listings; the discovery lists them as given out,
    /// under the index they were given out with. The others (and every one of a run of several
    /// arguments) are only in the discovery.
    #[cfg(unix)]
    #[test]
    fn the_walk_gives_out_the_real_module_directories_in_order() {
        let t = tree(&[
            "a/main.tf",
            "a/examples/e/main.tf",
            "a/templates/x.tpl",
            "b/c/main.tf",
            "m/main.tf",
            "n/main.tf",
            "n/README.md",
        ]);
        // Through `l`, `m` is walked first; then `m` itself is the same directory, kept.
        std::os::unix::fs::symlink(t.path().join("m"), t.path().join("l")).expect("symlink");
        let root = t.path().canonicalize().expect("canonical");
        let (given_out, found) = walk_to_the_end(&root, std::slice::from_ref(&root));
        assert_eq!(
            rel(&root, &found.dirs),
            ["a", "a/examples/e", "b/c", "m", "n"]
        );
        let given_out: Vec<(&str, bool)> = (given_out.iter())
            .map(|(dir, listed)| (dir.as_str(), *listed))
            .collect();
        assert_eq!(
            given_out,
            [
                ("a", true),
                ("a/examples/e", true),
                ("b/c", true),
                ("n", true)
            ]
        );
        // `m` was listed under the name `l`, not its own.
        assert_eq!(
            listings(&found),
            [
                "given out 0",
                "given out 1",
                "given out 2",
                "not listed",
                "given out 3"
            ]
        );

        let (given_out, found) = walk_to_the_end(Path::new(""), &[root.join("a"), root.join("n")]);
        assert!(given_out.is_empty(), "{given_out:?}");
        assert_eq!(listings(&found), ["listed", "listed", "listed"]);
    }

    /// A `modules` sub-directory is walked first, and its module directories are given out
    /// before the directory holding it, which calls them; its other sub-directories (the
    /// examples, which call it) after it. The examples of a nested module are given out after
    /// every nested module of the same `modules` directory. The discovery lists every directory
    /// in sorted order.
    #[test]
    fn nested_modules_are_given_out_before_their_callers() {
        let t = tree(&[
            "main.tf",
            "a/main.tf",
            "examples/e/main.tf",
            "modules/x/main.tf",
            "modules/x/examples/e/main.tf",
            "modules/x/modules/inner/main.tf",
            "modules/y/main.tf",
            "z/modules.tf",
        ]);
        let root = t.path().canonicalize().expect("canonical");
        let (given_out, found) = walk_to_the_end(&root, std::slice::from_ref(&root));
        let given_out: Vec<&str> = given_out.iter().map(|(dir, _)| dir.as_str()).collect();
        assert_eq!(
            given_out,
            [
                "modules/x/modules/inner",
                "modules/x",
                "modules/y",
                "modules/x/examples/e",
                "",
                "a",
                "examples/e",
                "z"
            ]
        );
        assert_eq!(
            rel(&root, &found.dirs),
            [
                "",
                "a",
                "examples/e",
                "modules/x",
                "modules/x/examples/e",
                "modules/x/modules/inner",
                "modules/y",
                "z"
            ]
        );
        assert_eq!(
            listings(&found),
            [
                "given out 4",
                "given out 5",
                "given out 6",
                "given out 1",
                "given out 3",
                "given out 0",
                "given out 2",
                "given out 7"
            ]
        );
    }

    #[test]
    fn nested_modules_are_the_directories_of_a_modules_directory() {
        for (dir, nested) in [
            ("modules/vpc", true),
            ("./a/modules/vpc", true),
            ("modules", false),
            ("modules/vpc/examples/e", false),
            ("vpc", false),
            (".", false),
        ] {
            assert_eq!(is_nested_module(Path::new(dir)), nested, "{dir}");
        }
    }

    /// A walk finished part way gives nothing more out: the directories it has not given out
    /// keep their listings in the discovery.
    #[test]
    fn a_walk_finished_part_way_lists_the_rest() {
        let t = tree(&["a/main.tf", "b/main.tf", "c/main.tf"]);
        let root = t.path().canonicalize().expect("canonical");
        let given = [root.clone()];
        let exclude = Excludes::default();
        let mut walk = Walk::new(&given, &exclude, true);
        let first = walk.next().expect("a directory");
        assert_eq!(rel(&root, &[&first.dir]), ["a"]);
        let found = walk.finish();
        assert_eq!(rel(&root, &found.dirs), ["a", "b", "c"]);
        assert_eq!(listings(&found), ["given out 0", "listed", "listed"]);
    }

    /// `link/..` folds to the directory holding `link`, not to where `link` leads: below such
    /// a root, a directory's path is not its canonical path, and `once_each` may keep another
    /// path of it. Nothing is given out; everything is found.
    #[cfg(unix)]
    #[test]
    fn nothing_is_given_out_below_a_root_that_folds_elsewhere() {
        let t = tree(&["real/a/main.tf", "real/inner/x.txt", "other/x.txt"]);
        let root = t.path().canonicalize().expect("canonical");
        let link = |to: &str, at: &str| {
            std::os::unix::fs::symlink(root.join(to), root.join(at)).expect("symlink");
        };
        link("real/inner", "link");
        link("other", "real/real");
        link("real/a", "other/a");
        let (given_out, found) = walk_to_the_end(&root, &[root.join("link/..")]);
        assert_eq!(found.dirs.len(), 1, "{:?}", found.dirs);
        assert!(given_out.is_empty(), "{given_out:?}");
    }

    /// Directories are given out in the order of their paths (bytes), whatever their names
    /// show as: `\xf5` shows as U+FFFD, which sorts before U+10000 where its byte sorts after.
    #[cfg(target_os = "linux")]
    #[test]
    fn directories_are_given_out_in_the_order_of_paths_with_names_not_utf8() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let t = tree(&[]);
        let root = t.path().canonicalize().expect("canonical");
        for name in [&b"\xf5"[..], "\u{10000}".as_bytes()] {
            let dir = root.join(OsStr::from_bytes(name));
            fs::create_dir(&dir).expect("mkdir");
            fs::write(dir.join("main.tf"), "").expect("write");
        }
        let (given_out, found) = walk_to_the_end(&root, std::slice::from_ref(&root));
        let given_out: Vec<String> = given_out.into_iter().map(|(dir, _)| dir).collect();
        assert_eq!(given_out, rel(&root, &found.dirs));
        assert_eq!(given_out.len(), 2);
    }

    #[test]
    fn repeated_globs_are_compiled_once() {
        let globs = vec!["examples/**".to_string(); 1000];
        // Each glob compiles to two patterns: itself and everything below it.
        assert_eq!(exclude_set(&globs).expect("glob").0.len(), 2);
    }
}
