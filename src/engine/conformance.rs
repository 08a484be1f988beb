//! The shared conformance suite: random-simulation invariants that every game must keep
//! (after OpenSpiel's RandomSimTest). Each game's tests call [`check_random_games`] for
//! every player count and mode.

use std::collections::HashSet;
use std::sync::Arc;

use super::game::{Action, Actor, Game};
use super::rng::{below, derive_seed, rng_from_seed};
use super::state::GameState;

/// What the suite saw, so a test can also assert that it explored enough.
#[derive(Debug, Default, Clone)]
pub struct ConformanceStats {
    pub games: usize,
    pub moves: u64,
    pub decisions: u64,
    pub chance_nodes: u64,
    pub terminals: usize,
    pub truncated: usize,
    pub max_legal_actions: usize,
    pub distinct_actions_seen: usize,
}

macro_rules! ensure {
    ($cond:expr, $($arg:tt)*) => {
        if $cond {
        } else {
            return Err(format!($($arg)*));
        }
    };
}

/// Plays `games` random games with explicit chance and checks, at every step:
/// clone equality; legal actions non-empty unless terminal, sorted, unique and in range;
/// mask agrees with the list; chance outcomes distinct, positive, summing to 1 and equal to
/// the legal list; JSON and binary round-trips; action strings unique and parsed back;
/// an illegal action rejected with the state unchanged; returns zero before the end;
/// observations of the right size, finite, and unchanged by resampling for their player;
/// the saved-state validator accepts every reachable state; the move bound holds.
/// `heavy_every` sets how often (in steps) the costly checks (serialization, resampling) run.
pub fn check_random_games<G: Game>(
    game: Arc<G>,
    games: usize,
    seed: u64,
    heavy_every: u64,
) -> Result<ConformanceStats, String> {
    let spec = game.spec().clone();
    let players = spec.players;
    let mut stats = ConformanceStats { games, ..Default::default() };
    let mut seen_actions: HashSet<Action> = HashSet::new();
    for g in 0..games {
        let gseed = derive_seed(seed, g as u64);
        let mut rng = rng_from_seed(gseed ^ 0xA5A5);
        let mut state = GameState::new(Arc::clone(&game), gseed, true);
        let mut step: u64 = 0;
        loop {
            let ctx = format!("game {g} (seed {gseed}) move {step}");
            // Clone equality.
            let copy = state.clone();
            ensure!(copy == state, "{ctx}: clone differs from original");
            // Validator accepts every reachable state.
            game.validate_state(state.inner())
                .map_err(|e| format!("{ctx}: validator rejects a reachable state: {e}"))?;
            // Round trips.
            if step % heavy_every == 0 || state.is_terminal() {
                let json = state.to_json();
                let back = GameState::from_json(&game, &json).map_err(|e| format!("{ctx}: {e}"))?;
                ensure!(back == state, "{ctx}: JSON round trip changed the state");
                let bytes = state.to_bytes();
                let back = GameState::from_bytes(&game, &bytes).map_err(|e| format!("{ctx}: {e}"))?;
                ensure!(back == state, "{ctx}: binary round trip changed the state");
            }
            // Observations.
            let tensor_len: usize = spec.observation_tensor_shape.iter().product();
            for p in 0..players {
                let t = state.observation_tensor(p).map_err(|e| e.to_string())?;
                ensure!(t.len() == tensor_len, "{ctx}: tensor length {} != {tensor_len}", t.len());
                ensure!(t.iter().all(|x| x.is_finite()), "{ctx}: non-finite observation");
                let s = state.observation_string(p).map_err(|e| e.to_string())?;
                ensure!(!s.is_empty(), "{ctx}: empty observation string");
                if step % heavy_every == 0 && !state.is_terminal() {
                    let r = state.resample(p, gseed ^ step).map_err(|e| e.to_string())?;
                    game.validate_state(r.inner())
                        .map_err(|e| format!("{ctx}: resample for {p} is inconsistent: {e}"))?;
                    ensure!(
                        r.observation_string(p).unwrap() == s,
                        "{ctx}: resampling for player {p} changed what player {p} sees:\n{}\n---\n{}",
                        s,
                        r.observation_string(p).unwrap()
                    );
                    ensure!(
                        r.observation_tensor(p).unwrap() == t,
                        "{ctx}: resampling for player {p} changed player {p}'s tensor"
                    );
                    ensure!(r.current_player() == state.current_player(),
                        "{ctx}: resampling changed whose turn it is");
                }
            }
            ensure!(state.move_number() as usize <= spec.max_game_length,
                "{ctx}: game longer than its bound {}", spec.max_game_length);
            let actor = state.actor();
            let legal = state.legal_actions();
            if actor == Actor::Terminal {
                ensure!(legal.is_empty(), "{ctx}: terminal state has legal actions");
                ensure!(state.apply(0).is_err(), "{ctx}: terminal state accepted an action");
                let r = state.returns();
                ensure!(r.len() == players, "{ctx}: returns of wrong length");
                let w = state.winners();
                if state.is_truncated() {
                    stats.truncated += 1;
                    ensure!(w.is_empty(), "{ctx}: truncated game has winners");
                } else {
                    ensure!(!w.is_empty(), "{ctx}: finished game without winner");
                    ensure!(r.iter().any(|&x| x != 0.0), "{ctx}: finished game with all-zero returns");
                }
                let report = state.score_report();
                ensure!(report.totals == state.scores(), "{ctx}: report totals differ from scores");
                for p in 0..players {
                    let sum: f64 = report.points[p].iter().sum();
                    ensure!((sum - report.totals[p]).abs() < 1e-9, "{ctx}: report rows do not add up");
                }
                stats.terminals += 1;
                break;
            }
            // Returns are only final at terminal.
            ensure!(state.returns().iter().all(|&x| x == 0.0), "{ctx}: non-zero returns before the end");
            ensure!(!legal.is_empty(), "{ctx}: no legal actions at a non-terminal state");
            ensure!(legal.windows(2).all(|w| w[0] < w[1]), "{ctx}: legal actions not sorted and unique: {legal:?}");
            stats.max_legal_actions = stats.max_legal_actions.max(legal.len());
            let mask = state.legal_action_mask();
            ensure!(mask.len() == spec.num_distinct_actions, "{ctx}: mask of wrong length");
            let action;
            match actor {
                Actor::Chance => {
                    stats.chance_nodes += 1;
                    ensure!(legal.iter().all(|&a| (a as usize) < spec.max_chance_outcomes),
                        "{ctx}: chance outcome out of range");
                    ensure!(mask.iter().all(|&m| !m), "{ctx}: mask set at a chance node");
                    let outcomes = state.chance_outcomes();
                    let ids: Vec<Action> = outcomes.iter().map(|o| o.0).collect();
                    ensure!(ids == legal, "{ctx}: chance outcomes {ids:?} differ from legal list {legal:?}");
                    ensure!(outcomes.iter().all(|o| o.1 > 0.0), "{ctx}: non-positive chance probability");
                    let total: f64 = outcomes.iter().map(|o| o.1).sum();
                    ensure!((total - 1.0).abs() < 1e-9, "{ctx}: chance probabilities sum to {total}");
                    // Sample with the game's own sampler, and check it picks an outcome.
                    action = game.sample_chance(state.inner(), &mut rng);
                    ensure!(legal.binary_search(&action).is_ok(), "{ctx}: sampler drew {action}, not an outcome");
                }
                Actor::Player(p) => {
                    ensure!(p < players, "{ctx}: current player {p} out of range");
                    stats.decisions += 1;
                    ensure!(legal.iter().all(|&a| (a as usize) < spec.num_distinct_actions),
                        "{ctx}: action out of range");
                    let from_mask: Vec<Action> =
                        (0..mask.len()).filter(|&i| mask[i]).map(|i| i as Action).collect();
                    ensure!(from_mask == legal, "{ctx}: mask disagrees with legal actions");
                    let mut names = HashSet::new();
                    for &a in &legal {
                        let s = state.action_to_string(a);
                        ensure!(!s.is_empty(), "{ctx}: empty action string");
                        ensure!(names.insert(s.clone()), "{ctx}: duplicate action string {s:?}");
                        let parsed = state.string_to_action(&s).map_err(|e| format!("{ctx}: {e}"))?;
                        ensure!(parsed == a, "{ctx}: {s:?} parses to {parsed}, not {a}");
                    }
                    // An illegal action is rejected and changes nothing.
                    if let Some(bad) = (0..spec.num_distinct_actions as Action).find(|a| legal.binary_search(a).is_err()) {
                        let before = state.clone();
                        ensure!(state.apply(bad).is_err(), "{ctx}: illegal action {bad} accepted");
                        ensure!(state == before, "{ctx}: rejected action changed the state");
                    }
                    action = legal[below(&mut rng, legal.len() as u32) as usize];
                    seen_actions.insert(action);
                }
                Actor::Terminal => unreachable!(),
            }
            state.apply(action).map_err(|e| format!("{ctx}: legal action rejected: {e}"))?;
            stats.moves += 1;
            step += 1;
        }
    }
    stats.distinct_actions_seen = seen_actions.len();
    Ok(stats)
}
