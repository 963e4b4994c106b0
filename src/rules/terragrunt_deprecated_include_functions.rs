//! `path_relative_to_include()`, `path_relative_from_include()` and
//! `get_parent_terragrunt_dir()` in a Terragrunt file that uses imports: functions of the
//! include mechanism that imports deprecate.

use crate::diagnostic::Diagnostic;

use crate::lint::{Check, Rule, TreeContext, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "terragrunt_deprecated_include_functions",
    severity: Notice,
    default: Off,
    summary: "an include-only Terragrunt function in a file that uses imports",
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
            if !FUNCTIONS.contains(&call.name.as_str()) {
                continue;
            }
            let help = if call.name == "get_parent_terragrunt_dir" {
                "use the imported configuration's directory, `import.<name>.terragrunt_dir`"
            } else {
                "compute the path from `get_terragrunt_dir()` and the imported configuration's `import.<name>.terragrunt_dir`"
            };
            out.push(
                ctx.finding(
                    &RULE,
                    format!("`{}()` in a configuration that uses imports", call.name),
                )
                .at(ctx.files(), call.span, "a function of the include mechanism")
                .with_label(ctx.files(), import.header_span, "this file uses imports")
                .with_note(format!(
                    "Imports replace `include`, and Terragrunt's imports design deprecates the functions that only make sense with it: `{}()`, `{}()` and `{}()` warn, and describe the including file rather than the imports.",
                    FUNCTIONS[0], FUNCTIONS[1], FUNCTIONS[2]
                ))
                .with_help(help),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::check_table;

    #[test]
    fn table() {
        let import = "import \"root\" {\n  config_path = \"../root.hcl\"\n}\n";
        let with_import = format!(
            "{import}locals {{\n  key = \"${{path_relative_to_include()}}/tf.tfstate\"\n  up  = get_parent_terragrunt_dir()\n}}\n"
        );
        check_table(
            &super::RULE,
            &[
                // With include, the functions are what they are for.
                &[
                    (
                        "root.hcl",
                        "locals {\n  key = \"${path_relative_to_include()}/tf.tfstate\"\n}\n",
                    ),
                    (
                        "a/terragrunt.hcl",
                        "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n",
                    ),
                ],
                &[("root.hcl", ""), ("a/terragrunt.hcl", import)],
            ],
            &[(&[("root.hcl", ""), ("a/terragrunt.hcl", &with_import)], 2)],
        );
    }
}
