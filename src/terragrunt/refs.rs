//! What a Terragrunt file refers to, read from its syntax alone: `include` and `import` blocks,
//! `dependency`/`dependencies` blocks and `read_terragrunt_config(...)` calls, and every
//! function call (for rules that look for particular functions).

use crate::source::Span;
use crate::syntax::native::{TemplatePart, expr_template_parts};
use crate::syntax::{Block, Body, Expr, ExprKind, File, TraversalStep};

/// How one file refers to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum RefKind {
    /// `include { path = ... }`: the target is merged in, evaluated for the including unit.
    Include,
    /// `import "name" { config_path = ... }`: the target is parsed on its own, first.
    Import,
    /// `read_terragrunt_config(path)`: the target is parsed on its own.
    Read,
    /// `dependency "name" { config_path = ... }` or `dependencies { paths = [...] }`: another unit
    /// (a directory holding `terragrunt.hcl`) that must be applied first.
    Dependency,
    /// `unit "name" { source = ... }` in a `terragrunt.stack.hcl`: the unit template (a
    /// directory holding `terragrunt.hcl`) that `terragrunt stack generate` copies.
    StackSource,
}

impl RefKind {
    /// How the reference is written, for messages.
    pub(crate) fn written(self) -> &'static str {
        match self {
            RefKind::Include => "include",
            RefKind::Import => "import",
            RefKind::Read => "read_terragrunt_config",
            RefKind::Dependency => "dependency",
            RefKind::StackSource => "unit source",
        }
    }

    /// `includes`, `imports`, `reads`, `depends on`.
    pub(crate) fn verb(self) -> &'static str {
        match self {
            RefKind::Include => "includes",
            RefKind::Import => "imports",
            RefKind::Read => "reads",
            RefKind::Dependency => "depends on",
            RefKind::StackSource => "generates a unit from",
        }
    }

    /// Whether the reference makes Terragrunt parse its target (so a cycle never ends).
    pub(crate) fn parses_target(self) -> bool {
        !matches!(self, RefKind::Dependency | RefKind::StackSource)
    }
}

/// One reference from a file to a path.
#[derive(Debug, Clone)]
pub(crate) struct Reference {
    pub(crate) kind: RefKind,
    /// The block label (`include "root"`, `import "env"`, `dependency "vpc"`).
    pub(crate) name: Option<String>,
    /// The header of the block the path is set in (the call itself for `read_terragrunt_config`).
    pub(crate) site: Span,
    /// The path expression.
    pub(crate) path: Expr,
    /// `read_terragrunt_config(path, default)`: a missing target is not an error.
    pub(crate) optional: bool,
}

/// A function call anywhere in a file, templates included.
#[derive(Debug, Clone)]
pub(crate) struct Call {
    pub(crate) name: String,
    pub(crate) span: Span,
}

/// A use of an import's value, `import.<name>.<step>...`, anywhere in a file (templates
/// included): what the imports design lets a configuration read from the files it imports.
#[derive(Debug, Clone)]
pub(crate) struct ImportUse {
    /// The import's label, `root` in `import.root.inputs`.
    pub(crate) name: String,
    /// The steps after the label that name something statically: attribute names and string
    /// keys (`import.root.inputs["region"]`), up to the first step that is not one.
    pub(crate) steps: Vec<String>,
    /// The whole traversal.
    pub(crate) span: Span,
}

/// The references and calls of a file, in source order.
#[derive(Debug, Default, Clone)]
pub(crate) struct Extracted {
    pub(crate) references: Vec<Reference>,
    pub(crate) calls: Vec<Call>,
    pub(crate) import_uses: Vec<ImportUse>,
}

/// Reads the references of a parsed native file, whose text is `text`.
pub(crate) fn extract(file: &File, text: &str) -> Extracted {
    let mut out = Extracted::default();
    let walker = Walker { text };
    for block in &file.body.blocks {
        block_references(block, &mut out.references);
    }
    walker.body(&file.body, &mut out);
    out.references
        .sort_by_key(|r| (r.site.start, r.path.span.start));
    out
}

