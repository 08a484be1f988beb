//! Batched stepping: `N` independent games of one configuration held together and stepped
//! in one call, for learning code that would otherwise cross from Python into the engine
//! once per decision (self-play, search over many games at once, sampling algorithms).
//!
//! A [`VectorGame`] owns its games and their generators and nothing else: a caller hands
//! every call the memory it writes into ([`VectorOutputs`], one row per game), so a step
//! allocates nothing of its own: a step in which no game ends allocates nothing at all, and a
//! game's end costs only what the game's `returns` costs (`tests/no_alloc.rs`). The Python
//! bindings pass numpy arrays they own; Rust callers can use [`VectorBuffers`].
//!
//! **Who decides.** Each seat is either the caller's or played by a built-in agent
//! ([`AgentSpec`]). Between two calls every game rests where the caller must act: at a
//! decision of one of the caller's seats, at a chance node when chance is explicit, or at
//! its end when games do not restart. A call plays everything else itself: the agents'
//! decisions and, unless chance is explicit, chance (from the game's own generator).
//!
//! **Checked batches.** [`VectorGame::step`] checks every game's action before it applies
//! any: an illegal action anywhere is an error that names the first game it occurs in, and
//! leaves every game as it was. An action of `-1` leaves its game as it is.
//!
//! **Restarts and seeds.** A game that ends is reported in the outputs of the call it ended
//! in (its returns, and whether it ended by its rules or was truncated) and, with
//! `auto_reset`, started again at once. Game `i`'s `e`-th episode (counting from 0) draws
//! chance from seed `derive_seed(derive_seed(seed, i), e)` and its agents from
//! `derive_seed(agent_seed(seed, i), e)` ([`super::simulate::agent_seed`]): like [`super::simulate`]'s games, every
//! game depends only on the master seed, its index, its episode and the actions it was given,
//! never on the thread count or on the number of games beside it.
//!
//! **Legal actions, two forms.** Each call writes the legal actions of the seat to act in
//! every game as a mask (one flag per action id and game), as lists (every game's action ids
//! one after another, with per-game offsets: compressed sparse rows), or both
//! ([`LegalOutput`]). The mask suits a policy over all actions; the lists cost a few values a
//! game instead of one per action id, which matters for games with hundreds of actions.
//!
//! **Threads.** Large batches are split into ranges of games played on rayon's threads;
//! the ranges write disjoint rows, so results never depend on the split. Each range writes its
//! games' lists from its first game's share of the `legal_actions` output (room for every
//! action id of each of its games); two halves are joined by moving the right half's lists
//! up against the left's and shifting its offsets, so the output is the same for any split.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use super::agents::{choose, AgentScratch, AgentSpec};
use super::dynamic::DynState;
use super::error::{EngineError, Result};
use super::game::{Action, Actor, Game, GameSpec};
use super::rng::{derive_seed, rng_from_seed, Rng};
use super::simulate::agent_seed;
use super::state::GameState;

/// The most games one vector game may hold.
pub const MAX_GAMES: usize = 1 << 24;

/// Games per range handed to a thread, at least: smaller batches are played on the calling
/// thread (a range this small takes a few microseconds, about what handing it over costs).
pub const PARALLEL_GRAIN: usize = 64;

/// How often in a row a game may end, inside one call, before one of the caller's seats
/// decides in it: more means the built-in agents finish every episode among themselves.
const MAX_EPISODES_WITHOUT_CALLER: u32 = 1000;

/// Which forms of the legal actions each call writes (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LegalOutput {
    /// `legal_mask` only.
    #[default]
    Mask,
    /// `legal_offsets` and `legal_actions` only.
    Actions,
    /// Both.
    Both,
}

impl LegalOutput {
    pub fn mask(self) -> bool {
        matches!(self, LegalOutput::Mask | LegalOutput::Both)
    }
    pub fn actions(self) -> bool {
        matches!(self, LegalOutput::Actions | LegalOutput::Both)
    }
}

impl FromStr for LegalOutput {
    type Err = EngineError;
    fn from_str(text: &str) -> Result<Self> {
        match text {
            "mask" => Ok(LegalOutput::Mask),
            "actions" => Ok(LegalOutput::Actions),
            "both" => Ok(LegalOutput::Both),
            _ => Err(EngineError::option(
                "legal",
                format!("{text:?}: \"mask\" (a flag per action id), \"actions\" (each game's action ids and offsets) or \"both\""),
            )),
        }
    }
}

impl fmt::Display for LegalOutput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LegalOutput::Mask => "mask",
            LegalOutput::Actions => "actions",
            LegalOutput::Both => "both",
        })
    }
}

/// How a [`VectorGame`] is built.
#[derive(Debug, Clone, PartialEq)]
pub struct VectorConfig {
    /// The number of games, 1 to [`MAX_GAMES`].
    pub num_games: usize,
    /// The master seed every game's seeds are derived from.
    pub seed: u64,
    /// `agents[p]`: the built-in agent that plays seat `p`, or `None` for a seat the caller
    /// plays. Empty: the caller plays every seat. At least one seat must be the caller's.
    pub agents: Vec<Option<AgentSpec>>,
    /// Whether a game that ends starts again at once (its next episode). Otherwise it rests
    /// at its end until [`VectorGame::reset_games`] or [`VectorGame::reset`].
    pub auto_reset: bool,
    /// Whether chance nodes are left to the caller (as in OpenSpiel), instead of being drawn
    /// from each game's generator inside the call.
    pub explicit_chance: bool,
    /// 1: every call runs on the calling thread; 0: batches of at least twice
    /// [`PARALLEL_GRAIN`] games run on rayon's global pool (all cores); `k`: on a pool of `k`
    /// threads that the vector game owns.
    pub threads: usize,
    /// Which forms of the legal actions each call writes.
    pub legal: LegalOutput,
}

impl Default for VectorConfig {
    fn default() -> Self {
        VectorConfig {
            num_games: 1,
            seed: 0,
            agents: Vec::new(),
            auto_reset: true,
            explicit_chance: false,
            threads: 1,
            legal: LegalOutput::Mask,
        }
    }
}

