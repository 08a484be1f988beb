//! A fixed workload for profilers: `GAMES` random rollouts of North Wind with `PLAYERS`
//! players (seeds 0..GAMES), printing the number of decisions played. Instruction counts
//! under callgrind are repeatable whatever else the machine does (docs/performance.md):
//!
//! ```text
//! CARGO_PROFILE_RELEASE_DEBUG=true cargo build --release --example profile_rollouts
//! valgrind --tool=callgrind target/release/examples/profile_rollouts 300 3
//! callgrind_annotate --inclusive=yes callgrind.out.*
//! ```

use tradewinds::engine::rng::rng_from_seed;
use tradewinds::engine::{random_rollout, Game, GameDefinition, Result};
use tradewinds::games::north_wind::NorthWind;

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<u64>());
    let games = args.next().unwrap_or(Ok(300)).expect("GAMES: a number of games");
    let players = args.next().unwrap_or(Ok(3)).expect("PLAYERS: a player count");
    let options = serde_json::json!({ "players": players });
    let game = NorthWind::load(options.as_object().expect("an object"))?;
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
