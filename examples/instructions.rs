//! A fixed workload for instruction counts in every configuration: random play of `GAMES`
//! games (seeds 0..GAMES) of one configuration of one game, through the game's concrete type,
//! printing the decisions and steps (decisions plus chance outcomes) played.
//! `benches/instructions.py` runs it under `valgrind --tool=callgrind` for every configuration
//! and divides the instructions by the decisions and by the steps (docs/performance.md).
//!
//! ```text
//! cargo build --release --example instructions
//! target/release/examples/instructions --list            # GAME INDEX OPTIONS, a line each
//! target/release/examples/instructions norsewind 3 200   # 200 games of Norsewind's 4th configuration
//! ```

use tradewinds::engine::prelude::*;
use tradewinds::engine::rng::{below, rng_from_seed};
use tradewinds::engine::{Actor, Result};
use tradewinds::games::{self, Visitor};

struct List;

impl Visitor for List {
    type Output = Vec<String>;
    fn visit<G: GameDefinition>(self) -> Vec<String> {
        G::configurations().iter().map(|c| serde_json::Value::Object(c.clone()).to_string()).collect()
    }
}

struct Play {
    index: usize,
    games: u64,
}

impl Visitor for Play {
    type Output = Result<(u64, u64)>;
    fn visit<G: GameDefinition>(self) -> Result<(u64, u64)> {
        let configurations = G::configurations();
        let options = configurations.get(self.index).expect("INDEX: one of the game's configurations");
        let game = G::load(options)?;
        let mut buf = Vec::with_capacity(256);
        let (mut decisions, mut steps) = (0u64, 0u64);
        for seed in 0..self.games {
            let mut rng = rng_from_seed(seed);
            let mut state = game.initial_state();
            loop {
                match game.actor(&state) {
                    Actor::Terminal => break,
                    Actor::Chance => {
                        let a = game.sample_chance(&state, &mut rng);
                        game.apply(&mut state, a);
                    }
                    Actor::Player(_) => {
                        game.legal_actions(&state, &mut buf);
                        let a = buf[below(&mut rng, buf.len() as u32) as usize];
                        game.apply(&mut state, a);
                        decisions += 1;
                    }
                }
                steps += 1;
            }
        }
        Ok((decisions, steps))
    }
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--list") {
        for name in games::registered() {
            for (i, c) in games::visit(name, List)?.iter().enumerate() {
                println!("{name}\t{i}\t{c}");
            }
        }
        return Ok(());
    }
    let [name, index, count] = &args[..] else {
        panic!("usage: instructions --list | instructions GAME INDEX GAMES");
    };
    let index = index.parse().expect("INDEX: a number");
    let count = count.parse().expect("GAMES: a number");
    let (decisions, steps) = games::visit(name, Play { index, games: count })??;
    println!("{decisions} decisions {steps} steps");
    Ok(())
}
