//! The readable log and game records, for every registered game in every configuration it
//! lists: each seat's sentences tell only what its observation allows, and every record
//! replays to the identical state and log (`harness::log`).

use tradewinds::games::{all_configurations, registered};
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
