//! Nauticus's action ids: one fixed space of 211 small decisions. A composite choice
//! (what to buy, where each part goes, which rewards) is a sequence of them: one use of an
//! action at a time (buy one tile, transport one tile, withdraw for one worker, deliver one
//! ship, score the crowns for one worker), then where the tile goes. Chance outcomes are a
//! separate space: the action tile (0..8) laid on the next action space.

use crate::engine::Action;

use super::data::{KINDS, MAX_SHIPS};

/// Choose the action tile `t` (0..8) as start player: `CHOOSE + t`.
pub const CHOOSE: Action = 0;
/// Choose a tile of kind `k` (bonus tile, gift, a good of the goods reward): `PICK + k`.
pub const PICK: Action = 8;
/// Buy one tile of kind `k`: `BUY + k`.
pub const BUY: Action = PICK + KINDS as Action;
/// Transport one tile of kind `k` from the warehouse: `TAKE + k`.
pub const TAKE: Action = BUY + KINDS as Action;
/// Put the tile into the warehouse.
pub const TO_WAREHOUSE: Action = TAKE + KINDS as Action;
/// Begin a new ship with the hull tile.
pub const NEW_SHIP: Action = TO_WAREHOUSE + 1;
/// Put the tile on the player's `k`-th ship: `TO_SHIP + k`.
pub const TO_SHIP: Action = NEW_SHIP + 1;
/// Withdraw money with one worker.
pub const WITHDRAW_ONE: Action = TO_SHIP + MAX_SHIPS as Action;
/// Score the crowns with one worker.
pub const SCORE_ONE: Action = WITHDRAW_ONE + 1;
/// Deliver the whole cargo of the player's `k`-th ship: `DELIVER + k`.
pub const DELIVER_SHIP: Action = SCORE_ONE + 1;
/// Take reward `r` (0..6) for the completed ship: `REWARD + r`.
pub const REWARD: Action = DELIVER_SHIP + MAX_SHIPS as Action;
/// Pass on the chosen action (turning a pass tile).
pub const PASS: Action = REWARD + 6;
/// Stop carrying out the action (the chosen one or the extra action) after at least one use.
pub const FINISH: Action = PASS + 1;
/// End the turn without using the extra action.
pub const END_TURN: Action = FINISH + 1;
/// Use the extra-action tile for action `t`: `EXTRA + t`.
pub const EXTRA: Action = END_TURN + 1;
pub const NUM_ACTIONS: usize = (EXTRA + 8) as usize;
