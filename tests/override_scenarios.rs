//! Acceptance for `tflint-merge merged DIR --view terraform --format hcl`: for every
//! conformance case and for randomly generated override scenarios (blocks of every kind, native
//! and JSON, several override files), the printed module is one file that loads (re-checked
//! with our own loader: no error) and whose values equal those of the original directory
//! (`semantic_form`). A scenario whose original directory has a load error is not compared.
//! The real Terraform binary is not run here.
//!
//! The generator is deterministic (a fixed seed per scenario), so a failure names the scenario
//! and reruns the same way.

use std::fmt::Write as _;
use std::path::Path;

use tflint_merge::effective::{PrintFormat, print, semantic_form};
use tflint_merge::{Kind, ViewSelection, check_directory, find_id};

#[path = "common/patch.rs"]
mod patch;

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

/// A value, written in both syntaxes.
#[derive(Clone, Copy)]
struct Value {
    native: &'static str,
    json: &'static str,
}

const fn v(native: &'static str, json: &'static str) -> Value {
    Value { native, json }
}

/// Values an argument of a resource, data source, module or provider can take.
const VALUES: &[Value] = &[
    v("\"a\"", "\"a\""),
    v("\"b-${var.v0}\"", "\"b-${var.v0}\""),
    v("var.v0", "\"${var.v0}\""),
    v("1", "1"),
    v("true", "true"),
    v("[\"x\", \"y\"]", "[\"x\", \"y\"]"),
    v("{ k = \"v\" }", "{\"k\": \"v\"}"),
    v("upper(\"q\")", r#""${upper(\"q\")}""#),
];

/// A variable's type and a default that is valid for it, in both syntaxes.
const TYPED_DEFAULTS: &[(&str, Value)] = &[
    ("string", v("\"s\"", "\"s\"")),
    ("string", v("1", "1")),
    ("string", v("true", "true")),
    ("number", v("2", "2")),
    ("number", v("\"3\"", "\"3\"")),
    ("bool", v("false", "false")),
    ("bool", v("\"true\"", "\"true\"")),
    ("list(string)", v("[\"a\", 1]", "[\"a\", 1]")),
    (
        "set(string)",
        v("[\"b\", \"a\", \"b\"]", "[\"b\", \"a\", \"b\"]"),
    ),
    ("map(string)", v("{ a = 1 }", "{\"a\": 1}")),
    (
        "object({ a = string, b = optional(string, \"d\") })",
        v("{ a = \"x\" }", "{\"a\": \"x\"}"),
    ),
];

/// One block written natively and as JSON (`json` is the value under its labels).
struct Block {
    kind: &'static str,
    labels: Vec<String>,
    /// Attributes, then nested blocks (native text, JSON text).
    attributes: Vec<(String, Value)>,
    nested: Vec<(String, String)>,
}

impl Block {
    fn native(&self) -> String {
        let mut out = self.kind.to_string();
        for label in &self.labels {
            let _ = write!(out, " \"{label}\"");
        }
        out.push_str(" {\n");
        for (name, value) in &self.attributes {
            let _ = writeln!(out, "  {name} = {}", value.native);
        }
        for (native, _) in &self.nested {
            let _ = writeln!(out, "  {native}");
        }
        out.push_str("}\n");
        out
    }

    /// `{"kind": {"label": {...}}}` as one top-level JSON member (`"kind": ...`).
    fn json_member(&self) -> String {
        let mut members: Vec<String> = self
            .attributes
            .iter()
            .map(|(name, value)| format!("\"{name}\": {}", value.json))
            .collect();
        members.extend(self.nested.iter().map(|(_, json)| json.clone()));
        let mut body = format!("{{{}}}", members.join(", "));
        for label in self.labels.iter().rev() {
            body = format!("{{\"{label}\": {body}}}");
        }
        format!("\"{}\": {body}", self.kind)
    }
}

fn json_file(blocks: &[Block]) -> String {
    // One member per block type: blocks of one type go into one object (or an array of them).
    let mut by_kind: Vec<(&str, Vec<String>)> = Vec::new();
    for block in blocks {
        let member = block.json_member();
        let value = member
            .split_once(": ")
            .map(|(_, v)| v.to_string())
            .unwrap_or_default();
        match by_kind.iter_mut().find(|(k, _)| *k == block.kind) {
            Some((_, values)) => values.push(value),
            None => by_kind.push((block.kind, vec![value])),
        }
    }
    let members: Vec<String> = by_kind
        .into_iter()
        .map(|(kind, values)| {
            if values.len() == 1 {
                format!("\"{kind}\": {}", values[0])
            } else {
                format!("\"{kind}\": [{}]", values.join(", "))
            }
        })
        .collect();
    format!("{{{}}}\n", members.join(",\n "))
}

fn attribute(rng: &mut Rng, names: &[&str]) -> (String, Value) {
    (rng.pick(names).to_string(), *rng.pick(VALUES))
}

const RESOURCE_ARGS: &[&str] = &["ami", "tags", "name", "size"];

/// A nested block of a resource, natively and in JSON (as a member of the body object).
fn nested_block(rng: &mut Rng, in_override: bool) -> (String, String) {
    match rng.below(5) {
        0 => (
            "lifecycle {\n    create_before_destroy = true\n  }".into(),
            "\"lifecycle\": {\"create_before_destroy\": true}".into(),
        ),
        1 if !in_override || rng.chance(50) => (
            "lifecycle {\n    ignore_changes = [tags, ami]\n  }".into(),
            "\"lifecycle\": {\"ignore_changes\": [\"tags\", \"ami\"]}".into(),
        ),
        2 => (
            "provisioner \"local-exec\" {\n    command    = \"echo ${self.id}\"\n    \
             when       = destroy\n    on_failure = continue\n  }"
                .into(),
            "\"provisioner\": [{\"local-exec\": {\"command\": \"echo ${self.id}\", \
             \"when\": \"destroy\", \"on_failure\": \"continue\"}}]"
                .into(),
        ),
        3 => (
            "ebs_block_device {\n    device_name = \"/dev/sdb\"\n  }".into(),
            "\"ebs_block_device\": {\"device_name\": \"/dev/sdb\"}".into(),
        ),
        _ => (
            "dynamic \"ebs_block_device\" {\n    for_each = var.v1\n    iterator = d\n    \
             content {\n      device_name = d.value\n    }\n  }"
                .into(),
            "\"dynamic\": {\"ebs_block_device\": {\"for_each\": \"${var.v1}\", \
             \"iterator\": \"d\", \"content\": {\"device_name\": \"${d.value}\"}}}"
                .into(),
        ),
    }
}

/// The base blocks of a scenario, and the pool its overrides are drawn from.
fn base_blocks(rng: &mut Rng) -> Vec<Block> {
    let mut blocks = vec![
        // Referenced by values and dynamic blocks.
        Block {
            kind: "variable",
            labels: vec!["v0".into()],
            attributes: vec![("default".into(), v("\"d\"", "\"d\""))],
            nested: vec![],
        },
        Block {
            kind: "variable",
            labels: vec!["v1".into()],
            attributes: vec![("default".into(), v("[]", "[]"))],
            nested: vec![],
        },
    ];
    for i in 0..1 + rng.below(3) {
        let mut attributes = vec![attribute(rng, RESOURCE_ARGS)];
        match rng.below(4) {
            0 => attributes.push(("count".into(), v("2", "2"))),
            1 => attributes.push((
                "for_each".into(),
                v("toset([\"a\"])", r#""${toset([\"a\"])}""#),
            )),
            2 => attributes.push(("provider".into(), v("aws.east", "\"aws.east\""))),
            _ => attributes.push((
                "depends_on".into(),
                v("[aws_instance.r0]", "[\"aws_instance.r0\"]"),
            )),
        }
        if i == 0 {
            attributes.retain(|(name, _)| name != "depends_on");
        }
        let nested = (0..rng.below(3))
            .map(|_| nested_block(rng, false))
            .collect();
        let kind = if rng.chance(20) { "data" } else { "resource" };
        let nested = if kind == "data" { Vec::new() } else { nested };
        blocks.push(Block {
            kind,
            labels: vec!["aws_instance".into(), format!("r{i}")],
            attributes,
            nested,
        });
    }
    let (ty, default) = *rng.pick(TYPED_DEFAULTS);
    blocks.push(Block {
        kind: "variable",
        labels: vec!["typed".into()],
        attributes: vec![("type".into(), type_value(ty)), ("default".into(), default)],
        nested: vec![],
    });
    blocks.push(Block {
        kind: "output",
        labels: vec!["o".into()],
        attributes: vec![
            ("value".into(), *rng.pick(VALUES)),
            ("description".into(), v("\"out\"", "\"out\"")),
        ],
        nested: vec![],
    });
    blocks.push(Block {
        kind: "module",
        labels: vec!["m".into()],
        attributes: vec![
            (
                "source".into(),
                v("\"hashicorp/consul/aws\"", "\"hashicorp/consul/aws\""),
            ),
            ("version".into(), v("\"0.1.0\"", "\"0.1.0\"")),
            attribute(rng, &["cidr", "name"]),
        ],
        nested: vec![],
    });
    blocks.push(Block {
        kind: "provider",
        labels: vec!["aws".into()],
        attributes: vec![
            ("alias".into(), v("\"east\"", "\"east\"")),
            attribute(rng, &["region"]),
        ],
        nested: vec![],
    });
    blocks.push(Block {
        kind: "terraform",
        labels: vec![],
        attributes: vec![("required_version".into(), v("\">= 1.5\"", "\">= 1.5\""))],
        nested: vec![(
            "required_providers {\n    aws = {\n      source = \"hashicorp/aws\"\n      \
             configuration_aliases = [aws.west]\n    }\n  }"
                .into(),
            "\"required_providers\": {\"aws\": {\"source\": \"hashicorp/aws\", \
             \"configuration_aliases\": [\"aws.west\"]}}"
                .into(),
        )],
    });
    // Blocks that are not merged: printed as written.
    blocks.push(Block {
        kind: "moved",
        labels: vec![],
        attributes: vec![
            ("from".into(), v("aws_instance.old", "\"aws_instance.old\"")),
            ("to".into(), v("aws_instance.r0", "\"aws_instance.r0\"")),
        ],
        nested: vec![],
    });
    if rng.chance(50) {
        blocks.push(Block {
            kind: "import",
            labels: vec![],
            attributes: vec![
                ("to".into(), v("aws_instance.r9", "\"aws_instance.r9\"")),
                ("id".into(), v("\"i-${var.v0}\"", "\"i-${var.v0}\"")),
            ],
            nested: vec![],
        });
    }
    blocks.push(Block {
        kind: "check",
        labels: vec!["c".into()],
        attributes: vec![],
        nested: vec![(
            "assert {\n    condition     = var.v0 != \"\"\n    error_message = \"empty\"\n  }"
                .into(),
            "\"assert\": {\"condition\": \"${var.v0 != \\\"\\\"}\", \"error_message\": \"empty\"}"
                .into(),
        )],
    });
    blocks.push(Block {
        kind: "locals",
        labels: vec![],
        attributes: vec![("l0".into(), *rng.pick(VALUES))],
        nested: vec![],
    });
    blocks
}

fn type_value(ty: &'static str) -> Value {
    // The JSON form of a type is its text in a string; no quotes occur in these types except
    // in optional() defaults, which JSON escapes.
    let json: &'static str = Box::leak(format!("\"{}\"", ty.replace('"', "\\\"")).into_boxed_str());
    v(ty, json)
}

