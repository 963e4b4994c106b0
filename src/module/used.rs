//! What the effective module reads of its own declarations: the input variables, local values,
//! data sources and outputs of module calls that some expression of it names. The unused
//! declarations are the rest (`unused_declaration`), and a local value nothing reads is left
//! out of the semantic form (`semantic`), since removing it changes nothing the tools run.
//!
//! Every expression counts, as merged: an override's where it won (the base's it replaced does
//! not), those the tools read literally too (`depends_on = [data.x.y]` makes the data source a
//! dependency: it is used), `dynamic` blocks, templates, `moved`, `import`, `removed` and
//! `check` blocks, and the `terraform` block's (OpenTofu evaluates variables in `backend` and
//! `encryption`). Uses that do not count: a declaration's reference to itself (a variable's
//! `validation` reading the variable checks it, and does not use it), and every reference of a
//! local value that is not used itself, however long the chain: `a = local.b` with `a` unused
//! leaves `b` unused too, and removing `a` then `b` changes nothing the tools run. A local value
//! whose name starts with `_` is unused on purpose, and counts as read.

use foldhash::{HashMap, HashSet};

use crate::syntax::references::ReferenceStep;
use crate::syntax::{Expr, ExprKind, Reference};

use super::merge::{Address, MergedBody, Module};

/// What the module reads of a module call's outputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum OutputsRead<'m> {
    /// The call as a whole (`module.m`, `module.m[*].out`, `values(module.m)`): any output.
    Any,
    /// Only these outputs, by name.
    Named(HashSet<&'m str>),
}

impl OutputsRead<'_> {
    /// Whether output `output` is read.
    pub(crate) fn includes(&self, output: &str) -> bool {
        match self {
            OutputsRead::Any => true,
            OutputsRead::Named(names) => names.contains(output),
        }
    }
}

/// The declarations of one effective module that some expression of it reads.
#[derive(Debug, Default)]
pub(crate) struct Used<'m> {
    variables: HashSet<&'m str>,
    /// Local values read, directly or through other local values, from outside the locals.
    locals: HashSet<&'m str>,
    /// (type, name) of the data sources.
    data_sources: HashSet<(&'m str, &'m str)>,
    /// By module call name.
    outputs: HashMap<&'m str, OutputsRead<'m>>,
}

impl<'m> Used<'m> {
    /// What `module` reads of its own declarations.
    pub(crate) fn of(module: &'m Module) -> Used<'m> {
        let mut walk = Walk {
            used: Used::default(),
            locals_to_read: Vec::new(),
            own: None,
        };
        for object in &module.objects {
            walk.own = Some(&object.address);
            walk.body(&object.body, AddressesOnly::No, object.kind());
        }
        walk.own = None;
        let terraform = &module.terraform;
        for attr in terraform
            .required_version
            .iter()
            .chain(&terraform.required_providers)
        {
            walk.expr(&attr.expr, AddressesOnly::No);
        }
        for block in terraform.backend.iter().chain(&terraform.cloud) {
            walk.body(&block.body, AddressesOnly::No, "terraform");
        }
        walk.body(&terraform.other, AddressesOnly::No, "terraform");
        for block in &module.unmerged {
            walk.body(&block.body, AddressesOnly::No, &block.kind);
        }
        // A local value named `_...` is unused on purpose (evaluated for the error it may
        // raise, as a `for` that refuses duplicate keys): it is kept, and what it reads is used.
        let kept = module.locals.iter().map(|l| l.attribute.name());
        walk.locals_to_read
            .extend(kept.filter(|name| name.starts_with('_')));
        // The local values read so far, then those they read, and so on: a local value read
        // only by local values nothing reads is not read.
        while let Some(name) = walk.locals_to_read.pop() {
            if !walk.used.locals.insert(name) {
                continue;
            }
            if let Some(local) = module.local(name) {
                (local.attribute.expr).for_each_reference(&mut |reference| {
                    let own = reference.root == "local" && reference.attr(0) == Some(name);
                    if !own {
                        walk.reference(reference, AddressesOnly::No);
                    }
                });
            }
        }
        walk.used
    }

    pub(crate) fn variable(&self, name: &str) -> bool {
        self.variables.contains(name)
    }

    pub(crate) fn local(&self, name: &str) -> bool {
        self.locals.contains(name)
    }

    pub(crate) fn data_source(&self, kind: &str, name: &str) -> bool {
        self.data_sources.contains(&(kind, name))
    }

    /// What the module reads of the outputs of its module call `call`, if anything.
    pub(crate) fn outputs_read(&self, call: &str) -> Option<&OutputsRead<'m>> {
        self.outputs.get(call)
    }
}

/// Whether an argument holds addresses rather than values: `depends_on`, `lifecycle`'s
/// `replace_triggered_by` and `ignore_changes`, the `from` and `to` of `moved`, `removed` and
/// `import`. A module call named there is a dependency or a move, and reads none of its outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AddressesOnly {
    No,
    Yes,
}

struct Walk<'m> {
    used: Used<'m>,
    /// Local values read, whose own references are still to be walked.
    locals_to_read: Vec<&'m str>,
    /// The object being walked: its references to itself do not count.
    own: Option<&'m Address>,
}

impl<'m> Walk<'m> {
    /// `body`, of a block whose top-level block type is `top`.
    fn body(&mut self, body: &'m MergedBody, addresses: AddressesOnly, top: &str) {
        for attr in &body.attributes {
            let holds_addresses = match attr.name() {
                "depends_on" | "replace_triggered_by" | "ignore_changes" => true,
                "from" | "to" => matches!(top, "moved" | "removed" | "import"),
                _ => false,
            };
            let here = if holds_addresses {
                AddressesOnly::Yes
            } else {
                addresses
            };
            self.expr(&attr.expr, here);
            if attr.name() == "depends_on" {
                self.quoted_addresses(&attr.expr);
            }
        }
        for block in &body.blocks {
            self.body(&block.body, addresses, top);
        }
    }

