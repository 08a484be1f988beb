//! The three fuzz targets' bodies, run by cargo-fuzz (`fuzz/fuzz_targets/`) and, on fixed
//! pseudo-random inputs, by `tests/fuzz_bounded.rs`. Any byte string is a valid input; a
//! broken invariant is an `Err`, a bug in a game is typically a panic (which
//! [`super::triage`] catches).
//!
//! * [`fuzz_action_stream`]: a stream of operations on one game.
//! * [`fuzz_state_bytes`]: hostile saved states.
//! * [`fuzz_data_text`]: hostile component data files.
//!
//! Every game and configuration comes from the registry ([`super::configurations`]); the
//! games with a component data file come from [`crate::games::data_files`].

use std::sync::Arc;

use serde_json::Value;

use super::configurations::{registry, Entry};
use super::input::FuzzInput;
use super::loaded::check_plays_on;
use super::invariants::{check_apply, check_apply_text, check_state, play_random, random_legal, Check};
use super::mutate::{fuzz_string, mutate_bytes, mutate_json, number, number_paths};
use crate::engine::dynamic::{DynGame, DynState};
use crate::engine::error::EngineError;
use crate::engine::game::Action;
use crate::engine::options::OptionKind;
use crate::engine::rng::rng_from_seed;

/// Most moves one input may play (keeps every input fast).
const MAX_MOVES: usize = 3000;

/// Moves of the random game every loaded state plays on, validated at every step
/// ([`check_plays_on`]): enough to cross a round of every game.
const PLAY_ON: usize = 300;

