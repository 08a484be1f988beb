//! North Wind's Rust tests. The first is the shared conformance suite; rule tests quote
//! the rulebook sentence they check.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::engine::conformance::check_random_games;
use crate::engine::{Action, Actor, Game, GameState};

use super::actions::*;
use super::state::{Phase, NONE};
use super::NorthWind;

fn opts(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

fn game(players: usize) -> NorthWind {
    NorthWind::new(&opts(json!({ "players": players }))).unwrap()
}

#[test]
fn conformance_random_games_all_player_counts() {
    for cfg in NorthWind::all_configurations() {
        let g = NorthWind::new(&cfg).unwrap();
        let stats = check_random_games(g, 12, 7, 5).unwrap_or_else(|e| panic!("{cfg:?}: {e}"));
        assert_eq!(stats.terminals, 12);
        assert!(stats.decisions > 1000, "{stats:?}");
        assert!(stats.chance_nodes > 1000, "{stats:?}");
        // Random play reaches nearly every kind of decision.
        assert!(stats.distinct_actions_seen >= 30, "{stats:?}");
    }
}
