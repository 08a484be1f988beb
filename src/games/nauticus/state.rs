//! Nauticus's state: everything that changes during a game, in fixed-size arrays (cloning
//! never allocates). Everything in it is open information: the rulebook keeps every
//! player's material "visible on the table", and the only chance, the shuffle of the action
//! tiles, is laid out face up.

use serde::{Deserialize, Serialize};

use super::data::{Category, BOW, CROWN_MAST, CROWN_SAIL, GOOD, KINDS, MAST, MAX_SHIPS, SAIL, SINGLE, STERN};

pub const MAX_PLAYERS: usize = 4;
pub const NONE: u8 = u8::MAX;

/// A player's personal stock, warehouse, pass tiles and delivered goods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Player {
    pub taler: u32,
    /// Workers (beige) in the personal stock.
    pub workers: u32,
    /// Position on the victory point track (may go below 0).
    pub points: i32,
    /// Pass tiles turned to their crown side this round (they turn -3, -2, -1 in that order).
    pub passes: u8,
    /// Still holds the extra-action tile.
    pub extra: bool,
    /// Points from the "score the crowns" action tile this round (at most the cap).
    pub crown_points: u32,
    /// Points from scoring the crowns as the extra action this round (a second cap).
    pub extra_crown_points: u32,
    /// Tiles in the warehouse, by kind.
    pub warehouse: [u8; KINDS],
    /// Delivered goods, by kind (coffee, grain, salt, fish).
    pub delivered: [u8; 4],
}

/// A ship in a player's shipyard: its hull parts, masts, sails and cargo. Parts once placed
/// never move; goods leave only by delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ship {
    pub owner: u8,
    /// A 1-tile ship (a single hull); otherwise a ship of bow, centres and stern.
    pub single: bool,
    pub bow: bool,
    pub stern: bool,
    pub centres: u8,
    /// The coat of arms (0..4) of the ship's regular masts, fixed by its first one; NONE
    /// while it has none (crown masts combine with any mast type; ruling 1).
    pub coat: u8,
    /// Regular masts (of the ship's coat of arms) and crown masts.
    pub masts: u8,
    pub crown_masts: u8,
    pub sails: u8,
    pub crown_sails: u8,
    /// Of the crown sails, those standing on regular masts (the others stand on crown masts).
    /// A crown sail stands on a free crown mast when the ship has one, otherwise on a regular
    /// mast, and stays there (ruling 1).
    pub crown_sails_on_regular_masts: u8,
    /// Goods under the hull parts, by kind.
    pub goods: [u8; 4],
}

impl Default for Ship {
    fn default() -> Self {
        Ship {
            owner: NONE,
            single: false,
            bow: false,
            stern: false,
            centres: 0,
            coat: NONE,
            masts: 0,
            crown_masts: 0,
            sails: 0,
            crown_sails: 0,
            crown_sails_on_regular_masts: 0,
            goods: [0; 4],
        }
    }
}

impl Ship {
    /// Hull tiles laid.
    pub fn parts(&self) -> u8 {
        if self.single {
            1
        } else {
            self.bow as u8 + self.stern as u8 + self.centres
        }
    }
    /// The hull is whole: a single hull, or a bow and a stern (nothing fits between them).
    pub fn hull_closed(&self) -> bool {
        self.single || (self.bow && self.stern)
    }
    pub fn all_masts(&self) -> u8 {
        self.masts + self.crown_masts
    }
    pub fn all_sails(&self) -> u8 {
        self.sails + self.crown_sails
    }
    /// Regular masts without a sail.
    pub fn free_regular_masts(&self) -> u8 {
        self.masts.saturating_sub(self.sails + self.crown_sails_on_regular_masts)
    }
    /// Crown masts without a sail.
    pub fn free_crown_masts(&self) -> u8 {
        self.crown_masts.saturating_sub(self.crown_sails - self.crown_sails_on_regular_masts.min(self.crown_sails))
    }
    pub fn cargo(&self) -> u8 {
        self.goods.iter().sum()
    }
    /// "A ship is complete when all its ship parts are in place": a whole hull, a mast on
    /// every hull tile and a sail on every mast.
    pub fn complete(&self) -> bool {
        let n = self.parts();
        self.hull_closed() && self.all_masts() == n && self.all_sails() == n
    }
    /// Complete and with a good under every hull part: it may deliver.
    pub fn loaded(&self) -> bool {
        self.complete() && self.cargo() == self.parts()
    }
    /// Tiles of the ship as material (hull parts, masts and sails; goods are counted apart).
    pub fn material(&self) -> u32 {
        (self.parts() + self.all_masts() + self.all_sails()) as u32
    }

