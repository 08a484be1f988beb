//! A fixed workload for profilers: `GAMES` random rollouts of North Wind with `PLAYERS`
//! players (seeds 0..GAMES), printing the number of decisions played. Instruction counts
//! under callgrind are repeatable whatever else the machine does (docs/performance.md):
//!
//! ```text
//! CARGO_PROFILE_RELEASE_DEBUG=true cargo build --release --example profile_rollouts
//! valgrind --tool=callgrind target/release/examples/profile_rollouts 300 3
//! callgrind_annotate --inclusive=yes callgrind.out.*
//! ```
//!
//! With a third argument `BATCH`, the same random play goes through batched stepping
//! (`engine::vector`, the loop behind `tw.VectorGame`): `BATCH` games stepped together on one
//! thread, each decision a random legal action chosen from the mask, until `GAMES` games have
//! ended; `VectorGame::step`'s inclusive count over the decisions printed is the cost of a
//! batched decision. A fourth argument, `mask` (the default), `actions` or `both`, says which
//! forms of the legal actions the steps write (`LegalOutput`); with `actions` the random
//! choice reads the lists.

use std::sync::Arc;

use tradewinds::engine::rng::{below, rng_from_seed};
use tradewinds::engine::prelude::*;
use tradewinds::engine::{random_rollout, LegalOutput, Result, VectorConfig, VectorGame};
use tradewinds::games::north_wind::NorthWind;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, what: &str| args.get(i).map(|a| a.parse::<u64>().expect(what));
    let games = number(0, "GAMES: a number of games").unwrap_or(300);
    let players = number(1, "PLAYERS: a player count").unwrap_or(3);
    let batch = number(2, "BATCH: a number of games stepped together");
    let legal: LegalOutput = args.get(3).map_or(Ok(LegalOutput::Mask), |a| a.parse())?;
    let options = serde_json::json!({ "players": players });
    let game = NorthWind::load(options.as_object().expect("an object"))?;
    if let Some(batch) = batch {
        return batched(game, games, batch as usize, legal);
    }
    let mut buf = Vec::with_capacity(64);
    let mut decisions = 0;
    for seed in 0..games {
        let mut rng = rng_from_seed(seed);
        let mut state = game.initial_state();
        decisions += random_rollout(&game, &mut state, &mut rng, &mut buf);
    }
    println!("{decisions} decisions in {games} games");
    Ok(())
}

fn batched(game: NorthWind, games: u64, batch: usize, legal: LegalOutput) -> Result<()> {
    let config = VectorConfig { num_games: batch, threads: 1, legal, ..Default::default() };
    let mut v = VectorGame::new(Arc::new(game), config)?;
    let mut out = v.buffers();
    v.write(out.outputs())?;
    let width = v.row_sizes().actions;
    let mut actions = vec![0i64; batch];
    let mut rng = rng_from_seed(0);
    let (mut ended, mut decisions) = (0u64, 0u64);
    while ended < games {
        for (i, a) in actions.iter_mut().enumerate() {
            *a = if legal.mask() {
                let row = &out.legal_mask[i * width..(i + 1) * width];
                let k = below(&mut rng, row.iter().filter(|&&m| m).count() as u32) as usize;
                row.iter().enumerate().filter(|(_, &m)| m).nth(k).map_or(-1, |(x, _)| x as i64)
            } else {
                let listed = out.legal_actions_of(i);
                listed[below(&mut rng, listed.len() as u32) as usize] as i64
            };
        }
        ended += v.step(&actions, out.outputs())? as u64;
        decisions += batch as u64;
    }
    println!("{decisions} decisions in batches of {batch}, {ended} games ended");
    Ok(())
}
