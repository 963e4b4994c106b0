//! A file that cannot be configuration text: not a regular file (a directory, a
//! named pipe, a device: never opened, as a pipe waits for a writer and a device may never
//! end), larger than the size limit, or named with bytes that are not UTF-8 (the tools load it,
//! but findings could not name it, so its directory is not checked), or lying outside the
//! checked paths after resolving links (never opened: see `crate::input::scope`). The file contributes
//! nothing; the directory's other files are still checked.

use crate::diagnostic::Diagnostic;
use crate::input::read::{MIB, ReadFailure, ReadProblem, Reader};

use crate::lint::helpers::skipped_note;
use crate::lint::{Check, ReadContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "read_error",
    kind: LoadError,
    summary: "a file that is not valid configuration text (too large, a directory)",
    check: Check::Read(check),
};

fn check(ctx: &ReadContext, out: &mut Vec<Diagnostic>) {
    out.extend(match ctx.problem {
        ReadProblem::NotRegular { path, kind, reader } => {
            Some(not_regular(ctx, path, kind, *reader))
        }
        ReadProblem::TooLarge {
            path,
            bytes,
            limit,
            reader,
        } => Some(too_large(ctx, path, *bytes, *limit, *reader)),
        ReadProblem::NameNotUtf8 { path } => Some(name_not_utf8(ctx, path)),
        ReadProblem::Outside { path, reader } => Some(outside(ctx, path, *reader)),
        _ => None,
    });
}

/// `Failed to read file: it is a directory` (or what else it is)
fn not_regular(ctx: &ReadContext, path: &str, kind: &'static str, reader: Reader) -> Diagnostic {
    let what = ReadFailure::NotRegular(kind).describe();
    ctx.finding(&RULE, format!("Failed to read file: {what}"))
        .at_path(path)
        .with_note(skipped_note(reader))
}

/// `Failed to read file: it lies outside the checked paths`, naming the file as the run reached
/// it, never where it leads nor what it holds.
fn outside(ctx: &ReadContext, path: &str, reader: Reader) -> Diagnostic {
    let what = ReadFailure::Outside.describe();
    ctx.finding(&RULE, format!("Failed to read file: {what}"))
        .at_path(path)
        .with_note(skipped_note(reader))
        .with_help("check the directory that holds it too, or pass --allow-outside PATH to read it")
}

/// `file too large to check: 17.0 MiB (the limit is 16.0 MiB)`
fn too_large(ctx: &ReadContext, path: &str, bytes: u64, limit: u64, reader: Reader) -> Diagnostic {
    let message = format!(
        "file too large to check: {:.1} MiB (the limit is {:.1} MiB)",
        bytes as f64 / MIB,
        limit as f64 / MIB
    );
    ctx.finding(&RULE, message)
        .at_path(path)
        .with_note(skipped_note(reader))
        .with_help("raise the limit with --max-file-size MIB, or exclude the file's directory")
}

/// `file name is not valid UTF-8`: the tools load the file, but findings could not name it, so
/// the directory is not checked rather than checked without it.
fn name_not_utf8(ctx: &ReadContext, path: &str) -> Diagnostic {
    ctx.finding(&RULE, "file name is not valid UTF-8")
        .at_path(path)
        .with_note(
            "Terraform and OpenTofu load this file, but tflint-merge cannot name it in findings, \
             so this directory was not checked. Its name is shown with \u{FFFD} for the bytes \
             that are not UTF-8.",
        )
        .with_help("rename the file to a UTF-8 name")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{findings, write_files};

    /// Bytes that are not UTF-8 are read as HCL reads them: a syntax error where they stand
    /// in code or a string (`syntax_error`), nothing in a comment; never a read error.
    #[test]
    fn bytes_that_are_not_utf8_are_no_read_error() {
        let dir = write_files(&[("main.tf", "")]);
        std::fs::write(dir.path().join("main.tf"), b"locals {\n  a = \"\xff\"\n}\n")
            .expect("write");
        std::fs::write(
            dir.path().join("b.tf"),
            b"# caf\xe9\nlocals {\n  b = 1\n}\n",
        )
        .expect("write");
        let found = crate::lint::testing::findings_in(&super::RULE, dir.path());
        assert!(found.is_empty(), "{found:#?}");
    }

    /// A symlink named like a configuration file, to a directory.
    #[cfg(unix)]
    #[test]
    fn a_directory_named_like_a_file() {
        let dir = write_files(&[("d/x", "")]);
        std::os::unix::fs::symlink(dir.path().join("d"), dir.path().join("a.tf")).expect("link");
        let found = crate::lint::testing::findings_in(&super::RULE, dir.path());
        let messages: Vec<&str> = found.iter().map(|d| &*d.message).collect();
        assert_eq!(messages, ["Failed to read file: it is a directory"]);
        assert!(findings(&super::RULE, &[("main.tf", "locals {}\n")]).is_empty());
    }
}
