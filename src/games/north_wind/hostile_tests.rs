//! North Wind's rows of the hostile-input table in docs/reliability.md: its saved state's
//! content, its component data file, its setup descriptions and its committed saved-state
//! fixtures (the rows about every game are in `tests/hostile.rs`). One test per row; the
//! row's id starts the test's doc comment. Each hostile input gives a typed [`EngineError`]
//! that names what was wrong.

use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::{Data, NorthWind};
use crate::engine::data::ComponentData;
use crate::engine::{DynGame, EngineError, GameDefinition};
use crate::games::{load, load_json};
use crate::harness::hostile::{check_edits_refused, check_flipped_bits, state_format, Edit};
use crate::harness::positions::{finished, midgame};

fn options(v: Value) -> Map<String, Value> {
    v.as_object().expect("an object").clone()
}

/// North Wind with these options.
fn game(v: Value) -> Arc<dyn DynGame> {
    load(NorthWind::NAME, &options(v)).unwrap()
}

// ----- saved states ------------------------------------------------------------------------

/// H-R14 a saved state whose content is inconsistent (North Wind: a good that appears from
/// nowhere, a sail level past the maximum, a player that does not exist).
#[test]
fn inconsistent_north_wind_states_are_rejected_naming_the_problem() {
    let g = game(json!({"players": 3}));
    let s = midgame(&*g, 12, false, 40);
    let v: Value = serde_json::from_str(&s.to_json()).unwrap();
    let cases: Vec<(&str, Edit, &str)> = vec![
        ("extra grain", Box::new(|v| v["state"]["ships"][0]["goods"][0] = json!(1 + v["state"]["ships"][0]["goods"][0].as_u64().unwrap())), "grain"),
        ("sail 99", Box::new(|v| v["state"]["ships"][1]["sail"] = json!(99)), "sail"),
        ("active 3", Box::new(|v| v["state"]["active"] = json!(3)), "active"),
        ("ghost ship", Box::new(|v| v["state"]["ships"][3]["gold"] = json!(5)), "ship 3"),
        ("gold 300", Box::new(|v| v["state"]["ships"][0]["gold"] = json!(-300)), "corrupt"),
        ("phase", Box::new(|v| v["state"]["phase"] = json!("Sleeping")), "corrupt"),
        ("unknown key", Box::new(|v| v["state"]["colour"] = json!(1)), "field `state.colour`: unknown field"),
        ("winner", Box::new(|v| v["state"]["winner"] = json!(7)), "disagree"),
    ];
    check_edits_refused(&*g, &v, cases);
    // Flipping any single bit of the binary form never panics and either fails or gives a
    // state that validates and plays (the fuzz target state_bytes does this at random).
    check_flipped_bits(&*g, &s.to_bytes(), "", |mut t| {
        let again = g.state_from_json(&t.to_json()).map_err(|e| format!("loaded state: {e}"))?;
        assert!(again.equals(&*t));
        if let Some(&a) = t.legal_actions().first() {
            t.apply(a).map_err(|e| e.to_string())?;
            g.state_from_json(&t.to_json()).map_err(|e| format!("a state reached from a loaded state: {e}"))?;
        }
        Ok(())
    });
}

fn json_state(game: &Arc<dyn DynGame>, seed: u64, explicit: bool, moves: usize) -> Value {
    serde_json::from_str(&midgame(&**game, seed, explicit, moves).to_json()).unwrap()
}

/// The first state in `phase` of seeded play (seeds 0 to 199, deterministic moves), as
/// saved JSON: a starting point for a hand-edited saved state.
fn saved_in_phase(game: &dyn DynGame, phase: &str) -> Option<Value> {
    for seed in 0..200 {
        let mut s = game.new_state(seed, false);
        let mut i = 0usize;
        while !s.is_terminal() {
            let v: Value = serde_json::from_str(&s.to_json()).unwrap();
            if v["state"]["phase"] == json!(phase) {
                return Some(v);
            }
            let legal = s.legal_actions();
            s.apply(legal[(i * 31 + seed as usize) % legal.len()]).unwrap();
            i += 1;
        }
    }
    None
}

