//! Before the Wind's log: the sentences of the rulebook's auction example and of a fleet
//! leaving, purses told as the table shows them, and the goods accounting the spoilage
//! sentences rest on. The shared checks (`harness::log`, run by `tests/log_and_records.rs`)
//! cover every configuration.

use std::sync::Arc;

use serde_json::{json, Value};

use crate::engine::rng::{below, rng_from_seed};
use crate::engine::GameState;
use crate::engine::prelude::*;

use super::state::Phase;
use super::tests::{St, CHOICE, L16, PROFIT8, RECEIVE, S5, STORE4};
use super::BeforeTheWind;

fn position(players: usize, desc: Value) -> St {
    let g = Arc::new(BeforeTheWind::load(json!({ "players": players }).as_object().unwrap()).unwrap());
    let inner = g.setup(&desc).unwrap_or_else(|e| panic!("{e}"));
    GameState::from_parts(g, inner, rng_from_seed(1), true)
}

/// Plays `action` and returns its sentence for `observer`.
fn said(st: &mut St, action: &str, observer: Option<usize>) -> String {
    let a = st.string_to_action(action).unwrap_or_else(|e| panic!("{action}: {e}\n{}", st.render()));
    let before = st.inner().clone();
    st.apply(a).unwrap();
    st.game().describe_move(&before, a, st.inner(), observer)
}

#[test]
fn the_log_tells_the_rulebooks_auction() {
    // 6.0, the example (4 players): Garik P0, Larisa P1, Oleg P2, Sasha P3.
    let mut st = position(4, json!({
        "harbour": [L16, "large ship (2 apples, 2 cheese) worth 18 VP", "large ship (2 cheese, 2 silk) worth 14 VP",
                    "large ship (2 spices, 2 silk) worth 14 VP", S5, "small ship (1 silk) worth 3 VP",
                    "small ship (1 cheese, 1 spice) worth 8 VP"],
        "display": [RECEIVE, PROFIT8, STORE4, CHOICE]}));
    assert_eq!(said(&mut st, &format!("take:{RECEIVE}"), None), format!("P0 takes {RECEIVE} face up."));
    assert_eq!(said(&mut st, &format!("bid-for:P0's {RECEIVE}"), None), format!("P1 opens an auction for P0's {RECEIVE}."));
    assert_eq!(said(&mut st, "bid:4", Some(3)), format!("P1 bids 4 guilders for P0's {RECEIVE}."));
    assert_eq!(said(&mut st, "bid:7", Some(0)), format!("P2 bids 7 guilders for P0's {RECEIVE}."));
    assert_eq!(said(&mut st, "pass", Some(1)), format!("P3 passes in the auction for P0's {RECEIVE}."));
    // Ruling 2: a seat is told only its own purse.
    let before = st.inner().clone();
    assert_eq!(
        said(&mut st, "sell-to:P2 for 7 guilders", Some(1)),
        format!("P0 sells {RECEIVE} to P2 for P2's bid of 7 guilders; P2 has it face down.")
    );
    let g = st.game();
    let mut acts = Vec::new();
    g.legal_actions(&before, &mut acts);
    let a = acts.into_iter().find(|&a| g.action_to_string(&before, a) == "sell-to:P2 for 7 guilders").unwrap();
    assert_eq!(
        g.describe_move(&before, a, st.inner(), Some(2)),
        format!("P0 sells {RECEIVE} to P2 for P2's bid of 7 guilders (P2 now has 15 guilders); P2 has it face down.")
    );
    assert_eq!(
        g.describe_move(&before, a, st.inner(), None),
        format!("P0 sells {RECEIVE} to P2 for P2's bid of 7 guilders (P0 now has 29 guilders, P2 now has 15 guilders); P2 has it face down.")
    );
    said(&mut st, &format!("take:{PROFIT8}"), None);
    said(&mut st, &format!("bid-for:P1's {PROFIT8}"), None);
    said(&mut st, "bid:5", None);
    // The auction ends: the cards nobody took are discarded, and the cards are played.
    let keep = said(&mut st, "keep-paying:P3 5 guilders", None);
    assert!(
        keep.starts_with(&format!(
            "P1 keeps {PROFIT8} and pays P3 5 guilders, P3's bid (P1 now has 17 guilders, P3 now has 27 guilders); P1 has it face down. Nobody took {STORE4}, {CHOICE}: discarded."
        )),
        "{keep}"
    );
}

