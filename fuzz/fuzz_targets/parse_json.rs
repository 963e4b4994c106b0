//! JSON syntax, templates in strings included: any text parses or fails, without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        tflint_merge::fuzzing::parse_json(text);
    }
});
