//! Native syntax: any text parses or fails to parse, in linear time, without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        tflint_merge::fuzzing::parse_native(text);
    }
});
