//! Norsewind's component data: the file format (every value marked printed or
//! reconstructed), its validation (errors name the offending field) and the compiled tables
//! the rules read.

use std::collections::BTreeMap;

use crate::engine::data::{data_file, data_struct, per_player_count, sourced_record, sourced_values, within, ComponentData};
pub use crate::engine::data::{Source, Sourced};
use crate::engine::{EngineError, Result};

/// Building types, in the order of the rulebook's list (castles are not buildings).
pub const TYPES: [&str; 5] = ["farm", "blacksmith", "inn", "ship", "church"];
pub const FARM: u8 = 0;
pub const BLACKSMITH: u8 = 1;
pub const INN: u8 = 2;
pub const SHIP: u8 = 3;
pub const CHURCH: u8 = 4;
/// The type of a castle card.
pub const CASTLE: u8 = 5;
/// Citizen colours (the player colours, seat order) and the neutral (white) figures.
pub const COLOURS: [&str; 5] = ["purple", "red", "yellow", "blue", "white"];
pub const NEUTRAL: u8 = 4;
/// The decks, by the symbol on their backs.
pub const DECKS: [&str; 5] = ["1+", "3+", "4", "start", "reserve"];
pub const START_DECK: u8 = 3;
pub const RESERVE_DECK: u8 = 4;
/// Most cards in one data file (cards are kept in 128-bit sets).
pub const MAX_CARDS: usize = 128;
/// Most citizen spaces on one card.
pub const MAX_SPACES: usize = 3;
pub const KINGDOMS: usize = 4;

/// The ten kinds of kingdom tile: five green, then five red (rulebook order).
pub const TILES: [&str; 10] = [
    "citizen-space",
    "fourth-building",
    "citizen-coin",
    "prestige-space",
    "shield-space",
    "different-types",
    "two-buildings",
    "helmet-toll",
    "castle-seven",
    "colour-scoring",
];
pub const T_CITIZEN_SPACE: u8 = 0;
pub const T_FOURTH: u8 = 1;
pub const T_CITIZEN_COIN: u8 = 2;
pub const T_PRESTIGE: u8 = 3;
pub const T_SHIELD: u8 = 4;
pub const T_DIFFERENT: u8 = 5;
pub const T_TWO: u8 = 6;
pub const T_TOLL: u8 = 7;
pub const T_CASTLE_SEVEN: u8 = 8;
pub const T_COLOURS: u8 = 9;
pub const GREEN_TILES: u8 = 5;

pub fn is_green(tile: u8) -> bool {
    tile < GREEN_TILES
}

sourced_values! {
    pub struct RulesFile {
        market_slots,
        kingdom_building_limit,
        neutral_per_player,
        upgrade_discs,
        green_tile_helmets,
        red_tile_helmets,
        fourth_building_coins,
        citizen_coins,
        green_prestige_space,
        green_shield_space,
        green_shield_space_cost,
        prestige_disc_cost,
        red_building_limit,
        toll_helmets,
        toll_coins,
        red_castle_minimum,
        unprotected_kingdom,
        solo_citizens_per_supply,
        solo_neutral,
        solo_castle_display,
    }
}

sourced_record! {
    pub struct CardFile {
        pub id: String,
        pub deck: String,
        #[serde(rename = "type")]
        pub kind: String,
        #[serde(default)]
        pub helmets: u32,
        #[serde(default)]
        pub cost: u32,
        #[serde(default)]
        pub coins: u32,
        #[serde(default)]
        pub citizens: u32,
        #[serde(default)]
        pub spaces: Vec<String>,
        #[serde(default)]
        pub shields: u32,
        #[serde(default)]
        pub prestige: u32,
        #[serde(default)]
        pub shield_space: u32,
        #[serde(default)]
        pub prestige_space: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub row: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub order: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub start_coins: Option<u32>,
    }
}

sourced_record! {
    pub struct KingdomFile {
        pub name: String,
        pub income: String,
    }
}

data_struct! {
    pub struct VikingSideFile {
        pub helmets: u32,
        pub points_per_card: u32,
    }
}

sourced_record! {
    pub struct VikingFile {
        pub kingdom: String,
        pub green: VikingSideFile,
        pub red: VikingSideFile,
    }
}

data_struct! {
    pub struct LevelFile {
        pub level: u32,
        pub green_tiles: u32,
        pub red_tiles: u32,
        pub green_vikings: u32,
        pub red_vikings: u32,
        pub source: Source,
    }
}

data_struct! {
    pub struct TierFile {
        pub name: String,
        pub from: Sourced,
    }
}

