//! References: the traversals of an expression that name something of the module (`var.x`,
//! `local.y`, `module.m.out`, `aws_instance.a[0].id`, `each.value`), read in the one parse.
//!
//! A reference is what HCL's `Variables()` gives Terraform and OpenTofu for an expression
//! (hashicorp/hcl `hclsyntax/variables.go`, read by `internal/lang/references.go` of both
//! tools): a root name and the attributes and literal indexes after it, up to the first step
//! that is not static (a computed index or a splat), where the rest is evaluated from the
//! value. The names a `for` expression or a `%{ for }` directive binds are not references
//! inside it (`hclsyntax.ForExpr` filters them out). The native parser finds them as it reads
//! (`super::hcl`).

use crate::source::Span;

/// A traversal from a name: `var.x`, `aws_instance.a[0].id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reference {
    pub(crate) root: String,
    /// The static steps after the root, in order.
    pub(crate) steps: Vec<ReferenceStep>,
    /// From the root's start to the end of the last static step.
    pub(crate) span: Span,
}

/// One static step of a reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ReferenceStep {
    /// `.name`
    Attr(String),
    /// `[0]` or `["key"]` (or the legacy `.0`): the literal, as HCL writes it.
    Index(String),
}

impl Reference {
    /// The name of the attribute step at `index` (0 is the step after the root), if that step
    /// is an attribute.
    pub(crate) fn attr(&self, index: usize) -> Option<&str> {
        match self.steps.get(index)? {
            ReferenceStep::Attr(name) => Some(name),
            ReferenceStep::Index(_) => None,
        }
    }

    /// The reference as the tools print it: `var.x`, `aws_instance.a[0].id`.
    pub(crate) fn text(&self) -> String {
        let mut out = self.root.clone();
        for step in &self.steps {
            match step {
                ReferenceStep::Attr(name) => {
                    out.push('.');
                    out.push_str(name);
                }
                ReferenceStep::Index(key) => {
                    out.push('[');
                    out.push_str(key);
                    out.push(']');
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::source::{FileId, Syntax};
    use crate::syntax::{Body, parse};

    /// Each reference of a file: as the tools print it, and the file's text at its span.
    fn references(syntax: Syntax, text: &str) -> Vec<(String, String)> {
        fn walk(body: &Body, text: &str, out: &mut Vec<(String, String)>) {
            for attr in &body.attributes {
                attr.expr.for_each_reference(&mut |r| {
                    out.push((r.text(), text[r.span.range()].to_string()));
                });
            }
            body.blocks.iter().for_each(|b| walk(&b.body, text, out));
        }
        let parsed = parse(FileId(0), syntax, text);
        let file = parsed.file.expect("parses");
        let mut out = Vec::new();
        walk(&file.body, text, &mut out);
        out
    }

    fn texts(found: &[(String, String)]) -> Vec<&str> {
        found.iter().map(|(r, _)| r.as_str()).collect()
    }

    #[test]
    fn every_traversal_in_every_native_expression() {
        let text = r#"locals {
  a = var.x
  b = "p-${local.y}-${module.m.out}"
  c = <<EOT
%{ for s in var.list }${s}-${each.key}%{ endfor }
%{ if count.index > 0 }yes%{ else }${path.module}%{ endif }
EOT
  d = [for k, v in var.map : upper(v) if k != local.skip]
  e = aws_instance.web[0].id
  f = aws_instance.web[*].id
  g = data.aws_ami.x.tags["Name"]
  h = local.m[var.key].attr
  i = var.on ? { k = self.id } : null
  j = (terraform.workspace)
  k = each
  l = { for s in var.list : s => s }
}
resource "aws_security_group" "sg" {
  dynamic "ingress" {
    for_each = var.ports
    iterator = port
    content {
      from_port = port.value
    }
  }
}
"#;
        let found = references(Syntax::Native, text);
        assert_eq!(
            texts(&found),
            [
                "var.x",
                "local.y",
                "module.m.out",
                "var.list",
                "each.key",
                "count.index",
                "path.module",
                "var.map",
                "local.skip",
                "aws_instance.web[0].id",
                "aws_instance.web",
                "data.aws_ami.x.tags[\"Name\"]",
                "local.m",
                "var.key",
                "var.on",
                "self.id",
                "terraform.workspace",
                "each",
                "var.list",
                "var.ports",
                "port",
                "port.value",
            ]
        );
        // Each span is the reference as written, up to its last static step.
        for (reference, written) in &found {
            assert_eq!(reference, written);
        }
    }

    #[test]
    fn json_templates_with_spans_through_escapes() {
        let text = r#"{
  "locals": {
    "a": "\u00e9\n${var.x}",
    "b": "${[for s in var.list : \"${s}-${local.y}\"]}",
    "c": {"${var.k}": "x"}
  }
}"#;
        let found = references(Syntax::Json, text);
        assert_eq!(texts(&found), ["var.x", "var.list", "local.y", "var.k"]);
        for (reference, written) in &found {
            assert_eq!(reference, written);
        }
        // Where the tools read a string literally, it holds no reference.
        let literal = r#"{"variable": {"v": {"default": "${var.x}"}}}"#;
        assert!(references(Syntax::Json, literal).is_empty());
    }
}
