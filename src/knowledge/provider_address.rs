//! Provider addresses as the tools compare them: `HOST/NAMESPACE/TYPE`, read from a
//! `required_providers` entry's `source` (host and namespace may be left out) or implied by a
//! local name alone (`hashicorp/NAME`), on the view's registry.
//!
//! hashicorp/terraform `internal/addrs/provider.go` (`ParseProviderSourceString`,
//! `NewDefaultProvider`) over hashicorp/terraform-registry-address `provider.go`
//! (`ParseProviderSource`, `ParseProviderPart`); OpenTofu's copies differ in the default
//! registry host. Only what reads the same in every release is read here: an address with
//! anything else (non-ASCII letters, which the tools map through IDNA, a port, the legacy `-`
//! namespace, a `terraform-` type prefix the tools refuse) is left unread, and a rule comparing
//! addresses then does not judge.

use super::View;

/// A provider's address, normalised as the tools compare them (lower case).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ProviderAddress {
    host: String,
    namespace: String,
    name: String,
}

impl ProviderAddress {
    /// The address a `source` string names, or `None` when it does not parse or is left unread.
    pub(crate) fn parse(source: &str, view: View) -> Option<ProviderAddress> {
        let parts: Vec<&str> = source.split('/').collect();
        let (host, namespace, name) = match parts.as_slice() {
            [name] => (registry_host(view), "hashicorp", *name),
            [namespace, name] => (registry_host(view), *namespace, *name),
            [host, namespace, name] => (*host, *namespace, *name),
            _ => return None,
        };
        let name = part(name)?;
        if name.starts_with("terraform-") {
            return None;
        }
        let host_is_plain = !host.is_empty()
            && (host.bytes()).all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
        Some(ProviderAddress {
            host: host_is_plain.then(|| host.to_ascii_lowercase())?,
            namespace: part(namespace)?,
            name,
        })
    }

    /// The address a local name stands for when no `required_providers` entry says otherwise:
    /// `hashicorp/NAME` on the view's registry (`addrs.NewDefaultProvider`).
    pub(crate) fn implied(local_name: &str, view: View) -> Option<ProviderAddress> {
        Some(ProviderAddress {
            host: registry_host(view).to_string(),
            namespace: "hashicorp".to_string(),
            name: part(local_name)?,
        })
    }

    /// As the tools print it (`ForDisplay`): without the host when it is the view's registry.
    pub(crate) fn for_display(&self, view: View) -> String {
        if self.host == registry_host(view) {
            format!("{}/{}", self.namespace, self.name)
        } else {
            format!("{}/{}/{}", self.host, self.namespace, self.name)
        }
    }
}

/// The registry a source without a host names.
fn registry_host(view: View) -> &'static str {
    match view {
        View::Terraform => "registry.terraform.io",
        View::OpenTofu => "registry.opentofu.org",
    }
}

/// A namespace or type, lower-cased: ASCII letters, digits and dashes, a dash neither first,
/// last nor doubled (`ParseProviderPart`).
fn part(given: &str) -> Option<String> {
    let valid = !given.is_empty()
        && (given.bytes()).all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && !given.starts_with('-')
        && !given.ends_with('-')
        && !given.contains("--");
    valid.then(|| given.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(source: &str, view: View) -> Option<String> {
        ProviderAddress::parse(source, view).map(|a| a.for_display(view))
    }

    #[test]
    fn sources_parse_as_the_tools_normalise_them() {
        let t = View::Terraform;
        assert_eq!(shown("aws", t).as_deref(), Some("hashicorp/aws"));
        assert_eq!(shown("Example/Foo", t).as_deref(), Some("example/foo"));
        assert_eq!(
            ProviderAddress::parse("Registry.Terraform.io/example/foo", t),
            ProviderAddress::parse("example/foo", t)
        );
        assert_eq!(
            shown("registry.terraform.io/example/foo", View::OpenTofu).as_deref(),
            Some("registry.terraform.io/example/foo")
        );
        assert_eq!(
            shown("example/foo", View::OpenTofu).as_deref(),
            Some("example/foo")
        );
        for unread in [
            "",
            "a/b/c/d",
            "example//foo",
            "-/foo",
            "example/terraform-provider-foo",
            "example/fo_o",
            "ex--ample/foo",
            "host:443/example/foo",
            "exämple/foo",
        ] {
            assert_eq!(ProviderAddress::parse(unread, t), None, "{unread}");
        }
    }

    #[test]
    fn a_local_name_alone_implies_hashicorp() {
        let implied = ProviderAddress::implied("Foo", View::Terraform);
        assert_eq!(
            implied,
            ProviderAddress::parse("hashicorp/foo", View::Terraform)
        );
        assert_eq!(ProviderAddress::implied("foo_bar", View::Terraform), None);
    }
}