#[test]
fn a_purse_is_told_where_the_table_shows_it() {
    // The log, the table and the tensor consult one rule (`sees_purse`): where a seat's table
    // shows a purse, its sentence tells the same amount.
    let mut st = position(2, json!({"play": true, "harbour": [L16, S5], "players": [{"card": "Load Goods or Profit 11"}]}));
    let before = st.inner().clone();
    let a = st.string_to_action("profit:11 guilders").unwrap();
    let text = said(&mut st, "profit:11 guilders", Some(0));
    assert!(text.starts_with("P0 plays Load Goods or Profit 11 for its profit of 11 guilders (P0 now has 33 guilders)."), "{text}");
    let g = st.game();
    let other = g.describe_move(&before, a, st.inner(), Some(1));
    assert!(other.starts_with("P0 plays Load Goods or Profit 11 for its profit of 11 guilders. Turn"), "{other}");
    let g = st.game();
    for seat in 0..2 {
        let shown = g.text(st.inner(), Viewer::Seat(seat)).contains("P0: 0 VP (0 ships), 33 guilders");
        assert_eq!(shown, g.sees_purse(st.inner(), Some(seat), 0));
        assert_eq!(shown, seat == 0, "P0's purse is his own secret");
        assert_eq!(g.describe_move(&before, a, st.inner(), Some(seat)).contains("33 guilders"), shown);
    }
}

#[test]
fn the_log_tells_the_fleet_leaving_and_what_spoils() {
    // The turn ends with 2 ships: the fleet leaves; P1 (now active) has nothing to decide, P0
    // has a Preservation card to use.
    let mut st = position(2, json!({"play": true, "harbour": [L16, S5],
        "players": [{"card": "Preservation of 2 goods", "warehouse": {"apples": 3, "silk": 1}},
                    {"warehouse": {"apples": 1, "cheese": 2}, "hand": {"silk": 2}}]}));
    let text = said(&mut st, "play:Preservation of 2 goods", None);
    assert_eq!(
        text,
        format!(
            "P0 plays Preservation of 2 goods, placing it by his warehouse: it preserves 2 goods when the fleet leaves. \
             Turn {t} ends. P1 takes the active player marker. The fleet leaves: the {L16} and the {S5} are discarded. \
             P1: 1 apple, 1 cheese spoil in the warehouse and 2 silk in the hand.",
            t = st.inner().turn
        )
    );
    assert_eq!(said(&mut st, "preserve-in-warehouse:apple", None), "P0 preserves 1 apple in his warehouse.");
    assert_eq!(
        said(&mut st, "let-spoil", Some(1)),
        "P0 lets the other goods spoil. P0: 2 apples spoil in the warehouse."
    );
    assert_eq!(st.inner().phase, Phase::Ships);
}

#[test]
fn the_goods_a_move_moves_are_the_goods_the_state_shows() {
    // The spoilage sentences subtract the goods after the move from the goods the move itself
    // left (`goods_after_move`); where nothing follows the move, those are the state's goods.
    for players in 2..=4 {
        let g = Arc::new(BeforeTheWind::load(json!({ "players": players }).as_object().unwrap()).unwrap());
        let mut rng = rng_from_seed(players as u64);
        for seed in 0..3 {
            let mut st = GameState::new(Arc::clone(&g), seed, true);
            let mut checked = 0;
            while !st.is_terminal() {
                let legal = st.legal_actions();
                let a = legal[below(&mut rng, legal.len() as u32) as usize];
                let before = st.inner().clone();
                st.apply(a).unwrap();
                let after = st.inner();
                let quiet = after.active == before.active
                    && after.phase != Phase::GameOver
                    && !matches!(before.phase, Phase::Spoil | Phase::Preserve);
                if quiet {
                    let mid = g.goods_after_move(&before, a);
                    for p in 0..players {
                        assert_eq!(mid[p], (after.seats[p].hand, after.seats[p].warehouse), "{}", g.action_to_string(&before, a));
                    }
                    checked += 1;
                }
            }
            assert!(checked > 100);
        }
    }
}

#[test]
fn a_card_set_aside_without_a_move_is_told() {
    // Ruling 9: a Receive card whose goods stacks are empty gives nothing and is discarded; a
    // Store card with no goods to store is left unused (4.3.1 B: "If you cannot (or do not wish
    // to) use a Store Goods in Warehouse card you have obtained, you pay no costs at all"). Where
    // that is all the player could do, for a reason the table shows, no move asks him, and the
    // move that reached him tells it.
    let mut st = position(2, json!({"harbour": [L16, S5], "play": true, "players": [
        {"card": PROFIT8, "hand": {"apples": 15, "spices": 15}}, {"card": RECEIVE}]}));
    assert_eq!(st.inner().stacks, [0, 15, 0, 15]);
    let told = said(&mut st, "profit:8 guilders", None);
    assert!(told.contains(&format!("P1 discards {RECEIVE}, which gives nothing: its goods stacks are empty.")), "{told}");
    let mut st = position(2, json!({"harbour": [L16, S5], "play": true, "players": [{"card": PROFIT8}, {"card": STORE4}]}));
    let told = said(&mut st, "profit:8 guilders", Some(0));
    assert!(told.contains(&format!("P1 leaves {STORE4} unused: he holds no goods to store.")), "{told}");
    // The mover's own card is told once, by its move.
    let mut st = position(2, json!({"harbour": [L16, S5], "play": true, "players": [{"card": STORE4, "hand": {"silk": 1}}, {"card": PROFIT8}]}));
    let told = said(&mut st, &format!("leave-unused:{STORE4}"), None);
    assert_eq!(told.matches(STORE4).count(), 1, "{told}");
}
