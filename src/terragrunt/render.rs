//! `tflint-merge merged path/to/unit` for a Terragrunt unit: its effective configuration — the
//! unit merged with the files it includes (by their `merge_strategy`) and the files its imports
//! merge in (`merge = true`, `deep_merge = true`) — with the file each value comes from, in
//! native HCL or JSON. Terragrunt's own `render --json` needs the binary, a run and usually
//! credentials; this reads the files alone, so values are printed as written (expressions are
//! not evaluated), and `locals`, which Terragrunt never merges, are the unit's own.
//!
//! The merge follows gruntwork-io/terragrunt `pkg/config/include.go`: a block of the same type
//! and labels from a file of higher precedence replaces the lower one, or, in a deep merge, is
//! merged with it attribute by attribute; top-level attributes are replaced; `inputs` are merged
//! key by key (and, in a deep merge, object values key by key too).

use std::fmt::Write;

use crate::syntax::{Block, Expr, ExprKind};
use crate::types::object_key;

use super::effective::{Contribution, Layer};
use super::imports::ImportMerge;
use super::{MergeStrategy, Tree};

/// A value of the effective configuration, with the files it comes from.
#[derive(Debug, Clone)]
struct Valued {
    /// Native text.
    text: String,
    /// The nodes of the files that set it, lowest precedence first.
    from: Vec<usize>,
    /// Whether the file that set it last is merged in deeply: Terragrunt merges what is above
    /// into an included (or imported) file with that file's strategy.
    deep: bool,
}

/// A top-level item: a block (by type and labels) or an attribute.
#[derive(Debug)]
struct Item {
    key: String,
    value: Valued,
}

/// The effective configuration of a unit, ready to print.
#[derive(Debug)]
struct Rendered {
    layers: Vec<Layer>,
    complete: bool,
    items: Vec<Item>,
    inputs: Vec<(String, Valued)>,
    /// `inputs` expressions that are not object literals: (node, text).
    opaque_inputs: Vec<(usize, String)>,
}

/// Whether merging layer `upper` over what is below is a deep merge.
fn is_deep(how: Contribution) -> bool {
    matches!(
        how,
        Contribution::Include(MergeStrategy::Deep) | Contribution::Import(ImportMerge::Deep)
    )
}

fn render(tree: &Tree, unit: usize) -> Rendered {
    let (layers, complete) = tree.layers(unit);
    let mut items: Vec<Item> = Vec::new();
    let mut inputs: Vec<(String, Valued)> = Vec::new();
    let mut opaque_inputs = Vec::new();
    for layer in &layers {
        let file = &tree.files[tree.nodes[layer.node].file];
        let Some(parsed) = file.parsed.as_ref() else {
            continue;
        };
        let text = |expr: &Expr| tree.sources.text(expr.span).to_string();
        let deep = is_deep(layer.how);
        for attribute in &parsed.body.attributes {
            if attribute.name == "inputs" {
                if !merge_inputs(tree, &attribute.expr, layer, &mut inputs) {
                    opaque_inputs.push((layer.node, text(&attribute.expr)));
                }
                continue;
            }
            let value = Valued {
                text: format!("{} = {}", attribute.name, text(&attribute.expr)),
                from: vec![layer.node],
                deep,
            };
            upsert(&mut items, format!("={}", attribute.name), value);
        }
        for block in &parsed.body.blocks {
            let own_only = block.kind == "locals" && layer.how != Contribution::Unit;
            if own_only || block.kind == "include" || block.kind == "import" {
                continue;
            }
            let labels: Vec<&str> = block.labels.iter().map(|l| l.value.as_str()).collect();
            let key = format!("{} {}", block.kind, labels.join("\u{0}"));
            let value = Valued {
                text: tree.sources.text(block.span()).to_string(),
                from: vec![layer.node],
                deep,
            };
            match items.iter_mut().find(|item| item.key == key) {
                Some(existing) if existing.value.deep => {
                    existing.value = deep_merge_block(tree, &existing.value, block, layer);
                }
                _ => upsert(&mut items, key, value),
            }
        }
    }
    Rendered {
        layers,
        complete,
        items,
        inputs,
        opaque_inputs,
    }
}

/// Sets `key` to `value`, in the place of the first definition.
fn upsert(items: &mut Vec<Item>, key: String, value: Valued) {
    match items.iter_mut().find(|item| item.key == key) {
        Some(item) => item.value = value,
        None => items.push(Item { key, value }),
    }
}

