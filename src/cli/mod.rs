//! Command-line interface: argument parsing and the `check` and `merged` commands.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

mod config;

use crate::diagnostic::{Diagnostic, Severity, ids};
use crate::input::discover;
use crate::input::read::DEFAULT_MAX_FILE_BYTES;
use crate::knowledge::View;
use crate::lint::check::check_all;
use crate::lint::directory::{self, Options, ViewSelection};
use crate::lint::{RuleSettings, registry::Registry};
use crate::module::print::{PrintFormat, print};
use crate::report::graph::{dot, file_graph, json};
use crate::report::{self, Format, Totals};
use crate::rules;
use crate::terragrunt;

/// Exit codes.
pub(crate) const EXIT_CLEAN: i32 = 0;
pub(crate) const EXIT_FINDINGS: i32 = 1;
pub(crate) const EXIT_ERROR: i32 = 2;

const EXAMPLES: &str = "\
Examples:
  tflint-merge                         check every module directory below .
  tflint-merge modules/ envs/prod      check two trees
  tflint-merge modules/vpc/main.tf     check the module directory holding this file
  tflint-merge --view opentofu --format short .
  tflint-merge merged modules/vpc      print the module Terraform and OpenTofu really load
  tflint-merge graph live/ --format json   print a Terragrunt tree's include/import graph

Exit status: 0 no findings at or above --fail-on, 1 findings, 2 usage, configuration or I/O error.";

#[derive(Debug, Parser)]
#[command(
    name = "tflint-merge",
    version,
    about = "Lint Terraform and OpenTofu modules as the tools load them, with override files merged in.",
    after_help = EXAMPLES,
    args_conflicts_with_subcommands = true
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    check: CheckArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check module directories (the default command).
    Check(CheckArgs),
    /// Print the effective module of one directory, with override files merged.
    Merged(MergedArgs),
    /// Print the resolved Terragrunt include/import/read/dependency graph of a tree.
    Graph(GraphArgs),
    /// List every rule: id, default severity, on by default, summary.
    Rules,
    /// Print a rule's documentation.
    Explain {
        /// The rule id, e.g. `override_without_base`.
        rule: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ViewArg {
    Terraform,
    Opentofu,
    Both,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SeverityArg {
    Error,
    Warning,
    Notice,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// Files or directories; a file means the module directory holding it.
    #[arg(value_name = "PATHS")]
    paths: Vec<PathBuf>,
    /// Which tool's view of each module to check [default: both].
    #[arg(long, value_enum)]
    view: Option<ViewArg>,
    /// Skip paths matching this glob (`*` stays within one directory, `**` crosses them).
    #[arg(long, value_name = "GLOB")]
    exclude: Vec<String>,
    /// Colour the output.
    #[arg(long, value_enum, default_value = "auto")]
    color: ColorArg,
    /// Output format [default: human].
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Exit with 1 when a finding is at or above this severity [default: error].
    #[arg(long, value_enum)]
    fail_on: Option<SeverityArg>,
    /// The config file (default: .tflint-merge.yaml here or in the nearest parent directory).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Turn a rule on (repeatable), e.g. one that is off by default.
    #[arg(long, value_name = "RULE")]
    enable_rule: Vec<String>,
    /// Turn a rule off (repeatable).
    #[arg(long, value_name = "RULE")]
    disable_rule: Vec<String>,
    /// Run only these rules (repeatable); load errors are always reported.
    #[arg(long, value_name = "RULE")]
    only: Vec<String>,
    /// Worker threads (default: one per core).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
    /// Skip (and report) files larger than this many MiB.
    #[arg(long, value_name = "MIB", default_value_t = 16)]
    max_file_size: u64,
    /// Print how much was read, and how fast, to stderr.
    #[arg(long, hide = true)]
    stats: bool,
}

#[derive(Debug, Args)]
struct MergedArgs {
    /// The module directory.
    #[arg(default_value = ".")]
    dir: PathBuf,
    /// Which tool's view.
    #[arg(long, value_enum, default_value = "terraform")]
    view: MergedView,
    /// Output format.
    #[arg(long, value_enum, default_value = "hcl")]
    format: PrintFormat,
}

#[derive(Debug, Args)]
struct GraphArgs {
    /// The directory holding the Terragrunt tree (its `terragrunt.hcl` files are the units).
    #[arg(default_value = ".")]
    dir: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "dot")]
    format: GraphFormat,
    /// Skip paths matching this glob while looking for units.
    #[arg(long, value_name = "GLOB")]
    exclude: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum GraphFormat {
    /// Graphviz DOT.
    Dot,
    /// JSON: files, resolved edges, and references that lead nowhere.
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum MergedView {
    Terraform,
    Opentofu,
}

/// Parses the arguments and runs; returns the exit code.
pub(crate) fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let code = if error.use_stderr() {
                EXIT_ERROR
            } else {
                EXIT_CLEAN
            };
            let _ = error.print();
            return code;
        }
    };
    match cli.command {
        Some(Command::Check(args)) => check(args),
        Some(Command::Merged(args)) => merged(args),
        Some(Command::Graph(args)) => graph(args),
        Some(Command::Rules) => list_rules(),
        Some(Command::Explain { rule }) => explain(&rule),
        None => check(cli.check),
    }
}

