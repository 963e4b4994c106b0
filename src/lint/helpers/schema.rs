//! The tools' own schema checks, judged against the targeted releases (each tool decodes a file
//! with `body.Content(configFileSchema)`, `internal/configs/parser_config.go`, and the messages are
//! hashicorp/hcl's `hclsyntax/structure.go` and `json/structure.go`): blocks and arguments of the
//! tool-defined bodies, and built-in function names. A construct that every targeted release
//! refuses is a load error with the tools' summary (`Unsupported block type`, `Unsupported
//! argument`, `Extraneous JSON object property`: `unsupported_construct`; `Call to unknown
//! function`: `unknown_function`); one that only some refuse is `feature_newer_than_target`'s.
//! The three rules read the same judgements.
//!
//! Provider-defined bodies (resources, data sources, provider configurations, provisioners and
//! connections) and module calls (whose arguments are the callee's variables) are never judged
//! for unknown names: their schema is not ours.

use std::cell::RefCell;
use std::collections::HashSet;

use crate::knowledge::View;
use crate::knowledge::features::{self, Body, Place};
use crate::knowledge::literal_arguments::LiteralIn;
use crate::knowledge::releases::Release;
use crate::lint::Context;
use crate::source::{Span, Syntax};
use crate::syntax::{self, CallSite};

use super::function_namespace::{self, Problem};
use super::tools_suggestion;

/// The first Terraform release that refuses `state_store` with a diagnostic of its own.
const TERRAFORM_OWN_STATE_STORE_REFUSAL: Release = Release::new(1, 14);

/// What was written where, as the schema checks see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Written {
    Block,
    Argument,
    Function,
    /// A built-in called by its `core::` name (judged by the bare name).
    CoreFunction,
    /// A namespaced call no release resolves, whatever the providers offer (judged by the
    /// whole name).
    Namespaced(Problem),
}

/// One construct and the targeted releases that refuse it.
#[derive(Debug, Clone)]
pub(crate) struct Judgement {
    pub(crate) view: View,
    pub(crate) place: Place,
    pub(crate) name: String,
    pub(crate) written: Written,
    pub(crate) syntax: Syntax,
    /// The name as written (a block's header, an argument's name, a call's name and arguments).
    pub(crate) span: Span,
    /// The targeted releases that refuse it, oldest first.
    pub(crate) refusing: Vec<Release>,
    /// Whether the tables describe it (an undescribed name is unknown to every release).
    pub(crate) described: bool,
}

impl Judgement {
    /// The tools' summary for this construct where a release refuses it.
    pub(crate) fn summary(&self) -> &'static str {
        match (self.written, self.syntax) {
            (Written::Function, _) => "Call to unknown function",
            (Written::CoreFunction, _) => match self.view {
                // Terraform re-labels every unresolved namespaced call (see `function_namespace`).
                View::Terraform => "Unknown provider function",
                View::OpenTofu => "Call to unknown function",
            },
            (Written::Namespaced(problem), _) => problem.summary(self.view),
            _ if self.is_terraforms_own_state_store_refusal() => "Unsupported block type",
            (_, Syntax::Json | Syntax::TerragruntJson) => "Extraneous JSON object property",
            (Written::Block, Syntax::Native) => "Unsupported block type",
            (Written::Argument, Syntax::Native) => "Unsupported argument",
        }
    }

    /// From 1.14 Terraform has `state_store` in its schema and refuses it itself outside
    /// experimental builds, as `Unsupported block type` in either syntax
    /// (`internal/configs/parser_config.go`).
    fn is_terraforms_own_state_store_refusal(&self) -> bool {
        self.view == View::Terraform
            && self.written == Written::Block
            && self.place == Place::In(Body::Terraform)
            && self.name == "state_store"
            && (self.refusing.last()).is_some_and(|&r| r >= TERRAFORM_OWN_STATE_STORE_REFUSAL)
    }

    /// Whether every targeted release refuses it: a load error.
    pub(crate) fn refused_by_all(&self, ctx: &Context) -> bool {
        !self.refusing.is_empty() && self.refusing.len() == ctx.targets.releases.len()
    }
}

