//! North Wind's evaluation for the search agents (`greedy` scores each move's resulting
//! position with it; `mcts` scores the positions where its playouts stop): how far a player
//! is from winning, in victory point tokens.
//!
//! A player's value is the tokens placed, plus credit for what brings tokens later. The
//! open contracts (the current one of each destination port) come first: what a player holds
//! towards them (goods, captains, gold) is worth a share of `CONTRACT` for each, a full
//! contract `CONTRACT` — less than the token it brings, so fulfilling it gains. What no
//! open contract needs is worth what it trades for (a spare good about two gold, as buying at
//! 1 and selling at 3 makes it), and each good the open contracts still need that the hold has
//! no room for costs `ROOM`: a hold full of goods nobody asks for blocks the player's own
//! contracts, and throwing one overboard to make room is then worth it.

use crate::engine::outcome::returns_or_margins;
use crate::engine::prelude::*;

use super::state::{Phase, Ship, State};
use super::NorthWind;

/// An open contract fully provided for (a token is 1).
pub(crate) const CONTRACT: f64 = 0.5;
/// A coin's share of a contract, counted in goods (a good or a captain is 1).
pub(crate) const COIN_SHARE: f64 = 0.25;
/// Each good the open contracts still need that the hold has no room for.
pub(crate) const ROOM: f64 = 0.25;
/// A good no open contract needs (its resale value: more than a coin, less than three).
pub(crate) const SPARE_GOOD: f64 = 0.15;
/// A captain no open contract needs.
pub(crate) const SPARE_CAPTAIN: f64 = 0.35;
/// A coin no open contract needs, up to `GOLD_CAP` of them.
pub(crate) const SPARE_COIN: f64 = 0.08;
pub(crate) const GOLD_CAP: u32 = 12;

/// What a player holds that contracts can take.
#[derive(Debug, Clone, Copy)]
struct Holdings {
    goods: [u8; 5],
    captains: u8,
    gold: u32,
}

impl NorthWind {
    /// Player `p`'s value in tokens (see the module's documentation).
    pub(crate) fn position_value(&self, s: &State, p: usize) -> f64 {
        let ship = &s.ships[p];
        self.placed(s, p) as f64
            + self.contract_value(s, ship)
            - ROOM * self.room_shortfall(s, ship) as f64
            + 0.3 * ship.crew_count() as f64
            + 0.15 * ship.cannons as f64
            + 0.2 * ship.sail as f64
            + 0.1 * ship.letters as f64
    }

    /// Credit for the open contracts plus the value of what they leave over, with the holdings
    /// shared out among the contracts in the best order (a unit counts for one contract only:
    /// wine and gold can serve two ports).
    fn contract_value(&self, s: &State, ship: &Ship) -> f64 {
        const ORDERS: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
        // What each open contract asks for, a bit per good, then captains and gold: the order
        // of two contracts that share nothing changes nothing.
        let mut asks = [0u8; 3];
        for (port, ask) in asks.iter_mut().enumerate() {
            if let Some(c) = self.data.contracts[port].get(s.done[port] as usize) {
                for g in 0..5 {
                    *ask |= ((c.goods[g] > 0) as u8) << g;
                }
                *ask |= ((c.captains > 0) as u8) << 5 | ((c.gold > 0) as u8) << 6;
            }
        }
        let all = Holdings { goods: ship.goods, captains: ship.captains, gold: ship.gold };
        let mut best = f64::NEG_INFINITY;
        for order in ORDERS {
            // Of the orders that differ only by such swaps, the first in ORDERS (the one with
            // no such pair out of port order) stands for all.
            if order.windows(2).any(|w| w[0] > w[1] && asks[w[0]] & asks[w[1]] == 0) {
                continue;
            }
            let mut left = all;
            let mut credit = 0.0;
            for port in order {
                let Some(c) = self.data.contracts[port].get(s.done[port] as usize) else { continue };
                let mut need = c.captains as f64 + COIN_SHARE * c.gold as f64;
                let mut have = 0.0;
                let captains = left.captains.min(c.captains);
                left.captains -= captains;
                have += captains as f64;
                let gold = left.gold.min(c.gold as u32);
                left.gold -= gold;
                have += COIN_SHARE * gold as f64;
                for g in 0..5 {
                    need += c.goods[g] as f64;
                    let n = left.goods[g].min(c.goods[g]);
                    left.goods[g] -= n;
                    have += n as f64;
                }
                if need > 0.0 {
                    credit += CONTRACT * have / need;
                }
            }
            let spare = SPARE_GOOD * left.goods.iter().map(|&n| n as f64).sum::<f64>()
                + SPARE_CAPTAIN * left.captains as f64
                + SPARE_COIN * left.gold.min(GOLD_CAP) as f64;
            best = best.max(credit + spare);
        }
        best
    }

    /// Goods the open contracts still need (at most the hold's limit of a kind) beyond the
    /// free slots of the hold.
    pub(crate) fn room_shortfall(&self, s: &State, ship: &Ship) -> u32 {
        let r = &self.data.rules;
        let mut missing = 0u32;
        for g in 0..5 {
            let mut need = 0u32;
            for port in 0..3 {
                if let Some(c) = self.data.contracts[port].get(s.done[port] as usize) {
                    need += c.goods[g] as u32;
                }
            }
            missing += need.min(r.max_per_kind as u32).saturating_sub(ship.goods[g] as u32);
        }
        let free = (r.hold_slots as u32).saturating_sub(ship.hold() as u32);
        missing.saturating_sub(free)
    }
}

impl Evaluate for NorthWind {
    /// North Wind's evaluation for search agents (`heuristic.rs`): tokens placed, plus credit
    /// for what brings tokens later (what the open contracts need, room in the hold for it,
    /// spare goods, captains and gold, crew, cannons, sail, letters); each player's value is
    /// tanh of the margin over the best opponent, three tokens wide.
    fn evaluate(&self, state: &State, out: &mut [f64]) {
        returns_or_margins(self, state, state.phase == Phase::GameOver, self.players, 3.0, out, |p| self.position_value(state, p));
    }
}
