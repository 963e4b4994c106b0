//! Native syntax: parse work grows linearly with the input. The input is a shape (a prefix, a
//! unit, a suffix: `tflint_merge::fuzzing::super_linear_growth`), parsed with 4 and with 32
//! units; more than about 8 times the parse steps is a finding, measured in steps, not time.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(growth) = tflint_merge::fuzzing::super_linear_growth(data) {
        panic!("{growth}");
    }
});
