//! What must hold after every step, for every registered game: one place shared by the
//! conformance suite, the fuzz targets (`fuzz/`, `tests/fuzz_bounded.rs`) and the property
//! tests (`tests/proptest_engine.rs`).
//!
//! * [`check_state`]: the invariants of one state: legal actions sorted, distinct, in range
//!   and agreeing with the mask and the chance outcomes; action names unique and parsed back;
//!   observations of the right size and finite; returns zero before the end and consistent
//!   winners at the end; the score report; a secret decision that shows nothing to the other
//!   seats; optionally (heavy) JSON and binary round trips (which re-run the game's
//!   saved-state validator) and resampling.
//! * [`check_apply`]: one checked `apply`: accepted exactly when the action is among
//!   `legal_actions()`; an accepted action extends the history and leaves a state that passes
//!   [`check_state`]; a rejected one is an `IllegalAction` error and leaves the state equal
//!   (also as JSON) to what it was. [`check_apply_text`] does the same for an action named
//!   by text.
//! * [`play_random`]: random legal play, checked every few moves.

use crate::engine::dynamic::{DynGame, DynState};
use crate::engine::error::EngineError;
use crate::engine::game::{Action, GameSpec, CHANCE, TERMINAL};
use crate::engine::report::ScoreRecord;
use crate::engine::rng::{below, Rng};
use crate::engine::state::without_closing_note;

/// The result of a check: `Err` describes the broken invariant.
pub type Check = std::result::Result<(), String>;

