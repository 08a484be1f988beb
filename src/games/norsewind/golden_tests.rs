//! Golden playthroughs of Norsewind from edge positions (`harness::golden`): random play from
//! positions where rules that rarely bind in a game from the start bind at once. The
//! playthroughs of every configuration from the start are shared (`tests/golden.rs`).
//! Rewrite the files with `scripts/regenerate-golden.sh` after a deliberate rules change.

use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::engine::prelude::*;
use crate::harness::golden::{check, position_file, seed, BOARD_EVERY};
use crate::harness::playthrough::playthrough_from;

use super::Norsewind;

/// An edge position: its name in the file name, the game's options and the setup description.
struct Edge {
    name: &'static str,
    options: Value,
    description: Value,
}

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
        },
    ]
}

#[test]
fn golden_playthroughs_from_edge_positions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut errors = Vec::new();
    for edge in edges() {
        let options: Map<String, Value> = edge.options.as_object().unwrap().clone();
        let game = Arc::new(Norsewind::load(&options).unwrap());
        let state = game.setup(&edge.description).unwrap_or_else(|e| panic!("{}: {e}", edge.name));
        let seats = game.spec().players;
        let file = position_file(Norsewind::NAME, seats, &options, Norsewind::OPTIONS, edge.name);
        let text = playthrough_from(Arc::clone(&game), state, seed(seats), BOARD_EVERY);
        if let Err(e) = check(root, Norsewind::NAME, &file, &text) {
            errors.push(e);
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n\n"));
}
