//! Merge behaviours pinned by fixtures: each folder of `tests/fixtures/merge/` is a module
//! directory; its snapshot holds, for each view, the load errors, the merge events and the
//! effective module as `tflint-merge merged` prints it. Review snapshot changes by eye.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use tflint_merge::effective::Event;
use tflint_merge::effective::{PrintFormat, print};
use tflint_merge::effective::{SourceFiles, Span};
use tflint_merge::{ViewSelection, check_directory};

fn at(files: &SourceFiles, span: Span) -> String {
    let file = files.get(span.file);
    let (line, col) = file.line_col(span.start as usize);
    format!("{}:{line}:{col}", file.file_name())
}

fn event(files: &SourceFiles, event: &Event) -> String {
    let list = |spans: &[Span]| {
        spans
            .iter()
            .map(|&s| at(files, s))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match event {
        Event::OverrideApplied {
            address,
            override_header,
            base_header,
            ..
        } => {
            format!(
                "override applied to {address}: {} into {}",
                at(files, *override_header),
                at(files, *base_header)
            )
        }
        Event::AttributeReplaced {
            address,
            name,
            new,
            old,
            old_from_override,
            identical,
        } => format!(
            "{address}: {name} replaced at {} (was {}{}{})",
            at(files, *new),
            at(files, *old),
            if *old_from_override {
                ", from an override"
            } else {
                ""
            },
            if *identical { ", identical" } else { "" }
        ),
        Event::AttributeAdded { address, name, new } => {
            format!("{address}: {name} added at {}", at(files, *new))
        }
        Event::NestedBlocksReplaced {
            address,
            kind,
            by,
            dropped,
        } => {
            format!(
                "{address}: {kind} blocks [{}] replaced by [{}]",
                list(dropped),
                list(by)
            )
        }
        Event::IgnoredSetting {
            address,
            name,
            span,
            reason,
        } => {
            format!(
                "{address}: {name} at {} ignored: {reason}",
                at(files, *span)
            )
        }
    }
}

fn report(dir: &Path) -> String {
    let mut out = String::new();
    let both = check_directory(dir, ViewSelection::Both, &[]).expect("no rules to enable");
    out.push_str("## diagnostics (both views)\n");
    for d in &both.diagnostics {
        let (line, col) = d.start();
        let views = d.views.describe().unwrap_or("-");
        let _ = writeln!(
            out,
            "{}:{line}:{col} {}[{}] {} ({views})",
            d.path.rsplit('/').next().unwrap_or(""),
            d.severity,
            d.rule,
            d.message
        );
    }
    for module in &both.modules {
        let _ = writeln!(out, "\n## events ({})", module.view);
        for e in &module.events {
            let _ = writeln!(out, "{}", event(&both.files, e));
        }
        let _ = writeln!(out, "\n## effective module ({})", module.view);
        out.push_str(&print(module, &both.files, PrintFormat::Hcl));
    }
    out
}

#[test]
fn merge_fixtures() {
    let root = Path::new("tests/fixtures/merge");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root)
        .expect("fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() >= 10);
    for case in cases {
        let name = case
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        insta::assert_snapshot!(name.clone(), report(&case));
    }
}