/// The sizes of one game's rows in the outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowSizes {
    /// Player actions (`GameSpec::num_distinct_actions`).
    pub actions: usize,
    /// Flags per game in `legal_mask`: `actions`, or 0 when the mask is not written.
    pub legal_mask: usize,
    /// Room per game in `legal_actions`: `actions` (a game has at most that many legal
    /// actions), or 0 when the lists are not written (and `legal_offsets` is empty too).
    pub legal_actions: usize,
    /// Seats: one row of returns.
    pub players: usize,
    /// Chance outcomes (`GameSpec::max_chance_outcomes`) when chance is explicit, else 0.
    pub chance: usize,
    /// Values of one observation tensor.
    pub observation: usize,
}

/// Where a call writes, one row per game, game `i`'s row at `i * row size`. Every call
/// rewrites every row: nothing written here is read back by the engine.
pub struct VectorOutputs<'a> {
    /// The seat to act in each game, or `CHANCE` (-1) at an explicit chance node, or
    /// `TERMINAL` (-2) for a finished game that did not restart.
    pub current_player: &'a mut [i32],
    /// `RowSizes::legal_mask` flags per game: the legal actions of the seat to act (all
    /// false at chance nodes and ends).
    pub legal_mask: &'a mut [bool],
    /// With the lists written: `num_games + 1` offsets; game `i`'s legal action ids are
    /// `legal_actions[legal_offsets[i]..legal_offsets[i + 1]]` (none at chance nodes and
    /// ends), and `legal_offsets[num_games]` is the number written. Empty otherwise.
    pub legal_offsets: &'a mut [i64],
    /// With the lists written: room for `RowSizes::legal_actions` ids per game, filled from
    /// the start, in increasing order within each game; what lies past the last offset is
    /// left as it was. Empty otherwise.
    pub legal_actions: &'a mut [i32],
    /// `players` values per game: the final returns of a game that ended during the call,
    /// zero for every other game.
    pub returns: &'a mut [f64],
    /// Whether the game ended by its rules during the call.
    pub terminated: &'a mut [bool],
    /// Whether the game ended at its move bound during the call.
    pub truncated: &'a mut [bool],
    /// With explicit chance, `max_chance_outcomes` probabilities per game (zero except at a
    /// chance node); empty otherwise.
    pub chance_probabilities: &'a mut [f64],
}

impl<'a> VectorOutputs<'a> {
    /// The rows of games `..k` and `k..` of a range (whose `legal_offsets` holds its games'
    /// ends, see [`Core::write_row`]).
    fn split_at(&mut self, k: usize, d: RowSizes) -> (VectorOutputs<'_>, VectorOutputs<'_>) {
        let (cp0, cp1) = self.current_player.split_at_mut(k);
        let (m0, m1) = self.legal_mask.split_at_mut(k * d.legal_mask);
        let (lo0, lo1) = self.legal_offsets.split_at_mut(if d.legal_actions > 0 { k } else { 0 });
        let (la0, la1) = self.legal_actions.split_at_mut(k * d.legal_actions);
        let (r0, r1) = self.returns.split_at_mut(k * d.players);
        let (te0, te1) = self.terminated.split_at_mut(k);
        let (tr0, tr1) = self.truncated.split_at_mut(k);
        let (c0, c1) = self.chance_probabilities.split_at_mut(k * d.chance);
        (
            VectorOutputs {
                current_player: cp0,
                legal_mask: m0,
                legal_offsets: lo0,
                legal_actions: la0,
                returns: r0,
                terminated: te0,
                truncated: tr0,
                chance_probabilities: c0,
            },
            VectorOutputs {
                current_player: cp1,
                legal_mask: m1,
                legal_offsets: lo1,
                legal_actions: la1,
                returns: r1,
                terminated: te1,
                truncated: tr1,
                chance_probabilities: c1,
            },
        )
    }

    /// Joins the lists of a range's games `..k` and `k..`, each written from the start of
    /// its own share: moves the second's up against the first's and shifts its ends.
    fn join_lists(&mut self, k: usize, d: RowSizes) {
        if d.legal_actions == 0 {
            return;
        }
        let left = self.legal_offsets[k - 1];
        let right = self.legal_offsets[self.legal_offsets.len() - 1] as usize;
        let from = k * d.legal_actions;
        if left as usize != from {
            self.legal_actions.copy_within(from..from + right, left as usize);
        }
        for end in &mut self.legal_offsets[k..] {
            *end += left;
        }
    }

    /// The outputs of the whole batch as the outputs of one range: `legal_offsets` loses its
    /// first value, 0, written here, and keeps each game's end.
    fn into_range(mut self) -> VectorOutputs<'a> {
        if let Some((first, ends)) = std::mem::take(&mut self.legal_offsets).split_first_mut() {
            *first = 0;
            self.legal_offsets = ends;
        }
        self
    }

    fn check(&self, games: usize, d: RowSizes) -> Result<()> {
        let sizes = [
            ("current_player", self.current_player.len(), games),
            ("legal_mask", self.legal_mask.len(), games * d.legal_mask),
            ("legal_offsets", self.legal_offsets.len(), if d.legal_actions > 0 { games + 1 } else { 0 }),
            ("legal_actions", self.legal_actions.len(), games * d.legal_actions),
            ("returns", self.returns.len(), games * d.players),
            ("terminated", self.terminated.len(), games),
            ("truncated", self.truncated.len(), games),
            ("chance_probabilities", self.chance_probabilities.len(), games * d.chance),
        ];
        for (name, got, want) in sizes {
            if got != want {
                return Err(EngineError::InvalidRequest(format!(
                    "the {name} output holds {got} values; {games} games need {want}"
                )));
            }
        }
        Ok(())
    }
}

/// Owned outputs for Rust callers (the Python bindings use numpy arrays instead).
#[derive(Debug, Clone, PartialEq)]
pub struct VectorBuffers {
    pub current_player: Vec<i32>,
    pub legal_mask: Vec<bool>,
    pub legal_offsets: Vec<i64>,
    pub legal_actions: Vec<i32>,
    pub returns: Vec<f64>,
    pub terminated: Vec<bool>,
    pub truncated: Vec<bool>,
    pub chance_probabilities: Vec<f64>,
}

