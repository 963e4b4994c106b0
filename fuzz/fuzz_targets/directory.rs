//! A whole module directory: the input is split into files, which are checked with every rule
//! in both views, as a Terragrunt unit when one is named `terragrunt.hcl`, rendered in every
//! output format and printed as effective modules (see `tflint_merge::fuzzing`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    tflint_merge::fuzzing::check_files(data);
});
