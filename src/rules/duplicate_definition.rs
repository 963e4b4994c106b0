//! Something a module may define only once, defined twice: an object (`resource`, `variable`,
//! `module`...) or a local value defined again in the primary files, a second
//! `required_providers`, `provider_meta` or OpenTofu `encryption` block, a child provider
//! configuration passed twice in a module call's `providers`. Primary files are appended, not
//! merged, and the tools refuse the module (`Duplicate variable declaration`, `Duplicate
//! resource "aws_instance" configuration`...). A second backend is `backend_duplicate`'s.
//!
//! The merge finds those; the parser finds an argument set twice in one block (`Attribute
//! redefined`, in JSON `Duplicate argument`), in any file it reads.

use crate::diagnostic::Diagnostic;
use crate::input::read::ReadProblem;
use crate::knowledge::View;
use crate::knowledge::features::Place;
use crate::module::merge::{Address, MergeProblem};
use crate::source::{Span, Syntax};

use crate::lint::{Check, MergeContext, ReadContext, Rule, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "duplicate_definition",
    kind: LoadError,
    summary: "an object or argument is defined twice in the primary files",
    checks: [Check::Read(parsed), Check::Merge(check)],
};

/// An argument set twice in one body, as the parser found it.
fn parsed(ctx: &ReadContext, out: &mut Vec<Diagnostic>) {
    if let ReadProblem::AttributeRedefined {
        syntax,
        name,
        first,
        again,
    } = ctx.problem
    {
        out.push(attribute_redefined(ctx, *syntax, name, *first, *again));
    }
}

/// `Attribute redefined` (in JSON `Duplicate argument`)
fn attribute_redefined(
    ctx: &ReadContext,
    syntax: Syntax,
    name: &str,
    first: Span,
    again: Span,
) -> Diagnostic {
    let summary = match syntax {
        Syntax::Native => "Attribute redefined",
        Syntax::Json | Syntax::TerragruntJson => "Duplicate argument",
    };
    ctx.finding(&RULE, summary)
        .at(ctx.files, again, "defined again here")
        .with_label(ctx.files, first, "first defined here")
        .with_note(format!(
            "The argument \"{name}\" was already set. Each argument may be set only once."
        ))
}

/// Whether every targeted release refuses the object's block type (`ephemeral` before
/// Terraform 1.10, `check` before 1.5...): the tools report the block as unsupported and do
/// not add it to the module, so a second one is no duplicate (`Module.appendFile` in
/// `internal/configs/module.go` only sees the blocks the parser decoded).
fn refused_by_every_target(ctx: &MergeContext, address: &Address) -> bool {
    let kind = match address {
        Address::Resource(mode, _, _) => mode.as_str(),
        Address::Check(_) => "check",
        _ => return false,
    };
    let refusing = ctx.targets.refusing(Place::TopLevel, kind);
    !refusing.is_empty() && refusing.len() == ctx.targets.releases.len()
}

fn check(ctx: &MergeContext, out: &mut Vec<Diagnostic>) {
    for problem in ctx.problems {
        out.extend(match problem {
            MergeProblem::DuplicateObject { address, .. }
                if refused_by_every_target(ctx, address) =>
            {
                None
            }
            MergeProblem::DuplicateObject {
                address,
                again,
                again_header,
                first,
            } => Some(duplicate_object(
                ctx,
                address,
                *again,
                *again_header,
                *first,
            )),
            MergeProblem::DuplicateCheckData {
                address,
                again,
                first,
            } => Some(duplicate_check_data(ctx, address, *again, *first)),
            MergeProblem::DuplicateLocal { name, again, first } => {
                Some(duplicate_local(ctx, name, *again, *first))
            }
            MergeProblem::DuplicateProviderAddress {
                address,
                again,
                first,
            } => Some(duplicate_provider_address(ctx, address, *again, *first)),
            MergeProblem::DuplicateRequiredProviders {
                again,
                again_header,
                first,
            } => Some(duplicate_required_providers(
                ctx,
                *again,
                *again_header,
                *first,
            )),
            MergeProblem::DuplicateTerraformBlock { kind, again, first } => {
                Some(duplicate_terraform_block(ctx, kind, *again, *first))
            }
            _ => None,
        });
    }
}

