//! A property of every safe fix `--fix` applies: on generated module directories whose
//! variables, locals and outputs are heredocs (`<<` and `<<-`), templates with directives and
//! quoted strings with comment markers, braces and escapes in them, native and JSON, with
//! override files that restate or shadow some of them, applying the safe fixes changes no
//! string value of the effective module of either view, and the fixed files still load. The
//! generator is seeded: a failure names its case, which reruns the same way.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::diagnostic::fix::{self, Fix, Texts, is_json};
use crate::input::overlay::Overlay;
use crate::lint::RuleSettings;
use crate::lint::directory::{DirectoryResult, Options, ViewSelection, check_directory};
use crate::module::merge::{MergedAttribute, MergedBlock, MergedBody, Module};
use crate::rules;
use crate::source::{SourceFiles, Syntax};
use crate::syntax::literals::string_literals;
use crate::syntax::{Expr, ExprKind};

#[path = "../../../tests/common/rng.rs"]
mod rng;
use rng::Rng;

/// The text of a quoted string, between its quotes, in native syntax and in JSON (where the
/// quotes inside a template's sequences are escaped).
const QUOTED: &[(&str, &str)] = &[
    ("plain", "plain"),
    ("a # not a comment", "a # not a comment"),
    ("// nor this", "// nor this"),
    ("/* nor this */", "/* nor this */"),
    ("}", "}"),
    ("{ x", "{ x"),
    ("line\\nbreak", "line\\nbreak"),
    ("tab\\there\\r\\n", "tab\\there\\r\\n"),
    ("say \\\"hi\\\"", "say \\\"hi\\\""),
    ("back\\\\slash", "back\\\\slash"),
    ("$${not_interpolated}", "$${not_interpolated}"),
    ("%%{not_a_directive}", "%%{not_a_directive}"),
    ("<<EOT", "<<EOT"),
    ("EOT", "EOT"),
    ("  a = 1  ", "  a = 1  "),
    ("é ✓ \\u00e9", "é ✓ \\u00e9"),
    ("", ""),
    (
        "tflint-merge-ignore: override_noop",
        "tflint-merge-ignore: override_noop",
    ),
];

/// Templates, for the values that may refer to things (not a variable's default).
const TEMPLATES: &[(&str, &str)] = &[
    ("${var.v0} # after", "${var.v0} # after"),
    ("pre-${upper(\"}\")}-post", "pre-${upper(\\\"}\\\")}-post"),
    (
        "%{ if var.v0 == \"a\" }A # x%{ else }B%{ endif }",
        "%{ if var.v0 == \\\"a\\\" }A # x%{ else }B%{ endif }",
    ),
    (
        "%{ for s in [\"x\", \"}\"] }${s},%{ endfor }",
        "%{ for s in [\\\"x\\\", \\\"}\\\"] }${s},%{ endfor }",
    ),
    (
        "%{ if var.v0 != \"\"\n  }yes%{ endif }",
        "%{ if var.v0 != \\\"\\\"\\n  }yes%{ endif }",
    ),
];

/// Lines of a heredoc's body (a line of several is one piece: a directive and its end).
const BODY_LINES: &[&str] = &[
    "hello",
    "",
    "  ",
    "# tflint-merge-ignore: override_noop",
    "# a comment? no",
    "// slashes",
    "/* star */",
    "}",
    "{",
    "  a = 1",
    "locals {",
    "\"quoted\" 'single'",
    "$${not_interpolated}",
    "MARKERX",
    "MARKER-2",
    " xMARKER",
    "back\\slash",
];

/// Lines of a heredoc's body that refer to things.
const TEMPLATE_BODY_LINES: &[&str] = &[
    "${var.v0}",
    "%{ if var.v0 == \"a\" }yes%{ endif }",
    "%{ if true }\nin a directive\n%{ endif }",
    "%{ for s in [\"}\", \"#\"] }\n${s}\n%{ endfor }",
];

const MARKERS: &[&str] = &["EOT", "EOF", "END_OF_TEXT", "X-1"];

/// A value: its native text (indented for a setting at `indent`) and its JSON text, if it has
/// one.
#[derive(Clone)]
struct Value {
    native: String,
    json: Option<String>,
}

/// What a value may hold.
#[derive(Clone, Copy, PartialEq)]
enum Allowed {
    /// Literal strings only (a variable's default).
    Literals,
    /// Templates and references too.
    Templates,
}

