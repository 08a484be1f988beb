//! Before the Wind's state: everything that changes during a game, in fixed-size arrays
//! (cloning never allocates). The action decks and ship decks are kept as counts of each
//! design: their order is unknown to every player, so each draw is a chance outcome over
//! what the deck holds (ruling 1).

use serde::{Deserialize, Serialize};

use super::data::{MAX_DESIGNS, MAX_HARBOUR, MAX_SHIP_DESIGNS, MAX_SPECIALS};

pub const MAX_PLAYERS: usize = 4;
pub const NONE: u8 = u8::MAX;

/// Cards of each design in a deck or discard pile: a fixed array (cloning never allocates),
/// saved as a list of numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts<const N: usize>(pub [u8; N]);

impl<const N: usize> Default for Counts<N> {
    fn default() -> Self {
        Counts([0; N])
    }
}

impl<const N: usize> Counts<N> {
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&c| c as u32).sum()
    }

    /// The count of the kinds among the first `kinds` that `pick` picks.
    pub fn total_of(&self, kinds: usize, pick: impl Fn(usize) -> bool) -> u32 {
        (0..kinds).filter(|&i| pick(i)).map(|i| self.0[i] as u32).sum()
    }
}

impl<const N: usize> std::ops::Index<usize> for Counts<N> {
    type Output = u8;
    fn index(&self, i: usize) -> &u8 {
        &self.0[i]
    }
}

impl<const N: usize> std::ops::IndexMut<usize> for Counts<N> {
    fn index_mut(&mut self, i: usize) -> &mut u8 {
        &mut self.0[i]
    }
}

impl<const N: usize> Serialize for Counts<N> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.0.as_slice().serialize(s)
    }
}

impl<'de, const N: usize> Deserialize<'de> for Counts<N> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let v: Vec<u8> = Vec::deserialize(d)?;
        let a: [u8; N] = v
            .try_into()
            .map_err(|v: Vec<u8>| serde::de::Error::invalid_length(v.len(), &format!("a list of {N} counts").as_str()))?;
        Ok(Counts(a))
    }
}

/// Where a player stands in the auction phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Standing {
    /// Has neither an Action card nor guilders in front of him: he still chooses.
    #[default]
    Nothing,
    /// Has taken a card face up: others may bid for it.
    FaceUp,
    /// Has paid for (or protected with the Safe) a card, face down: out of the auction.
    FaceDown,
    /// Has received guilders for a bid: out of the auction.
    Guilders,
}

/// A player's warehouse, hand and cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Guilders (the bank is unlimited: nothing bounds them but the length of the game).
    pub money: u32,
    /// Goods cards in the hand, by kind (apples, cheese, spices, silk).
    pub hand: [u8; 4],
    /// Goods in the warehouse, by kind.
    pub warehouse: [u8; 4],
    /// Victory points of the ships loaded.
    pub vp: u32,
    /// Ships loaded.
    pub ships: u8,
    /// Special action cards kept in the hand, by special index.
    pub kept: [u8; MAX_SPECIALS],
    /// Preservation cards placed next to the warehouse, by special index.
    pub placed: [u8; MAX_SPECIALS],
    /// This turn: where the player stands in the auction.
    pub standing: Standing,
    /// This turn: the Action card in front of the player (a design id), or NONE.
    pub card: u8,
    /// This turn: the bid made in the auction under way (0: none).
    pub bid: u32,
    /// This turn: played the Safe in the auction phase.
    pub safe_used: bool,
}

impl Default for Player {
    fn default() -> Self {
        Player {
            money: 0,
            hand: [0; 4],
            warehouse: [0; 4],
            vp: 0,
            ships: 0,
            kept: [0; MAX_SPECIALS],
            placed: [0; MAX_SPECIALS],
            standing: Standing::Nothing,
            card: NONE,
            bid: 0,
            safe_used: false,
        }
    }
}

impl Player {
    pub fn stored(&self) -> u8 {
        self.warehouse.iter().sum()
    }
    pub fn held(&self) -> u8 {
        self.hand.iter().sum()
    }
}

