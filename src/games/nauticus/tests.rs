//! Nauticus's Rust tests. The first is the shared conformance suite; rule tests quote the
//! rulebook sentence they check.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::engine::{Game, GameDefinition, GameState};
use crate::harness::conformance::check_random_games;

use super::Nauticus;

fn opts(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

pub(super) fn game(players: usize) -> Nauticus {
    Nauticus::load(&opts(json!({ "players": players }))).unwrap()
}

#[test]
fn conformance_random_games_all_player_counts() {
    for cfg in Nauticus::configurations() {
        let g = Nauticus::load(&cfg).unwrap();
        let stats = check_random_games(Arc::new(g), 4, 7, 9).unwrap_or_else(|e| panic!("{cfg:?}: {e}"));
        assert_eq!(stats.terminals, 4);
    }
}
