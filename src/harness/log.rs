//! The shared checks of the readable log and of game records, for every registered game.
//!
//! A seat's sentence for a move ([`Game::describe_move`]) may tell only what that seat may
//! know: the move as the seat sees it ([`Game::action_string_for`]) and the seat's
//! observation after it. Checked two ways at every step of random games:
//! - every other move possible there (another chance outcome, another secret choice) that
//!   the seat sees as the same move, and that leaves its observation (string and tensor) the
//!   same, gets the same sentence;
//! - the same move in a resample of the position for that seat (what is hidden from the seat
//!   drawn afresh) that leaves its observation the same gets the same sentence.
//!
//! And a game's record replays to the identical state and the identical log, with chance
//! drawn from the seed and with chance given move by move.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::engine::game::{Action, Game};
use crate::engine::svg::Viewer;
use crate::engine::record::Record;
use crate::engine::rng::{below, derive_seed, rng_from_seed};
use crate::engine::state::GameState;
use crate::engine::GameDefinition;
use crate::games::{visit, Visitor};

/// How much the checks compared, so a test can assert that they were not vacuous.
#[derive(Debug, Default, Clone)]
pub struct LogStats {
    pub moves: u64,
    /// Sentences compared with another move's that the seat cannot tell apart.
    pub alternatives_compared: u64,
    /// Sentences compared with the same move in a resampled position.
    pub resamples_compared: u64,
    /// The stems of the action names played (the name before any `:`, without a trailing
    /// count: `buy-1:fish` gives `buy`, `set sails to 2` gives `set sails to`).
    pub stems: std::collections::BTreeSet<String>,
}

/// The stem of an action name, which the game's glossary must explain.
pub fn stem(name: &str) -> String {
    let head = name.split(':').next().unwrap_or(name);
    head.trim_end_matches(|c: char| c.is_ascii_digit() || c == '-' || c == ' ').to_string()
}

fn observation<G: Game>(game: &G, s: &G::State, seat: usize, len: usize) -> (String, Vec<f32>) {
    let mut t = vec![0.0; len];
    game.observation_tensor(s, seat, &mut t);
    (game.text(s, Viewer::Seat(seat)), t)
}

/// Checks one move's sentences for every seat and a spectator.
fn check_move<G: Game>(
    game: &G,
    before: &G::State,
    a: Action,
    after: &G::State,
    resample_seed: u64,
    stats: &mut LogStats,
) -> Result<(), String> {
    let n = game.spec().players;
    let len: usize = game.spec().observation_tensor_shape.iter().product();
    let mut legal = Vec::new();
    game.legal_actions(before, &mut legal);
    for observer in std::iter::once(None).chain((0..n).map(Some)) {
        let text = game.describe_move(before, a, after, observer);
        ensure!(!text.trim().is_empty(), "the sentence for {observer:?} is empty");
        ensure!(!text.contains('\n'), "the sentence for {observer:?} spans lines: {text:?}");
    }
    for seat in 0..n {
        let text = game.describe_move(before, a, after, Some(seat));
        let seen = observation(game, after, seat, len);
        let shown = game.action_string_for(before, a, seat);
        for &b in legal.iter().filter(|&&b| b != a).take(48) {
            if game.action_string_for(before, b, seat) != shown {
                continue;
            }
            let mut other = before.clone();
            game.apply(&mut other, b);
            if observation(game, &other, seat, len) == seen {
                stats.alternatives_compared += 1;
                let alt = game.describe_move(before, b, &other, Some(seat));
                ensure!(
                    alt == text,
                    "P{seat} cannot tell {:?} from {:?} here, yet its log says {text:?} and {alt:?}",
                    game.action_to_string(before, a),
                    game.action_to_string(before, b)
                );
            }
        }
        let mut rng = rng_from_seed(resample_seed ^ seat as u64);
        let resampled = game.resample(before, seat, &mut rng);
        let mut there = Vec::new();
        game.legal_actions(&resampled, &mut there);
        if there.binary_search(&a).is_ok() {
            let mut moved = resampled.clone();
            game.apply(&mut moved, a);
            if observation(game, &moved, seat, len) == seen {
                stats.resamples_compared += 1;
                let alt = game.describe_move(&resampled, a, &moved, Some(seat));
                ensure!(
                    alt == text,
                    "P{seat}'s log of {:?} changes with what is hidden from P{seat}: {text:?}, and in a resample {alt:?}",
                    game.action_to_string(before, a)
                );
            }
        }
    }
    Ok(())
}