/// Where the game stands: whose decision or which chance event comes next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Chance: the next ship is laid out in the harbour (`deal` says how many of each size remain).
    Ships,
    /// `cursor` takes a starting good of his choice.
    StartGoods,
    /// The active player chooses the deck of the next Action card.
    ChooseDeck,
    /// Chance: the next Action card is drawn from `deck`.
    Draw,
    /// `cursor` chooses an Action card (from the display, or another player's with a bid).
    Choose,
    /// `cursor` bids in the auction for `owner`'s card (`challenger` opened it).
    Bid,
    /// `owner` chooses one of the bids: sells or keeps.
    Resolve,
    /// `cursor` plays his Action card and his kept special cards.
    Play,
    /// `cursor` places goods from his hand into his warehouse (`left` more at most).
    Store,
    /// `cursor` loads goods onto further ships or stops.
    Load,
    /// `cursor` takes goods of his choice from the stacks (`left` more; into the warehouse
    /// when `to_warehouse`).
    TakeGoods,
    /// `cursor` exchanges goods of his warehouse (`left` more at most).
    Exchange,
    /// `cursor` sells goods.
    Sell,
    /// The fleet leaves: `cursor` chooses which cheeses and spices spoil.
    Spoil,
    /// The fleet leaves: `cursor` preserves spoiling goods.
    Preserve,
    GameOver,
}

/// The card being played: the turn's Action card or a kept special.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Source {
    /// The Action card obtained in this turn's auction.
    Obtained,
    /// A special card kept from an earlier turn.
    Kept,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub phase: Phase,
    pub players: u8,
    /// The player with the active player marker.
    pub active: u8,
    /// Turns started so far (for the turn bound).
    pub turn: u32,
    /// The player who decides in the current phase.
    pub cursor: u8,
    pub seats: [Player; MAX_PLAYERS],
    /// Goods left in the stacks, by kind.
    pub stacks: [u8; 4],
    /// Action cards in each design's deck, and in its discard pile.
    pub deck: Counts<MAX_DESIGNS>,
    pub discard: Counts<MAX_DESIGNS>,
    /// Ship cards in the decks and discard piles, by ship design.
    pub ship_deck: Counts<MAX_SHIP_DESIGNS>,
    pub ship_discard: Counts<MAX_SHIP_DESIGNS>,
    /// The ships in the harbour (ship designs), NONE where a slot is empty.
    pub harbour: [u8; MAX_HARBOUR],
    /// Ships still to lay out: `[large, small]`.
    pub deal: [u8; 2],
    /// Cards drawn this turn from each deck.
    pub drawn: [u8; 3],
    /// The deck the next card is drawn from (in phase Draw).
    pub draw_deck: u8,
    /// Action cards laid out this turn and not yet taken (design ids), NONE for none.
    pub display: [u8; MAX_PLAYERS],
    /// The auction under way: whose card it is and who opened it.
    pub owner: u8,
    pub challenger: u8,
    /// The playing phase: the obtained card is used or set aside; a kept special was played.
    pub card_done: bool,
    pub kept_played: bool,
    /// The playing phase: `cursor` kept the special card he obtained this turn, which he may
    /// play as a kept card only from his next turn on.
    pub kept_now: bool,
    /// The card being played (design id) and where it came from.
    pub playing: u8,
    pub source: Source,
    /// Goods still to store, take or exchange in the current step.
    pub left: u8,
    /// TakeGoods: into the warehouse (Receive and Store) rather than the hand.
    pub to_warehouse: bool,
    /// Store: the cost was paid (a good was stored).
    pub paid: bool,
    /// Spoil/Preserve: warehouse goods about to spoil, and hand goods preserved so far.
    pub spoiling: [u8; 4],
    pub preserved_hand: [u8; 4],
    /// Preservation still available to `cursor`.
    pub preserve_left: u8,
    /// Players who have made their spoilage choices at this departure.
    pub spoil_done: u8,
    pub winners: u8,
    pub truncated: bool,
}
