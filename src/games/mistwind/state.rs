//! Mistwind's state: everything that changes during a game.
//!
//! The table has up to five positions, each a colour with its chips, board and pieces: the
//! seats first, then the automa players (AUT) of the 2-player game, which the game moves
//! through chance nodes. Turn order, chips on fields and stacks, the starting player marker
//! and the demand tiles collected are kept by table position; `Mistwind::order` is the
//! table's clockwise order. An automa player's `hand` is the deck it draws its chips from.

use serde::{Deserialize, Serialize};

use super::data::{CARGO_TYPES, REGIONS};

/// Table positions (colours).
pub const MAX_PLAYERS: usize = 5;
pub const NONE: u8 = u8::MAX;
pub const MAX_TERRITORY_ROW: usize = 8;
pub const MAX_WHALES: usize = 3;
pub const ROW: usize = 5;

/// Where the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Setup: the displays are filled and the network cards dealt (chance).
    Setup,
    /// Setup K: each player, clockwise from the starting player, places a whale.
    PlaceWhales,
    /// Phase A: each player discards chips in secret.
    Discard,
    /// Phase B: turns.
    Turns,
    /// Phase C step 2: each player may fulfil victory conditions.
    EndRoundClaims,
    /// After round 2: each player discards a network card.
    DiscardNetworkCard,
    GameOver,
}

/// Where a turn stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    /// 1. Play an action chip.
    Chip,
    /// A chip on port card `field`: build there or take resources.
    PortChoice(u8),
    /// A chip on worker field 1 or 5: the port to build in.
    WorkerBuild(u8),
    /// 2. Move whales.
    Move,
    /// 3. Load or unload.
    Cargo,
    /// The resource of a bottom territory demand space (`0` the bottom one).
    BottomChoice(u8),
    /// 4. Fulfil victory conditions.
    Claim,
    /// Resource board side B: the player to the left of the turn's player names a type; the
    /// turn's player then receives this many resources not of it.
    Name(u8),
    /// The turn's player receives resources one at a time: how many are left, and the type
    /// named (which they may not take).
    Receive(u8, u8),
    /// The turn's player takes one resource of their choice from the player to their left.
    FromLeft,
    /// The turn's player chooses the two types of resource field `i` ("three and two").
    Split(u8),
    /// The `k`-th other seat (clockwise from the turn's player) takes one resource of type
    /// `a` or `b`.
    Share(u8, u8, u8),
    /// Worker board side B: keep one of the characters drawn (`State::drawn`).
    Keep,
    /// Give this drawn character to another seat.
    Give(u8),
    /// The long whale move (`State::long`): move a field, load or unload once, or stop.
    LongMove,
    /// Pay resources (this many still) to other players for the field just moved beyond the
    /// free ones.
    PayField(u8),
    /// Choose a player to offer a trade to, or end the trades.
    Trade,
    /// Offer this player a trade: a resource to give and one to receive.
    Offer(u8),
    /// This player accepts or declines the trade: the resource offered and the one asked.
    Answer(u8, u8, u8),
    /// Pay a resource to another player to use an occupied field.
    PayToUse,
    /// Choose the occupied field of the resource or worker board to use.
    UseField,
}

/// Worker board side B's long whale move under way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LongMove {
    /// The whale moving (`NONE` before its first field).
    pub whale: u8,
    /// Fields moved so far.
    pub fields: u8,
    /// Whether the whale has loaded or unloaded on the way.
    pub cargo: bool,
    /// Ports the whale has been in on this move, its start included.
    pub visited: u32,
}

impl LongMove {
    pub const NONE: LongMove = LongMove { whale: NONE, fields: 0, cargo: false, visited: 0 };
}

/// What a chance node draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Draw {
    None,
    Achievement(u8),
    NetworkTile(u8),
    /// Region, display slot.
    Capital(u8, u8),
    /// Region, position (0 the bottom).
    Territory(u8, u8),
    /// Player, difficulty.
    NetworkCard(u8, u8),
    PortCard(u8),
    Character(u8),
    /// The automa player at this table position draws an action chip from its deck.
    Automa(u8),
    /// The automa player at this table position names a type of resource (at random).
    Name(u8),
    /// Worker board side B: a character drawn into `State::drawn` at this index.
    Drawn(u8),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Wood, steel, krill, coins.
    pub res: [u16; 4],
    /// Action chips in hand (bit `n - 1` for chip `n`).
    pub hand: u8,
    /// Chips discarded in Phase A this round (face down on the compass).
    pub discarded: u8,
    pub used_resource_board: bool,
    pub used_worker_board: bool,
    /// Ports with one of the player's outposts.
    pub outposts: u32,
    /// Each whale's port, `NONE` while it is in the supply.
    pub whales: [u8; MAX_WHALES],
    /// Each whale's cargo type, `NONE` when empty.
    pub cargo: [u8; MAX_WHALES],
    /// Character cards owned, and those turned face down (used).
    pub characters: u64,
    pub used: u64,
    /// Demand tiles collected per region.
    pub territory_tiles: [u8; REGIONS],
    pub capital_tiles: [u8; REGIONS],
    /// Achievement tiles taken (by letter).
    pub achievements: u8,
    /// Control marker on each region's network tile: 0 none, 1 upper field, 2 lower field.
    pub markers: [u8; REGIONS],
    /// Network cards in hand (secret), claimed (revealed) and discarded (face down).
    pub cards: u16,
    pub claimed: u16,
    pub card_discards: u16,
    /// Resource board side B: the income fields (bit per field) whose income this player
    /// receives for the rest of the round, having used them through worker board side B's
    /// field 5 (ruling 33).
    pub income_rights: u8,
}

