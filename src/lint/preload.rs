//! Terragrunt units read and parsed while the walk that finds them goes on.
//!
//! A tree is loaded once the walk is done: loading starts from every unit. In a tree of 10,000
//! units the walk was 90 ms of a 310 ms run on two threads, one thread's work (a directory
//! read per unit), and the other threads had nothing to do meanwhile. So the run makes a job of
//! each unit the walk finds (read it, parse it, extract its references), which the other
//! threads take while the walk goes on; [`Preload::finish`] does what is left once the walk is
//! done, and [`Tree::load`](crate::terragrunt::Tree::load) starts from what it gives instead
//! of reading the units (that run: 273 ms, medians of 15 alternating runs).
//!
//! The unit found n-th is parsed as file n, and `Tree::load` records the units' sources first,
//! in that order. The walk is one thread's and its order is fixed, so the ids are the same
//! from run to run (and no output depends on them: findings are sorted by path and position).
//! A unit the walk tells of that the run then drops (a symlink to another unit) keeps its
//! source, which no file of the tree names.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use rayon::prelude::*;

use crate::input::overlay::Overlay;
use crate::source::FileId;
use crate::terragrunt::paths::{Displayer, absolute};
use crate::terragrunt::{Preparsed, load_file};

/// The units of one walk, in the order found, and how to read them.
pub(crate) struct Preload<'a> {
    /// Shows paths as the tree's load does.
    displayer: Displayer,
    max_bytes: u64,
    overlay: &'a Overlay,
    units: Mutex<Vec<Arc<Unit>>>,
}

/// A unit the walk found.
pub(crate) struct Unit {
    /// As the walk found it.
    path: PathBuf,
    id: FileId,
    state: Mutex<State>,
    /// Told when the unit leaves [`State::Parsing`].
    done: Condvar,
}

enum State {
    NotStarted,
    Parsing,
    Parsed(Box<Preparsed>),
    /// Parsing it panicked: the tree's load raises the panic again, and the run reports the
    /// tree's crash as it would have if the load had parsed it.
    Panicked(Box<dyn Any + Send>),
    /// [`Preload::finish`] has taken it.
    Taken,
}