    /// Whether a tile of `kind` can be added to this ship (goods load, parts attach).
    pub fn accepts(&self, kind: u8) -> bool {
        let complete = self.complete();
        match kind {
            SINGLE => false,
            BOW => !self.single && !self.bow && !complete,
            STERN => !self.single && !self.stern && !complete,
            // A centre only between the ends: never into a closed hull, at most 2.
            3 => !self.single && self.centres < 2 && !(self.bow && self.stern),
            CROWN_MAST => self.all_masts() < self.parts(),
            k if (MAST..CROWN_MAST).contains(&k) => {
                self.all_masts() < self.parts() && (self.coat == NONE || self.coat == k - MAST)
            }
            // Ruling 1: a crown sail goes onto any free mast; a regular sail onto a free regular
            // mast of its coat of arms (one that neither a regular sail nor a crown sail stands on).
            CROWN_SAIL => self.free_regular_masts() + self.free_crown_masts() > 0,
            k if (SAIL..CROWN_SAIL).contains(&k) => self.coat == k - SAIL && self.free_regular_masts() > 0,
            k => {
                debug_assert!(k >= GOOD);
                self.cargo() < self.parts()
            }
        }
    }

    /// Adds a tile of `kind` (which [`Ship::accepts`]).
    pub fn add(&mut self, kind: u8) {
        match kind {
            BOW => self.bow = true,
            STERN => self.stern = true,
            3 => self.centres += 1,
            CROWN_MAST => self.crown_masts += 1,
            // Ruling 1: a crown sail stands on a free crown mast when there is one (a crown mast
            // takes nothing else), otherwise on a free regular mast; placed parts never move.
            CROWN_SAIL => {
                if self.free_crown_masts() == 0 {
                    self.crown_sails_on_regular_masts += 1;
                }
                self.crown_sails += 1;
            }
            k if (MAST..CROWN_MAST).contains(&k) => {
                self.masts += 1;
                self.coat = k - MAST;
            }
            k if (SAIL..CROWN_SAIL).contains(&k) => self.sails += 1,
            k => self.goods[(k - GOOD) as usize] += 1,
        }
    }

    /// A new ship begun with a hull tile.
    pub fn begun_with(owner: u8, kind: u8) -> Ship {
        let mut s = Ship { owner, ..Ship::default() };
        match kind {
            SINGLE => s.single = true,
            _ => s.add(kind),
        }
        s
    }
}

/// Where the game stands: whose decision or which chance event comes next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    /// Chance: the next action tile is laid on the next action space.
    Deal,
    /// The start player chooses one of the face-up action tiles.
    Choose,
    /// The start player chooses the free tile of the bonus (a regular mast, a regular sail or
    /// a good), which goes to the warehouse.
    BonusTile,
    /// `turn.actor` decides within their turn: pass, carry out the action (one use at a
    /// time), finish it, use the extra action, or end the turn.
    Turn,
    /// `turn.actor` places the tile just bought or taken from the warehouse.
    Place,
    /// `turn.actor` chooses the gift for buying all four items.
    Gift,
    /// `turn.actor` chooses a reward for the ship just completed.
    Reward,
    /// `turn.actor` chooses one of the different goods of the goods reward.
    RewardGood,
    GameOver,
}

/// Where the current player's turn stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub actor: u8,
    /// Players who have finished their turn in this action phase.
    pub done: u8,
    /// The chosen action: 0 not yet carried out or passed, 1 being carried out, 2 done or
    /// passed.
    pub main: u8,
    /// The action being carried out (an action tile), or NONE between actions.
    pub session: u8,
    /// The action being carried out is the extra action.
    pub extra: bool,
    /// The action being carried out has had at least one use (only then may it be finished).
    pub used: bool,
    /// Blue workers of the turntable still unused by this player in the chosen action.
    pub blue: u8,
    /// Items of the session's category bought in this action, by item.
    pub bought: [u8; 4],
    /// The gift for buying all four items is owed once the tile just bought is placed.
    pub gift_due: bool,
    /// The tile waiting to be placed (a kind) and whether Taler were paid for it (paid tiles
    /// may go to the warehouse or a ship; transported ones only to a ship).
    pub pending: u8,
    pub paid: bool,
    /// The ship whose completion is being rewarded, rewards left to choose, and how often
    /// each reward was taken for it.
    pub reward_ship: u8,
    pub rewards_left: u8,
    pub rewards_taken: [u8; 6],
    /// Goods of the goods reward still to choose, and the kinds already chosen (a bit each).
    pub reward_goods_left: u8,
    pub reward_goods_taken: u8,
}

