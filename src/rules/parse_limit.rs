//! A native-syntax file beyond what tflint-merge's parser can check: constructs nested deeper
//! than it allows ([`crate::syntax::hcl::MAX_DEPTH`]). Terraform and OpenTofu may well accept
//! the file; it is reported rather than skipped silently, and contributes nothing, as a file
//! that does not parse.

use crate::diagnostic::Diagnostic;
use crate::input::read::{ReadProblem, Reader};
use crate::source::Span;

use crate::lint::helpers::skipped_note;
use crate::lint::{Check, ReadContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "parse_limit",
    kind: LoadError,
    summary: "a file beyond what tflint-merge's parser can check",
    check: Check::Read(check),
};

const NOT_THE_TOOLS: &str = "This is a limit of tflint-merge, not necessarily an error in the \
                             file: Terraform and OpenTofu may accept it.";

fn check(ctx: &ReadContext, out: &mut Vec<Diagnostic>) {
    if let ReadProblem::ParseLimit {
        message,
        at,
        reader,
    } = ctx.problem
    {
        out.push(parse_limit(ctx, message, *at, *reader));
    }
}

/// The parser's message, which says how deep the constructs nest.
fn parse_limit(ctx: &ReadContext, message: &str, at: Span, reader: Reader) -> Diagnostic {
    ctx.finding(&RULE, message.to_string())
        .at(ctx.files, at, "beyond the parser's limit here")
        .with_note(NOT_THE_TOOLS)
        .with_note(skipped_note(reader))
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::findings;

    use crate::syntax::hcl::MAX_DEPTH;

    /// The findings of `depth` nested tuples, on a thread with room for a debug build's frames.
    fn nested(depth: usize) -> usize {
        std::thread::Builder::new()
            .stack_size(512 << 20)
            .spawn(move || {
                let text = format!(
                    "locals {{\n  a = {}1{}\n}}\n",
                    "[".repeat(depth),
                    "]".repeat(depth)
                );
                let found = findings(&super::RULE, &[("main.tf", &text)]);
                if let Some(finding) = found.first() {
                    assert!(finding.message.contains("nest"), "{}", finding.message);
                }
                found.len()
            })
            .expect("a thread")
            .join()
            .expect("no panic")
    }

    #[test]
    fn nesting_beyond_the_parsers_limit() {
        assert_eq!(nested(MAX_DEPTH + 10), 1);
        // Terraform loads 1,000 levels.
        assert_eq!(nested(1000), 0);
    }
}
