//! Golden playthroughs of Nauticus from edge positions (`harness::golden`): random play from
//! positions where rules that rarely bind in a game from the start bind at once. The
//! playthroughs of every configuration from the start are shared (`tests/golden.rs`).
//! Rewrite the files with `scripts/regenerate-golden.sh` after a deliberate rules change.

use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::harness::golden::{check, position_file, seed, BOARD_EVERY};
use crate::harness::playthrough::playthrough_from;
use crate::engine::prelude::*;

use super::data::{CENTRE, CROWN_MAST, CROWN_SAIL, GOOD};
use super::Nauticus;

/// An edge position: its name in the file name, the game's options and the setup description.
struct Edge {
    name: &'static str,
    options: Value,
    description: Value,
}

fn edges() -> Vec<Edge> {
    vec![
        // Three players, the last round about to be dealt: the centres, crown masts and
        // crown sails are all used up and one coffee is left. P0's 4-tile ship lacks one
        // sail (a crown sail in the warehouse): its 4 rewards cannot include crowns. P1 has a
        // complete 4-tile ship loaded with coffee, ready to deliver.
        Edge {
            name: "stacks-used-up",
            options: json!({"players": 3}),
            description: json!({
                "round": 4,
                "players": [
                    {"warehouse": {"crown sail": 1, "centre": 1},
                     "ships": [{"hull": ["bow", "centre", "centre", "stern"], "crown_masts": 4, "crown_sails": 3}]},
                    {"workers": 6,
                     "ships": [{"hull": ["bow", "centre", "centre", "stern"], "crown_masts": 4, "crown_sails": 4, "goods": {"coffee": 4}},
                               {"hull": ["bow", "centre", "centre"], "crown_masts": 3, "crown_sails": 3}]},
                    {"delivered": {"coffee": 6},
                     "ships": [{"hull": ["single hull"], "crown_masts": 1, "crown_sails": 1, "goods": {"coffee": 1}},
                               {"hull": ["centre", "centre"]}]}
                ]
            }),
        },
        // Two players in the last action phase of the last round, both holding the extra
        // action: the game ends within the phase.
        Edge {
            name: "last-phase",
            options: json!({"players": 2}),
            description: json!({
                "round": 3, "phases": 6, "pointing": 3, "anchor": "buy masts",
                "spaces": ["withdraw money", "transport", "deliver goods", "buy hull parts",
                           "buy masts", "buy sails", "buy goods", "score the crowns"],
                "turned": ["buy masts", "buy sails", "buy goods", "score the crowns", "withdraw money", "deliver goods"],
                "players": [
                    {"passes": 1, "warehouse": {"whale sail": 2},
                     "ships": [{"hull": ["bow", "stern"], "coat": "whale", "masts": 2}]},
                    {"passes": 0, "taler": 3, "workers": 1}
                ]
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
        let game = Arc::new(Nauticus::load(&options).unwrap());
        let state = game.setup(&edge.description).unwrap_or_else(|e| panic!("{}: {e}", edge.name));
        if edge.name == "stacks-used-up" {
            assert_eq!(
                [state.stock[CENTRE as usize], state.stock[CROWN_MAST as usize], state.stock[CROWN_SAIL as usize], state.stock[GOOD as usize]],
                [0, 0, 0, 1]
            );
        }
        let seats = game.spec().players;
        let file = position_file(Nauticus::NAME, seats, &options, Nauticus::OPTIONS, edge.name);
        let text = playthrough_from(Arc::clone(&game), state, seed(seats), BOARD_EVERY);
        if let Err(e) = check(root, Nauticus::NAME, &file, &text) {
            errors.push(e);
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n\n"));
}