    fn expr(&mut self, expr: &'m Expr, addresses: AddressesOnly) {
        expr.for_each_reference(&mut |reference| self.reference(reference, addresses));
    }

    /// The addresses of a `depends_on` written as strings: JSON syntax, where the tools read
    /// each string as a reference (hashicorp/terraform `internal/configs/depends_on.go`), and
    /// the deprecated quoted form of native syntax.
    fn quoted_addresses(&mut self, depends_on: &'m Expr) {
        let ExprKind::Tuple(items) = &depends_on.kind else {
            return;
        };
        for item in items {
            let Some(text) = item.literal_string() else {
                continue;
            };
            let mut parts = text.split('.');
            if let (Some("data"), Some(kind), Some(name)) =
                (parts.next(), parts.next(), parts.next())
            {
                self.data_source(kind, name);
            }
        }
    }

    fn data_source(&mut self, kind: &'m str, name: &'m str) {
        let own = matches!(self.own, Some(Address::Resource(mode, k, n))
            if mode == "data" && k == kind && n == name);
        if !own {
            self.used.data_sources.insert((kind, name));
        }
    }

    fn reference(&mut self, reference: &'m Reference, addresses: AddressesOnly) {
        let Some(first) = reference.attr(0) else {
            return;
        };
        match reference.root.as_str() {
            "var" => {
                let own = matches!(self.own, Some(Address::Variable(name)) if name == first);
                if !own {
                    self.used.variables.insert(first);
                }
            }
            "local" => self.locals_to_read.push(first),
            "data" => {
                if let Some(name) = reference.attr(1) {
                    self.data_source(first, name);
                }
            }
            "module" if addresses == AddressesOnly::No => {
                let read = output_read(reference);
                let outputs = (self.used.outputs)
                    .entry(first)
                    .or_insert_with(|| OutputsRead::Named(HashSet::default()));
                match (read, &mut *outputs) {
                    (Some(output), OutputsRead::Named(names)) => {
                        names.insert(output);
                    }
                    (None, _) => *outputs = OutputsRead::Any,
                    (Some(_), OutputsRead::Any) => {}
                }
            }
            _ => {}
        }
    }
}

/// The output a `module.NAME...` reference reads: `module.m.out`, or `module.m[KEY].out` for a
/// call with `count` or `for_each`; `None` when it takes the call as a whole (`module.m`,
/// `module.m[0]`, or a step that is not static, where the reference ends).
fn output_read(reference: &Reference) -> Option<&str> {
    match reference.steps.get(1)? {
        ReferenceStep::Attr(output) => Some(output),
        ReferenceStep::Index(_) => reference.attr(2),
    }
}

#[cfg(test)]
mod tests {
    use super::Used;
    use crate::knowledge::View;
    use crate::knowledge::files::Extension;
    use crate::module::merge::{Decodes, DirectoryMemo, LoadedFile, Module, merge};
    use crate::source::{SourceFile, SourceFiles, Syntax};
    use crate::syntax::parse;

    /// The effective module of one `main.tf`.
    fn module_of(text: &str) -> Module {
        let mut files = SourceFiles::default();
        let id = files.add(SourceFile::new("main.tf".into(), text.to_string()));
        let file = parse(id, Syntax::Native, text).file.expect("parses");
        let loaded = [LoadedFile {
            file: &file,
            extension: Extension::Tf,
        }];
        let memo = DirectoryMemo::default();
        let decodes = Decodes::default();
        merge(View::Terraform, &files, (&loaded, &[]), decodes, &memo).module
    }

    #[test]
    fn what_counts_as_a_use() {
        let module = module_of(
            r#"variable "own" {
  validation {
    condition     = var.own != ""
    error_message = "empty"
  }
}
variable "in_dynamic" {}
variable "in_template" {}
variable "in_moved" {}
variable "only_in_dead_local" {}
variable "in_kept_local" {}
locals {
  _kept = var.in_kept_local
  live  = "${var.in_template}-${local.chain}"
  chain = 1
  dead  = var.only_in_dead_local
  dead2 = local.dead
}
data "d" "dep" {}
data "d" "whole" {}
data "d" "quoted" {}
resource "r" "a" {
  value      = local.live
  depends_on = [data.d.dep, "data.d.quoted", module.m]
  dynamic "x" {
    for_each = var.in_dynamic
    content {}
  }
}
import {
  to = r.a
  id = var.in_moved
}
output "o" {
  value = [module.m.first, module.n[0].second, module.w, data.d.whole]
}
"#,
        );
        let used = Used::of(&module);
        assert!(!used.variable("own"));
        assert!(used.variable("in_dynamic"));
        assert!(used.variable("in_template"));
        assert!(used.variable("in_moved"));
        assert!(!used.variable("only_in_dead_local"));
        assert!(used.variable("in_kept_local") && used.local("_kept"));
        assert!(used.local("live") && used.local("chain"));
        assert!(!used.local("dead") && !used.local("dead2"));
        assert!(used.data_source("d", "dep") && used.data_source("d", "quoted"));
        assert!(used.data_source("d", "whole"));
        let output = |call: &str, output: &str| {
            used.outputs_read(call)
                .is_some_and(|read| read.includes(output))
        };
        assert!(output("m", "first") && !output("m", "second"));
        assert!(output("n", "second") && !output("n", "first"));
        assert!(output("w", "anything"));
    }
}