impl Default for Turn {
    fn default() -> Self {
        Turn {
            actor: 0,
            done: 0,
            main: MAIN_OPEN,
            session: NONE,
            extra: false,
            used: false,
            blue: 0,
            bought: [0; 4],
            gift_due: false,
            pending: NONE,
            paid: false,
            reward_ship: NONE,
            rewards_left: 0,
            rewards_taken: [0; 6],
            reward_goods_left: 0,
            reward_goods_taken: 0,
        }
    }
}

pub const MAIN_OPEN: u8 = 0;
pub const MAIN_ACTING: u8 = 1;
pub const MAIN_DONE: u8 = 2;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub step: Step,
    /// The round under way, from 0.
    pub round: u8,
    /// Action phases finished this round.
    pub phases: u8,
    /// The start player (holder of the start player figure).
    pub start: u8,
    /// The action tile on each action space (NONE while not dealt).
    pub spaces: [u8; 8],
    /// Tiles dealt this round.
    pub dealt: u8,
    /// Spaces whose tile is turned face down, a bit each.
    pub face_down: u8,
    /// The space whose tile carries the anchor tile (the first action of the round), NONE
    /// before the first phase ends.
    pub anchor: u8,
    /// The action space the turntable's anchor sector points to.
    pub pointing: u8,
    /// The space of the chosen action (NONE while choosing).
    pub space: u8,
    pub turn: Turn,
    /// The supply of each limited tile kind.
    pub stock: [u8; KINDS],
    pub players: [Player; MAX_PLAYERS],
    /// Every ship begun, in order (`owner` NONE past `num_ships`).
    #[serde(with = "ships_serde")]
    pub ships: [Ship; MAX_SHIPS],
    pub num_ships: u8,
}

impl State {
    /// Warehouse spaces in use.
    pub fn warehouse_used(&self, p: usize, mast_spaces: u32) -> u32 {
        let w = &self.players[p].warehouse;
        w.iter()
            .enumerate()
            .map(|(k, &n)| n as u32 * if Category::of(k as u8) == Category::Mast { mast_spaces } else { 1 })
            .sum()
    }
    /// The ships of player `p`, in the order begun, with their index in `ships`.
    pub fn ships_of(&self, p: usize) -> impl Iterator<Item = (usize, &Ship)> {
        self.ships[..self.num_ships as usize].iter().enumerate().filter(move |(_, s)| s.owner as usize == p)
    }
    /// Index in `ships` of player `p`'s `k`-th ship.
    pub fn ship_index(&self, p: usize, k: usize) -> Option<usize> {
        self.ships_of(p).nth(k).map(|(i, _)| i)
    }
    /// Crowns player `p` shows: crown masts and crown sails owned (warehouse or ships) and
    /// pass tiles turned.
    pub fn crowns(&self, p: usize) -> u32 {
        let pl = &self.players[p];
        let held = pl.warehouse[CROWN_MAST as usize] as u32 + pl.warehouse[CROWN_SAIL as usize] as u32;
        let built: u32 = self.ships_of(p).map(|(_, s)| (s.crown_masts + s.crown_sails) as u32).sum();
        held + built + pl.passes as u32
    }
}

/// Serde for the ship array (serde derives arrays only up to 32 long).
mod ships_serde {
    use super::{Ship, MAX_SHIPS};
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(ships: &[Ship; MAX_SHIPS], s: S) -> Result<S::Ok, S::Error> {
        ships.as_slice().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[Ship; MAX_SHIPS], D::Error> {
        let v: Vec<Ship> = Vec::deserialize(d)?;
        let n = v.len();
        v.try_into().map_err(|_| D::Error::custom(format!("{n} ships; expected {MAX_SHIPS}")))
    }
}
