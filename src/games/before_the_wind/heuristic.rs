//! Before the Wind's evaluation for the search agents: victory points, plus credit for what
//! brings victory points later (warehouse goods that ships in the harbour ask for, goods in
//! the hand, guilders, kept special cards, the card in front of the player).

use crate::engine::outcome::returns_or_margins;
use crate::engine::prelude::*;

use super::data::Kind;
use super::state::{Phase, State, NONE};
use super::BeforeTheWind;

impl BeforeTheWind {
    fn position_value(&self, s: &State, p: usize) -> f64 {
        let pl = &s.seats[p];
        let mut v = pl.vp as f64;
        // The ship in the harbour the warehouse comes closest to: a share of its points.
        let mut best = 0.0f64;
        for &sh in s.harbour.iter().filter(|&&x| x != NONE) {
            let ship = &self.data.ships[sh as usize];
            let need: u32 = ship.goods.iter().map(|&x| x as u32).sum();
            let have: u32 = (0..4).map(|g| pl.warehouse[g].min(ship.goods[g]) as u32).sum();
            let frac = have as f64 / need as f64;
            best = best.max(ship.vp as f64 * frac * frac * 0.5);
        }
        v += best;
        // Goods: in the warehouse they are a step nearer a ship than in the hand; apples and
        // half the cheeses and spices spoil when the fleet leaves.
        v += 0.9 * pl.stored() as f64 + 0.45 * pl.held() as f64;
        v += 0.08 * (pl.money.min(60) as f64);
        v += self.data.specials.iter().enumerate().map(|(k, _)| pl.kept[k] as f64 * 0.8).sum::<f64>();
        if pl.card != NONE && matches!(s.phase, Phase::Choose | Phase::Bid | Phase::Resolve | Phase::Play) {
            let pos = |q: usize| (q + self.players - s.active as usize) % self.players;
            let playable = s.phase != Phase::Play || pos(p) > pos(s.cursor as usize) || (s.cursor as usize == p && !s.card_done);
            if playable {
                v += match self.data.kind(pl.card) {
                    Kind::Receive { goods } => 0.45 * goods.iter().map(|&x| x as f64).sum::<f64>(),
                    Kind::Store { n, cost } => (0.45 * n.min(pl.held()) as f64 - 0.08 * cost as f64).max(0.0),
                    Kind::LoadOrProfit { profit } => 0.08 * profit as f64 + 1.0,
                    _ => 0.8,
                };
            }
        }
        v
    }
}

impl Evaluate for BeforeTheWind {
    /// Before the Wind's evaluation for search agents: tanh of each seat's position value
    /// over the best opponent's, twelve points wide.
    fn evaluate(&self, s: &State, out: &mut [f64]) {
        returns_or_margins(self, s, s.phase == Phase::GameOver, self.players, 12.0, out, |p| self.position_value(s, p));
    }
}
