//! The Rust rows of the hostile-input table in docs/reliability.md: one test per row (the
//! row's id starts the test's doc comment). Each hostile input gives a typed
//! [`EngineError`] that names what was wrong, and leaves the state as it was (compared as
//! saved JSON before and after). Rows that are about every game run over the registry; rows
//! about a game's own formats (its data file, its saved state's content) name the game.

use std::sync::Arc;

use serde_json::{json, Map, Value};
use tradewinds::harness::configurations::registry;
use tradewinds::harness::triage::{run_checked, Outcome};
use tradewinds::engine::data::ComponentData;
use tradewinds::engine::{DynGame, DynState, EngineError};
use tradewinds::games::north_wind::Data;
use tradewinds::games::{load, load_json, GAMES};

/// An edit of a saved state's or a data file's JSON.
type Edit = Box<dyn Fn(&mut Value)>;

fn options(v: Value) -> Map<String, Value> {
    v.as_object().expect("an object").clone()
}

/// A state of `game` up to `moves` moves into a game (seeded, reproducible), never past the
/// last state before the end.
fn midgame(game: &dyn DynGame, seed: u64, explicit_chance: bool, moves: usize) -> Box<dyn DynState> {
    let mut s = game.new_state(seed, explicit_chance);
    for i in 0..moves {
        let legal = s.legal_actions();
        let mut next = s.clone_box();
        next.apply(legal[(i * 7 + seed as usize) % legal.len()]).unwrap();
        if next.is_terminal() {
            break;
        }
        s = next;
    }
    s
}

/// The first explicit chance node of a game played with the first legal action (every game
/// has chance somewhere, but not necessarily at its start).
fn first_chance_node(game: &dyn DynGame, seed: u64) -> Box<dyn DynState> {
    let mut s = game.new_state(seed, true);
    while !s.is_chance() {
        assert!(!s.is_terminal(), "{}: a game without chance", game.spec().name);
        let first = s.legal_actions()[0];
        s.apply(first).unwrap();
    }
    s
}

/// A finished game.
fn finished(game: &dyn DynGame, seed: u64) -> Box<dyn DynState> {
    let mut s = game.new_state(seed, false);
    let mut i = 0usize;
    while !s.is_terminal() {
        let legal = s.legal_actions();
        s.apply(legal[(i * 13 + 5) % legal.len()]).unwrap();
        i += 1;
    }
    s
}

/// Runs `f` on `state`, which must fail, and checks the state is unchanged (as saved JSON
/// and by equality). Returns the error.
fn rejected<T: std::fmt::Debug>(
    state: &mut Box<dyn DynState>,
    f: impl FnOnce(&mut Box<dyn DynState>) -> Result<T, EngineError>,
) -> EngineError {
    let before = state.to_json();
    let copy = state.clone_box();
    let e = f(state).expect_err("hostile input accepted");
    assert_eq!(state.to_json(), before, "the state changed after {e}");
    assert!(state.equals(&*copy), "the state changed after {e}");
    e
}

// ----- games and options -------------------------------------------------------------------

/// H-R1 unknown game name.
#[test]
fn unknown_game_names_the_available_games() {
    for name in ["", "north wind", "North-Wind", "chess", "north-wind\0"] {
        match load(name, &Map::new()) {
            Err(EngineError::UnknownGame { name: n, available }) => {
                assert_eq!(n, name);
                for g in GAMES {
                    assert!(available.contains(g), "{available}");
                }
            }
            other => panic!("{name:?}: {:?}", other.err()),
        }
    }
}

/// H-R2 player counts out of range and of the wrong type.
#[test]
fn player_counts_out_of_range_name_the_option() {
    for name in GAMES {
        for bad in [json!(0), json!(1), json!(5), json!(-1), json!(1u64 << 40), json!("3"), json!(3.0), json!(3.5),
            json!(null), json!(true), json!([3])]
        {
            match load(name, &options(json!({"players": bad}))) {
                Err(EngineError::InvalidOption { option, message }) => {
                    assert_eq!(option, "players", "{bad}");
                    assert!(message.contains(&bad.to_string()), "{message}");
                }
                other => panic!("{name} players={bad}: {:?}", other.err()),
            }
        }
    }
}