/// Checks the invariants of `state`, a state of `game`. `heavy` adds the costly ones: JSON
/// and binary round trips (which run the game's saved-state validator on the state) and a
/// resample for every player (which must keep what that player sees). `seed` seeds the
/// resampling.
pub fn check_state(game: &dyn DynGame, state: &dyn DynState, heavy: bool, seed: u64) -> Check {
    let spec = state.spec().clone();
    ensure!(spec == *game.spec(), "the state's spec differs from its game's");
    let players = spec.players;

    let copy = state.clone_box();
    ensure!(copy.equals(state), "a clone differs from the original");
    ensure!(
        state.move_number() as usize <= spec.max_game_length,
        "move {} is past the game's bound {}",
        state.move_number(),
        spec.max_game_length
    );
    ensure!(state.move_number() >= state.history().len() as u64, "move number smaller than the history");

    let current = state.current_player();
    let terminal = state.is_terminal();
    let chance = state.is_chance();
    ensure!(terminal == (current == TERMINAL), "is_terminal disagrees with current_player {current}");
    ensure!(chance == (current == CHANCE), "is_chance disagrees with current_player {current}");
    ensure!(
        terminal || chance || (0..players as i32).contains(&current),
        "current player {current} out of range"
    );
    ensure!(!chance || state.explicit_chance(), "a state with implicit chance rests at a chance node");

    let legal = state.legal_actions();
    ensure!(legal.windows(2).all(|w| w[0] < w[1]), "legal actions not sorted and distinct: {legal:?}");
    let mask = state.legal_action_mask();
    ensure!(mask.len() == spec.num_distinct_actions, "mask of length {} != {}", mask.len(), spec.num_distinct_actions);
    let outcomes = state.chance_outcomes();
    let returns = state.returns();
    ensure!(returns.len() == players, "returns of length {}", returns.len());
    ensure!(returns.iter().all(|x| x.is_finite()), "non-finite returns {returns:?}");
    let scores = state.scores();
    ensure!(scores.len() == players, "scores of length {}", scores.len());
    let winners = state.winners();
    ensure!(winners.iter().all(|&w| w < players), "winner out of range: {winners:?}");

    // Every action id of this node's space has a name (the bindings ask for any id in range),
    // and the legal ones have distinct names that parse back.
    let space = if chance { spec.max_chance_outcomes } else { spec.num_distinct_actions };
    for a in 0..space as Action + 2 {
        let _ = state.action_to_string(a);
    }
    let mut names = std::collections::HashSet::new();
    for &a in &legal {
        let name = state.action_to_string(a);
        ensure!(!name.is_empty(), "action {a} has an empty name");
        ensure!(names.insert(name.clone()), "two legal actions are named {name:?}");
        match state.string_to_action(&name) {
            Ok(b) => ensure!(b == a, "{name:?} parses to {b}, not {a}"),
            Err(e) => return Err(format!("{name:?} (action {a}) does not parse back: {e}")),
        }
    }

    if terminal {
        ensure!(legal.is_empty(), "a terminal state has legal actions {legal:?}");
        ensure!(mask.iter().all(|&m| !m), "mask set at a terminal state");
        ensure!(outcomes.is_empty(), "chance outcomes at a terminal state");
        if state.is_truncated() {
            ensure!(winners.is_empty(), "a truncated game has winners {winners:?}");
            ensure!(returns.iter().all(|&x| x == 0.0), "a truncated game has returns {returns:?}");
        } else {
            // A game may end with no winning seat (a lost solo game, an opponent that is not a
            // seat won); its returns still say so, unless every seat of several shared the win.
            let draw = players > 1 && winners.len() == players;
            ensure!(draw || returns.iter().any(|&x| x != 0.0), "a finished game with all-zero returns");
            for &w in &winners {
                ensure!(returns.iter().all(|&x| x <= returns[w]), "winner {w} has a lower return than another seat: {returns:?}");
            }
        }
        ensure!(
            returns.iter().all(|&x| x >= spec.min_return - 1e-9 && x <= spec.max_return + 1e-9),
            "returns {returns:?} outside [{}, {}]",
            spec.min_return,
            spec.max_return
        );
        if spec.zero_sum {
            ensure!(returns.iter().sum::<f64>().abs() < 1e-9, "a zero-sum game's returns {returns:?} do not add up to 0");
        }
    } else {
        ensure!(!legal.is_empty(), "no legal action at a non-terminal state");
        ensure!(returns.iter().all(|&x| x == 0.0), "non-zero returns {returns:?} before the end");
        ensure!(winners.is_empty(), "winners {winners:?} before the end");
        ensure!(!state.is_truncated(), "truncated before the end");
        if !chance && state.decision_is_secret() {
            check_secret_decision(state, &legal)?;
        }
        if chance {
            ensure!(legal.iter().all(|&a| (a as usize) < spec.max_chance_outcomes), "chance outcome out of range: {legal:?}");
            ensure!(mask.iter().all(|&m| !m), "mask set at a chance node");
            let ids: Vec<Action> = outcomes.iter().map(|o| o.0).collect();
            ensure!(ids == legal, "chance outcomes {ids:?} differ from the legal list {legal:?}");
            ensure!(outcomes.iter().all(|o| o.1 > 0.0 && o.1 <= 1.0), "chance probability out of (0, 1]: {outcomes:?}");
            let total: f64 = outcomes.iter().map(|o| o.1).sum();
            ensure!((total - 1.0).abs() < 1e-9, "chance probabilities sum to {total}");
        } else {
            ensure!(legal.iter().all(|&a| (a as usize) < spec.num_distinct_actions), "action out of range: {legal:?}");
            ensure!(outcomes.is_empty(), "chance outcomes at a decision node");
            let from_mask: Vec<Action> = (0..mask.len()).filter(|&i| mask[i]).map(|i| i as Action).collect();
            ensure!(from_mask == legal, "mask {from_mask:?} disagrees with legal actions {legal:?}");
        }
    }

    check_report(&spec, state, &scores, &winners)?;
    ensure!(!state.render().is_empty(), "empty rendering");
    let public = state.public_string();
    ensure!(!public.is_empty(), "empty public table");

    let tensor_len: usize = spec.observation_tensor_shape.iter().product();
    let (low, high) = state.observation_bounds();
    ensure!(low.iter().chain(&high).all(|x| x.is_finite()), "an infinite observation bound");
    let mut views = Vec::with_capacity(players);
    for p in 0..players {
        let t = state.observation_tensor(p).map_err(|e| format!("observation tensor of {p}: {e}"))?;
        ensure!(t.len() == tensor_len, "tensor of length {} != {tensor_len}", t.len());
        ensure!(t.iter().all(|x| x.is_finite()), "non-finite observation for {p}");
        if let Some(i) = (0..tensor_len).find(|&i| !(low[i] <= t[i] && t[i] <= high[i])) {
            return Err(format!("observation of {p}: entry {i} is {}, outside its bounds {}..={}", t[i], low[i], high[i]));
        }
        let s = state.observation_string(p).map_err(|e| format!("observation string of {p}: {e}"))?;
        ensure!(!s.is_empty(), "empty observation string for {p}");
        views.push((s, t));
    }
    for bad in [players, players + 1, usize::MAX] {
        ensure!(
            matches!(state.observation_string(bad), Err(EngineError::InvalidRequest(_))),
            "observation_string({bad}) is not an InvalidRequest error"
        );
        ensure!(
            matches!(state.observation_tensor(bad), Err(EngineError::InvalidRequest(_))),
            "observation_tensor({bad}) is not an InvalidRequest error"
        );
        ensure!(
            matches!(state.resample(bad, seed), Err(EngineError::InvalidRequest(_))),
            "resample({bad}) is not an InvalidRequest error"
        );
    }

    if heavy {
        check_round_trips(game, state)?;
        for (p, (s, t)) in views.iter().enumerate() {
            let r = state.resample(p, seed ^ p as u64).map_err(|e| format!("resample for {p}: {e}"))?;
            let rs = r.observation_string(p).map_err(|e| e.to_string())?;
            ensure!(rs == *s, "resampling for player {p} changed what {p} sees:\n{s}\n---\n{rs}");
            ensure!(r.observation_tensor(p).map_err(|e| e.to_string())? == *t, "resampling for player {p} changed {p}'s tensor");
            ensure!(r.current_player() == current, "resampling changed whose turn it is");
            ensure!(r.public_string() == public, "resampling for player {p} changed the public table");
            ensure!(r.move_number() == state.move_number(), "resampling changed the move number");
            game.state_from_json(&r.to_json()).map_err(|e| format!("resample for {p} does not validate: {e}"))?;
        }
    }
    Ok(())
}

