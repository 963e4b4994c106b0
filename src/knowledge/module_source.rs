//! What kind of module source address a string is (hashicorp/terraform
//! `internal/addrs/module_source.go`, `ParseModuleSource`;
//! <https://developer.hashicorp.com/terraform/language/modules/sources>).

/// The kinds of `source` a module call can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SourceKind {
    /// `./x` or `../x`: a directory of this repository.
    Local,
    /// `[host/]namespace/name/system[//subdir]`: a module registry address, the only kind
    /// that takes a `version`.
    Registry,
    /// A go-getter address (`git::`, `https://`, `github.com/...`, `s3::`...): versioned by
    /// the address itself.
    Remote,
    /// Neither: both tools reject it (`Invalid module source address`).
    Invalid,
}

const REMOTE_PREFIXES: &[&str] = &[
    "git::",
    "hg::",
    "s3::",
    "gcs::",
    "http::",
    "https::",
    "http://",
    "https://",
    "github.com/",
    "bitbucket.org/",
    "git@",
];

pub(crate) fn classify(source: &str) -> SourceKind {
    if source.starts_with("./") || source.starts_with("../") || source == "." || source == ".." {
        return SourceKind::Local;
    }
    if REMOTE_PREFIXES.iter().any(|p| source.starts_with(p)) {
        return SourceKind::Remote;
    }
    let address = source.split("//").next().unwrap_or(source);
    let parts: Vec<&str> = address.split('/').collect();
    let is_name = |p: &str| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    let is_host = |p: &str| {
        !p.is_empty()
            && p.contains('.')
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || ".-:".contains(c))
    };
    match parts.as_slice() {
        [ns, name, system] if is_name(ns) && is_name(name) && is_name(system) => {
            SourceKind::Registry
        }
        [host, ns, name, system]
            if is_host(host) && is_name(ns) && is_name(name) && is_name(system) =>
        {
            SourceKind::Registry
        }
        _ => SourceKind::Invalid,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_sources() {
        for (source, kind) in [
            ("./modules/vpc", SourceKind::Local),
            ("../shared", SourceKind::Local),
            ("terraform-aws-modules/vpc/aws", SourceKind::Registry),
            ("app.terraform.io/acme/vpc/aws", SourceKind::Registry),
            (
                "registry.opentofu.org/acme/vpc/aws//modules/sub",
                SourceKind::Registry,
            ),
            (
                "git::https://example.com/vpc.git?ref=v1.2.0",
                SourceKind::Remote,
            ),
            ("github.com/hashicorp/example", SourceKind::Remote),
            ("git@github.com:hashicorp/example.git", SourceKind::Remote),
            ("https://example.com/vpc-module.zip", SourceKind::Remote),
            (
                "s3::https://s3-eu-west-1.amazonaws.com/bucket/vpc.zip",
                SourceKind::Remote,
            ),
            ("stage", SourceKind::Invalid),
            ("modules/vpc", SourceKind::Invalid),
            ("", SourceKind::Invalid),
        ] {
            assert_eq!(classify(source), kind, "{source}");
        }
    }
}