fn block_references(block: &Block, out: &mut Vec<Reference>) {
    let name = block.label(0).map(str::to_string);
    let mut push = |kind, path: &Expr| {
        out.push(Reference {
            kind,
            name: name.clone(),
            site: block.header_span,
            path: path.clone(),
            optional: false,
        });
    };
    match block.kind.as_str() {
        "include" => {
            if let Some(path) = block.body.attribute("path") {
                push(RefKind::Include, &path.expr);
            }
        }
        "import" => {
            if let Some(path) = block.body.attribute("config_path") {
                push(RefKind::Import, &path.expr);
            }
        }
        "dependency" => {
            let disabled = block
                .body
                .attribute("enabled")
                .is_some_and(|a| a.expr.kind == ExprKind::Bool(false));
            if let Some(path) = block.body.attribute("config_path")
                && !disabled
            {
                push(RefKind::Dependency, &path.expr);
            }
        }
        "unit" => {
            if let Some(source) = block.body.attribute("source") {
                push(RefKind::StackSource, &source.expr);
            }
        }
        "dependencies" => {
            if let Some(paths) = block.body.attribute("paths") {
                match paths.expr.tuple_items() {
                    Some(items) => items.iter().for_each(|p| push(RefKind::Dependency, p)),
                    None => push(RefKind::Dependency, &paths.expr),
                }
            }
        }
        _ => {}
    }
}

/// The import use a traversal from the variable `import` is, when its first step names an import.
fn import_use(steps: &[TraversalStep], span: Span) -> Option<ImportUse> {
    let mut names = steps.iter().map_while(|step| match step {
        TraversalStep::Attr(name) => Some(name.clone()),
        TraversalStep::Index(key) => key.literal_string().map(str::to_string),
        TraversalStep::Splat => None,
    });
    let name = match steps.first()? {
        TraversalStep::Attr(_) => names.next()?,
        _ => return None,
    };
    Some(ImportUse {
        name,
        steps: names.collect(),
        span,
    })
}

struct Walker<'a> {
    text: &'a str,
}

impl Walker<'_> {
    fn body(&self, body: &Body, out: &mut Extracted) {
        for attribute in &body.attributes {
            self.expr(&attribute.expr, out);
        }
        for block in &body.blocks {
            self.body(&block.body, out);
        }
    }

    fn expr(&self, expr: &Expr, out: &mut Extracted) {
        match &expr.kind {
            ExprKind::FunctionCall { name, args, .. } => {
                out.calls.push(Call {
                    name: name.to_string(),
                    span: expr.span,
                });
                if &**name == "read_terragrunt_config"
                    && let Some(path) = args.first()
                {
                    out.references.push(Reference {
                        kind: RefKind::Read,
                        name: None,
                        site: expr.span,
                        path: path.clone(),
                        optional: args.len() > 1,
                    });
                }
                args.iter().for_each(|a| self.expr(a, out));
            }
            ExprKind::Template => {
                for part in expr_template_parts(expr, self.text).unwrap_or_default() {
                    if let TemplatePart::Interpolation(inner) = part {
                        self.expr(&inner, out);
                    }
                }
            }
            ExprKind::Tuple(items) => items.iter().for_each(|e| self.expr(e, out)),
            ExprKind::Object(items) => {
                for item in items {
                    self.expr(&item.key, out);
                    self.expr(&item.value, out);
                }
            }
            ExprKind::Parenthesis(inner) => self.expr(inner, out),
            ExprKind::Traversal { root, steps } => {
                if let ExprKind::Variable(variable) = &root.kind
                    && variable == "import"
                {
                    out.import_uses.extend(import_use(steps, expr.span));
                }
                self.expr(root, out);
                for step in steps {
                    if let TraversalStep::Index(index) = step {
                        self.expr(index, out);
                    }
                }
            }
            ExprKind::Null
            | ExprKind::Bool(_)
            | ExprKind::Number(_)
            | ExprKind::String(_)
            | ExprKind::Variable(_)
            | ExprKind::Other => {}
        }
    }
}
