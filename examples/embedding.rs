//! Embedding the engine in a Rust program, without Python: every game of the registry by
//! name, explicit chance sampled by the caller, a built-in agent against random play, each
//! player's observation, and a resample that keeps it (docs/embedding.md shows this file).
//!
//! ```text
//! cargo run --release --example embedding
//! ```

use tradewinds::engine::rng::{below, rng_from_seed, unit_f64};
use tradewinds::engine::{AgentSpec, DynState, Result};
use tradewinds::games::{load, GAMES};

/// Draws a chance outcome with its probability.
fn sample_chance(state: &dyn DynState, u: f64) -> u32 {
    let outcomes = state.chance_outcomes();
    let mut acc = 0.0;
    for &(outcome, p) in &outcomes {
        acc += p;
        if u < acc {
            return outcome;
        }
    }
    outcomes.last().expect("a chance node has outcomes").0
}

fn main() -> Result<()> {
    let greedy: AgentSpec = "greedy".parse()?;
    for name in GAMES {
        let options = serde_json::json!({"players": 2});
        let game = load(name, options.as_object().expect("an object"))?;
        let spec = game.spec();
        println!(
            "{name}: {} actions, {} chance outcomes, observations of shape {:?}",
            spec.num_distinct_actions, spec.max_chance_outcomes, spec.observation_tensor_shape
        );

        // Explicit chance: the caller draws every shuffle, die roll and reveal.
        let mut state = game.new_state(7, true);
        let mut rng = rng_from_seed(7);
        while !state.is_terminal() {
            let action = if state.is_chance() {
                sample_chance(&*state, unit_f64(&mut rng))
            } else if state.current_player() == 0 {
                // Seat 0: the built-in greedy agent (one ply on the game's evaluation).
                state.agent_action(&greedy, state.move_number())?
            } else {
                let legal = state.legal_actions();
                legal[below(&mut rng, legal.len() as u32) as usize]
            };
            if state.move_number() == 100 && !state.is_chance() {
                // What the player to act may know, and a world drawn from it: the hidden
                // parts change, the player's observation does not.
                let p = state.current_player() as usize;
                let world = state.resample(p, 1)?;
                assert_eq!(world.observation_tensor(p)?, state.observation_tensor(p)?);
                assert_eq!(world.observation_string(p)?, state.observation_string(p)?);
            }
            state.apply(action)?;
        }
        println!("  {} moves, winners {:?}, returns {:?}", state.move_number(), state.winners(), state.returns());
    }
    Ok(())
}
