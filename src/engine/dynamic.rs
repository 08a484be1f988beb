//! Type-erased games and states, written once for every `G: Game`, so that callers that pick
//! a game at run time (the Python bindings, the CLI) handle all games alike.

use std::any::Any;
use std::sync::Arc;

use super::agents::{choose, AgentScratch, AgentSpec};
use super::error::{EngineError, Result};
use super::game::{Action, Actor, Game, GameSpec};
use super::record::{LogEntry, Record};
use super::report::{ScoreRecord, ScoreReport};
use super::rng::{rng_from_seed, Rng};
use super::simulate::{replay_game, simulate_agents, simulate_run, Progress, SimulationResult};
use super::state::GameState;
use super::svg::Viewer;
use super::tensor::Layout;
use super::vector::{DynVector, VectorConfig, VectorGame};

pub trait DynGame: Send + Sync {
    fn spec(&self) -> &GameSpec;
    fn config(&self) -> serde_json::Value;
    /// The version of this game's saved-state format ([`Game::STATE_FORMAT`]).
    fn state_format(&self) -> u32;
    /// The least and the greatest value of each entry of the observation tensor (see
    /// [`crate::engine::View::observation`]).
    fn observation_bounds(&self) -> (Vec<f32>, Vec<f32>);
    /// The observation tensor's fields in order and its bounds (see
    /// [`crate::engine::View::observation_layout`]).
    fn observation_layout(&self) -> Layout;
    fn new_state(&self, seed: u64, explicit_chance: bool) -> Box<dyn DynState>;
    fn setup(&self, description: &serde_json::Value, seed: u64, explicit_chance: bool)
        -> Result<Box<dyn DynState>>;
    fn state_from_json(&self, text: &str) -> Result<Box<dyn DynState>>;
    fn state_from_bytes(&self, bytes: &[u8]) -> Result<Box<dyn DynState>>;
    /// Plays a record of this game again (see [`GameState::replay`]).
    fn replay(&self, record: &Record, moves: Option<usize>) -> Result<Box<dyn DynState>>;
    /// Bulk simulation of games `first .. first + games`, one agent per seat (all random
    /// when `agents` is empty); see [`simulate_agents`].
    fn simulate(
        &self,
        agents: &[AgentSpec],
        first: u64,
        games: usize,
        seed: u64,
        threads: usize,
        progress: Option<Progress<'_>>,
    ) -> Result<SimulationResult>;
    /// [`DynGame::simulate`], measuring the games' design metrics when `metrics` is
    /// `Some(every)`, evaluating every `every`-th decision (see [`simulate_run`]).
    #[allow(clippy::too_many_arguments)]
    fn simulate_measured(
        &self,
        agents: &[AgentSpec],
        first: u64,
        games: usize,
        seed: u64,
        threads: usize,
        metrics: Option<u64>,
        progress: Option<Progress<'_>>,
    ) -> Result<SimulationResult>;
    /// Game `index` of the bulk run seeded `seed` with these agents, played again as a state
    /// with its history (see [`replay_game`]).
    fn replay_game(&self, agents: &[AgentSpec], seed: u64, index: u64) -> Box<dyn DynState>;
    /// `config.num_games` games of this configuration stepped together (see
    /// [`super::vector`]), each at its first node where the caller acts.
    fn vector(&self, config: VectorConfig) -> Result<Box<dyn DynVector>>;
}