fn quoted(rng: &mut Rng, allowed: Allowed) -> Value {
    let (native, json) = if allowed == Allowed::Templates && rng.chance(40) {
        *rng.pick(TEMPLATES)
    } else {
        *rng.pick(QUOTED)
    };
    Value {
        native: format!("\"{native}\""),
        json: Some(format!("\"{json}\"")),
    }
}

/// A heredoc, ending with its marker (its closing line, or a call's `)` on the next one). Now
/// and then its marker is followed by more text (`EOT)`), which the tools do not read as its
/// end.
fn heredoc(rng: &mut Rng, allowed: Allowed, indent: &str) -> Value {
    let marker = *rng.pick(MARKERS);
    let flush = rng.chance(50);
    let body_indent = if flush {
        format!("{indent}  ")
    } else {
        String::new()
    };
    let mut text = format!("<<{}{marker}\n", if flush { "-" } else { "" });
    for _ in 0..rng.below(5) {
        let line = if allowed == Allowed::Templates && rng.chance(25) {
            *rng.pick(TEMPLATE_BODY_LINES)
        } else {
            *rng.pick(BODY_LINES)
        };
        for line in line.replace("MARKER", marker).split('\n') {
            let _ = writeln!(text, "{body_indent}{line}");
        }
    }
    let closing_indent = if flush { indent } else { "" };
    let native = match rng.below(20) {
        0 => format!("trimspace({text}{closing_indent}{marker})"),
        1..=5 => format!("trimspace({text}{closing_indent}{marker}\n{indent})"),
        _ => format!("{text}{closing_indent}{marker}"),
    };
    Value { native, json: None }
}

/// A string-holding value: a quoted string or a heredoc, alone or in a list or an object (now
/// and then with a key set twice to the same value).
fn value(rng: &mut Rng, allowed: Allowed, indent: &str, depth: usize) -> Value {
    let inner = format!("{indent}  ");
    match rng.below(10) {
        0 if depth < 2 => {
            let items: Vec<Value> = (0..1 + rng.below(3))
                .map(|_| value(rng, allowed, &inner, depth + 1))
                .collect();
            let native: Vec<&str> = items.iter().map(|v| v.native.as_str()).collect();
            let json: Option<Vec<&str>> = items.iter().map(|v| v.json.as_deref()).collect();
            Value {
                native: format!(
                    "[\n{inner}{}\n{indent}]",
                    native.join(&format!(",\n{inner}"))
                ),
                json: json.map(|j| format!("[{}]", j.join(", "))),
            }
        }
        1 if depth < 2 => {
            let mut native = String::from("{\n");
            let mut json = Some(Vec::new());
            let mut keys: Vec<(String, Value)> = (0..1 + rng.below(3))
                .map(|i| (format!("k{i}"), value(rng, allowed, &inner, depth + 1)))
                .collect();
            if rng.chance(50) {
                let again = keys[rng.below(keys.len())].clone();
                keys.push(again);
            }
            for (key, value) in &keys {
                let separator = if rng.chance(30) { "," } else { "" };
                let _ = writeln!(native, "{inner}{key} = {}{separator}", value.native);
                match (&mut json, &value.json) {
                    (Some(items), Some(text)) => items.push(format!("\"{key}\": {text}")),
                    _ => json = None,
                }
            }
            // JSON objects with a key set twice are left to the JSON reader: not generated.
            let unique = (keys.iter().enumerate())
                .all(|(i, (key, _))| !keys[..i].iter().any(|(earlier, _)| earlier == key));
            let _ = write!(native, "{indent}}}");
            Value {
                native,
                json: json
                    .filter(|_| unique)
                    .map(|items| format!("{{{}}}", items.join(", "))),
            }
        }
        2..=5 => heredoc(rng, allowed, indent),
        _ => quoted(rng, allowed),
    }
}

/// A setting of a block: its name and value.
type Setting = (String, Value);

/// A top-level block: `variable "v1"`, `output "o2"` or `locals`.
#[derive(Clone)]
struct TopBlock {
    kind: &'static str,
    label: Option<String>,
    settings: Vec<Setting>,
}