impl<'a> Preload<'a> {
    /// Units read as a check of `given` (the command-line paths) reads them: files at most
    /// `max_bytes` long, overlaid ones from `overlay`.
    pub(crate) fn new(given: &[PathBuf], max_bytes: u64, overlay: &'a Overlay) -> Preload<'a> {
        Preload {
            displayer: Displayer::new(given),
            max_bytes,
            overlay,
            units: Mutex::default(),
        }
    }

    /// Records `unit` as the next unit found. Parsing it ([`Preload::parse`]) is the caller's
    /// job.
    pub(crate) fn add(&self, unit: &Path) -> Arc<Unit> {
        let mut units = lock(&self.units);
        let unit = Arc::new(Unit {
            path: unit.to_path_buf(),
            id: FileId(units.len() as u32),
            state: Mutex::new(State::NotStarted),
            done: Condvar::new(),
        });
        units.push(Arc::clone(&unit));
        unit
    }

    /// Every unit added, parsed, in the order added: those no job has started on are parsed
    /// here, in parallel, and those a job is parsing are waited for. Raises the panic of a
    /// parse that panicked.
    pub(crate) fn finish(&self) -> Vec<Preparsed> {
        let units = std::mem::take(&mut *lock(&self.units));
        (units.par_iter()).for_each(|unit| self.parse(unit));
        units.iter().map(|unit| unit.take()).collect()
    }

    /// Reads and parses `unit`, unless a job has started on it already.
    pub(crate) fn parse(&self, unit: &Unit) {
        {
            let mut state = lock(&unit.state);
            if !matches!(*state, State::NotStarted) {
                return;
            }
            *state = State::Parsing;
        }
        let parse = || {
            let path = absolute(&unit.path);
            let shown = self.displayer.path(&path);
            let (read, extracted) = load_file(&path, unit.id, self.max_bytes, self.overlay);
            Preparsed {
                path,
                shown,
                read,
                extracted,
            }
        };
        // A job's panic would end the whole run (rayon raises it where the jobs are waited
        // for), not just the tree's check.
        *lock(&unit.state) = match catch_unwind(AssertUnwindSafe(parse)) {
            Ok(parsed) => State::Parsed(Box::new(parsed)),
            Err(panic) => State::Panicked(panic),
        };
        unit.done.notify_all();
    }
}

impl Unit {
    /// The parsed unit, waiting for the job parsing it. Called once per unit, after
    /// [`Preload::parse`].
    fn take(&self) -> Preparsed {
        let mut state = lock(&self.state);
        loop {
            match std::mem::replace(&mut *state, State::Taken) {
                State::Parsed(parsed) => return *parsed,
                State::Panicked(panic) => resume_unwind(panic),
                State::Parsing => {
                    // Another thread is parsing it, and that parse ends without this thread:
                    // a unit is `Parsing` only once its parse has started, and `finish` takes
                    // units only after its own parallel pass, which returns once every job
                    // this thread took up meanwhile (a part of that parse among them) is done.
                    // A parse may wait for parts of itself that other threads took (files of
                    // 16 KiB or more are parsed in parallel), never for this thread.
                    *state = State::Parsing;
                    state = (self.done.wait(state)).unwrap_or_else(PoisonError::into_inner);
                }
                State::NotStarted | State::Taken => {
                    unreachable!(
                        "{} taken before it was parsed, or twice",
                        self.path.display()
                    )
                }
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::read::{DEFAULT_MAX_FILE_BYTES as MAX, INJECT_PANIC, Read};
    use crate::syntax::Parsed;
    use crate::terragrunt::Tree;

    fn write(dir: &Path, path: &str, bytes: &[u8]) -> PathBuf {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(&path, bytes).expect("write");
        path
    }

    /// Every unit comes back in the order added, parsed as the file its place names, with its
    /// references: one a job parsed before `finish` is not read again; the others, readable
    /// or not, `finish` parses.
    #[test]
    fn finish_gives_every_unit_in_order_each_as_the_file_of_its_place() {
        let dir = tempfile::tempdir().expect("tempdir");
        let include = "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n";
        let units = [
            write(dir.path(), "a/terragrunt.hcl", b"locals {\n"),
            write(dir.path(), "b/terragrunt.hcl", include.as_bytes()),
            write(dir.path(), "c/terragrunt.hcl", b"\xff\xfe"),
            dir.path().join("gone/terragrunt.hcl"),
        ];
        let overlay = Overlay::default();
        let preload = Preload::new(&[dir.path().to_path_buf()], MAX, &overlay);
        let added: Vec<Arc<Unit>> = units.iter().map(|unit| preload.add(unit)).collect();
        // As a job would; then the file changes, which a second read would see.
        preload.parse(&added[0]);
        std::fs::write(&units[0], "locals {}\n").expect("write");

        let parsed = preload.finish();
        let paths: Vec<&Path> = parsed.iter().map(|unit| unit.path.as_path()).collect();
        let absolute: Vec<PathBuf> = units.iter().map(|unit| absolute(unit)).collect();
        assert_eq!(
            paths,
            absolute.iter().map(PathBuf::as_path).collect::<Vec<_>>()
        );
        let shown: Vec<&Path> = parsed.iter().map(|unit| unit.shown.as_path()).collect();
        assert_eq!(shown, [&units[0], &units[1], &units[2], &units[3]]);
        match &parsed[0].read {
            Read::Parsed { text, parsed } => {
                assert_eq!(text, "locals {\n");
                assert!(parsed.file.is_err(), "parsed before the file changed");
            }
            _ => panic!("a was read"),
        }
        match &parsed[1].read {
            Read::Parsed {
                parsed: Parsed { file: Ok(file), .. },
                ..
            } => assert_eq!(file.id, FileId(1)),
            _ => panic!("b was parsed"),
        }
        assert_eq!(parsed[1].extracted.references.len(), 1);
        assert!(matches!(parsed[2].read, Read::NotUtf8 { .. }));
        assert!(matches!(parsed[3].read, Read::Unreadable(_)));
        assert!(parsed[3].extracted.references.is_empty());
    }

    /// A parse that panics in its job does not end the job's thread's work: the panic is
    /// raised where the tree is loaded, whose check reports it as the tree's crash.
    #[test]
    fn a_parse_that_panics_is_raised_by_finish() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fine = write(dir.path(), "a/terragrunt.hcl", b"locals {}\n");
        let crashing = write(dir.path(), INJECT_PANIC, b"");
        let overlay = Overlay::default();
        let preload = Preload::new(&[dir.path().to_path_buf()], MAX, &overlay);
        preload.add(&fine);
        let job = catch_unwind(AssertUnwindSafe(|| preload.parse(&preload.add(&crashing))));
        assert!(job.is_ok(), "the job returns");
        let Err(panic) = catch_unwind(AssertUnwindSafe(|| preload.finish())) else {
            panic!("the panic is raised again");
        };
        let message = (panic.downcast_ref::<String>()).map_or("", String::as_str);
        assert!(message.contains("injected panic"), "{message}");
    }

    /// The tree's load takes the units parsed before it instead of reading them again, each
    /// found by its path. (Were the paths to differ, the load would read every unit again: the
    /// same findings, with twice the work.)
    #[test]
    fn the_load_adopts_the_units_parsed_before_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let units = [
            write(dir.path(), "live/a/terragrunt.hcl", b"locals {}\n"),
            write(dir.path(), "live/b/terragrunt.hcl", b"locals {}\n"),
        ];
        let overlay = Overlay::default();
        let given = [dir.path().to_path_buf()];
        let preload = Preload::new(&given, MAX, &overlay);
        for unit in &units {
            preload.add(unit);
        }
        let preparsed = preload.finish();
        // What a second read would find.
        for unit in &units {
            std::fs::write(unit, "locals {\n").expect("write");
        }
        let tree = Tree::load(&units, preparsed, Displayer::new(&given), MAX, &overlay);
        assert_eq!(tree.files.len(), 2);
        for file in &tree.files {
            assert!(file.problems.is_empty(), "{:?}", file.problems);
            assert_eq!(tree.sources.get(file.id).text, "locals {}\n");
        }
    }
}
