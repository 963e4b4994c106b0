//! Evaluates path expressions statically, the way Terragrunt would for one unit: string
//! literals, `find_in_parent_folders()`, `get_terragrunt_dir()`, `get_original_terragrunt_dir()`,
//! `get_parent_terragrunt_dir()`, `path_relative_to_include()`, `path_relative_from_include()`,
//! `get_repo_root()`, `get_path_to_repo_root()`, `get_path_from_repo_root()`, `dirname(...)`,
//! and `"${...}/x"` templates built from them (Gruntwork's standard live layout writes
//! `"${dirname(find_in_parent_folders("root.hcl"))}/_envcommon/app.hcl"`). Anything else
//! (locals, other functions, conditionals) is unresolvable, never guessed.

use std::path::{Path, PathBuf};

use crate::source::Span;
use crate::syntax::native::{TemplatePart, expr_template_parts};
use crate::syntax::{Expr, ExprKind};

use super::paths::{clean, relative};
use super::probe::Probe;
use super::refs::RefKind;

/// Terragrunt's default configuration file name.
use crate::knowledge::files::TERRAGRUNT_UNIT as DEFAULT_CONFIG;
use crate::knowledge::files::TERRAGRUNT_UNIT_JSON;
/// The name Terragrunt recommends for the root configuration.
pub(crate) const ROOT_CONFIG: &str = "root.hcl";

/// Where an expression is evaluated.
pub(crate) struct Env<'a> {
    /// The directory of the configuration being evaluated: the unit's, for a file it includes.
    pub(crate) config_dir: &'a Path,
    /// The directory of the file the expression is written in.
    pub(crate) file_dir: &'a Path,
    /// Whether the file is evaluated as an included parent of `config_dir`'s configuration.
    pub(crate) included: bool,
    /// The includes of the file, resolved: (label, target file).
    pub(crate) includes: &'a [(Option<String>, PathBuf)],
    /// The file's text: a native template's parts are read from it.
    pub(crate) text: &'a str,
    /// What is at the paths looked at.
    pub(crate) probe: &'a Probe,
}

/// Why a path could not be worked out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Stop {
    /// `find_in_parent_folders(name)` (no fallback) found nothing above `start`.
    NotInParents {
        name: String,
        start: PathBuf,
        call: Span,
        /// A `root.hcl` above `start`, when the default name was searched for.
        root_hcl: Option<PathBuf>,
    },
    /// A part we do not evaluate statically.
    Unresolvable { span: Span, why: String },
}

/// What a reference's path leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// An existing file (for a dependency: the unit's `terragrunt.hcl`).
    Found(PathBuf),
    /// Nothing to follow: an optional `read_terragrunt_config` target that does not exist, or a
    /// stack's unit fetched from a repository or registry.
    Absent,
    /// A dependency of an included file that the including unit replaces (a `dependency` block
    /// of the same name, or `merge_strategy = "no_merge"`): Terragrunt never evaluates it.
    Replaced,
    /// A reference of a Terragrunt Stacks unit template, which resolves only in the copy that
    /// `terragrunt stack generate` makes: not judged.
    Deferred,
    Missing {
        path: PathBuf,
        why: Missing,
    },
    Stopped(Stop),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Missing {
    NoSuchPath,
    /// An include or import of a directory.
    IsDirectory,
    /// A directory (a dependency, or `read_terragrunt_config` of a directory) without
    /// `terragrunt.hcl`.
    NoConfigInDirectory,
}

/// Resolves one reference's path to what it names.
pub(crate) fn resolve(kind: RefKind, optional: bool, path: &Expr, env: &Env) -> Outcome {
    let text = match eval(path, env) {
        Ok(text) => text,
        Err(stop) => return Outcome::Stopped(stop),
    };
    // A stack's unit from a repository or registry is fetched when the stack is generated.
    if kind == RefKind::StackSource && !(text.starts_with('.') || text.starts_with('/')) {
        return Outcome::Absent;
    }
    let written = Path::new(&text);
    let target = if written.is_absolute() {
        clean(written)
    } else {
        clean(&env.config_dir.join(written))
    };
    let is_dir = env.probe.is_dir(&target);
    let exists = env.probe.exists(&target);
    match kind {
        RefKind::Include | RefKind::Import => match (exists, is_dir) {
            (true, false) => Outcome::Found(target),
            (true, true) => Outcome::Missing {
                path: target,
                why: Missing::IsDirectory,
            },
            _ => Outcome::Missing {
                path: target,
                why: Missing::NoSuchPath,
            },
        },
        RefKind::Read | RefKind::Dependency | RefKind::StackSource => {
            let (config, why) = if is_dir {
                // Terragrunt reads `terragrunt.hcl`, else `terragrunt.hcl.json`.
                let native = target.join(DEFAULT_CONFIG);
                let json = target.join(TERRAGRUNT_UNIT_JSON);
                let config = if !env.probe.is_file(&native) && env.probe.is_file(&json) {
                    json
                } else {
                    native
                };
                (config, Missing::NoConfigInDirectory)
            } else {
                (target.clone(), Missing::NoSuchPath)
            };
            if env.probe.is_file(&config) {
                Outcome::Found(config)
            } else if optional {
                Outcome::Absent
            } else {
                Outcome::Missing { path: target, why }
            }
        }
    }
}

