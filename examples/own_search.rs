//! A Rust program that plays North Wind with its own search, through the engine trait alone.
//!
//! Seat 0 uses flat Monte Carlo: for each legal action it plays `PLAYOUTS` random games to the
//! end from the resulting position (resampling what it cannot see first, so it never peeks at
//! the hidden stacks) and picks the action with the best mean return. The other seats play at
//! random.
//!
//! ```text
//! cargo run --release --example own_search -- [games] [playouts]
//! ```

use std::sync::Arc;

use tradewinds::engine::rng::{below, derive_seed, rng_from_seed};
use tradewinds::engine::prelude::*;
use tradewinds::engine::{random_rollout, Action, Actor, GameState};
use tradewinds::games::north_wind::NorthWind;

fn flat_monte_carlo<G: Game>(game: &G, state: &G::State, me: usize, playouts: u32, seed: u64) -> Action {
    let mut rng = rng_from_seed(seed);
    let mut legal = Vec::new();
    game.legal_actions(state, &mut legal);
    let mut buf = Vec::new();
    let mut returns = vec![0.0; game.spec().players];
    let mut best = (f64::NEG_INFINITY, legal[0]);
    for &a in &legal {
        let mut total = 0.0;
        for _ in 0..playouts {
            // A world consistent with what `me` has seen, then the action, then random play.
            let mut world = game.resample(state, me, &mut rng);
            game.apply(&mut world, a);
            random_rollout(game, &mut world, &mut rng, &mut buf);
            game.returns(&world, &mut returns);
            total += returns[me];
        }
        let mean = total / playouts as f64;
        if mean > best.0 {
            best = (mean, a);
        }
    }
    best.1
}

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let games = args.first().copied().unwrap_or(4);
    let playouts = args.get(1).copied().unwrap_or(8) as u32;
    let options = serde_json::json!({"players": 3});
    let game = Arc::new(NorthWind::load(options.as_object().unwrap()).expect("valid options"));
    let mut wins = 0;
    for g in 0..games {
        let mut state = GameState::new(Arc::clone(&game), g, false);
        let mut rng = rng_from_seed(1000 + g);
        while let Actor::Player(p) = state.actor() {
            let a = if p == 0 {
                flat_monte_carlo(&*game, state.inner(), 0, playouts, derive_seed(g, state.move_number()))
            } else {
                let legal = state.legal_actions();
                legal[below(&mut rng, legal.len() as u32) as usize]
            };
            state.apply(a).expect("chosen from the legal actions");
        }
        let winners = state.winners();
        wins += winners.contains(&0) as u32;
        println!("game {g}: winners {winners:?}, scores {:?}", state.scores());
    }
    println!("flat Monte Carlo (seat 0) won {wins} of {games} games against two random seats");
}
