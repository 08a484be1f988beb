//! The rows of the hostile-input table in docs/reliability.md that hold for every registered
//! game: one test per row (the row's id starts the test's doc comment), each iterating the
//! registry, so that a new game meets them as soon as it is registered. Each hostile input
//! gives a typed [`EngineError`] that names what was wrong, and leaves the state as it was
//! (compared as saved JSON before and after). A game's rows about its own formats (its data
//! file, its saved state's content) are unit tests in the game's folder.

use serde_json::{json, Map, Value};
use tradewinds::engine::{DynGame, DynState, EngineError, OptionKind};
use tradewinds::games::{load, load_json, registered, GAMES};
use tradewinds::harness::configurations::registry;
use tradewinds::harness::hostile::state_format;
use tradewinds::harness::positions::{finished, midgame};

fn options(v: Value) -> Map<String, Value> {
    v.as_object().expect("an object").clone()
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

/// H-R1 unknown game names: empty, another game, each registered name with another case,
/// blanks for hyphens or a trailing NUL.
#[test]
fn unknown_game_names_the_available_games() {
    let mut names = vec![String::new(), "chess".to_string()];
    for name in registered() {
        let mut capitalized = name.to_string();
        capitalized[..1].make_ascii_uppercase();
        names.extend([name.to_uppercase(), capitalized, name.replace('-', " "), format!("{name}\0"), format!(" {name}")]);
    }
    names.retain(|n| !registered().any(|r| r == n));
    for name in names {
        match load(&name, &Map::new()) {
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
    let mut tried = 0;
    for name in registered() {
        let decls = tradewinds::games::options(name).unwrap();
        let Some(OptionKind::Int { min, max, .. }) = decls.iter().find(|d| d.name == "players").map(|d| d.kind) else {
            continue;
        };
        let out_of_range =
            [0, -1, min - 1, max + 1, 1 << 40].into_iter().filter(|n| !(min..=max).contains(n)).map(|n| json!(n));
        let wrong_type = [json!("3"), json!(3.0), json!(3.5), json!(null), json!(true), json!([3])];
        for bad in out_of_range.chain(wrong_type) {
            match load(name, &options(json!({"players": bad}))) {
                Err(EngineError::InvalidOption { option, message }) => {
                    assert_eq!(option, "players", "{name} {bad}");
                    assert!(message.contains(&bad.to_string()), "{message}");
                }
                other => panic!("{name} players={bad}: {:?}", other.err()),
            }
        }
        tried += 1;
    }
    assert!(tried > 0, "no registered game has a players option");
}

/// Values that no option of this kind takes (data options: see H-R22).
fn bad_values(kind: OptionKind) -> Vec<Value> {
    match kind {
        OptionKind::Int { min, max, .. } => {
            let ints = [min.saturating_sub(1), max.saturating_add(1), -1, 0, i64::MIN];
            let ints = ints.into_iter().filter(|n| !(min..=max).contains(n)).map(|n| json!(n));
            ints.chain([json!(u64::MAX), json!("10"), json!(1.5), json!(null), json!(false)]).collect()
        }
        OptionKind::Choice { values, .. } => {
            let names = values.iter().map(|v| v.to_uppercase()).chain([String::new(), "none of these".into()]);
            let mut bad: Vec<Value> = names.filter(|v| !values.contains(&v.as_str())).map(Value::from).collect();
            bad.extend([json!(1), json!(null), json!([values[0]])]);
            bad
        }
        OptionKind::Bool { .. } => vec![json!(1), json!(0), json!("true"), json!(null), json!([true])],
        OptionKind::Data => Vec::new(),
    }
}

/// H-R3 unknown options, and every declared option out of range or of the wrong type.
#[test]
fn unknown_and_out_of_range_options_name_the_option() {
    for name in registered() {
        match load(name, &options(json!({"colour": "red"}))) {
            Err(EngineError::InvalidOption { option, message }) => {
                assert_eq!(option, "colour");
                assert!(message.contains("allowed options"), "{message}");
            }
            other => panic!("{name}: {:?}", other.err()),
        }
        for decl in tradewinds::games::options(name).unwrap() {
            for bad in bad_values(decl.kind) {
                match load(name, &options(json!({ decl.name: bad }))) {
                    Err(EngineError::InvalidOption { option, message }) => {
                        assert_eq!(option, decl.name, "{name} {}={bad}: {message}", decl.name);
                        assert!(message.contains(&bad.to_string()), "{message}");
                    }
                    other => panic!("{name} {}={bad}: {:?}", decl.name, other.err()),
                }
            }
        }
    }
}

/// H-R4 a configuration that is not an object or names no game.
#[test]
fn malformed_configurations_are_rejected() {
    let names = registered().map(|n| json!(n));
    let bad = [json!(null), json!([]), json!({}), json!({"game": 3}), json!({"players": 3})];
    for bad in names.chain(bad) {
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
        // A player action's name (from the same game with implicit chance, where no state
        // rests at a chance node), unless an outcome here has the same name.
        let decision = e.game.new_state(6, false);
        let player_action = decision.action_to_string(decision.legal_actions()[0]);
        let outcome_names: Vec<String> = outcomes.iter().map(|&a| s.action_to_string(a)).collect();
        for text in [player_action.as_str(), "pass"] {
            if outcome_names.iter().any(|n| n.eq_ignore_ascii_case(text.trim())) {
                continue;
            }
            let err = rejected(&mut s, |s| s.string_to_action(text).map(|_| ()));
            assert!(matches!(err, EngineError::UnknownActionString { .. }), "{} {text:?}: {err}", e.name);
        }
    }
}

/// H-R9 strings that name no legal action.
#[test]
fn strings_that_are_no_action_are_rejected_listing_the_legal_ones() {
    for e in registry() {
        let mut s = midgame(&*e.game, 7, false, 10);
        let legal_names: Vec<String> = s.legal_actions().iter().map(|&a| s.action_to_string(a)).collect();
        let long = "x".repeat(1 << 20);
        for text in ["", " ", "\t\n", "xyzzy", "sail:Atlantis", "0", "-1", "\0", "🦀", "pass pass", long.as_str()] {
            // Text that happens to be the name of one of this game's legal actions is no test.
            if legal_names.iter().any(|n| n.eq_ignore_ascii_case(text.trim())) {
                continue;
            }
            let err = rejected(&mut s, |s| s.string_to_action(text).map(|_| ()));
            match err {
                EngineError::UnknownActionString { text: t, message } => {
                    assert_eq!(t, text);
                    assert!(message.contains(&legal_names[0]), "{message}");
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

/// H-R15 a state saved with explicit chance at a chance node, switched to implicit chance
/// (a state with implicit chance never rests at a chance node).
#[test]
fn saved_state_with_implicit_chance_at_a_chance_node_is_rejected() {
    for e in registry() {
        let g = &*e.game;
        let s = first_chance_node(g, 13);
        let mut v: Value = serde_json::from_str(&s.to_json()).unwrap();
        v["explicit_chance"] = json!(false);
        let r = g.state_from_json(&v.to_string());
        assert!(
            matches!(r, Err(EngineError::StateFormat(_))),
            "{} {:?}: a state with implicit chance at a chance node loads (is_chance={:?})",
            e.name,
            e.options,
            r.as_ref().map(|s| s.is_chance()).ok()
        );
    }
}

/// H-R16 a saved move number past the game's move bound.
#[test]
fn saved_state_with_a_move_number_past_the_bound_is_rejected() {
    for e in registry() {
        let g = &*e.game;
        let bound = g.spec().max_game_length as u64;
        let v: Value = serde_json::from_str(&midgame(g, 14, false, 10).to_json()).unwrap();
        for moves in [bound + 1, u64::MAX] {
            let mut v = v.clone();
            v["move_number"] = json!(moves);
            let r = g.state_from_json(&v.to_string());
            assert!(
                matches!(r, Err(EngineError::StateFormat(_))),
                "{} {:?}: a state at move {moves} (bound {bound}) loads",
                e.name,
                e.options
            );
        }
    }
}

// ----- component data files ----------------------------------------------------------------

/// H-R22 the data option of the wrong type, and a data file path that does not exist.
#[test]
fn data_option_of_the_wrong_type_or_missing_file() {
    let mut tried = 0;
    for name in registered() {
        for decl in tradewinds::games::options(name).unwrap().iter().filter(|d| d.kind == OptionKind::Data) {
            for bad in [json!(3), json!(true), json!([1, 2])] {
                match load(name, &options(json!({ decl.name: bad }))) {
                    Err(EngineError::InvalidOption { option, .. }) => assert_eq!(option, decl.name),
                    other => panic!("{name} {}={bad}: {:?}", decl.name, other.err()),
                }
            }
            let missing = std::env::temp_dir().join("tradewinds-no-such-dir").join(format!("{name}.json"));
            match load(name, &options(json!({ decl.name: missing.to_str().unwrap() }))) {
                Err(EngineError::DataFile { field, message }) => {
                    assert_eq!(field, "(file)");
                    assert!(message.contains("cannot read"), "{message}");
                }
                other => panic!("{name}: {:?}", other.err()),
            }
            tried += 1;
        }
    }
    assert!(tried > 0, "no registered game has a data option");
}

// ----- game records ------------------------------------------------------------------------

fn record_error<T>(r: Result<T, EngineError>) -> String {
    match r {
        Err(EngineError::Record(m)) => m,
        Err(e) => panic!("wrong kind of error: {e:?}"),
        Ok(_) => panic!("a hostile record replayed"),
    }
}

/// H-R28 game records: prefixes of the text, foreign text, a future format version, another
/// game, options out of range, fields of the wrong type or unknown, a move that is not legal
/// where it stands, a move after the end, more moves than any game lasts, another seed.
#[test]
fn hostile_records_are_record_errors_that_say_what_is_wrong() {
    use tradewinds::games::replay;
    for e in registry() {
        let g = &*e.game;
        let done = finished(g, 21);
        let text = done.record().unwrap().to_json();
        assert!(replay(&text, None).unwrap().1.equals(&*done), "{} {:?}: the record does not replay", e.name, e.options);
        for n in (0..text.len()).step_by(5) {
            record_error(replay(&text[..n], None));
        }
        for foreign in ["", "null", "[]", "{}", "{\"format\": 1}", &done.to_json()] {
            record_error(replay(foreign, None));
        }
        let v: Value = serde_json::from_str(&text).unwrap();
        let edited = |edit: &dyn Fn(&mut Value)| {
            let mut v = v.clone();
            edit(&mut v);
            record_error(replay(&v.to_string(), None))
        };
        assert!(edited(&|v| v["format"] = json!(2)).contains("record format version 2"));
        assert!(edited(&|v| v["game"] = json!("chess")).contains("unknown game \"chess\""));
        assert!(edited(&|v| v["options"]["players"] = json!(99)).contains("players"));
        assert!(edited(&|v| v["moves"] = json!("sail")).contains("field `moves`"));
        assert!(edited(&|v| v["seed"] = json!(-1)).contains("field `seed`"));
        assert!(edited(&|v| v["surprise"] = json!(1)).contains("surprise"));
        assert!(edited(&|v| v["moves"][0] = json!("no such move")).contains("move 0 (\"no such move\") is not legal there"));
        let last = v["moves"].as_array().unwrap().last().unwrap().clone();
        assert!(edited(&|v| v["moves"].as_array_mut().unwrap().push(last.clone())).contains("after the end"));
        let many = g.spec().max_game_length + 1;
        assert!(edited(&|v| v["moves"] = json!(vec!["x"; many])).contains("more than any game lasts"));
        assert!(edited(&|v| v["seed"] = json!(v["seed"].as_u64().unwrap() + 1)).contains("draws"));
        assert!(record_error(replay(&text, Some(usize::MAX))).contains("moves, not"));
    }
}
