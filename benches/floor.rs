//! The floor a lint run is measured against: walk a tree, read every configuration file and
//! parse it (native syntax with hcl-edit, JSON with serde_json), then drop the tree — no
//! classification, no merge, no rules. `scripts/bench.sh` runs it next to `tflint-merge` on the
//! same trees and prints the ratio.
//!
//! `--parser own` parses native files with tflint-merge's own parser instead (the one a lint run
//! uses, building its model), so that both ratios can be reported: against the hcl-edit floor
//! the lint's ratio was first defined on, and against a floor with the lint's own parser.
//!
//! usage: floor [-j N] [--parser hcl-edit|own] PATH...
//!        (prints `files=F bytes=B seconds=S mb_per_s=M`)

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

// The lint's allocator (src/main.rs), so that the ratio of the two compares the work done, not
// the allocators.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // `cargo bench` passes `--bench`; it means nothing here.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut threads = None;
    let mut parser = Parser::HclEdit;
    let mut roots = Vec::new();
    let mut iter = args.into_iter();
    while let Some(arg) = iter.next() {
        if arg == "-j" {
            threads = iter.next().and_then(|n| n.parse::<usize>().ok());
        } else if arg == "--parser" {
            parser = match iter.next().as_deref() {
                Some("hcl-edit") => Parser::HclEdit,
                Some("own") => Parser::Own,
                _ => {
                    usage();
                    std::process::exit(2);
                }
            };
        } else {
            roots.push(PathBuf::from(arg));
        }
    }
    if roots.is_empty() {
        usage();
        std::process::exit(2);
    }
    let mut pool = rayon::ThreadPoolBuilder::new().stack_size(16 * 1024 * 1024);
    if let Some(n) = threads {
        pool = pool.num_threads(n);
    }
    let pool = match pool.build() {
        Ok(pool) => pool,
        Err(error) => {
            eprintln!("error: {error}");
            std::process::exit(2);
        }
    };
    let started = Instant::now();
    let (files, bytes) = pool.install(|| {
        let mut files = Vec::new();
        for root in &roots {
            walk(root, &mut files);
        }
        let bytes: u64 = files.par_iter().map(|f| read_and_parse(f, parser)).sum();
        (files.len(), bytes)
    });
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "files={files} bytes={bytes} seconds={seconds:.3} mb_per_s={:.1}",
        bytes as f64 / 1e6 / seconds.max(1e-9)
    );
}

/// What parses native-syntax files.
#[derive(Clone, Copy)]
enum Parser {
    /// hcl-edit's parser, to its own tree.
    HclEdit,
    /// tflint-merge's parser, to its model (what a lint run does).
    Own,
}

fn usage() {
    eprintln!("usage: floor [-j N] [--parser hcl-edit|own] PATH...");
}

/// The configuration files below `dir`, as tflint-merge's discovery finds them (hidden
/// directories skipped).
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            if !name.starts_with('.') {
                walk(&path, out);
            }
        } else if [".tf", ".tofu", ".tf.json", ".tofu.json", ".hcl"]
            .iter()
            .any(|ext| name.ends_with(ext))
        {
            out.push(path);
        }
    }
}

/// Reads and parses one file; returns its size. Parse errors are not the floor's business.
fn read_and_parse(path: &Path, parser: Parser) -> u64 {
    let Ok(text) = std::fs::read_to_string(path) else {
        return 0;
    };
    let name = path.to_string_lossy();
    if name.ends_with(".json") {
        drop(serde_json::from_str::<serde_json::Value>(&text));
    } else {
        match parser {
            Parser::HclEdit => drop(hcl_edit::parser::parse_body(&text)),
            Parser::Own => drop(tflint_merge::fuzzing::parse_native(&text)),
        }
    }
    text.len() as u64
}
