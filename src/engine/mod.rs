//! The game-agnostic engine: the [`Game`] trait and everything written once on top of it,
//! including the kit a game is written with (declared options, component data, returns
//! derived from the winners). The engine knows no game: games (`crate::games`) build on it,
//! and the test harness (`crate::harness`) on both.

pub mod agents;
pub mod data;
pub mod definition;
pub mod dynamic;
pub mod error;
pub mod field_errors;
pub mod game;
pub mod metrics;
pub mod offers;
pub mod options;
pub mod outcome;
pub mod record;
pub mod report;
pub mod rng;
pub mod simulate;
pub mod state;
pub mod svg;
pub mod tensor;
pub mod threads;
#[cfg(test)]
pub(crate) mod toy;
pub mod vector;
pub mod words;

/// The traits a game implements, to import at once where a concrete game's methods are
/// called (`use tradewinds::engine::prelude::*`).
pub mod prelude {
    pub use super::definition::GameDefinition;
    pub use super::game::{Describe, Picture, Evaluate, Game, Positions, Resample, Rules, View};
    pub use super::svg::Viewer;
    pub use super::tensor::Tensor;
}

pub use agents::AgentSpec;
pub use definition::{DataFileDecl, GameDefinition};
pub use dynamic::{DynGame, DynState, Handle};
pub use error::{panic_message, EngineError, Result};
pub use game::{Action, Actor, Describe, Picture, Evaluate, Game, GameSpec, Positions, Resample, Rules, View, CHANCE, MAX_SEATS, TERMINAL};
pub use options::{Opt, OptionDecl, OptionKind, Options};
pub use record::{LogEntry, Record, RECORD_FORMAT};
pub use report::{OpponentRow, ScoreRecord, ScoreReport};
pub use rng::Rng;
pub use simulate::{random_rollout, simulate, simulate_agents, simulate_run, Progress, SimulationResult};
pub use state::GameState;
pub use svg::Viewer;
pub use tensor::{Field, Layout, Tensor};
pub use vector::{DynVector, LegalOutput, VectorBuffers, VectorConfig, VectorGame, VectorOutputs};
