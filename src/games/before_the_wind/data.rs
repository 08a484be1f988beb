//! Before the Wind's component data: the file format (every value marked printed or
//! reconstructed), its validation (errors name the offending field) and the compiled tables
//! the rules read.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::data::{data_file, data_struct, is_zero, per_player_count, sourced_record, sourced_values, within, ComponentData};
use crate::engine::words::plural;
pub use crate::engine::data::{Source, Sourced};
use crate::engine::{EngineError, Result};

/// The four kinds of goods, in the order of the component list.
pub const GOODS: [&str; 4] = ["apples", "cheese", "spices", "silk"];
/// One good of each kind, in the singular ("1 apple", "take:apple").
pub const GOOD: [&str; 4] = ["apple", "cheese", "spice", "silk"];
pub const APPLES: usize = 0;
pub const CHEESE: usize = 1;
pub const SPICES: usize = 2;
/// The three action decks, in the order they lie on the table.
pub const DECKS: [&str; 3] = ["Receive Goods", "Store Goods in Warehouse", "Load Goods onto Ship/Profit"];
pub const DECK_KEYS: [&str; 3] = ["receive_goods", "store_goods", "load_goods"];
pub const SIZES: [&str; 2] = ["large", "small"];
pub const LARGE: usize = 0;
pub const SMALL: usize = 1;

/// Most kinds of action card (designs) a data file may have (the size of the deck tables).
pub const MAX_DESIGNS: usize = 96;
/// Most kinds of special action card.
pub const MAX_SPECIALS: usize = 16;
/// Most kinds of ship card.
pub const MAX_SHIP_DESIGNS: usize = 96;
/// Most ships in the harbour at once.
pub const MAX_HARBOUR: usize = 8;

sourced_values! {
    pub struct RulesFile {
        starting_guilders,
        /// The guilders of the box (the bank of the `bank="limited"` option).
        bank_guilders,
        starting_goods,
        warehouse_capacity,
        goods_per_kind,
        max_cards_from_one_deck,
        min_different_decks,
        fleet_leaves_at,
        sell_price,
        safe_compensation,
    }
}

