//! A state that loads is a state that plays: the check the fuzz targets run on every saved
//! state that loads (`targets`), and the tests on every game's reachable states.
//!
//! [`check_plays_on`] plays random games on from a loaded state and checks, at every step,
//! that the game's own saved-state validator accepts the state play reached (a validator
//! check that play can reach must already hold when the state is loaded), that a state that
//! has not ended has a legal action or a chance outcome, and the light invariants of
//! [`check_state`]. A panic on the way is caught by the caller ([`super::triage`]).

use crate::engine::dynamic::{DynGame, DynState};
use crate::engine::rng::{derive_seed, rng_from_seed};

use super::invariants::{check_state, random_legal, Check};

/// Plays `games` random games of at most `moves` moves each on from `state` (a state of
/// `game`), checking every state reached (see the module documentation). `seed` picks the
/// moves.
pub fn check_plays_on(game: &dyn DynGame, state: &dyn DynState, seed: u64, games: usize, moves: usize) -> Check {
    for g in 0..games {
        let mut rng = rng_from_seed(derive_seed(seed, g as u64));
        let mut s = state.clone_box();
        for i in 0..=moves {
            let at = |e: String| format!("game {g} played on from a loaded state, after {i} moves: {e}");
            game.state_from_bytes(&s.to_bytes())
                .map_err(|e| at(format!("the validator refuses the state play reached: {e}")))?;
            ensure!(s.is_terminal() || !s.legal_actions().is_empty(), "{}", at("no legal action and no chance outcome before the end".into()));
            check_state(game, &*s, false, seed).map_err(at)?;
            let Some(a) = random_legal(&*s, &mut rng) else { break };
            if i == moves {
                break;
            }
            s.apply(a).map_err(|e| at(format!("legal action {a} rejected: {e}")))?;
        }
    }
    Ok(())
}
