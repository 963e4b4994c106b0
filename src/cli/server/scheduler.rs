//! When checks run: each change of a scope (a module directory, or the Terragrunt tree) is
//! debounced, and the check then runs on a thread of its own, never on the thread that reads
//! the client's messages nor behind another scope's check: a slow directory delays only
//! itself. Every change bumps the scope's generation and calls off the check of the older one
//! (see [`Cancel`]): a check not yet started is skipped, a running one stops at its next
//! stage, and the result of one that finished all the same is dropped when it arrives.

use std::collections::HashMap;
use std::hash::Hash;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};

use crate::lint::directory::Cancel;

/// How long a scope must stay unchanged before it is checked.
pub(crate) const DEBOUNCE: Duration = Duration::from_millis(150);

/// A check's result, for the generation it was started for.
pub(crate) struct Done<S, T> {
    pub(crate) scope: S,
    pub(crate) generation: u64,
    /// The file whose change started the check.
    pub(crate) trigger: PathBuf,
    pub(crate) result: T,
    pub(crate) took: Duration,
}

struct Pending {
    due: Instant,
    trigger: PathBuf,
}

/// Each scope's generation, and the way to call off the check of that generation.
type Generations<S> = Arc<Mutex<HashMap<S, (u64, Cancel)>>>;

/// One job's work, as a check's thread hands it to the function that runs jobs.
pub(crate) type Work<'a> = dyn FnMut() + Send + 'a;

/// Runs each job's work (inside a thread pool, say).
type Runner = Arc<dyn Fn(&mut Work) + Send + Sync>;

pub(crate) struct Scheduler<S, T> {
    pending: HashMap<S, Pending>,
    generations: Generations<S>,
    run: Runner,
    finished: Sender<Done<S, T>>,
    /// Finished checks, current or not: see [`Scheduler::is_current`].
    pub(crate) done: Receiver<Done<S, T>>,
}

impl<S, T> Scheduler<S, T>
where
    S: Clone + Eq + Hash + Send + 'static,
    T: Send + 'static,
{
    /// A scheduler whose checks `run` runs.
    pub(crate) fn new(run: impl Fn(&mut Work) + Send + Sync + 'static) -> Scheduler<S, T> {
        let (finished, done) = crossbeam_channel::unbounded();
        Scheduler {
            pending: HashMap::new(),
            generations: Arc::default(),
            run: Arc::new(run),
            finished,
            done,
        }
    }

    /// `scope` changed (because `trigger` did): any check of it under way is called off, and a
    /// new one is due after the debounce.
    pub(crate) fn changed(&mut self, scope: S, trigger: PathBuf, now: Instant) {
        let mut generations = self
            .generations
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let (generation, cancel) = generations.entry(scope.clone()).or_default();
        cancel.cancel();
        *generation += 1;
        *cancel = Cancel::default();
        let due = now + DEBOUNCE;
        self.pending.insert(scope, Pending { due, trigger });
    }

    /// When the next pending check is due.
    pub(crate) fn next_due(&self) -> Option<Instant> {
        self.pending.values().map(|p| p.due).min()
    }

    /// Takes the scopes due at `now`, with the generation and the trigger to check them for.
    pub(crate) fn take_due(&mut self, now: Instant) -> Vec<(S, u64, PathBuf)> {
        let due: Vec<S> = (self.pending.iter())
            .filter(|(_, p)| p.due <= now)
            .map(|(scope, _)| scope.clone())
            .collect();
        due.into_iter()
            .filter_map(|scope| {
                let pending = self.pending.remove(&scope)?;
                let generation = current(&self.generations, &scope).0;
                Some((scope, generation, pending.trigger))
            })
            .collect()
    }

    /// Starts `work` for `scope` at `generation` (from [`Scheduler::take_due`]) on a thread of
    /// its own; `work` is given what calls it off, to pass to the check.
    pub(crate) fn submit(
        &self,
        (scope, generation, trigger): (S, u64, PathBuf),
        work: impl FnOnce(Cancel) -> T + Send + 'static,
    ) {
        let (run, finished) = (Arc::clone(&self.run), self.finished.clone());
        let generations = Arc::clone(&self.generations);
        let check = move || {
            let (current, cancel) = current(&generations, &scope);
            if current != generation {
                return;
            }
            let started = Instant::now();
            let mut work = Some(work);
            let mut result = None;
            run(&mut || result = work.take().map(|work| work(cancel.clone())));
            if let Some(result) = result {
                let took = started.elapsed();
                let _ = finished.send(Done {
                    scope,
                    generation,
                    trigger,
                    result,
                    took,
                });
            }
        };
        // As the command line's worker threads: parsing is recursive. Without a thread, the
        // scope is not checked until it changes again.
        let _ = std::thread::Builder::new()
            .name("tflint-merge-check".into())
            .stack_size(16 * 1024 * 1024)
            .spawn(check);
    }

    /// Whether no change came after the check of `done` started.
    pub(crate) fn is_current(&self, done: &Done<S, T>) -> bool {
        !self.pending.contains_key(&done.scope)
            && current(&self.generations, &done.scope).0 == done.generation
    }
}