/// H-R3 unknown options and options out of range.
#[test]
fn unknown_and_out_of_range_options_name_the_option() {
    for name in GAMES {
        match load(name, &options(json!({"colour": "red"}))) {
            Err(EngineError::InvalidOption { option, message }) => {
                assert_eq!(option, "colour");
                assert!(message.contains("allowed options"), "{message}");
            }
            other => panic!("{:?}", other.err()),
        }
    }
    for bad in [json!(0), json!(-1), json!(100_001), json!("10"), json!(1.5), json!(u64::MAX)] {
        match load("north-wind", &options(json!({"max_turns": bad}))) {
            Err(EngineError::InvalidOption { option, .. }) => assert_eq!(option, "max_turns"),
            other => panic!("max_turns={bad}: {:?}", other.err()),
        }
    }
}

/// H-R4 a configuration that is not an object or names no game.
#[test]
fn malformed_configurations_are_rejected() {
    for bad in [json!(null), json!([]), json!("north-wind"), json!({}), json!({"game": 3}), json!({"players": 3})] {
        assert!(
            matches!(load_json(&bad), Err(EngineError::InvalidOption { .. })),
            "{bad}: {:?}",
            load_json(&bad).err()
        );
    }
    assert!(matches!(load_json(&json!({"game": "nope"})), Err(EngineError::UnknownGame { .. })));
}

// ----- actions -----------------------------------------------------------------------------

/// H-R5 action ids outside the action space.
#[test]
fn out_of_range_action_ids_are_illegal_and_change_nothing() {
    for e in registry() {
        let mut s = midgame(&*e.game, 3, false, 20);
        let n = e.game.spec().num_distinct_actions as u32;
        for a in [n, n + 1, 1 << 20, u32::MAX - 1, u32::MAX] {
            let err = rejected(&mut s, |s| s.apply(a));
            assert!(matches!(&err, EngineError::IllegalAction(m) if m.contains(&a.to_string())), "{err}");
        }
    }
}

/// H-R6 an action id in range that is not legal now.
#[test]
fn illegal_actions_name_the_action_and_change_nothing() {
    let mut tried = 0;
    for e in registry() {
        // A game where every action of its space is always legal has none to try.
        let mut s = midgame(&*e.game, 4, false, 30);
        let legal = s.legal_actions();
        let Some(a) = (0..e.game.spec().num_distinct_actions as u32).find(|a| !legal.contains(a)) else { continue };
        let name = s.action_to_string(a);
        let err = rejected(&mut s, |s| s.apply(a));
        assert!(matches!(&err, EngineError::IllegalAction(m) if m.contains(&name) && m.contains("player")), "{err}");
        tried += 1;
    }
    assert!(tried > 0, "no registered game had an illegal action in range");
}

/// H-R7 any action at a terminal state.
#[test]
fn actions_at_a_terminal_state_are_rejected() {
    for e in registry() {
        let mut s = finished(&*e.game, 5);
        assert!(s.is_terminal());
        for a in [0, 1, u32::MAX] {
            let err = rejected(&mut s, |s| s.apply(a));
            assert!(matches!(&err, EngineError::IllegalAction(m) if m.contains("over")), "{err}");
        }
        let err = rejected(&mut s, |s| s.string_to_action("pass").map(|_| ()));
        assert!(matches!(&err, EngineError::UnknownActionString { message, .. } if message.contains("no action")), "{err}");
    }
}

/// H-R8 at an explicit chance node: ids that are not outcomes, and player actions' names.
#[test]
fn non_outcomes_at_a_chance_node_are_rejected() {
    for e in registry() {
        let mut s = first_chance_node(&*e.game, 6);
        let outcomes = s.legal_actions();
        let max = e.game.spec().max_chance_outcomes as u32;
        let bad: Vec<u32> = (0..max + 2).filter(|a| !outcomes.contains(a)).chain([u32::MAX]).collect();
        assert!(!bad.is_empty());
        for a in bad {
            let err = rejected(&mut s, |s| s.apply(a));
            assert!(matches!(&err, EngineError::IllegalAction(m) if m.contains("chance")), "{err}");
        }
        let err = rejected(&mut s, |s| s.string_to_action("pass").map(|_| ()));
        assert!(matches!(err, EngineError::UnknownActionString { .. }), "{err}");
    }
}

