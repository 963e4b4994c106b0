//! The vendor provisioners `chef`, `habitat`, `puppet` and `salt-masterless` were deprecated in
//! Terraform 0.13.4 and removed in 0.15: every release both tools have refuses a `provisioner`
//! block of one of those types while decoding it (`decodeProvisionerBlock` in Terraform's and
//! OpenTofu's `internal/configs/provisioner.go`), in primary and override files alike, in a
//! resource and in a `removed` block.

use crate::diagnostic::Diagnostic;
use crate::syntax::Label;

use crate::lint::helpers::top_level_blocks_of;
use crate::lint::{Check, Context, Rule, RuleViews, declare_rule};

pub(crate) const RULE: Rule = declare_rule! {
    id: "provisioner_removed",
    kind: LoadError,
    summary: "a provisioner type the tools removed (chef, habitat, puppet, salt-masterless)",
    check: Check::View(RuleViews::Both, check),
};

/// The provisioner types the tools removed.
const REMOVED: [&str; 4] = ["chef", "habitat", "puppet", "salt-masterless"];

/// A removed provisioner in any block that has provisioners.
fn check(ctx: &Context, out: &mut Vec<Diagnostic>) {
    let with_provisioners = top_level_blocks_of(ctx, &["resource", "removed"]).map(|(_, b)| b);
    let removed = with_provisioners
        .flat_map(|block| block.body.blocks_of("provisioner"))
        .filter_map(|provisioner| provisioner.labels.first())
        .filter(|kind| REMOVED.contains(&kind.value.as_str()));
    out.extend(removed.map(|kind| removed_provisioner(ctx, kind)));
}

/// `The "<type>" provisioner has been removed`, on the type label, with the tools' detail.
fn removed_provisioner(ctx: &Context, kind: &Label) -> Diagnostic {
    let name = &kind.value;
    ctx.finding(
        &RULE,
        format!("The \"{name}\" provisioner has been removed"),
    )
    .at(ctx.files, kind.span, "a removed provisioner")
    .with_note(format!(
        "The \"{name}\" provisioner was deprecated in Terraform 0.13.4 has been removed from \
         Terraform. Visit https://learn.hashicorp.com/collections/terraform/provision for \
         alternatives to using provisioners that are a better fit for the Terraform workflow."
    ))
    .with_help(
        "configure the machine another way (an image built beforehand, `user_data`/cloud-init, \
         or the configuration tool's own provider), then remove the block",
    )
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Views;
    use crate::lint::testing::{Files, findings_targeting};

    /// Each finding's summary, the text its label is on, and its views.
    fn found(files: Files) -> Vec<(String, String, Views)> {
        let all = findings_targeting(&super::RULE, files, Default::default());
        all.into_iter()
            .map(|d| {
                let label = d.primary.expect("a location");
                let text = label.file.text[label.range].to_string();
                (d.message.into_owned(), text, d.views)
            })
            .collect()
    }

    #[test]
    fn removed_provisioners_native_and_json() {
        let native = "resource \"null_resource\" \"a\" {\n  provisioner \"habitat\" {}\n  \
                      provisioner \"local-exec\" {\n    command = \"true\"\n  }\n}\n";
        let json = r#"{"resource": {"null_resource": {"a": {
                         "provisioner": [{"chef": {}}, {"local-exec": {"command": "x"}}]}}}}"#;
        let removed = "removed {\n  from = null_resource.b\n  provisioner \"puppet\" {}\n}\n";
        let base = "resource \"null_resource\" \"a\" {\n  provisioner \"file\" {}\n}\n";
        let over = "resource \"null_resource\" \"a\" {\n  provisioner \"salt-masterless\" {}\n}\n";
        for (files, summary) in [
            (
                &[("main.tf", native)][..],
                "The \"habitat\" provisioner has been removed",
            ),
            (
                &[("main.tf.json", json)][..],
                "The \"chef\" provisioner has been removed",
            ),
            (
                &[("main.tf", removed)][..],
                "The \"puppet\" provisioner has been removed",
            ),
            (
                &[("main.tf", base), ("override.tf", over)][..],
                "The \"salt-masterless\" provisioner has been removed",
            ),
        ] {
            let found = found(files);
            assert_eq!(found.len(), 1, "{files:?}: {found:?}");
            assert_eq!(found[0].0, summary);
            let name = summary.split('"').nth(1).expect("a quoted name");
            assert!(found[0].1.contains(name), "at the type label: {found:?}");
            assert_eq!(found[0].2, Views::BOTH);
        }
        let fine = "resource \"null_resource\" \"a\" {\n  provisioner \"remote-exec\" {}\n}\n";
        assert!(found(&[("main.tf", fine)]).is_empty());
    }
}
