//! Nauticus's evaluation for the search agents (`greedy` scores each move's resulting
//! position with it; `mcts` scores the positions where its playouts stop): a player's final
//! score as it would stand now, plus credit for what leads to points later.
//!
//! Points already certain count in full: the victory point track, delivered goods, completed
//! ships. The penalty of the pass tiles still unturned this round counts in the share of the
//! round's remaining action phases that turning them would take (in full once none is to
//! spare). Remaining material counts its Taler (1 point per 3). The player who is carrying
//! out an action earns `BLUE` for each blue worker still usable (they are lost when the
//! action is finished), a tile waiting for its place is worth what its best place makes of
//! it, and rewards still to choose `REWARD` each. On top of that, scaled by how much of the
//! game is left (`ahead`, from 1 down to 0 over the last `HORIZON` action phases, so that at
//! the end only the true score is left):
//!
//! - each tile on an unfinished ship earns a share of what the finished ship brings (its
//!   points and a reward per mast), the ship's planned size being its hull tiles plus the ends
//!   it still lacks, growing faster than its tiles (`PROGRESS_POWER`); a longer ship is worth
//!   more per tile, and completing a ship jumps to its full value, rewards included;
//! - a good under a hull tile earns a share of what delivering it adds to its set, a larger
//!   share on a complete, fully loaded ship (less than delivering it);
//! - a tile in the warehouse (or just bought, or owed as the gift) earns a little when one of
//!   the player's ships or a new ship can take it, less when none can;
//! - each crown is worth a share of a future crown scoring;
//! - the unused extra-action tile is worth `EXTRA`;
//! - Taler and workers earn a little beyond their conversion value, up to a cap (more of
//!   them does not buy more actions in one round).
//!
//! The measure is tanh of the margin over the best other player, `SCALE` points wide. No
//! allocation: everything is kept in fixed arrays.

use crate::engine::outcome::tanh_margins;
use crate::engine::prelude::*;

use super::data::{Category, CROWN_MAST, CROWN_SAIL, GOOD, KINDS};
use super::state::{Ship, State, Step, MAIN_ACTING, MAX_PLAYERS, NONE};
use super::Nauticus;

/// Action phases before the end over which future credit fades out.
pub(crate) const HORIZON: f64 = 5.0;
/// A reward's worth in points (3 points, 7 Taler, 3 workers, a crown tile, two goods).
pub(crate) const REWARD: f64 = 3.0;
/// Share of a finished ship's value that its tiles on an unfinished ship earn.
pub(crate) const SHIP_SHARE: f64 = 0.85;
/// Share of a good's delivery value while it waits under a hull tile, on a ship that can
/// deliver, or in the warehouse.
pub(crate) const CARGO_SHARE: f64 = 0.45;
pub(crate) const LOADED_SHARE: f64 = 0.8;
pub(crate) const STORED_GOOD_SHARE: f64 = 0.3;
/// How much faster than its tiles an unfinished ship's credit grows.
pub(crate) const PROGRESS_POWER: f64 = 1.5;
/// A stored tile that a ship (or a new ship) can take, and one that none can.
pub(crate) const USEFUL_TILE: f64 = 0.5;
pub(crate) const IDLE_TILE: f64 = 0.25;
/// A crown's share of a future crown scoring.
pub(crate) const CROWN: f64 = 0.6;
/// Extra credit of a Taler and of a worker, up to their caps.
pub(crate) const TALER: f64 = 0.15;
pub(crate) const TALER_CAP: u32 = 12;
pub(crate) const WORKER: f64 = 0.45;
pub(crate) const WORKER_CAP: u32 = 8;
/// A blue worker still usable in the action being carried out.
pub(crate) const BLUE: f64 = 1.0;
/// The unused extra-action tile (2 workers and an action of choice).
pub(crate) const EXTRA: f64 = 4.0;
/// Points for a margin of about tanh(1).
pub(crate) const SCALE: f64 = 8.0;

