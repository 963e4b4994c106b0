//! Prints tflint-merge's syntax verdict on every configuration file of a directory, one line
//! each: `NAME<TAB>-` when it parses, else `NAME<TAB>SUMMARY<TAB>LINE<TAB>BYTE` (the first
//! error as Terraform's loader orders them). `scripts/syntax_fuzz.py` runs it on each batch of
//! generated files and compares the lines with Terraform's.
//!
//!     cargo run --release --example syntax_verdicts -- DIR

use std::io::Write as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(dir) = std::env::args_os().nth(1) else {
        eprintln!("usage: syntax_verdicts DIR");
        return ExitCode::from(2);
    };
    let mut names: Vec<String> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| name.ends_with(".tf") || name.ends_with(".tf.json"))
            .collect(),
        Err(error) => {
            eprintln!("error: {}: {error}", dir.to_string_lossy());
            return ExitCode::from(2);
        }
    };
    names.sort();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for name in names {
        let path = std::path::Path::new(&dir).join(&name);
        let Ok(bytes) = std::fs::read(&path) else {
            let _ = writeln!(out, "{name}\t(unreadable)\t0\t0");
            continue;
        };
        let json = name.ends_with(".json");
        let line = match tflint_merge::fuzzing::syntax_verdict(bytes, json) {
            None => format!("{name}\t-"),
            Some(verdict) => format!(
                "{name}\t{}\t{}\t{}",
                verdict.summary, verdict.line, verdict.byte
            ),
        };
        if writeln!(out, "{line}").is_err() {
            return ExitCode::from(2);
        }
    }
    if out.flush().is_err() {
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}
