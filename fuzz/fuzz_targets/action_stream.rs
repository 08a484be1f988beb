#![no_main]
//! Fuzz target `action_stream`: see `tradewinds::harness::targets::fuzz_action_stream`.
use libfuzzer_sys::fuzz_target;
use tradewinds::harness::targets::fuzz_action_stream;
use tradewinds::harness::triage::{run_target, Outcome};

fuzz_target!(|data: &[u8]| {
    if let Outcome::Failed(e) = run_target(fuzz_action_stream, data) {
        panic!("{e}");
    }
});
