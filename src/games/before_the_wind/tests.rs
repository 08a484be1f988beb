//! Before the Wind's Rust tests. The first is the shared conformance suite; rule tests quote
//! the rulebook sentence they check.

use std::sync::Arc;

use crate::engine::GameDefinition;
use crate::harness::conformance::check_random_games;

use super::BeforeTheWind;

#[test]
fn conformance_random_games_all_player_counts() {
    for cfg in BeforeTheWind::configurations() {
        let g = BeforeTheWind::load(&cfg).unwrap();
        let stats = check_random_games(Arc::new(g), 6, 7, 5).unwrap_or_else(|e| panic!("{cfg:?}: {e}"));
        assert_eq!(stats.terminals, 6);
        eprintln!("{cfg:?} {stats:?}");
    }
}
