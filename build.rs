//! Links the functions a lint run executes next to each other (`link/hot_text.ld`, written by
//! `scripts/hot_text.py`): the kernel maps a program's code in 64 KB windows around each page
//! it runs, and scattered over the whole binary the run's code made almost all of it resident
//! (3.7 of 4.7 MB; 2 MB less when grouped). Only for the binary, and only on Linux, where the
//! linkers (GNU ld, gold, lld) take a script that adds to their default layout (`INSERT`).

fn main() {
    println!("cargo:rerun-if-changed=link/hot_text.ld");
    if std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux") {
        let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_string());
        println!("cargo:rustc-link-arg-bins=-Wl,-T,{root}/link/hot_text.ld");
    }
}
