//! A state that loads is a state that plays (docs/reliability.md): every game's reachable
//! states load back and play on, validated at every step (`harness::loaded`), and the saved
//! states a hostile probe edited are refused on loading, or play on as well.

use rayon::prelude::*;
use serde_json::{json, Map, Value};
use tradewinds::engine::{DynGame, DynState, EngineError};
use tradewinds::games::load;
use tradewinds::harness::configurations::registry;
use tradewinds::harness::loaded::check_plays_on;
use tradewinds::harness::positions::midgame;

fn options(v: Value) -> Map<String, Value> {
    v.as_object().expect("an object").clone()
}

/// Loading `value` (a saved state as JSON): a refusal (`Ok(Err)`) or a state that plays on in
/// `games` random games (`Ok(Ok)`); a state that loads and dead-ends is `Err`.
fn refused_or_plays(game: &dyn DynGame, value: &Value, games: usize) -> Result<Result<(), String>, String> {
    match game.state_from_json(&value.to_string()) {
        Err(EngineError::StateFormat(m)) => Ok(Err(m)),
        Err(e) => Err(format!("wrong kind of error {e:?}")),
        Ok(s) => check_plays_on(game, &*s, 7, games, 2000).map(Ok),
    }
}

fn saved(state: &dyn DynState) -> Value {
    serde_json::from_str(&state.to_json()).expect("a saved state is JSON")
}

/// The first state of a game played by the first legal action whose saved `state.phase` is
/// `phase`.
fn at_phase(game: &dyn DynGame, seed: u64, phase: &str) -> Box<dyn DynState> {
    at_field(game, seed, "phase", phase)
}

/// The first state of a seeded game whose saved `state.<key>` is `value`.
fn at_field(game: &dyn DynGame, seed: u64, key: &str, value: &str) -> Box<dyn DynState> {
    let mut s = game.new_state(seed, true);
    for i in 0..5000usize {
        if saved(&*s)["state"][key] == json!(value) {
            return s;
        }
        assert!(!s.is_terminal(), "the game ended before {key} {value}");
        let legal = s.legal_actions();
        s.apply(legal[(i * 7 + seed as usize) % legal.len()]).unwrap();
    }
    panic!("{key} {value} not reached");
}

/// Every game in every configuration: states at several depths of seeded play, with chance
/// resolved inside the state or explicit, saved as JSON and as bytes, load back and play on
/// through whole random games, the game's validator accepting every state reached.
#[test]
fn every_games_reachable_states_load_and_play_on_validated_at_every_step() {
    registry().par_iter().for_each(|entry| {
        let game = &*entry.game;
        for (i, moves) in [9usize, 250].into_iter().enumerate() {
            for explicit in [false, true] {
                let state = midgame(game, 11 + i as u64, explicit, moves);
                let from_json = game.state_from_json(&state.to_json()).unwrap();
                let from_bytes = game.state_from_bytes(&state.to_bytes()).unwrap();
                for (how, loaded) in [("JSON", from_json), ("bytes", from_bytes)] {
                    check_plays_on(game, &*loaded, i as u64, 1, 3000)
                        .unwrap_or_else(|e| panic!("{} {:?}, {moves} moves, {how}: {e}", entry.name, entry.options));
                }
            }
        }
    });
}

/// Norsewind: "place the kingdom tiles" one a row, and the counter of the row to place next
/// names one of the four rows (the probe's counter equal to the player count, 4, was accepted
/// and the next tile placed panicked).
#[test]
fn norsewind_setup_counter_past_the_last_kingdom_row_is_refused() {
    let game = load("norsewind", &options(json!({"players": 4, "free_start": true, "random_kingdom_tiles": true}))).unwrap();
    let state = at_phase(&*game, 3, "Tile");
    for bad in [4, 5, 255] {
        let mut v = saved(&*state);
        v["state"]["setup_next"] = json!(bad);
        let e = game.state_from_json(&v.to_string()).err().unwrap_or_else(|| panic!("setup_next {bad} accepted"));
        assert!(e.to_string().contains("setup counter"), "{e}");
    }
}

/// Norsewind: step 3 (take the neighbouring card) names the kingdom just built in; one of
/// 15, 16 or 255 was accepted and the observation tensor panicked.
#[test]
fn norsewind_take_step_without_a_kingdom_is_refused() {
    for players in [2, 3] {
        let game = load("norsewind", &options(json!({"players": players}))).unwrap();
        let state = at_phase(&*game, 5, "Take");
        for bad in [4, 15, 16, 255] {
            let mut v = saved(&*state);
            v["state"]["built_kingdom"] = json!(bad);
            let e = game.state_from_json(&v.to_string()).err().unwrap_or_else(|| panic!("built_kingdom {bad} accepted"));
            assert!(e.to_string().contains("kingdom"), "{e}");
        }
    }
}

