//! tflint-merge: lints Terraform and OpenTofu module directories as the tools really load them,
//! with override files merged in.
//!
//! One module per stage, each depending only on the ones before it (CONTRIBUTING.md's list,
//! which `tests/architecture.rs` checks): `source` (files and spans) → `diagnostic` (findings,
//! ids) → `knowledge` (what the tools accept) → `syntax` (parse) → `types` (Terraform's type
//! system) → `input` (walk, read) → `terragrunt` (the reference graph) → `module` (views,
//! merge, print) → `lint` (the engine: registry, contexts, the one rule loop, the run) →
//! `rules` (one file per finding id) → `report` (every output format) → `cli` (the command
//! line), and this file last.
//!
//! The library API below is what the command line and the tests use: check a directory, read
//! its findings and effective module, print that module, and list the finding ids.

mod cli;
mod diagnostic;
mod input;
mod knowledge;
mod lint;
mod module;
mod report;
mod rules;
mod source;
mod syntax;
mod terragrunt;
mod types;

use std::path::{Path, PathBuf};

pub use diagnostic::fix;
pub use diagnostic::{Diagnostic, FindingId, Label, Severity, Views};
pub use knowledge::View;
pub use knowledge::files::{ConfigName, classify};
pub use lint::directory::ViewSelection;
pub use lint::{Fixes, Kind, RuleMeta};
pub use module::views::{ViewFiles, view_files};

/// The effective module of one view, with provenance, and how to print it.
pub mod effective {
    pub use crate::module::merge::events::{Event, Subject};
    pub use crate::module::merge::{
        Address, MergedAttribute, MergedBlock, MergedBody, MergedObject, Module, Origin,
    };
    pub use crate::module::print::{PrintFormat, print, semantic_form};
    pub use crate::source::{FileId, SourceFile, SourceFiles, Span};
}

pub use diagnostic::{PROJECT_URL, RULES_DOC_BASE};

/// Runs the command line (`std::env::args`); returns the exit code.
pub fn run_cli() -> i32 {
    cli::run()
}

/// What checking one module directory gives.
#[derive(Debug)]
pub struct DirectoryReport {
    /// The directory's files as read; spans of modules and findings point into them.
    pub files: effective::SourceFiles,
    /// The effective module of each view that could be built, in view order.
    pub modules: Vec<effective::Module>,
    /// The findings, sorted as they are printed.
    pub diagnostics: Vec<Diagnostic>,
}

/// Checks one module directory with the default settings, plus the rules in `enable` turned on
/// (ids as in `tflint-merge rules`; an unknown id is an error).
pub fn check_directory(
    dir: &Path,
    views: ViewSelection,
    enable: &[&str],
) -> Result<DirectoryReport, String> {
    check_directory_targeting(dir, views, enable, [None, None])
}

/// [`check_directory`], judging the views against the Terraform and the OpenTofu releases these
/// version constraints admit (as `terraform_version:` and `opentofu_version:` in
/// `.tflint-merge.yaml` set them) instead of the module's own constraints.
pub fn check_directory_targeting(
    dir: &Path,
    views: ViewSelection,
    enable: &[&str],
    [terraform, opentofu]: [Option<&str>; 2],
) -> Result<DirectoryReport, String> {
    let settings = settings_enabling(enable)?;
    let mut options = lint::directory::Options::new(views, settings);
    for (view, text) in [(View::Terraform, terraform), (View::OpenTofu, opentofu)] {
        if let Some(text) = text
            && lint::targets::releases_admitted_by(view, text).is_none()
        {
            return Err(format!(
                "`{text}` admits no known {} release",
                view.tool_name()
            ));
        }
    }
    options.target_versions = lint::directory::TargetVersions {
        terraform: terraform.map(str::to_string),
        opentofu: opentofu.map(str::to_string),
    };
    let result = lint::directory::check_directory(dir, &options);
    Ok(DirectoryReport {
        files: result.files,
        modules: result.modules,
        diagnostics: result.diagnostics,
    })
}

/// Checks the Terragrunt tree of `units` (`terragrunt.hcl` paths), showing paths relative to
/// `root`, with the rules in `enable` turned on.
pub fn check_terragrunt(
    units: &[PathBuf],
    root: &Path,
    enable: &[&str],
) -> Result<Vec<Diagnostic>, String> {
    let settings = settings_enabling(enable)?;
    let given = [root.to_path_buf()];
    let max = input::read::DEFAULT_MAX_FILE_BYTES;
    let overlay = input::overlay::Overlay::default();
    let tree = lint::tree::check_tree(units, &given, &settings, max, &overlay);
    Ok(tree.diagnostics)
}

fn settings_enabling(enable: &[&str]) -> Result<lint::RuleSettings, String> {
    let mut settings = lint::RuleSettings::defaults(rules::registry());
    for id in enable {
        settings.enable(id)?;
    }
    Ok(settings)
}

