#![no_main]
//! Fuzz target `state_bytes`: see `tradewinds::harness::targets::fuzz_state_bytes`.
use libfuzzer_sys::fuzz_target;
use tradewinds::harness::targets::fuzz_state_bytes;
use tradewinds::harness::triage::{run_target, Outcome};

fuzz_target!(|data: &[u8]| {
    if let Outcome::Failed(e) = run_target(fuzz_state_bytes, data) {
        panic!("{e}");
    }
});
