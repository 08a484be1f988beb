//! The shared conformance suite over every registered game and every configuration it lists
//! (player counts, modes, variants), through the registry, so a new game is covered as soon
//! as it is registered. The configurations run in parallel (each is seeded on its own, so the
//! result does not depend on the order). Each configuration plays 4 random games, checked at
//! every step; `TRADEWINDS_CHECKS_SCALE` multiplies them for the heavy form.

use rayon::prelude::*;

use tradewinds::games::{all_configurations, registered};
use tradewinds::harness::conformance::check_configuration;
use tradewinds::harness::scaled;

#[test]
fn every_game_and_configuration_passes_the_conformance_suite() {
    let configs: Vec<_> = registered()
        .flat_map(|name| {
            let configs = all_configurations(name);
            assert!(!configs.is_empty(), "{name} lists no configurations");
            configs.into_iter().map(move |cfg| (name, cfg))
        })
        .collect();
    let games = scaled(4);
    configs.par_iter().for_each(|(name, cfg)| {
        let stats = check_configuration(name, cfg, games, 2024, 3).unwrap_or_else(|e| panic!("{name} {cfg:?}: {e}"));
        assert_eq!(stats.terminals, games, "{name} {cfg:?}");
        assert!(stats.decisions > 0, "{name} {cfg:?}: {stats:?}");
        assert!(stats.secrets.pictures_compared > 0, "{name} {cfg:?}: no picture compared: {stats:?}");
    });
}
