//! Golden playthroughs of Nauticus from edge positions (`harness::golden`): random play from
//! positions where rules that rarely bind in a game from the start bind at once. The
//! playthroughs of every configuration from the start are shared (`tests/golden.rs`).
//! Rewrite the files with `scripts/regenerate-golden.sh` after a deliberate rules change.

use serde_json::json;

use crate::harness::golden::{check_edges, Edge};

use super::data::{CENTRE, CROWN_MAST, CROWN_SAIL, GOOD};
use super::Nauticus;

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
            scores: None,
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
            scores: None,
        },
    ]
}

#[test]
fn golden_playthroughs_from_edge_positions() {
    check_edges::<Nauticus>(edges(), |edge, _, state| {
        if edge.name == "stacks-used-up" {
            assert_eq!(
                [state.stock[CENTRE as usize], state.stock[CROWN_MAST as usize], state.stock[CROWN_SAIL as usize], state.stock[GOOD as usize]],
                [0, 0, 0, 1]
            );
        }
    });
}
