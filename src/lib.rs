//! tflint-merge: lints Terraform and OpenTofu module directories as the tools really load them,
//! with override files merged in.
//!
//! The pipeline has one module per stage: [`discover`] → [`syntax`] (parse) → [`load`]
//! (classify files per view) → [`merge`] → rules → [`report`]. Terragrunt trees
//! (`terragrunt.hcl` and the `.hcl` files they reference) are checked as one graph by
//! [`terragrunt`], in the same parallel run.

pub mod backends;
pub mod cli;
pub mod config;
pub mod diagnostic;
pub mod discover;
pub mod load;
pub mod merge;
pub mod module_source;
pub mod pipeline;
pub mod print;
pub mod report;
pub mod rules;
pub mod source;
pub mod syntax;
pub mod terragrunt;
pub mod version;

/// The project's home page.
pub const PROJECT_URL: &str = "https://github.com/tflint-merge/tflint-merge";

/// Where rule documentation lives; every diagnostic links to `<base>/<rule_id>.md`.
pub const RULES_DOC_BASE: &str = "https://github.com/tflint-merge/tflint-merge/blob/main/rules";
