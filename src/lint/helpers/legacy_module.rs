//! Calls to "legacy modules": modules that configure a provider themselves, or call one that
//! does at any depth, whose provider configurations belong to their one instance. Both tools
//! refuse `count`, `for_each` and `depends_on` (and OpenTofu 1.12 `enabled`) in such a call
//! (`legacy_module_meta_argument`); where only some targeted releases refuse `enabled`, that is
//! `feature_newer_than_target`'s.
//!
//! Judged for local sources, whose files we can read (as `module_local_source_missing`
//! resolves them); the files of a registry or remote module are not at hand.

use crate::knowledge::View;
use crate::knowledge::module_source::{self, SourceKind};
use crate::knowledge::releases::Release;
use crate::lint::neighbours::LegacyModule;
use crate::module::merge::{Address, MergedBody};
use crate::source::Span;
use crate::syntax::ExprKind;

use crate::lint::Context;

/// The first OpenTofu release that refuses `enabled` in a call to a legacy module.
pub(crate) const FIRST_REFUSING: Release = Release::new(1, 12);

/// A module call to a legacy module, with the meta-arguments that make the tools refuse it.
pub(crate) struct LegacyCall<'a> {
    /// The call's name.
    pub(crate) name: &'a str,
    pub(crate) source: &'a str,
    /// The meta-arguments every release refuses here, in the tools' order: (name, place).
    pub(crate) always: Option<(&'static str, Span)>,
    /// `enabled`, which OpenTofu refuses from 1.12.
    pub(crate) enabled: Option<Span>,
    /// The module that configures a provider: the called one, or one below it.
    pub(crate) legacy: LegacyModule,
}

impl LegacyCall<'_> {
    /// The meta-argument `release` refuses the call for, and where: the tools take the first
    /// in their order.
    pub(crate) fn refused_for(&self, view: View, release: Release) -> Option<(&'static str, Span)> {
        let enabled = self
            .enabled
            .filter(|_| view == View::OpenTofu && release >= FIRST_REFUSING)
            .map(|span| ("enabled", span));
        match self.always {
            Some((name, span)) if name != "depends_on" => Some((name, span)),
            always => enabled.or(always),
        }
    }

    /// The module's address as the tools give it (`module.a.module.b`).
    pub(crate) fn path(&self) -> String {
        let calls = std::iter::once(self.name).chain(self.legacy.calls.iter().map(|c| &*c.0));
        calls
            .map(|name| format!("module.{name}"))
            .collect::<Vec<_>>()
            .join(".")
    }

    /// The source of the module that configures the provider, as its caller wrote it.
    pub(crate) fn legacy_source(&self) -> &str {
        self.legacy
            .calls
            .last()
            .map_or(self.source, |c| c.1.as_str())
    }
}

/// The module calls of the view to local legacy modules that have `count`, `for_each`,
/// `depends_on` or (OpenTofu) `enabled`.
pub(crate) fn legacy_calls<'a>(ctx: &'a Context) -> Vec<LegacyCall<'a>> {
    let calls = ctx
        .module
        .objects
        .iter()
        .filter_map(|object| match &object.address {
            Address::ModuleCall(name) => Some((name.as_str(), &object.body)),
            _ => None,
        });
    calls
        .filter_map(|(name, body)| {
            let always = meta_argument(body);
            let enabled = (ctx.view == View::OpenTofu)
                .then(|| {
                    body.blocks_of("lifecycle")
                        .find_map(|l| l.body.attribute("enabled"))
                })
                .flatten()
                .map(|enabled| enabled.expr.span);
            if always.is_none() && enabled.is_none() {
                return None;
            }
            let source = body.attribute("source")?.expr.literal_string()?;
            if module_source::classify(source) != SourceKind::Local {
                return None;
            }
            let legacy = ctx
                .neighbours
                .legacy_module(&ctx.dir.join(source), ctx.view)?;
            Some(LegacyCall {
                name,
                source,
                always,
                enabled,
                legacy,
            })
        })
        .collect()
}

/// The first of `count`, `for_each` and a non-empty `depends_on` that a module call sets, with
/// the place the tools give: the expression, or the first reference of `depends_on`.
fn meta_argument(body: &MergedBody) -> Option<(&'static str, Span)> {
    for name in ["count", "for_each"] {
        if let Some(attr) = body.attribute(name) {
            return Some((name, attr.expr.span));
        }
    }
    let depends_on = body.attribute("depends_on")?;
    match &depends_on.expr.kind {
        ExprKind::Tuple(items) => items.first().map(|first| ("depends_on", first.span)),
        _ => None,
    }
}

/// The calls refused only for their `enabled` (OpenTofu 1.12 and later), with nothing that
/// every release refuses, and where `enabled` is: `feature_newer_than_target`'s where only some
/// targeted releases refuse them.
pub(crate) fn enabled_legacy_calls<'a>(ctx: &'a Context) -> Vec<(Span, LegacyCall<'a>)> {
    let calls = legacy_calls(ctx).into_iter();
    calls
        .filter(|call| call.always.is_none())
        .filter_map(|call| Some((call.enabled?, call)))
        .collect()
}

/// The note the findings give.
pub(crate) fn why(call: &LegacyCall) -> String {
    let module = match call.legacy.calls.last() {
        None => format!("The module at `{}`", call.source),
        Some((name, source)) => format!(
            "The module `{name}` (`{source}`), which `{}` calls,",
            call.source
        ),
    };
    format!(
        "{module} is a legacy module which contains its own local provider configurations \
         (`provider \"{}\"`), and so calls to it may not use the count, for_each, enabled or \
         depends_on arguments (OpenTofu 1.12 and later; 1.11 accepts `enabled`).",
        call.legacy.provider
    )
}