/// The string value of a path expression.
pub(crate) fn eval(expr: &Expr, env: &Env) -> Result<String, Stop> {
    let unresolvable = |why: &str| Stop::Unresolvable {
        span: expr.span,
        why: why.to_string(),
    };
    match &expr.kind {
        ExprKind::String(s) => Ok(s.clone()),
        ExprKind::Parenthesis(inner) => eval(inner, env),
        ExprKind::Template => {
            let parts = expr_template_parts(expr, env.text)
                .ok_or_else(|| unresolvable("a heredoc is not resolved"))?;
            let mut out = String::new();
            for part in parts {
                match part {
                    TemplatePart::Literal(text) => out.push_str(&text),
                    TemplatePart::Interpolation(inner) => out.push_str(&eval(&inner, env)?),
                    TemplatePart::Directive(span) => {
                        return Err(Stop::Unresolvable {
                            span,
                            why: "a template directive depends on values only known when Terragrunt runs".into(),
                        });
                    }
                }
            }
            Ok(out)
        }
        ExprKind::FunctionCall { name, args, .. } => call(name, args, expr.span, env),
        ExprKind::Variable(_) | ExprKind::Traversal { .. } => Err(unresolvable(
            "a reference to a value only known when Terragrunt runs",
        )),
        _ => Err(unresolvable(
            "not a string literal or a path function Terragrunt can resolve statically",
        )),
    }
}

fn call(name: &str, args: &[Expr], span: Span, env: &Env) -> Result<String, Stop> {
    let string_arg = |i: usize| args.get(i).map(|a| eval(a, env)).transpose();
    match name {
        "find_in_parent_folders" if args.len() <= 2 => {
            let wanted = string_arg(0)?;
            let name = wanted.clone().unwrap_or_else(|| DEFAULT_CONFIG.to_string());
            let found = match wanted {
                Some(_) => find_in_parent_folders(env.config_dir, &name, env.probe),
                None => find_default_config_in_parent_folders(env.config_dir, env.probe),
            };
            match found {
                Some(found) => Ok(found.to_string_lossy().into_owned()),
                None => match string_arg(1)? {
                    Some(fallback) => Ok(fallback),
                    None => Err(Stop::NotInParents {
                        root_hcl: if wanted.is_none() || name == DEFAULT_CONFIG {
                            find_in_parent_folders(env.config_dir, ROOT_CONFIG, env.probe)
                        } else {
                            None
                        },
                        name,
                        start: env.config_dir.to_path_buf(),
                        call: span,
                    }),
                },
            }
        }
        "get_terragrunt_dir" | "get_original_terragrunt_dir" if args.is_empty() => {
            Ok(env.config_dir.to_string_lossy().into())
        }
        "dirname" if args.len() == 1 => {
            let path = string_arg(0)?.unwrap_or_default();
            Ok(super::paths::dir_of(Path::new(&path))
                .to_string_lossy()
                .into())
        }
        "get_parent_terragrunt_dir" | "path_relative_to_include" | "path_relative_from_include"
            if args.len() <= 1 =>
        {
            let parent = parent_dir(name, string_arg(0)?, span, env)?;
            let text = match name {
                "get_parent_terragrunt_dir" => parent,
                "path_relative_to_include" => relative(&parent, env.config_dir),
                _ => relative(env.config_dir, &parent),
            };
            Ok(text.to_string_lossy().into())
        }
        "get_repo_root" | "get_path_to_repo_root" | "get_path_from_repo_root"
            if args.is_empty() =>
        {
            let Some(root) = repo_root(env.config_dir, env.probe) else {
                return Err(Stop::Unresolvable {
                    span,
                    why: format!(
                        "`{name}()` needs a git repository, and no parent folder holds `.git`"
                    ),
                });
            };
            let text = match name {
                "get_repo_root" => root,
                "get_path_to_repo_root" => relative(env.config_dir, &root),
                _ => relative(&root, env.config_dir),
            };
            Ok(crate::source::display_path(&text))
        }
        _ => Err(Stop::Unresolvable {
            span,
            why: format!("`{name}(...)` is not resolved statically"),
        }),
    }
}

