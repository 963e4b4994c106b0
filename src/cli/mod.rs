//! Command-line interface: argument parsing and the `check` and `merged` commands.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

mod config;
mod fix;
mod server;

use crate::diagnostic::{Diagnostic, Finding, Severity, Views, escape};
use crate::input::discover;
use crate::input::overlay::Overlay;
use crate::input::read::DEFAULT_MAX_FILE_BYTES;
use crate::input::scope::{Scope as ReadScope, ScopeFlags};
use crate::knowledge::View;
use crate::knowledge::releases;
use crate::lint::check::{RunResult, walk_and_check, whole};
use crate::lint::directory::{self, Options, TargetVersions, ViewSelection};
use crate::lint::run::read_findings;
use crate::lint::targets::{range_text, releases_admitted_by};
use crate::lint::{Fixes, RuleSettings, registry::Registry};
use crate::module::print::{PrintFormat, print};
use crate::report::graph::{dot, file_graph, json};
use crate::report::{self, Format, RenderStyle, Rendered, Rendering, Totals};
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
  tflint-merge --fix                   apply the safe fixes (--unsafe-fixes: the others too)
  tflint-merge --diff                  print what --fix would change, as a diff for patch -p1
  tflint-merge merged modules/vpc      print the module Terraform and OpenTofu really load
  tflint-merge graph live/ --format json   print a Terragrunt tree's include/import graph

Exit status: 0 no findings at or above --fail-on, 1 findings (with --diff: something to fix),
2 usage, configuration or I/O error (with --fix and --diff: a fix that could not be written or
shown, named in a warning).";

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
    Check(Box<CheckArgs>),
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
    /// Run the language server over stdio, for editors (see the README).
    Server,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ViewArg {
    Terraform,
    Opentofu,
    Both,
}

impl ViewArg {
    fn selection(self) -> ViewSelection {
        match self {
            ViewArg::Terraform => ViewSelection::Terraform,
            ViewArg::Opentofu => ViewSelection::OpenTofu,
            ViewArg::Both => ViewSelection::Both,
        }
    }
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

/// One-value flags given twice take the last value (`overrides_with` itself), so a wrapper can
/// put its defaults first and a user's arguments after them.
#[derive(Debug, Args)]
struct CheckArgs {
    /// Files or directories; a file means the module directory holding it.
    #[arg(value_name = "PATHS")]
    paths: Vec<PathBuf>,
    /// Which tool's view of each module to check [default: both].
    #[arg(long, value_enum, overrides_with = "view")]
    view: Option<ViewArg>,
    /// Skip paths matching this glob (`*` stays within one directory, `**` crosses them).
    #[arg(long, value_name = "GLOB")]
    exclude: Vec<String>,
    /// Colour the output.
    #[arg(long, value_enum, overrides_with = "color", default_value = "auto")]
    color: ColorArg,
    /// Output format [default: human].
    #[arg(long, value_enum, overrides_with = "format")]
    format: Option<Format>,
    /// Exit with 1 when a finding is at or above this severity [default: error].
    #[arg(long, value_enum, overrides_with = "fail_on")]
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
    // Targeted releases (issue 11).
    /// The Terraform releases to judge against, e.g. ">= 1.6", or one build, e.g. "1.17.0-dev"
    /// (alpha and dev builds accept experiments) [default: the module's own
    /// `required_version`, else the newest stable release].
    #[arg(long, value_name = "CONSTRAINT")]
    terraform_version: Option<String>,
    /// The OpenTofu releases to judge against, e.g. "~> 1.10" [default: the module's own
    /// constraints, else the newest stable release].
    #[arg(long, value_name = "CONSTRAINT")]
    opentofu_version: Option<String>,
    /// Apply the safe fixes (they keep the effective module as it is), in place.
    #[arg(long)]
    fix: bool,
    /// With --fix or --diff, also the unsafe fixes (they change what the tools run, as the
    /// finding asks); alone, show them as available.
    #[arg(long)]
    unsafe_fixes: bool,
    /// Print what --fix would write as a unified diff (for `patch -p1`) and change nothing;
    /// exit 1 when there is something to fix.
    #[arg(long, conflicts_with = "fix")]
    diff: bool,
    #[command(flatten)]
    flags: CommonFlags,
}

/// The flags users bring from ruff and TFLint.
#[derive(Debug, Args)]
struct CommonFlags {
    /// Report findings but exit 0 for them (usage and I/O errors still exit 2).
    #[arg(long)]
    exit_zero: bool,
    /// Print the number of findings of each rule instead of the findings.
    #[arg(long)]
    statistics: bool,
    /// Print the effective settings and where each came from, then exit.
    #[arg(long)]
    show_settings: bool,
    /// Print the findings only: no summary line, no notices on stderr.
    #[arg(short, long)]
    quiet: bool,
    /// The same as `--color never`.
    #[arg(long)]
    no_color: bool,
    /// Change to this directory first: the config file is looked up and paths resolved there.
    #[arg(long, value_name = "DIR")]
    chdir: Option<PathBuf>,
    /// Also check paths that `.gitignore` files (and `.git/info/exclude`) exclude.
    #[arg(long)]
    no_respect_gitignore: bool,
    /// Also read files under this path, outside the checked paths and their repository
    /// (repeatable): a Terragrunt include or module source that lives elsewhere. Never /proc,
    /// /sys or /dev.
    #[arg(long, value_name = "PATH")]
    allow_outside: Vec<PathBuf>,
    /// Walk into directory links that lead outside the checked paths (never into /proc,
    /// /sys or /dev); by default they are listed in a notice and not walked.
    #[arg(long)]
    follow_links: bool,
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
        Some(Command::Check(args)) => check(*args),
        Some(Command::Merged(args)) => merged(args),
        Some(Command::Graph(args)) => graph(args),
        Some(Command::Rules) => list_rules(),
        Some(Command::Explain { rule }) => explain(&rule),
        Some(Command::Server) => server::run(),
        None => check(cli.check),
    }
}