pub trait DynState: Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn clone_box(&self) -> Box<dyn DynState>;
    fn equals(&self, other: &dyn DynState) -> bool;
    fn spec(&self) -> &GameSpec;
    fn current_player(&self) -> i32;
    fn is_terminal(&self) -> bool;
    fn is_chance(&self) -> bool;
    fn is_truncated(&self) -> bool;
    fn explicit_chance(&self) -> bool;
    fn move_number(&self) -> u64;
    fn history(&self) -> Vec<Action>;
    fn legal_actions(&self) -> Vec<Action>;
    fn legal_actions_cached(&mut self) -> &[Action];
    fn legal_action_mask(&self) -> Vec<bool>;
    fn chance_outcomes(&self) -> Vec<(Action, f64)>;
    fn apply(&mut self, action: Action) -> Result<()>;
    fn action_to_string(&self, action: Action) -> String;
    /// The move as seat `observer` sees it (see [`crate::engine::Game::action_string_for`]).
    fn action_string_for(&self, action: Action, observer: usize) -> Result<String>;
    /// Whether the decision here is secret from the other seats.
    fn decision_is_secret(&self) -> bool;
    fn string_to_action(&self, text: &str) -> Result<Action>;
    fn scores(&self) -> Vec<f64>;
    fn returns(&self) -> Vec<f64>;
    fn winners(&self) -> Vec<usize>;
    fn score_report(&self) -> ScoreReport;
    /// The score report's numbers as `simulate` records them (see [`crate::engine::View::score_record`]).
    fn score_record(&self) -> ScoreRecord;
    fn observation_string(&self, player: usize) -> Result<String>;
    fn observation_tensor(&self, player: usize) -> Result<Vec<f32>>;
    /// The least and the greatest value of each entry of the observation tensor (see
    /// [`crate::engine::View::observation`]).
    fn observation_bounds(&self) -> (Vec<f32>, Vec<f32>);
    fn resample(&self, player: usize, seed: u64) -> Result<Box<dyn DynState>>;
    fn render(&self) -> String;
    /// The table as an SVG picture for `viewer` (see [`crate::engine::Draw`]); a seat out of
    /// range is refused.
    fn svg(&self, viewer: Viewer) -> Result<String>;
    /// The game's named views and what each shows (see [`crate::engine::View::views`]).
    fn views(&self) -> &'static [(&'static str, &'static str)];
    /// View `name` as seat `observer` (or, with `None`, a spectator) may see it.
    fn view(&self, name: &str, observer: Option<usize>) -> Result<String>;
    /// A 64-bit fingerprint of the position (see [`GameState::fingerprint`]).
    fn fingerprint(&self) -> u64;
    fn public_string(&self) -> String;
    fn to_json(&self) -> String;
    fn to_bytes(&self) -> Vec<u8>;
    /// The seed the game was started from, while known (see [`GameState::seed`]).
    fn seed(&self) -> Option<u64>;
    /// The game so far as a record (see [`GameState::record`]).
    fn record(&self) -> Result<Record>;
    /// The log so far, as seat `observer` (or, with `None`, a spectator who sees all) may see it.
    fn log(&self, observer: Option<usize>) -> Result<Vec<LogEntry>>;
    /// The action a built-in agent picks for the player to move (`seed` drives its randomness).
    fn agent_action(&self, agent: &AgentSpec, seed: u64) -> Result<Action>;
    /// The action a built-in agent picks for the player to move, drawing from `rng` (and
    /// reusing `scratch`'s buffers): successive calls with one generator choose as the agents
    /// of a simulated game choose from their game's stream (see [`play_game`](super::simulate::play_game)).
    fn agent_action_from(&self, agent: &AgentSpec, rng: &mut Rng, scratch: &mut AgentScratch) -> Result<Action>;
}

/// A configured game behind a shared pointer, usable as `dyn DynGame`.
pub struct Handle<G: Game>(pub Arc<G>);

impl<G: Game> DynGame for Handle<G> {
    fn spec(&self) -> &GameSpec {
        self.0.spec()
    }
    fn config(&self) -> serde_json::Value {
        self.0.config()
    }
    fn state_format(&self) -> u32 {
        G::STATE_FORMAT
    }
    fn observation_bounds(&self) -> (Vec<f32>, Vec<f32>) {
        super::state::observation_bounds(&*self.0)
    }
    fn observation_layout(&self) -> Layout {
        self.0.observation_layout()
    }
    fn new_state(&self, seed: u64, explicit_chance: bool) -> Box<dyn DynState> {
        Box::new(GameState::new(Arc::clone(&self.0), seed, explicit_chance))
    }
    fn setup(&self, description: &serde_json::Value, seed: u64, explicit_chance: bool)
        -> Result<Box<dyn DynState>> {
        let inner = self.0.setup(description)?;
        Ok(Box::new(GameState::from_parts(
            Arc::clone(&self.0),
            inner,
            rng_from_seed(seed),
            explicit_chance,
        )))
    }
    fn state_from_json(&self, text: &str) -> Result<Box<dyn DynState>> {
        Ok(Box::new(GameState::from_json(&self.0, text)?))
    }
    fn state_from_bytes(&self, bytes: &[u8]) -> Result<Box<dyn DynState>> {
        Ok(Box::new(GameState::from_bytes(&self.0, bytes)?))
    }
    fn replay(&self, record: &Record, moves: Option<usize>) -> Result<Box<dyn DynState>> {
        Ok(Box::new(GameState::replay(Arc::clone(&self.0), record, moves)?))
    }
    fn simulate(
        &self,
        agents: &[AgentSpec],
        first: u64,
        games: usize,
        seed: u64,
        threads: usize,
        progress: Option<Progress<'_>>,
    ) -> Result<SimulationResult> {
        simulate_agents(&*self.0, agents, first, games, seed, threads, progress)
    }
    fn simulate_measured(
        &self,
        agents: &[AgentSpec],
        first: u64,
        games: usize,
        seed: u64,
        threads: usize,
        metrics: Option<u64>,
        progress: Option<Progress<'_>>,
    ) -> Result<SimulationResult> {
        simulate_run(&*self.0, agents, first, games, seed, threads, metrics, progress)
    }
    fn replay_game(&self, agents: &[AgentSpec], seed: u64, index: u64) -> Box<dyn DynState> {
        Box::new(replay_game(Arc::clone(&self.0), agents, seed, index))
    }
    fn vector(&self, config: VectorConfig) -> Result<Box<dyn DynVector>> {
        Ok(Box::new(VectorGame::new(Arc::clone(&self.0), config)?))
    }
}

