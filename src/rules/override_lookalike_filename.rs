//! A file whose name looks like an override file but is not one (`providers-override.tf`,
//! `overrides.tf`, `override_main.tf`, `main.override.tf`, `Override.tf`). The tools match
//! `override` and `_override` exactly, so they load it as a primary file: its blocks are
//! appended, and each one that repeats a block of another file is a duplicate definition, or,
//! when the base was renamed, silently a second copy. An override file saved with a `.txt`
//! extension (`main_override.tf.txt`) is not loaded at all.
//!
//! The fix renames the file to the override name, but only when the tools still load the module
//! afterwards: an override file may hold only blocks that a primary file defines (hashicorp/
//! terraform `internal/configs/module.go`, `mergeFile`: "Missing base output definition to
//! override" and the like), so a file with a block of its own is renamed only when the rename
//! also cures a duplicate definition, which is an error already.

use std::collections::HashSet;

use crate::diagnostic::fix::FileOperation;
use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::knowledge::View;
use crate::knowledge::files::{ConfigName, Extension, classify, override_lookalike};
use crate::source::{FileId, Span};
use crate::syntax::Block;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "override_lookalike_filename",
    severity: Warning,
    default: On,
    summary: "a file whose name looks like an override file but is not one",
    fix: Unsafe,
    check: Check::View(RuleViews::Both, check),
};

const NOTE: &str = "Only `override.tf` and names ending in `_override.tf` (with `.tf.json`, and \
                    `.tofu` and `.tofu.json` for OpenTofu) are override files, merged into the \
                    blocks they name. Any other name is a primary file: its blocks are appended \
                    to the module, so a block that repeats one from another file is a duplicate \
                    definition, not a change.";

const AS_PRIMARY: &str = "if it is meant as a primary file, give it a name that does not look \
                          like an override";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for name in ctx.text_override_copies {
        let real = name.strip_suffix(".txt").unwrap_or(name);
        // Terraform reads no `.tofu` file, renamed or not: the copy is OpenTofu's concern.
        let tofu = classify(real).is_some_and(|c| c.extension.is_tofu());
        if !(tofu && ctx.view == View::Terraform) {
            out.push(not_loaded(ctx, name, real));
        }
    }
    for loaded in ctx.primary {
        let name = ctx.files.get(loaded.file.id).file_name();
        let Some(config) = classify(name) else {
            continue;
        };
        if let Some(real) = override_lookalike(config.stem()) {
            let real = format!("{real}{}", config.extension.as_str());
            out.push(lookalike(ctx, loaded, name, &real));
        }
    }
}

/// `` `main_override.tf.txt` is not loaded: its name ends in `.txt` ``
fn not_loaded(ctx: &Context, name: &str, real: &str) -> Diagnostic {
    let path = ctx.dir.join(name);
    let finding = ctx
        .finding(
            &RULE,
            format!("`{name}` is not loaded: its name ends in `.txt`"),
        )
        .at_path(crate::source::display_path(&path))
        .with_note(
            "Terraform and OpenTofu read only `.tf`, `.tf.json`, `.tofu` and `.tofu.json` files: \
             the overrides in this file are not applied.",
        );
    let kept = "if it is kept on purpose, move it out of the module";
    let Some(blocks) = parse_copy(ctx, &path, real) else {
        return finding.with_help(format!(
            "to override, make it a file the tools can parse and rename it `{real}`; {kept}"
        ));
    };
    let judged = judge_rename(ctx, &blocks, real, None);
    finding
        .with_help(judged.help(real, kept))
        .with_fix(judged.renames().then(|| rename(ctx, &path, real)).flatten())
}

