#!/usr/bin/env bash
# Scaffolds a new rule: scripts/new_rule.sh ID
# or a new load error of Terraform/OpenTofu: scripts/new_rule.sh --load-error ID
# or a new finding of what their `validate` refuses: scripts/new_rule.sh --validate ID
#
# Creates src/rules/ID.rs (the one rule shape: metadata, a check that finds nothing yet, one
# diagnostic function, PASS/FAIL tables whose fail case expects a finding, so the rule's test
# fails until the check is written), rules/ID.md (every section the doc test wants, one fail and
# one pass example) and registers the rule in src/rules/mod.rs (`mod ID;` and `&ID::RULE,`, in
# alphabetical order). A load error is declared `kind: LoadError` (always an error, always on)
# and its doc has the load errors' summary line and configuration. What `validate` refuses is
# declared `kind: Validate` (an error, on by default, that users may turn off and ignore inline)
# and its doc's summary line ends "On by default (`validate` refuses this)." Those three files
# are all a load error or a validate finding touches; a rule is also added to README.md's list of findings. See CONTRIBUTING.md,
# "Adding a rule".
set -euo pipefail

usage() {
  echo "usage: scripts/new_rule.sh [--load-error | --validate] ID" >&2
  echo "  (ID in snake_case, e.g. override_unused_local; --load-error for a load error," >&2
  echo "  --validate for what \`terraform validate\`/\`tofu validate\` refuse)" >&2
  exit 2
}

load_error=false
validate=false
if [ $# -eq 2 ] && [ "$1" = --load-error ]; then
  load_error=true
  shift
elif [ $# -eq 2 ] && [ "$1" = --validate ]; then
  validate=true
  shift
fi
[ $# -eq 1 ] || usage
id=$1
cd "$(dirname "$0")/.."

if ! [[ $id =~ ^[a-z][a-z0-9]*(_[a-z0-9]+)+$ ]]; then
  echo "error: \`$id\` is not a snake_case id of at least two words (like override_noop)" >&2
  exit 2
fi
for path in "src/rules/$id.rs" "rules/$id.md"; do
  if [ -e "$path" ]; then
    echo "error: $path already exists: \`$id\` is taken" >&2
    exit 1
  fi
done
if grep -rq "id: \"$id\"," src/rules; then
  echo "error: \`$id\` is already a finding id (src/rules)" >&2
  exit 1
fi
if grep -qE "^mod $id;|&$id::RULE," src/rules/mod.rs; then
  echo "error: \`$id\` is already registered in src/rules/mod.rs" >&2
  exit 1
fi

summary="TODO what the rule finds, in lower case without a full stop"

# --- the rule ------------------------------------------------------------------------------
if $load_error; then
cat > "src/rules/$id.rs" <<EOF
//! TODO(new_rule): one paragraph: what Terraform and OpenTofu refuse to load, where their code
//! does (e.g. hashicorp/terraform \`internal/configs/...\`), and from which releases.

use crate::diagnostic::Diagnostic;
use crate::source::Span;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "$id",
    kind: LoadError,
    summary: "$summary",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    // TODO(new_rule): find what the tools refuse in \`ctx\` (the blocks of the view's files as
    // the tools decode each one, \`crate::lint::helpers::top_level_blocks(ctx)\`; the merged
    // module \`ctx.module\`; the targeted releases \`ctx.targets\`) and push one finding per place
    // with \`out.push(${id}_diagnostic(ctx, span))\`.
    let found: Vec<Span> = Vec::new();
    for span in found {
        out.push(${id}_diagnostic(ctx, span));
    }
}

/// \`TODO(new_rule): the tools' summary\`
fn ${id}_diagnostic(ctx: &Context, span: Span) -> Diagnostic {
    ctx.finding(&RULE, "TODO(new_rule): the tools' summary, as they print it")
        .at(ctx.files, span, "TODO(new_rule): the label")
        .with_note("TODO(new_rule): the tools' detail, as they print it")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[&[("main.tf", "resource \"terraform_data\" \"good\" {}\n")]];

    // TODO(new_rule): a module the tools refuse, as in the doc's fail example.
    const FAIL: &[(Files, usize)] = &[(
        &[("main.tf", "resource \"terraform_data\" \"bad\" {}\n")],
        1,
    )];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
EOF
elif $validate; then
cat > "src/rules/$id.rs" <<EOF
//! TODO(new_rule): one paragraph: what \`terraform validate\`/\`tofu validate\` refuse once the
//! module has loaded, where their code does (e.g. hashicorp/terraform
//! \`internal/terraform/evaluate_valid.go\`), and what a static reading leaves alone.

use crate::diagnostic::Diagnostic;
use crate::source::Span;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "$id",
    kind: Validate,
    summary: "$summary",
    check: Check::View(RuleViews::Both, check),
};

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    // TODO(new_rule): find what \`validate\` refuses in \`ctx\` (the merged module
    // \`ctx.module\`, its references through \`crate::module::references\`, the local modules it
    // calls through \`ctx.neighbours\`) and push one finding per place with
    // \`out.push(${id}_diagnostic(ctx, span))\`. It runs only in a view whose module loads.
    let found: Vec<Span> = Vec::new();
    for span in found {
        out.push(${id}_diagnostic(ctx, span));
    }
}

/// \`TODO(new_rule): the tools' summary\`
fn ${id}_diagnostic(ctx: &Context, span: Span) -> Diagnostic {
    ctx.finding(&RULE, "TODO(new_rule): the tools' summary, as they print it")
        .at(ctx.files, span, "TODO(new_rule): the label")
        .with_note("TODO(new_rule): the tools' detail, as they print it")
        .with_help("TODO(new_rule): how to fix it")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[&[("main.tf", "resource \"terraform_data\" \"good\" {}\n")]];

    // TODO(new_rule): a module \`validate\` refuses, as in the doc's fail example.
    const FAIL: &[(Files, usize)] = &[(
        &[("main.tf", "resource \"terraform_data\" \"bad\" {}\n")],
        1,
    )];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
EOF
else
cat > "src/rules/$id.rs" <<EOF
//! TODO(new_rule): one paragraph: what the rule catches and why it matters.

use crate::diagnostic::Diagnostic;
use crate::source::Span;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "$id",
    severity: Warning,
    default: On,
    summary: "$summary",
    check: Check::View(RuleViews::Both, check),
};

const NOTE: &str = "TODO(new_rule): why it matters, in full sentences.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    // TODO(new_rule): find the problem in \`ctx\` (\`ctx.module\` and its merge events,
    // \`ctx.primary\`, \`ctx.overrides\`; shared queries are in \`crate::lint::helpers\`) and
    // push one finding per place with \`out.push(${id}_diagnostic(ctx, span))\`.
    let found: Vec<Span> = Vec::new();
    for span in found {
        out.push(${id}_diagnostic(ctx, span));
    }
}