impl<G: Game> DynState for GameState<G> {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }
    fn equals(&self, other: &dyn DynState) -> bool {
        other.as_any().downcast_ref::<Self>().is_some_and(|o| o == self)
    }
    fn spec(&self) -> &GameSpec {
        self.game().spec()
    }
    fn current_player(&self) -> i32 {
        GameState::current_player(self)
    }
    fn is_terminal(&self) -> bool {
        GameState::is_terminal(self)
    }
    fn is_chance(&self) -> bool {
        GameState::is_chance(self)
    }
    fn is_truncated(&self) -> bool {
        GameState::is_truncated(self)
    }
    fn explicit_chance(&self) -> bool {
        GameState::explicit_chance(self)
    }
    fn move_number(&self) -> u64 {
        GameState::move_number(self)
    }
    fn history(&self) -> Vec<Action> {
        GameState::history(self).to_vec()
    }
    fn legal_actions(&self) -> Vec<Action> {
        GameState::legal_actions(self)
    }
    fn legal_actions_cached(&mut self) -> &[Action] {
        GameState::legal_actions_cached(self)
    }
    fn legal_action_mask(&self) -> Vec<bool> {
        GameState::legal_action_mask(self)
    }
    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        GameState::chance_outcomes(self)
    }
    fn apply(&mut self, action: Action) -> Result<()> {
        GameState::apply(self, action)
    }
    fn action_to_string(&self, action: Action) -> String {
        GameState::action_to_string(self, action)
    }
    fn action_string_for(&self, action: Action, observer: usize) -> Result<String> {
        GameState::action_string_for(self, action, observer)
    }
    fn decision_is_secret(&self) -> bool {
        self.game().decision_is_secret(self.inner())
    }
    fn string_to_action(&self, text: &str) -> Result<Action> {
        GameState::string_to_action(self, text)
    }
    fn scores(&self) -> Vec<f64> {
        GameState::scores(self)
    }
    fn returns(&self) -> Vec<f64> {
        GameState::returns(self)
    }
    fn winners(&self) -> Vec<usize> {
        GameState::winners(self)
    }
    fn score_report(&self) -> ScoreReport {
        GameState::score_report(self)
    }
    fn score_record(&self) -> ScoreRecord {
        GameState::score_record(self)
    }
    fn observation_string(&self, player: usize) -> Result<String> {
        GameState::observation_string(self, player)
    }
    fn observation_tensor(&self, player: usize) -> Result<Vec<f32>> {
        GameState::observation_tensor(self, player)
    }
    fn observation_bounds(&self) -> (Vec<f32>, Vec<f32>) {
        GameState::observation_bounds(self)
    }
    fn resample(&self, player: usize, seed: u64) -> Result<Box<dyn DynState>> {
        Ok(Box::new(GameState::resample(self, player, seed)?))
    }
    fn render(&self) -> String {
        GameState::render(self)
    }
    fn svg(&self, viewer: Viewer) -> Result<String> {
        GameState::svg(self, viewer)
    }
    fn views(&self) -> &'static [(&'static str, &'static str)] {
        GameState::views(self)
    }
    fn view(&self, name: &str, observer: Option<usize>) -> Result<String> {
        GameState::view(self, name, observer)
    }
    fn fingerprint(&self) -> u64 {
        GameState::fingerprint(self)
    }
    fn public_string(&self) -> String {
        GameState::public_string(self)
    }
    fn to_json(&self) -> String {
        GameState::to_json(self)
    }
    fn to_bytes(&self) -> Vec<u8> {
        GameState::to_bytes(self)
    }
    fn seed(&self) -> Option<u64> {
        GameState::seed(self)
    }
    fn record(&self) -> Result<Record> {
        GameState::record(self)
    }
    fn log(&self, observer: Option<usize>) -> Result<Vec<LogEntry>> {
        GameState::log(self, observer)
    }
    fn agent_action(&self, agent: &AgentSpec, seed: u64) -> Result<Action> {
        GameState::agent_action(self, agent, seed)
    }
    fn agent_action_from(&self, agent: &AgentSpec, rng: &mut Rng, scratch: &mut AgentScratch) -> Result<Action> {
        match self.actor() {
            Actor::Player(p) => Ok(choose(agent, &**self.game(), self.inner(), p, rng, scratch)),
            Actor::Chance => Err(EngineError::InvalidRequest("no agent acts at a chance node".into())),
            Actor::Terminal => Err(EngineError::InvalidRequest("the game is over".into())),
        }
    }
}
