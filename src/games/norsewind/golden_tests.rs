//! Golden playthroughs of Norsewind from edge positions (`harness::golden`): random play from
//! positions where rules that rarely bind in a game from the start bind at once. The
//! playthroughs of every configuration from the start are shared (`tests/golden.rs`).
//! Rewrite the files with `scripts/regenerate-golden.sh` after a deliberate rules change.

use serde_json::json;

use crate::harness::golden::{check_edges, Edge};

use super::Norsewind;

fn edges() -> Vec<Edge> {
    vec![
        // Three players, one card left in the draw deck: the end is triggered within the
        // round, the reserve deck refills the market, and the game is scored.
        Edge {
            name: "deck-running-out",
            options: json!({"players": 3}),
            description: json!({
                "tiles": ["fourth-building", "two-buildings", "castle-seven", "colour-scoring"],
                "market": ["farm-1", "inn-3", "ship-3", "blacksmith-5", "church-1"],
                "deck": ["castle-7"],
                "display": ["castle-4", "castle-1"],
                "current": 1, "starting": 0,
                "players": [
                    {"coins": 9, "kingdoms": [{"buildings": ["ship-1", "ship-2", "farm-2"]}, {"castle": "castle-3"}]},
                    {"coins": 4, "kingdoms": [{}, {}, {"buildings": ["inn-1", "inn-2"]}]},
                    {"coins": 0}
                ]
            }),
            scores: None,
        },
        // The solo game at level 7, the castle display full (4) and the Vikings about to
        // take a church.
        Edge {
            name: "solo-full-display",
            options: json!({"players": 1, "level": 7}),
            description: json!({
                "tiles": ["different-types", "two-buildings", "helmet-toll", "colour-scoring"],
                "market": ["farm-1", "inn-3", "ship-3", "church-1", "farm-7"],
                "display": ["castle-1", "castle-2", "castle-3", "castle-4"],
                "vikings": {"sides": ["red", "red", "red", "red"], "rows": [["farm-2"], [], ["inn-1"], []], "ship": 2},
                "players": [{"coins": 6, "kingdoms": [{"buildings": ["ship-1"]}]}]
            }),
            scores: None,
        },
    ]
}

#[test]
fn golden_playthroughs_from_edge_positions() {
    check_edges::<Norsewind>(edges(), |_, _, _| {});
}
