//! Before the Wind's rows of the hostile-input table in docs/reliability.md: its saved
//! state's content (the rows about every game are in `tests/hostile.rs`). Each hostile input
//! gives a typed [`EngineError`] that names what was wrong, and never a panic.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::BeforeTheWind;
use crate::engine::{DynGame, GameDefinition};
use crate::games::load;
use crate::harness::hostile::{check_edits_refused, check_flipped_bits, Edit};
use crate::harness::positions::midgame;

fn game(players: usize) -> Arc<dyn DynGame> {
    let options: Map<String, Value> = json!({ "players": players }).as_object().unwrap().clone();
    load(BeforeTheWind::NAME, &options).unwrap()
}

/// H-R14 a saved state whose content is inconsistent (Before the Wind: a good or a card from
/// nowhere, an overfull warehouse, a player who does not exist, guilders beyond any game).
#[test]
fn inconsistent_before_the_wind_states_are_rejected_naming_the_problem() {
    let g = game(3);
    let s = midgame(&*g, 12, false, 300);
    let v: Value = serde_json::from_str(&s.to_json()).unwrap();
    let cases: Vec<(&str, Edit, &str)> = vec![
        ("extra apple", Box::new(|v| v["state"]["stacks"][0] = json!(1 + v["state"]["stacks"][0].as_u64().unwrap())), "apples"),
        ("extra card", Box::new(|v| v["state"]["deck"][0] = json!(1 + v["state"]["deck"][0].as_u64().unwrap())), "cards of"),
        ("card of no design", Box::new(|v| v["state"]["discard"][95] = json!(1)), "does not exist"),
        ("short deck list", Box::new(|v| v["state"]["deck"] = json!([1, 2, 3])), "corrupt"),
        ("active 3", Box::new(|v| v["state"]["active"] = json!(3)), "out of range"),
        ("ghost seat", Box::new(|v| v["state"]["seats"][3]["money"] = json!(5)), "seat 3"),
        ("money", Box::new(|v| v["state"]["seats"][0]["money"] = json!(4_000_000_000u64)), "out of range"),
        ("phase", Box::new(|v| v["state"]["phase"] = json!("Sleeping")), "corrupt"),
        ("winner", Box::new(|v| v["state"]["winners"] = json!(1)), "winners before the end"),
        ("ships", Box::new(|v| v["state"]["seats"][0]["ships"] = json!(200)), "ships"),
    ];
    check_edits_refused(&*g, &v, cases);
}

/// Flipping any single bit of the binary form never panics, and either fails with a
/// StateFormat error or gives a state that validates and plays on.
#[test]
fn flipped_bits_of_a_saved_state_never_panic() {
    let g = game(4);
    for (seed, moves) in [(3, 40), (5, 400)] {
        let s = midgame(&*g, seed, false, moves);
        check_flipped_bits(&*g, &s.to_bytes(), &format!("seed {seed}, "), |mut t| {
            for _ in 0..20 {
                let Some(&a) = t.legal_actions().first() else { break };
                t.apply(a).map_err(|e| e.to_string())?;
                g.state_from_json(&t.to_json()).map_err(|e| format!("a state reached from a loaded state: {e}"))?;
            }
            Ok(())
        });
    }
}

