//! Pass/fail tables for Terragrunt rules: each case is a tree of files (paths may have
//! directories, `prod/us-east-1/app/terragrunt.hcl`) written to a temp dir and checked whole.

use std::path::PathBuf;

use crate::diagnostic::Diagnostic;
use crate::rules::RuleSettings;

pub type Files<'a> = &'a [(&'a str, &'a str)];

/// Writes a tree; returns the temp dir and the `terragrunt.hcl` files in it.
pub fn write_tree(files: Files) -> (tempfile::TempDir, Vec<PathBuf>) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut units = Vec::new();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, text).expect("write");
        if path.file_name().is_some_and(|n| n == super::UNIT_FILE) {
            units.push(path);
        }
    }
    (dir, units)
}

/// Every finding on a tree with `rule` enabled (even if off by default).
pub fn all_findings(rule: &str, files: Files) -> Vec<Diagnostic> {
    let (dir, units) = write_tree(files);
    let mut settings = RuleSettings::defaults();
    settings.enable(rule).expect("known rule");
    super::check(
        &units,
        &[dir.path().to_path_buf()],
        &settings,
        crate::pipeline::DEFAULT_MAX_FILE_BYTES,
    )
    .diagnostics
}

/// The findings of one rule on a tree.
pub fn findings(rule: &str, files: Files) -> Vec<Diagnostic> {
    all_findings(rule, files)
        .into_iter()
        .filter(|d| d.rule == rule)
        .collect()
}

/// Every `pass` case gives no finding of `rule`; every `fail` case exactly `count`, each with a
/// location.
pub fn check_table(rule: &str, pass: &[Files], fail: &[(Files, usize)]) {
    crate::rules::testing::check_table_with(rule, pass, fail, findings);
}