/// The body a nested block of `parent` opens, when the tools define it.
fn nested_body(parent: Body, kind: &str) -> Option<Body> {
    match (parent, kind) {
        (Body::Removed, "lifecycle") => Some(Body::RemovedLifecycle),
        _ => None,
    }
}

/// The body a top-level block opens, and whether its nested blocks are judged (by body).
fn top_level_body(kind: &str) -> Option<Body> {
    Some(match kind {
        "terraform" => Body::Terraform,
        "variable" => Body::Variable,
        "output" => Body::Output,
        "moved" => Body::Moved,
        "import" => Body::Import,
        "removed" => Body::Removed,
        "check" => Body::Check,
        "action" => Body::Action,
        "language" => Body::Language,
        _ => return None,
    })
}

/// The constructs of the view's files that the tables describe or that a closed body holds
/// and that some targeted release refuses or ignores, with the releases that refuse it. Judged
/// once per view and kept: both the load errors here and `feature_newer_than_target` read
/// them.
pub(crate) fn judgements<'c>(ctx: &'c Context) -> &'c [Judgement] {
    ctx.judgements.get_or_init(|| judge_all(ctx))
}

/// The constructs every targeted release has and reads, by place (see [`judge_all`]).
type Fine = foldhash::HashMap<Place, foldhash::HashSet<Box<str>>>;

/// What decides which constructs are [`Fine`]: the view and its targeted releases (the tables
/// say which releases have a construct, refuse it or ignore it; experimental builds accept
/// more).
#[derive(PartialEq, Eq, Hash)]
struct FineFor {
    view: View,
    releases: Vec<Release>,
    experiments: bool,
}

/// How many sets of targets a thread keeps the fine constructs of before it starts afresh: a
/// run's directories mostly target the same few, and a long-running language server must not
/// grow without bound. (Only constructs the tables describe are fine: a set holds at most
/// their names.)
const FINE_KEPT: usize = 64;

thread_local! {
    /// The fine constructs found so far, by what decides them: a repository's directories
    /// target the same releases and write the same constructs, which each directory's
    /// judgements otherwise looked up in the tables again.
    static FINE: RefCell<foldhash::HashMap<FineFor, Fine>> = RefCell::default();
}