/// H-R17 huge contract-column counts in a saved North Wind state: a `StateFormat` error,
/// counted without integer overflow (which panics where overflow is checked, as in debug
/// builds).
#[test]
fn saved_state_with_huge_column_counts_is_rejected_without_panic() {
    let g = game(json!({}));
    let mut v = json_state(&g, 15, false, 10);
    v["state"]["column"][0][0] = json!(200);
    v["state"]["column"][1][0] = json!(200);
    let m = state_format(g.state_from_json(&v.to_string()));
    assert!(m.contains("column") || m.contains("tokens"), "{m}");
}

/// H-R18 a saved North Wind state in the combat phase with no roll left: refused, so that the
/// next roll cannot underflow the roll count.
#[test]
fn saved_combat_state_without_rolls_left_is_rejected() {
    let g = game(json!({"players": 2}));
    // Find a pirate attack in random play and turn it into a combat without rolls.
    let mut v = saved_in_phase(&*g, "Pirate").expect("a pirate attack in 200 games");
    v["state"]["phase"] = json!("Combat");
    v["state"]["voyage"]["rolls_left"] = json!(0);
    v["state"]["voyage"]["hits"] = json!(0);
    let r = g.state_from_json(&v.to_string());
    assert!(
        matches!(r, Err(EngineError::StateFormat(_))),
        "a combat state without rolls left loads"
    );
}

/// H-R19 a saved North Wind state whose card under resolution is not a card: refused, without
/// a panic in the validator.
#[test]
fn saved_state_with_a_current_card_out_of_range_is_rejected() {
    let g = game(json!({"players": 2}));
    let mut v = saved_in_phase(&*g, "Card").expect("a card decision in 200 games");
    // The same card id plus 32: the same bit of a 32-bit card set once the shift wraps.
    let card = v["state"]["voyage"]["current"].as_u64().unwrap();
    v["state"]["voyage"]["current"] = json!(card + 32);
    state_format(g.state_from_json(&v.to_string()));
}

/// H-R26 a saved North Wind state whose combat-roll count, outside a combat, exceeds the
/// ship's cannons: refused (were it loaded, pirates in the same voyage would lead to a state
/// that the game's own validator rejects).
#[test]
fn saved_state_with_stale_combat_rolls_is_rejected() {
    let g = game(json!({"players": 2}));
    let mut v = saved_in_phase(&*g, "Card").expect("a card decision in 200 games");
    v["state"]["voyage"]["rolls_left"] = json!(128);
    assert!(
        matches!(g.state_from_json(&v.to_string()), Err(EngineError::StateFormat(_))),
        "a state with 128 combat rolls left outside a combat loads"
    );
}

/// H-R27 a saved finished North Wind game, won during a voyage, whose last card is no card:
/// the validator checks the card ids of a finished game's last voyage, and any state that
/// loads names every action id.
#[test]
fn finished_game_whose_last_card_is_no_card_is_rejected() {
    let g = game(json!({"players": 2}));
    let mut found = None;
    for seed in 0..200 {
        let s = finished(&*g, seed);
        let v: Value = serde_json::from_str(&s.to_json()).unwrap();
        if v["state"]["voyage"]["current"] != json!(255) && !s.is_truncated() {
            found = Some(v);
            break;
        }
    }
    let mut v = found.expect("a game won during a voyage in 200 games");
    let card = v["state"]["voyage"]["current"].as_u64().unwrap();
    v["state"]["voyage"]["current"] = json!(card + 128);
    match g.state_from_json(&v.to_string()) {
        Err(EngineError::StateFormat(_)) => {}
        Err(e) => panic!("wrong kind of error {e:?}"),
        Ok(s) => {
            // Every id of the action space has a name (the Python bindings ask for any).
            for a in 0..g.spec().num_distinct_actions as u32 {
                s.action_to_string(a);
            }
        }
    }
}

// ----- component data files ----------------------------------------------------------------

fn shipped() -> Value {
    serde_json::from_str(Data::SHIPPED).unwrap()
}

