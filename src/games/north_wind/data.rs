//! North Wind's component data: the file format (every value marked printed or
//! reconstructed), its validation (errors name the offending field) and the compiled
//! tables the rules read.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::data::{data_file, is_zero, per_player_count, sourced_record, sourced_values, within, ComponentData};
pub use crate::engine::data::{Source, Sourced};
use crate::engine::{EngineError, Result};

pub const GOODS: [&str; 5] = ["grain", "fish", "salt", "wood", "wine"];
pub const PORTS: [&str; 3] = ["Northcape", "Trutzhaven", "Olesand"];
/// The five advantage slots: four in the cabin and the crow's nest (lookout).
pub const CREW_SLOTS: [&str; 5] = ["boatswain", "bookkeeper", "gunner", "treasurer", "lookout"];
pub const BOATSWAIN: u8 = 0;
pub const BOOKKEEPER: u8 = 1;
pub const GUNNER: u8 = 2;
pub const TREASURER: u8 = 3;
pub const LOOKOUT: u8 = 4;
pub const WINE: usize = 4;

/// Most card kinds that may come in several identical copies (the size of the knowledge tables).
pub const MAX_MULTI_TYPES: usize = 4;
/// Most cards a player can see from one stack in one voyage, plus one.
pub const RUN_LEN: usize = 9;
pub const MAX_CONTRACTS: usize = 16;
pub const MAX_CARDS: usize = 32;