/// H-R9 strings that name no legal action.
#[test]
fn strings_that_are_no_action_are_rejected_listing_the_legal_ones() {
    for e in registry() {
        let mut s = midgame(&*e.game, 7, false, 10);
        let legal_name = s.action_to_string(s.legal_actions()[0]);
        let long = "x".repeat(1 << 20);
        for text in ["", " ", "\t\n", "xyzzy", "sail:Atlantis", "0", "-1", "\0", "🦀", "pass pass", long.as_str()] {
            let err = rejected(&mut s, |s| s.string_to_action(text).map(|_| ()));
            match err {
                EngineError::UnknownActionString { text: t, message } => {
                    assert_eq!(t, text);
                    assert!(message.contains(&legal_name), "{message}");
                }
                other => panic!("{text:?}: {other}"),
            }
        }
    }
}

/// H-R10 player indices out of range for observations and resampling.
#[test]
fn player_indices_out_of_range_are_invalid_requests() {
    for e in registry() {
        let s = midgame(&*e.game, 8, false, 10);
        let n = e.game.spec().players;
        for p in [n, n + 1, usize::MAX] {
            for r in [s.observation_string(p).map(|_| ()), s.observation_tensor(p).map(|_| ()), s.resample(p, 0).map(|_| ())] {
                match r {
                    Err(EngineError::InvalidRequest(m)) => assert!(m.contains(&p.to_string()), "{m}"),
                    other => panic!("player {p}: {:?}", other.err()),
                }
            }
        }
    }
}

// ----- saved states ------------------------------------------------------------------------

fn state_format(r: Result<Box<dyn DynState>, EngineError>) -> String {
    match r {
        Err(EngineError::StateFormat(m)) => m,
        Err(e) => panic!("wrong kind of error: {e:?}"),
        Ok(_) => panic!("a hostile saved state loaded"),
    }
}

/// H-R11 empty, foreign and truncated saved states (every prefix of the binary form, and
/// prefixes of the JSON form).
#[test]
fn truncated_and_foreign_saved_states_are_state_format_errors() {
    for e in registry() {
        let g = &*e.game;
        let s = midgame(g, 9, false, 25);
        let bytes = s.to_bytes();
        for n in 0..bytes.len() {
            state_format(g.state_from_bytes(&bytes[..n]));
        }
        let json = s.to_json();
        for n in (0..json.len()).step_by(7) {
            state_format(g.state_from_json(&json[..n]));
        }
        for text in ["", "null", "[]", "{}", "\"TWS\"", "{\"format\": 1}", "{\"format\": 1, \"game\": 7}"] {
            state_format(g.state_from_json(text));
        }
        assert!(state_format(g.state_from_bytes(b"PK\x03\x04zipfile")).contains("magic"));
        // A JSON save is not a binary one and the other way round.
        state_format(g.state_from_bytes(json.as_bytes()));
        state_format(g.state_from_json(&String::from_utf8_lossy(&bytes)));
    }
}

/// H-R12 a state saved by a future version names the version it needs.
#[test]
fn future_format_versions_name_the_version_needed() {
    for e in registry() {
        let g = &*e.game;
        let (current, future) = (g.state_format(), g.state_format() + 1);
        let s = midgame(g, 10, false, 15);
        let mut bytes = s.to_bytes();
        bytes[3..7].copy_from_slice(&future.to_le_bytes());
        let m = state_format(g.state_from_bytes(&bytes));
        assert!(m.contains(&format!("version {future}")) && m.contains(&format!("reads version {current}")), "{m}");
        let mut v: Value = serde_json::from_str(&s.to_json()).unwrap();
        v["format"] = json!(future);
        let m = state_format(g.state_from_json(&v.to_string()));
        assert!(m.contains(&format!("version {future}")), "{m}");
        v["format"] = json!(0);
        assert!(state_format(g.state_from_json(&v.to_string())).contains("version 0"));
    }
}

