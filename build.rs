//! Links the functions a lint run executes next to each other (`scripts/hot_text.ld`, written
//! by `scripts/hot_text.py`): the kernel maps a program's code in 64 KB windows around each page
//! it runs, and scattered over the whole binary the run's code made almost all of it resident
//! (3.7 of 4.7 MB; 1.7 MB less when grouped). Only for the binary, and only on Linux, where the
//! linkers (GNU ld, gold, lld) take a script that adds to their default layout (`INSERT`).
//! `TFLINT_MERGE_DEFAULT_LAYOUT=1` links without it: for a linker that takes no such script
//! (mold), and for `scripts/hot_text.py`, whose profiler (callgrind) names only the functions
//! in `.text`.

fn main() {
    println!("cargo:rerun-if-changed=scripts/hot_text.ld");
    println!("cargo:rerun-if-env-changed=TFLINT_MERGE_DEFAULT_LAYOUT");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    if linux && std::env::var_os("TFLINT_MERGE_DEFAULT_LAYOUT").is_none() {
        let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_string());
        // `-T FILE` as two arguments of the compiler driver: `-Wl,` would split a path at its
        // commas.
        println!("cargo:rustc-link-arg-bins=-T");
        println!("cargo:rustc-link-arg-bins={root}/scripts/hot_text.ld");
    }
}
