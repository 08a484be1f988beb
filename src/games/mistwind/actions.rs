//! Mistwind's action ids. Player actions form one fixed space; chance outcomes are a separate
//! space (a card or tile id, or a cargo type for a demand tile).

use crate::engine::Action;

use super::data::MAX_PORTS;
use super::state::{MAX_PLAYERS, MAX_TERRITORY_ROW, MAX_WHALES, ROW};

/// Phase A: discard chip `n` (`DISCARD_CHIP + n - 1`).
pub const DISCARD_CHIP: Action = 0;
/// Setup K: place the first whale in port `p`.
pub const PLACE_WHALE: Action = DISCARD_CHIP + ROW as Action;
/// Play the chip of field `i` on location `l` (0 resource board, 1 character row, 2 worker
/// board, 3 port row): `PLAY + 5 * l + i`.
pub const PLAY: Action = PLACE_WHALE + MAX_PORTS as Action;
pub const LOCATIONS: [&str; 4] = ["resources", "character", "worker", "port"];
pub const RESOURCE_BOARD: u8 = 0;
pub const CHARACTER_ROW: u8 = 1;
pub const WORKER_BOARD: u8 = 2;
pub const PORT_ROW: u8 = 3;
/// On a port card: build an outpost, or a whale, in its port.
pub const BUILD_OUTPOST: Action = PLAY + 4 * ROW as Action;
pub const BUILD_WHALE: Action = BUILD_OUTPOST + 1;
/// On a port card: take resource `r` as many times as chips lie on the field.
pub const TAKE: Action = BUILD_WHALE + 1;
/// On the worker board's building fields: build in port `p`.
pub const BUILD_AT: Action = TAKE + 4;
/// Move whale `w` to port `p`: `MOVE + w * MAX_PORTS + p`.
pub const MOVE: Action = BUILD_AT + MAX_PORTS as Action;
pub const END_MOVES: Action = MOVE + (MAX_WHALES * MAX_PORTS) as Action;
/// Load whale `w` at its port.
pub const LOAD: Action = END_MOVES + 1;
/// Deliver whale `w`'s cargo for the territory demand tile at position `i`:
/// `DELIVER_TERRITORY + w * MAX_TERRITORY_ROW + i`.
pub const DELIVER_TERRITORY: Action = LOAD + MAX_WHALES as Action;
/// Deliver whale `w`'s cargo for capital demand tile `k`: `DELIVER_CAPITAL + 2 * w + k`.
pub const DELIVER_CAPITAL: Action = DELIVER_TERRITORY + (MAX_WHALES * MAX_TERRITORY_ROW) as Action;
pub const END_CARGO: Action = DELIVER_CAPITAL + 2 * MAX_WHALES as Action;
/// The resource of a bottom territory demand space.
pub const CHOOSE: Action = END_CARGO + 1;
/// Use one-time character `c`.
pub const USE: Action = CHOOSE + 4;
/// Reveal network card `c` (its whole network).
pub const REVEAL_CARD: Action = USE + super::data::MAX_CHARACTERS as Action;
/// A control marker on region `r`'s network tile: `CONTROL + 2 * r + (0 upper, 1 lower)`.
pub const CONTROL: Action = REVEAL_CARD + super::data::MAX_NETWORK_CARDS as Action;
/// Take the achievement tile of letter `l`.
pub const ACHIEVE: Action = CONTROL + 8;
/// End the turn (Phase B) or the claims (Phase C).
pub const END_TURN: Action = ACHIEVE + 4;
/// After round 2: discard network card `c`.
pub const DISCARD_CARD: Action = END_TURN + 1;
/// Resource board side B: name resource type `r` for the player to one's right.
pub const NAME: Action = DISCARD_CARD + super::data::MAX_NETWORK_CARDS as Action;
/// Receive one resource of type `r` (the resources one at a time of a named field, an
/// income, a share of another player's chosen types).
pub const GAIN: Action = NAME + 4;
/// Take one resource of type `r` from the player to one's left.
pub const FROM_LEFT: Action = GAIN + 4;
/// "Three and two": the first amount of type `a`, the second of type `b`: `SPLIT + 4 * a + b`.
pub const SPLIT: Action = FROM_LEFT + 4;
/// Worker board side B: keep drawn character `c`.
pub const KEEP: Action = SPLIT + 16;
/// Give the other drawn character to the seat at table position `q`.
pub const GIVE: Action = KEEP + super::data::MAX_CHARACTERS as Action;
/// Pay one resource of type `r` to table position `q`: `PAY + 5 * r + q`.
pub const PAY: Action = GIVE + MAX_PLAYERS as Action;
/// Offer a trade to table position `q`.
pub const PARTNER: Action = PAY + 4 * MAX_PLAYERS as Action;
/// The trade offered: give one of type `g` for one of type `w`: `OFFER + 4 * g + w`.
pub const OFFER: Action = PARTNER + MAX_PLAYERS as Action;
pub const ACCEPT: Action = OFFER + 16;
pub const DECLINE: Action = ACCEPT + 1;
pub const END_TRADES: Action = DECLINE + 1;
/// Use the occupied field `i` of board `b` (0 the resource board, 1 the worker board):
/// `USE_FIELD + 5 * b + i`.
pub const USE_FIELD: Action = END_TRADES + 1;
pub const NUM_ACTIONS: usize = USE_FIELD as usize + 2 * ROW;
