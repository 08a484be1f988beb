//! Before the Wind's action ids: one fixed space of player actions. Chance outcomes are a
//! separate space: an action design id when a card is drawn, a ship design id when a ship
//! is laid out.

use crate::engine::Action;

use super::data::{MAX_HARBOUR, MAX_SPECIALS};
use super::state::MAX_PLAYERS;

/// Take a good of kind g (a starting good, a good of choice): `TAKE_GOOD + g`.
pub const TAKE_GOOD: Action = 0;
/// Draw the next Action card from deck d: `DRAW + d`.
pub const DRAW: Action = 4;
/// Take the card of display slot s: `TAKE_CARD + s`.
pub const TAKE_CARD: Action = 7;
/// Play the Safe and take the card of display slot s face down: `SAFE_TAKE + s`.
pub const SAFE_TAKE: Action = 11;
/// Choose the card player q has taken, opening an auction for it: `CHALLENGE + q`.
pub const CHALLENGE: Action = 15;
/// Pass in an auction.
pub const PASS: Action = 19;
/// Play the Safe instead of a bid.
pub const SAFE_BID: Action = 20;
/// The owner sells the card to bidder q for q's bid: `SELL_TO + q`.
pub const SELL_TO: Action = 21;
/// The owner pays bidder q's bid and keeps the card: `KEEP_PAYING + q`.
pub const KEEP_PAYING: Action = 25;
/// Play the Action card obtained this turn.
pub const USE_CARD: Action = 29;
/// Do not play the obtained card: a normal card goes unused, a special one is kept.
pub const SET_ASIDE: Action = 30;
/// Play the kept special card of special index k: `PLAY_KEPT + k`.
pub const PLAY_KEPT: Action = 31;
/// Play no (further) kept special card this turn.
pub const FINISH: Action = PLAY_KEPT + MAX_SPECIALS as Action;
/// Place a good of kind g from the hand into the warehouse: `STORE + g`.
pub const STORE: Action = FINISH + 1;
/// Stop storing, loading, exchanging, selling or preserving.
pub const DONE: Action = STORE + 4;
/// Take the profit of a Load Goods onto Ship/Profit card.
pub const PROFIT: Action = DONE + 1;
/// Load the ship of harbour slot s: `LOAD + s`.
pub const LOAD: Action = PROFIT + 1;
/// Sell a good of kind g from the hand (`SELL_HAND + g`) or from the warehouse (`SELL_WAREHOUSE + g`).
pub const SELL_HAND: Action = LOAD + MAX_HARBOUR as Action;
pub const SELL_WAREHOUSE: Action = SELL_HAND + 4;
/// Exchange a good of kind g in one's warehouse for a good of kind h from source w (0: one's
/// hand; k in 1..=3: the warehouse of the k-th player to one's left):
/// `EXCHANGE + (g * 4 + w) * 4 + h`.
pub const EXCHANGE: Action = SELL_WAREHOUSE + 4;
/// The fleet leaves: x of one's cheeses spoil (and the rest of the spoiling share in spices):
/// `SPOIL_CHEESE + x`.
pub const SPOIL_CHEESE: Action = EXCHANGE + 64;
/// Preserve a spoiling good of kind g in the warehouse (`PRESERVE_WAREHOUSE + g`) or in the
/// hand (`PRESERVE_HAND + g`).
pub const PRESERVE_WAREHOUSE: Action = SPOIL_CHEESE + 21;
pub const PRESERVE_HAND: Action = PRESERVE_WAREHOUSE + 4;
/// Bid k guilders (1..=MAX_BID) more than the bidder has announced with BID_MORE (usually
/// nothing): `BID + k - 1`.
pub const BID: Action = PRESERVE_HAND + 4;
/// The most one bid action adds (ruling 7): the sum of the box's guilder cards (24x 1,
/// 12x 2, 12x 5, 12x 10).
pub const MAX_BID: u32 = 228;
/// Announce a bid above MAX_BID more than announced so far, for a purse beyond it (ruling 7:
/// a bid is bounded by the bidder's purse alone); the bid is then made with BID.
pub const BID_MORE: Action = BID + MAX_BID;
pub const NUM_ACTIONS: usize = (BID_MORE + 1) as usize;

/// The exchange action of `g` (own warehouse) for `h` from source `w`.
pub fn exchange(g: usize, w: usize, h: usize) -> Action {
    EXCHANGE + ((g * MAX_PLAYERS + w) * 4 + h) as Action
}

/// The parts `(g, w, h)` of an exchange action.
pub fn exchange_parts(a: Action) -> (usize, usize, usize) {
    let i = (a - EXCHANGE) as usize;
    (i / 16, (i / 4) % 4, i % 4)
}
