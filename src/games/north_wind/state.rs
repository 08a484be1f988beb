//! North Wind's state: everything that changes during a game, in fixed-size arrays
//! (cloning never allocates).

use serde::{Deserialize, Serialize};

use super::data::{MAX_CONTRACTS, MAX_MULTI_TYPES, RUN_LEN};

pub const MAX_PLAYERS: usize = 4;
/// Knowledge views: one per seat plus the public view (what every player saw).
pub const VIEWS: usize = MAX_PLAYERS + 1;
pub const PUBLIC: usize = MAX_PLAYERS;
pub const NONE: u8 = u8::MAX;

/// A player's ship and personal supply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Ship {
    /// Gold (32 bits: with an unlimited bank nothing bounds it but the length of the game).
    pub gold: u32,
    /// Goods in the hold, by kind (grain, fish, salt, wood, wine).
    pub goods: [u8; 5],
    /// Pirate captains in the prison.
    pub captains: u8,
    pub letters: u8,
    pub cannons: u8,
    pub sail: u8,
    /// Filled advantage slots, a bit per slot (boatswain, bookkeeper, gunner, treasurer, lookout).
    pub crew: u8,
    /// Victory point token on the "supply all destination ports" bonus space.
    pub supply_bonus: bool,
    /// Victory point token on the "full crew strength" bonus space.
    pub crew_bonus: bool,
}

impl Ship {
    pub fn hold(&self) -> u8 {
        self.goods.iter().sum()
    }
    pub fn has(&self, slot: u8) -> bool {
        self.crew & (1 << slot) != 0
    }
    pub fn crew_count(&self) -> u8 {
        self.crew.count_ones() as u8
    }
}

/// Where the game stands: whose decision or which chance event comes next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Setup (chance): the next sea card is dealt face down to one of the stacks.
    Deal,
    /// The active player chooses the stack to sail into.
    ChooseStack,
    /// Chance: the lookout looks at the top card of the chosen stack.
    Peek,
    /// The active player keeps the looked-at card on top or slides it under the stack.
    PeekDecision,
    /// Chance: the next sea card is revealed.
    Reveal,
    /// Chance: the event die is rolled for a fog card.
    Event,
    /// The active player pays the pirates or fights.
    Pirate,
    /// Chance: one roll of the combat die (one per cannon).
    Combat,
    /// The active player uses the revealed action card or passes.
    Card,
    /// `voyage.decider` may use the trade card with a trade letter, or pass.
    Letter,
    /// `voyage.decider` (with a boatswain) makes a second merchant transaction or is done.
    Boatswain,
    GameOver,
}

impl Phase {
    /// Phases during which a voyage is under way.
    pub fn in_voyage(self) -> bool {
        !matches!(self, Phase::Deal | Phase::ChooseStack | Phase::GameOver)
    }
}

/// The trading voyage under way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Voyage {
    pub stack: u8,
    /// Cards taken from the stack this voyage: revealed ones, the looked-at one, the slid one.
    pub drawn: u32,
    /// Revealed cards in order (these count against the range).
    pub order: [u8; 8],
    pub revealed: u8,
    /// The card the lookout is looking at (awaiting keep or slide), or NONE.
    pub peeked: u8,
    /// The card the lookout slid under the stack, or NONE.
    pub slid: u8,
    /// The revealed card being resolved, or NONE.
    pub current: u8,
    /// Actions carried out so far.
    pub actions: u8,
    /// Revealed cards that were used (turned 45 degrees), a bit per position in `order`.
    pub used: u8,
    /// Strength of the pirate ship being met.
    pub pirates: u8,
    pub rolls_left: u8,
    pub hits: u8,
    /// The player deciding in the Letter and Boatswain phases.
    pub decider: u8,
    /// Merchant transactions made in the current use of the card.
    pub trades: u8,
    /// The first merchant transaction of the current use (an action id), for the boatswain rules.
    pub first_trade: u8,
    /// Whether the current use of the card has sold goods (the bookkeeper pays once per use).
    pub sold: bool,
    /// Goods the decider has thrown overboard to make room for the purchase under way (ruling
    /// 7): while it is not 0, he must complete that purchase.
    pub jettisoned: u8,
}

impl Default for Voyage {
    fn default() -> Self {
        Voyage {
            stack: NONE,
            drawn: 0,
            order: [NONE; 8],
            revealed: 0,
            peeked: NONE,
            slid: NONE,
            current: NONE,
            actions: 0,
            used: 0,
            pirates: 0,
            rolls_left: 0,
            hits: 0,
            decider: NONE,
            trades: 0,
            first_trade: NONE,
            sold: false,
            jettisoned: 0,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub phase: Phase,
    pub players: u8,
    /// The player whose turn it is.
    pub active: u8,
    /// Turns started so far (for the turn bound).
    pub turn: u32,
    /// Setup: how many cards have been dealt.
    pub deal_next: u8,
    /// The cards of each stack (a bit per card id); stacks keep their cards all game.
    pub stack_cards: [u32; 3],
    pub ships: [Ship; MAX_PLAYERS],
    pub supply_goods: [u8; 5],
    /// The bank with `gold="limited"`: the gold of the box's coins that no player holds. With
    /// the default unlimited bank it is not used and stays 0.
    pub supply_gold: u32,
    pub supply_captains: u8,
    pub supply_letters: u8,
    /// Contracts fulfilled per destination port.
    pub done: [u8; 3],
    /// Who fulfilled each contract (NONE while open).
    pub fulfilled: [[u8; MAX_CONTRACTS]; 3],
    /// Tokens of each player in each contract column.
    pub column: [[u8; MAX_PLAYERS]; 3],
    /// Holder of each port's majority bonus space, or NONE.
    pub majority: [u8; 3],
    pub winner: u8,
    pub truncated: bool,
    pub voyage: Voyage,
    /// `seen[view][stack]`: card types the view has seen in that stack (a bit per type).
    pub seen: [[u32; 3]; VIEWS],
    /// `runs[view][stack][multi-type][j]`: voyages in which the view saw exactly j cards of that
    /// multi-copy type from that stack (the sufficient statistic for resampling).
    pub runs: [[[[u16; RUN_LEN]; MAX_MULTI_TYPES]; 3]; VIEWS],
}
