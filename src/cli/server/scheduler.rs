//! When checks run: each change of a scope (a module directory, or the Terragrunt tree) is
//! debounced, and the check then runs on a worker thread, never on the thread that reads the
//! client's messages. Every change bumps the scope's generation: a queued check whose
//! generation is no longer current is dropped before it starts, and the result of one that
//! was already running when a newer edit came is dropped when it arrives. (Cancelling a
//! running check would need cancellation points in every stage; a check is short, so it is
//! let finish and its stale result dropped.)

use std::collections::HashMap;
use std::hash::Hash;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};

/// How long a scope must stay unchanged before it is checked.
pub(crate) const DEBOUNCE: Duration = Duration::from_millis(150);

/// A check to run: `work` gives the result.
struct Job<S, T> {
    scope: S,
    generation: u64,
    trigger: PathBuf,
    work: Box<dyn FnOnce() -> T + Send>,
}

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

type Generations<S> = Arc<Mutex<HashMap<S, u64>>>;

/// One job's work, as the worker hands it to the function that runs jobs.
pub(crate) type Work<'a> = dyn FnMut() + Send + 'a;

pub(crate) struct Scheduler<S, T> {
    pending: HashMap<S, Pending>,
    generations: Generations<S>,
    jobs: Option<Sender<Job<S, T>>>,
    /// Finished checks, current or not: see [`Scheduler::is_current`].
    pub(crate) done: Receiver<Done<S, T>>,
    worker: Option<JoinHandle<()>>,
}

impl<S, T> Scheduler<S, T>
where
    S: Clone + Eq + Hash + Send + 'static,
    T: Send + 'static,
{
    /// Starts the worker thread; `run` runs each job's work (inside a thread pool, say).
    pub(crate) fn new(run: impl Fn(&mut Work) + Send + 'static) -> Scheduler<S, T> {
        let (jobs, queue) = crossbeam_channel::unbounded::<Job<S, T>>();
        let (finished, done) = crossbeam_channel::unbounded();
        let generations: Generations<S> = Arc::default();
        let current = Arc::clone(&generations);
        let worker = std::thread::Builder::new()
            .name("tflint-merge-check".into())
            // As the command line's worker threads: parsing is recursive.
            .stack_size(16 * 1024 * 1024)
            .spawn(move || {
                for job in queue {
                    if generation(&current, &job.scope) != job.generation {
                        continue;
                    }
                    let started = Instant::now();
                    let mut work = Some(job.work);
                    let mut result = None;
                    run(&mut || result = work.take().map(|work| work()));
                    let Some(result) = result else { continue };
                    let done = Done {
                        scope: job.scope,
                        generation: job.generation,
                        trigger: job.trigger,
                        result,
                        took: started.elapsed(),
                    };
                    if finished.send(done).is_err() {
                        break;
                    }
                }
            });
        Scheduler {
            pending: HashMap::new(),
            generations,
            jobs: Some(jobs),
            done,
            // Without a worker, nothing is checked; `submit` then drops the jobs.
            worker: worker.ok(),
        }
    }

    /// `scope` changed (because `trigger` did): any check of it under way is stale, and a new
    /// one is due after the debounce.
    pub(crate) fn changed(&mut self, scope: S, trigger: PathBuf, now: Instant) {
        let mut generations = self
            .generations
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *generations.entry(scope.clone()).or_default() += 1;
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
                let generation = generation(&self.generations, &scope);
                Some((scope, generation, pending.trigger))
            })
            .collect()
    }

    /// Queues `work` for `scope` at `generation` (from [`Scheduler::take_due`]).
    pub(crate) fn submit(
        &self,
        (scope, generation, trigger): (S, u64, PathBuf),
        work: impl FnOnce() -> T + Send + 'static,
    ) {
        if let Some(jobs) = &self.jobs {
            let work = Box::new(work);
            // The worker is gone only when it panicked outside a job: nothing to do then.
            let _ = jobs.send(Job {
                scope,
                generation,
                trigger,
                work,
            });
        }
    }

    /// Whether no change came after the check of `done` started.
    pub(crate) fn is_current(&self, done: &Done<S, T>) -> bool {
        !self.pending.contains_key(&done.scope)
            && generation(&self.generations, &done.scope) == done.generation
    }
}

impl<S, T> Drop for Scheduler<S, T> {
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

fn generation<S: Eq + Hash>(generations: &Generations<S>, scope: &S) -> u64 {
    let generations = generations.lock().unwrap_or_else(PoisonError::into_inner);
    generations.get(scope).copied().unwrap_or(0)
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

    #[test]
    fn a_newer_change_makes_results_stale_and_skips_queued_work() {
        let (gate, wait) = crossbeam_channel::bounded::<()>(0);
        let (started, running) = crossbeam_channel::bounded::<()>(1);
        let mut scheduler: Scheduler<&str, u32> = Scheduler::new(inline);
        let start = Instant::now();
        let later = start + DEBOUNCE;
        scheduler.changed("a", "main.tf".into(), start);
        let first = scheduler.take_due(later).remove(0);
        // The first job blocks until the test lets it go; meanwhile a newer edit arrives and a
        // second job for the old generation is queued behind it.
        scheduler.submit(first.clone(), move || {
            let _ = started.send(());
            let _ = wait.recv();
            1
        });
        scheduler.submit(first, || 2);
        running.recv().expect("the first job started");
        scheduler.changed("a", "main.tf".into(), later);
        gate.send(()).expect("the first job is waiting");
        let done = scheduler.done.recv().expect("the first job's result");
        assert_eq!(done.result, 1);
        assert!(!scheduler.is_current(&done), "a newer edit came");
        let second = scheduler.take_due(later + DEBOUNCE).remove(0);
        assert_eq!(second.1, 2);
        scheduler.submit(second, || 3);
        let done = scheduler.done.recv().expect("the newest job's result");
        assert_eq!(done.result, 3, "the stale queued job was skipped");
        assert!(scheduler.is_current(&done));
    }
}
