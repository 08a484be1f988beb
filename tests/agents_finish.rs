//! The built-in search agents finish their games: in self-play of every listed game, in
//! every configuration, no game ends truncated at the game's move bound. An agent whose games
//! end by the bound (one that stalls, say with a hold full of goods its contracts cannot use)
//! distorts every balance study that uses it. docs/simulation.md records the measured rates.

use tradewinds::engine::AgentSpec;
use tradewinds::games::{all_configurations, load, GAMES};

/// Self-play of `games` games with `agent` in every seat; panics naming each configuration
/// with a truncated game.
fn assert_self_play_finishes(agent: &str, games: usize, seed: u64) {
    let spec: AgentSpec = agent.parse().unwrap();
    let mut stalled = Vec::new();
    for name in GAMES {
        let configs = all_configurations(name);
        assert!(!configs.is_empty(), "{name} lists no configurations");
        for cfg in configs {
            let game = load(name, &cfg).unwrap_or_else(|e| panic!("{name} {cfg:?}: {e}"));
            let agents = vec![spec.clone(); game.spec().players];
            let r = game.simulate(&agents, 0, games, seed, 0, None).unwrap();
            let truncated: Vec<usize> = (0..games).filter(|&g| r.truncated[g]).collect();
            if !truncated.is_empty() {
                stalled.push(format!("{name} {cfg:?}: {} of {games} games truncated (games {truncated:?})", truncated.len()));
            }
        }
    }
    assert!(stalled.is_empty(), "`{agent}` self-play, seed {seed}:\n{}", stalled.join("\n"));
}

#[test]
fn greedy_self_play_finishes_every_game() {
    assert_self_play_finishes("greedy", 400, 3);
}

#[test]
fn mcts_self_play_finishes_every_game() {
    assert_self_play_finishes("mcts:iterations=10", 5, 3);
}

#[test]
fn random_self_play_finishes_every_game() {
    assert_self_play_finishes("random", 400, 3);
}

#[test]
fn guided_mcts_self_play_finishes_every_game() {
    assert_self_play_finishes("mcts:fast", 2, 3);
    assert_self_play_finishes("mcts:iterations=5,rollout_depth=40,playout=greedy,epsilon=0", 1, 3);
}