fn pick_entry(input: &mut FuzzInput<'_>) -> &'static Entry {
    let reg = registry();
    &reg[input.below(reg.len())]
}

/// A state of `entry` after `moves` random legal moves from a fresh game of `seed`.
fn reached_state(entry: &Entry, seed: u64, explicit_chance: bool, moves: usize) -> std::result::Result<Box<dyn DynState>, String> {
    let game = &*entry.game;
    let mut state = game.new_state(seed, explicit_chance);
    let mut rng = rng_from_seed(seed ^ 0x5EED);
    for _ in 0..moves {
        let Some(a) = random_legal(&*state, &mut rng) else { break };
        state.apply(a).map_err(|e| format!("legal action {a} rejected: {e}"))?;
    }
    Ok(state)
}

/// Target `action_stream`: the input picks a game configuration, a seed and the chance
/// mode, then a stream of operations: legal actions (chosen by index), arbitrary action ids,
/// action names (exact, altered case and spacing, or arbitrary text), random fast-forwards,
/// round trips through JSON and bytes, resamples and clones, with the checks of
/// [`check_apply`] and [`check_state`] after each.
pub fn fuzz_action_stream(data: &[u8]) -> Check {
    let mut input = FuzzInput::new(data);
    let entry = pick_entry(&mut input);
    let game = &*entry.game;
    let spec = game.spec().clone();
    let seed = input.u64();
    let flags = input.u8();
    let explicit_chance = flags & 1 == 1;
    // The costly checks (round trips, resampling) every 8th to 1024th step.
    let heavy_every = 8usize << ((flags >> 1) & 7);
    let mut state = game.new_state(seed, explicit_chance);
    check_state(game, &*state, true, seed)?;
    let mut rng = rng_from_seed(seed ^ 0xF022);
    let mut moves = 0usize;
    let mut step = 0usize;
    while !input.is_empty() && moves < MAX_MOVES {
        step += 1;
        let heavy = step % heavy_every == 0;
        let op = input.u8();
        let ctx = |e: String| format!("{} {:?} seed {seed} op {op} at step {step}: {e}", entry.name, entry.options);
        match op {
            // A legal action, by index.
            0..=127 => {
                let legal = state.legal_actions();
                let a = if legal.is_empty() { input.u32() } else { legal[input.u16() as usize % legal.len()] };
                check_apply(game, &mut state, a, heavy, seed).map_err(ctx)?;
            }
            // Any action id at all.
            128..=151 => {
                let a = input.u32();
                check_apply(game, &mut state, a, heavy, seed).map_err(ctx)?;
            }
            // An id near the node's action space.
            152..=183 => {
                let space = if state.is_chance() { spec.max_chance_outcomes } else { spec.num_distinct_actions };
                let a = (input.u8() as usize % (space + 4)) as Action;
                check_apply(game, &mut state, a, heavy, seed).map_err(ctx)?;
            }
            // An action by name: a legal one (its case and spacing altered), or any text.
            184..=199 => {
                let legal = state.legal_actions();
                let text = if !legal.is_empty() && input.bool() {
                    let name = state.action_to_string(legal[input.u16() as usize % legal.len()]);
                    match input.u8() % 4 {
                        0 => name,
                        1 => name.to_uppercase(),
                        2 => format!("  {name}\t"),
                        _ => name.chars().take(name.chars().count() / 2).collect(),
                    }
                } else {
                    fuzz_string(&mut input)
                };
                check_apply_text(game, &mut state, &text, heavy, seed).map_err(ctx)?;
            }
            // Fast-forward by random legal moves.
            200..=215 => {
                let k = input.u8() as usize * 2;
                play_random(game, &mut state, k, &mut rng, 8, 128).map_err(ctx)?;
                moves += k;
            }
            // All the heavy checks now.
            216..=223 => check_state(game, &*state, true, seed ^ step as u64).map_err(ctx)?,
            // Continue from a reloaded copy (JSON or bytes).
            224..=231 => {
                let back = if op & 1 == 0 {
                    game.state_from_json(&state.to_json())
                } else {
                    game.state_from_bytes(&state.to_bytes())
                }
                .map_err(|e| ctx(format!("round trip fails: {e}")))?;
                ensure!(back.equals(&*state), "{}", ctx("round trip changed the state".into()));
                state = back;
            }
            // Continue from a resample for some player (an out-of-range one is an error).
            232..=243 => {
                let p = input.u8() as usize % (spec.players + 1);
                let rseed = input.u64();
                match state.resample(p, rseed) {
                    Ok(r) => {
                        ensure!(p < spec.players, "{}", ctx(format!("resample for player {p} accepted")));
                        check_state(game, &*r, heavy, rseed).map_err(|e| ctx(format!("resample for {p}: {e}")))?;
                        if !r.is_terminal() {
                            state = r;
                        }
                    }
                    Err(EngineError::InvalidRequest(_)) if p >= spec.players => {}
                    Err(e) => return Err(ctx(format!("resample for {p}: {e:?}"))),
                }
            }
            // A clone is independent of the original.
            _ => {
                let json = state.to_json();
                let mut copy = state.clone_box();
                if let Some(a) = random_legal(&*copy, &mut rng) {
                    check_apply(game, &mut copy, a, false, seed).map_err(ctx)?;
                    ensure!(state.to_json() == json, "{}", ctx("applying to a clone changed the original".into()));
                    if input.bool() {
                        state = copy;
                    }
                }
            }
        }
        moves += 1;
    }
    Ok(())
}

/// What must hold for the result of loading hostile saved-state input into `game`: either a
/// `StateFormat` error, or a state that passes the game's validation (a reload of its own
/// save succeeds), all of [`check_state`], and plays on without panic.
fn check_loaded(
    game: &dyn DynGame,
    loaded: crate::engine::Result<Box<dyn DynState>>,
    input: &mut FuzzInput<'_>,
    what: &str,
) -> std::result::Result<Option<Box<dyn DynState>>, String> {
    check_loaded_moves(game, loaded, input, what, 200)
}

/// [`check_loaded`] playing on for at most `moves` moves.
fn check_loaded_moves(
    game: &dyn DynGame,
    loaded: crate::engine::Result<Box<dyn DynState>>,
    input: &mut FuzzInput<'_>,
    what: &str,
    moves: usize,
) -> std::result::Result<Option<Box<dyn DynState>>, String> {
    let mut state = match loaded {
        Err(EngineError::StateFormat(m)) => {
            ensure!(!m.is_empty(), "{what}: empty error message");
            return Ok(None);
        }
        Err(e) => return Err(format!("{what}: wrong kind of error {e:?}")),
        Ok(s) => s,
    };
    let seed = input.u64();
    let ctx = |e: String| format!("{what}: loaded state: {e}\n{}", state_json_head(&*state));
    check_state(game, &*state, true, seed).map_err(ctx)?;
    // A state that loads is a state that plays: a random game on from it, validated at every step.
    check_plays_on(game, &*state, seed, 1, moves.max(PLAY_ON)).map_err(ctx)?;
    let copy = state.clone_box();
    // Play on: legal moves and arbitrary ids, a bounded number.
    let mut rng = rng_from_seed(seed);
    for i in 0..moves {
        if state.is_terminal() {
            let accepted = check_apply(game, &mut state, input.u32(), false, seed)
                .map_err(|e| format!("{what}: at the end of a loaded game: {e}\n{}", state_json_head(&*copy)))?;
            ensure!(!accepted, "{what}: a terminal loaded state accepted an action");
            break;
        }
        let a = if input.u8() % 4 == 0 {
            input.u32() % (game.spec().num_distinct_actions as u32 + 2)
        } else {
            random_legal(&*state, &mut rng).expect("non-terminal")
        };
        // Heavy checks (which re-validate) right after loading, where a state the validator
        // should have refused shows first, then now and then.
        check_apply(game, &mut state, a, i < 5 || i % 25 == 24, seed).map_err(|e| format!("{what}: playing on from a loaded state: {e}\n{}", state_json_head(&*copy)))?;
    }
    Ok(Some(copy))
}

fn state_json_head(state: &dyn DynState) -> String {
    let json = state.to_json();
    if json.len() > 4000 {
        format!("{}...", &json[..4000])
    } else {
        json
    }
}

/// Target `state_bytes`: arbitrary bytes and text, and saved states (JSON and binary) of
/// reachable positions of any game mutated at the byte level or structurally, loaded into
/// any game configuration. Loading never panics and fails only with `StateFormat`; what
/// loads is valid and playable (see `check_loaded`); an unmutated save of the same
/// configuration always loads back equal.
pub fn fuzz_state_bytes(data: &[u8]) -> Check {
    let mut input = FuzzInput::new(data);
    let mode = input.u8() % 5;
    let reg = registry();
    match mode {
        0 => {
            let consumer = pick_entry(&mut input);
            let raw = input.rest();
            let game = &*consumer.game;
            check_loaded(game, game.state_from_bytes(raw), &mut FuzzInput::new(&[]), "raw bytes")?;
            let mut tagged = b"TWS\x01\x00\x00\x00".to_vec();
            tagged.extend_from_slice(raw);
            check_loaded(game, game.state_from_bytes(&tagged), &mut FuzzInput::new(&[]), "raw bytes after a valid header")?;
            let text = String::from_utf8_lossy(raw);
            check_loaded(game, game.state_from_json(&text), &mut FuzzInput::new(&[]), "raw text")?;
        }
        _ => {
            let producer_index = input.below(reg.len());
            let producer = &reg[producer_index];
            // Mostly load into the same configuration (deeper), sometimes into another one.
            let consumer = if input.u8() % 4 == 0 { &reg[input.below(reg.len())] } else { producer };
            let seed = input.u64();
            let explicit = input.bool();
            let moves = input.u16() as usize % 1200;
            let original = reached_state(producer, seed, explicit, moves)?;
            let mutations = 1 + input.u8() as usize % 6;
            let game = &*consumer.game;
            let same = std::ptr::eq(producer, consumer);
            match mode {
                1 => {
                    let clean = original.to_bytes();
                    let mut bytes = clean.clone();
                    for _ in 0..mutations {
                        mutate_bytes(&mut bytes, &mut input);
                    }
                    let loaded = game.state_from_bytes(&bytes);
                    if same && bytes == clean {
                        ensure!(
                            loaded.as_ref().is_ok_and(|s| s.equals(&*original)),
                            "an unmutated saved state does not load back equal"
                        );
                    }
                    check_loaded(game, loaded, &mut input, "mutated bytes")?;
                }
                // Sweeps over a window of the save: each byte of the binary save with the
                // same bits flipped, and each number of the JSON save's game state moved by
                // the same amount; each altered save loads and plays a few moves. A
                // systematic search finds the one field a validator forgets far sooner than
                // random bytes do.
                4 => {
                    const WINDOW: usize = 96;
                    let game = &*producer.game;
                    let bytes = original.to_bytes();
                    let mask = match input.u8() { 0 => 1, m => m };
                    let from = input.u16() as usize % bytes.len();
                    for i in from..(from + WINDOW).min(bytes.len()) {
                        let mut b = bytes.clone();
                        b[i] ^= mask;
                        check_loaded_moves(game, game.state_from_bytes(&b), &mut input, "bit-flipped bytes", 3)?;
                    }
                    let clean: Value = serde_json::from_str(&original.to_json()).map_err(|e| e.to_string())?;
                    let delta = [1i64, -1, 2, 32, 128, 255][input.below(6)];
                    let mut paths = Vec::new();
                    number_paths(&clean, "", &mut paths);
                    // The game state's numbers (the engine's own fields are swept by mode 2).
                    paths.retain(|p| p.starts_with("/state/"));
                    let from = input.u16() as usize % paths.len().max(1);
                    for path in paths.iter().skip(from).take(WINDOW) {
                        let mut v = clean.clone();
                        let x = v.pointer_mut(path).expect("a path of this value");
                        *x = number(x.as_i64().unwrap_or(0) as i128 + delta as i128);
                        let what = format!("swept JSON ({path} {delta:+})");
                        check_loaded_moves(game, game.state_from_json(&v.to_string()), &mut input, &what, 3)?;
                    }
                }
                2 => {
                    let clean = original.to_json();
                    let mut value: Value = serde_json::from_str(&clean).map_err(|e| e.to_string())?;
                    for _ in 0..mutations {
                        mutate_json(&mut value, &mut input);
                    }
                    let text = value.to_string();
                    let loaded = game.state_from_json(&text);
                    if same && text == clean {
                        ensure!(
                            loaded.as_ref().is_ok_and(|s| s.equals(&*original)),
                            "an unmutated saved state does not load back equal"
                        );
                    }
                    check_loaded(game, loaded, &mut input, "structurally mutated JSON")?;
                }
                _ => {
                    let mut bytes = original.to_json().into_bytes();
                    for _ in 0..mutations {
                        mutate_bytes(&mut bytes, &mut input);
                    }
                    let text = String::from_utf8_lossy(&bytes);
                    check_loaded(game, game.state_from_json(&text), &mut input, "mutated JSON text")?;
                }
            }
        }
    }
    Ok(())
}

/// Checks a data-file load result: a typed error, or a game that is consistent and plays.
fn check_data_game(
    name: &str,
    data_option: &str,
    loaded: crate::engine::Result<Arc<dyn DynGame>>,
    input: &mut FuzzInput<'_>,
) -> Check {
    let game = match loaded {
        Err(EngineError::DataFile { field, message }) => {
            ensure!(!message.is_empty(), "{name}: data file error without a message (field {field:?})");
            return Ok(());
        }
        Err(EngineError::InvalidOption { option, .. }) => {
            ensure!(option == data_option, "{name}: data option {data_option:?} rejected as option {option:?}");
            return Ok(());
        }
        Err(e) => return Err(format!("{name}: wrong kind of error for a data file: {e:?}")),
        Ok(g) => g,
    };
    // The configuration of a custom game rebuilds the same game.
    let again = crate::games::load_json(&game.config()).map_err(|e| format!("{name}: its config does not rebuild it: {e}"))?;
    ensure!(again.config() == game.config(), "{name}: the config does not round-trip");
    let seed = input.u64();
    let explicit = input.bool();
    let mut state = game.new_state(seed, explicit);
    check_state(&*game, &*state, true, seed).map_err(|e| format!("{name} with custom data: {e}"))?;
    let mut rng = rng_from_seed(seed);
    play_random(&*game, &mut state, 400, &mut rng, 1, 50).map_err(|e| format!("{name} with custom data {}: {e}", game.config()))
}

/// Target `data_text`: arbitrary text, and the shipped data files mutated structurally or
/// byte by byte, into the data-file loaders (the text parser and the game's data option
/// of `load`). They never panic and fail with a `DataFile` error; a custom data file that
/// loads gives a game whose configuration rebuilds it and that plays without panic.
pub fn fuzz_data_text(data: &[u8]) -> Check {
    let mut input = FuzzInput::new(data);
    let files = crate::games::data_files();
    let (game_name, kind) = files[input.below(files.len())];
    let data_option = crate::games::options(game_name)
        .ok()
        .and_then(|decls| decls.iter().find(|d| d.kind == OptionKind::Data))
        .map(|d| d.name)
        .ok_or_else(|| format!("{game_name} has a data file but declares no data option"))?;
    let mode = input.u8() % 3;
    let config = {
        let configs = crate::games::all_configurations(game_name);
        let i = input.below(configs.len().max(1));
        configs.into_iter().nth(i).unwrap_or_default()
    };
    let text: String = match mode {
        0 => String::from_utf8_lossy(input.rest()).into_owned(),
        1 => {
            let mut value: Value = serde_json::from_str(kind.shipped).map_err(|e| e.to_string())?;
            let mutations = 1 + input.u8() as usize % 8;
            for _ in 0..mutations {
                mutate_json(&mut value, &mut input);
            }
            if input.u8() % 4 == 0 {
                serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?
            } else {
                value.to_string()
            }
        }
        _ => {
            let mut bytes = kind.shipped.as_bytes().to_vec();
            let mutations = 1 + input.u8() as usize % 8;
            for _ in 0..mutations {
                mutate_bytes(&mut bytes, &mut input);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        }
    };
    let parsed_text = (kind.parse_text)(&text);
    match &parsed_text {
        Ok(()) | Err(EngineError::DataFile { .. }) => {}
        Err(e) => return Err(format!("{}: the text parser gave a wrong kind of error {e:?}", game_name)),
    }
    match serde_json::from_str::<Value>(&text) {
        // A JSON string would be taken as a file path: the fuzzer stays off the file system.
        Ok(Value::String(_)) => {}
        Ok(value) => {
            let mut options = config;
            options.insert(data_option.into(), value);
            let loaded = crate::games::load(game_name, &options);
            if let Ok(()) = parsed_text {
                // Both loaders accept the same files (unless the player count is the problem).
                ensure!(
                    loaded.is_ok() || matches!(loaded, Err(EngineError::DataFile { .. })),
                    "{}: the text parser accepts a file that load rejects with {:?}",
                    game_name,
                    loaded.as_ref().err()
                );
            }
            check_data_game(game_name, data_option, loaded, &mut input)?;
        }
        Err(_) => ensure!(parsed_text.is_err(), "{}: the text parser accepts text that is not JSON", game_name),
    }
    Ok(())
}
