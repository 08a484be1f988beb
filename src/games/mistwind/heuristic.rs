//! Mistwind's evaluation for the search agents.

use crate::engine::outcome::tanh_margins;
use crate::engine::prelude::*;

use super::state::{Phase, State, MAX_PLAYERS};
use super::Mistwind;

impl Evaluate for Mistwind {
    /// The engine's default measure (tanh of the margin over the best other seat, 4 points
    /// wide) on the score as it would stand if the game ended now, computed without allocating.
    fn evaluate(&self, state: &State, out: &mut [f64]) {
        if state.phase == Phase::GameOver {
            self.returns(state, out);
            return;
        }
        let mut totals = [0.0f64; MAX_PLAYERS];
        for (p, t) in totals.iter_mut().enumerate().take(self.players) {
            *t = self.tally(state, p).iter().sum::<u32>() as f64;
        }
        tanh_margins(&totals[..self.players], 4.0, out);
    }
}
