//! Hostile saved states, the checks the hostile-input tests share (docs/reliability.md): an
//! edited or damaged saved state gives a `StateFormat` error that names what was wrong, and
//! never a panic.

use serde_json::Value;

use super::invariants::Check;
use super::triage::{run_checked, Outcome};
use crate::engine::{DynGame, DynState, EngineError};

/// An edit of a saved state's or a data file's JSON.
pub type Edit = Box<dyn Fn(&mut Value)>;

/// The message of a `StateFormat` error; panics on any other result.
pub fn state_format(r: Result<Box<dyn DynState>, EngineError>) -> String {
    match r {
        Err(EngineError::StateFormat(m)) => m,
        Err(e) => panic!("wrong kind of error: {e:?}"),
        Ok(_) => panic!("a hostile saved state loaded"),
    }
}

/// Each case `(what, edit, needle)` edits `saved` (a saved state of `game` as JSON): the
/// edited state is refused with a `StateFormat` error whose message contains `needle`.
pub fn check_edits_refused(game: &dyn DynGame, saved: &Value, cases: Vec<(&str, Edit, &str)>) {
    for (what, edit, needle) in cases {
        let mut w = saved.clone();
        edit(&mut w);
        let m = state_format(game.state_from_json(&w.to_string()));
        assert!(m.contains(needle), "{what}: {m}");
    }
}

/// Flipping bit 0x01 or 0x80 of any byte of `bytes` (a saved state of `game`) never panics:
/// the result is refused with a `StateFormat` error, or it loads and passes `loaded`.
/// `context` starts each failure's message.
pub fn check_flipped_bits(game: &dyn DynGame, bytes: &[u8], context: &str, loaded: impl Fn(Box<dyn DynState>) -> Check) {
    for i in 0..bytes.len() {
        for bit in [0x01u8, 0x80] {
            let mut b = bytes.to_vec();
            b[i] ^= bit;
            let outcome = run_checked(|| match game.state_from_bytes(&b) {
                Err(EngineError::StateFormat(_)) => Ok(()),
                Err(e) => Err(format!("wrong kind of error {e:?}")),
                Ok(t) => loaded(t),
            });
            assert_eq!(outcome, Outcome::Passed, "{context}byte {i} ^ {bit:#x}");
        }
    }
}