/// The directory of the included file that `name(label)` is about: the file itself when it is
/// evaluated as an include, else the one include the unit has (or the one labelled `label`). A
/// unit with no include is its own parent, as Terragrunt has it.
fn parent_dir(name: &str, label: Option<String>, span: Span, env: &Env) -> Result<PathBuf, Stop> {
    if env.included {
        return Ok(env.file_dir.to_path_buf());
    }
    if env.includes.is_empty() && name != "get_parent_terragrunt_dir" {
        return Ok(env.config_dir.to_path_buf());
    }
    let matching: Vec<&PathBuf> = (env.includes.iter())
        .filter(|(include, _)| label.is_none() || include.as_deref() == label.as_deref())
        .map(|(_, path)| path)
        .collect();
    match matching.as_slice() {
        [one] => Ok(super::paths::dir_of(one).to_path_buf()),
        _ => Err(Stop::Unresolvable {
            span,
            why: format!("`{name}()` needs exactly one resolved include to name"),
        }),
    }
}

/// Terragrunt's search: the nearest folder *above* `config_dir` holding `name` (a file or a
/// directory; `name` may have several components).
pub(crate) fn find_in_parent_folders(
    config_dir: &Path,
    name: &str,
    probe: &Probe,
) -> Option<PathBuf> {
    let mut dir = config_dir.parent();
    while let Some(current) = dir {
        let candidate = clean(&current.join(name));
        if probe.exists(&candidate) {
            return Some(candidate);
        }
        dir = current.parent();
    }
    None
}

/// Terragrunt's search without a name: in each folder above `config_dir`, its default
/// configuration, `terragrunt.hcl.json` before `terragrunt.hcl` (`GetDefaultConfigPath` and
/// `DefaultTerragruntConfigPaths` in gruntwork-io/terragrunt `pkg/config/config.go`).
pub(crate) fn find_default_config_in_parent_folders(
    config_dir: &Path,
    probe: &Probe,
) -> Option<PathBuf> {
    let mut dir = config_dir.parent();
    while let Some(current) = dir {
        for name in [TERRAGRUNT_UNIT_JSON, DEFAULT_CONFIG] {
            let candidate = current.join(name);
            if probe.exists(&candidate) {
                return Some(candidate);
            }
        }
        dir = current.parent();
    }
    None
}