/// The blocks of an override file saved as `.txt`, parsed as the file it would be renamed to;
/// `None` when it cannot be read or parsed.
fn parse_copy(ctx: &Context, path: &std::path::Path, real: &str) -> Option<Vec<Block>> {
    let syntax = classify(real)?.extension.syntax();
    let text = match ctx.overlay.file(path) {
        Some(text) => text?.to_string(),
        None => {
            let max = crate::input::read::DEFAULT_MAX_FILE_BYTES;
            crate::input::read::current_text(path, max).ok()?
        }
    };
    // The file is no file of the directory's model: its spans name none.
    let parsed = crate::syntax::parse(FileId(u32::MAX), syntax, &text);
    Some(parsed.file.ok()?.body.blocks)
}

/// Renames `path` to `real` in its directory, unless a file of that name exists.
fn rename(ctx: &Context, path: &std::path::Path, real: &str) -> Option<Fix> {
    let to = path.with_file_name(real);
    if ctx.overlay.exists(&ctx.dir.join(real)) {
        return None;
    }
    let title = format!("Rename the file to `{real}`");
    let operation = FileOperation::Rename {
        from: path.to_path_buf(),
        to,
    };
    Some(Fix::new(title, Applicability::Unsafe).operation(operation))
}

/// `` `main-override.tf` is loaded as a primary file, not as an override ``
fn lookalike(
    ctx: &Context,
    loaded: &crate::module::merge::LoadedFile,
    name: &str,
    real: &str,
) -> Diagnostic {
    let message = format!("`{name}` is loaded as a primary file, not as an override");
    let blocks = &loaded.file.body.blocks;
    // The first block is what the name promises to override; an empty file is shown at its start.
    let (at, label) = match blocks.first() {
        Some(block) => (block.header_span, "appended to the module, not merged"),
        None => (Span::new(loaded.file.id, 0..0), "a primary file"),
    };
    let judged = judge_rename(ctx, blocks, real, Some(loaded.file.id));
    let path = &ctx.files.get(loaded.file.id).path;
    ctx.finding(&RULE, message)
        .at(ctx.files, at, label)
        .with_note(NOTE)
        .with_help(judged.help(real, AS_PRIMARY))
        .with_fix(judged.renames().then(|| rename(ctx, path, real)).flatten())
}

/// What renaming a file to an override name does to its blocks, in every view that would load
/// the renamed file.
struct Judged {
    /// The blocks (and local values) that, in an override file, would make the tools refuse the
    /// module: each described (`` `output "region"` ``) with why.
    refused: Vec<(String, &'static str)>,
    /// Whether a block repeats one of a primary file: a duplicate definition now, which the
    /// rename cures by merging it.
    cures_duplicate: bool,
}

const OVERRIDES_NOTHING: &str = "overrides nothing (no primary file defines it)";
const NOT_OVERRIDABLE: &str = "cannot be in an override file";

impl Judged {
    /// Whether the rename is offered: when the module loads afterwards, or when it does not
    /// load now (a duplicate definition the rename cures).
    fn renames(&self) -> bool {
        self.refused.is_empty() || self.cures_duplicate
    }

