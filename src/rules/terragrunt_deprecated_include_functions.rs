//! `path_relative_to_include()`, `path_relative_from_include()` and
//! `get_parent_terragrunt_dir()` in a Terragrunt file that uses imports: functions of the
//! include mechanism that imports deprecate.

use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::source::Span;
use crate::syntax::File;

use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_deprecated_include_functions",
    severity: Notice,
    default: Off,
    summary: "an include-only Terragrunt function in a file that uses imports",
    fix: Unsafe,
    check: Check::Terragrunt(check),
};

const FUNCTIONS: [&str; 3] = [
    "path_relative_to_include",
    "path_relative_from_include",
    "get_parent_terragrunt_dir",
];

fn check(ctx: &TreeContext, out: &mut Vec<Diagnostic>) {
    for (file, parsed) in ctx.tree.live_files() {
        let Some(import) = parsed.body.blocks_of("import").next() else {
            continue;
        };
        for call in &file.extracted.calls {
            if FUNCTIONS.contains(&call.name.as_str()) {
                let finding = include_function(ctx, &call.name, call.span, import.header_span);
                out.push(finding.with_fix(replacement(ctx, parsed, &call.name, call.span)));
            }
        }
    }
}

/// `get_parent_terragrunt_dir()` without argument, in a file with one import, is that import's
/// `terragrunt_dir`; the other functions have no such direct replacement. Unsafe: no proof
/// evaluates a Terragrunt configuration again with the fix applied, as one does for a module
/// (`lint::fix_proof`), and only a proved fix is offered as safe.
fn replacement(ctx: &TreeContext, file: &File, function: &str, call: Span) -> Option<Fix> {
    let mut imports = file.body.blocks_of("import");
    let (Some(import), None) = (imports.next(), imports.next()) else {
        return None;
    };
    let name = import.label(0)?;
    let written: String = ctx.files().text(call).split_whitespace().collect();
    if function != "get_parent_terragrunt_dir" || written != "get_parent_terragrunt_dir()" {
        return None;
    }
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if name.is_empty() || !name.chars().all(is_name) {
        return None;
    }
    let path = &ctx.files().get(call.file).path;
    let text = format!("import.{name}.terragrunt_dir");
    let title = format!("Replace it with `{text}`");
    Some(Fix::new(title, Applicability::Unsafe).edit(path, call.range(), text))
}

/// `` `path_relative_to_include()` in a configuration that uses imports ``
fn include_function(ctx: &TreeContext, function: &str, call: Span, import: Span) -> Diagnostic {
    let help = if function == "get_parent_terragrunt_dir" {
        "use the imported configuration's directory, `import.<name>.terragrunt_dir`"
    } else {
        "compute the path from `get_terragrunt_dir()` and the imported configuration's \
         `import.<name>.terragrunt_dir`"
    };
    let [to, from, parent] = FUNCTIONS;
    ctx.finding(
        &RULE,
        format!("`{function}()` in a configuration that uses imports"),
    )
    .at(ctx.files(), call, "a function of the include mechanism")
    .with_label(ctx.files(), import, "this file uses imports")
    .with_note(format!(
        "Imports replace `include`, and Terragrunt's imports design deprecates the functions \
         that only make sense with it: `{to}()`, `{from}()` and `{parent}()` warn, and describe \
         the including file rather than the imports."
    ))
    .with_help(help)
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, INCLUDE_ROOT, check_table};

    const IMPORT_ROOT: &str = "import \"root\" {\n  config_path = \"../root.hcl\"\n}\n";

    const PASS: &[Files] = &[
        // With include, the functions are what they are for.
        &[
            (
                "root.hcl",
                "locals {\n  key = \"${path_relative_to_include()}/tf.tfstate\"\n}\n",
            ),
            ("a/terragrunt.hcl", INCLUDE_ROOT),
        ],
        &[("root.hcl", ""), ("a/terragrunt.hcl", IMPORT_ROOT)],
    ];

    const FAIL: &[(Files, usize)] = &[(
        &[
            ("root.hcl", ""),
            (
                "a/terragrunt.hcl",
                concat!(
                    "import \"root\" {\n  config_path = \"../root.hcl\"\n}\n",
                    "locals {\n",
                    "  key = \"${path_relative_to_include()}/tf.tfstate\"\n",
                    "  up  = get_parent_terragrunt_dir()\n",
                    "}\n",
                ),
            ),
        ],
        2,
    )];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