fn data_error(v: &Value) -> (String, String) {
    let text = v.to_string();
    let from_text = Data::from_json_str(&text).map(|_| ());
    let from_load = load(NorthWind::NAME, &options(json!({"data": v}))).map(|_| ());
    match (from_text, from_load) {
        (Err(EngineError::DataFile { field: f1, message: m1 }), Err(EngineError::DataFile { field: f2, .. })) => {
            assert_eq!(f1, f2, "the text parser and load name different fields");
            (f1, m1)
        }
        other => panic!("expected DataFile errors from both loaders: {other:?}"),
    }
}

/// H-R25 a data file whose players start with more trade letters than they may hold: a
/// `DataFile` error (were it accepted, no state of the game could be saved and loaded).
#[test]
fn data_file_starting_with_more_letters_than_may_be_held_is_rejected() {
    let mut v = shipped();
    v["rules"]["trade_letters_max_held"]["value"] = json!(0);
    v["rules"]["starting_trade_letters"]["value"] = json!(1);
    match load(NorthWind::NAME, &options(json!({"players": 2, "data": v}))) {
        Err(EngineError::DataFile { field, .. }) => assert!(field.contains("letters"), "{field}"),
        Err(e) => panic!("wrong kind of error {e:?}"),
        Ok(g) => {
            let s = g.new_state(1, false);
            let reloaded = g.state_from_json(&s.to_json());
            panic!("the data file loads; reloading its first state gives {:?}", reloaded.err());
        }
    }
}

/// H-R20 data files with a missing field, an extra field, a negative value, a wrong type.
#[test]
fn malformed_data_files_name_the_field() {
    let mut v = shipped();
    v["rules"].as_object_mut().unwrap().remove("starting_gold");
    let (f, m) = data_error(&v);
    assert!(f == "rules" && m.contains("starting_gold"), "{f}: {m}");

    let mut v = shipped();
    v["rules"]["treasure_chests"] = json!({"value": 3, "source": "printed"});
    let (f, m) = data_error(&v);
    assert!(m.contains("treasure_chests"), "{f}: {m}");

    let mut v = shipped();
    v["rules"]["starting_gold"]["value"] = json!(-5);
    let (f, _) = data_error(&v);
    assert_eq!(f, "rules.starting_gold.value");

    let mut v = shipped();
    v["sea_cards"][4]["price"] = json!("cheap");
    let (f, _) = data_error(&v);
    assert_eq!(f, "sea_cards[4].price");

    let mut v = shipped();
    v["format"] = json!(2);
    assert_eq!(data_error(&v).0, "format");
    let mut v = shipped();
    v["game"] = json!("south-wind");
    assert_eq!(data_error(&v).0, "game");

    for text in ["", "{", "null", "[]", "{\"format\": 1}"] {
        assert!(matches!(Data::from_json_str(text), Err(EngineError::DataFile { .. })), "{text:?}");
    }
}

/// H-R21 data files whose values are each valid but inconsistent or out of range.
#[test]
fn inconsistent_data_files_name_the_field() {
    let cases: Vec<(Edit, &str)> = vec![
        (Box::new(|v| v["rules"]["max_sail_level"]["value"] = json!(50)), "rules.max_sail_level.value"),
        (Box::new(|v| v["rules"]["starting_sail_level"]["value"] = json!(0)), "rules.starting_sail_level.value"),
        (Box::new(|v| v["rules"]["starting_cannons"]["value"] = json!(9)), "rules.starting_cannons.value"),
        (Box::new(|v| v["rules"]["sea_card_stacks"]["value"] = json!(4)), "rules.sea_card_stacks.value"),
        (Box::new(|v| v["victory_tokens"]["5"] = json!({"value": 7, "source": "printed"})), "victory_tokens.5"),
        (Box::new(|v| { v["victory_tokens"].as_object_mut().unwrap().remove("4"); }), "victory_tokens.4"),
        (Box::new(|v| v["victory_tokens"]["3"]["value"] = json!(0)), "victory_tokens.3.value"),
        (Box::new(|v| v["sea_cards"][5]["name"] = v["sea_cards"][4]["name"].clone()), "sea_cards[5].name"),
        (Box::new(|v| v["sea_cards"][0]["port"] = json!("Atlantis")), "sea_cards[0].port"),
        (Box::new(|v| { v["sea_cards"].as_array_mut().unwrap().pop(); }), "sea_cards"),
        (Box::new(|v| v["contracts"]["Atlantis"] = json!([])), "contracts.Atlantis"),
        (Box::new(|v| v["contracts"]["Olesand"] = json!([])), "contracts.Olesand"),
        (Box::new(|v| v["contracts"]["Olesand"][0]["wine"] = json!(99)), "contracts.Olesand[0].wine"),
        (Box::new(|v| v["event_die"] = json!([])), "event_die"),
        (Box::new(|v| v["combat_die"][0]["count"] = json!(0)), "combat_die[0].count"),
        (Box::new(|v| { let d = v["combat_die"][0].clone(); v["combat_die"].as_array_mut().unwrap().push(d); }), "combat_die[3]"),
    ];
    for (edit, field) in cases {
        let mut v = shipped();
        edit(&mut v);
        let (f, m) = data_error(&v);
        assert_eq!(f, field, "{m}");
        assert!(!m.is_empty());
    }
    // Valid alone, impossible for four players: too few trade letters to deal.
    let mut v = shipped();
    v["rules"]["trade_letters_total"]["value"] = json!(1);
    v["rules"]["starting_trade_letters"]["value"] = json!(1);
    assert!(Data::from_value(&v).is_ok());
    match load(NorthWind::NAME, &options(json!({"players": 4, "data": v}))) {
        Err(EngineError::DataFile { field, .. }) => assert_eq!(field, "rules.trade_letters_total.value"),
        other => panic!("{:?}", other.err()),
    }
}

