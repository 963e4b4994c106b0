// glibc's per-thread arenas grow and shrink with mprotect on every directory we parse (a third
// of the run time in `perf`); mimalloc keeps freed pages per thread and reuses them.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(tflint_merge::run_cli());
}
