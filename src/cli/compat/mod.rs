//! `tflint-merge compat [PATHS]`: for each module directory, which published Terraform and
//! OpenTofu releases load it, the real minimum of each tool, and the constraints that are too
//! loose or too tight (see `judge`).

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use rayon::prelude::*;
use serde_json::{Value, json};

use crate::diagnostic::escape;
use crate::input::discover;
use crate::input::overlay::Overlay;
use crate::input::scope::{Scope as ReadScope, ScopeFlags};
use crate::knowledge::View;
use crate::knowledge::releases::{self, Release, ranges, ranges_text};
use crate::knowledge::version::Version;
use crate::lint::RuleSettings;
use crate::lint::directory::{Options, ViewSelection};
use crate::lint::targets::range_text;
use crate::rules;

mod judge;

use judge::{DirectoryCompat, ToolCompat, judge_directory};

#[derive(Debug, Args)]
pub(super) struct CompatArgs {
    /// Module directories, or directories to search for them.
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: CompatFormat,
    /// Skip paths matching this glob while looking for module directories.
    #[arg(long, value_name = "GLOB")]
    exclude: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum CompatFormat {
    /// One paragraph per directory.
    Text,
    /// One JSON document: every directory, each tool's releases as ranges.
    Json,
}

/// Runs `compat`; exit status 1 when a constraint is too loose or too tight, 2 on a usage error.
pub(super) fn compat(args: CompatArgs) -> i32 {
    let mut exclude = match discover::Excludes::given(&args.exclude) {
        Ok(set) => set,
        Err(message) => return super::usage_error(&message),
    };
    let scope = std::sync::Arc::new(ReadScope::new(&args.paths, &ScopeFlags::default()));
    exclude.set_scope(std::sync::Arc::clone(&scope));
    let found = discover::discover(&args.paths, &exclude, true);
    if let Some(missing) = found.missing.first() {
        return super::usage_error(&format!("no such file or directory: {}", missing.display()));
    }
    let mut options = Options::new(
        ViewSelection::Both,
        RuleSettings::defaults(rules::registry()),
    );
    options.overlay = Overlay::default().within(Some(scope));
    let judged: Vec<(&Path, DirectoryCompat)> = (found.dirs.par_iter())
        .map(|dir| (dir.as_ref(), judge_directory(dir, &options)))
        .collect();
    let text = match args.format {
        CompatFormat::Text => text(&judged),
        CompatFormat::Json => {
            let dirs: Vec<Value> = judged.iter().map(|(d, c)| dir_json(d, c)).collect();
            let mut text =
                serde_json::to_string_pretty(&json!({ "directories": dirs })).unwrap_or_default();
            text.push('\n');
            text
        }
    };
    let advice = (judged.iter())
        .flat_map(|(_, c)| &c.tools)
        .any(|t| t.too_loose.is_some() || t.too_tight.is_some());
    match super::print_or_broken_pipe(&text) {
        super::EXIT_CLEAN if advice => super::EXIT_FINDINGS,
        status => status,
    }
}

fn text(judged: &[(&Path, DirectoryCompat)]) -> String {
    let mut out = String::new();
    for (dir, found) in judged {
        out.push_str(&escape::text(&dir.to_string_lossy()));
        out.push('\n');
        for tool in &found.tools {
            tool_text(tool, &mut out);
        }
    }
    if judged.is_empty() {
        out.push_str("no module directory found\n");
    }
    out
}

fn tool_text(tool: &ToolCompat, out: &mut String) {
    let name = tool.view.tool_name();
    let loading: Vec<Version> = tool.loading().cloned().collect();
    let admitted: Vec<Version> = (tool.releases.iter())
        .filter(|r| r.admitted)
        .map(|r| r.version.clone())
        .collect();
    match tool.minimum() {
        Some(minimum) => out.push_str(&format!(
            "  {name}: loads {} (minimum {minimum})\n",
            ranges_text(tool.view, &loading)
        )),
        None => out.push_str(&format!("  {name}: no published release loads it\n")),
    }
    let admitted_text = match admitted.is_empty() {
        true => "no published release".to_string(),
        false => ranges_text(tool.view, &admitted),
    };
    out.push_str(&format!("    constraints admit {admitted_text}\n"));
    for (lines, errors) in refusals(tool) {
        let verb = if lines.len() == 1 {
            "refuses"
        } else {
            "refuse"
        };
        out.push_str(&format!(
            "    {name} {} {verb} it: {}\n",
            range_text(&lines),
            escape::text(&errors.join("; "))
        ));
    }
    if let Some(loose) = &tool.too_loose {
        out.push_str(&format!(
            "    too loose: `{}` admits {}, which refuse the module; the narrowest honest \
             constraint is `{}`\n",
            escape::text(&loose.written),
            ranges_text(tool.view, &loose.refusing),
            loose.honest
        ));
    }
    if let Some(tight) = &tool.too_tight {
        out.push_str(&format!(
            "    too tight: a `.tf` file's `required_version`, written for Terraform, shuts out \
             OpenTofu {}, which compare it with their own version and would load the module; \
             state OpenTofu's own in `versions.tofu`: `terraform {{ required_version = \"{}\" \
             }}` (OpenTofu then ignores the `.tf` file of that name)\n",
            ranges_text(tool.view, &tight.shut_out),
            tight.opentofu_constraint
        ));
    }
}

/// The release lines that report load errors, consecutive lines with the same errors together.
fn refusals(tool: &ToolCompat) -> Vec<(Vec<Release>, Vec<String>)> {
    let mut runs: Vec<(Vec<Release>, Vec<String>)> = Vec::new();
    for line in releases::stable_releases(tool.view) {
        let verdict = (tool.releases.iter()).find(|r| releases::line_of(&r.version) == line);
        let Some(verdict) = verdict.filter(|v| !v.refused_by.is_empty()) else {
            continue;
        };
        match runs.last_mut() {
            Some((lines, errors))
                if *errors == verdict.refused_by
                    && lines.last().is_some_and(|l| l.minor + 1 == line.minor) =>
            {
                lines.push(line);
            }
            _ => runs.push((vec![line], verdict.refused_by.clone())),
        }
    }
    runs
}

fn ranges_json(view: View, versions: &[Version]) -> Value {
    let runs = ranges(view, versions);
    Value::Array(
        runs.into_iter()
            .map(|(first, last)| json!([first.to_string(), last.to_string()]))
            .collect(),
    )
}

fn dir_json(dir: &Path, found: &DirectoryCompat) -> Value {
    let mut object = serde_json::Map::new();
    object.insert("path".into(), json!(dir.to_string_lossy()));
    for tool in &found.tools {
        let key = match tool.view {
            View::Terraform => "terraform",
            View::OpenTofu => "opentofu",
        };
        object.insert(key.into(), tool_json(tool));
    }
    Value::Object(object)
}

fn tool_json(tool: &ToolCompat) -> Value {
    let view = tool.view;
    let loading: Vec<Version> = tool.loading().cloned().collect();
    let admitted: Vec<Version> = (tool.releases.iter())
        .filter(|r| r.admitted)
        .map(|r| r.version.clone())
        .collect();
    let refused: Vec<Value> = refusals(tool)
        .into_iter()
        .map(|(lines, errors)| {
            let lines: Vec<String> = lines.iter().map(Release::to_string).collect();
            json!({ "release_lines": lines, "errors": errors })
        })
        .collect();
    json!({
        "loads": ranges_json(view, &loading),
        "minimum": tool.minimum().map(Version::to_string),
        "admitted": ranges_json(view, &admitted),
        "refused": refused,
        "too_loose": tool.too_loose.as_ref().map(|loose| json!({
            "constraint": loose.written,
            "admits_refusing": ranges_json(view, &loose.refusing),
            "narrowest_honest": loose.honest,
        })),
        "too_tight": tool.too_tight.as_ref().map(|tight| json!({
            "shuts_out": ranges_json(view, &tight.shut_out),
            "opentofu_constraint": tight.opentofu_constraint,
        })),
    })
}
