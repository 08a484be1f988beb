//! Golden playthroughs of Before the Wind from edge positions (`harness::golden`): random play
//! from positions where rules that rarely bind in a game from the start bind at once. The
//! playthroughs of every configuration from the start are shared (`tests/golden.rs`).
//! Rewrite the files with `scripts/regenerate-golden.sh` after a deliberate rules change.

use serde_json::json;

use crate::harness::golden::{check_edges, Edge};

use super::BeforeTheWind;

/// The edge positions; a position's scores are each player's victory points in it.
fn edges() -> Vec<Edge> {
    vec![
        // Three players with the fleet about to leave (3 ships, one loadable): warehouses of
        // apples, cheeses and spices, Preservation cards placed and kept, goods in hand.
        Edge {
            name: "fleet-about-to-leave",
            options: json!({"players": 3}),
            description: json!({
                "harbour": [
                    "large ship (1 apple, 1 cheese, 1 spice, 1 silk) worth 16 VP",
                    "small ship (1 apple) worth 5 VP",
                    "small ship (1 cheese, 1 spice) worth 8 VP"
                ],
                "players": [
                    {"warehouse": {"apples": 2, "cheese": 3, "spices": 2}, "hand": {"silk": 2}, "placed": ["Preservation of 2 goods"]},
                    {"warehouse": {"apples": 1, "cheese": 1, "spices": 1, "silk": 1}, "kept": ["Preservation of 3 goods", "Exchange Goods in Warehouse"]},
                    {"warehouse": {"cheese": 4, "spices": 3}, "hand": {"apples": 2}, "kept": ["Safe"]}
                ]
            }),
            scores: Some(vec![0.0, 0.0, 0.0]),
        },
        // Two players near 60 victory points, with goods for ships in the harbour, Safes and
        // little money: the game ends within a turn or two, by points or by the tie-breakers.
        Edge {
            name: "near-the-end",
            options: json!({"players": 2}),
            description: json!({
                "harbour": [
                    "large ship (2 apples, 2 cheese) worth 18 VP",
                    "large ship (2 cheese, 2 silk) worth 14 VP",
                    "large ship (2 spices, 2 silk) worth 14 VP",
                    "small ship (1 apple) worth 5 VP",
                    "small ship (1 silk) worth 3 VP"
                ],
                "players": [
                    {"vp": 55, "money": 3, "warehouse": {"apples": 1, "silk": 3}, "kept": ["Safe"]},
                    {"vp": 54, "money": 9, "warehouse": {"cheese": 2, "silk": 2}, "hand": {"spices": 2}, "kept": ["Sell Goods"]}
                ]
            }),
            scores: Some(vec![55.0, 54.0]),
        },
    ]
}

#[test]
fn golden_playthroughs_from_edge_positions() {
    check_edges::<BeforeTheWind>(edges(), |_, _, _| {});
}
