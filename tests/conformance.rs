//! The shared conformance suite over every registered game, player count and mode, through
//! the registry (so a new game is covered as soon as it is registered).

use tradewinds::games::{all_configurations, load, GAMES};

#[test]
fn every_game_and_configuration_passes_the_conformance_suite() {
    for name in GAMES {
        let configs = all_configurations(name);
        assert!(!configs.is_empty(), "{name} lists no configurations");
        for cfg in configs {
            let game = load(name, &cfg).unwrap();
            let stats = game
                .conformance(20, 2024, 3)
                .unwrap_or_else(|e| panic!("{name} {cfg:?}: {e}"));
            assert_eq!(stats.terminals, 20, "{name} {cfg:?}");
            assert!(stats.decisions > 0 && stats.chance_nodes > 0, "{name} {cfg:?}: {stats:?}");
        }
    }
}