/// The subcommand a missing path argument was probably meant to be (`merge` for `merged`):
/// paths and subcommands share the first position.
fn similar_subcommand(path: &std::path::Path) -> Option<String> {
    let word = path.to_str().filter(|w| !w.contains(['/', '\\', '.']))?;
    let command = <Cli as clap::CommandFactory>::command();
    let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
    crate::lint::helpers::closest(word, names).map(str::to_string)
}

/// Prints a usage error; what it quotes (a path, a config file's value) is escaped as every
/// message is.
fn usage_error(message: &str) -> i32 {
    eprintln!("error: {}", escape::text(message));
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
    excludes: discover::Excludes,
    settings: RuleSettings,
    target_versions: TargetVersions,
    /// What `--show-settings` prints beyond the values above.
    shown: Shown,
}

/// Where the settings came from, for `--show-settings`.
struct Shown {
    config_file: Option<PathBuf>,
    config_exclude: Vec<String>,
    /// The origin of `view`, `format` and `fail_on`.
    origins: [&'static str; 3],
    /// The rule settings the config file gave, before the command line.
    from_file: RuleSettings,
}

const DEFAULT: &str = "default";
const CONFIG_FILE: &str = "config file";
const COMMAND_LINE: &str = "command line";

fn origin(on_command_line: bool, in_file: bool) -> &'static str {
    match (on_command_line, in_file) {
        (true, _) => COMMAND_LINE,
        (false, true) => CONFIG_FILE,
        (false, false) => DEFAULT,
    }
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
    let origins = [
        origin(args.view.is_some(), file.view.is_some()),
        origin(args.format.is_some(), file.format.is_some()),
        origin(args.fail_on.is_some(), file.fail_on.is_some()),
    ];
    let mut settings = RuleSettings::defaults(rules::registry());
    file.apply(&mut settings).map_err(|e| in_file(&e))?;
    let from_file = settings.clone();
    for id in &args.enable_rule {
        settings.enable(id)?;
    }
    for id in &args.disable_rule {
        settings.disable(id)?;
    }
    if !args.only.is_empty() {
        settings.only(&args.only)?;
    }
    let target_versions = TargetVersions {
        terraform: target_version(View::Terraform, &args.terraform_version, &file, &in_file)?,
        opentofu: target_version(View::OpenTofu, &args.opentofu_version, &file, &in_file)?,
    };
    let mut excludes = discover::Excludes::given(&args.exclude)?;
    if let Some(path) = &path {
        excludes = excludes.with_config(path, &file.exclude)?;
    }
    Ok(Resolved {
        view,
        format,
        fail_on,
        excludes,
        settings,
        target_versions,
        shown: Shown {
            config_file: path,
            config_exclude: file.exclude,
            origins,
            from_file,
        },
    })
}