/// `Duplicate variable declaration`, `Duplicate resource "T" configuration`... (the summary of
/// the object's kind)
fn duplicate_object(
    ctx: &MergeContext,
    address: &Address,
    again: Span,
    again_header: Span,
    first: Span,
) -> Diagnostic {
    ctx.finding(&RULE, duplicate_summary(ctx.view, address))
        .at(ctx.files, again, "defined again here")
        .with_label(ctx.files, first, "first defined here")
        .with_note(format!(
            "Primary files are appended, not merged: {} may be defined only once in a module.",
            address.describe()
        ))
        .with_help(duplicate_help(
            ctx,
            first,
            again_header,
            "remove one of the two definitions, or give one of them another name",
        ))
}

/// `Duplicate data "T" configuration`, for a data source of a `check` block
fn duplicate_check_data(
    ctx: &MergeContext,
    address: &Address,
    again: Span,
    first: Span,
) -> Diagnostic {
    ctx.finding(&RULE, duplicate_summary(ctx.view, address))
        .at(ctx.files, again, "defined again here")
        .with_label(ctx.files, first, "first defined here")
}

/// `Duplicate local value definition`
fn duplicate_local(ctx: &MergeContext, name: &str, again: Span, first: Span) -> Diagnostic {
    ctx.finding(&RULE, "Duplicate local value definition")
        .at(ctx.files, again, "defined again here")
        .with_label(ctx.files, first, "first defined here")
        .with_note(format!(
            "A local value named \"{name}\" was already defined. Local value names must be \
             unique within a module."
        ))
}

/// `Duplicate provider address`
fn duplicate_provider_address(
    ctx: &MergeContext,
    address: &str,
    again: Span,
    first: Span,
) -> Diagnostic {
    ctx.finding(&RULE, "Duplicate provider address")
        .at(ctx.files, again, format!("`{address}` assigned again"))
        .with_label(ctx.files, first, "first assigned here")
        .with_note(format!(
            "A provider configuration was already passed to {address}. Each child provider \
             configuration can be assigned only once."
        ))
}

/// `Duplicate required providers configuration`
fn duplicate_required_providers(
    ctx: &MergeContext,
    again: Span,
    again_header: Span,
    first: Span,
) -> Diagnostic {
    ctx.finding(&RULE, "Duplicate required providers configuration")
        .at(ctx.files, again, "defined again here")
        .with_label(ctx.files, first, "first defined here")
        .with_note("A module may have only one required_providers block in its primary files.")
        .with_help(duplicate_help(
            ctx,
            first,
            again_header,
            "move the entries of this block into the first one",
        ))
}

/// `Duplicate encryption configuration` or `Duplicate provider_meta block`
fn duplicate_terraform_block(
    ctx: &MergeContext,
    kind: &str,
    again: Span,
    first: Span,
) -> Diagnostic {
    let summary = match kind {
        "encryption" => "Duplicate encryption configuration",
        _ => "Duplicate provider_meta block",
    };
    ctx.finding(&RULE, summary)
        .at(ctx.files, again, "defined again here")
        .with_label(ctx.files, first, "first defined here")
        .with_note(format!("A module may have only one `{kind}` block."))
}

