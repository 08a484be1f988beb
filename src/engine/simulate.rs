//! Random rollouts and bulk simulation on all cores.
//!
//! Game `i` of a run with master seed `s` is played from seed `derive_seed(s, i)`, so every
//! result depends only on the master seed and the game index — never on the thread count or
//! on how games are split into chunks.

use std::time::Instant;

use rayon::prelude::*;

use super::agents::{choose, AgentScratch, AgentSpec};
use super::error::{EngineError, Result};
use super::game::{Action, Actor, Game};
use super::rng::{below, derive_seed, rng_from_seed, Rng};

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
#[derive(Debug, Clone, PartialEq)]
pub struct GameRecord {
    pub scores: Vec<f64>,
    pub winners: Vec<usize>,
    pub moves: u64,
    pub decisions: u64,
    pub truncated: bool,
    /// `category_points[player][category]` from the score report.
    pub category_points: Vec<Vec<f64>>,
}

/// Plays game `index` of the run seeded `seed`, seat p played by `agents[p]` (all random
/// when `agents` is empty). Chance and the agents draw from separate streams derived from
/// the seed and the index, so a game depends on nothing else.
pub fn play_game<G: Game>(
    game: &G,
    agents: &[AgentSpec],
    seed: u64,
    index: u64,
    scratch: &mut AgentScratch,
) -> GameRecord {
    let mut chance_rng = rng_from_seed(derive_seed(seed, index));
    let mut agent_rng = rng_from_seed(derive_seed(seed ^ 0xA6E7_5EED, index));
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
                game.apply(&mut state, a);
                decisions += 1;
            }
        }
        moves += 1;
    }
    let mut scores = vec![0.0; game.spec().players];
    game.scores(&state, &mut scores);
    let report = game.score_report(&state);
    GameRecord {
        scores,
        winners: game.winners(&state),
        moves,
        decisions,
        truncated: game.is_truncated(&state),
        category_points: report.points,
    }
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

/// Games per work unit handed to a thread.
pub const CHUNK: usize = 256;

/// Plays `games` random games on `threads` threads (0 = all cores).
pub fn simulate<G: Game>(
    game: &G,
    games: usize,
    seed: u64,
    threads: usize,
    progress: Option<&(dyn Fn(usize) + Sync)>,
) -> Result<SimulationResult> {
    simulate_agents(game, &[], 0, games, seed, threads, progress)
}

/// Plays games `first .. first + games` of the run seeded `seed`, seat p played by
/// `agents[p]` (random when `agents` is empty), on `threads` threads (0 = all cores).
/// Because each game depends only on the seed and its index, a run split into ranges (for
/// streaming to disk, resuming, or spreading over a cluster) gives the same games as one run.
/// `progress` is called from worker threads with the number of games just finished.
pub fn simulate_agents<G: Game>(
    game: &G,
    agents: &[AgentSpec],
    first: u64,
    games: usize,
    seed: u64,
    threads: usize,
    progress: Option<&(dyn Fn(usize) + Sync)>,
) -> Result<SimulationResult> {
    if !agents.is_empty() && agents.len() != game.spec().players {
        return Err(EngineError::option("agents", format!(
            "{} agents for {} seats: give one per seat", agents.len(), game.spec().players)));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| EngineError::InvalidRequest(format!("cannot start {threads} threads: {e}")))?;
    let used_threads = pool.current_num_threads();
    let start = Instant::now();
    let chunks = games.div_ceil(CHUNK);
    let records: Vec<Vec<GameRecord>> = pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let mut scratch = AgentScratch::default();
                let lo = c * CHUNK;
                let hi = (lo + CHUNK).min(games);
                let out: Vec<GameRecord> =
                    (lo..hi).map(|i| play_game(game, agents, seed, first + i as u64, &mut scratch)).collect();
                if let Some(f) = progress {
                    f(hi - lo);
                }
                out
            })
            .collect()
    });
    let elapsed_seconds = start.elapsed().as_secs_f64();
    let players = game.spec().players;
    let categories = game.score_report(&game.initial_state()).categories;
    let mut r = SimulationResult {
        game: game.spec().name.to_string(),
        players,
        games,
        first,
        seed,
        threads: used_threads,
        agents: (0..players).map(|p| agents.get(p).unwrap_or(&AgentSpec::Random).to_string()).collect(),
        categories,
        scores: Vec::with_capacity(games * players),
        winners: Vec::with_capacity(games * players),
        moves: Vec::with_capacity(games),
        decisions: Vec::with_capacity(games),
        truncated: Vec::with_capacity(games),
        category_points: Vec::new(),
        elapsed_seconds,
    };
    for rec in records.into_iter().flatten() {
        r.scores.extend_from_slice(&rec.scores);
        r.winners.extend((0..players).map(|p| rec.winners.contains(&p)));
        r.moves.push(rec.moves);
        r.decisions.push(rec.decisions);
        r.truncated.push(rec.truncated);
        for pp in &rec.category_points {
            r.category_points.extend_from_slice(pp);
        }
    }
    Ok(r)
}