fn usage_error(message: &str) -> i32 {
    eprintln!("error: {message}");
    EXIT_ERROR
}

fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, String> {
    let mut builder = rayon::ThreadPoolBuilder::new()
        // Parsing is recursive; give workers room beyond the 2 MiB default.
        .stack_size(16 * 1024 * 1024);
    if let Some(n) = threads {
        if n == 0 {
            return Err("--threads must be at least 1".into());
        }
        builder = builder.num_threads(n);
    }
    builder
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))
}

/// The settings of a run: the config file, then the command line on top.
struct Resolved {
    view: ViewArg,
    format: Format,
    fail_on: SeverityArg,
    exclude: Vec<String>,
    settings: RuleSettings,
}

fn resolve(args: &CheckArgs) -> Result<Resolved, String> {
    let path = match &args.config {
        Some(path) => Some(path.clone()),
        None => {
            let cwd = std::env::current_dir()
                .map_err(|e| format!("cannot read the working directory: {e}"))?;
            config::find(&cwd)?
        }
    };
    let file = match &path {
        Some(path) => config::load(path).map_err(|e| e.to_string())?,
        None => config::Config::default(),
    };
    let in_file = |what: &str| {
        format!(
            "{} (in {})",
            what,
            path.as_deref()
                .map(crate::source::display_path)
                .unwrap_or_default()
        )
    };
    let view = match (args.view, file.view.as_deref()) {
        (Some(view), _) => view,
        (None, Some(text)) => ViewArg::from_str(text, true).map_err(|_| {
            in_file(&format!(
                "invalid view `{text}`: use terraform, opentofu or both"
            ))
        })?,
        (None, None) => ViewArg::Both,
    };
    let format = match (args.format, file.format.as_deref()) {
        (Some(format), _) => format,
        (None, Some(text)) => Format::from_str(text, true)
            .map_err(|_| in_file(&format!("invalid format `{text}`")))?,
        (None, None) => Format::Human,
    };
    let fail_on = match (args.fail_on, file.fail_on.as_deref()) {
        (Some(level), _) => level,
        (None, Some(text)) => SeverityArg::from_str(text, true).map_err(|_| {
            in_file(&format!(
                "invalid fail_on `{text}`: use error, warning or notice"
            ))
        })?,
        (None, None) => SeverityArg::Error,
    };
    let mut settings = RuleSettings::defaults(rules::registry());
    file.apply(&mut settings).map_err(|e| in_file(&e))?;
    for id in &args.enable_rule {
        settings.enable(id)?;
    }
    for id in &args.disable_rule {
        settings.disable(id)?;
    }
    if !args.only.is_empty() {
        settings.only(&args.only)?;
    }
    let mut exclude = file.exclude;
    exclude.extend(args.exclude.iter().cloned());
    Ok(Resolved {
        view,
        format,
        fail_on,
        exclude,
        settings,
    })
}

