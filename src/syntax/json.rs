//! JSON syntax (`.tf.json`, `.tofu.json`): placeholder until the JSON lowering lands.
use super::{Parsed, SyntaxError};
use crate::source::{FileId, Span};

pub fn parse(id: FileId, _text: &str) -> Parsed {
    Parsed {
        file: Err(SyntaxError {
            message: "JSON syntax is not supported yet".into(),
            span: Span::new(id, 0..0),
        }),
        duplicate_attributes: Vec::new(),
    }
}