/// H-R13 a state of another game configuration (player count) or another game.
#[test]
fn saved_states_of_other_configurations_are_rejected() {
    let reg = registry();
    for a in reg {
        for b in reg {
            if std::ptr::eq(a, b) {
                continue;
            }
            let s = midgame(&*a.game, 11, false, 5);
            let m = state_format(b.game.state_from_json(&s.to_json()));
            if a.name == b.name {
                assert!(m.contains("other options"), "{m}");
            } else {
                assert!(m.contains("game"), "{m}");
            }
            state_format(b.game.state_from_bytes(&s.to_bytes()));
        }
        // A game name that is not this game's.
        let s = midgame(&*a.game, 11, false, 5);
        let mut v: Value = serde_json::from_str(&s.to_json()).unwrap();
        v["game"] = json!("another-game");
        assert!(state_format(a.game.state_from_json(&v.to_string())).contains("another-game"));
        v["game"] = json!(a.name);
        v["config"] = json!("{not json");
        assert!(state_format(a.game.state_from_json(&v.to_string())).contains("configuration is corrupt"));
    }
}

/// H-R14 a saved state whose content is inconsistent (North Wind: a good that appears from
/// nowhere, a sail level past the maximum, a player that does not exist).
#[test]
fn inconsistent_north_wind_states_are_rejected_naming_the_problem() {
    let g = load("north-wind", &options(json!({"players": 3}))).unwrap();
    let s = midgame(&*g, 12, false, 40);
    let v: Value = serde_json::from_str(&s.to_json()).unwrap();
    let cases: Vec<(&str, Edit, &str)> = vec![
        ("extra grain", Box::new(|v| v["state"]["ships"][0]["goods"][0] = json!(1 + v["state"]["ships"][0]["goods"][0].as_u64().unwrap())), "grain"),
        ("sail 99", Box::new(|v| v["state"]["ships"][1]["sail"] = json!(99)), "sail"),
        ("active 3", Box::new(|v| v["state"]["active"] = json!(3)), "active"),
        ("ghost ship", Box::new(|v| v["state"]["ships"][3]["gold"] = json!(5)), "ship 3"),
        ("gold 300", Box::new(|v| v["state"]["ships"][0]["gold"] = json!(-300)), "corrupt"),
        ("phase", Box::new(|v| v["state"]["phase"] = json!("Sleeping")), "corrupt"),
        ("unknown key", Box::new(|v| v["state"]["colour"] = json!(1)), ""),
        ("winner", Box::new(|v| v["state"]["winner"] = json!(7)), "disagree"),
    ];
    for (what, edit, needle) in cases {
        let mut w = v.clone();
        edit(&mut w);
        let r = g.state_from_json(&w.to_string());
        if what == "unknown key" {
            // serde ignores unknown keys in the game state: harmless, the state is the same.
            assert!(r.unwrap().equals(&*s));
            continue;
        }
        let m = state_format(r);
        assert!(m.contains(needle), "{what}: {m}");
    }
    // Flipping any single bit of the binary form never panics and either fails or gives a
    // state that validates and plays (the fuzz target state_bytes does this at random).
    let bytes = s.to_bytes();
    for i in 0..bytes.len() {
        for bit in [0x01u8, 0x80] {
            let mut b = bytes.clone();
            b[i] ^= bit;
            let outcome = run_checked(|| {
                match g.state_from_bytes(&b) {
                    Err(EngineError::StateFormat(_)) => {}
                    Err(e) => return Err(format!("wrong kind of error {e:?}")),
                    Ok(mut t) => {
                        let again = g.state_from_json(&t.to_json()).map_err(|e| format!("loaded state: {e}"))?;
                        assert!(again.equals(&*t));
                        if let Some(&a) = t.legal_actions().first() {
                            t.apply(a).map_err(|e| e.to_string())?;
                            g.state_from_json(&t.to_json()).map_err(|e| format!("a state reached from a loaded state: {e}"))?;
                        }
                    }
                }
                Ok(())
            });
            assert_eq!(outcome, Outcome::Passed, "byte {i} ^ {bit:#x}");
        }
    }
}

