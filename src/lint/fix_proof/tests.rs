//! The proof on fixes made up for it: one that keeps every value, one that changes a value,
//! one that makes a view load, one through a link.

use std::path::Path;

use super::*;
use crate::diagnostic::Severity;
use crate::lint::RuleSettings;
use crate::lint::directory::{ViewSelection, check_directory};
use crate::lint::testing::stand_ins;

fn options() -> Options {
    // The merge's load errors, as a stand-in load error.
    let settings = RuleSettings::defaults(stand_ins::loading());
    Options::new(ViewSelection::Both, settings)
}

/// Checks `dir`, gives the finding the fix `edit` builds for `main.tf`, proves it, and
/// returns the fix as the proof leaves it.
fn proved(dir: &Path, edit: impl Fn(&Path, &str) -> Fix) -> Option<Fix> {
    let options = options();
    let result = check_directory(dir, &options);
    let main = dir.join("main.tf");
    let read = result.files.iter().find(|(_, f)| f.path == main);
    let text = read.expect("main.tf read").1.text.clone();
    let mut diagnostics = result.diagnostics.clone();
    // A warning: a load error's own fix would change the verdict by curing it.
    let finding = Diagnostic::new(stand_ins::ON_BY_DEFAULT.id(), Severity::Warning, "x");
    diagnostics.push(finding.with_fix(edit(&main, &text)));
    let checked = Checked {
        dir,
        files: &result.files,
        modules: &result.modules,
    };
    prove_fixes(&mut diagnostics, checked, &options);
    diagnostics.pop().expect("the finding").fix.map(|fix| *fix)
}

fn write(dir: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("write");
    }
}

/// Replaces the first `old` of `text` with `new`.
fn replace(path: &Path, text: &str, old: &str, new: &str) -> Fix {
    let at = text.find(old).expect("in the text");
    Fix::new("Change it", Applicability::Safe).edit(path, at..at + old.len(), new)
}

const VARIABLE: &str = "variable \"v\" {\n  type    = list(number)\n  default = [1, 2]\n}\n";

#[test]
fn a_fix_that_keeps_every_value_stays_safe() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), &[("main.tf", VARIABLE)]);
    // The same list written otherwise, and a comment.
    let fix = proved(dir.path(), |path, text| {
        replace(path, text, "[1, 2]", "[ 1,2 ] # the two")
    });
    let fix = fix.expect("kept");
    assert_eq!(fix.title, "Change it");
    assert_eq!(fix.applicability, Applicability::Safe);
}

#[test]
fn a_fix_that_changes_a_value_becomes_unsafe_and_says_what_it_changes() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), &[("main.tf", VARIABLE)]);
    let fix = proved(dir.path(), |path, text| {
        replace(path, text, "[1, 2]", "[1, 3]")
    });
    let fix = fix.expect("kept");
    assert_eq!(fix.applicability, Applicability::Unsafe);
    assert_eq!(
        fix.title,
        "Change it (unsafe: it changes `variable.v default` for Terraform)"
    );
}

#[test]
fn a_fix_that_changes_a_type_conversion_becomes_unsafe() {
    // `type = string` turns the default 5 into "5": without it, it stays the number 5.
    let dir = tempfile::tempdir().expect("tempdir");
    let text = "variable \"v\" {\n  type    = string\n  default = 5\n}\n";
    write(dir.path(), &[("main.tf", text)]);
    let fix = proved(dir.path(), |path, text| {
        replace(path, text, "  type    = string\n", "")
    });
    assert_eq!(fix.expect("kept").applicability, Applicability::Unsafe);
}

#[test]
fn a_fix_that_changes_whether_a_view_loads_is_withheld() {
    // The default does not convert to the type: a load error, which the fix would remove.
    let dir = tempfile::tempdir().expect("tempdir");
    let text = "variable \"v\" {\n  type    = number\n  default = \"x\"\n}\n";
    write(dir.path(), &[("main.tf", text)]);
    let fix = proved(dir.path(), |path, text| {
        replace(path, text, "  default = \"x\"\n", "")
    });
    assert!(fix.is_none(), "{fix:?}");
}

