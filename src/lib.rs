//! # tradewinds
//!
//! Rules-complete engines for nautical trading board games, fast enough for millions of
//! playouts. The crate is a pure Rust library (the `python` feature adds the PyO3 bindings).
//!
//! ```
//! use std::sync::Arc;
//! use tradewinds::engine::prelude::*;
//! use tradewinds::engine::GameState;
//! use tradewinds::games::north_wind::NorthWind;
//!
//! let options = serde_json::json!({"players": 3});
//! let game = Arc::new(NorthWind::load(options.as_object().unwrap()).unwrap());
//! let mut state = GameState::new(game, 42, false);
//! while !state.is_terminal() {
//!     let legal = state.legal_actions();
//!     state.apply(legal[0]).unwrap();
//! }
//! assert_eq!(state.scores().len(), 3);
//! ```

// Game code indexes parallel fixed-size tables (goods, ports, seats, stacks) by one index.
#![allow(clippy::needless_range_loop)]

pub mod engine;
pub mod games;
/// The shared checks (conformance, invariants, fuzzing, golden files): for this crate's tests,
/// its fuzz targets and a game being written beside it (the `harness` feature), never shipped.
#[cfg(any(test, feature = "harness"))]
pub mod harness;

#[cfg(feature = "python")]
mod python;