/// The score report agrees with the state: a row per seat and per opponent (named as in the
/// spec) that adds up, the same winners, opponents winning and a tier only at the end; and
/// the game's score record (what `simulate` keeps) holds exactly the report's numbers.
fn check_report(spec: &GameSpec, state: &dyn DynState, scores: &[f64], winners: &[usize]) -> Check {
    let report = state.score_report();
    let categories = report.categories.len();
    ensure!(report.totals == scores, "score report totals {:?} differ from scores {scores:?}", report.totals);
    ensure!(report.points.len() == spec.players, "score report has {} rows", report.points.len());
    for (p, row) in report.points.iter().enumerate() {
        ensure!(row.len() == categories, "score report row {p} has {} categories, not {categories}", row.len());
        let sum: f64 = row.iter().sum();
        ensure!((sum - report.totals[p]).abs() < 1e-9, "score report row {p} does not add up");
    }
    let names: Vec<&str> = report.opponents.iter().map(|o| o.name.as_str()).collect();
    ensure!(names == spec.opponents, "score report opponents {names:?} differ from the spec's {:?}", spec.opponents);
    for o in &report.opponents {
        ensure!(o.points.len() == categories, "opponent {} has {} categories, not {categories}", o.name, o.points.len());
        let sum: f64 = o.points.iter().sum();
        ensure!((sum - o.total).abs() < 1e-9, "opponent {} does not add up", o.name);
    }
    ensure!(report.winners == winners, "score report winners {:?} differ from winners {winners:?}", report.winners);
    ensure!(
        report.opponent_winners.windows(2).all(|w| w[0] < w[1])
            && report.opponent_winners.iter().all(|&o| o < spec.opponents.len()),
        "opponent winners {:?} not sorted, distinct indices of the opponents",
        report.opponent_winners
    );
    ensure!(report.terminal == state.is_terminal(), "score report says terminal={}", report.terminal);
    ensure!(report.truncated == state.is_truncated(), "score report says truncated={}", report.truncated);
    if !state.is_terminal() || state.is_truncated() {
        ensure!(report.opponent_winners.is_empty(), "opponents {:?} won a game that did not end", report.opponent_winners);
        ensure!(report.tier.is_none(), "tier {:?} reached in a game that did not end", report.tier);
    }
    if let Some(tier) = &report.tier {
        ensure!(spec.tiers.contains(tier), "tier {tier:?} is not one of {:?}", spec.tiers);
    }
    let mut numbers = ScoreRecord::default();
    numbers.read(&report, &spec.tiers);
    let record = state.score_record();
    ensure!(record == numbers, "score record {record:?} differs from the score report's numbers {numbers:?}");
    Ok(())
}

