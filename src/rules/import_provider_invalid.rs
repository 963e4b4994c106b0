//! An `import` block's `provider` argument where the tools refuse it: `provider` is only for an
//! import that generates its resource's configuration. When `to` names a resource the module
//! declares, the provider comes from that resource; an import's `provider` then makes the tools
//! refuse the module, unless the resource names the same provider configuration
//! (hashicorp/terraform and opentofu/opentofu `internal/configs/config.go`,
//! `ProviderRequirements`: "Invalid import provider argument"). An import into a child module
//! may not have one at all (`internal/configs/import.go`, `decodeImportBlock`).

use crate::diagnostic::Diagnostic;
use crate::module::merge::{MergedAttribute, MergedObject};
use crate::source::SourceFiles;

use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "import_provider_invalid",
    kind: LoadError,
    summary: "an import's `provider` where the target resource decides the provider",
    check: Check::View(RuleViews::Both, check),
};

const SUMMARY: &str = "Invalid import provider argument";

/// The tools' detail for an import into a resource of this module.
const RESOURCE_DETAIL: &str = "The provider argument can only be specified in import blocks \
                               that will generate configuration. Use the provider argument \
                               in the target resource block to configure the provider for a \
                               resource with explicit provider configuration.";

/// The tools' detail for an import into a child module's resource.
const MODULE_DETAIL: &str = "The provider argument can only be specified in import blocks that \
                             will generate configuration. Use the providers argument within \
                             the module block to configure providers for all resources within \
                             a module, including imported resources.";

fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    for import in ctx.module.unmerged.iter().filter(|b| b.kind == "import") {
        let (Some(to), Some(provider)) = (
            import.body.attribute("to"),
            import.body.attribute("provider"),
        ) else {
            continue;
        };
        let target = value_text(ctx.files, to);
        if target.starts_with("module.") {
            out.push(invalid(ctx, provider, MODULE_DETAIL));
            continue;
        }
        let Some(resource) = declared_resource(ctx, &target) else {
            continue;
        };
        // The same provider configuration in both places is accepted, to ease generating
        // configuration; none in the resource, or another one, is refused.
        let agrees = (resource.body.attribute("provider"))
            .is_some_and(|theirs| value_text(ctx.files, theirs) == value_text(ctx.files, provider));
        if !agrees {
            out.push(invalid(ctx, provider, RESOURCE_DETAIL));
        }
    }
}

/// The resource of this module that an import's `to` names (`type.name`, with any instance
/// key), if it declares one.
fn declared_resource<'m>(ctx: &'m Context, target: &str) -> Option<&'m MergedObject> {
    let resource = target.split('[').next().unwrap_or_default();
    let (kind, name) = resource.split_once('.')?;
    (ctx.module.objects.iter()).find(|o| {
        o.kind() == "resource"
            && o.labels.first().is_some_and(|l| l.value == kind)
            && o.labels.get(1).is_some_and(|l| l.value == name)
    })
}

/// An address argument's text without blanks: a JSON string's value, else the expression as
/// written (`aws.east`, `terraform_data.a["x"]`).
fn value_text(files: &SourceFiles, attr: &MergedAttribute) -> String {
    let text = match attr.expr.json_string() {
        Some(value) => value,
        None => files.text(attr.expr.span),
    };
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// `Invalid import provider argument`, at the whole `provider` argument (the tools'
/// `ProviderDeclRange`).
fn invalid(ctx: &Context, provider: &MergedAttribute, detail: &str) -> Diagnostic {
    ctx.finding(&RULE, SUMMARY)
        .at(
            ctx.files,
            provider.span(),
            "only for an import that generates configuration",
        )
        .with_note(detail.to_string())
        .with_help("remove `provider` from the import; set it in the target resource block")
}

#[cfg(test)]
mod tests {
    use crate::lint::testing::{Files, check_table};

    const PASS: &[Files] = &[
        // No resource in the module: the import generates its configuration.
        &[(
            "main.tf",
            "import {\n  to       = aws_instance.web\n  id       = \"i-1\"\n  provider = aws.east\n}\n",
        )],
        // The same provider configuration in both places.
        &[(
            "main.tf",
            "resource \"aws_instance\" \"web\" {\n  provider = aws.east\n}\nimport {\n  to       \
             = aws_instance.web\n  id       = \"i-1\"\n  provider = aws.east\n}\n",
        )],
        &[(
            "main.tf",
            "resource \"aws_instance\" \"web\" {\n}\nimport {\n  to = aws_instance.web\n  id = \
             \"i-1\"\n}\n",
        )],
    ];

    const FAIL: &[(Files, usize)] = &[
        // Terraform 1.6.6 to 1.15.5 (the judges): "Invalid import provider argument" on the
        // `provider` line.
        (
            &[(
                "main.tf",
                "resource \"terraform_data\" \"c0\" {\n  input = \"x\"\n}\nimport {\n  to = \
                 terraform_data.c0\n  id = \"x\"\n  provider = terraform\n}\n",
            )],
            1,
        ),
        (
            &[(
                "main.tf",
                "resource \"aws_instance\" \"web\" {\n  provider = aws.west\n}\nimport {\n  to       \
                 = aws_instance.web[\"a\"]\n  id       = \"i-1\"\n  provider = aws.east\n}\n",
            )],
            1,
        ),
        (
            &[(
                "main.tf.json",
                r#"{"resource": {"aws_instance": {"web": {}}}, "import": [{"to": "aws_instance.web", "id": "i-1", "provider": "aws.east"}]}"#,
            )],
            1,
        ),
        (
            &[(
                "main.tf",
                "import {\n  to       = module.app.aws_instance.web\n  id       = \"i-1\"\n  \
                 provider = aws.east\n}\n",
            )],
            1,
        ),
    ];

    #[test]
    fn table() {
        check_table(&super::RULE, PASS, FAIL);
    }
}
