//! Seeded playthroughs as text: a whole random game, move by move, for golden files.

use std::fmt::Write;
use std::sync::Arc;

use crate::engine::game::{Actor, Game};
use crate::engine::rng::{below, derive_seed, rng_from_seed};
use crate::engine::state::GameState;

/// Plays game `seed` with uniformly random decisions (explicit chance, sampled from the
/// state's RNG) and writes every move, the table every `board_every` moves, and the final
/// score report.
pub fn playthrough<G: Game>(game: Arc<G>, seed: u64, board_every: u64) -> String {
    let mut out = String::new();
    let mut st = GameState::new(Arc::clone(&game), seed, true);
    let mut rng = rng_from_seed(derive_seed(seed, 0xB0A7));
    let _ = writeln!(out, "# {} seed {seed} config {}", game.spec().name, game.config());
    loop {
        if st.move_number() % board_every == 0 {
            let _ = writeln!(out, "\n{}", st.render());
        }
        match st.actor() {
            Actor::Terminal => break,
            Actor::Chance => {
                let a = game.sample_chance(st.inner(), &mut rng);
                let _ = writeln!(out, "{:>5} chance  {}", st.move_number(), st.action_to_string(a));
                st.apply(a).expect("sampled outcome is legal");
            }
            Actor::Player(p) => {
                let legal = st.legal_actions();
                let a = legal[below(&mut rng, legal.len() as u32) as usize];
                let _ = writeln!(out, "{:>5} P{p}      {}", st.move_number(), st.action_to_string(a));
                st.apply(a).expect("chosen action is legal");
            }
        }
    }
    let _ = writeln!(out, "\n{}\n{}", st.render(), st.score_report().to_table());
    out
}
