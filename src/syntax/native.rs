//! Native syntax (`.tf`, `.tofu`, Terragrunt `.hcl`): parsed by our own parser
//! ([`super::hcl`]) straight into the [`crate::syntax`] model.

pub(crate) use super::hcl::{TemplatePart, expr_template_parts, parse, parse_expr_at};