data_file! {
    pub struct DataFile {
        pub rules: RulesFile,
        pub citizens_per_supply: BTreeMap<String, Sourced>,
        pub deck_sizes: BTreeMap<String, Sourced>,
        pub income: BTreeMap<String, Sourced>,
        pub kingdoms: Vec<KingdomFile>,
        pub viking_cards: Vec<VikingFile>,
        pub levels: Vec<LevelFile>,
        pub tiers: Vec<TierFile>,
        pub cards: Vec<CardFile>,
    }
}

/// One card, compiled.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Card {
    pub id: String,
    pub deck: u8,
    /// A building type (`FARM`..`CHURCH`) or `CASTLE`.
    pub kind: u8,
    pub helmets: u32,
    /// The price: an inn's cost or a castle's.
    pub cost: u32,
    /// A ship's coin value.
    pub coins: u32,
    pub citizens: u32,
    /// The colour of each citizen space.
    pub spaces: Vec<u8>,
    pub shields: u32,
    pub prestige: u32,
    /// Value of the shield (prestige) space; 0: none.
    pub shield_space: u32,
    pub prestige_space: u32,
    /// Starting cards: the row (0-based), the number in the corner and the start coins.
    pub row: u8,
    pub order: u32,
    pub start_coins: u32,
}

/// The numbers of the rules, as read from the data file.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    pub slots: usize,
    pub kingdom_limit: u8,
    pub neutral_per_player: u8,
    pub discs: u8,
    pub green_helmets: u32,
    pub red_helmets: u32,
    pub fourth_coins: u32,
    pub citizen_coins: u32,
    pub green_prestige: u32,
    pub green_shield: u32,
    pub green_shield_cost: u32,
    pub prestige_cost: u32,
    pub red_limit: u8,
    pub toll_helmets: u32,
    pub toll_coins: u32,
    pub red_castle_min: u32,
    pub unprotected: i64,
    pub solo_citizens: u8,
    pub solo_neutral: u8,
    pub solo_display: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VikingSide {
    pub helmets: u32,
    pub points: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    pub green_tiles: u8,
    pub red_tiles: u8,
    pub green_vikings: u8,
    pub red_vikings: u8,
}

/// What the rules read of a card on their hot paths, compiled from [`Card`] so that legal
/// moves, income and scoring read a few bytes instead of the card's full record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CardFacts {
    pub kind: u8,
    pub cost: u32,
    /// The cost in a kingdom with the helmet-toll tile (the toll added at its helmets).
    pub toll_cost: u32,
    /// A ship's coin value.
    pub coins: u32,
    pub helmets: u32,
    pub shields: u32,
    pub prestige: u32,
    pub shield_space: u32,
    pub prestige_space: u32,
    pub citizens: u32,
    /// Each citizen space as the figures that fit it: bit `8 * colour` for its colour's and
    /// bit `8 * NEUTRAL` for a neutral one; 0 past the card's spaces.
    pub space_places: [u64; MAX_SPACES],
}

/// The compiled component data.
#[derive(Debug, Clone, PartialEq)]
pub struct Data {
    pub file: DataFile,
    pub rules: Rules,
    pub cards: Vec<Card>,
    /// Figures per citizen supply by player count (2..=4).
    pub citizens: BTreeMap<usize, u8>,
    /// Coins per building of each type in the other kingdoms (farm, blacksmith, inn, ship).
    pub income: [u32; 4],
    pub kingdom_names: [String; KINGDOMS],
    /// The building type each kingdom card pays for.
    pub kingdom_income: [u8; KINGDOMS],
    /// Each Viking card's green and red side.
    pub vikings: [[VikingSide; 2]; KINGDOMS],
    /// Levels 1..=7, index level - 1.
    pub levels: Vec<Level>,
    /// Tier names and the margin each starts at, lowest first.
    pub tiers: Vec<(String, u32)>,
    /// Each card's [`CardFacts`], indexed by any card number (a `u8`; unused entries are zero).
    pub facts: [CardFacts; 256],
    /// The cards of each deck (`DECKS` order).
    pub decks: [u128; 5],
}

fn err(field: impl Into<String>, message: impl Into<String>) -> EngineError {
    EngineError::data(field, message)
}

fn type_index(field: &str, name: &str, castle: bool) -> Result<u8> {
    if let Some(i) = TYPES.iter().position(|&t| t == name) {
        return Ok(i as u8);
    }
    if castle && name == "castle" {
        return Ok(CASTLE);
    }
    let allowed = if castle { "farm, blacksmith, inn, ship, church or castle" } else { "farm, blacksmith, inn or ship" };
    Err(err(field, format!("{name:?} is not a type: one of {allowed}")))
}

