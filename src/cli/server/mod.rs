//! `tflint-merge server`: a Language Server Protocol server over stdio.
//!
//! Built on `lsp-server`'s messages and `lsp-types`, the synchronous pair rust-analyzer uses: a
//! reader and a writer thread move messages ([`transport`], which bounds what a message may
//! take), this module's loop handles them, and each check runs on a thread of its own
//! ([`scheduler`]), so the loop never waits for a check nor one directory for another. The loop only records
//! buffers and schedules checks, answers hovers and code actions from the last results, and
//! publishes results as they arrive.
//!
//! A change of a module file re-checks its module directory with every open buffer overlaid
//! on the disk ([`crate::input::overlay`]) and publishes diagnostics for every file of the
//! directory (an empty list clears a file); a change of a Terragrunt `.hcl` file re-checks the
//! Terragrunt tree of the workspace, which holds the units that include the file.

mod actions;
mod hover;
mod navigate;
mod position;
mod publish;
mod scheduler;
mod settings;
mod transport;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
    DidSaveTextDocument, LogMessage, Notification as _, PublishDiagnostics, ShowMessage,
};
use lsp_types::request::{
    CodeActionRequest, GotoDefinition, HoverRequest, References, RegisterCapability, Request as _,
};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CodeActionResponse,
    DidChangeWatchedFilesRegistrationOptions, FileSystemWatcher, GlobPattern, Hover, HoverContents,
    HoverProviderCapability, InitializeParams, LogMessageParams, MarkupContent, MarkupKind,
    MessageType, PublishDiagnosticsParams, Registration, RegistrationParams, SaveOptions,
    ServerCapabilities, ShowMessageParams, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Url,
};

use crate::diagnostic::{Diagnostic, SHOWN_PER_RULE_AND_FILE, bound};
use crate::input::discover::discover;
use crate::input::overlay::Overlay;
use crate::knowledge::files::classify;
use crate::lint::RuleSettings;
use crate::lint::check::guarded;
use crate::lint::directory::{Options, check_directory};
use crate::lint::run::{Crash, crash_findings};
use crate::lint::tree::check_tree;
use crate::module::merge::Module;
use crate::source::{FileId, SourceFiles, absolute};

use super::config::FILE_NAMES as CONFIG_NAMES;
use super::{EXIT_CLEAN, EXIT_ERROR};
use position::{Encoding, LineIndex};
use scheduler::{Done, Scheduler, Work};
use settings::{InitOptions, Settings};

/// How the client ended the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// `shutdown`, then `exit`: exit code 0.
    Orderly,
    /// `exit` without `shutdown`, or stdin closed: exit code 1, as the protocol asks.
    Abrupt,
}

/// The protocol's exit code for an `exit` that no `shutdown` came before.
const EXIT_WITHOUT_SHUTDOWN: i32 = 1;

/// Runs the server until the client says `exit` or closes stdin; returns the exit code.
pub(crate) fn run() -> i32 {
    let (sender, receiver, transport) = transport::connect(std::io::stdin(), std::io::stdout());
    let connection = Connection { sender, receiver };
    let served = serve(&connection);
    // The writer thread ends once every sender is gone.
    drop(connection);
    let joined = transport.join().map_err(|e| e.to_string());
    match joined.and(served) {
        Ok(Ending::Orderly) => EXIT_CLEAN,
        Ok(Ending::Abrupt) => EXIT_WITHOUT_SHUTDOWN,
        Err(error) => {
            eprintln!("error: tflint-merge server: {error}");
            EXIT_ERROR
        }
    }
}

