//! Random rollouts and bulk simulation on all cores.
//!
//! Game `i` of a run with master seed `s` is played from seed `derive_seed(s, i)`, so every
//! result depends only on the master seed and the game index — never on the thread count or
//! on how games are split into chunks.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use super::agents::{choose, AgentScratch, AgentSpec};
use super::error::{EngineError, Result};
use super::game::{Action, Actor, Game, MAX_SEATS};
use super::metrics::{evaluates, GameMetrics, Trajectory, BRANCHING_BINS, EVALUATE_EVERY};
use super::report::ScoreRecord;
use super::rng::{below, derive_seed, rng_from_seed, Rng};
use super::state::GameState;

/// Plays `state` to the end with uniformly random decisions, sampling chance from `rng`.
/// Returns the number of decisions taken. `buf` is reused: no allocation per step.
pub fn random_rollout<G: Game>(
    game: &G,
    state: &mut G::State,
    rng: &mut Rng,
    buf: &mut Vec<Action>,
) -> u64 {
    let mut decisions = 0;
    loop {
        match game.actor(state) {
            Actor::Terminal => return decisions,
            Actor::Chance => {
                let a = game.sample_chance(state, rng);
                game.apply(state, a);
            }
            Actor::Player(_) => {
                game.legal_actions(state, buf);
                let a = buf[below(rng, buf.len() as u32) as usize];
                game.apply(state, a);
                decisions += 1;
            }
        }
    }
}

/// The outcome of one simulated game.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GameRecord {
    /// The numbers of the game's score report.
    pub score: ScoreRecord,
    pub moves: u64,
    pub decisions: u64,
    pub truncated: bool,
    /// The game's design metrics ([`GameMetrics::UNMEASURED`] when not measured).
    pub metrics: GameMetrics,
}

/// The agents of a game draw from a stream of their own: the seed's, with these bits flipped.
const AGENT_STREAM: u64 = 0xA6E7_5EED;

/// The seed of the stream the agents of game `index` of the run seeded `seed` draw from.
pub fn agent_seed(seed: u64, index: u64) -> u64 {
    derive_seed(seed ^ AGENT_STREAM, index)
}

/// What measuring a game's design metrics reuses from game to game, and how often it
/// evaluates the position: at every `every`-th decision (see [`super::metrics::evaluates`]).
#[derive(Debug, Clone)]
pub struct Measure {
    trajectory: Trajectory,
    every: u64,
}

impl Measure {
    /// For games of `players` seats, evaluating every `every`-th decision (at least 1).
    pub fn new(players: usize, every: u64) -> Self {
        Measure { trajectory: Trajectory::new(players), every: every.max(1) }
    }
}

/// Plays game `index` of the run seeded `seed`, seat p played by `agents[p]` (all random
/// when `agents` is empty), into `record` (its buffers reused). Chance and the agents draw
/// from separate streams derived from the seed and the index, so a game depends on nothing
/// else. With `measure`, the game's design metrics are measured on the way (from the game's
/// evaluation before every `every`-th decision, and its returns at the end; see
/// [`super::metrics`]) into `record.metrics`; measuring draws no random numbers, so the game
/// is the same either way.
pub fn play_game<G: Game>(
    game: &G,
    agents: &[AgentSpec],
    seed: u64,
    index: u64,
    scratch: &mut AgentScratch,
    record: &mut GameRecord,
    mut measure: Option<&mut Measure>,
) {
    let players = game.spec().players;
    let mut values = [0.0f64; MAX_SEATS];
    if let Some(m) = measure.as_deref_mut() {
        m.trajectory.reset();
    }
    let mut chance_rng = rng_from_seed(derive_seed(seed, index));
    let mut agent_rng = rng_from_seed(agent_seed(seed, index));
    let mut state = game.initial_state();
    let mut moves = 0u64;
    let mut decisions = 0u64;
    loop {
        match game.actor(&state) {
            Actor::Terminal => break,
            Actor::Chance => {
                let a = game.sample_chance(&state, &mut chance_rng);
                game.apply(&mut state, a);
            }
            Actor::Player(p) => {
                let spec = agents.get(p).unwrap_or(&AgentSpec::Random);
                let a = choose(spec, game, &state, p, &mut agent_rng, scratch);
                if let Some(m) = measure.as_deref_mut() {
                    let evaluated = evaluates(m.trajectory.decisions(), m.every);
                    if evaluated {
                        game.evaluate(&state, &mut values[..players]);
                    }
                    let legal = scratch.last_legal_actions().len();
                    m.trajectory.decision(p, legal, evaluated.then_some(&values[..players]));
                }
                game.apply(&mut state, a);
                decisions += 1;
            }
        }
        moves += 1;
    }
    // The report's totals are the scores and its winners the winners (the shared checks
    // hold every game to that), so its numbers give them all.
    game.score_record(&state, &mut record.score);
    record.moves = moves;
    record.decisions = decisions;
    record.truncated = game.is_truncated(&state);
    record.metrics = match measure {
        Some(m) => {
            // The returns, from the winners just recorded (what `evaluate` gives at the end,
            // without the grading a game may add to returns that are equal).
            let score = &record.score;
            super::outcome::returns_from_winners(&score.winners, !record.truncated, &mut values[..players]);
            m.trajectory.finish(&values[..players], &score.winners, !score.opponent_winners.is_empty(), &mut record.metrics);
            record.metrics
        }
        None => GameMetrics::UNMEASURED,
    };
}