/// The tools' summary for a second definition of `address`.
fn duplicate_summary(view: View, address: &Address) -> String {
    match address {
        Address::Resource(mode, ty, _) => match mode.as_str() {
            "ephemeral" if view == View::Terraform => {
                format!("Duplicate ephemeral \"{ty}\" configuration")
            }
            "ephemeral" => format!("Duplicate ephemeral resource \"{ty}\" configuration"),
            _ => format!("Duplicate {mode} \"{ty}\" configuration"),
        },
        Address::Variable(_) => "Duplicate variable declaration".into(),
        Address::Output(_) => "Duplicate output definition".into(),
        Address::ModuleCall(_) => "Duplicate module call".into(),
        Address::Provider(..) => "Duplicate provider configuration".into(),
        Address::Check(name) => format!("Duplicate check \"{name}\" configuration"),
    }
}

/// What to do about a second definition: within one file, `same_file` (one of them is a
/// leftover); across files, the second is usually meant to change the first, which is what
/// override files do.
fn duplicate_help(ctx: &MergeContext, first: Span, again: Span, same_file: &str) -> String {
    if first.file == again.file {
        return same_file.to_string();
    }
    let file = ctx.files.get(again.file).file_name();
    // `main.tf.json` → `main_override.tf.json`: the override keeps the file's syntax.
    let (stem, extension) = file.split_at(file.find('.').unwrap_or(file.len()));
    format!(
        "remove one of the two definitions; to change the first from `{file}`, move the changed \
         arguments into an override file (`{stem}_override{extension}`)"
    )
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table, findings, findings_targeting_terraform};

    /// A block type every targeted release refuses is not added to the module: a second one
    /// is no duplicate (Terraform 1.9 has no `ephemeral` blocks, 1.10 has).
    #[test]
    fn no_duplicate_of_a_block_type_the_targets_refuse() {
        let block = "ephemeral \"random_password\" \"p\" {\n  length = 8\n}\n";
        let files: Files = &[("a.tf", block), ("b.tf", block)];
        let terraform = |version: &str| {
            let found = findings_targeting_terraform(&super::RULE, files, version);
            found.into_iter().filter(|d| d.views.terraform).count()
        };
        assert_eq!(terraform("1.9.8"), 0);
        assert_eq!(terraform("1.10.0"), 1);
    }

    const PASS: &[Files] = &[&[
        ("main.tf", "variable \"a\" {}\n"),
        ("override.tf", "variable \"a\" {\n  default = 1\n}\n"),
    ]];

    const FAIL: &[(Files, usize)] = &[
        (
            &[
                ("main.tf", "variable \"a\" {}\n"),
                ("b.tf", "variable \"a\" {}\n"),
            ],
            1,
        ),
        (
            &[("main.tf", "locals {\n  a = 1\n}\nlocals {\n  a = 2\n}\n")],
            1,
        ),
        // A check whose data source repeats a data resource is dropped, so the next check of
        // its name is no duplicate; the data resource may come later in the file, or a data
        // resource of a later file may repeat the check's data source.
        (
            &[(
                "main.tf",
                "data \"http\" \"x\" {}\ncheck \"c\" {\n  data \"http\" \"x\" {}\n}\ncheck \"c\" {}\n",
            )],
            1,
        ),
        (
            &[(
                "main.tf",
                "check \"c\" {\n  data \"http\" \"x\" {}\n}\ndata \"http\" \"x\" {}\n",
            )],
            1,
        ),
        (
            &[
                ("a.tf", "check \"c\" {\n  data \"http\" \"x\" {}\n}\n"),
                ("b.tf", "data \"http\" \"x\" {}\n"),
            ],
            1,
        ),
        // An argument set twice, found by the parser, in a primary or an override file.
        (
            &[(
                "override.tf",
                "variable \"a\" {\n  default = 1\n  default = 2\n}\n",
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }

    /// Across files, the help says how to change the first definition instead.
    #[test]
    fn the_help_names_the_override_file() {
        let files: Files = &[
            ("main.tf", "variable \"a\" {}\n"),
            ("z.tf.json", r#"{"variable": {"a": {}}}"#),
        ];
        let found = findings(&super::RULE, files);
        let help = found[0].help.as_deref().unwrap_or_default();
        assert!(help.ends_with("(`z_override.tf.json`)"), "{help}");
    }
}