#[cfg(unix)]
#[test]
fn a_fix_to_a_linked_file_becomes_unsafe() {
    // Another module directory may load the file the link leads to.
    let dir = tempfile::tempdir().expect("tempdir");
    let shared = tempfile::tempdir().expect("tempdir");
    write(shared.path(), &[("main.tf", VARIABLE)]);
    std::os::unix::fs::symlink(shared.path().join("main.tf"), dir.path().join("main.tf"))
        .expect("symlink");
    let fix = proved(dir.path(), |path, text| {
        replace(path, text, "[1, 2]", "[ 1,2 ]")
    });
    let fix = fix.expect("kept");
    assert_eq!(fix.applicability, Applicability::Unsafe);
    assert!(fix.title.contains("a linked file"), "{}", fix.title);
    // A comment removed changes no module that loads the file.
    let commented = format!("# about v\n{VARIABLE}");
    write(shared.path(), &[("main.tf", &commented)]);
    let fix = proved(dir.path(), |path, text| {
        replace(path, text, "# about v\n", "")
    });
    assert_eq!(fix.expect("kept").applicability, Applicability::Safe);
}

#[test]
fn a_fix_to_a_file_outside_the_directory_becomes_unsafe() {
    // The proof re-checks this directory only: a file elsewhere is loaded by modules it does
    // not build, whatever the fix does to it.
    let dir = tempfile::tempdir().expect("tempdir");
    let elsewhere = tempfile::tempdir().expect("tempdir");
    write(dir.path(), &[("main.tf", VARIABLE)]);
    write(elsewhere.path(), &[("main.tf", VARIABLE)]);
    let other = elsewhere.path().join("main.tf");
    let fix = proved(dir.path(), |path, text| {
        let at = VARIABLE.find("[1, 2]").expect("in the text");
        replace(path, text, "[1, 2]", "[ 1,2 ]").edit(&other, at..at + 6, "[ 1,2 ]")
    });
    let fix = fix.expect("kept");
    assert_eq!(fix.applicability, Applicability::Unsafe);
    assert!(
        fix.title.contains("outside this module directory"),
        "{}",
        fix.title
    );
}

/// `fix`, made unsafe.
fn as_unsafe(mut fix: Fix) -> Fix {
    fix.applicability = Applicability::Unsafe;
    fix
}

#[test]
fn an_unsafe_fix_may_change_a_value_but_not_bring_a_load_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), &[("main.tf", VARIABLE)]);
    let fix = proved(dir.path(), |path, text| {
        as_unsafe(replace(path, text, "[1, 2]", "[1, 3]"))
    });
    let fix = fix.expect("kept");
    assert_eq!(fix.applicability, Applicability::Unsafe);
    assert_eq!(fix.title, "Change it");
    // A default that does not convert to `list(number)`.
    let fix = proved(dir.path(), |path, text| {
        as_unsafe(replace(path, text, "[1, 2]", "\"x\""))
    });
    assert!(fix.is_none(), "{fix:?}");
}

#[test]
fn an_unsafe_fix_may_make_a_module_load() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = "variable \"v\" {\n  type    = number\n  default = \"x\"\n}\n";
    write(dir.path(), &[("main.tf", text)]);
    let fix = proved(dir.path(), |path, text| {
        as_unsafe(replace(path, text, "  default = \"x\"\n", ""))
    });
    assert_eq!(fix.expect("kept").applicability, Applicability::Unsafe);
}

#[test]
fn a_safe_fix_that_removes_one_of_two_load_errors_becomes_unsafe() {
    // Two defaults that do not convert: the module stays refused, but with one error less.
    let dir = tempfile::tempdir().expect("tempdir");
    let text = "variable \"v\" {\n  type    = number\n  default = \"x\"\n}\n\
                variable \"w\" {\n  type    = number\n  default = \"y\"\n}\n";
    write(dir.path(), &[("main.tf", text)]);
    let fix = proved(dir.path(), |path, text| {
        replace(path, text, "  default = \"x\"\n", "")
    });
    let fix = fix.expect("kept");
    assert_eq!(fix.applicability, Applicability::Unsafe);
    assert!(
        fix.title
            .ends_with("(unsafe: it changes `variable.v default` for Terraform)"),
        "{}",
        fix.title
    );
}