impl TopBlock {
    /// Native text, with blank lines, comments and unused ignore comments here and there.
    fn native(&self, rng: &mut Rng) -> String {
        let mut out = String::new();
        if rng.chance(20) {
            out.push_str("# About this block.\n");
        }
        out.push_str(self.kind);
        if let Some(label) = &self.label {
            let _ = write!(out, " \"{label}\"");
        }
        out.push_str(" {\n");
        for (name, value) in &self.settings {
            if rng.chance(15) {
                out.push('\n');
            }
            if rng.chance(10) {
                out.push_str("  # tflint-merge-ignore: override_shadowed\n");
            }
            let _ = write!(out, "  {name} = {}", value.native);
            // A comment after a quoted value (after a heredoc's marker it would be body text).
            if value.native.ends_with('"') && rng.chance(15) {
                out.push_str(" # note");
            }
            out.push('\n');
        }
        if rng.chance(15) {
            out.push('\n');
        }
        out.push_str("}\n");
        out
    }

    /// JSON member text (`"kind": {...}`), if every value has a JSON form.
    fn json_member(&self) -> Option<String> {
        let members: Option<Vec<String>> = (self.settings.iter())
            .map(|(name, value)| Some(format!("\"{name}\": {}", value.json.as_ref()?)))
            .collect();
        let body = format!("{{\n      {}\n    }}", members?.join(",\n      "));
        Some(match &self.label {
            Some(label) => format!("\"{}\": {{\n    \"{label}\": {body}\n  }}", self.kind),
            None => format!("\"{}\": {body}", self.kind),
        })
    }
}

fn native_file(rng: &mut Rng, blocks: &[TopBlock]) -> String {
    let mut text = String::new();
    for (i, block) in blocks.iter().enumerate() {
        if i > 0 && rng.chance(70) {
            text.push('\n');
        }
        text.push_str(&block.native(rng));
    }
    if rng.chance(10) {
        text = text.replace('\n', "\r\n");
    }
    text
}

/// A JSON file of the blocks, if they all have a JSON form (one block per type: callers give
/// blocks of distinct types and labels).
fn json_file(rng: &mut Rng, blocks: &[TopBlock]) -> Option<String> {
    let mut members: Vec<String> = blocks
        .iter()
        .map(TopBlock::json_member)
        .collect::<Option<_>>()?;
    if rng.chance(20) {
        members.insert(
            0,
            "\"//\": \"tflint-merge-ignore-file: override_shadowed\"".into(),
        );
    }
    Some(format!("{{\n  {}\n}}\n", members.join(",\n  ")))
}

/// The base blocks of a case: `v0` (which templates refer to), a few variables and outputs,
/// and a `locals` block.
fn base_blocks(rng: &mut Rng) -> Vec<TopBlock> {
    let mut blocks = vec![TopBlock {
        kind: "variable",
        label: Some("v0".into()),
        settings: vec![("default".into(), quoted(rng, Allowed::Literals))],
    }];
    for i in 1..1 + rng.below(3) {
        blocks.push(TopBlock {
            kind: "variable",
            label: Some(format!("v{i}")),
            settings: vec![
                ("default".into(), value(rng, Allowed::Literals, "  ", 0)),
                ("description".into(), quoted(rng, Allowed::Literals)),
            ],
        });
    }
    for i in 0..rng.below(3) {
        blocks.push(TopBlock {
            kind: "output",
            label: Some(format!("o{i}")),
            settings: vec![
                ("value".into(), value(rng, Allowed::Templates, "  ", 0)),
                ("description".into(), quoted(rng, Allowed::Literals)),
            ],
        });
    }
    let locals: Vec<Setting> = (0..1 + rng.below(4))
        .map(|i| (format!("l{i}"), value(rng, Allowed::Templates, "  ", 0)))
        .collect();
    blocks.push(TopBlock {
        kind: "locals",
        label: None,
        settings: locals,
    });
    blocks
}

/// An override of `base`: some settings restated as they are, some changed; `None` when it
/// would override nothing.
fn override_of(rng: &mut Rng, base: &TopBlock) -> Option<TopBlock> {
    let allowed = match base.kind {
        "variable" => Allowed::Literals,
        _ => Allowed::Templates,
    };
    let mut settings: Vec<Setting> = Vec::new();
    for (name, value) in &base.settings {
        if !rng.chance(60) {
            continue;
        }
        let value = if rng.chance(70) {
            value.clone()
        } else {
            self::value(rng, allowed, "  ", 0)
        };
        settings.push((name.clone(), value));
    }
    (!settings.is_empty()).then(|| TopBlock {
        settings,
        ..base.clone()
    })
}

