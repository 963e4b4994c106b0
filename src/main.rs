// glibc's per-thread arenas grow and shrink with mprotect on every directory we parse (a third
// of the run time in `perf`); mimalloc keeps freed pages per thread and reuses them.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

// mimalloc commits the first arena eagerly (`arena_eager_commit`, 2 = on Linux): 11-17 MB of
// resident memory a run does not need (peak RSS of the corpus 32 MB with it, 19.5 MB without).
// The option must be set before mimalloc reserves its first arena, which happens before `main`
// (the runtime allocates), and the `mimalloc` crates offer no build setting for it: so a
// constructor, in an `.init_array` section that runs before the unprioritised one holding
// mimalloc's own. It sets the default only: `MIMALLOC_ARENA_EAGER_COMMIT` still overrides it.
// Linux only: the section is ELF's, and the eager commit is mimalloc's default only on systems
// that overcommit (Linux).
#[cfg(target_os = "linux")]
unsafe extern "C" {
    // mimalloc.h; `libmimalloc-sys` declares it only with its `extended` feature (which needs
    // the `cty` crate for its C types).
    fn mi_option_set_default(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// `mi_option_arena_eager_commit` in mimalloc.h's `mi_option_e`. mimalloc keeps those numbers
/// stable (retired options are renamed `deprecated_*`, not removed); tests/cli.rs checks that
/// the option is the one set (`MIMALLOC_VERBOSE=1` prints it).
#[cfg(target_os = "linux")]
const MI_OPTION_ARENA_EAGER_COMMIT: std::ffi::c_int = 4;

/// `mi_option_purge_delay`, the same way: how long freed memory stays resident before mimalloc
/// gives it back. mimalloc 3 keeps it a second (1000 ms): a run's short-lived peaks (the walk's
/// transient names and paths, each directory's syntax trees) then all count towards its peak
/// RSS (30 MB instead of 23 MB at 20,000 directories); after 3 ms it is reused or returned.
/// 1 ms cost CPU on two threads: each purge is an `madvise` whose TLB flush reaches the other
/// thread's CPU, and each purged page is faulted in again (corpus, `-j 2`: -2.8% CPU and a
/// quarter fewer page faults at 3 ms; peak RSS +0.5 MB, 1.9x the read+parse floor's).
#[cfg(target_os = "linux")]
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

/// `mi_option_arena_purge_mult`: memory given back to mimalloc's arenas (a thread's pages once
/// all their blocks are free) is purged after `purge_delay` times this, 1 ms by default (the
/// default multiplier is 1). At 10 times (measured with a 1 ms delay), the pages one directory
/// frees are mostly still there when the next directories need them: each purge is an
/// `madvise` that makes the other threads' CPUs drop their TLB entries, and each purged page is
/// faulted in again. Corpus: -3% CPU, a third fewer page faults, the `-j 2` speed-up 1.81 ->
/// 1.85, peak RSS +1 MB (1.85x the read+parse floor's).
#[cfg(target_os = "linux")]
const MI_OPTION_ARENA_PURGE_MULT: std::ffi::c_int = 24;

#[cfg(target_os = "linux")]
extern "C" fn configure_allocator() {
    // SAFETY: mi_option_set_default only stores a value in mimalloc's static option table; the
    // option numbers are in range (see above).
    unsafe {
        mi_option_set_default(MI_OPTION_ARENA_EAGER_COMMIT, 0);
        mi_option_set_default(MI_OPTION_PURGE_DELAY, 3);
        mi_option_set_default(MI_OPTION_ARENA_PURGE_MULT, 10);
    }
}

#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array.00100")]
static CONFIGURE_ALLOCATOR: extern "C" fn() = configure_allocator;

fn main() -> std::process::ExitCode {
    let code = tflint_merge::run_cli();
    u8::try_from(code).map_or(std::process::ExitCode::FAILURE, std::process::ExitCode::from)
}
