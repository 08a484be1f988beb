//! The readable log and game records, for every registered game in every configuration it
//! lists: each seat's sentences tell only what its observation allows, and every record
//! replays to the identical state and log (`harness::log`).

use tradewinds::engine::AgentSpec;
use tradewinds::games::{all_configurations, load, registered};
use tradewinds::harness::log::check_log_configuration;

#[test]
fn every_game_logs_each_move_as_its_seats_may_see_it_and_replays_its_records() {
    for name in registered() {
        for cfg in all_configurations(name) {
            let stats = check_log_configuration(name, &cfg, 2, 77).unwrap_or_else(|e| panic!("{name} {cfg:?}: {e}"));
            assert!(stats.moves > 0, "{name} {cfg:?}");
            let compared = stats.alternatives_compared + stats.resamples_compared;
            assert!(compared > 0, "{name} {cfg:?}: no sentence was compared: {stats:?}");
        }
    }
}

#[test]
fn a_game_of_a_bulk_run_is_played_again_move_for_move_for_its_record() {
    for name in registered() {
        for cfg in all_configurations(name) {
            let game = load(name, &cfg).unwrap();
            let players = game.spec().players;
            let mut agents = vec![AgentSpec::Random; players];
            agents[0] = "mcts:iterations=8".parse().unwrap();
            if players > 1 {
                agents[1] = "greedy".parse().unwrap();
            }
            let run = game.simulate(&agents, 3, 4, 99, 2, None).unwrap();
            for i in 0..4 {
                let again = game.replay_game(&agents, 99, 3 + i as u64);
                assert!(again.is_terminal(), "{name} {cfg:?} game {i}");
                assert_eq!(again.move_number(), run.moves[i], "{name} {cfg:?} game {i}");
                assert_eq!(again.scores(), run.scores[i * players..(i + 1) * players], "{name} {cfg:?} game {i}");
                let record = again.record().unwrap();
                assert_eq!(record.moves.len() as u64, run.moves[i]);
            }
        }
    }
}