/// Writes a case: a base file (native, or JSON when every value has a JSON form) and one to
/// three override files, native or JSON.
fn case(seed: u64) -> Vec<(String, String)> {
    let mut rng = Rng::new(seed);
    let base = base_blocks(&mut rng);
    let mut files = Vec::new();
    let base_text = match rng.chance(25).then(|| json_file(&mut rng, &base)).flatten() {
        Some(json) => ("main.tf.json", json),
        None => ("main.tf", native_file(&mut rng, &base)),
    };
    files.push((base_text.0.to_string(), base_text.1));
    for name in ["a_override", "b_override", "override"] {
        if !rng.chance(60) {
            continue;
        }
        let blocks: Vec<TopBlock> = base
            .iter()
            .filter_map(|b| override_of(&mut rng, b))
            .collect();
        if blocks.is_empty() {
            continue;
        }
        match rng
            .chance(25)
            .then(|| json_file(&mut rng, &blocks))
            .flatten()
        {
            Some(json) => files.push((format!("{name}.tf.json"), json)),
            None => files.push((format!("{name}.tf"), native_file(&mut rng, &blocks))),
        }
    }
    files
}

/// Every string of an expression as the module holds it, the same in both syntaxes: a
/// literal's value; a template's source (a JSON string's value, or a quoted template's text
/// between its quotes, which a safe fix only ever swaps for one written alike); the text of a
/// heredoc template or of an expression kept as text (its value follows from it).
fn strings_of(expr: &Expr, files: &SourceFiles, out: &mut Vec<String>) {
    let text = files.text(expr.span);
    match (&expr.kind, expr.json_string()) {
        (ExprKind::String(value), _) => out.push(format!("{value:?}")),
        (ExprKind::Template, Some(source)) => out.push(format!("template {source:?}")),
        (ExprKind::Template, None) => {
            match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
                Some(source) => out.push(format!("template {source:?}")),
                None => out.push(format!("heredoc {text:?}")),
            }
        }
        (ExprKind::Other, _) => out.push(format!("text {text:?}")),
        (_, Some(value)) => out.push(format!("json {value:?}")),
        // An object's value: the last entry of each key, by key (the tools' objects are maps).
        (ExprKind::Object(items), None) => {
            let mut entries: Vec<(String, Vec<String>)> = Vec::new();
            for item in items {
                let key = match &item.key.kind {
                    ExprKind::Variable(name) | ExprKind::String(name) => format!("{name:?}"),
                    _ => {
                        let mut key = Vec::new();
                        strings_of(&item.key, files, &mut key);
                        format!("({})", key.join(" "))
                    }
                };
                let mut value = Vec::new();
                strings_of(&item.value, files, &mut value);
                entries.retain(|(earlier, _)| *earlier != key);
                entries.push((key, value));
            }
            entries.sort();
            for (key, value) in entries {
                out.push(format!("{key}: {}", value.join(" ")));
            }
        }
        _ => expr.for_each_child(|child| strings_of(child, files, out)),
    }
}

fn attribute_strings(at: &str, attribute: &MergedAttribute, files: &SourceFiles) -> String {
    let mut strings = Vec::new();
    strings_of(&attribute.expr, files, &mut strings);
    format!("{at}.{} = {}", attribute.name, strings.join(" "))
}

fn body_strings(at: &str, body: &MergedBody, files: &SourceFiles, out: &mut Vec<String>) {
    out.extend(
        body.attributes
            .iter()
            .map(|a| attribute_strings(at, a, files)),
    );
    for block in &body.blocks {
        block_strings(&format!("{at}.{}", block.kind), block, files, out);
    }
}

fn block_strings(at: &str, block: &MergedBlock, files: &SourceFiles, out: &mut Vec<String>) {
    body_strings(at, &block.body, files, out);
}

/// Every string value of a view's effective module, with where it is set, in a stable order.
fn module_strings(module: &Module, files: &SourceFiles) -> Vec<String> {
    let mut out = Vec::new();
    for object in &module.objects {
        let at = object.address.to_string();
        body_strings(&at, &object.body, files, &mut out);
        if let Some(default) = &object.default_value {
            out.push(format!("{at} default value {default:?}"));
        }
    }
    for local in &module.locals {
        out.push(attribute_strings("local", &local.attribute, files));
    }
    let terraform = &module.terraform;
    let settings = terraform
        .required_version
        .iter()
        .chain(&terraform.required_providers);
    out.extend(settings.map(|a| attribute_strings("terraform", a, files)));
    body_strings("terraform", &terraform.other, files, &mut out);
    for block in terraform
        .backend
        .iter()
        .chain(&terraform.cloud)
        .chain(&module.unmerged)
    {
        block_strings(&block.kind, block, files, &mut out);
    }
    out.sort();
    out
}

