//! The parts of the rule engine that are not rules: settings (what runs, at which severity) and
//! inline ignores. Kept apart so that every `src/rules/<id>.rs` is a rule with a doc.

pub mod ignore;
pub mod settings;