impl Player {
    pub fn new() -> Player {
        Player {
            res: [0; 4],
            hand: 0,
            discarded: 0,
            used_resource_board: false,
            used_worker_board: false,
            outposts: 0,
            whales: [NONE; MAX_WHALES],
            cargo: [NONE; MAX_WHALES],
            characters: 0,
            used: 0,
            territory_tiles: [0; REGIONS],
            capital_tiles: [0; REGIONS],
            achievements: 0,
            markers: [0; REGIONS],
            cards: 0,
            claimed: 0,
            card_discards: 0,
            income_rights: 0,
        }
    }

    /// Ports with one of the player's outposts or whales.
    pub fn presence(&self) -> u32 {
        self.whales.iter().filter(|&&w| w != NONE).fold(self.outposts, |m, &w| m | 1 << w)
    }
}

impl Default for Player {
    fn default() -> Self {
        Player::new()
    }
}

/// The bit of [`State::income`] for the income of resource field `field` due to `position`.
pub const fn income_bit(field: usize, position: usize) -> u32 {
    1 << (MAX_PLAYERS * field + position)
}

/// The resource field and the position of the lowest income still due in `income`.
pub const fn next_income(income: u32) -> (usize, usize) {
    let b = income.trailing_zeros() as usize;
    (b / MAX_PLAYERS, b % MAX_PLAYERS)
}

/// The resource fields (bit per field) with an income still due in `income`.
pub fn income_fields(income: u32) -> u8 {
    (0..ROW).filter(|&f| income & (((1u32 << MAX_PLAYERS) - 1) << (MAX_PLAYERS * f)) != 0).fold(0, |m, f| m | 1 << f)
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub phase: Phase,
    pub step: Step,
    /// The pending chance draw (`Draw::None` when a player decides).
    pub draw: Draw,
    /// Round, from 0.
    pub round: u8,
    /// Who holds the starting player marker.
    pub start_player: u8,
    /// Who began this round's turns (the marker's holder when Phase B began).
    pub round_lead: u8,
    /// Whose decision it is.
    pub current: u8,
    /// Whose turn it is (Phase B). Another seat decides for it while a decision of theirs is
    /// pending (resource board side B: naming a type, income, taking a share).
    pub turn: u8,
    /// Resource board side B: the incomes still to receive for the chip just placed on the
    /// resource board, bit `MAX_PLAYERS * field + position` ([`income_bit`]): the lowest
    /// field first, and on a field the positions in table-index order (the chip's owner and
    /// whoever holds the field's income right through worker board side B's field 5).
    pub income: u32,
    /// Setup K and the rounds' per-player steps: how many players have acted.
    pub cursor: u8,
    pub players: [Player; MAX_PLAYERS],
    /// The owner of the chip on each resource and worker board field.
    pub resource_fields: [u8; ROW],
    pub worker_fields: [u8; ROW],
    /// The character row: a card id, or `NONE` once hired or before it is drawn; the chip on
    /// each field.
    pub character_row: [u8; ROW],
    pub character_chips: [u8; ROW],
    /// The port row: a card id; chips stacked on each field, and the top chip's owner.
    pub port_row: [u8; ROW],
    pub stack_height: [u8; ROW],
    pub stack_top: [u8; ROW],
    /// Cards still in the decks (their order is not kept: a draw is a chance outcome).
    pub character_deck: u64,
    pub port_deck: u32,
    pub network_deck: u16,
    /// The achievement tile of each letter, and who took it.
    pub achievements: [u8; 4],
    pub achievement_taken: [u8; 4],
    /// The network tile of each region, and who holds its upper field.
    pub network_tiles: [u8; REGIONS],
    pub upper: [u8; REGIONS],
    /// Capital demand tiles shown (cargo type or `NONE`) and the stacks left, by cargo.
    pub capital_display: [[u8; 2]; REGIONS],
    pub capital_stack: [[u8; CARGO_TYPES]; REGIONS],
    /// Territory demand rows (position 0 the bottom) and their stacks, by cargo.
    pub territory_display: [[u8; MAX_TERRITORY_ROW]; REGIONS],
    pub territory_stack: [[u8; CARGO_TYPES]; REGIONS],
    /// Cargo markers in the general supply.
    pub cargo_supply: [u8; CARGO_TYPES],
    /// Whales moved, and whales that loaded or unloaded, this turn (bit per whale).
    pub moved: u8,
    pub cargo_done: u8,
    /// Whale movement costs no krill this turn (worker field or a character).
    pub free_moves: bool,
    /// Worker board side B: the characters drawn and not yet kept or given (`NONE` when empty).
    pub drawn: [u8; 2],
    /// Worker board side B: the long whale move under way (`LongMove::NONE` when none).
    pub long: LongMove,
    /// Worker board side B: the positions asked to trade this turn, and the trades made.
    pub asked: u8,
    pub trades: u8,
    /// The rows are being refilled at the start of a round.
    pub refilling: bool,
    /// Phase C: per seat, the ports where this round's port bonuses built it an outpost
    /// (bit per port); a claim they made possible is one it cannot make without them (ruling 7).
    pub bonus_outposts: [u32; MAX_PLAYERS],
}
