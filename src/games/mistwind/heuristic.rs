//! Mistwind's evaluation for the search agents.

use crate::engine::outcome::returns_or_margins;
use crate::engine::prelude::*;

use super::rules::bits;
use super::state::{Phase, State};
use super::Mistwind;

impl Evaluate for Mistwind {
    /// With seats to beat: the engine's default measure (tanh of the margin over the best
    /// other seat, 4 points wide) on the score as it would stand if the game ended now,
    /// computed without allocating, and the returns at the end.
    ///
    /// Solo: the progress toward the chosen goal ([`Mistwind::goal_progress`]), mapped to
    /// [-1, 1]. It is 1 exactly when the goal is met, so at the end it equals the return of a
    /// won game, and it grades a lost game by how near it came instead of a flat -1, which
    /// gives a search whose playouts reach the end something to prefer.
    fn evaluate(&self, state: &State, out: &mut [f64]) {
        if self.players == 1 {
            out[0] = 2.0 * self.goal_progress(state) - 1.0;
            return;
        }
        returns_or_margins(self, state, state.phase == Phase::GameOver, self.players, 4.0, out, |p| {
            self.tally(state, p).iter().sum::<u32>() as f64
        });
    }
}

impl Mistwind {
    /// How far the solo player is toward the chosen goal, in [0, 1]: the mean of each of the
    /// goal's conditions as a fraction met (achievement tiles, network tiles and points, each
    /// capped at 1; the network card by the share of its two destinations the network joins,
    /// 1 once fulfilled). It is 1 exactly when the goal is met.
    pub fn goal_progress(&self, state: &State) -> f64 {
        let goal = &self.data.goals[self.difficulty];
        let standing = self.goal_standing(state, self.difficulty);
        let share = |(have, met): (u32, bool), need: u32| if met { 1.0 } else { have as f64 / need as f64 };
        let card = if standing.card {
            1.0
        } else {
            let pl = &state.players[0];
            let links = bits(pl.cards as u64).map(|c| self.card_links(pl, c)).max().unwrap_or(0);
            // Both destinations joined fulfils the card (ruling 23), so a card short of it has
            // at most one: half.
            links.min(1) as f64 / 2.0
        };
        let parts = [
            card,
            share(standing.achievements, goal.achievements),
            share(standing.tiles, goal.network_tiles),
            share(standing.points, goal.points),
        ];
        parts.iter().sum::<f64>() / parts.len() as f64
    }
}
