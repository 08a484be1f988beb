//! Golden playthroughs of North Wind from edge positions (`harness::golden`): random play
//! from positions where rules that rarely bind in a game from the start bind at once. The
//! playthroughs of every configuration from the start are shared (`tests/golden.rs`).
//! Each position is a setup description; its stacks are dealt by chance from the seed.
//! Rewrite the files with `scripts/regenerate-golden.sh` after a deliberate rules change.

use serde_json::{json, Value};

use crate::harness::golden::{check_edges, Edge};

use super::NorthWind;

/// Four players (8 tokens each): every column tied at the top, so the next contract in any
/// column brings its majority too; three ships one crew member from the full crew bonus.
/// Bonuses compete for the last tokens, and some cannot be placed.
fn tokens_nearly_out() -> Value {
    json!({
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
    })
}

/// The edge positions; a position's scores are the tokens each player has placed in it.
fn edges() -> Vec<Edge> {
    // The tokens running short with the 90-gold bank (ruling 13) holding 2 of them: the
    // ships hold 30, 25, 20 and 13.
    let mut short_of_both = tokens_nearly_out();
    for (ship, gold) in short_of_both["ships"].as_array_mut().unwrap().iter_mut().zip([30, 25, 20, 13]) {
        ship["gold"] = json!(gold);
    }
    vec![
        Edge { name: "tokens-nearly-out", options: json!({"players": 4}), description: tokens_nearly_out(), scores: Some(vec![6.0, 5.0, 6.0, 5.0]) },
        Edge {
            name: "tokens-nearly-out",
            options: json!({"players": 4, "gold": "limited"}),
            description: short_of_both,
            scores: Some(vec![6.0, 5.0, 6.0, 5.0]),
        },
        // Three players with the 90-gold bank (ruling 13): the ships hold 88, the bank 2.
        // P0, first on turn, has 1 gold and a full hold whose goods sell for more than the
        // bank can pay; the bookkeepers' gold, the treasurer's income and the gold for a
        // pirate captain with a full prison (P0's) come from the 2 coins, and Northcape's
        // open contract (3 gold) pays into the bank.
        Edge {
            name: "bank-nearly-empty",
            options: json!({"players": 3, "gold": "limited"}),
            description: json!({
                "ships": [
                    {"gold": 1, "goods": {"wine": 2, "fish": 2, "salt": 2}, "crew": ["bookkeeper", "treasurer"], "captains": 2, "cannons": 2},
                    {"gold": 45, "goods": {"salt": 1, "wood": 1}, "crew": ["boatswain", "bookkeeper"], "letters": 2},
                    {"gold": 42, "goods": {"grain": 2}, "crew": ["gunner"], "cannons": 3}
                ],
                "contracts": {"Northcape": [1]}
            }),
            scores: Some(vec![0.0, 2.0, 0.0]),
        },
        // Four players: the prisons hold 7 of the 8 pirate captains, the ships are armed
        // (gunners, 3 and 4 cannons) and Trutzhaven's open contract asks for a captain.
        Edge {
            name: "captains-running-short",
            options: json!({"players": 4}),
            description: json!({
                "ships": [
                    {"captains": 2, "cannons": 4, "crew": ["gunner"]},
                    {"captains": 2, "cannons": 3},
                    {"captains": 2, "cannons": 4, "crew": ["gunner", "lookout"]},
                    {"captains": 1, "cannons": 3, "crew": ["gunner"], "goods": {"wine": 1}}
                ],
                "contracts": {"Trutzhaven": [0, 1]}
            }),
            scores: Some(vec![1.0, 1.0, 0.0, 0.0]),
        },
        // Two players (10 tokens): P0 has placed 9 and P1 8; P1, with 3 crew members and 2
        // trade letters, can place his last tokens on P0's turn.
        Edge {
            name: "one-token-from-winning",
            options: json!({"players": 2}),
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
            scores: Some(vec![9.0, 8.0]),
        },
    ]
}

#[test]
fn golden_playthroughs_from_edge_positions() {
    check_edges::<NorthWind>(edges(), |edge, game, state| {
        if game.limited_gold {
            assert_eq!(state.supply_gold, 2, "{}: the bank is nearly empty", edge.name);
        }
    });
}
