//! Positions reached by seeded, deterministic play through the dynamic interface, for the
//! checks that need a state partway through a game or at its end (the hostile-input tests
//! of every game and of each game's own formats).

use std::sync::Arc;

use crate::engine::{DynGame, DynState, Game, GameState, Handle};

/// A state up to `moves` moves into game `seed` (the `(i * 7 + seed)`-th legal action at
/// move `i`), never past the last state before the end.
pub fn midgame(game: &dyn DynGame, seed: u64, explicit_chance: bool, moves: usize) -> Box<dyn DynState> {
    let mut s = game.new_state(seed, explicit_chance);
    for i in 0..moves {
        let legal = s.legal_actions();
        let mut next = s.clone_box();
        next.apply(legal[(i * 7 + seed as usize) % legal.len()]).expect("a legal action applies");
        if next.is_terminal() {
            break;
        }
        s = next;
    }
    s
}

/// Game `seed` played to its end (the `(i * 13 + 5)`-th legal action at move `i`, chance
/// resolved inside the state).
pub fn finished(game: &dyn DynGame, seed: u64) -> Box<dyn DynState> {
    let mut s = game.new_state(seed, false);
    let mut i = 0usize;
    while !s.is_terminal() {
        let legal = s.legal_actions();
        s.apply(legal[(i * 13 + 5) % legal.len()]).expect("a legal action applies");
        i += 1;
    }
    s
}

/// [`midgame`] (chance resolved inside the state) for a game of a known type: its own state.
pub fn midgame_state<G: Game>(game: &Arc<G>, seed: u64, moves: usize) -> G::State {
    let s = midgame(&Handle(Arc::clone(game)), seed, false, moves);
    s.as_any().downcast_ref::<GameState<G>>().expect("a state of this game").inner().clone()
}
