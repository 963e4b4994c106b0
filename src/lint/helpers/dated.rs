//! Which targeted releases a dated construct keeps from loading the module: the constructs the
//! release tables date (blocks, arguments, functions, backends) that some targeted releases
//! refuse. What the version-constraint rules weigh a module's constraints against.

use std::collections::BTreeMap;

use crate::knowledge::features::Place;
use crate::knowledge::releases::Release;
use crate::lint::Context;

use super::backend_type;
use super::schema::{Judgement, judgements};

/// For each targeted release that refuses the module for a dated construct, the constructs it
/// refuses, described (`the `templatestring` function`), each once.
pub(crate) fn refusing_releases(ctx: &Context) -> BTreeMap<Release, Vec<String>> {
    let mut refused: BTreeMap<Release, Vec<String>> = BTreeMap::new();
    let mut add = |releases: &[Release], what: String| {
        for &release in releases {
            let list = refused.entry(release).or_default();
            if !list.contains(&what) {
                list.push(what.clone());
            }
        }
    };
    // A `language` block that older OpenTofu cannot read is `version_constraint_ineffective`'s
    // (OpenTofu's "Ineffective version constraint"), as in `feature_newer_than_target`.
    let language = |j: &&Judgement| j.place == Place::TopLevel && j.name == "language";
    for judgement in (judgements(ctx).iter()).filter(|j| j.described && !language(j)) {
        add(
            &judgement.refusing,
            describe(judgement.place, &judgement.name),
        );
    }
    if let Some((_, kind)) = backend_type(ctx) {
        add(
            &ctx.targets.refusing(Place::Backend, kind),
            describe(Place::Backend, kind),
        );
    }
    refused
}

/// A construct as messages name it: `` a `check` block ``, `` the `templatestring` function ``.
pub(crate) fn describe(place: Place, name: &str) -> String {
    match place {
        Place::TopLevel => format!("a `{name}` block"),
        Place::In(body) => format!("`{name}` in `{}`", body.block_type()),
        Place::Function => format!("the `{name}` function"),
        Place::FunctionNamespace => format!("`{name}::` functions"),
        Place::Backend => format!("the `{name}` backend"),
        Place::FileType => format!("`{name}` files"),
    }
}