/// H-R23 setup descriptions that describe no legal position.
#[test]
fn impossible_setup_descriptions_name_the_field() {
    let g = game(json!({"players": 2}));
    let cases = [
        (json!({"active": 2}), "active"),
        (json!({"ships": [{}, {}, {}]}), "ships"),
        (json!({"ships": [{"goods": {"gold": 1}}, {}]}), "ships[0].goods.gold"),
        (json!({"ships": [{"sail": 99}, {}]}), "ships[0].sail"),
        (json!({"ships": [{"crew": ["captain"]}, {}]}), "ships[0].crew"),
        (json!({"contracts": {"Atlantis": []}}), "contracts.Atlantis"),
        (json!({"colour": 1}), ""),
        (json!([]), ""),
    ];
    for (desc, field) in cases {
        match g.setup(&desc, 0, false) {
            Err(EngineError::Setup { field: f, message }) => {
                assert!(f.starts_with(field) || field.is_empty(), "{desc}: field {f}: {message}");
            }
            other => panic!("{desc}: {:?}", other.err()),
        }
    }
}

/// H-R24 the committed saved-state fixtures of North Wind
/// (`tests/fixtures/saved/north-wind/v<format>/`) of this saved-state format version load and
/// save back to the same text and bytes; the future-version ones (`.../north-wind/future/`)
/// name the version they need.
#[test]
fn saved_state_fixtures_still_load() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/saved").join(NorthWind::NAME);
    let mut loaded = 0;
    let version = game(json!({})).state_format();
    for (dir, current) in [(format!("v{version}"), true), ("future".to_string(), false)] {
        let mut paths: Vec<_> = std::fs::read_dir(root.join(&dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        paths.sort();
        assert!(!paths.is_empty(), "no fixtures in {dir}");
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap();
            let text = text.trim_end();
            let bytes = std::fs::read(path.with_extension("bin")).unwrap();
            let saved: Value = serde_json::from_str(text).unwrap();
            assert_eq!(saved["game"], json!(NorthWind::NAME), "{}", path.display());
            let config: Value = serde_json::from_str(saved["config"].as_str().unwrap()).unwrap();
            let game = load_json(&config).unwrap();
            if current {
                let s = game.state_from_json(text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                assert_eq!(s.to_json(), text, "{}", path.display());
                let b = game.state_from_bytes(&bytes).unwrap();
                assert!(b.equals(&*s));
                assert_eq!(b.to_bytes(), bytes);
                loaded += 1;
            } else {
                let version = saved["format"].as_u64().unwrap();
                for m in [state_format(game.state_from_json(text)), state_format(game.state_from_bytes(&bytes))] {
                    assert!(m.contains(&format!("version {version}")), "{m}");
                }
            }
        }
    }
    assert!(loaded > 0);
}