fn serve(connection: &Connection) -> Result<Ending, String> {
    let (id, params) = connection
        .initialize_start()
        .map_err(|e| format!("no initialize request: {e}"))?;
    let params: InitializeParams =
        serde_json::from_value(params).map_err(|e| format!("invalid initialize request: {e}"))?;
    let encoding = Encoding::negotiate(
        (params.capabilities.general.as_ref())
            .and_then(|general| general.position_encodings.as_deref()),
    );
    let capabilities = ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(lsp_types::OneOf::Left(true)),
        references_provider: Some(lsp_types::OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..CodeActionOptions::default()
        })),
        ..ServerCapabilities::default()
    };
    let result = serde_json::json!({
        "capabilities": capabilities,
        "serverInfo": { "name": "tflint-merge", "version": env!("CARGO_PKG_VERSION") },
    });
    connection
        .initialize_finish(id, result)
        .map_err(|e| format!("initialize failed: {e}"))?;
    let mut server = Server::new(connection, &params, encoding);
    server.start(&params);
    server.main_loop()
}

/// What one check covers.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Scope {
    /// A module directory (absolute).
    Module(PathBuf),
    /// Every Terragrunt unit of the workspace, checked as one tree.
    Terragrunt,
}

/// What a check gave: the findings, and for a module directory its files and effective
/// modules (for hovers). A crash is an `internal_error` finding.
#[derive(Debug, Default)]
struct Checked {
    findings: Vec<Diagnostic>,
    files: SourceFiles,
    modules: Vec<Module>,
    crashed: bool,
    /// The local module directories a module check read: a change there checks it again.
    local_modules: Vec<PathBuf>,
    /// The version of each open buffer the check read, published with its diagnostics so that
    /// the client can tell them from those of an older text.
    versions: HashMap<PathBuf, i32>,
}

struct Server<'a> {
    connection: &'a Connection,
    encoding: Encoding,
    /// The workspace root: where the config file is looked for and the Terragrunt tree starts.
    root: PathBuf,
    init: InitOptions,
    settings: Settings,
    /// Open buffers by absolute path.
    documents: HashMap<PathBuf, String>,
    /// Their versions, as the client numbers them.
    versions: HashMap<PathBuf, i32>,
    scheduler: Scheduler<Scope, Checked>,
    checked: HashMap<Scope, Checked>,
    /// The module directories whose last check read each local module directory (lexically
    /// clean paths), and the reverse, to update it: editing a called module re-checks its
    /// callers, whose legacy-module and argument checks read it.
    callers: HashMap<PathBuf, BTreeSet<PathBuf>>,
    callees: HashMap<PathBuf, Vec<PathBuf>>,
    /// The files each scope last published diagnostics for.
    published: HashMap<Scope, BTreeSet<PathBuf>>,
    next_request: i32,
}

/// Rayon stacks as the command line sizes them: parsing is recursive.
const STACK_BYTES: usize = 16 * 1024 * 1024;

impl<'a> Server<'a> {
    fn new(connection: &'a Connection, params: &InitializeParams, encoding: Encoding) -> Self {
        let pool = rayon::ThreadPoolBuilder::new()
            .stack_size(STACK_BYTES)
            .build()
            .ok();
        let scheduler = Scheduler::new(move |work: &mut Work| match &pool {
            Some(pool) => pool.install(work),
            None => work(),
        });
        Server {
            connection,
            encoding,
            root: workspace_root(params),
            init: InitOptions::default(),
            settings: Settings::defaults(),
            documents: HashMap::new(),
            versions: HashMap::new(),
            callers: HashMap::new(),
            callees: HashMap::new(),
            scheduler,
            checked: HashMap::new(),
            published: HashMap::new(),
            next_request: 0,
        }
    }