/// An override of one base block: some of its arguments changed or added.
fn override_of(rng: &mut Rng, base: &Block) -> Option<Block> {
    let mut attributes = Vec::new();
    let mut nested = Vec::new();
    match base.kind {
        "resource" | "data" => {
            for _ in 0..1 + rng.below(2) {
                attributes.push(attribute(rng, RESOURCE_ARGS));
            }
            match rng.below(6) {
                0 => attributes.push(("count".into(), v("1", "1"))),
                1 => attributes.push((
                    "for_each".into(),
                    v("toset([\"b\"])", r#""${toset([\"b\"])}""#),
                )),
                2 => attributes.push(("provider".into(), v("aws.east", "\"aws.east\""))),
                _ => {}
            }
            if base.kind == "resource" && rng.chance(50) {
                nested.push(nested_block(rng, true));
            }
        }
        "variable" if base.labels[0] == "typed" => {
            let (ty, default) = *rng.pick(TYPED_DEFAULTS);
            match rng.below(3) {
                0 => attributes.push(("type".into(), type_value(ty))),
                1 => attributes.push(("default".into(), default)),
                _ => {
                    attributes.push(("type".into(), type_value(ty)));
                    attributes.push(("default".into(), default));
                }
            }
        }
        "variable" => attributes.push(("description".into(), v("\"doc\"", "\"doc\""))),
        "output" => attributes.push(("value".into(), *rng.pick(VALUES))),
        "module" => {
            attributes.push(attribute(rng, &["cidr", "name"]));
            if rng.chance(30) {
                attributes.push((
                    "providers".into(),
                    v("{ aws = aws.east }", "{\"aws\": \"aws.east\"}"),
                ));
            }
        }
        "provider" => attributes.push(attribute(rng, &["region", "profile"])),
        "locals" => attributes.push(("l0".into(), *rng.pick(VALUES))),
        "terraform" => attributes.push(("required_version".into(), v("\">= 1.6\"", "\">= 1.6\""))),
        _ => return None,
    }
    Some(Block {
        kind: base.kind,
        labels: base.labels.clone(),
        attributes,
        nested,
    })
}

/// Writes scenario `seed` into `dir`: a base file and one to three override files.
fn write_scenario(seed: u64, dir: &Path) -> String {
    let mut rng = Rng::new(seed);
    let base = base_blocks(&mut rng);
    let mut written = Vec::new();
    let base_json = rng.chance(30);
    let (name, text) = if base_json {
        ("main.tf.json", json_file(&base))
    } else {
        (
            "main.tf",
            base.iter()
                .map(Block::native)
                .collect::<Vec<_>>()
                .join("\n"),
        )
    };
    written.push((name.to_string(), text));
    for file in 0..1 + rng.below(3) {
        let mut overrides = Vec::new();
        for block in &base {
            if rng.chance(40) {
                overrides.extend(override_of(&mut rng, block));
            }
        }
        if overrides.is_empty() {
            continue;
        }
        let (name, text) = if rng.chance(50) {
            (format!("o{file}_override.tf.json"), json_file(&overrides))
        } else {
            let native: Vec<String> = overrides.iter().map(Block::native).collect();
            (format!("o{file}_override.tf"), native.join("\n"))
        };
        written.push((name, text));
    }
    let mut listing = String::new();
    for (name, text) in &written {
        std::fs::write(dir.join(name), text).expect("write scenario file");
        let _ = write!(listing, "--- {name}\n{text}\n");
    }
    listing
}

/// The load errors of a directory: what stops the tools loading it.
fn errors(report: &tflint_merge::DirectoryReport) -> Vec<String> {
    let is_load_error = |id: &str| find_id(id).is_some_and(|meta| meta.kind == Kind::LoadError);
    report
        .diagnostics
        .iter()
        .filter(|d| is_load_error(d.rule.as_str()))
        .map(|d| format!("{}: {} ({}:{:?})", d.rule, d.message, d.path, d.start()))
        .collect()
}

/// Lines where the printed module quotes a keyword or a reference that native syntax writes
/// bare: Terraform warns "Quoted keywords are deprecated" (or "Quoted references are
/// deprecated", "Quoted type constraints are deprecated") on them, or rejects them.
fn quoted_keywords(printed: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_variable = false;
    for line in printed.lines() {
        if !line.starts_with(' ') && line.ends_with('{') {
            in_variable = line.starts_with("variable ");
        }
        let Some((name, value)) = line.trim().split_once(" = ") else {
            continue;
        };
        let name = name.trim();
        let keyword = matches!(name, "when" | "on_failure" | "iterator" | "provider")
            || (name == "type" && in_variable);
        let references = matches!(
            name,
            "depends_on" | "ignore_changes" | "configuration_aliases" | "replace_triggered_by"
        );
        let providers_map = name == "providers" && value.contains("= \"");
        if (keyword && value.starts_with('"'))
            || (references && value.starts_with("[\""))
            || providers_map
            || value.contains("configuration_aliases = [\"")
        {
            found.push(line.trim().to_string());
        }
    }
    found
}

/// Checks one directory; None when the original does not load (nothing to compare), else the
/// failure, if any.
fn check(dir: &Path) -> Option<Result<(), String>> {
    let first = check_directory(dir, ViewSelection::Terraform, &[]).expect("no rules to enable");
    if !errors(&first).is_empty() {
        return None;
    }
    let module = first.modules.first()?;
    let printed = print(module, &first.files, PrintFormat::Hcl);
    let scratch = tempfile::tempdir().expect("tempdir");
    std::fs::write(scratch.path().join("merged.tf"), &printed).expect("write");
    let second = check_directory(scratch.path(), ViewSelection::Terraform, &[]).expect("no rules");
    let found = errors(&second);
    if !found.is_empty() {
        return Some(Err(format!(
            "printed module has errors {found:?}\n{printed}"
        )));
    }
    let quoted = quoted_keywords(&printed);
    if !quoted.is_empty() {
        return Some(Err(format!("quoted keywords {quoted:?}\n{printed}")));
    }
    let Some(again) = second.modules.first() else {
        return Some(Err(format!("printed module does not load\n{printed}")));
    };
    let (want, got) = (
        semantic_form(module, &first.files),
        semantic_form(again, &second.files),
    );
    if want != got {
        return Some(Err(format!(
            "values differ\n--- printed\n{printed}\n--- original\n{}\n--- printed, loaded\n{}",
            serde_json::to_string_pretty(&want).unwrap_or_default(),
            serde_json::to_string_pretty(&got).unwrap_or_default()
        )));
    }
    Some(Ok(()))
}

#[test]
fn conformance_cases_print_as_one_loading_file_with_the_same_values() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let mut cases: Vec<_> = std::fs::read_dir(&root)
        .expect("conformance cases")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    let mut failures = Vec::new();
    let mut loaded = 0;
    for case in &cases {
        match check(case) {
            Some(Ok(())) => loaded += 1,
            Some(Err(failure)) => failures.push(format!("{}: {failure}", case.display())),
            None => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    eprintln!(
        "{loaded} of {} conformance cases load and were compared",
        cases.len()
    );
    assert!(loaded >= 10, "only {loaded} of {} cases load", cases.len());
}

#[test]
fn generated_scenarios_print_as_one_loading_file_with_the_same_values() {
    const SCENARIOS: u64 = 300;
    let mut failures = Vec::new();
    let mut loaded = 0;
    for seed in 0..SCENARIOS {
        let dir = tempfile::tempdir().expect("tempdir");
        let listing = write_scenario(seed, dir.path());
        match check(dir.path()) {
            Some(Ok(())) => loaded += 1,
            Some(Err(failure)) => {
                failures.push(format!("scenario {seed}:\n{listing}\n{failure}"));
            }
            None => {}
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {SCENARIOS} scenarios fail:\n{}",
        failures.len(),
        failures
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
    eprintln!("{loaded} of {SCENARIOS} generated scenarios load and were compared");
    // Conflicting overrides (a default the new type rejects, depends_on) are errors of the
    // original and skipped; most scenarios must load.
    assert!(
        loaded >= SCENARIOS / 2,
        "only {loaded} of {SCENARIOS} scenarios load"
    );
}

/// What `tflint-merge merged --format hcl` prints for each view of `dir`, without its comment
/// lines (they name the files a block came from, which a fix that deletes an override changes)
/// and with each run of one-line arguments in name order: an override setting removed because
/// a later one replaces it no longer adds the argument first, and the tools do not read the
/// order of arguments. `None` when a view does not build.
fn printed_views(dir: &Path) -> Option<Vec<String>> {
    let report = check_directory(dir, ViewSelection::Both, &[]).expect("no rules to enable");
    if report.modules.len() != 2 {
        return None;
    }
    let without_comments = |text: String| -> String {
        let mut out: Vec<String> = Vec::new();
        let mut run: Vec<String> = Vec::new();
        let one_line_argument = |l: &str| {
            l.contains(" = ") && !l.trim_end().ends_with(['{', '[', '(']) && !l.contains("<<")
        };
        for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
            if one_line_argument(line) {
                // Alignment depends on the names, not their order: compare without it.
                run.push(line.split_whitespace().collect::<Vec<_>>().join(" "));
                continue;
            }
            run.sort();
            out.append(&mut run);
            out.push(line.to_string());
        }
        run.sort();
        out.append(&mut run);
        out.join("\n")
    };
    let printed = report
        .modules
        .iter()
        .map(|m| print(m, &report.files, PrintFormat::Hcl));
    Some(printed.map(without_comments).collect())
}

/// Every file of `dir` with its bytes.
fn snapshot_dir(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("list")
        .flatten()
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).expect("read"))
        })
        .collect();
    files.sort();
    files
}