/// A block deep-merged over a lower one: the lower block's text with the higher block's
/// attributes and nested blocks added after it, Terragrunt's `DeepMerge` (later settings win).
fn deep_merge_block(tree: &Tree, lower: &Valued, block: &Block, layer: &Layer) -> Valued {
    let body = tree.sources.text(block.body_span);
    let inner = body
        .strip_prefix('{')
        .and_then(|b| b.strip_suffix('}'))
        .unwrap_or(body)
        .trim_matches('\n');
    let lower_text = lower.text.trim_end();
    let open = lower_text
        .strip_suffix('}')
        .unwrap_or(lower_text)
        .trim_end();
    let mut from = lower.from.clone();
    from.push(layer.node);
    Valued {
        text: format!("{open}\n  # deep-merged from a file of higher precedence:\n{inner}\n}}"),
        from,
        deep: is_deep(layer.how),
    }
}

/// Merges the keys of an `inputs` expression over `inputs`; false when it is not an object
/// literal (or `merge()` of them).
fn merge_inputs(
    tree: &Tree,
    expr: &Expr,
    layer: &Layer,
    inputs: &mut Vec<(String, Valued)>,
) -> bool {
    match &expr.kind {
        ExprKind::Object(items) => {
            let mut complete = true;
            for item in items {
                let Some(name) = object_key(&item.key) else {
                    complete = false;
                    continue;
                };
                let value = Valued {
                    text: tree.sources.text(item.value.span).to_string(),
                    from: vec![layer.node],
                    deep: is_deep(layer.how),
                };
                let at = inputs.iter().position(|(n, _)| *n == name);
                match at {
                    Some(i) if inputs[i].1.deep => {
                        let merged = deep_merge_value(tree, &inputs[i].1, &item.value, layer);
                        inputs[i].1 = merged;
                    }
                    Some(i) => inputs[i].1 = value,
                    None => inputs.push((name, value)),
                }
            }
            complete
        }
        ExprKind::Parenthesis(inner) => merge_inputs(tree, inner, layer, inputs),
        // `merge()` is shallow, whatever the file's strategy.
        ExprKind::FunctionCall { name, args, .. } if &**name == "merge" => {
            let shallow = Layer {
                node: layer.node,
                how: Contribution::Unit,
            };
            let mut complete = true;
            for arg in args {
                complete &= merge_inputs(tree, arg, &shallow, inputs);
            }
            for (_, value) in inputs.iter_mut() {
                if value.from.last() == Some(&layer.node) {
                    value.deep = is_deep(layer.how);
                }
            }
            complete
        }
        _ => false,
    }
}

/// An input deep-merged: two object literals merged key by key (the higher value winning),
/// anything else replaced.
fn deep_merge_value(tree: &Tree, lower: &Valued, upper: &Expr, layer: &Layer) -> Valued {
    let node = layer.node;
    let deep = is_deep(layer.how);
    let upper_text = tree.sources.text(upper.span).to_string();
    let mut from = lower.from.clone();
    from.push(node);
    let ExprKind::Object(upper_items) = &upper.kind else {
        return Valued {
            text: upper_text,
            from: vec![node],
            deep,
        };
    };
    let Some(lower_items) = object_entries(&lower.text) else {
        return Valued {
            text: upper_text,
            from: vec![node],
            deep,
        };
    };
    let mut entries = lower_items;
    for item in upper_items {
        let Some(key) = object_key(&item.key) else {
            return Valued {
                text: upper_text,
                from: vec![node],
                deep,
            };
        };
        let text = tree.sources.text(item.value.span).to_string();
        match entries.iter_mut().find(|(k, _)| *k == key) {
            Some(entry) => entry.1 = text,
            None => entries.push((key, text)),
        }
    }
    let mut text = String::from("{\n");
    for (key, value) in entries {
        let _ = writeln!(text, "    {} = {value}", key_text(&key));
    }
    text.push_str("  }");
    Valued { text, from, deep }
}

/// The entries of an object literal's text, re-parsed (the lower value may itself be merged).
fn object_entries(text: &str) -> Option<Vec<(String, String)>> {
    let source = format!("x = {text}\n");
    let mut files = crate::source::SourceFiles::default();
    let id = files.add(crate::source::SourceFile::new(
        "x.hcl".into(),
        source.clone(),
    ));
    let parsed = crate::syntax::native::parse(id, &source).file.ok()?;
    let ExprKind::Object(items) = &parsed.body.attributes.first()?.expr.kind else {
        return None;
    };
    (items.iter())
        .map(|item| {
            Some((
                object_key(&item.key)?,
                files.text(item.value.span).to_string(),
            ))
        })
        .collect()
}

