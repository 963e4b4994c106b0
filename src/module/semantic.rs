//! The semantic form of an effective module: what a tool runs, without where it was written.
//! Two modules with the same form run the same: every object, local value and `terraform`
//! setting with its value (a literal as the value it converts to, anything else as its source
//! text with whitespace collapsed), a variable's default as merging converted it, and nested
//! blocks in order. Positions, file names and which file a value came from are left out, so
//! that a fix that moves or removes text without changing a value keeps the form.
//!
//! A local value that nothing reads (`super::used`) is left out: the tools evaluate it, but
//! nothing they plan or apply depends on it, so removing it keeps what they run (an error in its
//! expression goes with it, which is the point of removing it).
//!
//! One line per setting, each starting with the path of what it sets (`variable.v default`),
//! so that the first line that differs names what changed.

use std::fmt::Write as _;

use crate::source::SourceFiles;
use crate::syntax::Expr;
use crate::types::Value;

use super::merge::{MergedAttribute, MergedBlock, MergedBody, Module};
use super::used::Used;

/// The semantic form of `module`, whose spans are of `files`.
pub(crate) fn semantic_form(module: &Module, files: &SourceFiles) -> Vec<String> {
    let mut form = Form {
        files,
        lines: Vec::new(),
    };
    for object in &module.objects {
        let path = object.address.to_string();
        let labels: Vec<&str> = object.labels.iter().map(|l| l.value.as_str()).collect();
        form.lines
            .push(format!("{path} = {} {}", object.kind(), labels.join(" ")));
        form.body(&path, &object.body);
        if let Some(default) = &object.default_value {
            // The converted default stands for the `default` expression.
            form.lines
                .push(format!("{path} default = converted {default}"));
        }
    }
    let used = Used::of(module);
    for local in module
        .locals
        .iter()
        .filter(|l| used.local(l.attribute.name()))
    {
        form.attribute("local", &local.attribute);
    }
    let terraform = &module.terraform;
    for attr in &terraform.required_version {
        form.attribute("terraform", attr);
    }
    for attr in &terraform.required_providers {
        form.attribute("terraform.required_providers", attr);
    }
    for block in terraform.backend.iter().chain(&terraform.cloud) {
        form.block("terraform", block);
    }
    form.body("terraform", &terraform.other);
    for block in &module.unmerged {
        form.block("", block);
    }
    form.lines
}

struct Form<'a> {
    files: &'a SourceFiles,
    lines: Vec<String>,
}

impl Form<'_> {
    fn body(&mut self, path: &str, body: &MergedBody) {
        for attr in &body.attributes {
            self.attribute(path, attr);
        }
        for block in &body.blocks {
            self.block(path, block);
        }
    }

    fn block(&mut self, path: &str, block: &MergedBlock) {
        let mut nested = format!("{path}.{}", block.kind);
        for label in block.labels.iter() {
            let _ = write!(nested, "[{:?}]", label.value);
        }
        self.lines.push(format!("{nested} {{"));
        self.body(&nested, &block.body);
        self.lines.push(format!("{nested} }}"));
    }

    fn attribute(&mut self, path: &str, attr: &MergedAttribute) {
        let value = self.value(&attr.expr);
        self.lines.push(format!("{path} {} = {value}", attr.name()));
    }

    /// A literal as its value (`[1, 2]` and `[ 1,2 ]` alike, a JSON string as the string it
    /// is), anything else as its source text with whitespace collapsed.
    fn value(&self, expr: &Expr) -> String {
        match Value::of_literal(expr) {
            Some(value) => format!("value {}", value.to_native()),
            None => {
                let text = self.files.text(expr.span);
                format!(
                    "text {}",
                    text.split_whitespace().collect::<Vec<_>>().join(" ")
                )
            }
        }
    }
}