    /// Reads the initialization options and the config file, and asks the client to tell us
    /// about changed files when it can.
    fn start(&mut self, params: &InitializeParams) {
        match InitOptions::parse(params.initialization_options.clone()) {
            Ok(init) => self.init = init,
            Err(error) => self.show_error(&error),
        }
        self.load_settings();
        let dynamic = (params.capabilities.workspace.as_ref())
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|w| w.dynamic_registration)
            .unwrap_or(false);
        if dynamic {
            self.register_watchers();
        }
    }

    fn main_loop(&mut self) -> Result<Ending, String> {
        loop {
            let wait = match self.scheduler.next_due() {
                Some(due) => due.saturating_duration_since(Instant::now()),
                None => Duration::from_secs(3600),
            };
            crossbeam_channel::select! {
                recv(self.connection.receiver) -> message => {
                    let Ok(message) = message else { return Ok(Ending::Abrupt) };
                    if let Some(ending) = self.handle(message)? {
                        return Ok(ending);
                    }
                }
                recv(self.scheduler.done) -> done => {
                    // Every check is guarded, so the thread outlives them; should it stop all
                    // the same, nothing would be checked again: say so rather than go on.
                    let done = done.map_err(|_| "the check thread stopped".to_string())?;
                    self.finished(done);
                }
                default(wait) => {}
            }
            for due in self.scheduler.take_due(Instant::now()) {
                self.submit(due);
            }
        }
    }

    /// Handles one message; how the session ended when the server should stop.
    fn handle(&mut self, message: Message) -> Result<Option<Ending>, String> {
        match message {
            Message::Request(request) => {
                // On `shutdown` this answers and waits for `exit`.
                let stop = (self.connection.handle_shutdown(&request))
                    .map_err(|e| format!("shutdown: {e}"))?;
                if stop {
                    return Ok(Some(Ending::Orderly));
                }
                self.request(request);
                Ok(None)
            }
            Message::Notification(notification) => {
                if notification.method == "exit" {
                    return Ok(Some(Ending::Abrupt));
                }
                let method = notification.method.clone();
                let root = self.root.clone();
                if let Err(crash) = guarded(&root, || self.notification(notification)) {
                    let message = self.crash_message(&crash);
                    self.log(MessageType::ERROR, &format!("{method}: {message}"));
                }
                Ok(None)
            }
            // Answers to our registration request: nothing to do.
            Message::Response(_) => Ok(None),
        }
    }

    /// What the `internal_error` finding of a crash says, for the log and the client.
    fn crash_message(&self, crash: &Crash) -> String {
        let findings = crash_findings(crash, &self.settings.options.settings);
        findings
            .into_iter()
            .next()
            .map_or_else(|| crash.message.clone(), |d| d.message.into_owned())
    }

    fn request(&mut self, request: Request) {
        let id = request.id.clone();
        let method = request.method.clone();
        let root = self.root.clone();
        let answered = guarded(&root, || -> Answer {
            match method.as_str() {
                HoverRequest::METHOD => parse(request).map(|p| to_value(self.hover(p))),
                CodeActionRequest::METHOD => parse(request).map(|p| to_value(self.code_actions(p))),
                GotoDefinition::METHOD => parse(request).map(|p| to_value(self.definition(p))),
                References::METHOD => parse(request).map(|p| to_value(self.references(p))),
                _ => Err((
                    ErrorCode::MethodNotFound,
                    format!("unknown method {method}"),
                )),
            }
        });
        let response = match answered {
            Ok(Ok(value)) => Response::new_ok(id, value),
            Ok(Err((code, message))) => Response::new_err(id, code as i32, message),
            Err(crash) => {
                let message = self.crash_message(&crash);
                self.log(MessageType::ERROR, &format!("{method}: {message}"));
                Response::new_err(id, ErrorCode::InternalError as i32, message)
            }
        };
        self.send(Message::Response(response));
    }

    fn notification(&mut self, notification: Notification) {
        let now = Instant::now();
        match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Some(p) = parse_params::<DidOpenTextDocument>(notification) {
                    let document = p.text_document;
                    self.edited(&document.uri, document.version, Some(document.text), now);
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Some(mut p) = parse_params::<DidChangeTextDocument>(notification) {
                    // Full synchronisation: the last change is the whole text.
                    let text = p.content_changes.pop().map(|change| change.text);
                    if text.is_some() {
                        let document = p.text_document;
                        self.edited(&document.uri, document.version, text, now);
                    }
                }
            }
            DidSaveTextDocument::METHOD => {
                if let Some(p) = parse_params::<DidSaveTextDocument>(notification)
                    && let Some(path) = file_path(&p.text_document.uri)
                {
                    if is_config(&path) {
                        self.reload_settings();
                    } else {
                        // The buffer was checked as it changed; the disk now agrees with it,
                        // but a client may save without having sent every change.
                        self.changed(&path, now);
                    }
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Some(p) = parse_params::<DidCloseTextDocument>(notification)
                    && let Some(path) = file_path(&p.text_document.uri)
                {
                    // The file on disk applies again.
                    self.documents.remove(&path);
                    self.versions.remove(&path);
                    self.changed(&path, now);
                }
            }
            DidChangeWatchedFiles::METHOD => {
                if let Some(p) = parse_params::<DidChangeWatchedFiles>(notification) {
                    let paths: Vec<PathBuf> =
                        p.changes.iter().filter_map(|c| file_path(&c.uri)).collect();
                    if paths.iter().any(|path| is_config(path)) {
                        self.reload_settings();
                    }
                    for path in paths {
                        // An open buffer is what is checked, whatever the disk holds.
                        if !self.documents.contains_key(&path) {
                            self.changed(&path, now);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// A buffer was opened or changed.
    fn edited(&mut self, uri: &Url, version: i32, text: Option<String>, now: Instant) {
        let Some(path) = file_path(uri) else { return };
        if let Some(text) = text {
            self.documents.insert(path.clone(), text);
            self.versions.insert(path.clone(), version);
        }
        self.changed(&path, now);
    }

    /// `path` changed: schedule the check of what it belongs to, and of the module directories
    /// that call its directory as a local module, at any depth.
    fn changed(&mut self, path: &Path, now: Instant) {
        let Some(scope) = scope_of(path) else { return };
        if let Scope::Module(dir) = &scope {
            let mut seen = BTreeSet::from([absolute(dir)]);
            let mut queue: Vec<PathBuf> = seen.iter().cloned().collect();
            while let Some(callee) = queue.pop() {
                for caller in self.callers.get(&callee).into_iter().flatten() {
                    if seen.insert(caller.clone()) {
                        queue.push(caller.clone());
                        let caller = Scope::Module(caller.clone());
                        self.scheduler.changed(caller, path.to_path_buf(), now);
                    }
                }
            }
        }
        self.scheduler.changed(scope, path.to_path_buf(), now);
    }

    /// Records which local modules the check of `dir` read, for [`Server::changed`].
    fn record_callees(&mut self, dir: &Path, local_modules: &[PathBuf]) {
        let caller = absolute(dir);
        for old in self.callees.remove(&caller).unwrap_or_default() {
            if let Some(callers) = self.callers.get_mut(&old) {
                callers.remove(&caller);
            }
        }
        let callees: Vec<PathBuf> = local_modules.iter().map(|m| absolute(m)).collect();
        for callee in &callees {
            let callers = self.callers.entry(callee.clone()).or_default();
            callers.insert(caller.clone());
        }
        self.callees.insert(caller, callees);
    }

    fn submit(&mut self, due: (Scope, u64, PathBuf)) {
        let mut options = self.settings.options.clone();
        let scope = options.overlay.scope().cloned();
        options.overlay = Overlay::new(self.documents.clone()).within(scope);
        let versions = self.versions.clone();
        let scope = due.0.clone();
        let root = self.root.clone();
        let excludes = Arc::clone(&self.settings.excludes);
        let path_rules = Arc::clone(&self.settings.path_rules);
        self.scheduler.submit(due, move |cancel| {
            let options = Options { cancel, ..options };
            let checked = match scope {
                // Excluded as the command line excludes it: nothing to say (and what was said is
                // cleared).
                Scope::Module(dir) if excludes.is_excluded(&dir, &root) => Checked::default(),
                Scope::Module(dir) => guarded(&dir, || check_directory(&dir, &options))
                    .map(|result| Checked {
                        findings: result.diagnostics,
                        files: result.files,
                        modules: result.modules,
                        local_modules: result.local_modules,
                        ..Checked::default()
                    })
                    .unwrap_or_else(|crash| crashed(&crash, &options.settings)),
                Scope::Terragrunt => guarded(&root, || {
                    let given = [root.clone()];
                    let found = discover(&given, &excludes, true);
                    let (settings, max) = (&options.settings, options.max_file_bytes);
                    let (units, overlay) = (&found.terragrunt, &options.overlay);
                    let tree = check_tree(units, &given, settings, max, overlay);
                    Checked {
                        findings: tree.diagnostics,
                        ..Checked::default()
                    }
                })
                .unwrap_or_else(|crash| crashed(&crash, &options.settings)),
            };
            let mut checked = checked;
            // As on the command line: excluded files' findings dropped, `per_path` levels.
            if !excludes.is_empty() {
                let given = [root.clone()];
                checked
                    .findings
                    .retain(|d| !excludes.excludes_finding(&d.path, &given));
            }
            path_rules.apply(&mut checked.findings);
            // As on the command line: past a bound, one diagnostic per rule and document says
            // how many more there are (an editor lists them all, and a machine-written file
            // can hold a hundred thousand).
            checked.findings = bound(
                std::mem::take(&mut checked.findings),
                SHOWN_PER_RULE_AND_FILE,
            );
            Checked {
                versions,
                ..checked
            }
        });
    }

    /// A check finished: publish its findings unless a newer edit made them stale.
    fn finished(&mut self, done: Done<Scope, Checked>) {
        if !self.scheduler.is_current(&done) {
            return;
        }
        let Done {
            scope,
            trigger,
            result,
            took,
            ..
        } = done;
        if result.crashed {
            let crash = result.findings.first().map(|d| &*d.message);
            let what = format!(
                "checking {}: {}",
                trigger.display(),
                crash.unwrap_or_default()
            );
            self.log(MessageType::ERROR, &what);
        }
        let selection = self.settings.options.views;
        let mut by_file = publish::by_file(&result.findings, selection, self.encoding, &trigger);
        for (_, file) in result.files.iter() {
            by_file.entry(file.path.clone()).or_default();
        }
        let now: BTreeSet<PathBuf> = by_file.keys().cloned().collect();
        for gone in self.published.remove(&scope).unwrap_or_default() {
            by_file.entry(gone).or_default();
        }
        for (path, diagnostics) in by_file {
            let Ok(uri) = Url::from_file_path(&path) else {
                continue;
            };
            let version = result.versions.get(&path).copied();
            let params = PublishDiagnosticsParams::new(uri, diagnostics, version);
            self.notify::<PublishDiagnostics>(params);
        }
        self.published.insert(scope.clone(), now);
        if let Scope::Module(dir) = &scope {
            self.record_callees(dir, &result.local_modules);
        }
        let message = format!("checked {} in {} ms", trigger.display(), took.as_millis());
        self.log(MessageType::LOG, &message);
        self.checked.insert(scope, result);
    }

    fn hover(&self, params: lsp_types::HoverParams) -> Option<Hover> {
        let at = params.text_document_position_params;
        let path = file_path(&at.text_document.uri)?;
        let checked = self.checked.get(&scope_of(&path)?)?;
        let (id, file) = checked.files.iter().find(|(_, file)| file.path == path)?;
        let offset = LineIndex::new(file, self.encoding).offset(at.position);
        let text = hover::describe(&checked.modules, &checked.files, id, offset).or_else(|| {
            // On a reference: what the overrides contributed to what it names.
            let (directory, id, offset) = self.navigation_at(&at)?;
            let target = navigate::target_at(&directory, id, offset)?;
            hover::describe_target(&checked.modules, &checked.files, &target)
        })?;
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: text,
            }),
            range: None,
        })
    }

    /// The last check of the directory of the file at `position`, and the byte offset there.
    fn navigation_at(
        &self,
        at: &lsp_types::TextDocumentPositionParams,
    ) -> Option<(navigate::Directory<'_>, FileId, usize)> {
        let path = file_path(&at.text_document.uri)?;
        let scope = scope_of(&path)?;
        let checked = self.checked.get(&scope)?;
        let Scope::Module(dir) = self.checked.get_key_value(&scope)?.0 else {
            return None;
        };
        let (id, file) = checked.files.iter().find(|(_, file)| file.path == path)?;
        let offset = LineIndex::new(file, self.encoding).offset(at.position);
        let directory = navigate::Directory {
            dir,
            files: &checked.files,
            modules: &checked.modules,
            encoding: self.encoding,
            overlay: Overlay::new(self.documents.clone())
                .within(self.settings.options.overlay.scope().cloned()),
            max_file_bytes: self.settings.options.max_file_bytes,
        };
        Some((directory, id, offset))
    }

    fn definition(
        &self,
        params: lsp_types::GotoDefinitionParams,
    ) -> Option<lsp_types::GotoDefinitionResponse> {
        let (directory, id, offset) = self.navigation_at(&params.text_document_position_params)?;
        let target = navigate::target_at(&directory, id, offset)?;
        let found = navigate::definitions(&directory, &target);
        (!found.is_empty()).then_some(lsp_types::GotoDefinitionResponse::Array(found))
    }

    fn references(&self, params: lsp_types::ReferenceParams) -> Option<Vec<lsp_types::Location>> {
        let (directory, id, offset) = self.navigation_at(&params.text_document_position)?;
        let target = navigate::target_at(&directory, id, offset)?;
        let declarations = params.context.include_declaration;
        Some(navigate::references(&directory, &target, declarations))
    }

    fn code_actions(&self, params: lsp_types::CodeActionParams) -> Option<CodeActionResponse> {
        let wants_quick_fixes = (params.context.only.as_ref())
            .is_none_or(|only| only.iter().any(|k| k.as_str().starts_with("quickfix")));
        let path = file_path(&params.text_document.uri)?;
        let checked = self.checked.get(&scope_of(&path)?)?;
        let selection = self.settings.options.views;
        let mut actions = CodeActionResponse::new();
        for finding in checked.findings.iter().filter(|_| wants_quick_fixes) {
            let published = publish::by_file(
                std::slice::from_ref(finding),
                selection,
                self.encoding,
                &path,
            );
            let Some(diagnostic) = published.get(&path).and_then(|d| d.first()) else {
                continue;
            };
            if !overlaps(diagnostic.range, params.range) {
                continue;
            }
            for proposal in actions::proposals(finding, &checked.files) {
                let action = actions::code_action(proposal, diagnostic.clone(), self.encoding);
                actions.extend(action.map(Into::into));
            }
        }
        Some(actions)
    }

    fn load_settings(&mut self) {
        match Settings::load(&self.root, &self.init) {
            Ok(settings) => {
                if let Some(path) = &settings.config_file {
                    self.log(MessageType::INFO, &format!("using {}", path.display()));
                }
                self.settings = settings;
            }
            Err(error) => self.show_error(&error),
        }
    }

    /// The config file changed: load it again and re-check everything checked so far.
    fn reload_settings(&mut self) {
        self.load_settings();
        let now = Instant::now();
        let scopes: Vec<Scope> = self.checked.keys().cloned().collect();
        for scope in scopes {
            let trigger = match &scope {
                Scope::Module(dir) => dir.clone(),
                Scope::Terragrunt => self.root.clone(),
            };
            self.scheduler.changed(scope, trigger, now);
        }
    }

    fn register_watchers(&mut self) {
        let watcher = |glob: &str| FileSystemWatcher {
            glob_pattern: GlobPattern::String(glob.to_string()),
            kind: None,
        };
        let options = DidChangeWatchedFilesRegistrationOptions {
            watchers: vec![
                watcher("**/.tflint-merge.{yaml,yml}"),
                watcher("**/*.{tf,tofu,tf.json,tofu.json,hcl,hcl.json}"),
            ],
        };
        let params = RegistrationParams {
            registrations: vec![Registration {
                id: "tflint-merge-watched-files".into(),
                method: DidChangeWatchedFiles::METHOD.into(),
                register_options: serde_json::to_value(options).ok(),
            }],
        };
        self.next_request += 1;
        let id = RequestId::from(self.next_request);
        let request = Request::new(id, RegisterCapability::METHOD.into(), params);
        self.send(Message::Request(request));
    }

    fn show_error(&self, message: &str) {
        self.notify::<ShowMessage>(ShowMessageParams {
            typ: MessageType::ERROR,
            message: format!("tflint-merge: {message}"),
        });
        self.log(MessageType::ERROR, message);
    }

    fn log(&self, typ: MessageType, message: &str) {
        self.notify::<LogMessage>(LogMessageParams {
            typ,
            message: message.to_string(),
        });
    }

    fn notify<N: lsp_types::notification::Notification>(&self, params: N::Params) {
        self.send(Message::Notification(Notification::new(
            N::METHOD.to_string(),
            params,
        )));
    }

    fn send(&self, message: Message) {
        // The writer thread ends only when the client went away; then nothing can be said.
        let _ = self.connection.sender.send(message);
    }
}

fn crashed(crash: &Crash, settings: &RuleSettings) -> Checked {
    Checked {
        findings: crash_findings(crash, settings),
        crashed: true,
        ..Checked::default()
    }
}

/// The root URI of the workspace (its first folder, else `rootUri`), else the working
/// directory.
fn workspace_root(params: &InitializeParams) -> PathBuf {
    let folder = (params.workspace_folders.as_ref())
        .and_then(|folders| folders.first())
        .map(|folder| &folder.uri);
    #[allow(deprecated)] // `rootUri` is deprecated for workspace folders, but clients send it.
    let uri = folder.or(params.root_uri.as_ref());
    uri.and_then(file_path)
        .unwrap_or_else(|| absolute(Path::new(".")))
}

/// The absolute path of a `file:` URI.
fn file_path(uri: &Url) -> Option<PathBuf> {
    uri.to_file_path().ok().map(|path| absolute(&path))
}

/// What a change of `path` re-checks: its module directory for a Terraform or OpenTofu file,
/// the Terragrunt tree for a `.hcl` file; nothing for anything else.
fn scope_of(path: &Path) -> Option<Scope> {
    let name = path.file_name()?.to_str()?;
    if classify(name).is_some() {
        return Some(Scope::Module(path.parent()?.to_path_buf()));
    }
    (name.ends_with(".hcl") || name.ends_with(".hcl.json")).then_some(Scope::Terragrunt)
}

fn is_config(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| CONFIG_NAMES.contains(&name))
}