/// The targeted releases of one tool, from its flag or else the config file's key; an error
/// when the constraint does not parse or admits no release tflint-merge knows.
fn target_version(
    view: View,
    flag: &Option<String>,
    file: &config::Config,
    in_file: &dyn Fn(&str) -> String,
) -> Result<Option<String>, String> {
    let (text, key) = match view {
        View::Terraform => (&file.terraform_version, "terraform_version"),
        View::OpenTofu => (&file.opentofu_version, "opentofu_version"),
    };
    let (text, from_file) = match (flag, text) {
        (Some(text), _) => (text, false),
        (None, Some(text)) => (text, true),
        (None, None) => return Ok(None),
    };
    if releases_admitted_by(view, text).is_some() {
        return Ok(Some(text.clone()));
    }
    let known = range_text(&releases::all(view).iter().map(|r| r.0).collect::<Vec<_>>());
    let message = format!(
        "invalid {} `{text}`: a version constraint such as \">= 1.6\" that admits a known {} \
         release ({known})",
        if from_file {
            key.to_string()
        } else {
            format!("--{}", key.replace('_', "-"))
        },
        view.tool_name()
    );
    Err(if from_file {
        in_file(&message)
    } else {
        message
    })
}

fn check(args: CheckArgs) -> i32 {
    let started = std::time::Instant::now();
    let flags = &args.flags;
    if let Some(dir) = &flags.chdir
        && let Err(error) = std::env::set_current_dir(dir)
    {
        return usage_error(&format!("--chdir {}: {error}", dir.display()));
    }
    let resolved = match resolve(&args) {
        Ok(resolved) => resolved,
        Err(message) => return usage_error(&message),
    };
    if flags.show_settings {
        return print_or_broken_pipe(&show_settings(&resolved));
    }
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths
    };
    let pool = match thread_pool(args.threads) {
        Ok(pool) => pool,
        Err(message) => return usage_error(&message),
    };
    let scope_flags = ScopeFlags {
        allow_outside: flags.allow_outside.clone(),
        follow_links: flags.follow_links,
    };
    let scope = std::sync::Arc::new(ReadScope::new(&paths, &scope_flags));
    let mut excludes = resolved.excludes;
    excludes.set_scope(std::sync::Arc::clone(&scope));
    let options = Options {
        views: resolved.view.selection(),
        max_file_bytes: args.max_file_size.saturating_mul(1024 * 1024),
        settings: std::sync::Arc::new(resolved.settings),
        target_versions: resolved.target_versions,
        overlay: Overlay::default().within(Some(scope)),
        cancel: Default::default(),
    };
    let color = match args.color {
        _ if flags.no_color => false,
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let reporter = Report {
        format: resolved.format,
        quiet: flags.quiet,
        statistics: flags.statistics,
        views: options.views.checked(),
        unsafe_fixes: args.unsafe_fixes,
        fail_on: resolved.fail_on,
        exit_zero: flags.exit_zero,
        stats: args.stats.then_some(started),
    };
    // Without fixes, the human and short formats print each finding on its own: it is rendered
    // on the worker that found it, and the run keeps its bytes rather than the finding.
    let rendering = match Rendering::of(resolved.format, color) {
        _ if args.fix || args.diff => None,
        _ if flags.statistics => Some(Rendering::Nothing),
        rendering => rendering,
    };
    // The walk and the checks on the pool's threads, the checks starting as the walk finds
    // their directories. The walk's listings are freed by the pool's threads, and an allocator
    // reuses memory best on the thread that allocated it (mimalloc's heaps are per thread:
    // listings made on the main thread stayed resident all run).
    let walk = || discover::Walk::new(&paths, &excludes, !flags.no_respect_gitignore);
    // What discovery says besides the findings, as soon as the walk is done (before the
    // findings); false for a usage error, after which nothing more is checked.
    let report_walk = |found: &discover::Discovery| {
        for path in &found.missing {
            let shown = escape::text(&path.to_string_lossy()).into_owned();
            eprintln!("error: no such file or directory: {shown}");
            if let Some(name) = similar_subcommand(path) {
                eprintln!("  tip: did you mean the subcommand `{name}`? (`tflint-merge {name}`)");
            }
        }
        if !found.missing.is_empty() {
            return false;
        }
        for note in found.notes.iter().filter(|_| !flags.quiet) {
            eprintln!("notice: {}", escape::text(note));
        }
        true
    };
    if let Some(format) = rendering {
        let style = RenderStyle {
            format,
            views: reporter.views,
            unsafe_fixes: reporter.unsafe_fixes,
        };
        let render = |diagnostics: Vec<Diagnostic>| -> Vec<Rendered> {
            diagnostics.iter().map(|d| style.render(d)).collect()
        };
        let (found, run) =
            pool.install(|| walk_and_check(walk(), &paths, &options, &render, &report_walk));
        if !found.missing.is_empty() {
            return EXIT_ERROR;
        }
        return reporter.finish(run, false, |out, findings, totals| {
            report::write_rendered(out, &style, findings, totals, flags.quiet)
        });
    }
    let lint = |options: &Options, walk_done: &(dyn Fn(&discover::Discovery) -> bool + Sync)| {
        pool.install(|| walk_and_check(walk(), &paths, options, &whole, walk_done))
    };
    let (found, mut run) = lint(&options, &report_walk);
    if !found.missing.is_empty() {
        return EXIT_ERROR;
    }
    // The runs after fixes say nothing of discovery again.
    let quietly = |found: &discover::Discovery| found.missing.is_empty();
    if args.diff {
        let relint = |overlay: &Overlay| {
            let options = Options {
                overlay: overlay.clone().within(options.overlay.scope().cloned()),
                ..options.clone()
            };
            lint(&options, &quietly).1.findings
        };
        let (planned, passes) = fix::plan_passes(
            &run.findings,
            &relint,
            args.unsafe_fixes,
            &paths,
            options.max_file_bytes,
        );
        let io_error = run.findings.iter().any(|d| d.rule == rules::IO_ERROR.id());
        return show_diff(&planned, passes, io_error, flags.quiet);
    }
    let mut fix_failed = false;
    if args.fix {
        let mut fixed = 0;
        let mut passes = 0;
        // A file left alone is named once, not once per pass.
        let mut warned = std::collections::HashSet::new();
        while run.findings.iter().any(|d| d.fixable(args.unsafe_fixes)) {
            if passes == fix::MAX_PASSES {
                eprintln!(
                    "warning: stopped fixing after {} passes: each pass made new fixes; the \
                     findings below are what is left",
                    fix::MAX_PASSES
                );
                break;
            }
            let planned = fix::plan(
                &run.findings,
                args.unsafe_fixes,
                &paths,
                options.max_file_bytes,
                &options.overlay,
            );
            let (_, problems) = fix::write(&planned);
            for problem in planned.problems.iter().chain(&problems) {
                if warned.insert(problem.clone()) {
                    eprintln!("warning: {}", escape::text(problem));
                }
            }
            // A fix asked for and not written (a file left alone, read-only, changed on disk)
            // is an I/O error of the run.
            fix_failed |= !planned.problems.is_empty() || !problems.is_empty();
            if planned.fixed == 0 || !problems.is_empty() {
                break;
            }
            fixed += planned.fixed;
            passes += 1;
            run = lint(&options, &quietly).1;
        }
        if !flags.quiet {
            let plural = if fixed == 1 { "" } else { "s" };
            eprintln!("fixed {fixed} finding{plural}");
        }
        // What is left is marked `[*]` and counted as fixable only where `--fix` would write.
        // (A run without `--fix` keeps every fix in its output: a read-only checkout in CI
        // still reports the fixes, in SARIF say, for someone else to apply.)
        fix::withhold_refused(&mut run.findings, &fix::Roots::of(&paths));
    }
    let catalogue = rules::registry().catalogue();
    reporter.finish(run, fix_failed, |out, diagnostics, totals| {
        if reporter.quiet && reporter.format == Format::Human {
            // The findings without the summary line.
            let (views, unsafe_fixes) = (totals.views, totals.unsafe_fixes);
            report::render_human_findings(out, color, diagnostics, views, unsafe_fixes)
        } else {
            report::render(out, reporter.format, color, diagnostics, totals, catalogue)
        }
    })
}

