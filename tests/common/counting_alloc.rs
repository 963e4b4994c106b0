//! The system allocator, counting what is asked of it, for tests that judge growth by counts
//! rather than by a clock (`tests/linear_work.rs`: calls and bytes asked for;
//! `tests/run_memory.rs`: bytes live and their peak). A test installs it with
//! `#[global_allocator] static ALLOCATOR: Counting = Counting;`.
//!
//! Test code only; the product has no allocator code (see CONTRIBUTING.md, "Platform code").

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

pub struct Counting;

static CALLS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);
static LIVE: AtomicI64 = AtomicI64::new(0);
static PEAK: AtomicI64 = AtomicI64::new(0);

/// The allocation calls and the bytes they asked for, since the start of the test binary.
#[allow(
    dead_code,
    reason = "each test binary that includes this file reads what it needs"
)]
pub fn asked() -> (u64, u64) {
    (CALLS.load(Ordering::Relaxed), BYTES.load(Ordering::Relaxed))
}

/// The bytes allocated and not yet freed.
#[allow(
    dead_code,
    reason = "each test binary that includes this file reads what it needs"
)]
pub fn live() -> i64 {
    LIVE.load(Ordering::Relaxed)
}

/// The highest [`live`] since the last [`reset_peak`].
#[allow(
    dead_code,
    reason = "each test binary that includes this file reads what it needs"
)]
pub fn peak() -> i64 {
    PEAK.load(Ordering::Relaxed)
}

/// Starts the peak again from what is live now.
#[allow(
    dead_code,
    reason = "each test binary that includes this file reads what it needs"
)]
pub fn reset_peak() {
    PEAK.store(live(), Ordering::Relaxed);
}

fn grow(size: usize) {
    CALLS.fetch_add(1, Ordering::Relaxed);
    BYTES.fetch_add(size as u64, Ordering::Relaxed);
    let live = LIVE.fetch_add(size as i64, Ordering::Relaxed) + size as i64;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

fn shrink(size: usize) {
    LIVE.fetch_sub(size as i64, Ordering::Relaxed);
}

#[expect(
    unsafe_code,
    reason = "counting allocations needs a GlobalAlloc, an unsafe trait"
)]
// SAFETY: every call is handed unchanged to the system allocator, which upholds the trait's
// contract; this one only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        // SAFETY: the caller's contract for `alloc_zeroed` is passed on unchanged.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrink(layout.size());
        // SAFETY: `ptr` was allocated by `System` with `layout` (every allocation goes there).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        shrink(layout.size());
        grow(new_size);
        // SAFETY: `ptr` was allocated by `System` with `layout`; the caller's contract for
        // `realloc` is passed on unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
