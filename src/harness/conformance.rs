//! The shared conformance suite: random-simulation invariants that every game must keep
//! (after OpenSpiel's RandomSimTest). Each game's tests call [`check_random_games`] for
//! every player count and mode.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::invariants::{check_round_trips, check_state};
use super::secrets::{check_secrets, SecretStats};
use crate::engine::dynamic::Handle;
use crate::engine::game::{Action, Actor, Game};
use crate::engine::rng::{below, derive_seed, rng_from_seed};
use crate::engine::state::GameState;
use crate::engine::GameDefinition;
use crate::games::{visit, Visitor};

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
    pub secrets: SecretStats,
}

/// Plays `games` random games with explicit chance and checks, at every step, the
/// invariants of [`check_state`] (shared with the fuzz targets and property tests: clone
/// equality; legal actions non-empty unless terminal, sorted, unique and in range; mask
/// agrees with the list; chance outcomes distinct, positive, summing to 1 and equal to the
/// legal list; action strings unique and parsed back; returns zero before the end, winners
/// at the end; score report rows adding up; observations of the right size and finite; the
/// move bound) and JSON and binary round trips (which run the saved-state validator on every
/// reachable state), and besides: the game's own chance sampler draws one of the outcomes;
/// an illegal action is rejected with the state unchanged, and so is any action at a
/// terminal state. `heavy_every` sets how often (in steps) the costly checks run: those of
/// [`check_state`] (a resample for every player that keeps what that player sees) and
/// [`check_secrets`] (a resample for every player that keeps who is asked, what is offered,
/// the move names and the log's next sentence; the pictures of the table, which cost more to
/// draw than the rest of the step, on every [`PICTURES_EVERY`]-th of those steps).
/// How often, among the steps with the costly checks, the secrets check also draws and
/// compares the pictures of the table.
pub const PICTURES_EVERY: u64 = 8;

pub fn check_random_games<G: Game>(
    game: Arc<G>,
    games: usize,
    seed: u64,
    heavy_every: u64,
) -> Result<ConformanceStats, String> {
    let spec = game.spec().clone();
    let as_dyn = Handle(Arc::clone(&game));
    let mut stats = ConformanceStats { games, ..Default::default() };
    let mut seen_actions: HashSet<Action> = HashSet::new();
    for g in 0..games {
        let gseed = derive_seed(seed, g as u64);
        let mut rng = rng_from_seed(gseed ^ 0xA5A5);
        let mut state = GameState::new(Arc::clone(&game), gseed, true);
        let mut step: u64 = 0;
        loop {
            let ctx = format!("game {g} (seed {gseed}) move {step}");
            let heavy = step % heavy_every == 0 || state.is_terminal();
            check_state(&as_dyn, &state, heavy, gseed ^ step).map_err(|e| format!("{ctx}: {e}"))?;
            if !heavy {
                // Serialization round trips at every step (check_state did them on heavy ones);
                // loading runs the saved-state validator, so every reachable state passes it.
                check_round_trips(&as_dyn, &state).map_err(|e| format!("{ctx}: {e}"))?;
            }
            let legal = state.legal_actions();
            let action = match state.actor() {
                Actor::Terminal => {
                    ensure!(state.apply(0).is_err(), "{ctx}: terminal state accepted an action");
                    stats.truncated += state.is_truncated() as usize;
                    stats.terminals += 1;
                    break;
                }
                Actor::Chance => {
                    stats.chance_nodes += 1;
                    // The game's own sampler picks one of the outcomes.
                    let action = game.sample_chance(state.inner(), &mut rng);
                    ensure!(legal.binary_search(&action).is_ok(), "{ctx}: sampler drew {action}, not an outcome");
                    action
                }
                Actor::Player(_) => {
                    stats.decisions += 1;
                    // An illegal action is rejected and changes nothing.
                    if let Some(bad) = (0..spec.num_distinct_actions as Action).find(|a| legal.binary_search(a).is_err()) {
                        let before = state.clone();
                        ensure!(state.apply(bad).is_err(), "{ctx}: illegal action {bad} accepted");
                        ensure!(state == before, "{ctx}: rejected action changed the state");
                    }
                    let action = legal[below(&mut rng, legal.len() as u32) as usize];
                    seen_actions.insert(action);
                    action
                }
            };
            if heavy {
                let draw = step % (heavy_every * PICTURES_EVERY) == 0;
                check_secrets(&*game, state.inner(), action, gseed ^ step, draw, &mut stats.secrets).map_err(|e| format!("{ctx}: {e}"))?;
            }
            stats.max_legal_actions = stats.max_legal_actions.max(legal.len());
            state.apply(action).map_err(|e| format!("{ctx}: legal action rejected: {e}"))?;
            stats.moves += 1;
            step += 1;
        }
    }
    stats.distinct_actions_seen = seen_actions.len();
    Ok(stats)
}

struct Conformance<'a> {
    options: &'a Map<String, Value>,
    games: usize,
    seed: u64,
    heavy_every: u64,
}

impl Visitor for Conformance<'_> {
    type Output = Result<ConformanceStats, String>;
    fn visit<G: GameDefinition>(self) -> Self::Output {
        let game = G::load(self.options).map_err(|e| format!("the configuration does not load: {e}"))?;
        check_random_games(Arc::new(game), self.games, self.seed, self.heavy_every)
    }
}

/// [`check_random_games`] for the registered game `name` built with `options`.
pub fn check_configuration(
    name: &str,
    options: &Map<String, Value>,
    games: usize,
    seed: u64,
    heavy_every: u64,
) -> Result<ConformanceStats, String> {
    visit(name, Conformance { options, games, seed, heavy_every }).map_err(|e| e.to_string())?
}