sourced_values! {
    pub struct RulesFile {
        sea_card_stacks,
        starting_gold,
        gold_total,
        starting_trade_letters,
        trade_letters_max_held,
        trade_letters_total,
        crew_per_player,
        cannons_per_player,
        starting_cannons,
        starting_sail_level,
        max_sail_level,
        hold_slots,
        max_goods_per_kind,
        prison_slots,
        goods_per_kind,
        pirate_captains,
        actions_per_voyage,
        poor_income,
        treasurer_income,
        shipwreck_gold,
        trading_port_max_units,
        pirate_toll,
        treasure_gold,
        full_prison_gold,
        bookkeeper_bonus,
        boatswain_transactions,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardKindFile {
    Destination,
    Fog,
    TradingPort,
    OutfittingPort,
    Merchant,
    Shipwreck,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GoodFile {
    Grain,
    Fish,
    Salt,
    Wood,
    Wine,
}

sourced_record! {
    pub struct CardFile {
        pub name: String,
        pub kind: CardKindFile,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub good: Option<GoodFile>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub price: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub port: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub count: Option<u32>,
    }
}

sourced_record! {
    pub struct ContractFile {
        #[serde(default, skip_serializing_if = "is_zero")]
        pub grain: u32,
        #[serde(default, skip_serializing_if = "is_zero")]
        pub fish: u32,
        #[serde(default, skip_serializing_if = "is_zero")]
        pub salt: u32,
        #[serde(default, skip_serializing_if = "is_zero")]
        pub wood: u32,
        #[serde(default, skip_serializing_if = "is_zero")]
        pub wine: u32,
        #[serde(default, skip_serializing_if = "is_zero")]
        pub gold: u32,
        #[serde(default, skip_serializing_if = "is_zero")]
        pub captains: u32,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EventFaceKind {
    Treasure,
    Pirates,
}

sourced_record! {
    pub struct EventFaceFile {
        pub face: EventFaceKind,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub strength: Option<u32>,
        pub count: u32,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CombatFaceKind {
    Hit,
    Double,
    Miss,
}

sourced_record! {
    pub struct CombatFaceFile {
        pub face: CombatFaceKind,
        pub count: u32,
    }
}

data_file! {
    pub struct DataFile {
        pub rules: RulesFile,
        pub victory_tokens: BTreeMap<String, Sourced>,
        pub sea_cards: Vec<CardFile>,
        pub contracts: BTreeMap<String, Vec<ContractFile>>,
        pub event_die: Vec<EventFaceFile>,
        pub combat_die: Vec<CombatFaceFile>,
    }
}

/// What a sea card does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Destination { port: u8 },
    Fog,
    TradingPort { good: u8, price: u8 },
    OutfittingPort { price: u8 },
    Merchant { price: u8 },
    Shipwreck,
}

impl Kind {
    /// Cards whose "A" is underlined: other players may use them with a trade letter.
    pub fn is_trade_card(self) -> bool {
        matches!(self, Kind::TradingPort { .. } | Kind::OutfittingPort { .. } | Kind::Merchant { .. })
    }
}

/// One kind of card (identical copies share a type).
#[derive(Debug, Clone, PartialEq)]
pub struct CardType {
    pub name: String,
    pub kind: Kind,
    pub count: u8,
    /// Index into the knowledge tables when `count > 1`.
    pub multi: Option<u8>,
    pub cards: Vec<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Contract {
    pub goods: [u8; 5],
    pub gold: u32,
    pub captains: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventOutcome {
    Treasure,
    Pirates(u8),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CombatOutcome {
    Hit,
    Double,
    Miss,
}

/// The numbers of the rules, as read from the data file.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    pub starting_gold: u32,
    /// All the gold of the game (the bank's coins at the start plus the players' gold).
    pub gold_total: u32,
    pub starting_letters: u8,
    pub max_letters: u8,
    pub letters_total: u8,
    pub crew_per_player: u8,
    pub cannons_per_player: u8,
    pub starting_cannons: u8,
    pub starting_sail: u8,
    pub max_sail: u8,
    pub hold_slots: u8,
    pub max_per_kind: u8,
    pub prison_slots: u8,
    pub goods_per_kind: u8,
    pub captains_total: u8,
    pub actions_per_voyage: u8,
    pub poor_income: u32,
    pub treasurer_income: u32,
    pub shipwreck_gold: u32,
    pub port_max_units: u8,
    pub pirate_toll: u32,
    pub treasure_gold: u32,
    pub full_prison_gold: u32,
    pub bookkeeper_bonus: u32,
    pub boatswain_transactions: u8,
}

/// The compiled component data.
#[derive(Debug, Clone, PartialEq)]
pub struct Data {
    pub file: DataFile,
    pub rules: Rules,
    /// Type of each card instance.
    pub card_type: Vec<u8>,
    /// Kind of each card instance (`types[card_type[c]].kind`, kept flat for the hot paths).
    pub card_kind: Vec<Kind>,
    /// A unique label per card instance ("Fog#2").
    pub card_label: Vec<String>,
    pub types: Vec<CardType>,
    /// The types with more than one card (those with a `multi` index), as a bit set.
    pub multi_types: u32,
    /// Card id of each port's destination card.
    pub destination_card: [u8; 3],
    /// The cards dealt at setup (all but the destinations), in id order.
    pub deal_cards: Vec<u8>,
    /// Non-destination cards per stack.
    pub slots_per_stack: u8,
    pub contracts: [Vec<Contract>; 3],
    pub event_faces: Vec<(EventOutcome, u32)>,
    pub event_total: u32,
    pub combat_faces: Vec<(CombatOutcome, u32)>,
    pub combat_total: u32,
    /// Victory point tokens (= tokens needed to win) by player count.
    pub tokens: BTreeMap<usize, u8>,
}

/// The faces of the die at `section`, each read by `face` into its outcome and count: every
/// count in 1..=100, no outcome twice, and at least one face.
fn die_faces<F, O: PartialEq>(section: &str, faces: &[F], mut face: impl FnMut(usize, &F) -> Result<(O, u32)>) -> Result<Vec<(O, u32)>> {
    let mut out = Vec::new();
    for (i, f) in faces.iter().enumerate() {
        let (o, count) = face(i, f)?;
        within(format!("{section}[{i}].count"), count, 1, 100)?;
        if out.iter().any(|(x, _)| *x == o) {
            return Err(EngineError::data(format!("{section}[{i}]"), "the same face twice: add up the counts"));
        }
        out.push((o, count));
    }
    if out.is_empty() {
        return Err(EngineError::data(section, "the die needs faces"));
    }
    Ok(out)
}

impl ComponentData for Data {
    type File = DataFile;
    const SHIPPED: &'static str = include_str!("data.json");
    const GAME: &'static str = "north-wind";

    fn file(&self) -> &DataFile {
        &self.file
    }

    fn compile(file: DataFile) -> Result<Data> {
        let r = &file.rules;
        if r.sea_card_stacks.value != 3 {
            return Err(EngineError::data("rules.sea_card_stacks.value", "North Wind has exactly 3 stacks, one per destination port"));
        }
        let max_sail = r.max_sail_level.within("rules.max_sail_level", 1, 7)? as u8;
        let rules = Rules {
            starting_gold: r.starting_gold.within("rules.starting_gold", 0, 1000)?,
            gold_total: r.gold_total.within("rules.gold_total", 0, 10_000)?,
            starting_letters: r.starting_trade_letters.within("rules.starting_trade_letters", 0, 8)? as u8,
            max_letters: r.trade_letters_max_held.within("rules.trade_letters_max_held", 0, 8)? as u8,
            letters_total: r.trade_letters_total.within("rules.trade_letters_total", 0, 64)? as u8,
            crew_per_player: r.crew_per_player.within("rules.crew_per_player", 0, 5)? as u8,
            cannons_per_player: r.cannons_per_player.within("rules.cannons_per_player", 0, 8)? as u8,
            starting_cannons: r.starting_cannons.within("rules.starting_cannons", 0, r.cannons_per_player.value)? as u8,
            starting_sail: r.starting_sail_level.within("rules.starting_sail_level", 1, max_sail as u32)? as u8,
            max_sail,
            hold_slots: r.hold_slots.within("rules.hold_slots", 1, 20)? as u8,
            max_per_kind: r.max_goods_per_kind.within("rules.max_goods_per_kind", 1, 20)? as u8,
            prison_slots: r.prison_slots.within("rules.prison_slots", 0, 8)? as u8,
            goods_per_kind: r.goods_per_kind.within("rules.goods_per_kind", 0, 64)? as u8,
            captains_total: r.pirate_captains.within("rules.pirate_captains", 0, 64)? as u8,
            actions_per_voyage: r.actions_per_voyage.within("rules.actions_per_voyage", 1, 8)? as u8,
            poor_income: r.poor_income.within("rules.poor_income", 0, 100)?,
            treasurer_income: r.treasurer_income.within("rules.treasurer_income", 0, 100)?,
            shipwreck_gold: r.shipwreck_gold.within("rules.shipwreck_gold", 0, 100)?,
            port_max_units: r.trading_port_max_units.within("rules.trading_port_max_units", 1, 2)? as u8,
            pirate_toll: r.pirate_toll.within("rules.pirate_toll", 0, 100)?,
            treasure_gold: r.treasure_gold.within("rules.treasure_gold", 0, 100)?,
            full_prison_gold: r.full_prison_gold.within("rules.full_prison_gold", 0, 100)?,
            bookkeeper_bonus: r.bookkeeper_bonus.within("rules.bookkeeper_bonus", 0, 100)?,
            boatswain_transactions: r.boatswain_transactions.within("rules.boatswain_transactions", 1, 2)? as u8,
        };

        if rules.starting_letters > rules.max_letters {
            return Err(EngineError::data("rules.starting_trade_letters.value", format!(
                "{} letters at the start, but a player may hold at most {}", rules.starting_letters, rules.max_letters)));
        }

        // Victory tokens.
        let tokens = per_player_count("victory_tokens", &file.victory_tokens, 2..=4, |field, _, s| Ok(s.within(field, 1, 40)? as u8))?;

        // Sea cards.
        let mut types: Vec<CardType> = Vec::new();
        let mut card_type = Vec::new();
        let mut card_label = Vec::new();
        let mut destination_card = [u8::MAX; 3];
        let mut multi = 0u8;
        for (i, c) in file.sea_cards.iter().enumerate() {
            let f = |field: &str| format!("sea_cards[{i}].{field}");
            if c.name.trim().is_empty() {
                return Err(EngineError::data(f("name"), "empty name"));
            }
            if types.iter().any(|t| t.name == c.name) {
                return Err(EngineError::data(f("name"), format!("duplicate card name {:?}", c.name)));
            }
            let count = within(f("count"), c.count.unwrap_or(1), 1, 16)?;
            let needs = |has: bool, field: &str, kind: &str| -> Result<()> {
                if has {
                    Ok(())
                } else {
                    Err(EngineError::data(f(field), format!("a {kind} card needs a {field}")))
                }
            };
            let forbids = |has: bool, field: &str, kind: &str| -> Result<()> {
                if has {
                    Err(EngineError::data(f(field), format!("a {kind} card has no {field}")))
                } else {
                    Ok(())
                }
            };
            let price = |p: Option<u32>| -> Result<u8> {
                match p {
                    Some(v) => Ok(within(f("price"), v, 1, 50)? as u8),
                    None => Err(EngineError::data(f("price"), "missing")),
                }
            };
            let kind = match c.kind {
                CardKindFile::Destination => {
                    forbids(c.good.is_some(), "good", "destination")?;
                    forbids(c.price.is_some(), "price", "destination")?;
                    needs(c.port.is_some(), "port", "destination")?;
                    let port = c.port.as_deref().unwrap();
                    let Some(pi) = PORTS.iter().position(|p| *p == port) else {
                        return Err(EngineError::data(f("port"), format!("{port:?} is not one of {PORTS:?}")));
                    };
                    if count != 1 {
                        return Err(EngineError::data(f("count"), "each destination port has exactly one card"));
                    }
                    if destination_card[pi] != u8::MAX {
                        return Err(EngineError::data(f("port"), format!("a second card for {port}")));
                    }
                    destination_card[pi] = card_type.len() as u8;
                    Kind::Destination { port: pi as u8 }
                }
                CardKindFile::TradingPort => {
                    forbids(c.port.is_some(), "port", "trading_port")?;
                    needs(c.good.is_some(), "good", "trading_port")?;
                    Kind::TradingPort { good: c.good.unwrap() as u8, price: price(c.price)? }
                }
                CardKindFile::OutfittingPort | CardKindFile::Merchant => {
                    let kn = if c.kind == CardKindFile::Merchant { "merchant" } else { "outfitting_port" };
                    forbids(c.port.is_some(), "port", kn)?;
                    forbids(c.good.is_some(), "good", kn)?;
                    let p = price(c.price)?;
                    if c.kind == CardKindFile::Merchant {
                        Kind::Merchant { price: p }
                    } else {
                        Kind::OutfittingPort { price: p }
                    }
                }
                CardKindFile::Fog | CardKindFile::Shipwreck => {
                    let kn = if c.kind == CardKindFile::Fog { "fog" } else { "shipwreck" };
                    forbids(c.port.is_some(), "port", kn)?;
                    forbids(c.good.is_some(), "good", kn)?;
                    forbids(c.price.is_some(), "price", kn)?;
                    if c.kind == CardKindFile::Fog {
                        Kind::Fog
                    } else {
                        Kind::Shipwreck
                    }
                }
            };
            let m = if count > 1 {
                if multi as usize >= MAX_MULTI_TYPES {
                    return Err(EngineError::data(f("count"), format!("at most {MAX_MULTI_TYPES} kinds of card may have several copies")));
                }
                multi += 1;
                Some(multi - 1)
            } else {
                None
            };
            let t = types.len() as u8;
            let mut ids = Vec::new();
            for k in 0..count {
                ids.push(card_type.len() as u8);
                card_type.push(t);
                card_label.push(if count > 1 { format!("{}#{}", c.name, k + 1) } else { c.name.clone() });
                if card_type.len() > MAX_CARDS {
                    return Err(EngineError::data("sea_cards", format!("more than {MAX_CARDS} sea cards")));
                }
            }
            types.push(CardType { name: c.name.clone(), kind, count: count as u8, multi: m, cards: ids });
        }
        for (pi, port) in PORTS.iter().enumerate() {
            if destination_card[pi] == u8::MAX {
                return Err(EngineError::data("sea_cards", format!("no destination card for {port}")));
            }
        }
        let deal_cards: Vec<u8> = (0..card_type.len() as u8)
            .filter(|&c| !matches!(types[card_type[c as usize] as usize].kind, Kind::Destination { .. }))
            .collect();
        if deal_cards.is_empty() || deal_cards.len() % 3 != 0 {
            return Err(EngineError::data("sea_cards", format!(
                "the {} non-destination cards must split evenly into 3 stacks", deal_cards.len())));
        }
        let slots_per_stack = (deal_cards.len() / 3) as u8;
        if slots_per_stack < max_sail {
            return Err(EngineError::data("rules.max_sail_level.value", format!(
                "a stack holds {} cards besides its port: too few for a range of {max_sail} after a lookout's slide",
                slots_per_stack)));
        }

        // Contracts.
        let mut contracts: [Vec<Contract>; 3] = Default::default();
        for key in file.contracts.keys() {
            if !PORTS.contains(&key.as_str()) {
                return Err(EngineError::data(format!("contracts.{key}"), format!("not a destination port; ports are {PORTS:?}")));
            }
        }
        for (pi, port) in PORTS.iter().enumerate() {
            let Some(list) = file.contracts.get(*port) else {
                return Err(EngineError::data(format!("contracts.{port}"), "missing"));
            };
            if list.is_empty() || list.len() > MAX_CONTRACTS {
                return Err(EngineError::data(format!("contracts.{port}"), format!("{} contracts; 1..={MAX_CONTRACTS} allowed", list.len())));
            }
            for (i, c) in list.iter().enumerate() {
                let goods = [c.grain, c.fish, c.salt, c.wood, c.wine];
                for (g, &n) in goods.iter().enumerate() {
                    if n > rules.max_per_kind as u32 {
                        return Err(EngineError::data(format!("contracts.{port}[{i}].{}", GOODS[g]), format!(
                            "{n} can never be held (at most {} of a kind)", rules.max_per_kind)));
                    }
                }
                // Only the game's pieces can be delivered: a contract asking for more of a good
                // (or more captains) than the game has can never be fulfilled.
                for (g, &n) in goods.iter().enumerate() {
                    if n > rules.goods_per_kind as u32 {
                        return Err(EngineError::data("rules.goods_per_kind.value", format!(
                            "{} pieces of each good, and contract {} of {port} asks for {n} {}: it could never be fulfilled",
                            rules.goods_per_kind, i + 1, GOODS[g])));
                    }
                }
                if c.captains > rules.captains_total as u32 {
                    return Err(EngineError::data("rules.pirate_captains.value", format!(
                        "{} pirate captains, and contract {} of {port} asks for {}: it could never be fulfilled",
                        rules.captains_total, i + 1, c.captains)));
                }
                if c.captains > rules.prison_slots as u32 {
                    return Err(EngineError::data(format!("contracts.{port}[{i}].captains"), format!(
                        "{} can never be held (prison of {})", c.captains, rules.prison_slots)));
                }
                if goods.iter().sum::<u32>() > rules.hold_slots as u32 {
                    return Err(EngineError::data(format!("contracts.{port}[{i}]"), "more goods than a hold can carry"));
                }
                if c.gold > 1000 {
                    return Err(EngineError::data(format!("contracts.{port}[{i}].gold"), "more than 1000"));
                }
                if goods.iter().sum::<u32>() + c.gold + c.captains == 0 {
                    return Err(EngineError::data(format!("contracts.{port}[{i}]"), "a contract must ask for something"));
                }
                contracts[pi].push(Contract {
                    goods: goods.map(|n| n as u8),
                    gold: c.gold,
                    captains: c.captains as u8,
                });
            }
        }

        // Dice.
        let event_faces = die_faces("event_die", &file.event_die, |i, e| {
            let o = match (e.face, e.strength) {
                (EventFaceKind::Treasure, None) => EventOutcome::Treasure,
                (EventFaceKind::Treasure, Some(_)) => {
                    return Err(EngineError::data(format!("event_die[{i}].strength"), "a treasure face has no strength"))
                }
                (EventFaceKind::Pirates, Some(s)) if (1..=8).contains(&s) => EventOutcome::Pirates(s as u8),
                (EventFaceKind::Pirates, _) => {
                    return Err(EngineError::data(format!("event_die[{i}].strength"), "a pirates face needs a strength in 1..=8"))
                }
            };
            Ok((o, e.count))
        })?;
        let combat_faces = die_faces("combat_die", &file.combat_die, |_, e| {
            let o = match e.face {
                CombatFaceKind::Hit => CombatOutcome::Hit,
                CombatFaceKind::Double => CombatOutcome::Double,
                CombatFaceKind::Miss => CombatOutcome::Miss,
            };
            Ok((o, e.count))
        })?;
        let event_total = event_faces.iter().map(|f| f.1).sum();
        let combat_total = combat_faces.iter().map(|f| f.1).sum();
        let card_kind = card_type.iter().map(|&t| types[t as usize].kind).collect();
        let multi_types = types.iter().enumerate().filter(|(_, t)| t.multi.is_some()).fold(0u32, |m, (i, _)| m | 1 << i);
        Ok(Data {
            file,
            rules,
            card_type,
            card_kind,
            card_label,
            types,
            multi_types,
            destination_card,
            deal_cards,
            slots_per_stack,
            contracts,
            event_faces,
            event_total,
            combat_faces,
            combat_total,
            tokens,
        })
    }
}

impl Data {
    pub fn kind(&self, card: u8) -> Kind {
        self.card_kind[card as usize]
    }
    pub fn num_cards(&self) -> usize {
        self.card_type.len()
    }
}