/// An object key as written: a bare name when it is one, else a quoted string.
fn key_text(key: &str) -> String {
    let mut chars = key.chars();
    let bare = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if bare {
        key.to_string()
    } else {
        crate::syntax::quote(key, false)
    }
}

/// How a layer reaches the unit, as printed.
fn how(layer: &Layer) -> &'static str {
    match layer.how {
        Contribution::Unit => "the unit",
        Contribution::Include(MergeStrategy::NoMerge) => "include, no_merge",
        Contribution::Include(MergeStrategy::Shallow) => "include, shallow merge",
        Contribution::Include(MergeStrategy::Deep) => "include, deep merge",
        Contribution::Import(merge) => match merge {
            ImportMerge::Deep => "import, deep_merge = true",
            _ => "import, merge = true",
        },
    }
}

fn files_of(tree: &Tree, from: &[usize]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for &n in from {
        let shown = tree.show_file(tree.nodes[n].file);
        if !out.contains(&shown) {
            out.push(shown);
        }
    }
    out
}

/// The effective configuration of unit node `unit` in native HCL, with a comment naming the
/// files of each value.
pub(crate) fn unit_hcl(tree: &Tree, unit: usize) -> String {
    let rendered = render(tree, unit);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Effective configuration of the Terragrunt unit {}, merged from (lowest precedence first):",
        tree.show_file(tree.nodes[unit].file)
    );
    for layer in &rendered.layers {
        let _ = writeln!(
            out,
            "#   {} ({})",
            tree.show_file(tree.nodes[layer.node].file),
            how(layer)
        );
    }
    if !rendered.complete {
        out.push_str("# Incomplete: an include or merged import could not be followed.\n");
    }
    for item in &rendered.items {
        let _ = writeln!(
            out,
            "\n# from {}",
            files_of(tree, &item.value.from).join(", ")
        );
        let _ = writeln!(out, "{}", item.value.text);
    }
    if !rendered.inputs.is_empty() || !rendered.opaque_inputs.is_empty() {
        out.push_str("\ninputs = {\n");
        for (name, value) in &rendered.inputs {
            let _ = writeln!(out, "  # from {}", files_of(tree, &value.from).join(", "));
            let _ = writeln!(out, "  {} = {}", key_text(name), value.text);
        }
        out.push_str("}\n");
        for (node, text) in &rendered.opaque_inputs {
            let _ = writeln!(
                out,
                "# Also merged when Terragrunt runs, from {} (not an object literal):\n# inputs = {}",
                tree.show_file(tree.nodes[*node].file),
                text.replace('\n', "\n#   ")
            );
        }
    }
    out
}

/// The effective configuration of unit node `unit` as JSON (schema version 1): `unit`,
/// `layers` (`file`, `how`), `complete`, `blocks_and_attributes` (`key`, `text`, `files`),
/// `inputs` (`name`, `value`, `files`), `inputs_complete` and `opaque_inputs`.
pub(crate) fn unit_json(tree: &Tree, unit: usize) -> String {
    use serde_json::json;
    let rendered = render(tree, unit);
    let layers: Vec<_> = (rendered.layers.iter())
        .map(|layer| {
            json!({
                "file": tree.show_file(tree.nodes[layer.node].file),
                "how": how(layer),
            })
        })
        .collect();
    let items: Vec<_> = (rendered.items.iter())
        .map(|item| {
            let key = item
                .key
                .strip_prefix('=')
                .unwrap_or(&item.key)
                .replace('\u{0}', " ");
            json!({
                "key": key.trim_end(),
                "text": item.value.text,
                "files": files_of(tree, &item.value.from),
            })
        })
        .collect();
    let inputs: Vec<_> = (rendered.inputs.iter())
        .map(|(name, value)| {
            json!({
                "name": name,
                "value": value.text,
                "files": files_of(tree, &value.from),
            })
        })
        .collect();
    let opaque: Vec<_> = (rendered.opaque_inputs.iter())
        .map(|(node, text)| json!({"file": tree.show_file(tree.nodes[*node].file), "text": text}))
        .collect();
    let value = json!({
        "schema_version": 1,
        "unit": tree.show_file(tree.nodes[unit].file),
        "layers": layers,
        "complete": rendered.complete,
        "blocks_and_attributes": items,
        "inputs": inputs,
        "inputs_complete": rendered.complete && rendered.opaque_inputs.is_empty(),
        "opaque_inputs": opaque,
    });
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}