impl ComponentData for Data {
    type File = DataFile;
    const SHIPPED: &'static str = include_str!("data.json");
    const GAME: &'static str = "norsewind";

    fn file(&self) -> &DataFile {
        &self.file
    }

    fn compile(file: DataFile) -> Result<Data> {
        let r = &file.rules;
        let g = |name: &str, s: &Sourced, lo: u32, hi: u32| s.within(&format!("rules.{name}"), lo, hi);
        let rules = Rules {
            slots: g("market_slots", &r.market_slots, 5, 5)? as usize,
            kingdom_limit: g("kingdom_building_limit", &r.kingdom_building_limit, 1, 4)? as u8,
            neutral_per_player: g("neutral_per_player", &r.neutral_per_player, 0, 16)? as u8,
            discs: g("upgrade_discs", &r.upgrade_discs, 0, 60)? as u8,
            green_helmets: g("green_tile_helmets", &r.green_tile_helmets, 0, 20)?,
            red_helmets: g("red_tile_helmets", &r.red_tile_helmets, 0, 20)?,
            fourth_coins: g("fourth_building_coins", &r.fourth_building_coins, 0, 100)?,
            citizen_coins: g("citizen_coins", &r.citizen_coins, 0, 100)?,
            green_prestige: g("green_prestige_space", &r.green_prestige_space, 0, 20)?,
            green_shield: g("green_shield_space", &r.green_shield_space, 0, 20)?,
            green_shield_cost: g("green_shield_space_cost", &r.green_shield_space_cost, 0, 100)?,
            prestige_cost: g("prestige_disc_cost", &r.prestige_disc_cost, 0, 100)?,
            red_limit: g("red_building_limit", &r.red_building_limit, 1, 4)? as u8,
            toll_helmets: g("toll_helmets", &r.toll_helmets, 0, 20)?,
            toll_coins: g("toll_coins", &r.toll_coins, 0, 100)?,
            red_castle_min: g("red_castle_minimum", &r.red_castle_minimum, 0, 1000)?,
            unprotected: g("unprotected_kingdom", &r.unprotected_kingdom, 0, 1000)? as i64,
            solo_citizens: g("solo_citizens_per_supply", &r.solo_citizens_per_supply, 0, 40)? as u8,
            solo_neutral: g("solo_neutral", &r.solo_neutral, 0, 40)? as u8,
            solo_display: g("solo_castle_display", &r.solo_castle_display, 1, 20)? as usize,
        };

        let citizens = per_player_count("citizens_per_supply", &file.citizens_per_supply, 2..=4, |field, _, s| Ok(s.within(field, 0, 40)? as u8))?;

        let mut income = [0u32; 4];
        for (key, s) in &file.income {
            let t = type_index(&format!("income.{key}"), key, false)?;
            if t == CHURCH {
                return Err(err(format!("income.{key}"), "no kingdom card pays for churches"));
            }
            income[t as usize] = s.within(&format!("income.{key}"), 0, 100)?;
        }
        for t in 0..4 {
            if !file.income.contains_key(TYPES[t]) {
                return Err(err(format!("income.{}", TYPES[t]), "missing"));
            }
        }

        if file.kingdoms.len() != KINGDOMS {
            return Err(err("kingdoms", format!("{} kingdom cards; a player has 4", file.kingdoms.len())));
        }
        let mut kingdom_names: [String; KINGDOMS] = Default::default();
        let mut kingdom_income = [0u8; KINGDOMS];
        for (i, k) in file.kingdoms.iter().enumerate() {
            if k.name.trim().is_empty() || k.name.len() > 40 {
                return Err(err(format!("kingdoms[{i}].name"), "a kingdom needs a name of 1 to 40 characters"));
            }
            kingdom_names[i] = k.name.clone();
            let t = type_index(&format!("kingdoms[{i}].income"), &k.income, false)?;
            if t == CHURCH {
                return Err(err(format!("kingdoms[{i}].income"), "no kingdom card pays for churches"));
            }
            kingdom_income[i] = t;
        }
        for i in 0..KINGDOMS {
            for j in 0..i {
                if kingdom_names[i].to_lowercase() == kingdom_names[j].to_lowercase() {
                    return Err(err(format!("kingdoms[{i}].name"), "two kingdoms have the same name"));
                }
            }
        }

        if file.viking_cards.len() != KINGDOMS {
            return Err(err("viking_cards", format!("{} Viking cards; there are 4", file.viking_cards.len())));
        }
        let mut vikings = [[VikingSide::default(); 2]; KINGDOMS];
        for (i, v) in file.viking_cards.iter().enumerate() {
            if v.kingdom != kingdom_names[i] {
                return Err(err(format!("viking_cards[{i}].kingdom"), format!("the Viking card of row {} is {:?}'s", i + 1, kingdom_names[i])));
            }
            for (side, name, s) in [(0, "green", &v.green), (1, "red", &v.red)] {
                vikings[i][side] = VikingSide {
                    helmets: within(format!("viking_cards[{i}].{name}.helmets"), s.helmets, 0, 40)?,
                    points: within(format!("viking_cards[{i}].{name}.points_per_card"), s.points_per_card, 0, 100)?,
                };
            }
        }

        if file.levels.len() != 7 {
            return Err(err("levels", format!("{} levels; the solo game has 7", file.levels.len())));
        }
        let mut levels = Vec::new();
        for (i, l) in file.levels.iter().enumerate() {
            let f = |n: &str| format!("levels[{i}].{n}");
            if l.level != i as u32 + 1 {
                return Err(err(f("level"), format!("levels are listed 1 to 7; this is level {}", l.level)));
            }
            if l.green_tiles + l.red_tiles != 4 {
                return Err(err(f("red_tiles"), "a level's green and red kingdom tiles make 4"));
            }
            if l.green_vikings + l.red_vikings != 4 {
                return Err(err(f("red_vikings"), "a level's green and red Viking cards make 4"));
            }
            if l.green_tiles > 5 || l.red_tiles > 5 {
                return Err(err(f("green_tiles"), "a player has 5 tiles of each colour"));
            }
            levels.push(Level {
                green_tiles: l.green_tiles as u8,
                red_tiles: l.red_tiles as u8,
                green_vikings: l.green_vikings as u8,
                red_vikings: l.red_vikings as u8,
            });
        }

        if file.tiers.is_empty() {
            return Err(err("tiers", "the solo game has reward tiers"));
        }
        let mut tiers = Vec::new();
        for (i, t) in file.tiers.iter().enumerate() {
            let from = t.from.within(&format!("tiers[{i}].from"), 1, 1000)?;
            if tiers.last().is_some_and(|&(_, f): &(String, u32)| f >= from) {
                return Err(err(format!("tiers[{i}].from"), "tiers are listed from the lowest margin up"));
            }
            if t.name.trim().is_empty() {
                return Err(err(format!("tiers[{i}].name"), "a tier needs a name"));
            }
            tiers.push((t.name.clone(), from));
        }

        if file.cards.len() > MAX_CARDS {
            return Err(err("cards", format!("{} cards; at most {MAX_CARDS}", file.cards.len())));
        }
        let mut cards = Vec::new();
        let mut per_deck = [0u32; 5];
        for (i, c) in file.cards.iter().enumerate() {
            let f = |n: &str| format!("cards[{i}].{n}");
            if c.id.is_empty() || c.id.len() > 24 || !c.id.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-') {
                return Err(err(f("id"), "a card id is 1 to 24 letters, digits or '-'"));
            }
            if cards.iter().any(|o: &Card| o.id == c.id) {
                return Err(err(f("id"), format!("two cards are named {:?}", c.id)));
            }
            let deck = DECKS.iter().position(|&d| d == c.deck).ok_or_else(|| {
                err(f("deck"), format!("{:?} is not a deck: one of \"1+\", \"3+\", \"4\", \"start\", \"reserve\"", c.deck))
            })? as u8;
            per_deck[deck as usize] += 1;
            let kind = type_index(&f("type"), &c.kind, true)?;
            if kind == CASTLE && deck >= START_DECK {
                return Err(err(f("type"), "the starting and reserve decks hold buildings"));
            }
            if c.spaces.len() > MAX_SPACES {
                return Err(err(f("spaces"), format!("at most {MAX_SPACES} citizen spaces on a card")));
            }
            if kind == CASTLE && !c.spaces.is_empty() {
                return Err(err(f("spaces"), "castles have no citizen spaces"));
            }
            let mut spaces = Vec::new();
            for (j, s) in c.spaces.iter().enumerate() {
                let col = COLOURS[..4].iter().position(|&x| x == s).ok_or_else(|| {
                    err(format!("cards[{i}].spaces[{j}]"), format!("{s:?} is not a citizen colour: purple, red, yellow or blue"))
                })?;
                spaces.push(col as u8);
            }
            if c.cost > 0 && kind != INN && kind != CASTLE {
                return Err(err(f("cost"), "only inns and castles have a cost"));
            }
            if c.coins > 0 && kind != SHIP {
                return Err(err(f("coins"), "only ships have a coin value"));
            }
            let start = deck == START_DECK;
            if start != c.row.is_some() || start != c.order.is_some() || start != c.start_coins.is_some() {
                return Err(err(f("row"), "starting cards, and only they, have a row, an order number and start coins"));
            }
            let row = match c.row {
                Some(r) => within(f("row"), r, 1, 4)? as u8 - 1,
                None => 0,
            };
            let order = c.order.unwrap_or(0);
            if start && cards.iter().any(|o: &Card| o.deck == START_DECK && o.order == order) {
                return Err(err(f("order"), "two starting cards have the same number"));
            }
            cards.push(Card {
                id: c.id.clone(),
                deck,
                kind,
                helmets: within(f("helmets"), c.helmets, 0, 20)?,
                cost: within(f("cost"), c.cost, 0, 100)?,
                coins: within(f("coins"), c.coins, 0, 100)?,
                citizens: within(f("citizens"), c.citizens, 0, 20)?,
                spaces,
                shields: within(f("shields"), c.shields, 0, 50)?,
                prestige: within(f("prestige"), c.prestige, 0, 50)?,
                shield_space: within(f("shield_space"), c.shield_space, 0, 20)?,
                prestige_space: within(f("prestige_space"), c.prestige_space, 0, 20)?,
                row,
                order: within(f("order"), order, 0, 100)?,
                start_coins: within(f("start_coins"), c.start_coins.unwrap_or(0), 0, 100)?,
            });
        }
        for (d, name) in DECKS.iter().enumerate() {
            let size = file.deck_sizes.get(*name).ok_or_else(|| err(format!("deck_sizes.{name}"), "missing"))?;
            let want = size.within(&format!("deck_sizes.{name}"), 0, MAX_CARDS as u32)?;
            if per_deck[d] != want {
                return Err(err("cards", format!("the {name} deck has {} cards; deck_sizes says {want}", per_deck[d])));
            }
        }
        if let Some(k) = file.deck_sizes.keys().find(|k| !DECKS.contains(&k.as_str())) {
            return Err(err(format!("deck_sizes.{k}"), "not a deck: \"1+\", \"3+\", \"4\", \"start\" or \"reserve\""));
        }
        if per_deck[START_DECK as usize] < 4 {
            return Err(err("cards", "the starting deck deals a card to each of up to 4 players"));
        }
        let market_buildings = cards.iter().filter(|c| c.deck == 0 && c.kind != CASTLE).count();
        if market_buildings < rules.slots {
            return Err(err("cards", "the 1+-player deck must fill the market with buildings"));
        }
        let castles = cards.iter().filter(|c| c.kind == CASTLE).count();
        if castles > MAX_DISPLAY {
            return Err(err("cards", format!("{castles} castles; at most {MAX_DISPLAY}")));
        }
        let mut facts = [CardFacts::default(); 256];
        let mut decks = [0u128; 5];
        for (i, c) in cards.iter().enumerate() {
            let mut space_places = [0u64; MAX_SPACES];
            for (b, &colour) in space_places.iter_mut().zip(&c.spaces) {
                *b = 1 << (8 * colour) | 1 << (8 * NEUTRAL);
            }
            let toll = if c.helmets >= rules.toll_helmets { rules.toll_coins } else { 0 };
            facts[i] = CardFacts {
                kind: c.kind,
                cost: c.cost,
                toll_cost: c.cost + toll,
                coins: c.coins,
                helmets: c.helmets,
                shields: c.shields,
                prestige: c.prestige,
                shield_space: c.shield_space,
                prestige_space: c.prestige_space,
                citizens: c.citizens,
                space_places,
            };
            decks[c.deck as usize] |= 1 << i;
        }
        Ok(Data { file, rules, cards, citizens, income, kingdom_names, kingdom_income, vikings, levels, tiers, facts, decks })
    }
}

impl Data {

    /// The cards of the decks a game of `players` uses (the solo game: the 1+-player deck).
    pub fn deck_cards(&self, players: usize) -> u128 {
        let mut set = self.decks[0];
        if players >= 3 {
            set |= self.decks[1];
        }
        if players >= 4 {
            set |= self.decks[2];
        }
        set
    }

    pub fn deck_of(&self, deck: u8) -> u128 {
        self.decks[deck as usize]
    }

    pub fn card_index(&self, id: &str) -> Option<u8> {
        self.cards.iter().position(|c| c.id == id).map(|i| i as u8)
    }
}

/// Most castles in the castle display (every castle of the data file).
pub const MAX_DISPLAY: usize = 24;