/// A secret decision reveals nothing to the other seats while the secret choices go on: the
/// move as it is shown to them is the same whatever was chosen, and when another secret
/// decision follows at once (no chance resolved in between), so is every other seat's
/// observation (string and tensor). Once the last secret choice is made the game may reveal
/// them all.
fn check_secret_decision(state: &dyn DynState, legal: &[Action]) -> Check {
    let actor = state.current_player() as usize;
    type View = (String, Option<(String, Vec<f32>)>);
    let mut seen: Option<Vec<View>> = None;
    for &a in legal {
        let mut next = state.clone_box();
        next.apply(a).map_err(|e| format!("secret action {a} rejected: {e}"))?;
        let at_once = next.move_number() == state.move_number() + 1;
        let still_secret = at_once && !next.is_terminal() && !next.is_chance() && next.decision_is_secret();
        let mut views = Vec::new();
        for q in (0..state.spec().players).filter(|&q| q != actor) {
            let shown = state.action_string_for(a, q).map_err(|e| e.to_string())?;
            let observed = if still_secret {
                Some((next.observation_string(q).map_err(|e| e.to_string())?, next.observation_tensor(q).map_err(|e| e.to_string())?))
            } else {
                None
            };
            views.push((shown, observed));
        }
        match &seen {
            None => seen = Some(views),
            Some(first) => ensure!(
                *first == views,
                "the secret decision of player {actor} shows another seat which action {a} was taken"
            ),
        }
    }
    Ok(())
}

/// The JSON and binary round trips of `state` (which run the game's saved-state validator):
/// each gives back an equal state, and the JSON text is stable.
pub fn check_round_trips(game: &dyn DynGame, state: &dyn DynState) -> Check {
    let json = state.to_json();
    let back = game.state_from_json(&json).map_err(|e| format!("JSON round trip fails: {e}"))?;
    ensure!(back.equals(state), "JSON round trip changed the state");
    ensure!(back.to_json() == json, "JSON round trip changed the JSON text");
    let bytes = state.to_bytes();
    let back = game.state_from_bytes(&bytes).map_err(|e| format!("binary round trip fails: {e}"))?;
    ensure!(back.equals(state), "binary round trip changed the state");
    Ok(())
}