fn check(args: CheckArgs) -> i32 {
    let started = std::time::Instant::now();
    let resolved = match resolve(&args) {
        Ok(resolved) => resolved,
        Err(message) => return usage_error(&message),
    };
    let exclude = match discover::exclude_set(&resolved.exclude) {
        Ok(set) => set,
        Err(message) => return usage_error(&message),
    };
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths
    };
    let found = discover::discover(&paths, &exclude);
    if !found.missing.is_empty() {
        for path in &found.missing {
            eprintln!("error: no such file or directory: {}", path.display());
        }
        return EXIT_ERROR;
    }
    let selection = match resolved.view {
        ViewArg::Terraform => ViewSelection::Terraform,
        ViewArg::Opentofu => ViewSelection::OpenTofu,
        ViewArg::Both => ViewSelection::Both,
    };
    let options = Options {
        views: selection,
        max_file_bytes: args.max_file_size.saturating_mul(1024 * 1024),
        settings: std::sync::Arc::new(resolved.settings),
    };
    let pool = match thread_pool(args.threads) {
        Ok(pool) => pool,
        Err(message) => return usage_error(&message),
    };
    let run = pool.install(|| check_all(found, &paths, &options));
    let totals = Totals {
        directories: run.directories,
        files: run.files,
        bytes: run.bytes,
        views: options.views.checked(),
    };
    let diagnostics = run.diagnostics;

    let color = match args.color {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let catalogue = rules::registry().catalogue();
    let written = report::render(
        &mut out,
        resolved.format,
        color,
        &diagnostics,
        totals,
        catalogue,
    )
    .and_then(|()| out.flush());
    if let Err(error) = written
        && error.kind() != io::ErrorKind::BrokenPipe
    {
        eprintln!("error: cannot write output: {error}");
        return EXIT_ERROR;
    }
    if args.stats {
        let seconds = started.elapsed().as_secs_f64();
        eprintln!(
            "directories={} files={} bytes={} seconds={seconds:.3} mb_per_s={:.1}",
            totals.directories,
            totals.files,
            totals.bytes,
            totals.bytes as f64 / 1e6 / seconds.max(1e-9)
        );
    }
    exit_code(&diagnostics, resolved.fail_on)
}

fn list_rules() -> i32 {
    let catalogue = rules::registry().catalogue();
    let width = catalogue
        .iter()
        .map(|m| m.id.as_str().len())
        .max()
        .unwrap_or(0)
        .max(38);
    let mut out = format!("{:<width$} KIND        SEVERITY  DEFAULT  SUMMARY\n", "ID");
    for meta in catalogue {
        let kind = meta.kind.as_str();
        let on = if meta.enabled_by_default { "on" } else { "off" };
        out.push_str(&format!(
            "{:<width$} {kind:<11} {:<9} {on:<8} {}\n",
            meta.id.as_str(),
            meta.severity.as_str(),
            meta.summary
        ));
    }
    print_or_broken_pipe(&out)
}

fn explain(id: &str) -> i32 {
    let registry: &Registry = rules::registry();
    match registry.find(id) {
        Some(meta) => print_or_broken_pipe(meta.doc()),
        None => usage_error(&registry.unknown(id)),
    }
}

fn print_or_broken_pipe(text: &str) -> i32 {
    match io::stdout().lock().write_all(text.as_bytes()) {
        Err(error) if error.kind() != io::ErrorKind::BrokenPipe => {
            eprintln!("error: cannot write output: {error}");
            EXIT_ERROR
        }
        _ => EXIT_CLEAN,
    }
}