/// H-R24 the committed saved-state fixtures (tests/fixtures/saved/) of this format version
/// load and save back to the same text and bytes; the future-version ones name the version.
#[test]
fn saved_state_fixtures_still_load() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/saved");
    let mut loaded = 0;
    let version = load("north-wind", &Map::new()).unwrap().state_format();
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

/// H-R15 (finding F1, fixed) a state saved with implicit chance that rests at a chance node.
#[test]
fn saved_state_with_implicit_chance_at_a_chance_node_is_rejected() {
    let g = load("north-wind", &Map::new()).unwrap();
    let mut v = json_state(&g, 13, true, 0);
    v["explicit_chance"] = json!(false);
    let r = g.state_from_json(&v.to_string());
    assert!(
        matches!(r, Err(EngineError::StateFormat(_))),
        "finding F1: a state with implicit chance at a chance node loads (is_chance={:?})",
        r.as_ref().map(|s| s.is_chance()).ok()
    );
}

/// H-R16 (finding F2, fixed) a saved move number past the game's move bound.
#[test]
fn saved_state_with_a_move_number_past_the_bound_is_rejected() {
    let g = load("north-wind", &Map::new()).unwrap();
    let bound = g.spec().max_game_length as u64;
    for moves in [bound + 1, u64::MAX] {
        let mut v = json_state(&g, 14, false, 10);
        v["move_number"] = json!(moves);
        let r = g.state_from_json(&v.to_string());
        assert!(
            matches!(r, Err(EngineError::StateFormat(_))),
            "finding F2: a state at move {moves} (bound {bound}) loads"
        );
    }
}

/// H-R17 (finding F3, fixed; a panic only where integer overflow is checked, as in debug
/// builds) huge contract-column counts in a saved North Wind state.
#[test]
fn saved_state_with_huge_column_counts_is_rejected_without_panic() {
    let g = load("north-wind", &Map::new()).unwrap();
    let mut v = json_state(&g, 15, false, 10);
    v["state"]["column"][0][0] = json!(200);
    v["state"]["column"][1][0] = json!(200);
    let m = state_format(g.state_from_json(&v.to_string()));
    assert!(m.contains("column") || m.contains("tokens"), "{m}");
}


/// H-R18 (finding F4, fixed; a panic where overflow is checked, else a state that its own
/// validator rejects) a saved North Wind state in the combat phase with no roll left.
#[test]
fn saved_combat_state_without_rolls_left_is_rejected() {
    let g = load("north-wind", &options(json!({"players": 2}))).unwrap();
    // Find a pirate attack in random play and turn it into a combat without rolls.
    let mut v = saved_in_phase(&*g, "Pirate").expect("a pirate attack in 200 games");
    v["state"]["phase"] = json!("Combat");
    v["state"]["voyage"]["rolls_left"] = json!(0);
    v["state"]["voyage"]["hits"] = json!(0);
    let r = g.state_from_json(&v.to_string());
    assert!(
        matches!(r, Err(EngineError::StateFormat(_))),
        "finding F4: a combat state without rolls left loads"
    );
}

/// H-R19 (finding F5, fixed; a panic in the validator: an index out of bounds, or a shift
/// overflow where overflow is checked) a saved North Wind state whose card under
/// resolution is not a card.
#[test]
fn saved_state_with_a_current_card_out_of_range_is_rejected() {
    let g = load("north-wind", &options(json!({"players": 2}))).unwrap();
    let mut v = saved_in_phase(&*g, "Card").expect("a card decision in 200 games");
    // The same card id plus 32: the same bit of a 32-bit card set once the shift wraps.
    let card = v["state"]["voyage"]["current"].as_u64().unwrap();
    v["state"]["voyage"]["current"] = json!(card + 32);
    state_format(g.state_from_json(&v.to_string()));
}