/// Whether two ranges share a position (an empty range touching the other counts).
fn overlaps(a: lsp_types::Range, b: lsp_types::Range) -> bool {
    a.start <= b.end && b.start <= a.end
}

type Answer = Result<serde_json::Value, (ErrorCode, String)>;

fn parse<P: serde::de::DeserializeOwned>(request: Request) -> Result<P, (ErrorCode, String)> {
    serde_json::from_value(request.params).map_err(|e| {
        let message = without_type_names(&e.to_string());
        (
            ErrorCode::InvalidParams,
            format!("{}: invalid params: {message}", request.method),
        )
    })
}

/// serde's message without the names of our (and lsp-types') Rust types, which mean nothing
/// to a client: `expected struct HoverParams` says `expected an object`.
fn without_type_names(message: &str) -> String {
    let mut out = String::new();
    let mut rest = message;
    loop {
        let found = [
            ("expected struct ", "expected an object"),
            ("expected enum ", "expected one of the allowed values"),
        ]
        .into_iter()
        .filter_map(|(marker, plain)| rest.find(marker).map(|at| (at, marker, plain)))
        .min();
        let Some((at, marker, plain)) = found else {
            break;
        };
        out.push_str(&rest[..at]);
        out.push_str(plain);
        let name = &rest[at + marker.len()..];
        let name_end = name
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(name.len());
        rest = &name[name_end..];
    }
    out.push_str(rest);
    out
}