fn judge_all(ctx: &Context) -> Vec<Judgement> {
    let mut out = Vec::new();
    let required_providers = required_provider_names(ctx);
    // The constructs every targeted release has and reads, by place: most of a module's, each
    // written again and again (argument names, functions), so looked up once each. Taken out
    // of the thread's, and put back when done.
    let fine_for = FineFor {
        view: ctx.view,
        releases: ctx.targets.releases.clone(),
        experiments: ctx.targets.experiments,
    };
    let mut fine: Fine = FINE
        .with_borrow_mut(|kept| kept.remove(&fine_for))
        .unwrap_or_default();
    // The path of block types down to the body being walked for calls: one vector for every
    // block of the view, rather than one allocated per block.
    let mut path = Vec::new();
    let files = ctx.primary.iter();
    // Override files are decoded with the same schema: a variable's, output's or lifecycle's
    // misspelled argument is refused there too (`decodeVariableBlock`, `decodeOutputBlock`,
    // `decodeResourceBlock` in hashicorp/terraform `internal/configs`, whatever their `override`).
    for loaded in files.chain(ctx.overrides.iter()) {
        let syntax = loaded.extension.syntax();
        let mut judge = |place: Place, name: &str, written: Written, span: Span| {
            if left_to_other_checks(ctx.view, place, name) {
                return;
            }
            if fine.get(&place).is_some_and(|names| names.contains(name)) {
                return;
            }
            // Looked up once for whether the tables describe it and which releases refuse it.
            let acceptance = features::acceptance(ctx.view, place, name);
            let described = acceptance.is_some();
            let refusing = match acceptance {
                Some(acceptance) => ctx.targets.refusing_described(acceptance, place, name),
                None => ctx.targets.releases.clone(),
            };
            // What every targeted release has and reads is kept by no check: most constructs
            // of a module, not worth a judgement each. (Described, so never a misspelling.)
            if refusing.is_empty() && ctx.targets.ignoring(place, name).is_empty() {
                fine.entry(place).or_default().insert(name.into());
                return;
            }
            out.push(Judgement {
                view: ctx.view,
                place,
                name: name.to_string(),
                written,
                syntax,
                span,
                refusing,
                described,
            });
        };
        let body = &loaded.file.body;
        for attr in &body.attributes {
            judge(
                Place::TopLevel,
                &attr.name,
                Written::Argument,
                attr.name_span,
            );
        }
        for block in &body.blocks {
            judge(
                Place::TopLevel,
                &block.kind,
                Written::Block,
                block.header_span,
            );
            let acceptance = features::acceptance(ctx.view, Place::TopLevel, &block.kind);
            let refusing = acceptance.map_or_else(Vec::new, |acceptance| {
                (ctx.targets).refusing_described(acceptance, Place::TopLevel, &block.kind)
            });
            if !refusing.is_empty()
                || !ctx
                    .targets
                    .ignoring(Place::TopLevel, &block.kind)
                    .is_empty()
            {
                continue; // the block is judged; its contents count with it
            }
            if let Some(kind) = top_level_body(&block.kind) {
                judge_body(kind, &block.body, &mut judge);
            }
            if acceptance.is_some() {
                walk_calls(block, &mut path, &mut |site| {
                    judge_call(ctx, site, &required_providers, &mut judge);
                });
            }
            if matches!(block.kind.as_str(), "resource" | "data" | "ephemeral") {
                for lifecycle in block.body.blocks_of("lifecycle") {
                    judge_body(Body::Lifecycle, &lifecycle.body, &mut judge);
                }
            }
            // A module call's `lifecycle` is `module_reserved_block`'s (reserved in Terraform,
            // `enabled` only in OpenTofu).
        }
    }
    FINE.with_borrow_mut(|kept| {
        if kept.len() >= FINE_KEPT {
            kept.clear();
        }
        kept.insert(fine_for, fine);
    });
    out
}

/// The dated constructs of one file (see [`features::is_dated`]), each once: its top-level
/// blocks and the arguments and blocks of their tool-defined bodies (a resource's `lifecycle`
/// too), and the built-in functions it calls outside `try` and `can`. A local module's callers
/// weigh their version constraints against these, in their own targeted releases: the tools
/// load the whole tree, so a release that refuses a child refuses the caller.
pub(crate) fn dated_constructs(file: &syntax::File) -> Vec<(Place, Box<str>)> {
    let mut found: Vec<(Place, Box<str>)> = Vec::new();
    let mut add = |place: Place, name: &str| {
        let known = |(p, n): &(Place, Box<str>)| *p == place && **n == *name;
        if features::is_dated(place, name) && !found.iter().any(known) {
            found.push((place, name.into()));
        }
    };
    let mut path = Vec::new();
    for block in &file.body.blocks {
        add(Place::TopLevel, &block.kind);
        let mut in_body = |place: Place, name: &str, _: Written, _: Span| add(place, name);
        if let Some(kind) = top_level_body(&block.kind) {
            judge_body(kind, &block.body, &mut in_body);
        }
        if matches!(block.kind.as_str(), "resource" | "data" | "ephemeral") {
            for lifecycle in block.body.blocks_of("lifecycle") {
                judge_body(Body::Lifecycle, &lifecycle.body, &mut in_body);
            }
        }
        walk_calls(block, &mut path, &mut |site| {
            if !site.in_try && split_namespace(&site.call.name).is_none() {
                add(Place::Function, &site.call.name);
            }
        });
    }
    found
}