/// The generation of `scope` and what calls its check off.
fn current<S: Eq + Hash>(generations: &Generations<S>, scope: &S) -> (u64, Cancel) {
    let generations = generations.lock().unwrap_or_else(PoisonError::into_inner);
    generations.get(scope).cloned().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inline(work: &mut Work) {
        work();
    }

    #[test]
    fn changes_are_debounced_per_scope() {
        let mut scheduler: Scheduler<&str, u32> = Scheduler::new(inline);
        let start = Instant::now();
        scheduler.changed("a", "a/main.tf".into(), start);
        scheduler.changed("a", "a/main.tf".into(), start + Duration::from_millis(100));
        scheduler.changed("b", "b/main.tf".into(), start);
        assert_eq!(scheduler.next_due(), Some(start + DEBOUNCE));
        let due: Vec<&str> = (scheduler.take_due(start + DEBOUNCE).into_iter())
            .map(|d| d.0)
            .collect();
        assert_eq!(due, ["b"], "a changed again 100 ms later: not due yet");
        let [a] = scheduler
            .take_due(start + Duration::from_millis(250))
            .try_into()
            .expect("a is due");
        assert_eq!((a.0, a.1), ("a", 2));
        assert_eq!(scheduler.next_due(), None);
    }

    /// A check blocked in one scope delays neither another scope's check nor a newer check
    /// of its own scope; a newer change calls the blocked check off and makes its result
    /// stale; a check whose generation is gone before it starts is skipped.
    #[test]
    fn checks_run_side_by_side_and_a_newer_change_calls_one_off() {
        let (gate, wait) = crossbeam_channel::bounded::<()>(0);
        let (started, running) = crossbeam_channel::bounded::<Cancel>(1);
        let mut scheduler: Scheduler<&str, u32> = Scheduler::new(inline);
        let start = Instant::now();
        let later = start + DEBOUNCE;
        scheduler.changed("a", "a/main.tf".into(), start);
        scheduler.changed("b", "b/main.tf".into(), start);
        let mut due = scheduler.take_due(later);
        due.sort();
        let (first, other) = (due.remove(0), due.remove(0));
        scheduler.submit(first.clone(), move |cancel| {
            let _ = started.send(cancel);
            let _ = wait.recv();
            1
        });
        let cancel = running.recv().expect("the first check started");
        scheduler.submit(other, |_| 2);
        let done = scheduler.done.recv().expect("the other scope's result");
        assert_eq!(
            (done.scope, done.result),
            ("b", 2),
            "not behind the blocked check"
        );

        assert!(!cancel.is_cancelled());
        scheduler.changed("a", "a/main.tf".into(), later);
        assert!(cancel.is_cancelled(), "a newer change calls the check off");
        // A check of the old generation not yet started is skipped.
        scheduler.submit(first, |_| 3);
        let newer = scheduler.take_due(later + DEBOUNCE).remove(0);
        assert_eq!(newer.1, 2);
        scheduler.submit(newer, |cancel| if cancel.is_cancelled() { 0 } else { 4 });
        let done = scheduler.done.recv().expect("the newer check's result");
        assert_eq!(done.result, 4, "not behind the blocked check of its scope");
        assert!(scheduler.is_current(&done));
        gate.send(()).expect("the first check is waiting");
        let done = scheduler.done.recv().expect("the first check's result");
        assert_eq!(done.result, 1);
        assert!(!scheduler.is_current(&done), "a newer change came");
        assert!(
            scheduler.done.try_recv().is_err(),
            "the stale check was skipped"
        );
    }
}
