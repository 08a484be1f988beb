//! Seeded playthroughs as text: a whole random game, move by move, for golden files
//! ([`super::golden`]).

use std::fmt::Write;
use std::sync::Arc;

use crate::engine::game::{Actor, Game};
use crate::engine::rng::{below, derive_seed, rng_from_seed};
use crate::engine::state::GameState;

/// Plays game `seed` with uniformly random decisions (explicit chance, sampled from the
/// state's RNG) and writes every move, the table every `board_every` moves, and the final
/// score report.
pub fn playthrough<G: Game>(game: Arc<G>, seed: u64, board_every: u64) -> String {
    let header = format!("# {} seed {seed} config {}", game.spec().name, game.config());
    play_out(GameState::new(game, seed, true), &header, seed, board_every)
}

/// [`playthrough`] from a given state (a position built with the game's `setup`): the
/// same random decisions and chance draws for `seed`, the table first (move 0), then every
/// `board_every` moves, and the final score report.
pub fn playthrough_from<G: Game>(game: Arc<G>, state: G::State, seed: u64, board_every: u64) -> String {
    let header = format!("# {} seed {seed} config {} from a given position", game.spec().name, game.config());
    play_out(GameState::from_parts(game, state, rng_from_seed(seed), true), &header, seed, board_every)
}

fn play_out<G: Game>(mut st: GameState<G>, header: &str, seed: u64, board_every: u64) -> String {
    let mut out = String::new();
    let mut rng = rng_from_seed(derive_seed(seed, 0xB0A7));
    let _ = writeln!(out, "{header}");
    loop {
        if st.move_number() % board_every == 0 {
            let _ = writeln!(out, "\n{}", st.render());
        }
        match st.actor() {
            Actor::Terminal => break,
            Actor::Chance => {
                let a = st.game().sample_chance(st.inner(), &mut rng);
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

/// The move number a playthrough's line records, if it is a move line (`  123 P0      pass`,
/// `  124 chance  reveal:Fog#1`): what [`super::golden`] names a difference by.
pub fn move_of_line(line: &str) -> Option<u64> {
    let rest = line.trim_start();
    let (number, rest) = rest.split_once(' ')?;
    let n = number.parse().ok()?;
    let actor = rest.split(' ').next()?;
    let is_player = actor.strip_prefix('P').is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    (actor == "chance" || is_player).then_some(n)
}
