//! Honest agents: a built-in agent sees only what its seat may see. For every registered game
//! in every configuration with hidden information, at decision points reached by random play,
//! the state is resampled for the seat to move (what is hidden from that seat drawn afresh);
//! the seat's observation (text and tensor) must be the same in both, and every built-in agent,
//! asked with the same seed in both, must choose the same move. docs/agents.md ("Honest
//! agents") says what is tested and what it found.
//!
//! A configuration has hidden information when, somewhere in its random games, a resample for
//! the seat to move shows a different table (the text with everything shown): only such
//! decision points are tested, since elsewhere the seat is not deceived by anything.
//!
//! The MCTS levels are tested with their own playouts and cut-offs but few iterations, so the
//! file runs in seconds; `TRADEWINDS_CHECKS_SCALE` multiplies the games, the decision points
//! and the seeds for the heavy form.

use rayon::prelude::*;

use tradewinds::engine::rng::{below, derive_seed, rng_from_seed};
use tradewinds::engine::{AgentSpec, DynState};
use tradewinds::harness::configurations::{registry, Entry};
use tradewinds::harness::scaled;

/// Every built-in agent: `random`, `greedy`, the default `mcts` and its levels, the search ones
/// with few iterations (their playout policies and cut-offs as the spec gives them), and
/// whether it is one that costs little: the one-ply agents are asked at every decision point in
/// every resample, the search agents at every fifth point in its first resample.
const AGENTS: [(&str, bool); 5] = [
    ("random", true),
    ("greedy", true),
    ("mcts:iterations=12", false),
    ("mcts:fast,iterations=12", false),
    ("mcts:strong,iterations=6", false),
];

/// Resamples drawn at each decision point.
const RESAMPLES: u64 = 4;

/// A decision point: the state, the seat to move, and the resamples of the state for that seat
/// that show a different table.
struct Point {
    state: Box<dyn DynState>,
    seat: usize,
    resamples: Vec<Box<dyn DynState>>,
}

/// The decision points of `games` random games of one configuration where a resample for the
/// seat to move shows a different table, at most `per_game` from each game (spread over the
/// game by considering each decision with probability one half).
fn deceiving_points(entry: &Entry, games: usize, per_game: usize, seed: u64) -> Vec<Point> {
    let mut out = Vec::new();
    for g in 0..games {
        let game_seed = derive_seed(seed, g as u64);
        let mut rng = rng_from_seed(derive_seed(game_seed, 1));
        let mut s = entry.game.new_state(game_seed, false);
        let mut taken = 0;
        let mut step = 0u64;
        while !s.is_terminal() && taken < per_game {
            let p = s.current_player();
            assert!(p >= 0, "a state after chance is resolved is a decision or the end");
            let p = p as usize;
            step += 1;
            if below(&mut rng, 2) == 0 {
                let resamples: Vec<Box<dyn DynState>> = (0..RESAMPLES)
                    .map(|k| s.resample(p, derive_seed(derive_seed(game_seed, step), k)).unwrap())
                    .filter(|r| r.render() != s.render())
                    .collect();
                if !resamples.is_empty() {
                    out.push(Point { state: s.clone_box(), seat: p, resamples });
                    taken += 1;
                }
            }
            let legal = s.legal_actions();
            let a = legal[below(&mut rng, legal.len() as u32) as usize];
            s.apply(a).unwrap();
        }
    }
    out
}

#[test]
fn every_built_in_agent_chooses_alike_in_states_its_seat_cannot_tell_apart() {
    let agents: Vec<(&str, AgentSpec, bool)> = AGENTS.iter().map(|&(a, cheap)| (a, a.parse().unwrap(), cheap)).collect();
    let games = scaled(6);
    let per_game = scaled(24);
    let seeds = 2;
    let found: Vec<(String, usize, Vec<String>)> = registry()
        .par_iter()
        .map(|entry| {
            let label = format!("{} {:?}", entry.name, entry.options);
            let points = deceiving_points(entry, games, per_game, 33);
            let mut failures = Vec::new();
            for (i, Point { state: s, seat: p, resamples }) in points.iter().enumerate() {
                let p = *p;
                for (j, r) in resamples.iter().enumerate() {
                    let at = format!("{label}, point {i} (move {}), resample {j}, P{p}", s.move_number());
                    assert_eq!(s.observation_string(p).unwrap(), r.observation_string(p).unwrap(), "{at}: P{p}'s text");
                    assert_eq!(s.observation_tensor(p).unwrap(), r.observation_tensor(p).unwrap(), "{at}: P{p}'s tensor");
                    assert_eq!(s.legal_actions(), r.legal_actions(), "{at}: P{p}'s legal moves");
                    // What the search agents draw their worlds from: a resample for P`p`, the
                    // same from either state with the same seed (it reads only what P`p` knows).
                    let seed = derive_seed(i as u64, 7);
                    let (a, b) = (s.resample(p, seed).unwrap(), r.resample(p, seed).unwrap());
                    if a.to_json() != b.to_json() {
                        failures.push(format!(
                            "{at}: resampled for P{p} with seed {seed}, the state and its resample give other states:\n{}\n{}",
                            a.render(),
                            b.render()
                        ));
                    }
                    for (name, spec, cheap) in &agents {
                        if !cheap && (j > 0 || i % 5 != 0) {
                            continue;
                        }
                        for k in 0..seeds {
                            let seed = derive_seed(i as u64, k);
                            let (here, there) = (s.agent_action(spec, seed).unwrap(), r.agent_action(spec, seed).unwrap());
                            if here != there {
                                failures.push(format!(
                                    "{at}, `{name}`, seed {seed}: {:?} in the state, {:?} in the resample",
                                    s.action_to_string(here),
                                    r.action_to_string(there)
                                ));
                            }
                        }
                    }
                }
            }
            (label, points.len(), failures)
        })
        .collect();
    let tested: Vec<&(String, usize, Vec<String>)> = found.iter().filter(|(_, n, _)| *n > 0).collect();
    assert!(!tested.is_empty(), "no configuration of any registered game hides anything from the seat to move");
    let failures: Vec<&String> = found.iter().flat_map(|(_, _, f)| f).collect();
    eprintln!(
        "{} configurations with hidden information, {} decision points: {}",
        tested.len(),
        tested.iter().map(|t| t.1).sum::<usize>(),
        tested.iter().map(|t| format!("{} ({})", t.0, t.1)).collect::<Vec<_>>().join("; ")
    );
    assert!(failures.is_empty(), "{} differences:\n{}", failures.len(), failures.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n"));
}