fn to_value(value: impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}

/// A notification's parameters; a malformed notification is dropped, as it gets no answer.
fn parse_params<N: lsp_types::notification::Notification>(
    notification: Notification,
) -> Option<N::Params> {
    serde_json::from_value(notification.params).ok()
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::input::read::INJECT_PANIC;

    fn wait_for(client: &Connection, wanted: impl Fn(&Message) -> bool) -> Message {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match client.receiver.recv_timeout(left) {
                Ok(message) if wanted(&message) => return message,
                Ok(_) => {}
                Err(error) => panic!("no awaited message: {error}"),
            }
        }
    }

    fn notification(method: &str, params: Value) -> Message {
        Message::Notification(Notification::new(method.into(), params))
    }

    fn answer(client: &Connection, id: i32, method: &str, params: Value) -> Response {
        let request = Request::new(RequestId::from(id), method.into(), params);
        client.sender.send(request.into()).expect("send");
        let id = RequestId::from(id);
        match wait_for(client, |m| matches!(m, Message::Response(r) if r.id == id)) {
            Message::Response(response) => response,
            other => panic!("not a response: {other:?}"),
        }
    }

    /// A check that panics is published as the directory's `internal_error` and logged as an
    /// error; the server still answers, and shuts down cleanly.
    #[test]
    fn a_crashing_check_is_logged_and_the_server_goes_on() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().expect("canonical");
        std::fs::write(root.join("main.tf"), "variable \"a\" {}\n").expect("write");
        std::fs::write(root.join(INJECT_PANIC), "variable \"b\" {}\n").expect("write");
        let (server, client) = Connection::memory();
        let serving = std::thread::spawn(move || serve(&server));
        let root_uri = Url::from_file_path(&root).expect("a file URI");
        let init = json!({"capabilities": {}, "rootUri": root_uri});
        assert!(
            answer(&client, 1, "initialize", init)
                .response_result
                .is_ok()
        );
        client
            .sender
            .send(notification("initialized", json!({})))
            .expect("send");
        let main = Url::from_file_path(root.join("main.tf")).expect("a file URI");
        let document = json!({"uri": main, "languageId": "terraform", "version": 1, "text": ""});
        let open = notification("textDocument/didOpen", json!({"textDocument": document}));
        client.sender.send(open).expect("send");

        // The crash is published and logged, in either order.
        let (mut published, mut logged) = (None, None);
        while published.is_none() || logged.is_none() {
            let message = wait_for(&client, |m| matches!(m, Message::Notification(_)));
            let Message::Notification(n) = message else {
                unreachable!("waited for a notification")
            };
            match n.method.as_str() {
                "textDocument/publishDiagnostics" => published = Some(n.params),
                "window/logMessage" if n.params["type"] == 1 => logged = Some(n.params),
                _ => {}
            }
        }
        let (published, logged) = (published.unwrap_or_default(), logged.unwrap_or_default());
        assert_eq!(
            published["diagnostics"][0]["code"], "internal_error",
            "{published}"
        );
        let text = logged["message"].as_str().unwrap_or_default();
        assert!(text.contains("injected panic"), "{text}");

        let hover = json!({"textDocument": {"uri": main}, "position": {"line": 0, "character": 0}});
        let answered = answer(&client, 2, "textDocument/hover", hover);
        assert!(answered.response_result.is_ok(), "{answered:?}");
        assert!(
            answer(&client, 3, "shutdown", Value::Null)
                .response_result
                .is_ok()
        );
        client
            .sender
            .send(notification("exit", Value::Null))
            .expect("send");
        serving
            .join()
            .expect("the server thread")
            .expect("a clean end");
    }
}
