//! A bounded, deterministic run of the three fuzz targets' bodies (`fuzz/fuzz_targets/`),
//! so that their checks run on every `cargo test` even where cargo-fuzz is not installed.
//! Inputs come from a fixed pseudo-random generator: the same inputs every run. A failure
//! prints the input as hex; save it as a file and replay it with
//! `cargo fuzz run <target> <file>` (see docs/reliability.md).

use rand_core::RngCore;

use tradewinds::engine::rng::{derive_seed, rng_from_seed};
use tradewinds::harness::configurations::registry;
use tradewinds::harness::invariants::Check;
use tradewinds::harness::targets::{fuzz_action_stream, fuzz_data_text, fuzz_state_bytes};
use tradewinds::harness::scaled;
use tradewinds::harness::triage::{run_target, Outcome};

/// Input `i` of a run seeded by `seed`: a length in `0..max_len` (biased to short), then
/// bytes that are mostly uniform, sometimes runs of one value (long runs of small op codes
/// reach deep states).
fn input(seed: u64, i: u64, max_len: usize) -> Vec<u8> {
    let mut rng = rng_from_seed(derive_seed(seed, i));
    let len = match rng.next_u32() % 4 {
        0 => (rng.next_u32() as usize) % 16,
        1 | 2 => (rng.next_u32() as usize) % (max_len / 4 + 1),
        _ => (rng.next_u32() as usize) % (max_len + 1),
    };
    let mut v = vec![0u8; len];
    rng.fill_bytes(&mut v);
    if rng.next_u32() % 3 == 0 && len > 16 {
        // A run of one byte over part of the input.
        let start = (rng.next_u32() as usize) % len;
        let end = start + (rng.next_u32() as usize) % (len - start);
        let b = (rng.next_u32() % 256) as u8;
        v[start..end].fill(b);
    }
    v
}

fn hex(data: &[u8]) -> String {
    data.iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs `target` on `count` inputs (times `TRADEWINDS_CHECKS_SCALE`); a broken invariant or a
/// panic fails with the input.
fn run(name: &str, target: fn(&[u8]) -> Check, seed: u64, count: usize, max_len: usize) {
    for i in 0..scaled(count) as u64 {
        let data = input(seed, i, max_len);
        if let Outcome::Failed(e) = run_target(target, &data) {
            panic!("{name}: input {i} fails: {e}\ninput (hex): {}", hex(&data));
        }
    }
}

#[test]
fn the_registry_is_fuzzed_in_every_configuration() {
    let reg = registry();
    for name in tradewinds::games::registered() {
        let n = reg.iter().filter(|e| e.name == name).count();
        assert_eq!(n, tradewinds::games::all_configurations(name).len(), "{name}");
        assert!(n > 0, "{name} has no configuration to fuzz");
    }
}

#[test]
fn bounded_fuzz_action_stream() {
    run("action_stream", fuzz_action_stream, 1, 200, 512);
}

#[test]
fn bounded_fuzz_state_bytes() {
    run("state_bytes", fuzz_state_bytes, 2, 400, 256);
}

#[test]
fn bounded_fuzz_data_text() {
    run("data_text", fuzz_data_text, 3, 400, 256);
}

/// Every committed corpus input of `target` (`fuzz/corpus/<name>/`) passes its checks.
fn replay_corpus(name: &str, target: fn(&[u8]) -> Check) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(name);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no committed corpus for {name}");
    for path in files {
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Outcome::Failed(e) = run_target(target, &data) {
            panic!("{name}: corpus file {} fails: {e}", path.display());
        }
    }
}

#[test]
fn the_committed_corpus_replays() {
    replay_corpus("action_stream", fuzz_action_stream);
    replay_corpus("state_bytes", fuzz_state_bytes);
    replay_corpus("data_text", fuzz_data_text);
}