/// H-R26 (finding F7, fixed) a saved North Wind state whose combat-roll count, outside a
/// combat, exceeds the ship's cannons: it loaded, and once pirates came in the same voyage
/// the game reached a state that its own validator rejects (its save could not be loaded).
#[test]
fn saved_state_with_stale_combat_rolls_is_rejected() {
    let g = load("north-wind", &options(json!({"players": 2}))).unwrap();
    let mut v = saved_in_phase(&*g, "Card").expect("a card decision in 200 games");
    v["state"]["voyage"]["rolls_left"] = json!(128);
    assert!(
        matches!(g.state_from_json(&v.to_string()), Err(EngineError::StateFormat(_))),
        "finding F7: a state with 128 combat rolls left outside a combat loads"
    );
}

/// H-R27 (finding F8, fixed) a saved finished North Wind game, won during a voyage, whose
/// last card is no card: the validator checks the card ids of a finished game's last voyage.
#[test]
fn finished_game_whose_last_card_is_no_card_is_rejected() {
    let g = load("north-wind", &options(json!({"players": 2}))).unwrap();
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
    serde_json::from_str(<tradewinds::games::north_wind::Data as tradewinds::engine::data::ComponentData>::SHIPPED).unwrap()
}

fn data_error(v: &Value) -> (String, String) {
    let text = v.to_string();
    let from_text = Data::from_json_str(&text).map(|_| ());
    let from_load = load("north-wind", &options(json!({"data": v}))).map(|_| ());
    match (from_text, from_load) {
        (Err(EngineError::DataFile { field: f1, message: m1 }), Err(EngineError::DataFile { field: f2, .. })) => {
            assert_eq!(f1, f2, "the text parser and load name different fields");
            (f1, m1)
        }
        other => panic!("expected DataFile errors from both loaders: {other:?}"),
    }
}

/// H-R25 (finding F6, fixed) a data file whose players start with more trade letters than
/// they may hold: accepted today, and then no state of the game can be saved and loaded.
#[test]
fn data_file_starting_with_more_letters_than_may_be_held_is_rejected() {
    let mut v = shipped();
    v["rules"]["trade_letters_max_held"]["value"] = json!(0);
    v["rules"]["starting_trade_letters"]["value"] = json!(1);
    match load("north-wind", &options(json!({"players": 2, "data": v}))) {
        Err(EngineError::DataFile { field, .. }) => assert!(field.contains("letters"), "{field}"),
        Err(e) => panic!("wrong kind of error {e:?}"),
        Ok(g) => {
            let s = g.new_state(1, false);
            let reloaded = g.state_from_json(&s.to_json());
            panic!("finding F6: the data file loads; reloading its first state gives {:?}", reloaded.err());
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
    match load("north-wind", &options(json!({"players": 4, "data": v}))) {
        Err(EngineError::DataFile { field, .. }) => assert_eq!(field, "rules.trade_letters_total.value"),
        other => panic!("{:?}", other.err()),
    }
}

/// H-R22 the data option of the wrong type, and a data file path that does not exist.
#[test]
fn data_option_of_the_wrong_type_or_missing_file() {
    for bad in [json!(3), json!(true), json!([1, 2])] {
        match load("north-wind", &options(json!({"data": bad}))) {
            Err(EngineError::InvalidOption { option, .. }) => assert_eq!(option, "data"),
            other => panic!("{bad}: {:?}", other.err()),
        }
    }
    let missing = std::env::temp_dir().join("tradewinds-no-such-dir").join("north-wind.json");
    match load("north-wind", &options(json!({"data": missing.to_str().unwrap()}))) {
        Err(EngineError::DataFile { field, message }) => {
            assert_eq!(field, "(file)");
            assert!(message.contains("cannot read"), "{message}");
        }
        other => panic!("{:?}", other.err()),
    }
}

/// H-R23 setup descriptions that describe no legal position.
#[test]
fn impossible_setup_descriptions_name_the_field() {
    let g = load("north-wind", &options(json!({"players": 2}))).unwrap();
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