/// How `check` reports a run, whatever it kept of each finding.
struct Report {
    format: Format,
    quiet: bool,
    /// `--statistics`: the counts of each rule rather than the findings.
    statistics: bool,
    views: Views,
    unsafe_fixes: bool,
    fail_on: SeverityArg,
    exit_zero: bool,
    /// `--stats`: when the run started.
    stats: Option<std::time::Instant>,
}

impl Report {
    /// Writes the findings to stdout with `write` (or their `--statistics`), `--stats` to
    /// stderr; returns the exit code.
    fn finish<F: Finding>(
        &self,
        run: RunResult<F>,
        fix_failed: bool,
        write: impl FnOnce(&mut dyn Write, &[F], Totals) -> io::Result<()>,
    ) -> i32 {
        let totals = Totals {
            directories: run.directories,
            files: run.files,
            bytes: run.bytes,
            views: self.views,
            unsafe_fixes: self.unsafe_fixes,
        };
        let parsed_apart = run.parsed_apart;
        let findings = run.findings;
        let stdout = io::stdout();
        let mut out = io::BufWriter::new(stdout.lock());
        let written = if self.statistics {
            out.write_all(statistics(&findings).as_bytes())
        } else {
            write(&mut out, &findings, totals)
        }
        .and_then(|()| out.flush());
        if let Err(error) = written
            && error.kind() != io::ErrorKind::BrokenPipe
        {
            eprintln!("error: cannot write output: {error}");
            return EXIT_ERROR;
        }
        if let Some(started) = self.stats {
            let seconds = started.elapsed().as_secs_f64();
            // `parsed_again`: files parsed for a caller's rules apart from their own
            // directory's check, which would ideally be none.
            eprintln!(
                "directories={} files={} bytes={} parsed_again={parsed_apart} seconds={seconds:.3} \
                 mb_per_s={:.1}",
                totals.directories,
                totals.files,
                totals.bytes,
                totals.bytes as f64 / 1e6 / seconds.max(1e-9)
            );
        }
        match exit_code(&findings, self.fail_on) {
            _ if fix_failed => EXIT_ERROR,
            EXIT_FINDINGS if self.exit_zero => EXIT_CLEAN,
            code => code,
        }
    }
}