/// `--fix` in `dir`; the number of findings it says it fixed.
fn fix(dir: &Path) -> usize {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .args(["--fix", "--exit-zero", "."])
        .current_dir(dir)
        .output()
        .expect("run tflint-merge --fix");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("warning:"), "{stderr}");
    let count = stderr.lines().find_map(|l| l.strip_prefix("fixed "));
    let count = count.and_then(|rest| rest.split(' ').next()?.parse().ok());
    count.expect("`fixed N findings` on stderr")
}

/// Safe fixes keep the effective module: in each generated scenario, with an override file
/// that restates the base added to half of them (so that `override_noop` and
/// `override_shadowed` have much to fix), `--fix` leaves what `merged` prints for both views
/// as it was, and a second `--fix` changes no byte.
#[test]
fn safe_fixes_keep_the_effective_module_of_generated_scenarios() {
    const SCENARIOS: u64 = 200;
    let mut fixed_scenarios = 0;
    for seed in 0..SCENARIOS {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut listing = write_scenario(seed, dir.path());
        if seed % 2 == 0 {
            // The base blocks again (the generator is deterministic), those an override may
            // hold, restated in a last override file: in the syntax of the base half the time.
            let base = base_blocks(&mut Rng::new(seed));
            let mergeable: Vec<Block> = (base.into_iter())
                .filter(|b| !matches!(b.kind, "moved" | "import" | "removed" | "check"))
                .collect();
            let (name, text) = if seed % 4 == 0 {
                ("zz_override.tf.json", json_file(&mergeable))
            } else {
                let native: Vec<String> = mergeable.iter().map(Block::native).collect();
                ("zz_override.tf", native.join("\n"))
            };
            std::fs::write(dir.path().join(name), &text).expect("write");
            let _ = write!(listing, "--- {name}\n{text}\n");
        }
        let report = check_directory(dir.path(), ViewSelection::Both, &[]).expect("no rules");
        if !errors(&report).is_empty() {
            continue;
        }
        let Some(before) = printed_views(dir.path()) else {
            continue;
        };
        if fix(dir.path()) > 0 {
            fixed_scenarios += 1;
        }
        let after = printed_views(dir.path());
        assert_eq!(
            after.as_ref(),
            Some(&before),
            "scenario {seed}: --fix changed the module\n{listing}\n--- fixed\n{:#?}",
            snapshot_dir(dir.path())
                .into_iter()
                .map(|(n, b)| (n, String::from_utf8_lossy(&b).into_owned()))
                .collect::<Vec<_>>()
        );
        let once = snapshot_dir(dir.path());
        assert_eq!(
            fix(dir.path()),
            0,
            "scenario {seed}: a second --fix fixed more"
        );
        assert_eq!(
            snapshot_dir(dir.path()),
            once,
            "scenario {seed}: a second --fix changed files"
        );
    }
    eprintln!("{fixed_scenarios} of {SCENARIOS} generated scenarios had safe fixes");
    assert!(
        fixed_scenarios >= SCENARIOS / 4,
        "only {fixed_scenarios} of {SCENARIOS} scenarios had something to fix"
    );
}