/// 2 when an I/O problem kept us from checking something; else 1 when a finding is at or above
/// the failing severity.
fn exit_code(diagnostics: &[Diagnostic], fail_on: SeverityArg) -> i32 {
    let threshold = match fail_on {
        SeverityArg::Error => Severity::Error,
        SeverityArg::Warning => Severity::Warning,
        SeverityArg::Notice => Severity::Notice,
    };
    if diagnostics.iter().any(|d| d.rule == ids::IO_ERROR) {
        EXIT_ERROR
    } else if diagnostics.iter().any(|d| d.severity >= threshold) {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}

fn merged(args: MergedArgs) -> i32 {
    if !args.dir.is_dir() {
        return usage_error(&format!("not a directory: {}", args.dir.display()));
    }
    let view = match args.view {
        MergedView::Terraform => View::Terraform,
        MergedView::Opentofu => View::OpenTofu,
    };
    let settings = RuleSettings::defaults(rules::registry());
    let options = Options::new(ViewSelection::only(view), settings);
    let result = directory::check_directory(&args.dir, &options);
    let errors: Vec<&Diagnostic> = result
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    for d in &errors {
        eprint!(
            "{}",
            String::from_utf8_lossy(&report::render_one_human(d, view.views()))
        );
    }
    let Some(module) = result.modules.first() else {
        eprintln!(
            "error: the {} view of {} could not be built",
            view.tool_name(),
            args.dir.display()
        );
        return EXIT_ERROR;
    };
    let text = print(module, &result.files, args.format);
    let mut stdout = io::stdout().lock();
    if let Err(error) = stdout.write_all(text.as_bytes())
        && error.kind() != io::ErrorKind::BrokenPipe
    {
        eprintln!("error: cannot write output: {error}");
        return EXIT_ERROR;
    }
    if errors.is_empty() {
        EXIT_CLEAN
    } else {
        EXIT_FINDINGS
    }
}

fn graph(args: GraphArgs) -> i32 {
    if !args.dir.is_dir() {
        return usage_error(&format!("not a directory: {}", args.dir.display()));
    }
    let exclude = match discover::exclude_set(&args.exclude) {
        Ok(set) => set,
        Err(message) => return usage_error(&message),
    };
    let given = [args.dir];
    let found = discover::discover(&given, &exclude);
    let tree = terragrunt::Tree::load(
        &found.terragrunt,
        terragrunt::paths::Displayer::new(&given),
        DEFAULT_MAX_FILE_BYTES,
    );
    let graph = file_graph(&tree);
    let text = match args.format {
        GraphFormat::Dot => dot(&graph),
        GraphFormat::Json => json(&graph),
    };
    print_or_broken_pipe(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::read::INJECT_PANIC;
    use crate::source::display_path;

    /// A panic while reading one directory's file becomes that directory's `internal_error`;
    /// the other directory is still checked, and the run exits 1.
    #[test]
    fn injected_panic_is_one_directorys_internal_error() {
        let root = tempfile::tempdir().expect("tempdir");
        let write = |path: &str, text: &str| {
            let path = root.path().join(path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        };
        write("crashes/main.tf", "variable \"a\" {}\n");
        write(&format!("crashes/{INJECT_PANIC}"), "variable \"b\" {}\n");
        write("healthy/main.tf", "variable \"a\" {}\n");
        write("healthy/override.tf", "variable \"missing\" {}\n");
        let given = vec![root.path().to_path_buf()];
        let exclude = discover::exclude_set(&[]).expect("no globs");
        let found = discover::discover(&given, &exclude);
        let shown = |path: &str| path.replace(&display_path(root.path()), "ROOT");
        let settings = RuleSettings::defaults(rules::registry());
        let options = Options::new(ViewSelection::Both, settings);
        let run = check_all(found, &given, &options);
        let ids: Vec<(String, &str)> = run
            .diagnostics
            .iter()
            .map(|d| (shown(&d.path), d.rule.as_str()))
            .collect();
        assert_eq!(
            ids,
            [
                ("ROOT/crashes".to_string(), "internal_error"),
                (
                    "ROOT/healthy/override.tf".to_string(),
                    "override_without_base"
                )
            ]
        );
        let mut rendered = Vec::new();
        let totals = Totals {
            directories: run.directories,
            files: run.files,
            bytes: run.bytes,
            views: options.views.checked(),
        };
        let catalogue = rules::registry().catalogue();
        report::render(
            &mut rendered,
            Format::Human,
            false,
            &run.diagnostics[..1],
            totals,
            catalogue,
        )
        .expect("render");
        insta::assert_snapshot!(shown(&String::from_utf8_lossy(&rendered)));
        assert_eq!(
            exit_code(&run.diagnostics, SeverityArg::Error),
            EXIT_FINDINGS
        );
    }
}