/// Names with findings of their own elsewhere: `required_providers` at the top level
/// (`required_providers_top_level`), `language` at the top level in Terraform
/// (`language_block_in_tf_file`, an error that says where the block belongs), output
/// `postcondition` ("Postconditions are not allowed"), and JSON comments (`"//"`), which the
/// tools skip.
fn left_to_other_checks(view: View, place: Place, name: &str) -> bool {
    name == "//"
        || (view == View::Terraform && place == Place::TopLevel && name == "language")
        || matches!(
            (place, name),
            (Place::TopLevel, "required_providers") | (Place::In(Body::Output), "postcondition")
        )
}

/// Judges every argument and nested block of a closed tool-defined body.
fn judge_body(kind: Body, body: &syntax::Body, judge: &mut impl FnMut(Place, &str, Written, Span)) {
    for attr in &body.attributes {
        judge(
            Place::In(kind),
            &attr.name,
            Written::Argument,
            attr.name_span,
        );
    }
    for block in &body.blocks {
        judge(
            Place::In(kind),
            &block.kind,
            Written::Block,
            block.header_span,
        );
        if let Some(nested) = nested_body(kind, &block.kind) {
            judge_body(nested, &block.body, judge);
        }
    }
}

/// Judges a function call by its name: `f`, `core::f`, `provider::p::f` or another namespace.
///
/// In the arguments of `try` and `can` the tools look a function up only while evaluating, and
/// those two turn the error into their fallback: a call there that names no function is not
/// judged, but for what fails before evaluation — a namespace older releases cannot parse, and
/// in OpenTofu a provider the module does not require, which it resolves while building the
/// graph (`internal/tofu/transform_provider.go`, `ProviderFunctionTransformer`).
fn judge_call(
    ctx: &Context,
    site: CallSite,
    required_providers: &HashSet<&str>,
    judge: &mut impl FnMut(Place, &str, Written, Span),
) {
    let call = site.call;
    let span = call.span;
    let Some((namespace, function)) = split_namespace(&call.name) else {
        if !site.in_try {
            judge(Place::Function, &call.name, Written::Function, span);
        }
        return;
    };
    let namespaces_targeted = ctx.targets.releases.iter().any(|&release| {
        features::accepts(ctx.view, release, Place::FunctionNamespace, "provider") == Some(true)
    });
    // Releases without namespaces refuse the call by its namespace (or, for one no release
    // has, by the problem below when some targeted release has namespaces).
    if matches!(namespace, "core" | "provider") || !namespaces_targeted {
        judge(Place::FunctionNamespace, namespace, Written::Function, span);
    }
    if !namespaces_targeted {
        return;
    }
    let required = |provider: &str| required_providers.contains(provider);
    let problem = function_namespace::problem(ctx.view, &call.name, required);
    let graph_time = ctx.view == View::OpenTofu && problem == Some(Problem::ProviderNotRequired);
    if site.in_try && !graph_time {
        return;
    }
    match problem {
        Some(problem) => judge(
            Place::FunctionNamespace,
            &call.name,
            Written::Namespaced(problem),
            span,
        ),
        None if namespace == "core" => {
            judge(Place::Function, function, Written::CoreFunction, span);
        }
        None => {}
    }
}

/// `name` split at its first `::`, as `split_once("::")` does, without the substring searcher
/// that `split_once` sets up for a two-byte pattern on every call judged.
fn split_namespace(name: &str) -> Option<(&str, &str)> {
    let (at, _) = (name.match_indices(':')).find(|&(at, _)| name[at + 1..].starts_with(':'))?;
    Some((&name[..at], &name[at + 2..]))
}