/// `--diff`, applied with `patch -p1`, gives what `--fix` writes, unsafe fixes too, in the
/// generated scenarios (with the restating override file of half of them).
#[test]
fn diff_through_patch_is_fix_in_generated_scenarios() {
    use std::process::Command;
    if !patch::available() {
        return;
    }
    const SCENARIOS: u64 = 60;
    let binary = env!("CARGO_BIN_EXE_tflint-merge");
    for seed in 0..SCENARIOS {
        for flags in [&["--exit-zero"][..], &["--exit-zero", "--unsafe-fixes"]] {
            let (fixed, patched) = (
                tempfile::tempdir().expect("tmp"),
                tempfile::tempdir().expect("tmp"),
            );
            for dir in [fixed.path(), patched.path()] {
                write_scenario(seed, dir);
                if seed % 2 == 0 {
                    let text = std::fs::read_to_string(dir.join("main.tf")).unwrap_or_default();
                    std::fs::write(dir.join("zz_override.tf"), text).expect("write");
                }
            }
            let run = |dir: &Path, first: &str| {
                Command::new(binary)
                    .arg(first)
                    .args(flags)
                    .arg(".")
                    .current_dir(dir)
                    .output()
                    .expect("run tflint-merge")
            };
            let diff = run(patched.path(), "--diff");
            let text = String::from_utf8_lossy(&diff.stdout);
            let applied = patch::apply(patched.path(), &diff.stdout);
            assert!(applied, "scenario {seed}:\n{text}");
            run(fixed.path(), "--fix");
            assert_eq!(
                snapshot_dir(patched.path()),
                snapshot_dir(fixed.path()),
                "scenario {seed} {flags:?}:\n{text}"
            );
        }
    }
}
