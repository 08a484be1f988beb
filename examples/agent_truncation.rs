//! Do the built-in agents finish their games? Self-play of each listed game, in each of its
//! configurations, with every seat played by the same built-in agent; prints, per agent and
//! configuration, how many games ended truncated at the game's turn bound, and the decisions
//! per game, mean (max) (a Markdown table, as in docs/simulation.md).
//!
//! ```text
//! cargo run --release --example agent_truncation -- [--seed S] [--threads T] [--game NAME] [--per-player-count] [SPEC@GAMES ...]
//! ```
//!
//! `--game NAME` (repeatable) plays only the games named, instead of every listed game; a
//! game registered but not listed can be named too.
//! `--per-player-count` plays, of each game, only the first of its configurations for each
//! player count (its base configuration: the game lists it first).
//! Each `SPEC@GAMES` is an agent spec as `tw.simulate` takes it and the number of self-play
//! games per configuration; the default is `random@400 greedy@400 mcts:iterations=10@400 mcts@40`
//! with seed 3. Games are those of `tw.simulate(game, GAMES, seed=S, agents=[SPEC] * players)`.

use std::time::Instant;

use tradewinds::engine::{AgentSpec, Result};
use tradewinds::games::{all_configurations, load, GAMES};

fn main() -> Result<()> {
    let mut seed = 3u64;
    let mut threads = 0usize;
    let mut names: Vec<String> = Vec::new();
    let mut per_player_count = false;
    let mut runs: Vec<(AgentSpec, String, usize)> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seed" => seed = args.next().and_then(|s| s.parse().ok()).expect("--seed N"),
            "--threads" => threads = args.next().and_then(|s| s.parse().ok()).expect("--threads N"),
            "--game" => names.push(args.next().expect("--game NAME")),
            "--per-player-count" => per_player_count = true,
            run => {
                let (spec, games) = run.rsplit_once('@').expect("SPEC@GAMES, e.g. greedy@400");
                let games = games.parse().expect("GAMES: a number of games");
                runs.push((spec.parse()?, spec.to_string(), games));
            }
        }
    }
    if runs.is_empty() {
        for (spec, games) in [("random", 400), ("greedy", 400), ("mcts:iterations=10", 400), ("mcts", 40)] {
            runs.push((spec.parse()?, spec.to_string(), games));
        }
    }
    println!("| game | configuration | agent (every seat) | games | truncated | decisions: mean (max) | seed | seconds |");
    println!("|------|---------------|--------------------|-------|-----------|-----------------------|------|---------|");
    if names.is_empty() {
        names = GAMES.iter().map(|n| n.to_string()).collect();
    }
    for name in &names {
        let mut seen_players = Vec::new();
        for options in all_configurations(name) {
            let game = load(name, &options)?;
            let players = game.spec().players;
            if per_player_count {
                if seen_players.contains(&players) {
                    continue;
                }
                seen_players.push(players);
            }
            for (spec, label, games) in &runs {
                let agents = vec![spec.clone(); players];
                let start = Instant::now();
                let r = game.simulate(&agents, 0, *games, seed, threads, None)?;
                let truncated = r.truncated.iter().filter(|&&t| t).count();
                let mean = r.decisions.iter().sum::<u64>() as f64 / (*games).max(1) as f64;
                let max = r.decisions.iter().max().copied().unwrap_or(0);
                println!(
                    "| {name} | {} | `{label}` | {games} | {truncated} | {mean:.0} ({max}) | {seed} | {:.1} |",
                    serde_json::Value::Object(options.clone()),
                    start.elapsed().as_secs_f64()
                );
            }
        }
    }
    Ok(())
}