/// The texts of the strings of the files, as the tools' lexers find them, with how many times
/// each is written.
fn written_strings(texts: &Texts) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for (path, text) in texts {
        let Some(text) = text else { continue };
        let syntax = if is_json(path) {
            Syntax::Json
        } else {
            Syntax::Native
        };
        for string in string_literals(syntax, text) {
            *counts.entry(text[string.range].to_string()).or_insert(0) += 1;
        }
    }
    counts
}

/// What a check of a case gives that the property compares.
struct Checked {
    result: DirectoryResult,
    /// Per view built: its string values.
    strings: Vec<Vec<String>>,
    /// Files that do not load (syntax errors, limits of the parser).
    unloadable: Vec<String>,
}

fn check(dir: &Path, texts: &Texts) -> Checked {
    let settings = RuleSettings::defaults(crate::rules::registry());
    let mut options = Options::new(ViewSelection::Both, settings);
    options.overlay = Overlay::with_deletions(texts.clone());
    let result = check_directory(dir, &options);
    let strings = (result.modules.iter())
        .map(|m| module_strings(m, &result.files))
        .collect();
    let mut unloadable: Vec<String> = (result.diagnostics.iter())
        .filter(|d| d.rule == rules::SYNTAX_ERROR.id() || d.rule == rules::PARSE_LIMIT.id())
        .map(|d| d.path.to_string())
        .collect();
    unloadable.sort();
    Checked {
        result,
        strings,
        unloadable,
    }
}

/// How many cases the property runs on.
const CASES: u64 = 3000;

/// Safe fixes, applied pass after pass as `--fix` does, change no string value of either
/// view's effective module, leave every file loading that loaded, and remove strings only
/// whole: every string the fixed files hold, as the tools' lexers find them, was in the
/// original files.
#[test]
fn safe_fixes_change_no_string_value_of_generated_modules() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut fixed_cases = 0;
    let mut fixes_applied = 0;
    for seed in 0..CASES {
        let files = case(seed);
        let original: Texts = (files.iter())
            .map(|(name, text)| (dir.path().join(name), Some(text.clone())))
            .collect();
        let listing = || {
            (files.iter())
                .map(|(name, text)| format!("--- {name}\n{text}"))
                .collect::<String>()
        };
        let before = check(dir.path(), &original);
        let mut texts = original.clone();
        let mut checked = before;
        for _pass in 0..3 {
            let safe: Vec<&Fix> = (checked.result.diagnostics.iter())
                .filter(|d| d.fixable(false))
                .filter_map(|d| d.fix.as_deref())
                .collect();
            if safe.is_empty() {
                break;
            }
            let mut fixed = texts.clone();
            let outcome = fix::apply(&mut fixed, &safe);
            assert!(
                outcome.invalid.is_empty(),
                "case {seed}: {:?}",
                outcome.invalid
            );
            fixes_applied += outcome.applied.len();
            let after = check(dir.path(), &fixed);
            let shown = |texts: &Texts| {
                (texts.iter())
                    .map(|(p, t)| {
                        format!("--- {}\n{}", p.display(), t.as_deref().unwrap_or("(gone)"))
                    })
                    .collect::<String>()
            };
            assert_eq!(
                after.strings,
                checked.strings,
                "case {seed}: a safe fix changed a string value\n{}\n=== fixed\n{}",
                listing(),
                shown(&fixed),
            );
            assert!(
                after
                    .unloadable
                    .iter()
                    .all(|path| checked.unloadable.contains(path)),
                "case {seed}: a fixed file does not load: {:?}\n{}\n=== fixed\n{}",
                after.unloadable,
                listing(),
                shown(&fixed),
            );
            let mut written = written_strings(&original);
            for (string, count) in written_strings(&fixed) {
                let left = written.entry(string.clone()).or_insert(0);
                assert!(
                    *left >= count,
                    "case {seed}: the fixed files hold a string the original did not: \
                     {string:?}\n{}\n=== fixed\n{}",
                    listing(),
                    shown(&fixed),
                );
                *left -= count;
            }
            texts = fixed;
            checked = after;
        }
        if texts != original {
            fixed_cases += 1;
        }
    }
    eprintln!("{fixed_cases} of {CASES} cases changed by {fixes_applied} safe fixes");
    assert!(
        fixed_cases >= CASES / 3,
        "only {fixed_cases} of {CASES} cases had safe fixes"
    );
}
