#![no_main]
//! Fuzz target `data_text`: see `tradewinds::harness::targets::fuzz_data_text`.
use libfuzzer_sys::fuzz_target;
use tradewinds::harness::targets::fuzz_data_text;
use tradewinds::harness::triage::{run_target, Outcome};

fuzz_target!(|data: &[u8]| {
    if let Outcome::Failed(e) = run_target(fuzz_data_text, data) {
        panic!("{e}");
    }
});