impl VectorBuffers {
    /// Buffers sized for `games` games with rows of `sizes`.
    pub fn new(games: usize, sizes: RowSizes) -> Self {
        VectorBuffers {
            current_player: vec![0; games],
            legal_mask: vec![false; games * sizes.legal_mask],
            legal_offsets: vec![0; if sizes.legal_actions > 0 { games + 1 } else { 0 }],
            legal_actions: vec![0; games * sizes.legal_actions],
            returns: vec![0.0; games * sizes.players],
            terminated: vec![false; games],
            truncated: vec![false; games],
            chance_probabilities: vec![0.0; games * sizes.chance],
        }
    }

    /// Game `index`'s legal action ids, from the lists (which must be written).
    pub fn legal_actions_of(&self, index: usize) -> &[i32] {
        &self.legal_actions[self.legal_offsets[index] as usize..self.legal_offsets[index + 1] as usize]
    }

    pub fn outputs(&mut self) -> VectorOutputs<'_> {
        VectorOutputs {
            current_player: &mut self.current_player,
            legal_mask: &mut self.legal_mask,
            legal_offsets: &mut self.legal_offsets,
            legal_actions: &mut self.legal_actions,
            returns: &mut self.returns,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            chance_probabilities: &mut self.chance_probabilities,
        }
    }
}

/// The chance seed and the agents' seed of game `index`'s `episode`-th episode.
pub fn episode_seeds(seed: u64, index: u64, episode: u64) -> (u64, u64) {
    (
        derive_seed(derive_seed(seed, index), episode),
        derive_seed(agent_seed(seed, index), episode),
    )
}

/// One game of the batch.
struct Slot<G: Game> {
    state: G::State,
    chance_rng: Rng,
    agent_rng: Rng,
    episode: u64,
    /// The legal actions (chance outcomes at a chance node) where the game rests; empty at
    /// its end. Sized for the largest node once, so it never grows.
    legal: Vec<Action>,
    /// The chance outcomes with their probabilities (explicit chance only).
    outcomes: Vec<(Action, f64)>,
    scratch: AgentScratch,
}

/// What every range of games shares, read-only.
struct Core<G: Game> {
    game: Arc<G>,
    /// One per seat.
    agents: Vec<Option<AgentSpec>>,
    seed: u64,
    auto_reset: bool,
    explicit_chance: bool,
    legal: LegalOutput,
    sizes: RowSizes,
}

enum Pool {
    Caller,
    Global,
    Own(std::sync::Arc<rayon::ThreadPool>),
}

/// `N` games of one configuration, stepped together. See the module documentation.
pub struct VectorGame<G: Game> {
    core: Core<G>,
    slots: Vec<Slot<G>>,
    pool: Pool,
    threads: usize,
}

impl<G: Game> Core<G> {
    /// Starts game `index`'s `episode`-th episode. Rare next to the steps (and kept out of line,
    /// so that the seeds are not computed on every step by an eager compiler).
    #[cold]
    #[inline(never)]
    fn start(&self, slot: &mut Slot<G>, index: usize, episode: u64) {
        let (chance, agents) = episode_seeds(self.seed, index as u64, episode);
        slot.state = self.game.initial_state();
        slot.chance_rng = rng_from_seed(chance);
        slot.agent_rng = rng_from_seed(agents);
        slot.episode = episode;
    }

    fn new_slot(&self, index: usize) -> Slot<G> {
        let (chance, agents) = episode_seeds(self.seed, index as u64, 0);
        let spec = self.game.spec();
        Slot {
            state: self.game.initial_state(),
            chance_rng: rng_from_seed(chance),
            agent_rng: rng_from_seed(agents),
            episode: 0,
            legal: Vec::with_capacity(spec.num_distinct_actions.max(spec.max_chance_outcomes)),
            outcomes: Vec::with_capacity(if self.explicit_chance { spec.max_chance_outcomes } else { 0 }),
            scratch: AgentScratch::with_capacity(spec.num_distinct_actions, spec.players),
        }
    }

    /// Plays game `index` on to where the caller acts: chance (unless explicit) and the
    /// agents' seats are played here; a game that ends writes its returns and flags into
    /// the given row and, with `auto_reset`, starts its next episode. Returns whether a game
    /// ended, and who acts where the game now rests.
    #[inline(always)]
    fn advance(
        &self,
        slot: &mut Slot<G>,
        index: usize,
        returns: &mut [f64],
        terminated: &mut bool,
        truncated: &mut bool,
    ) -> (bool, Actor) {
        let game = &*self.game;
        let mut ended = false;
        let mut episodes = 0u32;
        let actor = loop {
            match game.actor(&slot.state) {
                Actor::Terminal => {
                    game.returns(&slot.state, returns);
                    let cut = game.is_truncated(&slot.state);
                    *truncated = cut;
                    *terminated = !cut;
                    ended = true;
                    if !self.auto_reset {
                        break Actor::Terminal;
                    }
                    episodes += 1;
                    assert!(
                        episodes <= MAX_EPISODES_WITHOUT_CALLER,
                        "{} episodes in a row ended before one of the caller's seats decided: \
                         let the caller play a seat that decides in every game",
                        MAX_EPISODES_WITHOUT_CALLER
                    );
                    self.start(slot, index, slot.episode + 1);
                }
                Actor::Chance => {
                    if self.explicit_chance {
                        break Actor::Chance;
                    }
                    let a = game.sample_chance(&slot.state, &mut slot.chance_rng);
                    game.apply(&mut slot.state, a);
                }
                Actor::Player(p) => match &self.agents[p] {
                    None => break Actor::Player(p),
                    Some(agent) => {
                        let a = choose(agent, game, &slot.state, p, &mut slot.agent_rng, &mut slot.scratch);
                        game.apply(&mut slot.state, a);
                    }
                },
            }
        };
        if actor == Actor::Terminal {
            slot.legal.clear();
        } else {
            game.legal_actions(&slot.state, &mut slot.legal);
        }
        (ended, actor)
    }

