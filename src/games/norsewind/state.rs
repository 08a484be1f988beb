//! Norsewind's state: everything that changes during a game, in fixed-size arrays (cloning
//! never allocates). Nothing in it is hidden: the draw deck and the reserve deck are kept as
//! sets of cards, and each card is drawn by a chance node when it is revealed, so the order
//! of a shuffled deck never exists before it is seen.

use serde::{Deserialize, Serialize};

use super::data::{KINGDOMS, MAX_DISPLAY, MAX_SPACES};

pub const MAX_PLAYERS: usize = 4;
/// Building positions in a kingdom (the printed limit is 4).
pub const MAX_BUILDINGS: usize = 4;
pub const SLOTS: usize = 5;
pub const NONE: u8 = u8::MAX;

/// One kingdom of a player: its castle, its buildings (the starting card included) and what
/// lies on their spaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kingdom {
    pub castle: u8,
    /// Upgrade discs on the castle's shield and prestige spaces.
    pub castle_shield: bool,
    pub castle_prestige: bool,
    pub buildings: [u8; MAX_BUILDINGS],
    pub count: u8,
    /// The colour of the figure on each citizen space of each building (NONE: empty).
    pub figures: [[u8; MAX_SPACES]; MAX_BUILDINGS],
    pub shield_discs: [bool; MAX_BUILDINGS],
    pub prestige_discs: [bool; MAX_BUILDINGS],
    /// The figure on a "citizen-space" tile's space (NONE: empty).
    pub tile_figure: u8,
    /// A disc on a "prestige-space" or "shield-space" tile.
    pub tile_disc: bool,
    /// What the legal moves read, derived from the fields above and the tile (not saved:
    /// rebuilt when a state is loaded, kept up to date as the kingdom changes; left empty
    /// in the seats a game does not use).
    #[serde(skip)]
    pub derived: Derived,
}

/// A kingdom's empty spaces and building types, as the rules compute them from its cards,
/// figures and discs (`Norsewind::derive`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Derived {
    /// The places with an empty citizen space for each colour: byte `colour` (0..=3, 4 for
    /// a neutral figure) has bit `q` set (0: the tile, 1..=4: the buildings).
    pub citizen: u64,
    /// The places (bit `q`: 0 the tile, 1..=4 the buildings, 5 the castle) with a free
    /// shield space and with a free prestige space, whatever the player's coins.
    pub shield: u8,
    pub prestige: u8,
    /// The buildings of each type.
    pub kinds: [u8; 8],
}

impl Derived {
    /// Whether the castle has a free shield space and a free prestige space.
    pub fn set_castle(&mut self, shield: bool, prestige: bool) {
        const CASTLE: u8 = 1 << super::actions::PLACE_CASTLE;
        self.shield = self.shield & !CASTLE | if shield { CASTLE } else { 0 };
        self.prestige = self.prestige & !CASTLE | if prestige { CASTLE } else { 0 };
    }
}