/// The nearest folder (from `dir` up) holding `.git`.
pub(crate) fn repo_root(dir: &Path, probe: &Probe) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| probe.exists(&d.join(".git")))
        .map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{SourceFile, SourceFiles};

    fn eval_in(dir: &Path, source: &str) -> Result<String, Stop> {
        eval_for(dir, dir, &[], source)
    }

    /// Evaluates `source` written in a file of `file_dir` for the unit of `config_dir` (an
    /// include when they differ), whose includes are `includes`.
    fn eval_for(
        config_dir: &Path,
        file_dir: &Path,
        includes: &[(Option<String>, PathBuf)],
        source: &str,
    ) -> Result<String, Stop> {
        let mut files = SourceFiles::default();
        let text = format!("x = {source}\n");
        let id = files.add(SourceFile::new("t.hcl".into(), text.clone()));
        let file = crate::syntax::native::parse(id, &text)
            .file
            .expect("parses");
        let env = Env {
            config_dir,
            file_dir,
            included: config_dir != file_dir,
            includes,
            text: &text,
            probe: &Probe::default(),
        };
        eval(&file.body.attributes[0].expr, &env)
    }

    #[test]
    fn functions_and_templates() {
        let t = tempfile::tempdir().expect("tempdir");
        let root = t.path().canonicalize().expect("canonical");
        let unit = root.join("prod/us/app");
        std::fs::create_dir_all(&unit).expect("mkdir");
        std::fs::write(root.join("root.hcl"), "").expect("write");
        std::fs::write(root.join("prod/account.hcl"), "").expect("write");
        std::fs::create_dir(root.join(".git")).expect("mkdir");
        let show = |p: &Path| p.to_string_lossy().into_owned();
        assert_eq!(eval_in(&unit, "\"../x.hcl\""), Ok("../x.hcl".into()));
        assert_eq!(
            eval_in(&unit, "find_in_parent_folders(\"account.hcl\")"),
            Ok(show(&root.join("prod/account.hcl")))
        );
        assert_eq!(
            eval_in(&unit, "\"${get_terragrunt_dir()}/../env.hcl\""),
            Ok(format!("{}/../env.hcl", show(&unit)))
        );
        assert_eq!(
            eval_in(&unit, "\"${get_repo_root()}/common.hcl\""),
            Ok(format!("{}/common.hcl", show(&root)))
        );
        assert_eq!(
            eval_in(&unit, "get_path_to_repo_root()"),
            Ok("../../..".into())
        );
        assert_eq!(
            eval_in(
                &unit,
                "find_in_parent_folders(\"nope.hcl\", \"fallback.hcl\")"
            ),
            Ok("fallback.hcl".into())
        );
        let Err(Stop::NotInParents { name, root_hcl, .. }) =
            eval_in(&unit, "find_in_parent_folders()")
        else {
            panic!("expected not found")
        };
        assert_eq!(name, "terragrunt.hcl");
        assert_eq!(root_hcl, Some(root.join("root.hcl")));
        // Without a name, a parent's `terragrunt.hcl.json` is found, before its `terragrunt.hcl`.
        std::fs::write(root.join("prod/terragrunt.hcl.json"), "{}").expect("write");
        std::fs::write(root.join("terragrunt.hcl"), "").expect("write");
        assert_eq!(
            eval_in(&unit, "find_in_parent_folders()"),
            Ok(show(&root.join("prod/terragrunt.hcl.json")))
        );
        std::fs::write(root.join("prod/us/terragrunt.hcl"), "").expect("write");
        std::fs::write(root.join("prod/us/terragrunt.hcl.json"), "{}").expect("write");
        assert_eq!(
            eval_in(&unit, "find_in_parent_folders()"),
            Ok(show(&root.join("prod/us/terragrunt.hcl.json")))
        );
        assert_eq!(
            eval_in(&unit, "find_in_parent_folders(\"terragrunt.hcl\")"),
            Ok(show(&root.join("prod/us/terragrunt.hcl")))
        );
        assert!(matches!(
            eval_in(&unit, "\"${local.root}/x.hcl\""),
            Err(Stop::Unresolvable { .. })
        ));
        assert!(matches!(
            eval_in(&unit, "abspath(\"x\")"),
            Err(Stop::Unresolvable { .. })
        ));
    }

    #[test]
    fn the_standard_live_layout() {
        let t = tempfile::tempdir().expect("tempdir");
        let root = t.path().canonicalize().expect("canonical");
        let unit = root.join("prod/us/app");
        std::fs::create_dir_all(&unit).expect("mkdir");
        std::fs::write(root.join("root.hcl"), "").expect("write");
        let show = |p: &Path| p.to_string_lossy().into_owned();
        assert_eq!(
            eval_in(
                &unit,
                "\"${dirname(find_in_parent_folders(\"root.hcl\"))}/_envcommon/app.hcl\""
            ),
            Ok(format!("{}/_envcommon/app.hcl", show(&root)))
        );
        assert_eq!(
            eval_in(&unit, "get_original_terragrunt_dir()"),
            Ok(show(&unit))
        );
        // A unit without includes is its own parent.
        assert_eq!(eval_in(&unit, "path_relative_to_include()"), Ok(".".into()));
        // In the root file, evaluated for the unit: the state key of every unit.
        assert_eq!(
            eval_for(
                &unit,
                &root,
                &[],
                "\"${path_relative_to_include()}/tf.tfstate\""
            ),
            Ok("prod/us/app/tf.tfstate".into())
        );
        assert_eq!(
            eval_for(&unit, &root, &[], "path_relative_from_include()"),
            Ok("../../..".into())
        );
        // In the unit: relative to the include it names.
        let includes = [(Some("root".to_string()), root.join("root.hcl"))];
        assert_eq!(
            eval_for(
                &unit,
                &unit,
                &includes,
                "path_relative_to_include(\"root\")"
            ),
            Ok("prod/us/app".into())
        );
        assert_eq!(
            eval_for(
                &unit,
                &unit,
                &includes,
                "get_parent_terragrunt_dir(\"root\")"
            ),
            Ok(show(&root))
        );
    }
}
