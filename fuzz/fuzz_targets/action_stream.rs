#![no_main]
//! Fuzz target `action_stream`: see `tradewinds::harness::fuzzing::fuzz_action_stream`.
use libfuzzer_sys::fuzz_target;
use tradewinds::harness::fuzzing::{fuzz_action_stream, run_target, Outcome};

fuzz_target!(|data: &[u8]| {
    if let Outcome::Failed(e) = run_target(fuzz_action_stream, data) {
        panic!("{e}");
    }
});