/// Checks that a state's record replays to the identical state and log.
fn check_record<G: Game>(game: &Arc<G>, state: &GameState<G>) -> Result<(), String> {
    let record = state.record().map_err(|e| format!("no record: {e}"))?;
    let record = Record::from_json(&record.to_json()).map_err(|e| format!("the record does not load: {e}"))?;
    ensure!(record.moves.len() == state.history().len(), "the record holds {} moves", record.moves.len());
    let again = GameState::replay(Arc::clone(game), &record, None).map_err(|e| format!("the record does not replay: {e}"))?;
    ensure!(&again == state, "the record replays to another state");
    for observer in std::iter::once(None).chain((0..game.spec().players).map(Some)) {
        ensure!(again.log(observer) == state.log(observer), "the replayed log for {observer:?} differs");
    }
    Ok(())
}

/// Plays `games` random games of `game` with explicit chance, checking every move's sentences
/// ([`check_move`]) and that the log is those sentences; and as many with chance drawn from
/// the seed. Every game's record replays to the identical state and log.
pub fn check_log<G: Game>(game: Arc<G>, games: usize, seed: u64) -> Result<LogStats, String> {
    let mut stats = LogStats::default();
    for g in 0..games {
        for explicit in [true, false] {
            let gseed = derive_seed(seed, g as u64);
            let mut rng = rng_from_seed(gseed ^ 0x1066);
            let mut state = GameState::new(Arc::clone(&game), gseed, explicit);
            let mut sentences = Vec::new();
            while !state.is_terminal() {
                let legal = state.legal_actions();
                let a = legal[below(&mut rng, legal.len() as u32) as usize];
                let before = state.inner().clone();
                stats.stems.insert(stem(&game.action_to_string(&before, a)));
                state.apply(a).map_err(|e| e.to_string())?;
                if explicit {
                    let ctx = format!("game {g} (seed {gseed}) move {}", stats.moves);
                    check_move(&*game, &before, a, state.inner(), gseed ^ stats.moves, &mut stats)
                        .map_err(|e| format!("{ctx} ({}): {e}", game.action_to_string(&before, a)))?;
                    sentences.push(game.log_sentence(&before, a, state.inner(), None));
                }
                stats.moves += 1;
            }
            if explicit {
                let log: Vec<String> = state.log(None).map_err(|e| e.to_string())?.into_iter().map(|e| e.text).collect();
                ensure!(log == sentences, "game {g}: the log is not the moves' sentences");
            }
            check_record(&game, &state).map_err(|e| format!("game {g} (seed {gseed}, explicit {explicit}): {e}"))?;
        }
    }
    Ok(stats)
}

struct LogCheck<'a> {
    options: &'a Map<String, Value>,
    games: usize,
    seed: u64,
}

impl Visitor for LogCheck<'_> {
    type Output = Result<LogStats, String>;
    fn visit<G: GameDefinition>(self) -> Self::Output {
        let game = G::load(self.options).map_err(|e| format!("the configuration does not load: {e}"))?;
        let stats = check_log(Arc::new(game), self.games, self.seed)?;
        ensure!(G::HOW_TO_PLAY.trim().len() > 200, "{}: how to play is missing or too short", G::NAME);
        for stem in &stats.stems {
            ensure!(G::NOTATION.contains(stem.as_str()), "{}: the glossary does not explain {stem:?}", G::NAME);
        }
        Ok(stats)
    }
}

/// [`check_log`] for the registered game `name` built with `options`; and the game's texts:
/// how to play is there, and its glossary names every action name's [`stem`] played.
pub fn check_log_configuration(name: &str, options: &Map<String, Value>, games: usize, seed: u64) -> Result<LogStats, String> {
    visit(name, LogCheck { options, games, seed }).map_err(|e| e.to_string())?
}
