//! Native random-rollout benchmark, one core: games/s and decisions/s for each game and
//! player count. Run with `cargo bench --bench rollouts`. It asserts what it computed: the
//! same seeds give the same score checksum on every repetition.

use std::time::Instant;

use serde_json::{Map, Value};
use tradewinds::engine::rng::{derive_seed, rng_from_seed};
use tradewinds::engine::{random_rollout, Game};
use tradewinds::games::north_wind::NorthWind;

fn bench<G: Game>(label: &str, game: &G, games: u64) {
    let mut buf = Vec::with_capacity(64);
    let mut scores = vec![0.0; game.spec().players];
    let mut checksum_first = None;
    let mut best = f64::INFINITY;
    let mut decisions_total = 0;
    for _rep in 0..3 {
        let start = Instant::now();
        let mut decisions = 0u64;
        let mut checksum = 0f64;
        let mut truncated = 0;
        for i in 0..games {
            let mut rng = rng_from_seed(derive_seed(1, i));
            let mut state = game.initial_state();
            decisions += random_rollout(game, &mut state, &mut rng, &mut buf);
            game.scores(&state, &mut scores);
            checksum += scores.iter().enumerate().map(|(p, s)| (p as f64 + 1.0) * s).sum::<f64>();
            truncated += game.is_truncated(&state) as u32;
        }
        let t = start.elapsed().as_secs_f64();
        match checksum_first {
            None => checksum_first = Some((checksum, decisions, truncated)),
            Some(c) => assert_eq!(c, (checksum, decisions, truncated), "rollouts are not reproducible"),
        }
        best = best.min(t);
        decisions_total = decisions;
    }
    let (checksum, _, truncated) = checksum_first.unwrap();
    println!(
        "{label:<24} {games:>6} games  {:>10.0} games/s  {:>12.0} decisions/s  {:>6.1} decisions/game  truncated {truncated}  checksum {checksum}",
        games as f64 / best,
        decisions_total as f64 / best,
        decisions_total as f64 / games as f64,
    );
}

fn main() {
    for players in 2..=4 {
        let mut o = Map::new();
        o.insert("players".into(), Value::from(players));
        let g = NorthWind::new(&o).unwrap();
        bench(&format!("north-wind {players}p"), &g, 2000);
    }
}