    /// Writes game `k`'s current player, its legal actions, and its mask and chance rows,
    /// which must be clear (of the range `out`, whose games `..k` are written: in a range,
    /// `legal_offsets[k]` is the end of game `k`'s list, counted from the range's first).
    #[inline(always)]
    fn write_row(&self, slot: &mut Slot<G>, actor: Actor, k: usize, out: &mut VectorOutputs<'_>) {
        let d = self.sizes;
        out.current_player[k] = actor.as_i32();
        if d.legal_actions > 0 {
            let start = if k == 0 { 0 } else { out.legal_offsets[k - 1] as usize };
            let legal: &[Action] = if matches!(actor, Actor::Player(_)) { &slot.legal } else { &[] };
            let row = &mut out.legal_actions[start..start + legal.len()];
            for i in 0..row.len() {
                row[i] = legal[i] as i32;
            }
            out.legal_offsets[k] = (start + legal.len()) as i64;
        }
        match actor {
            Actor::Player(_) if d.legal_mask > 0 => {
                let mask = &mut out.legal_mask[k * d.legal_mask..(k + 1) * d.legal_mask];
                for &a in &slot.legal {
                    mask[a as usize] = true;
                }
            }
            Actor::Chance if d.chance > 0 => {
                let row = &mut out.chance_probabilities[k * d.chance..(k + 1) * d.chance];
                self.game.chance_outcomes(&slot.state, &mut slot.outcomes);
                for &(a, p) in &slot.outcomes {
                    row[a as usize] = p;
                }
            }
            _ => {}
        }
    }

    /// Clears the mask and chance rows of the whole range (one pass each, before its rows
    /// are written game by game).
    fn clear_rows(out: &mut VectorOutputs<'_>) {
        out.legal_mask.fill(false);
        out.chance_probabilities.fill(0.0);
    }

    /// Clears the returns and flags of the whole range.
    fn clear_reports(out: &mut VectorOutputs<'_>) {
        out.returns.fill(0.0);
        out.terminated.fill(false);
        out.truncated.fill(false);
    }

    /// Whether `action` cannot be played in the game of `slot` (`-1`, leaving the game as it
    /// is, always can). At a game's end nothing is legal.
    #[inline]
    fn illegal(slot: &Slot<G>, action: i64) -> bool {
        action != -1
            && (!(0..=u32::MAX as i64).contains(&action) || slot.legal.binary_search(&(action as Action)).is_err())
    }

    /// The error for the illegal `action` of game `index`.
    fn illegal_error(&self, slot: &Slot<G>, index: usize, action: i64) -> EngineError {
        let why = if action < -1 || action > u32::MAX as i64 {
            format!("{action} is not an action id (-1 leaves a game as it is)")
        } else {
            match self.game.actor(&slot.state) {
                Actor::Terminal => format!("action {action}: the game is over (restart it with a reset)"),
                Actor::Chance => format!("{action} is not a chance outcome of this chance node"),
                Actor::Player(p) => {
                    let name = if (action as usize) < self.sizes.actions {
                        format!(" ({})", self.game.action_to_string(&slot.state, action as Action))
                    } else {
                        String::new()
                    };
                    format!("action {action}{name} is not legal for player {p} now")
                }
            }
        };
        EngineError::IllegalAction(format!("game {index}: {why}"))
    }

    /// Steps the games of one range (`first` is the index of its first game).
    fn step_range(&self, slots: &mut [Slot<G>], first: usize, actions: &[i64], mut out: VectorOutputs<'_>) -> usize {
        let p = self.sizes.players;
        Self::clear_rows(&mut out);
        Self::clear_reports(&mut out);
        let mut ended = 0;
        for (k, slot) in slots.iter_mut().enumerate() {
            let a = actions[k];
            let actor = if a >= 0 {
                self.game.apply(&mut slot.state, a as Action);
                let returns = &mut out.returns[k * p..(k + 1) * p];
                let (end, actor) = self.advance(slot, first + k, returns, &mut out.terminated[k], &mut out.truncated[k]);
                ended += end as usize;
                actor
            } else {
                self.game.actor(&slot.state)
            };
            self.write_row(slot, actor, k, &mut out);
        }
        ended
    }

    /// Starts the next episode of the games of one range that `restart` selects (all when
    /// it is empty), or episode 0 when `fresh`; writes every row of the range, and clears
    /// the reports of the restarted games.
    fn reset_range(&self, slots: &mut [Slot<G>], first: usize, restart: &[bool], fresh: bool, mut out: VectorOutputs<'_>) {
        let p = self.sizes.players;
        Self::clear_rows(&mut out);
        for (k, slot) in slots.iter_mut().enumerate() {
            let actor = if restart.is_empty() || restart[k] {
                let episode = if fresh { 0 } else { slot.episode + 1 };
                self.start(slot, first + k, episode);
                let returns = &mut out.returns[k * p..(k + 1) * p];
                let (_, actor) = self.advance(slot, first + k, returns, &mut out.terminated[k], &mut out.truncated[k]);
                out.returns[k * p..(k + 1) * p].fill(0.0);
                out.terminated[k] = false;
                out.truncated[k] = false;
                actor
            } else {
                self.game.actor(&slot.state)
            };
            self.write_row(slot, actor, k, &mut out);
        }
    }

    /// Writes every row of one range as the games stand, with clear reports.
    fn write_range(&self, slots: &mut [Slot<G>], mut out: VectorOutputs<'_>) {
        Self::clear_rows(&mut out);
        Self::clear_reports(&mut out);
        for (k, slot) in slots.iter_mut().enumerate() {
            let actor = self.game.actor(&slot.state);
            self.write_row(slot, actor, k, &mut out);
        }
    }

    fn observe_range(&self, slots: &[Slot<G>], seat: Option<usize>, out: &mut [f32]) {
        let len = self.sizes.observation;
        for (slot, row) in slots.iter().zip(out.chunks_exact_mut(len.max(1))) {
            match (seat, self.game.actor(&slot.state)) {
                (Some(p), _) | (None, Actor::Player(p)) => self.game.observation_tensor(&slot.state, p, row),
                (None, _) => row.fill(0.0),
            }
        }
    }
}