/// Every finding id (load errors, rules, engine findings), sorted by id.
pub fn catalogue() -> &'static [&'static RuleMeta] {
    rules::registry().catalogue()
}

/// The catalogue entry of a finding id.
pub fn find_id(id: &str) -> Option<&'static RuleMeta> {
    rules::registry().find(id)
}

/// Entry points for the fuzz targets in `fuzz/` (`scripts/fuzz.sh`): not a stable API.
#[doc(hidden)]
pub mod fuzzing {
    use std::path::Path;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use clap::ValueEnum;

    use crate::source::{FileId, Syntax};

    /// The unified diff `--diff` prints for a file whose text `old` a fix makes `new`, and the
    /// lines it compared or looked up to make it (a measure of work that does not depend on
    /// the machine, for tests that hold it to grow linearly).
    pub fn unified_diff(old: &str, new: &str) -> (String, u64) {
        let diff = crate::cli::fix::unified::unified_diff(old, new, "a/main.tf", "b/main.tf");
        (diff.text, diff.steps)
    }

    /// Parses `text` as a native-syntax file (`.tf`), lowering included; whether it parsed.
    pub fn parse_native(text: &str) -> bool {
        crate::syntax::parse(FileId(0), Syntax::Native, text)
            .file
            .is_ok()
    }

    /// Parses `text` as a JSON-syntax file (`.tf.json`); whether it parsed.
    pub fn parse_json(text: &str) -> bool {
        crate::syntax::parse(FileId(0), Syntax::Json, text)
            .file
            .is_ok()
    }

