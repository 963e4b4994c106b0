//! The state backend types each tool knows, in one place (spec §7).

use crate::knowledge::View;

/// Backend types of current Terraform and OpenTofu.
const CURRENT: &[&str] = &[
    "local",
    "remote",
    "azurerm",
    "consul",
    "cos",
    "gcs",
    "http",
    "kubernetes",
    "oss",
    "pg",
    "s3",
];

/// Types removed from both tools, still seen in old docs and code.
pub(crate) const REMOVED: &[&str] = &["artifactory", "etcd", "etcdv3", "manta", "swift"];

/// The backend types `view`'s tool accepts.
pub(crate) fn known(view: View) -> &'static [&'static str] {
    // Both tools share the list today; kept per view so that a divergence is a one-line change.
    match view {
        View::Terraform | View::OpenTofu => CURRENT,
    }
}