/// `--diff`: the unified diff of what `--fix` would write on stdout, how many findings it
/// fixes on stderr; exit 1 when there is something to fix, 2 when a file could not be read, a
/// fix would be refused or the diff cannot show one.
fn show_diff(planned: &fix::Planned, passes: usize, io_error: bool, quiet: bool) -> i32 {
    let (diff, left_out) = fix::diff(planned);
    for problem in planned.problems.iter().chain(&left_out) {
        eprintln!("warning: {}", escape::text(problem));
    }
    if print_or_broken_pipe(&diff) == EXIT_ERROR {
        return EXIT_ERROR;
    }
    if !quiet {
        let plural = if planned.fixed == 1 { "" } else { "s" };
        let mut line = format!("would fix {} finding{plural}", planned.fixed);
        if passes > 1 {
            line.push_str(&format!(" in {passes} passes"));
        }
        if passes == fix::MAX_PASSES {
            line.push_str(" (stopped there: the bound; `--fix` may find more)");
        }
        eprintln!("{line}");
    }
    if io_error || !planned.problems.is_empty() || !left_out.is_empty() {
        EXIT_ERROR
    } else if diff.is_empty() {
        EXIT_CLEAN
    } else {
        EXIT_FINDINGS
    }
}

/// `--statistics`: findings per id, most first, then the summary counts.
fn statistics<F: Finding>(findings: &[F]) -> String {
    let mut counts: std::collections::BTreeMap<(&str, Severity), usize> = Default::default();
    for finding in findings {
        *counts
            .entry((finding.rule().as_str(), finding.severity()))
            .or_default() += 1;
    }
    let mut rows: Vec<((&str, Severity), usize)> = counts.into_iter().collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.0.cmp(b.0.0)));
    let width = rows.iter().map(|((id, _), _)| id.len()).max().unwrap_or(0);
    rows.iter()
        .map(|((id, severity), count)| format!("{count:>5}  {id:<width$}  {}\n", severity.as_str()))
        .collect()
}

