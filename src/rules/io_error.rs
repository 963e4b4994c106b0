//! A file system problem that kept tflint-merge from checking something: a configuration file
//! that exists but cannot be read, a module directory that cannot be listed or resolved. The
//! message ends with the operating system's reason. A run with one exits with status 2.

use crate::diagnostic::Diagnostic;
use crate::input::read::{DirectoryStep, ReadProblem};

use crate::lint::{Check, ReadContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "io_error",
    kind: LoadError,
    summary: "a file or directory could not be read",
    check: Check::Read(check),
};

fn check(ctx: &ReadContext, out: &mut Vec<Diagnostic>) {
    match ctx.problem {
        ReadProblem::Unreadable { path, error } => out.push(unreadable_file(ctx, path, error)),
        ReadProblem::Directory { path, step, error } => {
            out.push(unreadable_directory(ctx, path, *step, error));
        }
        _ => {}
    }
}

/// `Failed to read file: <the system's reason>`
fn unreadable_file(ctx: &ReadContext, path: &str, error: &str) -> Diagnostic {
    ctx.finding(&RULE, format!("Failed to read file: {error}"))
        .at_path(path)
}

/// `cannot read directory: <the system's reason>` (or `cannot read directory entry`, `cannot
/// resolve directory`)
fn unreadable_directory(
    ctx: &ReadContext,
    path: &str,
    step: DirectoryStep,
    error: &str,
) -> Diagnostic {
    let what = match step {
        DirectoryStep::Resolve => "cannot resolve directory",
        DirectoryStep::List => "cannot read directory",
        DirectoryStep::ListEntry => "cannot read directory entry",
    };
    ctx.finding(&RULE, format!("{what}: {error}")).at_path(path)
}

#[cfg(test)]
mod tests {
    use crate::input::read::{DirectoryStep, ReadProblem};
    use crate::lint::run::read_findings;
    use crate::lint::testing::settings_for;
    use crate::source::SourceFiles;

    /// Each problem in its words, at its path.
    #[test]
    fn unreadable_files_and_directories() {
        let error = "Permission denied (os error 13)".to_string();
        let problems = [
            ReadProblem::Unreadable {
                path: "m/main.tf".into(),
                error: error.clone(),
            },
            ReadProblem::Directory {
                path: "m".into(),
                step: DirectoryStep::ListEntry,
                error,
            },
        ];
        let settings = settings_for(&super::RULE);
        let found = read_findings(&problems, &SourceFiles::default(), &settings);
        let described: Vec<(&str, &str)> =
            (found.iter()).map(|d| (&*d.path, &*d.message)).collect();
        assert_eq!(
            described,
            [
                (
                    "m/main.tf",
                    "Failed to read file: Permission denied (os error 13)"
                ),
                (
                    "m",
                    "cannot read directory entry: Permission denied (os error 13)"
                ),
            ]
        );
    }
}