    /// The first syntax error of a configuration file as Terraform's loader would report it
    /// first: its summary and where it starts. `scripts/syntax_fuzz.py` compares it with
    /// Terraform's (`examples/syntax_verdicts.rs` prints it for a directory of files).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct SyntaxVerdict {
        pub summary: String,
        /// 1-based line.
        pub line: usize,
        /// Byte offset in the file.
        pub byte: usize,
    }

    /// What tflint-merge reports first for a file of these bytes read as configuration
    /// (`json`: a `.tf.json` file), through the reading every module file goes through; `None`
    /// when it parses. JSON's duplicate properties are left out: Terraform finds them while
    /// decoding the body, not while parsing.
    pub fn syntax_verdict(bytes: Vec<u8>, json: bool) -> Option<SyntaxVerdict> {
        use crate::input::read::{Read, parse_bytes};
        let syntax = if json { Syntax::Json } else { Syntax::Native };
        let (text, at, summary) = match parse_bytes(bytes, FileId(0), syntax) {
            Read::Parsed { text, parsed } => {
                let duplicate = (!json)
                    .then(|| parsed.duplicate_attributes.first())
                    .flatten()
                    .map(|duplicate| (duplicate.second.start as usize, "Attribute redefined"));
                let error = parsed
                    .file
                    .err()
                    .map(|error| (error.span.start as usize, error.summary));
                // HCL's scanner reports the tokens it refuses before its parser reports
                // anything; the parser reports a repeated attribute as it meets it, before an
                // error further on.
                let scanned = error.is_some_and(|(_, summary)| {
                    !json && crate::syntax::hcl::scanner::SUMMARIES.contains(&summary)
                });
                let (at, summary) = if scanned {
                    error?
                } else {
                    duplicate.or(error)?
                };
                (text, at, summary.to_string())
            }
            // parse_bytes reads no file, so nothing is unreadable.
            Read::Unreadable(_) => (String::new(), 0, "(unreadable)".to_string()),
        };
        let line = 1 + memchr::memchr_iter(b'\n', &text.as_bytes()[..at.min(text.len())]).count();
        Some(SyntaxVerdict {
            summary,
            line,
            byte: at,
        })
    }

    /// How many times as many parse steps a text with 8 times as many repeats of a unit may
    /// take, and the slack for what any parse costs: a linear parse makes at most about 8
    /// times as many.
    const GROWTH_LIMIT: u64 = 10;
    const GROWTH_SLACK: u64 = 64;

    /// Whether parsing grows super-linearly on the shape `data` describes: its first two bytes
    /// cut the rest into a prefix, a unit and a suffix, and each parser's work (native, then
    /// JSON) on
    /// prefix + 4 units + suffix is compared with its work on prefix + 32 units + suffix (so
    /// `x = (` + k × `a<b<\nc[d` + `&)` is one input). A message when the larger takes more
    /// than [`GROWTH_LIMIT`] times the work of the smaller (plus a little slack): an
    /// exponential or quadratic path, whatever the clock says.
    pub fn super_linear_growth(data: &[u8]) -> Option<String> {
        let [a, b, rest @ ..] = data else {
            return None;
        };
        let text = std::str::from_utf8(rest).ok()?;
        let cut = |byte: u8| {
            let mut at = usize::from(byte) * text.len() / 255;
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            at
        };
        let (first, second) = (cut(*a.min(b)), cut(*a.max(b)));
        let (prefix, unit, suffix) = (&text[..first], &text[first..second], &text[second..]);
        type ParseSteps = fn(&str) -> u64;
        let parsers: [(&str, ParseSteps); 2] = [
            ("native", crate::syntax::hcl::parse_steps),
            ("JSON", crate::syntax::json::parse_steps),
        ];
        parsers.into_iter().find_map(|(syntax, parse_steps)| {
            let steps = |k: usize| parse_steps(&format!("{prefix}{}{suffix}", unit.repeat(k)));
            let (small, large) = (steps(4), steps(32));
            (large > GROWTH_LIMIT * small + GROWTH_SLACK).then(|| {
                format!(
                    "{syntax} parser: {small} parse steps with 4 units, {large} with 32: \
                     super-linear (prefix {prefix:?}, unit {unit:?}, suffix {suffix:?})"
                )
            })
        })
    }

    /// The names a fuzzed file may take; the first byte of each part of the input picks one.
    /// Override files, both tools' extensions, both syntaxes, a Terragrunt unit and its
    /// parent, and a local module for the module rules to look into.
    const FILE_NAMES: &[&str] = &[
        "main.tf",
        "override.tf",
        "main_override.tf",
        "main.tofu",
        "override.tofu",
        "main.tf.json",
        "x_override.tf.json",
        "main.tofu.json",
        "terragrunt.hcl",
        "root.hcl",
        "modules/a/main.tf",
        "modules/a/variables.tf.json",
    ];

    /// Splits `data` into up to four files (parts separated by a NUL byte, each named by its
    /// first byte from [`FILE_NAMES`]), writes them to a fresh scratch directory and runs
    /// [`check_everything`] on it. Returns the bytes rendered.
    pub fn check_files(data: &[u8]) -> usize {
        static SCRATCH: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "tflint-merge-fuzz-{}-{}",
            std::process::id(),
            SCRATCH.fetch_add(1, Ordering::Relaxed)
        ));
        if std::fs::create_dir_all(dir.join("modules/a")).is_err() {
            return 0;
        }
        for part in data.split(|&b| b == 0).take(4) {
            if let Some((&pick, text)) = part.split_first() {
                let name = FILE_NAMES[usize::from(pick) % FILE_NAMES.len()];
                // A file that cannot be written is simply not there: still a directory.
                let _ = std::fs::write(dir.join(name), text);
            }
        }
        let rendered = check_everything(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        rendered
    }

    /// Checks every module directory below `root` as `tflint-merge root` does (the walk, the
    /// checks on a pool of `threads` threads, each directory's findings kept whole until the
    /// report): the number of findings. For tests that measure what a run keeps.
    pub fn check_tree(root: &Path, threads: usize) -> usize {
        use crate::lint::check::{walk_and_check, whole};
        use crate::lint::directory::Options;
        let paths = [root.to_path_buf()];
        let excludes = crate::input::discover::Excludes::default();
        let settings = crate::lint::RuleSettings::defaults(crate::rules::registry());
        let options = Options::new(crate::ViewSelection::Both, settings);
        let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(threads).build() else {
            return 0;
        };
        let walk = crate::input::discover::Walk::new(&paths, &excludes, true);
        let (_, run) = pool.install(|| walk_and_check(walk, &paths, &options, &whole, &|_| true));
        run.findings.len()
    }

    /// Everything the command line does with one module directory, each Terragrunt unit in it
    /// as a tree, every rule enabled: check both views, render the findings in every output
    /// format, and print each effective module in every form. Returns the bytes rendered.
    pub fn check_everything(dir: &Path) -> usize {
        let every_rule: Vec<&str> = crate::catalogue()
            .iter()
            .filter(|meta| meta.kind == crate::Kind::Rule)
            .map(|meta| meta.id.as_str())
            .collect();
        let Ok(report) = crate::check_directory(dir, crate::ViewSelection::Both, &every_rule)
        else {
            return 0;
        };
        let mut diagnostics = report.diagnostics;
        let unit = dir.join(crate::knowledge::files::TERRAGRUNT_UNIT);
        if unit.exists()
            && let Ok(found) = crate::check_terragrunt(&[unit], dir, &every_rule)
        {
            diagnostics.extend(found);
        }
        let catalogue = crate::catalogue();
        let mut rendered = Vec::new();
        for format in crate::report::Format::value_variants() {
            let colors: &[bool] = match format {
                crate::report::Format::Human => &[false, true],
                _ => &[false],
            };
            for &color in colors {
                // Writing to a Vec cannot fail.
                let _ = crate::report::render(
                    &mut rendered,
                    *format,
                    color,
                    &diagnostics,
                    crate::report::Totals::default(),
                    catalogue,
                );
            }
        }
        let mut printed = 0;
        for module in &report.modules {
            for form in crate::effective::PrintFormat::value_variants() {
                printed += crate::effective::print(module, &report.files, *form).len();
            }
        }
        rendered.len() + printed
    }
}
