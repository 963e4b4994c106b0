// glibc's per-thread arenas grow and shrink with mprotect on every directory we parse;
// mimalloc keeps freed pages per thread and reuses them.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    let code = tflint_merge::run_cli();
    u8::try_from(code).map_or(
        std::process::ExitCode::FAILURE,
        std::process::ExitCode::from,
    )
}