    /// The help: how to override, and what stands in the way of the rename.
    fn help(&self, real: &str, otherwise: &str) -> String {
        let Some((what, why)) = self.refused.first() else {
            return format!("to override, rename it `{real}`; {otherwise}");
        };
        let more = match self.refused.len() {
            1 => String::new(),
            2 => " (and 1 more block)".to_string(),
            n => format!(" (and {} more blocks)", n - 1),
        };
        if self.cures_duplicate {
            format!(
                "to override, rename it `{real}` and move {what}{more} to a primary file, as in \
                 an override file it {why}; {otherwise}"
            )
        } else {
            format!(
                "renaming it `{real}` would make the module fail to load, as {what}{more} {why}; \
                 {otherwise}"
            )
        }
    }
}

/// Judges renaming the file `renamed` (holding `blocks`; `own` when it is a file of the view)
/// to the override name `real`. An override block needs its base in a primary file that every
/// tool loading the renamed file loads too: for a `.tf` file, a `.tf` file that no `.tofu` twin
/// hides from OpenTofu, so that every view of the directory judges alike.
fn judge_rename(ctx: &Context, blocks: &[Block], real: &str, own: Option<FileId>) -> Judged {
    let renamed_is_tofu = classify(real).is_some_and(|c| c.extension.is_tofu());
    let mut bases = Bases::default();
    for loaded in ctx.primary.iter().filter(|f| Some(f.file.id) != own) {
        let name = ctx.files.get(loaded.file.id).file_name();
        let both_tools_load =
            classify(name).is_some_and(|c| !c.extension.is_tofu() && !hidden(ctx, &c));
        if renamed_is_tofu || both_tools_load {
            bases.add(&loaded.file.body.blocks);
        }
    }
    let mut judged = Judged {
        refused: Vec::new(),
        cures_duplicate: false,
    };
    for block in blocks {
        match block.kind.as_str() {
            // Merged whatever the primary files hold.
            "terraform" => {}
            "locals" => {
                for attribute in &block.body.attributes {
                    if bases.locals.contains(&attribute.name) {
                        judged.cures_duplicate = true;
                    } else {
                        let what = format!("local value `{}`", attribute.name);
                        judged.refused.push((what, OVERRIDES_NOTHING));
                    }
                }
            }
            "resource" | "data" | "ephemeral" | "action" | "variable" | "output" | "module"
            | "provider" => {
                let key = object_key(block);
                if bases.objects.contains(&key) {
                    judged.cures_duplicate = true;
                } else if !(block.kind == "provider" && key.alias.is_none()) {
                    // An override of a provider's default configuration needs no base: it is
                    // implicitly there (`mergeFile`).
                    judged.refused.push((describe(block), OVERRIDES_NOTHING));
                }
            }
            // `moved`, `import`, `check`, `removed`, `language` and unknown blocks.
            _ => judged.refused.push((describe(block), NOT_OVERRIDABLE)),
        }
    }
    judged
}

/// Whether OpenTofu reads a `.tofu` twin of this `.tf` file instead of it.
fn hidden(ctx: &Context, config: &ConfigName) -> bool {
    let twin = match config.extension {
        Extension::Tf => Extension::Tofu,
        Extension::TfJson => Extension::TofuJson,
        Extension::Tofu | Extension::TofuJson => return false,
    };
    let twin = format!("{}{}", config.stem(), twin.as_str());
    ctx.overlay.exists(&ctx.dir.join(twin))
}

/// What the primary files define that an override can merge into.
#[derive(Default)]
struct Bases {
    objects: HashSet<ObjectKey>,
    locals: HashSet<String>,
}

impl Bases {
    fn add(&mut self, blocks: &[Block]) {
        for block in blocks {
            if block.kind == "locals" {
                (self.locals).extend(block.body.attributes.iter().map(|a| a.name.clone()));
            } else {
                self.objects.insert(object_key(block));
            }
        }
    }
}

/// How the tools match an override block to its base: block type, labels and, for a provider,
/// its `alias`.
#[derive(PartialEq, Eq, Hash)]
struct ObjectKey {
    kind: String,
    labels: Vec<String>,
    alias: Option<String>,
}

fn object_key(block: &Block) -> ObjectKey {
    let alias = (block.kind == "provider")
        .then(|| block.body.attribute("alias"))
        .flatten()
        .and_then(|a| a.expr.literal_string().or_else(|| a.expr.keyword()))
        .map(str::to_string);
    ObjectKey {
        kind: block.kind.clone(),
        labels: block.labels.iter().map(|l| l.value.clone()).collect(),
        alias,
    }
}

/// `` `output "region"` ``, `` `moved` `` (a block as its header reads).
fn describe(block: &Block) -> String {
    let labels: String = block
        .labels
        .iter()
        .map(|l| format!(" \"{}\"", l.value))
        .collect();
    format!("`{}{labels}`", block.kind)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings};

    const BASE: &str = "provider \"google\" {\n  region = \"europe-west1\"\n}\n";

