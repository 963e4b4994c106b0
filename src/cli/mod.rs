//! Command-line interface: argument parsing and the `check` and `merged` commands.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};

mod add_ignore;
mod compat;
mod config;
pub(crate) mod fix;
mod map_sarif;
mod merged_out;
mod outputs;
mod per_path;
mod server;
mod statistics;

use crate::diagnostic::{Diagnostic, Finding, SHOWN_PER_RULE_AND_FILE, Severity, Views, escape};
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
  tflint-merge --format github --output-file sarif=out.sarif   a CI log and SARIF, one run
  tflint-merge --stdin-filename m/main.tf < buffer.tf   check a buffer as m/main.tf
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
    /// Print the effective module of one directory, with override files merged; with --out,
    /// write that of every module directory below the paths, with a source map.
    Merged(MergedArgs),
    /// Which Terraform and OpenTofu releases load each module directory, and the version
    /// constraints that are too loose or too tight.
    Compat(compat::CompatArgs),
    /// Move the locations of another tool's SARIF report on `merged --out` files back to the
    /// base and override files their text comes from.
    MapSarif(MapSarifArgs),
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
    /// Skip paths matching this glob (`*` stays within one directory, `**` crosses them); an
    /// excluded file's findings are dropped, its module is still loaded with it.
    #[arg(long, value_name = "GLOB")]
    exclude: Vec<String>,
    /// Colour the output.
    #[arg(long, value_enum, overrides_with = "color", default_value = "auto")]
    color: ColorArg,
    /// Output format [default: human].
    #[arg(
        long,
        visible_alias = "output-format",
        value_enum,
        overrides_with = "format"
    )]
    format: Option<Format>,
    /// Write the output of --format to PATH instead of stdout; with a format in front,
    /// `sarif=PATH`, write one more report of the run in that format (repeatable).
    #[arg(long, value_name = "[FORMAT=]PATH", conflicts_with_all = ["diff", "add_ignore"])]
    output_file: Vec<String>,
    /// Exit with 1 when a finding is at or above this severity [default: error].
    #[arg(long, value_enum, overrides_with = "fail_on")]
    fail_on: Option<SeverityArg>,
    /// The config file (default: .tflint-merge.yaml here or in the nearest parent directory).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Turn rules on (repeatable), e.g. one that is off by default. RULE is an id, a glob
    /// (`'override_*'`) or a prefix of ids (`override`), here and in --disable-rule and --only.
    #[arg(long, visible_alias = "extend-select", value_name = "RULE")]
    enable_rule: Vec<String>,
    /// Turn rules off (repeatable).
    #[arg(long, visible_alias = "ignore", value_name = "RULE")]
    disable_rule: Vec<String>,
    /// Run only these rules (repeatable); load errors are always reported.
    #[arg(long, visible_alias = "select", value_name = "RULE")]
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
    /// Show every finding: by default, past 1000 findings of one rule in one file, one
    /// finding says how many more there are (every finding is still counted).
    #[arg(long)]
    show_all_findings: bool,
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
    /// Add an ignore comment with this reason above each line where a rule finding starts
    /// (a baseline, as ruff's --add-noqa), then exit; running it again adds nothing.
    #[arg(long, value_name = "REASON", conflicts_with_all = ["fix", "diff", "stdin_filename"])]
    add_ignore: Option<String>,
    /// Check the text on stdin as the file PATH (which need not exist): PATH's directory is
    /// checked with stdin in place of the file, and the findings in that file are reported.
    #[arg(long, value_name = "PATH", conflicts_with_all = ["paths", "fix", "diff"])]
    stdin_filename: Option<PathBuf>,
    #[command(flatten)]
    flags: CommonFlags,
}