sourced_values! {
    pub struct HarbourFile {
        large,
        small,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeckFile {
    ReceiveGoods,
    StoreGoods,
    LoadGoods,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionFile {
    ReceiveGoods,
    StoreGoods,
    LoadOrProfit,
    ReceiveGoodsOfChoice,
    Preservation,
    ReceiveAndStore,
    ExchangeGoods,
    SellGoods,
    Safe,
}

data_struct! {
    /// Goods by kind, as written in the data file (`{"apples": 2, "spices": 1}`).
    #[derive(Default, Eq)]
    pub struct GoodsFile {
        #[serde(default, skip_serializing_if = "is_zero")]
        pub apples: u32,
        #[serde(default, skip_serializing_if = "is_zero")]
        pub cheese: u32,
        #[serde(default, skip_serializing_if = "is_zero")]
        pub spices: u32,
        #[serde(default, skip_serializing_if = "is_zero")]
        pub silk: u32,
    }
}

impl GoodsFile {
    fn array(&self) -> [u32; 4] {
        [self.apples, self.cheese, self.spices, self.silk]
    }
}

sourced_record! {
    pub struct CardFile {
        pub deck: DeckFile,
        pub action: ActionFile,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub goods: Option<GoodsFile>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub goods_count: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub cost: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub profit: Option<u32>,
        pub count: u32,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SizeFile {
    Large,
    Small,
}

sourced_record! {
    pub struct ShipFile {
        pub size: SizeFile,
        pub goods: GoodsFile,
        pub victory_points: u32,
        pub count: u32,
    }
}

data_file! {
    pub struct DataFile {
        pub rules: RulesFile,
        pub harbour: BTreeMap<String, HarbourFile>,
        pub victory_points_to_win: BTreeMap<String, Sourced>,
        pub action_cards: Vec<CardFile>,
        pub ships: Vec<ShipFile>,
    }
}

/// What an action card does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Receive these goods into the hand.
    Receive { goods: [u8; 4] },
    /// Store up to `n` goods from the hand into the warehouse for `cost` guilders.
    Store { n: u8, cost: u32 },
    /// Load goods onto ships, or take `profit` guilders.
    LoadOrProfit { profit: u32 },
    /// Special: receive `n` goods of one's choice into the hand.
    ReceiveChoice { n: u8 },
    /// Special: preserve `n` goods when the fleet leaves.
    Preservation { n: u8 },
    /// Special: take `n` goods of one's choice from the stacks straight into the warehouse, for `cost`.
    ReceiveAndStore { n: u8, cost: u32 },
    /// Special: exchange 1 or 2 goods of the warehouse.
    Exchange,
    /// Special: sell goods from the hand or the warehouse.
    Sell,
    /// Special: the Safe, played during the auction phase.
    Safe,
}

impl Kind {
    pub fn is_special(self) -> bool {
        !matches!(self, Kind::Receive { .. } | Kind::Store { .. } | Kind::LoadOrProfit { .. })
    }
}

/// One kind of action card (identical copies share a design).
#[derive(Debug, Clone, PartialEq)]
pub struct Design {
    pub deck: u8,
    pub kind: Kind,
    pub count: u8,
    /// Index among the special designs (kept in hand), or `None` for a normal card.
    pub special: Option<u8>,
    /// The card's name as players say it ("Receive 2 apples, 1 spice").
    pub name: String,
}

/// One kind of ship card.
#[derive(Debug, Clone, PartialEq)]
pub struct ShipDesign {
    pub size: u8,
    pub goods: [u8; 4],
    pub vp: u32,
    pub count: u8,
    pub name: String,
}

/// The numbers of the rules, as read from the data file.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    pub starting_guilders: u32,
    pub bank_guilders: u32,
    pub starting_goods: u8,
    pub warehouse_capacity: u8,
    pub goods_per_kind: u8,
    pub max_from_deck: u8,
    pub min_decks: u8,
    pub fleet_leaves_at: u8,
    pub sell_price: u32,
    pub safe_compensation: u32,
}

/// The compiled component data.
#[derive(Debug, Clone, PartialEq)]
pub struct Data {
    pub file: DataFile,
    pub rules: Rules,
    pub designs: Vec<Design>,
    /// Design id of each special index.
    pub specials: Vec<u8>,
    pub ships: Vec<ShipDesign>,
    /// The design ids of each deck, in id order (what the deck tables are read by).
    pub deck_designs: [Vec<u8>; 3],
    /// The ship design ids of each size (`LARGE`, `SMALL`), in id order.
    pub size_ships: [Vec<u8>; 2],
    /// Ships laid out per player count: `[large, small]`.
    pub harbour: BTreeMap<usize, [u8; 2]>,
    pub to_win: BTreeMap<usize, u32>,
}

impl ComponentData for Data {
    type File = DataFile;
    const SHIPPED: &'static str = include_str!("data.json");
    const GAME: &'static str = "before-the-wind";

    fn file(&self) -> &DataFile {
        &self.file
    }

    fn compile(file: DataFile) -> Result<Data> {
        let r = &file.rules;
        let rules = Rules {
            starting_guilders: r.starting_guilders.within("rules.starting_guilders", 0, 1000)?,
            bank_guilders: r.bank_guilders.within("rules.bank_guilders", 0, 100_000)?,
            starting_goods: r.starting_goods.within("rules.starting_goods", 0, 8)? as u8,
            warehouse_capacity: r.warehouse_capacity.within("rules.warehouse_capacity", 1, 20)? as u8,
            goods_per_kind: r.goods_per_kind.within("rules.goods_per_kind", 1, 60)? as u8,
            max_from_deck: r.max_cards_from_one_deck.within("rules.max_cards_from_one_deck", 2, 4)? as u8,
            min_decks: r.min_different_decks.within("rules.min_different_decks", 1, 2)? as u8,
            fleet_leaves_at: r.fleet_leaves_at.within("rules.fleet_leaves_at", 0, 4)? as u8,
            sell_price: r.sell_price.within("rules.sell_price", 0, 100)?,
            safe_compensation: r.safe_compensation.within("rules.safe_compensation", 0, 100)?,
        };
        // Four players need starting goods from stacks of `goods_per_kind` of 4 kinds.
        if 4 * rules.starting_goods as u32 > 4 * rules.goods_per_kind as u32 {
            return Err(EngineError::data("rules.starting_goods.value", "the goods stacks cannot give every player his starting goods"));
        }

        let harbour = per_player_count("harbour", &file.harbour, 2..=4, |field, _, h| {
            let large = h.large.within(&format!("{field}.large"), 0, 6)?;
            let small = h.small.within(&format!("{field}.small"), 0, 6)?;
            if large + small > MAX_HARBOUR as u32 {
                return Err(EngineError::data(field, format!("more than {MAX_HARBOUR} ships")));
            }
            if large + small <= rules.fleet_leaves_at as u32 {
                return Err(EngineError::data(field, format!(
                    "{} ships: the fleet would leave at once (it leaves at {} or fewer)", large + small, rules.fleet_leaves_at)));
            }
            Ok([large as u8, small as u8])
        })?;
        let to_win = per_player_count("victory_points_to_win", &file.victory_points_to_win, 2..=4, |field, _, s| s.within(field, 1, 1000))?;

        // Action cards.
        if file.action_cards.len() > MAX_DESIGNS {
            return Err(EngineError::data("action_cards", format!("more than {MAX_DESIGNS} kinds of card")));
        }
        let mut designs: Vec<Design> = Vec::new();
        let mut specials = Vec::new();
        let mut normal_per_deck = [0u32; 3];
        for (i, c) in file.action_cards.iter().enumerate() {
            let f = |field: &str| format!("action_cards[{i}].{field}");
            within(f("count"), c.count, 1, 60)?;
            let deck = c.deck as u8;
            let needs_n = |lo: u32, hi: u32| -> Result<u8> {
                match c.goods_count {
                    Some(n) => Ok(within(f("goods_count"), n, lo, hi)? as u8),
                    None => Err(EngineError::data(f("goods_count"), "missing")),
                }
            };
            let needs_cost = || -> Result<u32> {
                match c.cost {
                    Some(v) => within(f("cost"), v, 0, 200),
                    None => Err(EngineError::data(f("cost"), "missing")),
                }
            };
            let allowed: &[&str] = match c.action {
                ActionFile::ReceiveGoods => &["goods"],
                ActionFile::StoreGoods | ActionFile::ReceiveAndStore => &["goods_count", "cost"],
                ActionFile::LoadOrProfit => &["profit"],
                ActionFile::ReceiveGoodsOfChoice | ActionFile::Preservation => &["goods_count"],
                ActionFile::ExchangeGoods | ActionFile::SellGoods | ActionFile::Safe => &[],
            };
            for (field, present) in [
                ("goods", c.goods.is_some()),
                ("goods_count", c.goods_count.is_some()),
                ("cost", c.cost.is_some()),
                ("profit", c.profit.is_some()),
            ] {
                if present && !allowed.contains(&field) {
                    return Err(EngineError::data(f(field), format!("a {:?} card has no {field}", c.action).to_lowercase()));
                }
            }
            let normal_deck = match c.action {
                ActionFile::ReceiveGoods => Some(DeckFile::ReceiveGoods),
                ActionFile::StoreGoods => Some(DeckFile::StoreGoods),
                ActionFile::LoadOrProfit => Some(DeckFile::LoadGoods),
                _ => None,
            };
            if let Some(d) = normal_deck {
                if d != c.deck {
                    return Err(EngineError::data(f("deck"), format!("this card belongs in the {} deck", DECK_KEYS[d as usize])));
                }
            }
            let cap = rules.warehouse_capacity as u32;
            let kind = match c.action {
                ActionFile::ReceiveGoods => {
                    let Some(g) = &c.goods else { return Err(EngineError::data(f("goods"), "missing")) };
                    let a = g.array();
                    for (k, &n) in a.iter().enumerate() {
                        within(format!("action_cards[{i}].goods.{}", GOODS[k]), n, 0, 8)?;
                    }
                    if a.iter().sum::<u32>() == 0 {
                        return Err(EngineError::data(f("goods"), "a Receive Goods card gives at least one good"));
                    }
                    Kind::Receive { goods: a.map(|n| n as u8) }
                }
                ActionFile::StoreGoods => Kind::Store { n: needs_n(1, cap)?, cost: needs_cost()? },
                ActionFile::LoadOrProfit => match c.profit {
                    Some(p) => Kind::LoadOrProfit { profit: within(f("profit"), p, 0, 200)? },
                    None => return Err(EngineError::data(f("profit"), "missing")),
                },
                ActionFile::ReceiveGoodsOfChoice => Kind::ReceiveChoice { n: needs_n(1, 8)? },
                ActionFile::Preservation => Kind::Preservation { n: needs_n(1, 8)? },
                ActionFile::ReceiveAndStore => Kind::ReceiveAndStore { n: needs_n(1, cap)?, cost: needs_cost()? },
                ActionFile::ExchangeGoods => Kind::Exchange,
                ActionFile::SellGoods => Kind::Sell,
                ActionFile::Safe => Kind::Safe,
            };
            let name = match kind {
                Kind::Receive { goods } => format!("Receive {}", goods_phrase(&goods)),
                Kind::Store { n, cost } => format!("Store {} for {cost} guilders", goods_count(n as u32)),
                Kind::LoadOrProfit { profit } => format!("Load Goods or Profit {profit}"),
                Kind::ReceiveChoice { n } => format!("Receive {} of choice", goods_count(n as u32)),
                Kind::Preservation { n } => format!("Preservation of {}", goods_count(n as u32)),
                Kind::ReceiveAndStore { n, cost } => format!("Receive and Store {} for {cost} guilders", goods_count(n as u32)),
                Kind::Exchange => "Exchange Goods in Warehouse".into(),
                Kind::Sell => "Sell Goods".into(),
                Kind::Safe => "Safe".into(),
            };
            if designs.iter().any(|d| d.name == name && d.deck == deck) {
                return Err(EngineError::data(format!("action_cards[{i}]"), format!("a second entry for {name:?}: add up the counts")));
            }
            let special = if kind.is_special() {
                if specials.len() >= MAX_SPECIALS {
                    return Err(EngineError::data(format!("action_cards[{i}]"), format!("more than {MAX_SPECIALS} kinds of special card")));
                }
                specials.push(designs.len() as u8);
                Some((specials.len() - 1) as u8)
            } else {
                normal_per_deck[deck as usize] += c.count;
                None
            };
            designs.push(Design { deck, kind, count: c.count as u8, special, name });
        }
        for (d, &n) in normal_per_deck.iter().enumerate() {
            // Enough cards always lie in a deck and its discard pile for the active player to
            // draw as the rules ask, however many special cards the players keep.
            if n < 2 * rules.max_from_deck as u32 {
                return Err(EngineError::data("action_cards", format!(
                    "the {} deck needs at least {} cards that are not special", DECK_KEYS[d], 2 * rules.max_from_deck)));
            }
        }
        // Special names are unique across decks (they are named alone in moves).
        for (i, &a) in specials.iter().enumerate() {
            if specials[..i].iter().any(|&b| designs[b as usize].name == designs[a as usize].name) {
                return Err(EngineError::data("action_cards", format!("two entries for the special card {:?}", designs[a as usize].name)));
            }
        }

        // Ships.
        if file.ships.len() > MAX_SHIP_DESIGNS {
            return Err(EngineError::data("ships", format!("more than {MAX_SHIP_DESIGNS} kinds of ship")));
        }
        let mut ships: Vec<ShipDesign> = Vec::new();
        let mut per_size = [0u32; 2];
        for (i, s) in file.ships.iter().enumerate() {
            let f = |field: &str| format!("ships[{i}].{field}");
            within(f("count"), s.count, 1, 60)?;
            let a = s.goods.array();
            for (k, &n) in a.iter().enumerate() {
                if n > rules.warehouse_capacity as u32 {
                    return Err(EngineError::data(format!("ships[{i}].goods.{}", GOODS[k]), format!(
                        "{n} can never be loaded: a warehouse holds at most {}", rules.warehouse_capacity)));
                }
            }
            let total: u32 = a.iter().sum();
            if total == 0 {
                return Err(EngineError::data(f("goods"), "a ship asks for at least one good"));
            }
            if total > rules.warehouse_capacity as u32 {
                return Err(EngineError::data(f("goods"), format!(
                    "{total} goods can never be loaded: a warehouse holds at most {}", rules.warehouse_capacity)));
            }
            within(f("victory_points"), s.victory_points, 1, 200)?;
            let goods = a.map(|n| n as u8);
            let size = s.size as u8;
            let name = format!("{} ship ({}) worth {} VP", if size == 0 { "large" } else { "small" }, goods_phrase(&goods), s.victory_points);
            if ships.iter().any(|x| x.name == name) {
                return Err(EngineError::data(format!("ships[{i}]"), format!("a second entry for the {name}: add up the counts")));
            }
            per_size[size as usize] += s.count;
            ships.push(ShipDesign { size, goods, vp: s.victory_points, count: s.count as u8, name });
        }
        for (size, &n) in per_size.iter().enumerate() {
            let most = harbour.values().map(|h| h[size] as u32).max().unwrap_or(0);
            if n < most {
                return Err(EngineError::data("ships", format!("{n} {} ships cannot fill a harbour of {most}", SIZES[size])));
            }
        }
        let mut deck_designs: [Vec<u8>; 3] = Default::default();
        for (i, d) in designs.iter().enumerate() {
            deck_designs[d.deck as usize].push(i as u8);
        }
        let mut size_ships: [Vec<u8>; 2] = Default::default();
        for (i, x) in ships.iter().enumerate() {
            size_ships[x.size as usize].push(i as u8);
        }
        Ok(Data { file, rules, designs, specials, ships, deck_designs, size_ships, harbour, to_win })
    }
}

/// A number of goods of any kind: "1 good", "2 goods".
pub fn goods_count(n: u32) -> String {
    plural(n, "good", "goods")
}

/// `n` goods of kind `g`: "1 apple", "2 apples", "0 spices".
pub fn count_of(n: u32, g: usize) -> String {
    plural(n, GOOD[g], GOODS[g])
}

/// An amount of money: "1 guilder", "5 guilders".
pub fn guilders(n: u32) -> String {
    plural(n, "guilder", "guilders")
}

/// "2 apples, 1 spice".
pub fn goods_phrase(goods: &[u8; 4]) -> String {
    let parts: Vec<String> =
        (0..4).filter(|&g| goods[g] > 0).map(|g| count_of(goods[g] as u32, g)).collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(", ")
    }
}

impl Data {
    pub fn kind(&self, design: u8) -> Kind {
        self.designs[design as usize].kind
    }
    pub fn name(&self, design: u8) -> &str {
        &self.designs[design as usize].name
    }
    pub fn num_cards(&self) -> usize {
        self.designs.iter().map(|d| d.count as usize).sum()
    }
}