    const PASS: &[Files] = &[
        &[("main.tf", BASE), ("override.tf", BASE)],
        &[("main.tf", BASE), ("providers_override.tf", BASE)],
        &[("main.tf", BASE), ("providers_override.tofu.json", "{}")],
        // Names that merely contain the word.
        &[("main.tf", BASE), ("overridden.tf", "")],
        &[("main.tf", BASE), ("no_overrides_here.tf", "")],
    ];

    const FAIL: &[(Files, usize)] = &[
        (&[("main.tf", ""), ("providers-override.tf", BASE)], 1),
        (&[("main.tf", ""), ("overrides.tf", BASE)], 1),
        (&[("main.tf", ""), ("override_main.tf", BASE)], 1),
        (&[("main.tf", ""), ("main-override.tf", BASE)], 1),
        (&[("main.tf", ""), ("main_overrides.tf", BASE)], 1),
        (&[("main.tf", ""), ("Override.tf", BASE)], 1),
        (&[("main.tf", ""), ("main.override.tf", BASE)], 1),
        (&[("main.tf", ""), ("main.override.tofu.json", "{}")], 1),
        (&[("main.tf", ""), ("overrides.tf", "")], 1),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    #[test]
    fn an_override_saved_as_text_is_not_loaded() {
        let files = [
            ("main.tf", BASE),
            ("main_override.tf.txt", BASE),
            ("notes.txt", ""),
        ];
        let found = findings(&super::RULE, &files);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(
            found[0].message,
            "`main_override.tf.txt` is not loaded: its name ends in `.txt`"
        );
        assert!(
            found[0].path.ends_with("/main_override.tf.txt"),
            "{}",
            found[0].path
        );
        assert_eq!(
            found[0].help.as_deref(),
            Some(
                "to override, rename it `main_override.tf`; if it is kept on purpose, move it \
                 out of the module"
            )
        );
        assert!(found[0].fix.is_some());
    }

    /// Whether the one finding of the case offers the rename, and its help.
    fn renamed(files: Files) -> (bool, String) {
        let found = findings(&super::RULE, files);
        assert_eq!(found.len(), 1, "{found:#?}");
        let help = found[0].help.as_deref().unwrap_or_default().to_string();
        (found[0].fix.is_some(), help)
    }

    const REGION: &str = "variable \"region\" {\n  type = string\n}\n";
    const OUTPUT: &str = "output \"region\" {\n  value = var.region\n}\n";

    /// The rename is offered when every block of the file has its base in a primary file (so
    /// the renamed file loads as an override), or when one repeats a block of a primary file
    /// (a duplicate definition, which the rename cures).
    #[test]
    fn the_rename_is_offered_only_where_the_module_loads_afterwards() {
        let aliased = "provider \"google\" {\n  alias = \"eu\"\n}\n";
        let local = |name: &str| format!("locals {{\n  {name} = 1\n}}\n");
        let offered: &[Files] = &[
            &[("main.tf", BASE), ("providers-override.tf", BASE)],
            &[("main.tf", REGION), ("main.override.tf", REGION)],
            // A provider's default configuration needs no base; `terraform` blocks merge.
            &[("main.tf", REGION), ("overrides.tf", BASE)],
            &[
                ("main.tf", ""),
                (
                    "overrides.tf",
                    "terraform {\n  required_version = \">= 1.5\"\n}\n",
                ),
            ],
            &[("main.tf", aliased), ("override_main.tf", aliased)],
            &[("main.tf", &local("a")), ("Override.tf", &local("a"))],
            &[("main.tf", ""), ("overrides.tf", "")],
            // A duplicate definition (an error now) with a block of its own: the rename cures
            // the duplicate; the help says what is left.
            &[
                ("main.tf", REGION),
                ("main-override.tf", &format!("{REGION}{OUTPUT}")),
            ],
        ];
        for files in offered {
            assert!(renamed(files).0, "{files:?}");
        }
        let refused: &[(Files, &str)] = &[
            (
                &[("main.tf", REGION), ("main.override.tf", OUTPUT)],
                "`output \"region\"` overrides nothing",
            ),
            (
                &[("main-override.tf", OUTPUT)],
                "`output \"region\"` overrides nothing",
            ),
            (
                &[("main.tf", ""), ("override_main.tf", aliased)],
                "`provider \"google\"` overrides nothing",
            ),
            (
                &[("main.tf", &local("a")), ("overrides.tf", &local("b"))],
                "local value `b` overrides nothing",
            ),
            (
                &[
                    ("main.tf", REGION),
                    ("overrides.tf", "moved {\n  from = a.b\n  to   = a.c\n}\n"),
                ],
                "`moved` cannot be in an override file",
            ),
            (
                &[
                    ("main.tf", ""),
                    ("main-override.tf", &format!("{OUTPUT}{OUTPUT}")),
                ],
                "`output \"region\"` (and 1 more block) overrides nothing",
            ),
        ];
        for (files, why) in refused {
            let (fix, help) = renamed(files);
            assert!(!fix, "{files:?}");
            assert!(help.contains(why), "{help}");
            assert!(
                help.contains("would make the module fail to load"),
                "{help}"
            );
        }
        let (_, help) = renamed(&[
            ("main.tf", REGION),
            ("main-override.tf", &format!("{REGION}{OUTPUT}")),
        ]);
        assert_eq!(
            help,
            "to override, rename it `main_override.tf` and move `output \"region\"` to a primary \
             file, as in an override file it overrides nothing (no primary file defines it); if \
             it is meant as a primary file, give it a name that does not look like an override"
        );
    }

    /// A base only OpenTofu's `.tofu` twin hides from it is no base the rename can count on in
    /// both views: no rename. A `.tofu` lookalike is judged by OpenTofu's files alone.
    #[test]
    fn bases_count_in_every_view_that_loads_the_renamed_file() {
        let hidden = [
            ("main.tf", OUTPUT),
            ("main.tofu", REGION),
            ("main-override.tf", OUTPUT),
        ];
        assert!(!renamed(&hidden).0);
        let tofu = [("main.tofu", OUTPUT), ("main-override.tofu", OUTPUT)];
        assert!(renamed(&tofu).0);
    }

    /// A `.txt` copy is parsed as the file it would become and judged the same way.
    #[test]
    fn an_override_saved_as_text_is_renamed_only_when_it_loads() {
        let with_base = [("main.tf", OUTPUT), ("main_override.tf.txt", OUTPUT)];
        assert!(renamed(&with_base).0);
        let (fix, help) = renamed(&[("main.tf", REGION), ("main_override.tf.txt", OUTPUT)]);
        assert!(!fix);
        assert!(
            help.contains("`output \"region\"` overrides nothing"),
            "{help}"
        );
        let (fix, help) = renamed(&[("main.tf", REGION), ("main_override.tf.txt", "output {")]);
        assert!(!fix);
        assert!(
            help.starts_with("to override, make it a file the tools can parse"),
            "{help}"
        );
        // Terraform reads no `.tofu` file: the copy is OpenTofu's finding only.
        let found = findings(
            &super::RULE,
            &[("main.tofu", OUTPUT), ("main_override.tofu.txt", OUTPUT)],
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].views, crate::knowledge::View::OpenTofu.views());
        assert!(found[0].fix.is_some());
    }

    #[test]
    fn help_names_the_real_override_name() {
        let found = findings(&super::RULE, &[("providers-override.tf.json", "{}")]);
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].message,
            "`providers-override.tf.json` is loaded as a primary file, not as an override"
        );
        assert_eq!(
            found[0].help.as_deref(),
            Some(
                "to override, rename it `providers_override.tf.json`; if it is meant as a \
                 primary file, give it a name that does not look like an override"
            )
        );
    }
}