impl Default for Kingdom {
    fn default() -> Self {
        Kingdom {
            castle: NONE,
            castle_shield: false,
            castle_prestige: false,
            buildings: [NONE; MAX_BUILDINGS],
            count: 0,
            figures: [[NONE; MAX_SPACES]; MAX_BUILDINGS],
            shield_discs: [false; MAX_BUILDINGS],
            prestige_discs: [false; MAX_BUILDINGS],
            tile_figure: NONE,
            tile_disc: false,
            derived: Derived::default(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub coins: u32,
    pub kingdoms: [Kingdom; KINGDOMS],
    /// The starting card dealt to the player (NONE before the deal).
    pub start_card: u8,
    /// Turns the player has finished.
    pub turns: u32,
}

impl Default for Player {
    fn default() -> Self {
        Player { coins: 0, kingdoms: [Kingdom::default(); KINGDOMS], start_card: NONE, turns: 0 }
    }
}

/// Where the game stands: whose decision or which chance event comes next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Chance: the colours of the four citizen supplies (one of the 24 orders).
    Colours,
    /// Chance: a card is revealed into the market (castles go to the castle display).
    Reveal,
    /// Chance (solo): the market card the Viking ship tile is placed above.
    Ship,
    /// Chance: the kingdom tile of the next row.
    Tile,
    /// Chance (solo, levels 2 to 7): whether the next Viking card shows its red side.
    VikingSide,
    /// Chance: the starting card dealt to the next player.
    Deal,
    /// Variant: the next player chooses the kingdom of his starting card.
    StartPlacement,
    /// The current player acquires a building or a castle (or, when he can do neither, passes).
    Turn,
    /// Step 3 of a building: the player takes a figure or disc next to the card he took.
    Take,
    /// A castle replaced a castle with upgrade discs: the player keeps them on the new castle or not.
    Reuse,
    /// A kingdom's first castle: the player places the neutral citizen figure.
    Neutral,
    GameOver,
}

/// What comes once the market is full again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum After {
    /// The general setup: then the tiles and the starting cards.
    Setup,
    /// The rare case's new market: the discarded cards go back into the deck; the turn goes on.
    Refresh,
    /// A building was acquired: the Vikings' turn (solo) or the end of the turn.
    Building,
    /// The Vikings took their card: the end of the round.
    Vikings,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub phase: Phase,
    pub players: u8,
    /// The solo level (1..=7); 0 in a game of several players.
    pub level: u8,
    /// The seat deciding (or, at a chance node during a turn, whose turn it is).
    pub current: u8,
    /// The starting player (the lowest number on the starting cards).
    pub starting: u8,
    /// Turns started (for the turn bound).
    pub turn: u32,
    pub player: [Player; MAX_PLAYERS],
    /// The cards of the draw deck, the reserve deck, and the undealt starting deck.
    #[serde(with = "bits")]
    pub deck: u128,
    #[serde(with = "bits")]
    pub reserve: u128,
    #[serde(with = "bits")]
    pub start_pool: u128,
    /// Cards out of the game (returned to the box; castles the solo display discarded).
    #[serde(with = "bits")]
    pub out: u128,
    /// The five market slots (card or NONE).
    pub market: [u8; SLOTS],
    /// The castle display, in order (leftmost first).
    pub display: [u8; MAX_DISPLAY],
    pub display_len: u8,
    /// Colour of each citizen supply; supply `i` lies between slot `i` and slot `i + 1`, and
    /// supply 4 (between slot 5 and slot 1) holds the upgrade discs.
    pub supply_colour: [u8; 4],
    /// Figures left in each citizen supply.
    pub supply: [u8; 4],
    pub discs: u8,
    /// Neutral figures on the castle tile.
    pub neutral: u8,
    /// The kingdom tile of each row, the same for every player (NONE before it is drawn).
    pub tiles: [u8; 4],
    /// Setup counter: the next row for a tile or Viking side, the next seat for a deal.
    pub setup_next: u8,
    /// Solo: each Viking card shows its red side.
    pub viking_red: [bool; 4],
    /// Solo: the cards in each kingdom of the Viking display.
    #[serde(with = "bits4")]
    pub viking_rows: [u128; 4],
    /// Solo: the market slot under the Viking ship tile.
    pub ship: u8,
    /// Solo: the card revealed into the market at the end of the player's turn (NONE: none).
    pub revealed: u8,
    /// The slot being refilled after a building, and what comes once the market is full.
    pub slot: u8,
    pub after: After,
    /// The card and kingdom of the building under way (step 3).
    pub built_kingdom: u8,
    /// The rare case's discarded cards, waiting to go back into the deck.
    #[serde(with = "bits")]
    pub refresh_pool: u128,
    /// The rare case was resolved this turn.
    pub refreshed: bool,
    /// Discs of a replaced castle waiting for the player's decision.
    pub reuse_discs: u8,
    pub reuse_kingdom: u8,
    /// Per player, the castles that player returned by a replacement since the last building
    /// was acquired: that player cannot acquire them again before the next building; the
    /// others can (ruling 6).
    #[serde(with = "bits4")]
    pub locked: [u128; MAX_PLAYERS],
    /// Passes in a row (ruling 7).
    pub passes: u8,
    pub end_triggered: bool,
    pub truncated: bool,
}

/// Card sets are saved as two 64-bit halves (low, high), which every JSON reader keeps exact.
mod bits {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &u128, s: S) -> Result<S::Ok, S::Error> {
        [*v as u64, (*v >> 64) as u64].serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        let [lo, hi] = <[u64; 2]>::deserialize(d)?;
        Ok(lo as u128 | (hi as u128) << 64)
    }
}

mod bits4 {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &[u128; 4], s: S) -> Result<S::Ok, S::Error> {
        v.map(|x| [x as u64, (x >> 64) as u64]).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u128; 4], D::Error> {
        let halves = <[[u64; 2]; 4]>::deserialize(d)?;
        Ok(halves.map(|[lo, hi]| lo as u128 | (hi as u128) << 64))
    }
}