/// Splits `slots` (and the rows of `out`) in halves until a range holds at most `grain`
/// games, and runs `f` on the ranges with `rayon::join`; returns the sum of `f`'s results.
fn split_rows<G, F>(slots: &mut [Slot<G>], first: usize, mut out: VectorOutputs<'_>, sizes: RowSizes, grain: usize, f: &F) -> usize
where
    G: Game,
    F: Fn(&mut [Slot<G>], usize, VectorOutputs<'_>) -> usize + Sync,
{
    if slots.len() <= grain {
        return f(slots, first, out);
    }
    let mid = slots.len() / 2;
    let (s0, s1) = slots.split_at_mut(mid);
    let (o0, o1) = out.split_at(mid, sizes);
    let (a, b) = rayon::join(
        || split_rows(s0, first, o0, sizes, grain, f),
        || split_rows(s1, first + mid, o1, sizes, grain, f),
    );
    out.join_lists(mid, sizes);
    a + b
}

impl<G: Game> VectorGame<G> {
    /// `config.num_games` games of `game`, each at its first node where the caller acts.
    /// Write the first outputs with [`VectorGame::write`] (or call [`VectorGame::reset`]).
    pub fn new(game: Arc<G>, config: VectorConfig) -> Result<Self> {
        let spec = game.spec();
        let players = spec.players;
        if config.num_games == 0 || config.num_games > MAX_GAMES {
            return Err(EngineError::option(
                "num_games",
                format!("{}: a vector game holds 1 to {MAX_GAMES} games", config.num_games),
            ));
        }
        let agents = if config.agents.is_empty() { vec![None; players] } else { config.agents };
        if agents.len() != players {
            return Err(EngineError::option(
                "agents",
                format!("{} entries for {players} seats: give one per seat (none for the caller's seats)", agents.len()),
            ));
        }
        if agents.iter().all(Option::is_some) {
            return Err(EngineError::option("agents", "every seat is played by an agent: leave at least one seat to the caller"));
        }
        let (pool, threads) = match config.threads {
            1 => (Pool::Caller, 1),
            0 => (Pool::Global, rayon::current_num_threads()),
            n => (Pool::Own(super::threads::pool(n)?), n),
        };
        let sizes = RowSizes {
            actions: spec.num_distinct_actions,
            legal_mask: if config.legal.mask() { spec.num_distinct_actions } else { 0 },
            legal_actions: if config.legal.actions() { spec.num_distinct_actions } else { 0 },
            players,
            chance: if config.explicit_chance { spec.max_chance_outcomes } else { 0 },
            observation: spec.observation_tensor_shape.iter().product(),
        };
        let core = Core {
            game,
            agents,
            seed: config.seed,
            auto_reset: config.auto_reset,
            explicit_chance: config.explicit_chance,
            legal: config.legal,
            sizes,
        };
        let mut slots: Vec<Slot<G>> = (0..config.num_games).map(|i| core.new_slot(i)).collect();
        let mut scratch = vec![0.0; players];
        let (mut terminated, mut truncated) = (false, false);
        for (i, slot) in slots.iter_mut().enumerate() {
            core.advance(slot, i, &mut scratch, &mut terminated, &mut truncated);
        }
        Ok(VectorGame { core, slots, pool, threads })
    }

    pub fn game(&self) -> &Arc<G> {
        &self.core.game
    }
    pub fn num_games(&self) -> usize {
        self.slots.len()
    }
    /// The sizes of one game's rows in the outputs.
    pub fn row_sizes(&self) -> RowSizes {
        self.core.sizes
    }
    /// Owned outputs of the right sizes.
    pub fn buffers(&self) -> VectorBuffers {
        VectorBuffers::new(self.num_games(), self.core.sizes)
    }
    pub fn seed(&self) -> u64 {
        self.core.seed
    }
    /// The agent of each seat (`None`: the caller's seat).
    pub fn agents(&self) -> &[Option<AgentSpec>] {
        &self.core.agents
    }
    pub fn auto_reset(&self) -> bool {
        self.core.auto_reset
    }
    pub fn explicit_chance(&self) -> bool {
        self.core.explicit_chance
    }
    /// Which forms of the legal actions each call writes.
    pub fn legal(&self) -> LegalOutput {
        self.core.legal
    }
    /// The threads a large batch is spread over (1: the calling thread only).
    pub fn threads(&self) -> usize {
        self.threads
    }
    /// Game `index`'s state.
    pub fn state(&self, index: usize) -> &G::State {
        &self.slots[index].state
    }
    /// The episode game `index` is in (0 for its first game).
    pub fn episode(&self, index: usize) -> u64 {
        self.slots[index].episode
    }
    /// Game `index` as a checked [`GameState`] (its history starts here); its chance
    /// generator is a copy of the game's, so it draws the chance the game would draw.
    pub fn game_state(&self, index: usize) -> GameState<G> {
        let slot = &self.slots[index];
        GameState::from_parts(
            Arc::clone(&self.core.game),
            slot.state.clone(),
            slot.chance_rng.clone(),
            self.core.explicit_chance,
        )
    }
    /// The seed of the chance generator of game `index`'s `episode`-th episode: with no
    /// agent seats, `GameState::new(game, seed, explicit_chance)` given the same actions
    /// plays the same game.
    pub fn game_seed(&self, index: usize, episode: u64) -> u64 {
        episode_seeds(self.core.seed, index as u64, episode).0
    }

    /// Ranges of at least [`PARALLEL_GRAIN`] games, about four per thread; a batch of fewer
    /// than twice that is one range (played on the calling thread).
    fn grain(&self) -> usize {
        let n = self.slots.len();
        match self.pool {
            Pool::Caller => n,
            _ if n < 2 * PARALLEL_GRAIN => n,
            _ => n.div_ceil(self.threads * 4).max(PARALLEL_GRAIN),
        }
    }

    /// Runs `f` over ranges of the games (in parallel when the batch is large).
    fn run<F>(&mut self, out: VectorOutputs<'_>, f: F) -> usize
    where
        F: Fn(&Core<G>, &mut [Slot<G>], usize, VectorOutputs<'_>) -> usize + Sync,
    {
        let grain = self.grain();
        let sizes = self.core.sizes;
        let core = &self.core;
        let slots = &mut self.slots[..];
        let g = |s: &mut [Slot<G>], first: usize, o: VectorOutputs<'_>| f(core, s, first, o);
        let out = out.into_range();
        if slots.len() <= grain {
            return g(slots, 0, out);
        }
        match &self.pool {
            Pool::Caller | Pool::Global => split_rows(slots, 0, out, sizes, grain, &g),
            Pool::Own(pool) => pool.install(|| split_rows(slots, 0, out, sizes, grain, &g)),
        }
    }

    /// Writes every game's current rows (player to act, mask, chance) and clears the reports.
    pub fn write(&mut self, out: VectorOutputs<'_>) -> Result<()> {
        out.check(self.num_games(), self.core.sizes)?;
        self.run(out, |core, slots, _, o| {
            core.write_range(slots, o);
            0
        });
        Ok(())
    }

    /// Restarts every game: from episode 0 under the master seed `seed` when one is given
    /// (the games the vector game started with, for the seed it was built with), else each
    /// game's next episode. Writes every row; the reports are cleared.
    pub fn reset(&mut self, seed: Option<u64>, out: VectorOutputs<'_>) -> Result<()> {
        out.check(self.num_games(), self.core.sizes)?;
        if let Some(s) = seed {
            self.core.seed = s;
        }
        let fresh = seed.is_some();
        self.run(out, |core, slots, first, o| {
            core.reset_range(slots, first, &[], fresh, o);
            0
        });
        Ok(())
    }

    /// Starts the next episode of each game `i` with `games[i]` (one flag per game); writes
    /// every row, clearing the reports of the restarted games only.
    pub fn reset_games(&mut self, games: &[bool], out: VectorOutputs<'_>) -> Result<()> {
        out.check(self.num_games(), self.core.sizes)?;
        if games.len() != self.num_games() {
            return Err(EngineError::InvalidRequest(format!(
                "{} flags for {} games: give one per game",
                games.len(),
                self.num_games()
            )));
        }
        self.run(out, |core, slots, first, o| {
            let restart = &games[first..first + slots.len()];
            core.reset_range(slots, first, restart, false, o);
            0
        });
        Ok(())
    }

    /// Plays `actions[i]` in game `i` (`-1`: leave game `i` as it is), then plays each game
    /// on to where the caller acts next. Every action is checked first: an illegal one is an
    /// error naming the first game it occurs in, and changes no game. Returns the number of
    /// games that ended (reported in `out`).
    pub fn step(&mut self, actions: &[i64], out: VectorOutputs<'_>) -> Result<usize> {
        let n = self.num_games();
        out.check(n, self.core.sizes)?;
        if actions.len() != n {
            return Err(EngineError::InvalidRequest(format!(
                "{} actions for {n} games: give one per game (-1 leaves a game as it is)",
                actions.len()
            )));
        }
        let grain = self.grain();
        let sizes = self.core.sizes;
        let core = &self.core;
        let slots = &mut self.slots[..];
        // One job for the thread pool: check the whole batch, then step it.
        let work = |parallel: bool| -> Result<usize> {
            let first_illegal = if parallel {
                use rayon::prelude::*;
                slots
                    .par_iter()
                    .zip(actions.par_iter())
                    .with_min_len(grain)
                    .position_first(|(slot, &a)| Core::illegal(slot, a))
            } else {
                slots.iter().zip(actions).position(|(slot, &a)| Core::illegal(slot, a))
            };
            if let Some(i) = first_illegal {
                return Err(core.illegal_error(&slots[i], i, actions[i]));
            }
            let f = |s: &mut [Slot<G>], first: usize, o: VectorOutputs<'_>| {
                core.step_range(s, first, &actions[first..first + s.len()], o)
            };
            let out = out.into_range();
            Ok(if parallel { split_rows(slots, 0, out, sizes, grain, &f) } else { f(slots, 0, out) })
        };
        match &self.pool {
            _ if n <= grain => work(false),
            Pool::Caller => work(false),
            Pool::Global => work(true),
            Pool::Own(pool) => pool.install(|| work(true)),
        }
    }

    /// Writes each game's observation tensor into `out` (one row of `observation` values per
    /// game): seat `seat`'s, or with `None` the seat to act's (zeros at chance nodes and ends).
    pub fn observe(&self, seat: Option<usize>, out: &mut [f32]) -> Result<()> {
        let n = self.num_games();
        let len = self.core.sizes.observation;
        if let Some(p) = seat {
            if p >= self.core.sizes.players {
                return Err(EngineError::InvalidRequest(format!(
                    "player {p} is out of range: this game has players 0..{}",
                    self.core.sizes.players - 1
                )));
            }
        }
        if out.len() != n * len {
            return Err(EngineError::InvalidRequest(format!(
                "the observation output holds {} values; {n} games need {}",
                out.len(),
                n * len
            )));
        }
        if len == 0 {
            return Ok(());
        }
        let grain = self.grain();
        let core = &self.core;
        if n <= grain {
            core.observe_range(&self.slots, seat, out);
            return Ok(());
        }
        let slots = &self.slots[..];
        match &self.pool {
            Pool::Caller | Pool::Global => observe_split(core, slots, seat, out, grain),
            Pool::Own(pool) => pool.install(|| observe_split(core, slots, seat, out, grain)),
        }
        Ok(())
    }
}

fn observe_split<G: Game>(core: &Core<G>, slots: &[Slot<G>], seat: Option<usize>, out: &mut [f32], grain: usize) {
    if slots.len() <= grain {
        core.observe_range(slots, seat, out);
        return;
    }
    let mid = slots.len() / 2;
    let (s0, s1) = slots.split_at(mid);
    let (o0, o1) = out.split_at_mut(mid * core.sizes.observation);
    rayon::join(|| observe_split(core, s0, seat, o0, grain), || observe_split(core, s1, seat, o1, grain));
}

/// A vector game of any game, for callers that pick the game at run time (the Python
/// bindings); built by [`super::DynGame::vector`].
pub trait DynVector: Send + Sync {
    fn spec(&self) -> &GameSpec;
    fn num_games(&self) -> usize;
    fn row_sizes(&self) -> RowSizes;
    fn seed(&self) -> u64;
    fn agents(&self) -> &[Option<AgentSpec>];
    fn auto_reset(&self) -> bool;
    fn explicit_chance(&self) -> bool;
    fn legal(&self) -> LegalOutput;
    fn threads(&self) -> usize;
    fn write(&mut self, out: VectorOutputs<'_>) -> Result<()>;
    fn reset(&mut self, seed: Option<u64>, out: VectorOutputs<'_>) -> Result<()>;
    fn reset_games(&mut self, games: &[bool], out: VectorOutputs<'_>) -> Result<()>;
    fn step(&mut self, actions: &[i64], out: VectorOutputs<'_>) -> Result<usize>;
    fn observe(&self, seat: Option<usize>, out: &mut [f32]) -> Result<()>;
    /// The episode of every game, into `out` (one value per game).
    fn episodes(&self, out: &mut [u64]);
    fn game_seed(&self, index: usize, episode: u64) -> u64;
    /// Game `index` as a state of its own (see [`VectorGame::game_state`]).
    fn state(&self, index: usize) -> Result<Box<dyn DynState>>;
}

impl<G: Game> DynVector for VectorGame<G> {
    fn spec(&self) -> &GameSpec {
        self.core.game.spec()
    }
    fn num_games(&self) -> usize {
        VectorGame::num_games(self)
    }
    fn row_sizes(&self) -> RowSizes {
        VectorGame::row_sizes(self)
    }
    fn seed(&self) -> u64 {
        VectorGame::seed(self)
    }
    fn agents(&self) -> &[Option<AgentSpec>] {
        VectorGame::agents(self)
    }
    fn auto_reset(&self) -> bool {
        VectorGame::auto_reset(self)
    }
    fn explicit_chance(&self) -> bool {
        VectorGame::explicit_chance(self)
    }
    fn legal(&self) -> LegalOutput {
        VectorGame::legal(self)
    }
    fn threads(&self) -> usize {
        VectorGame::threads(self)
    }
    fn write(&mut self, out: VectorOutputs<'_>) -> Result<()> {
        VectorGame::write(self, out)
    }
    fn reset(&mut self, seed: Option<u64>, out: VectorOutputs<'_>) -> Result<()> {
        VectorGame::reset(self, seed, out)
    }
    fn reset_games(&mut self, games: &[bool], out: VectorOutputs<'_>) -> Result<()> {
        VectorGame::reset_games(self, games, out)
    }
    fn step(&mut self, actions: &[i64], out: VectorOutputs<'_>) -> Result<usize> {
        VectorGame::step(self, actions, out)
    }
    fn observe(&self, seat: Option<usize>, out: &mut [f32]) -> Result<()> {
        VectorGame::observe(self, seat, out)
    }
    fn episodes(&self, out: &mut [u64]) {
        for (o, slot) in out.iter_mut().zip(&self.slots) {
            *o = slot.episode;
        }
    }
    fn game_seed(&self, index: usize, episode: u64) -> u64 {
        VectorGame::game_seed(self, index, episode)
    }
    fn state(&self, index: usize) -> Result<Box<dyn DynState>> {
        if index >= self.num_games() {
            return Err(EngineError::InvalidRequest(format!(
                "game {index} is out of range: this vector game holds games 0..{}",
                self.num_games() - 1
            )));
        }
        Ok(Box::new(self.game_state(index)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::toy::Race;
    use crate::engine::{CHANCE, TERMINAL};

    fn race(config: VectorConfig) -> VectorGame<Race> {
        VectorGame::new(Arc::new(Race::new(7)), config).unwrap()
    }

    /// The first legal action of every game (from the mask).
    fn first_legal(v: &VectorGame<Race>, b: &VectorBuffers) -> Vec<i64> {
        let a = v.row_sizes().actions;
        (0..v.num_games())
            .map(|i| b.legal_mask[i * a..(i + 1) * a].iter().position(|&m| m).map_or(-1, |x| x as i64))
            .collect()
    }

    #[test]
    fn games_restart_and_report_their_returns() {
        let mut v = race(VectorConfig { num_games: 5, seed: 3, ..Default::default() });
        let mut b = v.buffers();
        v.write(b.outputs()).unwrap();
        let mut ended = 0;
        for _ in 0..60 {
            let actions = first_legal(&v, &b);
            ended += v.step(&actions, b.outputs()).unwrap();
            assert!(b.current_player.iter().all(|&p| p == 0 || p == 1));
            for i in 0..5 {
                let r = &b.returns[2 * i..2 * i + 2];
                if b.terminated[i] {
                    assert_eq!(r[0] + r[1], 0.0);
                    assert_eq!(r[0].abs(), 1.0);
                } else {
                    assert_eq!(r, [0.0, 0.0]);
                }
            }
        }
        assert!(ended >= 5 && (0..5).all(|i| v.episode(i) > 0), "{ended}");
    }

    #[test]
    fn an_illegal_action_anywhere_changes_no_game() {
        let mut v = race(VectorConfig { num_games: 4, ..Default::default() });
        let mut b = v.buffers();
        v.write(b.outputs()).unwrap();
        let before: Vec<_> = (0..4).map(|i| v.state(i).clone()).collect();
        let written = b.clone();
        let err = v.step(&[0, 1, 5, 0], b.outputs()).unwrap_err();
        assert!(matches!(&err, EngineError::IllegalAction(m) if m.starts_with("game 2:")), "{err}");
        let err = v.step(&[0, -2, 0, 0], b.outputs()).unwrap_err();
        assert!(err.to_string().contains("game 1"), "{err}");
        assert!(v.step(&[0, 0], b.outputs()).is_err());
        assert_eq!((0..4).map(|i| v.state(i).clone()).collect::<Vec<_>>(), before);
        assert_eq!(b, written);
    }

    #[test]
    fn minus_one_leaves_a_game_as_it_is() {
        let mut v = race(VectorConfig { num_games: 3, ..Default::default() });
        let mut b = v.buffers();
        v.write(b.outputs()).unwrap();
        let before = v.state(1).clone();
        v.step(&[0, -1, 1], b.outputs()).unwrap();
        assert_eq!(v.state(1), &before);
        assert_ne!(v.state(0), &before);
    }

    #[test]
    fn explicit_chance_stops_at_chance_nodes_and_takes_outcomes() {
        let mut v = race(VectorConfig { num_games: 2, explicit_chance: true, ..Default::default() });
        let mut b = v.buffers();
        v.write(b.outputs()).unwrap();
        v.step(&[1, 0], b.outputs()).unwrap();
        assert_eq!(b.current_player, [CHANCE, CHANCE]);
        assert_eq!(b.chance_probabilities, [0.5, 0.5, 0.5, 0.5]);
        assert!(b.legal_mask.iter().all(|&m| !m));
        v.step(&[1, 0], b.outputs()).unwrap();
        assert!(b.current_player.iter().all(|&p| p == 0 || p == 1));
        assert!(b.chance_probabilities.iter().all(|&p| p == 0.0));
    }

    #[test]
    fn without_auto_reset_a_finished_game_waits_for_a_reset() {
        let mut v = race(VectorConfig { num_games: 2, auto_reset: false, ..Default::default() });
        let mut b = v.buffers();
        v.write(b.outputs()).unwrap();
        while b.current_player[0] != TERMINAL {
            let a = first_legal(&v, &b).iter().map(|&a| a.max(-1)).collect::<Vec<_>>();
            v.step(&a, b.outputs()).unwrap();
        }
        assert!(v.step(&[1, -1], b.outputs()).unwrap_err().to_string().contains("over"));
        v.reset_games(&[true, false], b.outputs()).unwrap();
        assert_eq!(v.episode(0), 1);
        assert!(b.current_player[0] >= 0);
    }

    #[test]
    fn thread_counts_give_identical_outputs() {
        let play = |threads: usize| {
            let mut v = race(VectorConfig { num_games: 700, seed: 9, threads, ..Default::default() });
            let mut b = v.buffers();
            v.write(b.outputs()).unwrap();
            let mut obs = vec![0.0; 700];
            let mut trace = Vec::new();
            for step in 0..40 {
                let actions: Vec<i64> = (0..700).map(|i| ((i + step) % 2) as i64).collect();
                v.step(&actions, b.outputs()).unwrap();
                v.observe(None, &mut obs).unwrap();
                trace.push((b.clone(), obs.clone()));
            }
            trace
        };
        let one = play(1);
        assert_eq!(one, play(2));
        assert_eq!(one, play(0));
    }

    #[test]
    fn the_lists_hold_the_masks_legal_actions_for_any_split() {
        // 700 games on a pool are played in several ranges, whose lists are joined.
        let play = |threads: usize, legal: LegalOutput| {
            let mut v = race(VectorConfig { num_games: 700, seed: 5, threads, legal, ..Default::default() });
            let mut b = v.buffers();
            v.write(b.outputs()).unwrap();
            let mut trace = Vec::new();
            for step in 0..30 {
                let actions: Vec<i64> = (0..700).map(|i| ((i * 7 + step) % 2) as i64).collect();
                v.step(&actions, b.outputs()).unwrap();
                // What lies past the last offset is not part of the output.
                let mut written = b.clone();
                written.legal_actions.truncate(b.legal_offsets.last().map_or(0, |&n| n as usize));
                trace.push(written);
            }
            trace
        };
        let both = play(1, LegalOutput::Both);
        for b in &both {
            assert_eq!(b.legal_offsets.len(), 701);
            assert_eq!(b.legal_offsets[0], 0);
            for i in 0..700 {
                let mask: Vec<i32> = (0..2).filter(|&a| b.legal_mask[2 * i + a]).map(|a| a as i32).collect();
                assert_eq!(b.legal_actions_of(i), &mask[..], "game {i}");
            }
        }
        assert_eq!(both, play(2, LegalOutput::Both));
        assert_eq!(both, play(0, LegalOutput::Both));
        let lists = play(2, LegalOutput::Actions);
        for (b, l) in both.iter().zip(&lists) {
            assert!(l.legal_mask.is_empty());
            assert_eq!((&b.legal_offsets, &b.legal_actions), (&l.legal_offsets, &l.legal_actions));
            assert_eq!(b.current_player, l.current_player);
        }
        let masks = play(2, LegalOutput::Mask);
        assert!(masks.iter().zip(&both).all(|(m, b)| m.legal_offsets.is_empty() && m.legal_mask == b.legal_mask));
    }

    #[test]
    fn the_lists_are_empty_at_chance_nodes_and_ends() {
        let config = VectorConfig { num_games: 2, explicit_chance: true, legal: LegalOutput::Actions, ..Default::default() };
        let mut v = race(config);
        let mut b = v.buffers();
        v.write(b.outputs()).unwrap();
        v.step(&[1, 0], b.outputs()).unwrap();
        assert_eq!(b.current_player, [CHANCE, CHANCE]);
        assert_eq!(b.legal_offsets, [0, 0, 0]);
        let mut v = race(VectorConfig { num_games: 2, auto_reset: false, legal: LegalOutput::Actions, ..Default::default() });
        let mut b = v.buffers();
        v.write(b.outputs()).unwrap();
        while b.current_player[0] != TERMINAL {
            let a: Vec<i64> = (0..2).map(|i| b.legal_actions_of(i).first().map_or(-1, |&a| a as i64)).collect();
            v.step(&a, b.outputs()).unwrap();
        }
        assert!(b.legal_actions_of(0).is_empty());
        assert_eq!("both".parse::<LegalOutput>().unwrap(), LegalOutput::Both);
        assert!(matches!("list".parse::<LegalOutput>(), Err(EngineError::InvalidOption { .. })));
    }

    #[test]
    fn a_game_does_not_depend_on_the_games_beside_it() {
        let mut small = race(VectorConfig { num_games: 2, seed: 4, ..Default::default() });
        let mut large = race(VectorConfig { num_games: 9, seed: 4, ..Default::default() });
        let (mut bs, mut bl) = (small.buffers(), large.buffers());
        small.write(bs.outputs()).unwrap();
        large.write(bl.outputs()).unwrap();
        for step in 0..30 {
            small.step(&[step % 2, 1], bs.outputs()).unwrap();
            let mut a = vec![0; 9];
            a[..2].copy_from_slice(&[step % 2, 1]);
            large.step(&a, bl.outputs()).unwrap();
            assert_eq!(small.state(0), large.state(0));
            assert_eq!(small.state(1), large.state(1));
            assert_eq!(bs.returns[..4], bl.returns[..4]);
        }
    }

    #[test]
    fn seats_of_agents_are_played_inside_the_call() {
        let mut v = race(VectorConfig {
            num_games: 6,
            agents: vec![None, Some(AgentSpec::Random)],
            ..Default::default()
        });
        let mut b = v.buffers();
        v.write(b.outputs()).unwrap();
        for _ in 0..50 {
            assert!(b.current_player.iter().all(|&p| p == 0));
            let a = first_legal(&v, &b);
            v.step(&a, b.outputs()).unwrap();
        }
        let all = VectorGame::new(
            Arc::new(Race::new(7)),
            VectorConfig { agents: vec![Some(AgentSpec::Random); 2], ..Default::default() },
        );
        assert!(matches!(all, Err(EngineError::InvalidOption { .. })));
    }
}
