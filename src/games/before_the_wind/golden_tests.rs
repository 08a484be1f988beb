//! Golden playthroughs of Before the Wind from edge positions (`harness::golden`): random play
//! from positions where rules that rarely bind in a game from the start bind at once. The
//! playthroughs of every configuration from the start are shared (`tests/golden.rs`).
//! Rewrite the files with `scripts/regenerate-golden.sh` after a deliberate rules change.

use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::engine::GameState;
use crate::harness::golden::{check, seed, BOARD_EVERY};
use crate::harness::playthrough::playthrough_from;
use crate::engine::prelude::*;

use super::BeforeTheWind;

/// An edge position: its name in the file name, the player count, the setup description, and
/// the victory points of each player in it (checked, so the description says what it means).
struct Edge {
    name: &'static str,
    players: usize,
    description: Value,
    points: Vec<f64>,
}

fn edges() -> Vec<Edge> {
    vec![
        // Three players with the fleet about to leave (3 ships, one loadable): warehouses of
        // apples, cheeses and spices, Preservation cards placed and kept, goods in hand.
        Edge {
            name: "fleet-about-to-leave",
            players: 3,
            description: json!({
                "harbour": [
                    "large ship (1 apples, 1 cheese, 1 spices, 1 silk) worth 16 VP",
                    "small ship (1 apples) worth 5 VP",
                    "small ship (1 cheese, 1 spices) worth 8 VP"
                ],
                "players": [
                    {"warehouse": {"apples": 2, "cheese": 3, "spices": 2}, "hand": {"silk": 2}, "placed": ["Preservation of 2 goods"]},
                    {"warehouse": {"apples": 1, "cheese": 1, "spices": 1, "silk": 1}, "kept": ["Preservation of 3 goods", "Exchange Goods in Warehouse"]},
                    {"warehouse": {"cheese": 4, "spices": 3}, "hand": {"apples": 2}, "kept": ["Safe"]}
                ]
            }),
            points: vec![0.0, 0.0, 0.0],
        },
        // Two players near 60 victory points, with goods for ships in the harbour, Safes and
        // little money: the game ends within a turn or two, by points or by the tie-breakers.
        Edge {
            name: "near-the-end",
            players: 2,
            description: json!({
                "harbour": [
                    "large ship (2 apples, 2 cheese) worth 18 VP",
                    "large ship (2 cheese, 2 silk) worth 14 VP",
                    "large ship (2 spices, 2 silk) worth 14 VP",
                    "small ship (1 apples) worth 5 VP",
                    "small ship (1 silk) worth 3 VP"
                ],
                "players": [
                    {"vp": 55, "money": 3, "warehouse": {"apples": 1, "silk": 3}, "kept": ["Safe"]},
                    {"vp": 54, "money": 9, "warehouse": {"cheese": 2, "silk": 2}, "hand": {"spices": 2}, "kept": ["Sell Goods"]}
                ]
            }),
            points: vec![55.0, 54.0],
        },
    ]
}

#[test]
fn golden_playthroughs_from_edge_positions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut errors = Vec::new();
    for edge in edges() {
        let options: Map<String, Value> = json!({"players": edge.players}).as_object().unwrap().clone();
        let game = Arc::new(BeforeTheWind::load(&options).unwrap());
        let state = game.setup(&edge.description).unwrap_or_else(|e| panic!("{}: {e}", edge.name));
        let scores = GameState::from_parts(Arc::clone(&game), state.clone(), crate::engine::rng::rng_from_seed(0), true).scores();
        assert_eq!(scores, edge.points, "{}: victory points", edge.name);
        let seed = seed(edge.players);
        let text = playthrough_from(Arc::clone(&game), state, seed, BOARD_EVERY);
        let file = format!("before-the-wind-{}p-from-{}-seed{seed}.txt", edge.players, edge.name);
        if let Err(e) = check(root, BeforeTheWind::NAME, &file, &text) {
            errors.push(e);
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n\n"));
}
