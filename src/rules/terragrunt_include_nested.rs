//! An included Terragrunt file that itself includes another: Terragrunt merges one level of
//! includes only, and refuses the nested one ("Only one level of includes is allowed",
//! `TooManyLevelsOfInheritanceError` in gruntwork-io/terragrunt `pkg/config/errors.go`). The
//! file is refused for every unit that includes it; it is reported once, at the nested include.

use std::collections::BTreeMap;

use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::terragrunt::refs::RefKind;

use crate::lint::helpers::terragrunt::with_optional_note;
use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_include_nested",
    severity: Error,
    default: On,
    summary: "an included Terragrunt file that itself includes another",
    check: Check::Terragrunt(check),
};

const HELP: &str = "include both files from the unit (a unit may have several `include` \
    blocks), or read the inner one with `read_terragrunt_config()`";

/// One nested include: where it is written, and the places of the message.
struct Nested {
    site: Span,
    unit: String,
    outer: String,
    inner: String,
}

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    let tree = ctx.tree;
    // Per nested include (file, reference): the nodes it was found for.
    let mut found: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for (_, edge) in tree.live_edges() {
        let node = tree.nodes[edge.from];
        if edge.kind == RefKind::Include && node.file != node.unit {
            found
                .entry((node.file, edge.reference))
                .or_default()
                .push(edge.from);
        }
    }
    for ((file, reference), mut nodes) in found {
        nodes.sort_by_cached_key(|&n| tree.show_file(tree.nodes[n].unit));
        let first = nodes[0];
        let target = (tree.edges_from[first].iter())
            .map(|&e| tree.edges[e])
            .find(|e| e.reference == reference && e.kind == RefKind::Include)
            .map(|e| tree.show_file(tree.nodes[e.to].file))
            .unwrap_or_default();
        let nested = Nested {
            site: tree.files[file].extracted.references[reference].site,
            unit: tree.show_file(tree.nodes[first].unit),
            outer: tree.show_file(file),
            inner: target,
        };
        out.push(with_optional_note(
            nested_include(ctx, &nested),
            tree.evaluated_for(&nodes),
        ));
    }
}

/// `` `app/terragrunt.hcl` includes `env.hcl`, which itself includes `root.hcl`. Only one level
/// of includes is allowed. ``
fn nested_include(ctx: &TreeContext, nested: &Nested) -> Diagnostic {
    let Nested {
        site,
        unit,
        outer,
        inner,
    } = nested;
    ctx.finding(
        &RULE,
        format!(
            "`{unit}` includes `{outer}`, which itself includes `{inner}`. Only one level of \
             includes is allowed."
        ),
    )
    .at(ctx.files(), *site, "an include in an included file")
    .with_note(
        "Terragrunt merges the files a unit includes, but not what they include in turn: it \
         refuses the unit.",
    )
    .with_help(HELP)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, INCLUDE_ROOT, check_table, findings};

    const INCLUDE_ENV: &str =
        "include \"env\" {\n  path = find_in_parent_folders(\"env.hcl\")\n}\n";

    const PASS: &[Files] = &[
        &[("root.hcl", ""), ("app/terragrunt.hcl", INCLUDE_ROOT)],
        // Two includes at one level.
        &[
            ("root.hcl", ""),
            ("env.hcl", ""),
            (
                "app/terragrunt.hcl",
                concat!(
                    "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n",
                    "include \"env\" {\n  path = find_in_parent_folders(\"env.hcl\")\n}\n",
                ),
            ),
        ],
    ];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("root.hcl", ""),
                ("env.hcl", INCLUDE_ROOT),
                ("app/terragrunt.hcl", INCLUDE_ENV),
            ],
            1,
        ),
        // One finding however many units include the file.
        (
            &[
                ("root.hcl", ""),
                ("env.hcl", INCLUDE_ROOT),
                ("a/terragrunt.hcl", INCLUDE_ENV),
                ("b/terragrunt.hcl", INCLUDE_ENV),
            ],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn terragrunts_wording() {
        let found = findings(&super::RULE, FAIL[1].0);
        let message = &found[0].message;
        assert!(
            message.contains("/a/terragrunt.hcl` includes `"),
            "{message}"
        );
        assert!(
            message.contains("/env.hcl`, which itself includes `"),
            "{message}"
        );
        assert!(
            message.ends_with("/root.hcl`. Only one level of includes is allowed."),
            "{message}"
        );
    }
}
