//! `AgentStream`: the random stream that the built-in agents of one game of a run draw from,
//! for the games a Python agent takes part in, which Python plays move by move.

use pyo3::prelude::*;

use super::convert::Seed;
use super::errors::{detached, engine};
use super::state::State;
use crate::engine::agents::AgentScratch;
use crate::engine::rng::{rng_from_seed, Rng};
use crate::engine::simulate::agent_seed;
use crate::engine::AgentSpec;

/// The stream the built-in agents of game `index` of the run seeded `seed` draw from, the one
/// `Game.simulate` and `Game.replay_game` give that game's agents: a game whose seats all
/// choose through it, from `Game.new_state(derive_seed(seed, index))`, is the game they play.
#[pyclass(module = "tradewinds._core", name = "AgentStream")]
pub struct AgentStream {
    seed: u64,
    rng: Rng,
    scratch: AgentScratch,
}

#[pymethods]
impl AgentStream {
    #[new]
    #[pyo3(text_signature = "(seed, index)")]
    fn new(seed: Seed, index: Seed) -> Self {
        let seed = agent_seed(seed.0, index.0);
        AgentStream { seed, rng: rng_from_seed(seed), scratch: AgentScratch::default() }
    }

    /// The seed the stream starts from.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The action built-in agent `agent` ("random", "greedy", "mcts:iterations=200,...")
    /// picks for the player to move in `state`, drawing from the stream (each call goes on
    /// where the last one stopped).
    fn action(&mut self, py: Python<'_>, state: PyRef<'_, State>, agent: &str) -> PyResult<u32> {
        let spec: AgentSpec = engine(agent.parse())?;
        let (rng, scratch) = (&mut self.rng, &mut self.scratch);
        let inner = state.dyn_state();
        engine(detached(py, || inner.agent_action_from(&spec, rng, scratch))?)
    }
}
