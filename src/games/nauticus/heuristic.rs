//! Nauticus's evaluation for the search agents.

use crate::engine::outcome::tanh_margins;
use crate::engine::prelude::*;

use super::state::{self, State, Step};
use super::Nauticus;

impl Evaluate for Nauticus {
    /// The engine's default measure (tanh of the margin over the best other seat, 4 points
    /// wide) on the final scoring as it would stand now, computed without allocating.
    fn evaluate(&self, state: &State, out: &mut [f64]) {
        if state.step == Step::GameOver {
            self.returns(state, out);
            return;
        }
        let mut totals = [0.0f64; state::MAX_PLAYERS];
        for (p, t) in totals.iter_mut().enumerate().take(self.players) {
            *t = self.tally(state, p).total() as f64;
        }
        tanh_margins(&totals[..self.players], 4.0, out);
    }
}