impl Nauticus {
    /// Each seat's value in points (see the module's documentation), written to `out`.
    pub(crate) fn position_values(&self, s: &State, out: &mut [f64; MAX_PLAYERS]) {
        let r = &self.data.rules;
        let per_point = r.taler_per_point as f64;
        let total_phases = self.rounds as f64 * r.phases_per_round as f64;
        let done = s.round as f64 * r.phases_per_round as f64 + s.phases as f64;
        let ahead = ((total_phases - done) / HORIZON).clamp(0.0, 1.0);

        // What each seat's ships take, a bit per kind, and their value.
        let mut takes = [0u32; MAX_PLAYERS];
        let mut value = [0.0f64; MAX_PLAYERS];
        let mut material = [0u32; MAX_PLAYERS];
        let mut crowns = [0u32; MAX_PLAYERS];
        for sh in &s.ships[..s.num_ships as usize] {
            let p = sh.owner as usize;
            for k in 0..KINDS as u8 {
                if sh.accepts(k) {
                    takes[p] |= 1 << k;
                }
            }
            crowns[p] += (sh.crown_masts + sh.crown_sails) as u32;
            if !sh.complete() {
                material[p] += sh.material();
            }
            material[p] += sh.cargo() as u32;
            value[p] += self.ship_value(sh, &s.players[p].delivered, ahead);
        }

        for p in 0..self.players {
            let pl = &s.players[p];
            let mut v = pl.points as f64;
            // The penalty of the unturned pass tiles, in the share of the round's remaining
            // action phases they would take to turn (all of it once there is no time to spare).
            let unturned = 3 - pl.passes.min(3) as u32;
            let phases_left = (r.phases_per_round as u32).saturating_sub(s.phases as u32).max(1);
            let certainty = (unturned as f64 / phases_left as f64).min(1.0);
            v -= certainty * self.data.pass_penalties[pl.passes as usize..].iter().sum::<u32>() as f64;
            if pl.extra {
                v += ahead * EXTRA;
            }
            v += pl.delivered.iter().map(|&n| self.data.set_value(n as u32) as f64).sum::<f64>();
            // Warehouse tiles: material, and credit by use.
            let stored = pl.warehouse;
            let mut taler = pl.taler + pl.workers + material[p];
            let mut rewards_left = 0.0;
            if s.step != Step::Deal && s.turn.actor as usize == p {
                if s.turn.pending != NONE {
                    // A tile waiting for its place: what its best place makes of it.
                    let k = s.turn.pending;
                    taler += 1;
                    let mut best = self.stored_value(k, pl.delivered, takes[p], 1) * ahead;
                    if Category::of(k) == Category::Hull {
                        best = best.max(self.ship_value(&Ship::begun_with(p as u8, k), &pl.delivered, ahead));
                    }
                    for sh in s.ships[..s.num_ships as usize].iter().filter(|sh| sh.owner as usize == p && sh.accepts(k)) {
                        let mut after = *sh;
                        after.add(k);
                        let rewards = if after.complete() { REWARD * after.parts() as f64 } else { 0.0 };
                        let gain = self.ship_value(&after, &pl.delivered, ahead) - self.ship_value(sh, &pl.delivered, ahead);
                        best = best.max(gain + rewards);
                    }
                    v += best;
                }
                if s.turn.main == MAIN_ACTING && !s.turn.extra {
                    v += BLUE * s.turn.blue as f64;
                }
                if s.turn.gift_due {
                    v += ahead * USEFUL_TILE;
                }
                if matches!(s.step, Step::Reward | Step::RewardGood) {
                    rewards_left = s.turn.rewards_left as f64 * REWARD;
                    if s.step == Step::RewardGood {
                        rewards_left += s.turn.reward_goods_left as f64 * REWARD / self.data.rewards.goods.max(1) as f64;
                    }
                }
            }
            v += rewards_left;
            for (k, &n) in stored.iter().enumerate() {
                if n == 0 {
                    continue;
                }
                taler += n as u32;
                v += ahead * self.stored_value(k as u8, pl.delivered, takes[p], n as u32);
            }
            crowns[p] += stored[CROWN_MAST as usize] as u32 + stored[CROWN_SAIL as usize] as u32;
            v += ahead * CROWN * crowns[p] as f64;
            v += (taler / r.taler_per_point) as f64 + (taler % r.taler_per_point) as f64 / per_point * 0.5;
            v += ahead * (TALER * pl.taler.min(TALER_CAP) as f64 + WORKER * pl.workers.min(WORKER_CAP) as f64);
            out[p] = v + value[p];
        }
    }

    /// Credit beyond its material value for a ship: the points of a complete one; for an
    /// unfinished one a share of what it brings when finished, growing faster than its tiles
    /// (a ship near completion is worth more than two half-built ones); for its goods a share of
    /// what delivering them adds to their sets.
    fn ship_value(&self, sh: &Ship, delivered: &[u8; 4], ahead: f64) -> f64 {
        let mut v = if sh.complete() {
            self.data.ship_points[sh.parts() as usize - 1] as f64
        } else {
            let size = if sh.single { 1 } else { sh.parts() + !sh.bow as u8 + !sh.stern as u8 }.min(4) as usize;
            let finished = self.data.ship_points[size - 1] as f64 + REWARD * size as f64;
            let progress = sh.material() as f64 / (3 * size) as f64;
            ahead * SHIP_SHARE * finished * progress.powf(PROGRESS_POWER)
        };
        let share = if sh.loaded() { LOADED_SHARE } else { CARGO_SHARE };
        for (g, &n) in sh.goods.iter().enumerate() {
            for i in 0..n as u32 {
                v += ahead * share * self.next_good(delivered[g] as u32 + i);
            }
        }
        v
    }

    /// Credit beyond its material value for `n` stored tiles of `kind` (before `ahead`), for a
    /// seat whose ships take the kinds in `takes`.
    fn stored_value(&self, kind: u8, delivered: [u8; 4], takes: u32, n: u32) -> f64 {
        if kind >= GOOD {
            let d = delivered[(kind - GOOD) as usize] as u32;
            (0..n).map(|i| STORED_GOOD_SHARE * self.next_good(d + i)).sum()
        } else if Category::of(kind) == Category::Hull || takes & (1 << kind) != 0 {
            n as f64 * USEFUL_TILE
        } else {
            n as f64 * IDLE_TILE
        }
    }

    /// What delivering one more good of a kind adds to a set of `n` delivered.
    fn next_good(&self, n: u32) -> f64 {
        (self.data.set_value(n + 1) - self.data.set_value(n)) as f64
    }
}

impl Evaluate for Nauticus {
    /// tanh of the margin over the best other seat, `SCALE` points wide, of each seat's value
    /// in points: its score as it stands now and credit for what leads to points later,
    /// computed without allocating.
    fn evaluate(&self, state: &State, out: &mut [f64]) {
        if state.step == Step::GameOver {
            self.returns(state, out);
            return;
        }
        let mut values = [0.0f64; MAX_PLAYERS];
        self.position_values(state, &mut values);
        tanh_margins(&values[..self.players], SCALE, out);
    }
}