/// `--show-settings`: every effective setting and where it came from.
fn show_settings(resolved: &Resolved) -> String {
    let shown = &resolved.shown;
    let mut out = match &shown.config_file {
        Some(path) => {
            let path = crate::source::display_path(path);
            format!("config file: {}\n", escape::text(&path))
        }
        None => format!(
            "config file: none ({} here or above)\n",
            config::FILE_NAMES[0]
        ),
    };
    let [view, format, fail_on] = shown.origins;
    let value = |v: Option<clap::builder::PossibleValue>| {
        v.map(|v| v.get_name().to_string()).unwrap_or_default()
    };
    out.push_str(&format!(
        "view: {}  ({view})\n",
        value(resolved.view.to_possible_value())
    ));
    out.push_str(&format!(
        "format: {}  ({format})\n",
        value(resolved.format.to_possible_value())
    ));
    out.push_str(&format!(
        "fail_on: {}  ({fail_on})\n",
        value(resolved.fail_on.to_possible_value())
    ));
    for glob in &shown.config_exclude {
        let glob = escape::text(glob);
        out.push_str(&format!(
            "exclude: {glob}  ({CONFIG_FILE}, relative to its directory)\n"
        ));
    }
    for glob in resolved.excludes.given_globs() {
        let glob = escape::text(glob);
        out.push_str(&format!("exclude: {glob}  ({COMMAND_LINE})\n"));
    }
    out.push_str("rules:\n");
    let defaults = RuleSettings::defaults(rules::registry());
    let state = |settings: &RuleSettings, meta: &crate::lint::RuleMeta| {
        (settings.is_enabled(meta.id), settings.severity(meta))
    };
    let catalogue = rules::registry().catalogue();
    let width = catalogue
        .iter()
        .map(|m| m.id.as_str().len())
        .max()
        .unwrap_or(0);
    for meta in catalogue {
        let (on, severity) = state(&resolved.settings, meta);
        let from = if (on, severity) != state(&shown.from_file, meta) {
            COMMAND_LINE
        } else if (on, severity) != state(&defaults, meta) {
            CONFIG_FILE
        } else {
            DEFAULT
        };
        let level = if on { severity.as_str() } else { "off" };
        out.push_str(&format!(
            "  {:<width$}  {level:<7}  ({from})\n",
            meta.id.as_str()
        ));
        // Only the config file sets options; an option it does not set has the rule's default.
        let rule = rules::registry()
            .rules()
            .iter()
            .find(|r| r.meta.id == meta.id);
        for option in rule.map_or(&[][..], |rule| rule.options) {
            if let Some(value) = resolved.settings.number_option(meta.id, option.name) {
                out.push_str(&format!("    {}: {value}  ({CONFIG_FILE})\n", option.name));
            }
        }
    }
    out
}

fn list_rules() -> i32 {
    let catalogue = rules::registry().catalogue();
    let width = catalogue
        .iter()
        .map(|m| m.id.as_str().len())
        .max()
        .unwrap_or(0)
        .max(38);
    let mut out = format!(
        "{:<width$} KIND        SEVERITY  DEFAULT  FIX          SUMMARY\n",
        "ID"
    );
    for meta in catalogue {
        let kind = meta.kind.as_str();
        let on = if meta.enabled_by_default { "on" } else { "off" };
        out.push_str(&format!(
            "{:<width$} {kind:<11} {:<9} {on:<8} {:<12} {}\n",
            meta.id.as_str(),
            meta.severity.as_str(),
            meta.fixes.as_str(),
            meta.summary
        ));
    }
    out.push_str(FIX_LEGEND);
    out.push('\n');
    out.push_str(&crate::lint::targets::explain_targets());
    print_or_broken_pipe(&out)
}

const FIX_LEGEND: &str = "
FIX: a `safe` fix keeps the effective module as it is, and `--fix` applies it; an `unsafe`
fix changes what the tools run, as the finding asks, and needs `--fix --unsafe-fixes`.
";