/// Mistwind: the character deck holds the game's characters only (bit 36 of 36 characters was
/// accepted, and rendering the card once dealt panicked).
#[test]
fn mistwind_character_deck_beyond_the_characters_is_refused() {
    let game = load("mistwind", &options(json!({"players": 3}))).unwrap();
    let state = midgame(&*game, 2, true, 40);
    let v = saved(&*state);
    for bit in [36u32, 37, 63] {
        let mut deck = v.clone();
        deck["state"]["character_deck"] = json!(v["state"]["character_deck"].as_u64().unwrap() | 1u64 << bit);
        assert!(game.state_from_json(&deck.to_string()).is_err(), "character deck bit {bit} accepted");
        let mut held = v.clone();
        held["state"]["players"][1]["characters"] = json!(held["state"]["players"][1]["characters"].as_u64().unwrap() | 1u64 << bit);
        assert!(game.state_from_json(&held.to_string()).is_err(), "a held character of bit {bit} accepted");
    }
}

/// Mistwind, 3 players, one field of a saved state edited as the hostile probe did: each
/// edited state is refused on loading or plays on, never reaching a state with no move or a
/// chance node with no outcome.
#[test]
fn mistwind_edited_states_are_refused_or_play_on() {
    let game = load("mistwind", &options(json!({"players": 3}))).unwrap();
    let edits: [(&str, fn(&mut Value)); 7] = [
        ("players[0].hand = 0", |v| v["state"]["players"][0]["hand"] = json!(0)),
        ("port_deck = 0", |v| v["state"]["port_deck"] = json!(0)),
        ("network_deck = 0", |v| v["state"]["network_deck"] = json!(0)),
        ("refilling = true", |v| v["state"]["refilling"] = json!(true)),
        ("port_row[0] = 255", |v| v["state"]["port_row"][0] = json!(255)),
        ("round - 1", |v| {
            let r = v["state"]["round"].as_u64().unwrap();
            v["state"]["round"] = json!(r.saturating_sub(1));
        }),
        ("stack_height[0] = 255", |v| v["state"]["stack_height"][0] = json!(255)),
    ];
    let mut refused = vec![0usize; edits.len()];
    for seed in 0..2u64 {
        let mut s = game.new_state(seed, true);
        let mut step = 0usize;
        while !s.is_terminal() {
            if step % 23 == 0 {
                for (k, (what, edit)) in edits.iter().enumerate() {
                    let mut v = saved(&*s);
                    edit(&mut v);
                    match refused_or_plays(&*game, &v, 2) {
                        Ok(Err(_)) => refused[k] += 1,
                        Ok(Ok(())) => {}
                        Err(e) => panic!("seed {seed}, move {step}, {what}: the edited state loads and then: {e}"),
                    }
                }
            }
            let legal = s.legal_actions();
            s.apply(legal[(step * 7 + seed as usize) % legal.len()]).unwrap();
            step += 1;
        }
    }
    // A lower round is refused only where the port deck is then too small for the rounds to
    // come; otherwise it is a state that plays on. Every other edit is refused somewhere.
    let never: Vec<&str> = edits.iter().zip(&refused).filter(|(e, &n)| n == 0 && e.0 != "round - 1").map(|(e, _)| e.0).collect();
    assert!(never.is_empty(), "never refused: {never:?} ({refused:?})");
}

/// Nauticus: the rewards of a completed ship are counted while they are chosen and cleared
/// after the last; a state placing a tile with rewards still counted was accepted, and the
/// placement reached a state the validator refuses (found by the hour-long fuzz run).
#[test]
fn nauticus_rewards_counted_outside_the_reward_steps_are_refused() {
    let game = load("nauticus", &options(json!({"players": 2}))).unwrap();
    let state = at_field(&*game, 5, "step", "Place");
    for (field, bad) in [("rewards_taken", json!([1, 0, 0, 0, 0, 0])), ("reward_goods_left", json!(1)), ("reward_goods_taken", json!(1))] {
        let mut v = saved(&*state);
        v["state"]["turn"][field] = bad;
        let e = game.state_from_json(&v.to_string()).err().unwrap_or_else(|| panic!("{field} accepted in the placing step"));
        assert!(e.to_string().contains("reward"), "{field}: {e}");
    }
}

/// North Wind: the first trade at a merchant ("1 other good" for the boatswain's second) is a
/// merchant's purchase or sale; a saved state naming another action was accepted, and telling
/// the boatswain's step panicked (found by the bounded cargo-fuzz run).
#[test]
fn north_wind_first_merchant_trade_that_is_no_trade_is_refused() {
    let game = load("north-wind", &options(json!({"players": 2}))).unwrap();
    let state = at_phase(&*game, 3, "Card");
    for bad in [0, 23, 34, 200] {
        let mut v = saved(&*state);
        v["state"]["voyage"]["first_trade"] = json!(bad);
        let e = game.state_from_json(&v.to_string()).err().unwrap_or_else(|| panic!("first trade {bad} accepted"));
        assert!(e.to_string().contains("first merchant trade"), "{bad}: {e}");
    }
    let mut v = saved(&*state);
    v["state"]["voyage"]["first_trade"] = json!(24);
    assert!(game.state_from_json(&v.to_string()).is_ok(), "a merchant's purchase is a first trade");
}