/// The local names of the view's `required_providers` (primary and override files alike):
/// the providers whose functions a module may call.
fn required_provider_names<'c>(ctx: &Context<'c>) -> HashSet<&'c str> {
    let terraform = super::top_level::picked(ctx.top_level, &["terraform"]).map(|(_, b)| b);
    terraform
        .flat_map(|t| t.body.blocks_of("required_providers"))
        .flat_map(|r| r.body.attributes.iter().map(|a| a.name.as_str()))
        .collect()
}

/// Calls `f` with every function call in the expressions the tools evaluate in a top-level
/// block of theirs and in everything nested in it, provider-defined bodies included (functions
/// are the tools', not the providers'): in templates, operators, conditionals, `for`
/// expressions, indexes and arguments alike. Arguments the tools read literally
/// (`knowledge/literal_arguments.rs`: a variable's `type` and `default`, a module's `source`,
/// `depends_on`, ...) are not evaluated: a call there is another error, or none.
/// `path` is scratch space, left empty.
fn walk_calls<'b>(
    block: &'b syntax::Block,
    path: &mut Vec<&'b str>,
    f: &mut impl FnMut(CallSite<'b>),
) {
    path.clear();
    path.push(block.kind.as_str());
    walk_body_calls(&block.body, path, f);
    path.clear();
}

fn walk_body_calls<'b>(
    body: &'b syntax::Body,
    path: &mut Vec<&'b str>,
    f: &mut impl FnMut(CallSite<'b>),
) {
    // Which arguments the tools read literally is looked up only for a body with a call.
    let mut literal = None;
    for attr in body.attributes.iter().filter(|a| a.expr.holds_calls()) {
        let literal = literal.get_or_insert_with(|| LiteralIn::block(path));
        if !literal.reads_literally(&attr.name) {
            attr.expr.for_each_call(f);
        }
    }
    for block in &body.blocks {
        path.push(&block.kind);
        walk_body_calls(&block.body, path, f);
        path.pop();
    }
}

/// The names the newest targeted release accepts where `judgement` was written, for "Did you
/// mean".
fn suggestion(ctx: &Context, judgement: &Judgement) -> Option<&'static str> {
    if matches!(
        judgement.written,
        Written::CoreFunction | Written::Namespaced(_)
    ) {
        return None; // the tools' texts for namespaced calls suggest nothing
    }
    let newest = *ctx.targets.releases.last()?;
    let names = features::names(ctx.view, newest, judgement.place);
    tools_suggestion(&judgement.name, names)
}

/// " Did you mean "NAME"?", the tools' suggestion after their detail, or nothing.
pub(crate) fn did_you_mean(ctx: &Context, judgement: &Judgement) -> String {
    suggestion(ctx, judgement)
        .map(|s| format!(" Did you mean \"{s}\"?"))
        .unwrap_or_default()
}

/// When the refused construct came to the tool after the lowest targeted release, or left it:
/// the note that says so.
pub(crate) fn availability_note(ctx: &Context, judgement: &Judgement) -> Option<String> {
    let name = &judgement.name;
    let since =
        features::find(judgement.place, name).and_then(|f| f.availability(ctx.view).since());
    let until =
        features::find(judgement.place, name).and_then(|f| f.availability(ctx.view).until());
    let tool = ctx.view.tool_name();
    let targets = ctx.targets.describe();
    if let Some(since) = since.filter(|s| *s > ctx.targets.lowest()) {
        Some(format!(
            "{tool} has it since {since}; this module targets {targets}."
        ))
    } else {
        until.map(|until| format!("{tool} {until} removed it; this module targets {targets}."))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn namespaces_split_at_the_first_double_colon() {
        use super::split_namespace;
        for name in [
            "upper",
            "provider::aws::arn_parse",
            "core::upper",
            "a:b::c",
            "x::",
            "::y",
            ":",
        ] {
            assert_eq!(split_namespace(name), name.split_once("::"), "{name}");
        }
    }
}
