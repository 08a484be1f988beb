//! Golden playthroughs of North Wind from edge positions (`harness::golden`): random play
//! from positions where rules that rarely bind in a game from the start bind at once. The
//! playthroughs of every configuration from the start are shared (`tests/golden.rs`).
//! Each position is a setup description; its stacks are dealt by chance from the seed.
//! Rewrite the files with `scripts/regenerate-golden.sh` after a deliberate rules change.

use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::engine::{Game, GameDefinition, GameState};
use crate::harness::golden::{check, seed, BOARD_EVERY};
use crate::harness::playthrough::playthrough_from;

use super::NorthWind;

/// An edge position: its name in the file name, the player count, the setup description, and
/// the tokens each player has placed in it (checked, so the description says what it means).
struct Edge {
    name: &'static str,
    players: usize,
    description: Value,
    placed: Vec<f64>,
}

fn edges() -> Vec<Edge> {
    vec![
        // Four players (8 tokens each): every column tied at the top, so the next contract
        // in any column brings its majority too; three ships one crew member from the full
        // crew bonus. Bonuses compete for the last tokens, and some cannot be placed.
        Edge {
            name: "tokens-nearly-out",
            players: 4,
            description: json!({
                "ships": [
                    {"crew": ["boatswain", "bookkeeper", "gunner"], "goods": {"wine": 1}, "captains": 1},
                    {"crew": ["boatswain", "bookkeeper", "gunner", "treasurer"], "goods": {"grain": 1, "fish": 1}},
                    {"crew": ["gunner", "treasurer", "lookout"], "captains": 2, "goods": {"wine": 1}},
                    {"crew": ["bookkeeper", "gunner", "lookout"], "goods": {"wood": 1, "salt": 1}}
                ],
                "contracts": {
                    "Northcape": [0, 1, 2, 3, 0, 1],
                    "Trutzhaven": [2, 3, 2, 3, 0],
                    "Olesand": [0, 1, 2, 3, 1, 0, 2]
                }
            }),
            placed: vec![6.0, 5.0, 6.0, 5.0],
        },
        // Four players: the prisons hold 7 of the 8 pirate captains, the ships are armed
        // (gunners, 3 and 4 cannons) and Trutzhaven's open contract asks for a captain.
        Edge {
            name: "captains-running-short",
            players: 4,
            description: json!({
                "ships": [
                    {"captains": 2, "cannons": 4, "crew": ["gunner"]},
                    {"captains": 2, "cannons": 3},
                    {"captains": 2, "cannons": 4, "crew": ["gunner", "lookout"]},
                    {"captains": 1, "cannons": 3, "crew": ["gunner"], "goods": {"wine": 1}}
                ],
                "contracts": {"Trutzhaven": [0, 1]}
            }),
            placed: vec![1.0, 1.0, 0.0, 0.0],
        },
        // Two players (10 tokens): P0 has placed 9 and P1 8; P1, with 3 crew members and 2
        // trade letters, can place his last tokens on P0's turn.
        Edge {
            name: "one-token-from-winning",
            players: 2,
            description: json!({
                "ships": [
                    {"goods": {"wine": 2}, "captains": 1, "gold": 5},
                    {"crew": ["boatswain", "bookkeeper", "gunner"], "letters": 2, "captains": 2, "gold": 7}
                ],
                "contracts": {
                    "Northcape": [0, 0, 0, 1],
                    "Trutzhaven": [0, 0, 1],
                    "Olesand": [0, 1, 1, 1, 1]
                }
            }),
            placed: vec![9.0, 8.0],
        },
    ]
}

#[test]
fn golden_playthroughs_from_edge_positions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut errors = Vec::new();
    for edge in edges() {
        let options: Map<String, Value> = json!({"players": edge.players}).as_object().unwrap().clone();
        let game = Arc::new(NorthWind::load(&options).unwrap());
        let state = game.setup(&edge.description).unwrap_or_else(|e| panic!("{}: {e}", edge.name));
        let scores = GameState::from_parts(Arc::clone(&game), state.clone(), crate::engine::rng::rng_from_seed(0), true).scores();
        assert_eq!(scores, edge.placed, "{}: tokens placed", edge.name);
        let seed = seed(edge.players);
        let text = playthrough_from(Arc::clone(&game), state, seed, BOARD_EVERY);
        let file = format!("north-wind-{}p-from-{}-seed{seed}.txt", edge.players, edge.name);
        if let Err(e) = check(root, NorthWind::NAME, &file, &text) {
            errors.push(e);
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n\n"));
}