/// One checked `apply`. Returns whether the action was accepted (which it must be exactly
/// when it is among `legal_actions()` of a non-terminal state). An accepted action is the
/// next entry of the history, the move number grows with the history and the new state
/// passes [`check_state`]; a rejected action is an `IllegalAction` error and leaves the
/// state equal, also as JSON, to what it was.
pub fn check_apply(
    game: &dyn DynGame,
    state: &mut Box<dyn DynState>,
    action: Action,
    heavy: bool,
    seed: u64,
) -> std::result::Result<bool, String> {
    let legal = state.legal_actions();
    let expected = !state.is_terminal() && legal.binary_search(&action).is_ok();
    let before = state.clone_box();
    let before_json = if expected { None } else { Some(state.to_json()) };
    let history_before = state.history();
    match state.apply(action) {
        Ok(()) => {
            ensure!(
                expected,
                "illegal action {action} ({}) accepted; legal were {legal:?}",
                before.action_to_string(action)
            );
            let history = state.history();
            ensure!(
                history.len() > history_before.len()
                    && history[..history_before.len()] == history_before[..]
                    && history[history_before.len()] == action,
                "the history does not record action {action}"
            );
            ensure!(
                state.move_number() - before.move_number() == (history.len() - history_before.len()) as u64,
                "the move number did not grow with the history"
            );
            check_state(game, &**state, heavy, seed).map_err(|e| format!("after action {action}: {e}"))?;
            Ok(true)
        }
        Err(EngineError::IllegalAction(message)) => {
            ensure!(!expected, "legal action {action} rejected: {message}");
            ensure!(state.equals(&*before), "rejected action {action} changed the state");
            ensure!(Some(state.to_json()) == before_json, "rejected action {action} changed the saved state");
            Ok(false)
        }
        Err(e) => Err(format!("action {action}: wrong kind of error {e:?}")),
    }
}

/// `string_to_action(text)` then a checked apply. A text that names no legal action is an
/// `UnknownActionString` error and changes nothing; one that does names that action (a name
/// without its closing note, the one legal action it leaves).
pub fn check_apply_text(
    game: &dyn DynGame,
    state: &mut Box<dyn DynState>,
    text: &str,
    heavy: bool,
    seed: u64,
) -> std::result::Result<bool, String> {
    let legal = state.legal_actions();
    let wanted = text.trim();
    let mut matches: Vec<Action> =
        legal.iter().copied().filter(|&a| state.action_to_string(a).eq_ignore_ascii_case(wanted)).collect();
    if matches.is_empty() {
        // A name without its closing note names the one legal action it leaves, if one.
        let bare: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|&a| without_closing_note(&state.action_to_string(a)).is_some_and(|n| n.eq_ignore_ascii_case(wanted)))
            .collect();
        if bare.len() == 1 {
            matches = bare;
        }
    }
    let before = state.clone_box();
    match state.string_to_action(text) {
        Ok(a) => {
            ensure!(matches.contains(&a), "{text:?} resolves to {a}, which is not a legal action of that name");
            let accepted = check_apply(game, state, a, heavy, seed)?;
            ensure!(accepted, "{text:?} resolved to {a}, which apply rejected");
            Ok(true)
        }
        Err(EngineError::UnknownActionString { .. }) => {
            ensure!(matches.is_empty(), "{text:?} names legal action(s) {matches:?} but was not recognised");
            ensure!(state.equals(&*before), "an unknown action string changed the state");
            Ok(false)
        }
        Err(e) => Err(format!("{text:?}: wrong kind of error {e:?}")),
    }
}

/// A uniformly random legal action (at a chance node, a uniformly random outcome).
pub fn random_legal(state: &dyn DynState, rng: &mut Rng) -> Option<Action> {
    let legal = state.legal_actions();
    if legal.is_empty() {
        None
    } else {
        Some(legal[below(rng, legal.len() as u32) as usize])
    }
}

/// Plays up to `moves` uniformly random legal moves. Every `check_every`-th move goes
/// through [`check_apply`] (light checks; heavy ones every `heavy_every`-th move, 0 for
/// never); the others are plain checked `apply`s that must succeed. Stops at the end of
/// the game.
pub fn play_random(
    game: &dyn DynGame,
    state: &mut Box<dyn DynState>,
    moves: usize,
    rng: &mut Rng,
    check_every: usize,
    heavy_every: usize,
) -> Check {
    let check_every = check_every.max(1);
    for i in 0..moves {
        let Some(a) = random_legal(&**state, rng) else { return Ok(()) };
        if i % check_every == check_every - 1 {
            let heavy = heavy_every > 0 && i % heavy_every == heavy_every - 1;
            let accepted = check_apply(game, state, a, heavy, i as u64)?;
            ensure!(accepted, "legal action {a} rejected");
        } else {
            state.apply(a).map_err(|e| format!("legal action {a} rejected: {e}"))?;
        }
    }
    Ok(())
}