/// The doc, and for an id whose findings carry fixes, which ones (as the FIX column says).
fn explain(id: &str) -> i32 {
    let registry: &Registry = rules::registry();
    let Some(meta) = registry.find(id) else {
        return usage_error(&registry.unknown(id));
    };
    let fixes = match meta.fixes {
        Fixes::None => None,
        Fixes::Safe => Some("safe: `tflint-merge --fix` applies it"),
        Fixes::Unsafe => Some("unsafe: `tflint-merge --fix --unsafe-fixes` applies it"),
        Fixes::SafeOrUnsafe => Some(
            "safe or unsafe, as the finding says: `tflint-merge --fix` applies the safe ones, \
             `--fix --unsafe-fixes` all",
        ),
    };
    match fixes {
        Some(fixes) => print_or_broken_pipe(&format!("{}\nFix: {fixes}.\n", meta.doc())),
        None => print_or_broken_pipe(meta.doc()),
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
fn exit_code<F: Finding>(findings: &[F], fail_on: SeverityArg) -> i32 {
    let threshold = match fail_on {
        SeverityArg::Error => Severity::Error,
        SeverityArg::Warning => Severity::Warning,
        SeverityArg::Notice => Severity::Notice,
    };
    if findings.iter().any(|f| f.rule() == rules::IO_ERROR.id()) {
        EXIT_ERROR
    } else if findings.iter().any(|f| f.severity() >= threshold) {
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
    let mut options = Options::new(ViewSelection::only(view), settings);
    let scope = ReadScope::new(std::slice::from_ref(&args.dir), &ScopeFlags::default());
    options.overlay = Overlay::default().within(Some(std::sync::Arc::new(scope)));
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
            escape::text(&args.dir.to_string_lossy())
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
    let mut exclude = match discover::Excludes::given(&args.exclude) {
        Ok(set) => set,
        Err(message) => return usage_error(&message),
    };
    let given = [args.dir];
    let scope = std::sync::Arc::new(ReadScope::new(&given, &ScopeFlags::default()));
    exclude.set_scope(std::sync::Arc::clone(&scope));
    let found = discover::discover(&given, &exclude, true);
    let tree = terragrunt::Tree::load(
        &found.terragrunt,
        terragrunt::paths::Displayer::new(&given),
        DEFAULT_MAX_FILE_BYTES,
        &Overlay::default().within(Some(scope)),
    );
    // Files that could not be read or parsed are in the graph without their references: say
    // so on stderr, and in the exit status, as `merged` does for a module it cannot build.
    let settings = RuleSettings::defaults(rules::registry());
    let problems: Vec<Diagnostic> = tree
        .live_file_indexes()
        .flat_map(|f| read_findings(&tree.files[f].problems, &tree.sources, &settings))
        .filter(|d| d.severity == Severity::Error)
        .collect();
    for d in &problems {
        let rendered = report::render_one_human(d, Views::NONE);
        eprint!("{}", String::from_utf8_lossy(&rendered));
    }
    let graph = file_graph(&tree);
    let text = match args.format {
        GraphFormat::Dot => dot(&graph),
        GraphFormat::Json => json(&graph),
    };
    match print_or_broken_pipe(&text) {
        EXIT_CLEAN if problems.iter().any(|d| d.rule == rules::IO_ERROR.id()) => EXIT_ERROR,
        EXIT_CLEAN if !problems.is_empty() => EXIT_FINDINGS,
        status => status,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::read::{DirectoryStep, INJECT_PANIC, ReadProblem};
    use crate::lint::check::check_all;
    use crate::source::display_path;
    use std::collections::BTreeSet;

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
        let found = discover::discover(&given, &discover::Excludes::default(), true);
        let shown = |path: &str| path.replace(&display_path(root.path()), "ROOT");
        let settings = RuleSettings::defaults(rules::registry());
        let options = Options::new(ViewSelection::Both, settings);
        let run = check_all(found, &given, &options, &whole);
        let ids: Vec<(String, &str)> = run
            .findings
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
            unsafe_fixes: false,
        };
        let catalogue = rules::registry().catalogue();
        report::render(
            &mut rendered,
            Format::Human,
            false,
            &run.findings[..1],
            totals,
            catalogue,
        )
        .expect("render");
        insta::assert_snapshot!(shown(&String::from_utf8_lossy(&rendered)));
        assert_eq!(exit_code(&run.findings, SeverityArg::Error), EXIT_FINDINGS);
    }

    /// The human and short output (with and without colour, `--quiet`, `--unsafe-fixes`),
    /// `--statistics` and the exit status are the same from findings rendered on the workers
    /// as from the whole diagnostics: the same findings, in the same order, with the same
    /// bytes. The run has findings in several directories, from discovery, from a crashed
    /// directory and from the Terragrunt tree, one view only, fixable safely and not.
    #[test]
    fn rendered_findings_report_as_the_diagnostics() {
        let noop = "variable \"a\" {\n  default = 1\n}\n";
        let mut files = Vec::new();
        for dir in ["a", "b", "b/c", "b-c"] {
            files.push((format!("{dir}/main.tf"), noop));
            files.push((format!("{dir}/override.tf"), noop));
            files.push((
                format!("{dir}/x_override.tofu"),
                "variable \"missing\" {}\n",
            ));
        }
        // Findings in one file in the order of their places, not of their ids.
        let resource = "resource \"a\" \"b\" {\n  count = 1\n  for_each = {}\n}\n";
        files.push(("b/extra_override.tf".into(), resource));
        files.push(("crashes/main.tf".into(), "variable \"a\" {}\n"));
        files.push((format!("crashes/{INJECT_PANIC}"), "variable \"b\" {}\n"));
        files.push(("live/app/terragrunt.hcl".into(), "locals {\n"));
        let files: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), *t)).collect();
        let root = crate::lint::testing::write_files(&files);
        let given = vec![root.path().to_path_buf()];
        let discover = || {
            let mut found = discover::discover(&given, &discover::Excludes::default(), true);
            // A walk problem (discovery cannot be made to fail here), sorted among the
            // directories' findings.
            found.problems.push(ReadProblem::Directory {
                path: display_path(&root.path().join("b")),
                step: DirectoryStep::List,
                error: "Permission denied (os error 13)".into(),
            });
            found
        };
        let settings = RuleSettings::defaults(rules::registry());
        let options = Options::new(ViewSelection::Both, settings);
        let whole_run = check_all(discover(), &given, &options, &whole);
        let rules: BTreeSet<&str> = (whole_run.findings.iter())
            .map(|d| d.rule.as_str())
            .collect();
        assert!(whole_run.findings.len() > 12, "{:?}", whole_run.findings);
        for rule in [
            "io_error",
            "internal_error",
            "override_noop",
            "syntax_error",
        ] {
            assert!(rules.contains(rule), "no {rule} in {rules:?}");
        }
        let views = options.views.checked();
        let totals = |unsafe_fixes| Totals {
            directories: whole_run.directories,
            files: whole_run.files,
            bytes: whole_run.bytes,
            views,
            unsafe_fixes,
        };
        let catalogue = rules::registry().catalogue();
        let formats = [
            Rendering::Human { color: false },
            Rendering::Human { color: true },
            Rendering::Short,
        ];
        let cases = formats.into_iter().flat_map(|format| {
            [(false, false), (true, false), (false, true)].map(|(u, q)| (format, u, q))
        });
        for (format, unsafe_fixes, quiet) in cases {
            let style = RenderStyle {
                format,
                views,
                unsafe_fixes,
            };
            let render = |diagnostics: Vec<Diagnostic>| -> Vec<Rendered> {
                diagnostics.iter().map(|d| style.render(d)).collect()
            };
            let run = check_all(discover(), &given, &options, &render);
            let mut expected = Vec::new();
            let (report_format, color) = match format {
                Rendering::Human { color } => (Format::Human, color),
                _ => (Format::Short, false),
            };
            let diagnostics = &whole_run.findings;
            if quiet && report_format == Format::Human {
                report::render_human_findings(
                    &mut expected,
                    color,
                    diagnostics,
                    views,
                    unsafe_fixes,
                )
            } else {
                let totals = totals(unsafe_fixes);
                report::render(
                    &mut expected,
                    report_format,
                    color,
                    diagnostics,
                    totals,
                    catalogue,
                )
            }
            .expect("render");
            let mut rendered = Vec::new();
            report::write_rendered(
                &mut rendered,
                &style,
                &run.findings,
                totals(unsafe_fixes),
                quiet,
            )
            .expect("write");
            assert_eq!(
                String::from_utf8_lossy(&rendered),
                String::from_utf8_lossy(&expected),
                "{format:?} unsafe_fixes={unsafe_fixes} quiet={quiet}"
            );
            assert_eq!(statistics(&run.findings), statistics(diagnostics));
            for fail_on in [
                SeverityArg::Error,
                SeverityArg::Warning,
                SeverityArg::Notice,
            ] {
                assert_eq!(
                    exit_code(&run.findings, fail_on),
                    exit_code(diagnostics, fail_on)
                );
            }
        }
    }
}
