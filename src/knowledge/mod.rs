//! What tflint-merge knows about Terraform and OpenTofu themselves, in one place: the two tools,
//! which file names they load, the backends they have, the arguments their blocks take, module
//! source address forms and version constraints. Everything here is data or pure functions, so
//! the later stages (module, lint, rules) depend on it and it depends on nothing of theirs.

pub(crate) mod blocks;
pub(crate) mod features;
pub(crate) mod files;
pub(crate) mod function_signatures;
pub(crate) mod literal_arguments;
pub(crate) mod module_source;
pub(crate) mod provider_address;
pub(crate) mod releases;
pub(crate) mod version;

use std::fmt;

/// The two tools whose loading we reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum View {
    Terraform,
    OpenTofu,
}

impl View {
    pub const ALL: [View; 2] = [View::Terraform, View::OpenTofu];

    pub fn as_str(self) -> &'static str {
        match self {
            View::Terraform => "terraform",
            View::OpenTofu => "opentofu",
        }
    }

    pub fn tool_name(self) -> &'static str {
        match self {
            View::Terraform => "Terraform",
            View::OpenTofu => "OpenTofu",
        }
    }

    pub fn views(self) -> crate::diagnostic::Views {
        match self {
            View::Terraform => crate::diagnostic::Views::TERRAFORM,
            View::OpenTofu => crate::diagnostic::Views::OPENTOFU,
        }
    }
}

impl fmt::Display for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