/// Game `index` of the run seeded `seed` played again, move for move as [`play_game`] plays
/// it (the same streams of chance and of the agents), as a state with its history: for the
/// record and the log of a game chosen after a run, which costs the run nothing.
pub fn replay_game<G: Game>(game: Arc<G>, agents: &[AgentSpec], seed: u64, index: u64) -> GameState<G> {
    let mut agent_rng = rng_from_seed(agent_seed(seed, index));
    let mut scratch = AgentScratch::default();
    let mut state = GameState::new(Arc::clone(&game), derive_seed(seed, index), false);
    while let Actor::Player(p) = state.actor() {
        let spec = agents.get(p).unwrap_or(&AgentSpec::Random);
        let a = choose(spec, &*game, state.inner(), p, &mut agent_rng, &mut scratch);
        state.apply_unchecked(a);
    }
    state
}

/// The results of a bulk run, flat and in game order.
#[derive(Debug, Clone, PartialEq)]
pub struct SimulationResult {
    pub game: String,
    pub players: usize,
    pub games: usize,
    /// Index of the first game (games are `first .. first + games`).
    pub first: u64,
    pub seed: u64,
    pub threads: usize,
    /// The agent of each seat.
    pub agents: Vec<String>,
    pub categories: Vec<String>,
    /// `scores[g * players + p]`.
    pub scores: Vec<f64>,
    /// `winners[g * players + p]` is true when player p won game g.
    pub winners: Vec<bool>,
    pub moves: Vec<u64>,
    pub decisions: Vec<u64>,
    pub truncated: Vec<bool>,
    /// `category_points[(g * players + p) * categories + c]`.
    pub category_points: Vec<f64>,
    /// The opponents that are not seats, by name.
    pub opponents: Vec<String>,
    /// `opponent_scores[g * opponents + o]`: each opponent's total.
    pub opponent_scores: Vec<f64>,
    /// `opponent_wins[g * opponents + o]` is true when opponent o won game g.
    pub opponent_wins: Vec<bool>,
    /// The game's tiers, lowest first.
    pub tiers: Vec<String>,
    /// `tier[g]`: the index of the tier reached in game g, -1 for none.
    pub tier: Vec<i8>,
    /// Whether the games' design metrics were measured (the arrays below hold -1 in
    /// `turns`, `lead_changes`, `lead_from` and `drama` and zeros in the others when not).
    pub metrics: bool,
    /// `turns[g]`, `lead_changes[g]`, `lead_from[g]`, `drama[g]`, `legal_moves[g]`: the
    /// fields of game g's [`GameMetrics`].
    pub turns: Vec<i64>,
    pub lead_changes: Vec<i64>,
    pub lead_from: Vec<i64>,
    pub drama: Vec<f64>,
    pub legal_moves: Vec<u64>,
    /// `branching[g * BRANCHING_BINS + b]`: game g's decisions in bin b of the branching histogram.
    pub branching: Vec<u32>,
    pub elapsed_seconds: f64,
}

impl SimulationResult {
    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.elapsed_seconds.max(1e-9)
    }
    pub fn decisions_per_second(&self) -> f64 {
        self.decisions.iter().sum::<u64>() as f64 / self.elapsed_seconds.max(1e-9)
    }
}

/// The most games in one work unit handed to a thread (a unit reports its games to the
/// progress function together).
pub const CHUNK: usize = 256;

