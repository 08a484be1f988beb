//! Norsewind's evaluation for the search agents.

use crate::engine::outcome::tanh_margins;
use crate::engine::prelude::*;

use super::state::{Phase, State, MAX_PLAYERS};
use super::Norsewind;

impl Evaluate for Norsewind {
    /// The final score as it would stand now, as each seat's margin over the best other
    /// scorer (the Vikings in the solo game), 8 points wide, computed without allocating.
    fn evaluate(&self, state: &State, out: &mut [f64]) {
        if state.phase == Phase::GameOver {
            self.returns(state, out);
            return;
        }
        let n = self.players;
        let mut values = [0.0f64; MAX_PLAYERS + 1];
        for (p, v) in values.iter_mut().enumerate().take(n) {
            *v = self.total(state, p) as f64;
        }
        if self.solo() {
            values[1] = self.viking_total(state) as f64;
            tanh_margins(&values[..2], 8.0, out);
        } else {
            tanh_margins(&values[..n], 8.0, out);
        }
    }
}