/// \`TODO(new_rule): the message\`
fn ${id}_diagnostic(ctx: &Context, span: Span) -> Diagnostic {
    ctx.finding(&RULE, "TODO(new_rule): the message")
        .at(ctx.files, span, "TODO(new_rule): the label")
        .with_note(NOTE)
        .with_help("TODO(new_rule): how to fix it")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[&[("main.tf", "resource \"terraform_data\" \"good\" {}\n")]];

    // TODO(new_rule): a module the rule must report, as in the doc's fail example.
    const FAIL: &[(Files, usize)] = &[(
        &[("main.tf", "resource \"terraform_data\" \"bad\" {}\n")],
        1,
    )];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
EOF
fi

# A long id makes long lines: let rustfmt lay the new file out as `cargo fmt` would.
if command -v rustfmt > /dev/null; then
  rustfmt --edition 2024 "src/rules/$id.rs"
fi

# --- the doc -------------------------------------------------------------------------------
if $load_error; then
  summary_line="TODO what the tools refuse, in lower case without a full stop. Severity: error. \
Always on (this is a load error of Terraform/OpenTofu)."
  configuration="None: Terraform/OpenTofu refuse to load the module, so this finding is always \
reported."
elif $validate; then
  summary_line="TODO what \`validate\` refuses, in lower case without a full stop. Severity: error. \
On by default (\`validate\` refuses this)."
  configuration=$(cat <<EOF
On by default, as an error. Where tflint-merge is wrong (the tools decide some of this only
while evaluating), silence one finding with a comment on its line or the line before, saying
why: \`# tflint-merge-ignore: $id  the reason\`; or turn it off with
\`--disable-rule $id\` or \`$id: off\` under \`rules:\` in \`.tflint-merge.yaml\`.
EOF
)
else
  summary_line="TODO what the rule finds, in lower case without a full stop. Severity: warning. \
On by default."
  configuration=$(cat <<EOF
On by default, at severity warning. In \`.tflint-merge.yaml\`:

\`\`\`yaml
rules:
  $id: notice   # or error, warning, off
\`\`\`

On the command line: \`--disable-rule $id\`. The rule has no options.
EOF
)
fi
cat > "rules/$id.md" <<EOF
# $id

$summary_line

## What it does

TODO(new_rule): what the rule reports, precisely, and what it does not.

## Why

TODO(new_rule): why it matters: what goes wrong when the problem stays.

## Example

TODO(new_rule): make this example one the rule reports (the marker states the file and line of
the finding).

<!-- fail: $id at main.tf:1 -->
\`\`\`hcl file=main.tf
resource "terraform_data" "bad" {}
\`\`\`

Not reported: TODO(new_rule).

<!-- pass -->
\`\`\`hcl file=main.tf
resource "terraform_data" "good" {}
\`\`\`

## How to fix

TODO(new_rule): how to fix it.

## Configuration

$configuration
EOF

# --- the registration ----------------------------------------------------------------------
python3 - "$id" <<'PY'
import re
import sys

rule_id = sys.argv[1]
path = "src/rules/mod.rs"
text = open(path).read()


def insert_sorted(text, pattern, line, name_of):
    """Inserts `line` among the consecutive lines matching `pattern`, in order of name."""
    lines = text.split("\n")
    places = [i for i, l in enumerate(lines) if re.fullmatch(pattern, l)]
    if not places:
        sys.exit(f"error: no line like {pattern!r} in {path}")
    at = next((i for i in places if name_of(lines[i]) > rule_id), places[-1] + 1)
    lines.insert(at, line)
    return "\n".join(lines)


text = insert_sorted(text, r"mod [a-z0-9_]+;", f"mod {rule_id};", lambda l: l[4:-1])
text = insert_sorted(
    text, r"    &[a-z0-9_]+::RULE,", f"    &{rule_id}::RULE,", lambda l: l.strip()[1:-7]
)
open(path, "w").write(text)
PY

if $validate; then
  what="the summary in declare_rule!"
  readme="  3. README.md: add \`$id\` to the list \"What \`validate\` refuses\" under \"## Findings\"
     (cargo test --test readme checks it)."
elif $load_error; then
  what="the summary in declare_rule!"
  readme="  3. README.md: nothing to add (it names some load errors, \`tflint-merge rules\` all).
     A load error the merge finds (while it appends and merges blocks) is a MergeProblem
     variant (src/module/merge/problems.rs) that the merge reports and the rule's
     Check::Merge words: see CONTRIBUTING.md."
else
  what="the summary, severity and default in declare_rule!"
  readme="  3. README.md: add \`$id\` (with its default severity) to the list under \"## Findings\"
     (cargo test --test readme checks it)."
fi
cat <<EOF
Created src/rules/$id.rs and rules/$id.md, and registered the rule in src/rules/mod.rs.

Next:
  1. src/rules/$id.rs: $what, the check (the
     TODO(new_rule) comments), the message of ${id}_diagnostic, and the PASS/FAIL tables.
     Until the check finds something, its test fails:
       cargo test --lib rules::$id
  2. rules/$id.md: the summary line (the rule's summary, capitalised, then its severity and
     default, as \`tflint-merge rules\` shows them), every section, and examples the rule really
     gives. Its examples run in:
       cargo test --test rule_docs
     and the first run of a new doc's fail examples writes a snapshot to review:
       cargo insta review   (tests/snapshots/rule_docs__$id.snap)
$readme
  4. Before committing: cargo test, cargo fmt --check, cargo clippy --all-targets -- -D warnings.
     No TODO(new_rule) may be left: grep -rn 'TODO(new_rule)' src rules
EOF