/// Games per work unit: at most `CHUNK`, and few enough that each thread gets about 16 units,
/// so that on a short run the threads finish together. Results never depend on it.
fn chunk_games(games: usize, threads: usize) -> usize {
    games.div_ceil(threads.max(1) * 16).clamp(1, CHUNK)
}

/// Called from worker threads with the number of games just finished; returning `false`
/// stops the run (chunks already started finish, no new one starts).
pub type Progress<'a> = &'a (dyn Fn(usize) -> bool + Sync);

/// Plays `games` random games on `threads` threads (0 = all cores).
pub fn simulate<G: Game>(
    game: &G,
    games: usize,
    seed: u64,
    threads: usize,
    progress: Option<Progress<'_>>,
) -> Result<SimulationResult> {
    simulate_agents(game, &[], 0, games, seed, threads, progress)
}

/// Element types whose all-zero bit pattern is a valid value (0, 0.0, false).
///
/// # Safety
/// Implement only for such types.
unsafe trait ZeroIsValid: Copy {}
unsafe impl ZeroIsValid for f64 {}
unsafe impl ZeroIsValid for u64 {}
unsafe impl ZeroIsValid for bool {}
unsafe impl ZeroIsValid for i8 {}
unsafe impl ZeroIsValid for u32 {}

/// `n` zeroes, from zeroed memory (which the OS maps lazily: a huge run does not write its
/// result arrays once before playing), or a clear error when the memory is not there.
fn zeroed<T: ZeroIsValid>(n: usize, what: &str) -> Result<Vec<T>> {
    let out_of_memory = || {
        EngineError::InvalidRequest(format!(
            "not enough memory for the {what} of this many games; simulate in ranges (first=...) or stream to disk"
        ))
    };
    let layout = std::alloc::Layout::array::<T>(n).map_err(|_| out_of_memory())?;
    if layout.size() == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: the layout has a non-zero size; the pointer, if not null, is an allocation of
    // the global allocator (the one `Vec` uses) for exactly `n` values of `T` with `T`'s
    // alignment, and all-zero bits are a valid `T` (`ZeroIsValid`), so all `n` are initialised.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<T>();
        if ptr.is_null() {
            return Err(out_of_memory());
        }
        Ok(Vec::from_raw_parts(ptr, n, n))
    }
}

/// Plays games `first .. first + games` of the run seeded `seed`, seat p played by
/// `agents[p]` (random when `agents` is empty), on `threads` threads (0 = all cores).
/// Because each game depends only on the seed and its index, a run split into ranges (for
/// streaming to disk, resuming, or spreading over a cluster) gives the same games as one run.
/// Results are written straight into preallocated arrays, chunk by chunk.
pub fn simulate_agents<G: Game>(
    game: &G,
    agents: &[AgentSpec],
    first: u64,
    games: usize,
    seed: u64,
    threads: usize,
    progress: Option<Progress<'_>>,
) -> Result<SimulationResult> {
    simulate_run(game, agents, first, games, seed, threads, None, progress)
}

