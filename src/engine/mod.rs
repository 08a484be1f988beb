//! The game-agnostic engine: the [`Game`] trait and everything written once on top of it.

pub mod agents;
pub mod conformance;
pub mod dynamic;
pub mod error;
pub mod fuzzing;
pub mod game;
pub mod playthrough;
pub mod report;
pub mod rng;
pub mod simulate;
pub mod state;
#[cfg(test)]
pub(crate) mod toy;

pub use dynamic::{DynGame, DynState, Handle};
pub use error::{EngineError, Result};
pub use game::{Action, Actor, Game, GameSpec, CHANCE, TERMINAL};
pub use report::ScoreReport;
pub use rng::Rng;
pub use agents::AgentSpec;
pub use simulate::{random_rollout, simulate, simulate_agents, Progress, SimulationResult};
pub use state::{GameState, STATE_FORMAT_VERSION};
