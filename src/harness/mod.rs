//! The test harness shared by every game: the invariants every state keeps, the
//! random-simulation conformance suite, golden playthroughs, and the fuzz targets with their
//! inputs and mutators. It sits on top of the engine and the registered games
//! (`engine` → `games` → `harness`): neither imports it.
//!
//! * [`invariants`]: what must hold for one state, one `apply`, one named action, and for
//!   random play checked step by step.
//! * [`loaded`]: a state that loads plays on: validated, with a move, at every step.
//! * [`conformance`]: the random-simulation suite each game runs in every configuration.
//! * [`log`]: the readable log tells each seat only what it may know; records replay to the
//!   identical state and log.
//! * [`secrets`]: resampling for a seat keeps who is asked, what is offered, the move names
//!   it sees, its log and its picture: secrets are kept on every channel.
//! * [`xml`]: the pictures are well-formed XML.
//! * [`configurations`]: every registered game in every configuration, built once.
//! * [`vocabulary`]: the words of the registered games (action names, saved-state and data
//!   file text), which the mutators use to make text a game may recognise.
//! * [`input`]: fuzz input bytes read as numbers.
//! * [`mutate`]: byte-level and structural (JSON) mutations of saved states and data files.
//! * [`targets`]: the three fuzz targets' bodies (`fuzz/`, `tests/fuzz_bounded.rs`).
//! * [`triage`]: running a check, catching a panic, and saying how it fared.
//! * [`hostile`]: hostile saved states: edited or damaged, refused with a `StateFormat`
//!   error, never a panic.
//! * [`positions`]: states partway through a game or at its end, by seeded play.
//! * [`playthrough`]: seeded playthroughs as text, from the start or from a given position.
//! * [`golden`]: golden files of those playthroughs, for every registered configuration
//!   and for the edge positions a game's own tests choose.
//! * [`tensor_doc`]: an observation tensor decoded by the fields its game's doc lists.

/// Returns `Err(format!(...))` from the enclosing check unless `cond` holds.
macro_rules! ensure {
    ($cond:expr, $($arg:tt)*) => {
        match $cond {
            true => {}
            false => return Err(format!($($arg)*)),
        }
    };
}

/// The size of a bounded check: `n` as `cargo test` runs it, times the whole number in the
/// environment variable `TRADEWINDS_CHECKS_SCALE` (default 1). The heavy form of the
/// suite's bounded checks (the conformance run's games, the fuzz targets' inputs, the batch
/// sizes) is the same suite with a larger factor, for example
/// `TRADEWINDS_CHECKS_SCALE=10 cargo test --release` (docs/reliability.md).
pub fn scaled(n: usize) -> usize {
    match std::env::var("TRADEWINDS_CHECKS_SCALE") {
        Err(_) => n,
        Ok(v) => match v.trim().parse::<usize>() {
            Ok(k) if k >= 1 => n.saturating_mul(k),
            _ => panic!("TRADEWINDS_CHECKS_SCALE must be a whole number of at least 1, not {v:?}"),
        },
    }
}

pub mod configurations;
pub mod conformance;
pub mod golden;
pub mod hostile;
pub mod input;
pub mod invariants;
pub mod loaded;
pub mod log;
pub mod mutate;
pub mod playthrough;
pub mod positions;
pub mod secrets;
pub mod xml;
pub mod targets;
pub mod tensor_doc;
pub mod triage;
pub mod vocabulary;