/// [`simulate_agents`], measuring each game's design metrics when `metrics` is
/// `Some(every)`, evaluating every `every`-th decision ([`EVALUATE_EVERY`] is the usual
/// choice; see [`play_game`]): the same games either way.
#[allow(clippy::too_many_arguments)]
pub fn simulate_run<G: Game>(
    game: &G,
    agents: &[AgentSpec],
    first: u64,
    games: usize,
    seed: u64,
    threads: usize,
    metrics: Option<u64>,
    progress: Option<Progress<'_>>,
) -> Result<SimulationResult> {
    let every = metrics.unwrap_or(EVALUATE_EVERY).max(1);
    let metrics = metrics.is_some();
    let players = game.spec().players;
    if !agents.is_empty() && agents.len() != players {
        return Err(EngineError::option("agents", format!(
            "{} agents for {players} seats: give one per seat", agents.len())));
    }
    if first.checked_add(games as u64).is_none() {
        return Err(EngineError::InvalidRequest("first + games overflows the game index".into()));
    }
    let categories = game.score_report(&game.initial_state()).categories;
    let nc = categories.len();
    let spec = game.spec();
    let no = spec.opponents.len();
    if spec.tiers.len() > i8::MAX as usize {
        return Err(EngineError::InvalidRequest("a game with more than 127 tiers".into()));
    }
    let overflow = || EngineError::InvalidRequest("too many games for one call; simulate in ranges".into());
    let gp = games.checked_mul(players).ok_or_else(overflow)?;
    // At least one slot per seat even for a game without score categories, so that the zipped
    // chunks below cover every game (the slots are dropped again at the end).
    let gpc = gp.checked_mul(nc.max(1)).ok_or_else(overflow)?;
    let mut scores: Vec<f64> = zeroed(gp, "scores")?;
    let mut winners: Vec<bool> = zeroed(gp, "winners")?;
    let mut moves: Vec<u64> = zeroed(games, "lengths")?;
    let mut decisions: Vec<u64> = zeroed(games, "lengths")?;
    let mut truncated: Vec<bool> = zeroed(games, "truncations")?;
    let mut category_points: Vec<f64> = zeroed(gpc, "score breakdowns")?;
    // At least one slot per game here too, for games without opponents.
    let go = games.checked_mul(no.max(1)).ok_or_else(overflow)?;
    let mut opponent_scores: Vec<f64> = zeroed(go, "opponent scores")?;
    let mut opponent_wins: Vec<bool> = zeroed(go, "opponent wins")?;
    let mut tier: Vec<i8> = zeroed(games, "tiers")?;
    // One slot per game when measuring, none otherwise (the unmeasured columns are filled at the end).
    let mut measured: Vec<GameMetrics> = Vec::new();
    if metrics {
        measured.try_reserve_exact(games).map_err(|_| {
            EngineError::InvalidRequest("not enough memory for the metrics of this many games; simulate in ranges".into())
        })?;
        measured.resize(games, GameMetrics::UNMEASURED);
    }
    let pool = super::threads::pool(threads)?;
    let used_threads = pool.current_num_threads();
    let chunk = chunk_games(games, used_threads);
    // Without metrics the slots are none: every chunk gets an empty slice.
    let mut no_metrics: Vec<&mut [GameMetrics]> = Vec::new();
    let metric_slices: Vec<&mut [GameMetrics]> = if metrics {
        measured.chunks_mut(chunk).collect()
    } else {
        no_metrics.resize_with(games.div_ceil(chunk), Default::default);
        no_metrics
    };
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    pool.install(|| {
        scores
            .par_chunks_mut(chunk * players)
            .zip(winners.par_chunks_mut(chunk * players))
            .zip(moves.par_chunks_mut(chunk))
            .zip(decisions.par_chunks_mut(chunk))
            .zip(truncated.par_chunks_mut(chunk))
            .zip(category_points.par_chunks_mut(chunk * players * nc.max(1)))
            .zip(opponent_scores.par_chunks_mut(chunk * no.max(1)))
            .zip(opponent_wins.par_chunks_mut(chunk * no.max(1)))
            .zip(tier.par_chunks_mut(chunk))
            .zip(metric_slices.into_par_iter())
            .enumerate()
            .for_each(|(c, (((((((((sc, wi), mo), de), tr), cp), os), ow), ti), me))| {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let mut scratch = AgentScratch::default();
                let mut rec = GameRecord::default();
                let mut measure = metrics.then(|| Measure::new(players, every));
                let n = mo.len();
                for k in 0..n {
                    let index = first + (c * chunk + k) as u64;
                    play_game(game, agents, seed, index, &mut scratch, &mut rec, measure.as_mut());
                    if measure.is_some() {
                        me[k] = rec.metrics;
                    }
                    let score = &rec.score;
                    sc[k * players..(k + 1) * players].copy_from_slice(&score.totals);
                    for p in 0..players {
                        wi[k * players + p] = score.winners.contains(&p);
                    }
                    if nc > 0 {
                        cp[k * players * nc..(k + 1) * players * nc].copy_from_slice(&score.points);
                    }
                    for o in 0..no {
                        os[k * no + o] = score.opponent_totals[o];
                        ow[k * no + o] = score.opponent_winners.contains(&o);
                    }
                    mo[k] = rec.moves;
                    de[k] = rec.decisions;
                    tr[k] = rec.truncated;
                    ti[k] = score.tier.map_or(-1, |t| t as i8);
                }
                if let Some(f) = progress {
                    if !f(n) {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            })
    });
    if stop.load(Ordering::Relaxed) {
        return Err(EngineError::Cancelled);
    }
    let elapsed_seconds = start.elapsed().as_secs_f64();
    if nc == 0 {
        category_points.clear();
    }
    if no == 0 {
        opponent_scores.clear();
        opponent_wins.clear();
    }
    let columns = MetricColumns::of(&measured, games, metrics)?;
    Ok(SimulationResult {
        game: game.spec().name.to_string(),
        players,
        games,
        first,
        seed,
        threads: used_threads,
        agents: (0..players).map(|p| agents.get(p).unwrap_or(&AgentSpec::Random).to_string()).collect(),
        categories,
        scores,
        winners,
        moves,
        decisions,
        truncated,
        category_points,
        opponents: spec.opponents.clone(),
        opponent_scores,
        opponent_wins,
        tiers: spec.tiers.clone(),
        tier,
        metrics,
        turns: columns.turns,
        lead_changes: columns.lead_changes,
        lead_from: columns.lead_from,
        drama: columns.drama,
        legal_moves: columns.legal_moves,
        branching: columns.branching,
        elapsed_seconds,
    })
}

/// The per-game metrics as columns.
struct MetricColumns {
    turns: Vec<i64>,
    lead_changes: Vec<i64>,
    lead_from: Vec<i64>,
    drama: Vec<f64>,
    legal_moves: Vec<u64>,
    branching: Vec<u32>,
}

impl MetricColumns {
    /// The columns of `measured` (one entry per game), or of `games` unmeasured games.
    fn of(measured: &[GameMetrics], games: usize, metrics: bool) -> Result<Self> {
        let unmeasured = GameMetrics::UNMEASURED;
        let bins = games.checked_mul(BRANCHING_BINS).ok_or_else(|| {
            EngineError::InvalidRequest("too many games for one call; simulate in ranges".into())
        })?;
        let pick = |f: fn(&GameMetrics) -> i64| -> Vec<i64> {
            if metrics { measured.iter().map(f).collect() } else { vec![f(&unmeasured); games] }
        };
        let mut branching: Vec<u32> = zeroed(bins, "branching histograms")?;
        for (g, m) in measured.iter().enumerate() {
            branching[g * BRANCHING_BINS..(g + 1) * BRANCHING_BINS].copy_from_slice(&m.branching);
        }
        Ok(MetricColumns {
            turns: pick(|m| m.turns),
            lead_changes: pick(|m| m.lead_changes),
            lead_from: pick(|m| m.lead_from),
            drama: if metrics { measured.iter().map(|m| m.drama).collect() } else { vec![unmeasured.drama; games] },
            legal_moves: if metrics { measured.iter().map(|m| m.legal_moves).collect() } else { zeroed(games, "metrics")? },
            branching,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::toy::Race;

    #[test]
    fn work_units_give_every_thread_about_sixteen_and_hold_at_most_chunk_games() {
        assert_eq!(chunk_games(0, 2), 1);
        assert_eq!(chunk_games(1, 2), 1);
        assert_eq!(chunk_games(100, 2), 4);
        assert_eq!(chunk_games(6322, 2), 198);
        assert_eq!(chunk_games(1_000_000, 2), CHUNK);
        assert_eq!(chunk_games(1_000, 0), 63);
    }

    #[test]
    fn a_game_without_score_categories_plays_every_game() {
        let game = Race::new(7);
        for games in [1, 31, 1000] {
            let one = simulate(&game, games, 5, 1, None).unwrap();
            assert!(one.categories.is_empty() && one.category_points.is_empty());
            assert_eq!(one.moves.len(), games);
            // Every game was played to its end: one winner, at least 3 decisions (7 / 2).
            assert!(one.decisions.iter().all(|&d| d >= 3));
            for g in 0..games {
                assert_eq!(one.winners[2 * g..2 * g + 2].iter().filter(|&&w| w).count(), 1);
            }
            let two = simulate(&game, games, 5, 2, None).unwrap();
            assert_eq!((&one.scores, &one.moves, &one.winners), (&two.scores, &two.moves, &two.winners));
        }
    }

    #[test]
    fn progress_counts_every_game_and_false_cancels() {
        let game = Race::new(7);
        let seen = std::sync::atomic::AtomicUsize::new(0);
        let count = |n: usize| {
            seen.fetch_add(n, Ordering::Relaxed);
            true
        };
        simulate(&game, 777, 1, 2, Some(&count)).unwrap();
        assert_eq!(seen.load(Ordering::Relaxed), 777);
        let stop = |_: usize| false;
        assert!(matches!(simulate(&game, 10_000, 1, 2, Some(&stop)), Err(EngineError::Cancelled)));
    }
}