/// The flags users bring from ruff and TFLint.
#[derive(Debug, Args)]
struct CommonFlags {
    /// Report findings but exit 0 for them (usage and I/O errors still exit 2).
    #[arg(long)]
    exit_zero: bool,
    /// Print the number of findings of each rule instead of the findings (as JSON with
    /// `--format json`).
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
#[command(after_help = MERGED_EXAMPLES)]
struct MergedArgs {
    /// The module directory (or a file in it), or a Terragrunt unit (its `terragrunt.hcl`, or
    /// a directory holding one and no Terraform file): its effective configuration, includes
    /// and imports merged. With --out: any number of paths, each walked for module
    /// directories.
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// Which tool's view.
    #[arg(long, value_enum, default_value = "terraform")]
    view: MergedView,
    /// Output format.
    #[arg(long, value_enum, default_value = "hcl", conflicts_with = "out")]
    format: PrintFormat,
    /// Write the effective module of every module directory below the paths into this
    /// directory, each as `effective.tf` at the directory's path relative to the paths'
    /// common directory, with a source map (`tflint-merge-sourcemap.json`) for `map-sarif`.
    /// The directory is created; an existing one must be empty or hold an earlier output,
    /// which is replaced (nothing else in it is touched).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

const MERGED_EXAMPLES: &str = "\
Examples:
  tflint-merge merged modules/vpc                  print the effective module
  tflint-merge merged --format json modules/vpc    with the file and line of every value
  tflint-merge merged --out /tmp/effective .       write every module's, for a scanner
  checkov -d /tmp/effective -o sarif --output-file-path /tmp
  tflint-merge map-sarif --from /tmp/effective /tmp/results_sarif.sarif";

#[derive(Debug, Args)]
struct MapSarifArgs {
    /// The directory `merged --out` wrote (it holds `tflint-merge-sourcemap.json`).
    #[arg(long, value_name = "DIR")]
    from: PathBuf,
    /// The SARIF report of a scan of that directory.
    #[arg(value_name = "FILE.sarif")]
    sarif: PathBuf,
    /// Write the mapped report to this file instead of stdout.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
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

/// The stack of every thread that parses: the parser recurses once per nesting level, and
/// Terraform loads configurations nested a thousand levels deep.
const PARSING_STACK_BYTES: usize = 16 * 1024 * 1024;

/// Parses the arguments and runs; returns the exit code. The commands run on a thread with the
/// workers' stack, not on the main thread, whose stack the platform sets (1 MiB on Windows):
/// `merged` and `graph` parse on the thread that runs them.
pub(crate) fn run() -> i32 {
    let commands = std::thread::Builder::new()
        .name("tflint-merge".into())
        .stack_size(PARSING_STACK_BYTES)
        .spawn(run_commands);
    match commands {
        Ok(thread) => thread
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        // No thread to be had: the main thread may still be enough for this input.
        Err(_) => run_commands(),
    }
}

fn run_commands() -> i32 {
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
        Some(Command::Compat(args)) => compat::compat(args),
        Some(Command::MapSarif(args)) => map_sarif::run(&map_sarif::MapSarif {
            from: &args.from,
            sarif: &args.sarif,
            output: args.output.as_deref(),
        }),
        Some(Command::Graph(args)) => graph(args),
        Some(Command::Rules) => list_rules(),
        Some(Command::Explain { rule }) => explain(&rule),
        Some(Command::Server) => server::run(),
        None => check(cli.check),
    }
}

/// The text of `--stdin-filename`: all of stdin, as UTF-8 (as the tools read files).
fn read_stdin() -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read stdin: {e}"))?;
    String::from_utf8(bytes).map_err(|e| format!("stdin is not UTF-8: {}", e.utf8_error()))
}

/// The subcommand a missing path argument was probably meant to be (`merge` for `merged`):
/// paths and subcommands share the first position.
fn similar_subcommand(path: &std::path::Path) -> Option<String> {
    let word = path.to_str().filter(|w| !w.contains(['/', '\\', '.']))?;
    let command = <Cli as clap::CommandFactory>::command();
    let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
    crate::lint::helpers::closest(word, names).map(str::to_string)
}

/// The option a missing path argument was probably meant to be (`version` for `--version`,
/// `fix` for `--fix`), when no subcommand is close.
fn similar_flag(path: &std::path::Path) -> Option<String> {
    let word = path.to_str().filter(|w| !w.contains(['/', '\\', '.']))?;
    let mut command = <Cli as clap::CommandFactory>::command();
    // Built, the command lists the `--help` and `--version` clap adds.
    command.build();
    let names: Vec<&str> = command
        .get_arguments()
        .filter_map(|a| a.get_long())
        .collect();
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
        .stack_size(PARSING_STACK_BYTES);
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
    /// `per_path:` of the config file.
    path_rules: per_path::PathRules,
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
    /// The origin of `terraform_version` and `opentofu_version`.
    version_origins: [&'static str; 2],
    /// The rule settings the config file gave, before the command line.
    from_file: RuleSettings,
    /// The rule settings of the run, without what `per_path` turns on.
    settings: RuleSettings,
    per_path: per_path::PerPath,
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
    // As ruff's --select, --extend-select and --ignore: the selection, then what is added to
    // it, then what is taken out (an id both added and taken out is off).
    if !args.only.is_empty() {
        settings.only(&args.only)?;
    }
    for selector in &args.enable_rule {
        for id in settings.selected(selector)? {
            settings.enable(id)?;
        }
    }
    for selector in &args.disable_rule {
        for id in settings.selected(selector)? {
            settings.disable(id)?;
        }
    }
    // The rules `per_path` turns on run everywhere (and are reported under their paths); what
    // `--show-settings` shows is the settings without them.
    let mut run_settings = settings.clone();
    let path_rules = match &path {
        Some(config_file) => {
            per_path::PathRules::new(&file.per_path, config_file, &mut run_settings)
                .map_err(|e| in_file(&e))?
        }
        None => per_path::PathRules::new(&Default::default(), Path::new("."), &mut run_settings)?,
    };
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
        settings: run_settings,
        path_rules,
        target_versions,
        shown: Shown {
            settings,
            per_path: file.per_path,
            config_file: path,
            config_exclude: file.exclude,
            origins,
            version_origins: [
                origin(
                    args.terraform_version.is_some(),
                    file.terraform_version.is_some(),
                ),
                origin(
                    args.opentofu_version.is_some(),
                    file.opentofu_version.is_some(),
                ),
            ],
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
    if let Some(reason) = &args.add_ignore
        && let Err(message) = add_ignore::check_reason(reason)
    {
        return usage_error(&message);
    }
    let outputs = match outputs::Outputs::parse(&args.output_file) {
        Ok(outputs) => outputs,
        Err(message) => return usage_error(&message),
    };
    let stdin_file = match &args.stdin_filename {
        Some(path) => match read_stdin() {
            Ok(text) => Some((path.clone(), text)),
            Err(message) => return usage_error(&message),
        },
        None => None,
    };
    let paths = match (&stdin_file, args.paths.is_empty()) {
        (Some((path, _)), _) => vec![path.clone()],
        (None, true) => vec![PathBuf::from(".")],
        (None, false) => args.paths,
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
        overlay: Overlay::new(stdin_file.clone()).within(Some(scope)),
        judge_releases: false,
        prove_fixes: true,
        cancel: Default::default(),
    };
    let color = match args.color {
        _ if flags.no_color => false,
        // A report written to a file is read elsewhere, as ruff's `--output-file`.
        ColorArg::Auto if outputs.main.is_some() => false,
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => {
            io::stdout().is_terminal() && !asks_for_no_color(std::env::var_os("NO_COLOR"))
        }
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
        output_file: outputs.main.clone(),
    };
    // Without fixes, the human and short formats print each finding on its own: it is rendered
    // on the worker that found it, and the run keeps its bytes rather than the finding.
    let rendering = match Rendering::of(resolved.format, color) {
        // Other formats are rendered from the whole findings.
        _ if args.fix || args.diff || args.add_ignore.is_some() || !outputs.extra.is_empty() => {
            None
        }
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
            } else if let Some(name) = similar_flag(path) {
                eprintln!("  tip: did you mean the option `--{name}`? (`tflint-merge --{name}`)");
            }
        }
        if !found.missing.is_empty() {
            return false;
        }
        for note in found.notes.iter().filter(|_| !flags.quiet) {
            eprintln!("notice: {}", escape::text(note));
        }
        // A glob that matches nothing is most often a path form that cannot match (a typo, a
        // path relative to another directory): say so rather than check it silently.
        for glob in excludes.unmatched_globs().iter().filter(|_| !flags.quiet) {
            eprintln!(
                "notice: --exclude `{}` matched no path below the paths checked",
                escape::text(glob)
            );
        }
        true
    };
    // What is found in an excluded file (its module is checked for its other files) is not
    // reported.
    let path_rules = &resolved.path_rules;
    // With --stdin-filename, the findings of that file, as ruff reports those of stdin.
    let stdin_path = stdin_file.map(|(path, _)| crate::source::absolute(&path));
    let reported = |mut diagnostics: Vec<Diagnostic>| {
        if let Some(stdin_path) = &stdin_path {
            diagnostics.retain(|d| crate::source::absolute(Path::new(&*d.path)) == *stdin_path);
        }
        if !excludes.is_empty() {
            diagnostics.retain(|d| !excludes.excludes_finding(&d.path, &paths));
        }
        if !path_rules.is_empty() {
            path_rules.apply(&mut diagnostics);
        }
        diagnostics
    };
    // What is printed of one rule in one file is bounded (`diagnostic::bound`), unless asked
    // for all; fixes are planned from every finding, and bounded once they are done.
    let fixing = args.fix || args.diff || args.add_ignore.is_some();
    let bounded = |diagnostics: Vec<Diagnostic>| match args.show_all_findings {
        true => diagnostics,
        false => crate::diagnostic::bound(diagnostics, SHOWN_PER_RULE_AND_FILE),
    };
    if let Some(format) = rendering {
        let style = RenderStyle {
            format,
            views: reporter.views,
            unsafe_fixes: reporter.unsafe_fixes,
        };
        let render = |diagnostics: Vec<Diagnostic>| -> Vec<Rendered> {
            bounded(reported(diagnostics))
                .iter()
                .map(|d| style.render(d))
                .collect()
        };
        let (found, run) =
            pool.install(|| walk_and_check(walk(), &paths, &options, &render, &report_walk));
        if !found.missing.is_empty() {
            return EXIT_ERROR;
        }
        let write = |out: &mut dyn Write, findings: &[Rendered], totals| {
            report::write_rendered(out, &style, findings, totals, flags.quiet)
        };
        return reporter.finish(run, false, write, |_, _| Ok(()));
    }
    let lint = |options: &Options, walk_done: &(dyn Fn(&discover::Discovery) -> bool + Sync)| {
        let store = |diagnostics| match fixing {
            true => whole(reported(diagnostics)),
            false => whole(bounded(reported(diagnostics))),
        };
        let (found, mut run) =
            pool.install(|| walk_and_check(walk(), &paths, options, &store, walk_done));
        if args.fix || args.diff {
            // What the proof of each directory's fixes cannot see: a file of it linked into
            // another module of the run.
            fix::unsafe_where_linked(&mut run.findings, &found.dirs);
        }
        (found, run)
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
    if let Some(reason) = &args.add_ignore {
        return add_ignores(&run.findings, reason, options.max_file_bytes, flags.quiet);
    }
    let mut fix_failed = false;
    if args.fix {
        let mut fixed = 0;
        let mut moved = fix::FilesMoved::default();
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
            let fix::Written {
                problems, files, ..
            } = fix::write(&planned);
            moved.extend(files);
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
            let moved = escape::text(&moved.describe()).into_owned();
            eprintln!("fixed {fixed} finding{plural}{moved}");
        }
        // What is left is marked `[*]` and counted as fixable only where `--fix` would write.
        // (A run without `--fix` keeps every fix in its output: a read-only checkout in CI
        // still reports the fixes, in SARIF say, for someone else to apply.)
        fix::withhold_refused(&mut run.findings, &fix::Roots::of(&paths));
        run.findings = bounded(run.findings);
    }
    let catalogue = rules::registry().catalogue();
    let write = |out: &mut dyn Write, diagnostics: &[Diagnostic], totals: Totals| {
        if reporter.quiet && reporter.format == Format::Human {
            // The findings without the summary line.
            let (views, unsafe_fixes) = (totals.views, totals.unsafe_fixes);
            report::render_human_findings(out, color, diagnostics, views, unsafe_fixes)
        } else {
            report::render(out, reporter.format, color, diagnostics, totals, catalogue)
        }
    };
    let extra = |diagnostics: &[Diagnostic], totals| {
        outputs::write_extra(&outputs.extra, diagnostics, totals, catalogue)
    };
    reporter.finish(run, fix_failed, write, extra)
}

/// Whether the value of `NO_COLOR` asks for no colour: "when present and not an empty
/// string", as https://no-color.org says.
fn asks_for_no_color(value: Option<std::ffi::OsString>) -> bool {
    value.is_some_and(|value| !value.is_empty())
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
    /// `--output-file PATH`: where the output goes instead of stdout.
    output_file: Option<PathBuf>,
}

impl Report {
    /// Writes the findings to stdout (or `--output-file`) with `write` (or their
    /// `--statistics`), the other `--output-file` reports with `extra`, `--stats` to stderr;
    /// returns the exit code.
    fn finish<F: Finding>(
        &self,
        run: RunResult<F>,
        fix_failed: bool,
        write: impl FnOnce(&mut dyn Write, &[F], Totals) -> io::Result<()>,
        extra: impl FnOnce(&[F], Totals) -> io::Result<()>,
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
        let mut out: Box<dyn Write> = match &self.output_file {
            Some(path) => match outputs::create(path) {
                Ok(file) => Box::new(file),
                Err(error) => {
                    let shown = escape::text(&crate::source::display_path(path)).into_owned();
                    eprintln!("error: cannot write {shown}: {error}");
                    return EXIT_ERROR;
                }
            },
            None => Box::new(io::BufWriter::new(io::stdout().lock())),
        };
        let written = if self.statistics {
            let statistics = statistics::Statistics {
                format: self.format,
                unsafe_fixes: self.unsafe_fixes,
            };
            out.write_all(statistics.render(&findings).as_bytes())
        } else {
            write(&mut out, &findings, totals)
        }
        .and_then(|()| out.flush())
        .and_then(|()| extra(&findings, totals));
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

/// `--add-ignore`: the comments written, what was left on stderr; exit 2 when a file could not
/// be read or written, else 0.
fn add_ignores(findings: &[Diagnostic], reason: &str, max_bytes: u64, quiet: bool) -> i32 {
    let reason = add_ignore::check_reason(reason).unwrap_or_default();
    let added = add_ignore::add(findings, reason, max_bytes);
    for warning in added.warnings.iter().filter(|_| !quiet) {
        eprintln!("warning: {}", escape::text(warning));
    }
    for failure in &added.failed {
        eprintln!("error: {}", escape::text(failure));
    }
    if !quiet {
        let plural = if added.comments == 1 { "" } else { "s" };
        eprintln!("added {} ignore comment{plural}", added.comments);
    }
    if added.failed.is_empty() {
        EXIT_CLEAN
    } else {
        EXIT_ERROR
    }
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
    for (key, value) in [
        ("terraform_version", &resolved.target_versions.terraform),
        ("opentofu_version", &resolved.target_versions.opentofu),
    ] {
        out.push_str(&match value {
            Some(constraint) => {
                let from = shown.version_origins[usize::from(key == "opentofu_version")];
                format!("{key}: {}  ({from})\n", escape::text(constraint))
            }
            None => format!(
                "{key}: the module's own constraints, else the newest stable release  \
                 ({DEFAULT})\n"
            ),
        });
    }
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
    for entry in &shown.per_path.0 {
        for (selector, level) in &entry.levels {
            let level = match level {
                crate::lint::settings::Level::Off => "off",
                crate::lint::settings::Level::On(severity) => severity.as_str(),
            };
            out.push_str(&format!(
                "per_path: {}: {}: {level}  ({CONFIG_FILE}, relative to its directory)\n",
                escape::text(&entry.glob),
                escape::text(selector)
            ));
        }
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
        let (on, severity) = state(&shown.settings, meta);
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
            if let Some(value) = shown.settings.number_option(meta.id, option.name) {
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
    let view = match args.view {
        MergedView::Terraform => View::Terraform,
        MergedView::Opentofu => View::OpenTofu,
    };
    if let Some(out) = &args.out {
        return merged_out::run(&merged_out::MergedOut {
            out,
            paths: &args.paths,
            view,
        });
    }
    let [dir] = args.paths.as_slice() else {
        return usage_error("merged prints one module: give one path, or --out DIR for several");
    };
    if let Some(unit) = terragrunt_unit(dir) {
        return merged_unit(dir, &unit, args.format);
    }
    // Any other file means the module directory holding it, as for `check`.
    let dir = if dir.is_file() {
        discover::parent_dir(dir)
    } else {
        dir.clone()
    };
    if !dir.is_dir() {
        return usage_error(&format!("not a directory: {}", dir.display()));
    }
    // An empty module printed with exit status 0 would look like a successful merge of
    // nothing: Terraform itself refuses such a directory ("No configuration files").
    if !has_configuration_files(&dir, view) {
        let extensions = match view {
            View::Terraform => ".tf, .tf.json",
            View::OpenTofu => ".tf, .tf.json, .tofu, .tofu.json",
        };
        return usage_error(&format!(
            "nothing to merge: {} has no configuration file that {} loads ({extensions})",
            dir.display(),
            view.tool_name()
        ));
    }
    let settings = RuleSettings::defaults(rules::registry());
    let mut options = Options::new(ViewSelection::only(view), settings);
    let scope = ReadScope::new(std::slice::from_ref(&dir), &ScopeFlags::default());
    options.overlay = Overlay::default().within(Some(std::sync::Arc::new(scope)));
    let result = directory::check_directory(&dir, &options);
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
            escape::text(&dir.to_string_lossy())
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

/// The Terragrunt unit file `merged` prints when given `path`: a `terragrunt.hcl` (or
/// `terragrunt.hcl.json`) file, or a directory holding one and no Terraform configuration file
/// (a directory with both is a module: its effective module is printed, as before).
fn terragrunt_unit(path: &std::path::Path) -> Option<PathBuf> {
    use crate::knowledge::files::{TERRAGRUNT_UNIT, TERRAGRUNT_UNIT_JSON, classify};
    if path.is_file() {
        let name = path.file_name()?.to_string_lossy();
        return crate::knowledge::files::is_terragrunt_unit(&name).then(|| path.to_path_buf());
    }
    let has_module_files = std::fs::read_dir(path)
        .ok()?
        .flatten()
        .any(|entry| classify(&entry.file_name().to_string_lossy()).is_some());
    if has_module_files {
        return None;
    }
    [TERRAGRUNT_UNIT, TERRAGRUNT_UNIT_JSON]
        .into_iter()
        .map(|file| path.join(file))
        .find(|file| file.is_file())
}

/// The read and parse errors of a Terragrunt tree's files, printed on stderr: the files are
/// in the tree without what could not be read.
fn print_read_errors(tree: &terragrunt::Tree) -> Vec<Diagnostic> {
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
    problems
}

/// `merged` for a Terragrunt unit: its effective configuration (see
/// `terragrunt::render`), after the read and parse errors of its files on stderr.
fn merged_unit(given: &std::path::Path, unit: &std::path::Path, format: PrintFormat) -> i32 {
    let given = [given.to_path_buf()];
    let scope = std::sync::Arc::new(ReadScope::new(&given, &ScopeFlags::default()));
    let tree = terragrunt::Tree::load(
        &[unit.to_path_buf()],
        terragrunt::paths::Displayer::new(&given),
        DEFAULT_MAX_FILE_BYTES,
        &Overlay::default().within(Some(scope)),
    );
    let problems = print_read_errors(&tree);
    let Some(&node) = tree.unit_nodes().first() else {
        eprintln!(
            "error: {} is not a Terragrunt unit",
            escape::text(&unit.to_string_lossy())
        );
        return EXIT_ERROR;
    };
    let text = match format {
        PrintFormat::Hcl => terragrunt::render::unit_hcl(&tree, node),
        PrintFormat::Json => terragrunt::render::unit_json(&tree, node),
    };
    match print_or_broken_pipe(&text) {
        EXIT_CLEAN if problems.iter().any(|d| d.rule == rules::IO_ERROR.id()) => EXIT_ERROR,
        EXIT_CLEAN if !problems.is_empty() => EXIT_FINDINGS,
        status => status,
    }
}

/// Whether `view`'s tool loads some file of `dir` (a directory entry that is a file, or a link
/// to one, with a configuration file name).
fn has_configuration_files(dir: &std::path::Path, view: View) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        // Unreadable: `check_directory` reports why.
        return true;
    };
    let names: Vec<crate::knowledge::files::ConfigName> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.path().is_file())
        .filter_map(|entry| crate::knowledge::files::classify(entry.file_name().to_str()?))
        .collect();
    let chosen = crate::module::views::view_files(&names, view);
    !(chosen.primary.is_empty() && chosen.overrides.is_empty())
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
    let problems = print_read_errors(&tree);
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

    /// An empty `NO_COLOR` leaves colour on; any other value, even `0`, turns it off.
    #[test]
    fn only_a_non_empty_no_color_turns_colour_off() {
        assert!(!asks_for_no_color(None));
        assert!(!asks_for_no_color(Some("".into())));
        assert!(asks_for_no_color(Some("1".into())));
        assert!(asks_for_no_color(Some("0".into())));
    }

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
            for format in [Format::Human, Format::Json] {
                let statistics = statistics::Statistics {
                    format,
                    unsafe_fixes,
                };
                assert_eq!(
                    statistics.render(&run.findings),
                    statistics.render(diagnostics)
                );
            }
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
