//! Mistwind's component data: the file format (every value marked printed or reconstructed),
//! its validation (errors name the offending field) and the compiled tables the rules read.
//!
//! The boards' sides are keyed by their letter (`"A"`), the network tiles' sides by their
//! player counts (`"1-3"`, `"4-5"`), so that side B and the automa games add entries, not a
//! new format.

use std::collections::BTreeMap;

use crate::engine::data::{data_file, data_struct, sourced_record, sourced_values, ComponentData};
pub use crate::engine::data::{Source, Sourced};
use crate::engine::{EngineError, Result};

/// The four resources, in the order of the player board.
pub const RESOURCES: [&str; 4] = ["wood", "steel", "krill", "coins"];
pub const WOOD: usize = 0;
pub const STEEL: usize = 1;
pub const KRILL: usize = 2;
pub const COINS: usize = 3;
pub const REGIONS: usize = 4;
pub const CARGO_TYPES: usize = 6;
/// The most ports a map may have (ports are kept as bit sets).
pub const MAX_PORTS: usize = 32;
pub const MAX_CHARACTERS: usize = 64;
pub const MAX_PORT_CARDS: usize = 32;
pub const MAX_NETWORK_CARDS: usize = 16;
pub const DIFFICULTIES: [&str; 3] = ["easy", "medium", "hard"];
pub const LETTERS: [&str; 4] = ["A", "B", "C", "D"];
/// A port's cargo: one of the cargo types, or krill.
pub const KRILL_CARGO: u8 = 6;
pub const NO_CARGO: u8 = u8::MAX;

data_struct! {
    /// Resources as the data file writes them (`{"wood": 2, "coins": 1}`).
    #[derive(Copy, Eq, Default)]
    pub struct ResFile {
        #[serde(default, skip_serializing_if = "is_zero")]
        pub wood: u8,
        #[serde(default, skip_serializing_if = "is_zero")]
        pub steel: u8,
        #[serde(default, skip_serializing_if = "is_zero")]
        pub krill: u8,
        #[serde(default, skip_serializing_if = "is_zero")]
        pub coins: u8,
    }
}

impl ResFile {
    pub fn array(&self) -> [u8; 4] {
        [self.wood, self.steel, self.krill, self.coins]
    }
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

sourced_values! {
    pub struct RulesFile {
        rounds_up_to_4_players,
        rounds_5_players,
        starting_steel,
        starting_wood,
        starting_coins,
        starting_krill_first_seat,
        discards_per_round,
        discards_per_round_5_players,
        outpost_wood,
        outpost_steel,
        whale_wood,
        whale_steel,
        krill_to_leave,
        row_size,
        territory_demand_per_region,
        capital_demand_per_region,
        network_card_discard_after_round,
        start_marker_points,
        territory_tile_points,
        capital_tile_points,
        majority_points,
    }
}

sourced_values! {
    pub struct ComponentsFile {
        cargo_markers,
        territory_demand_tiles,
        capital_demand_tiles,
        achievement_tiles,
        network_tiles,
        character_cards,
        port_cards,
        network_cards,
        whales_per_player,
        outposts_per_player,
        chips_per_player,
        control_markers_per_player,
    }
}

data_struct! {
    pub struct CargoFile {
        pub types: Vec<String>,
        pub markers_per_type: Sourced,
    }
}

sourced_record! {
    pub struct ChoicesFile {
        pub choices: Vec<Vec<String>>,
    }
}

sourced_record! {
    pub struct PortFile {
        pub name: String,
        pub region: String,
        /// "capital" or "territory".
        pub kind: String,
        /// A territory port's cargo: a cargo type or "krill".
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub cargo: Option<String>,
    }
}

sourced_record! {
    pub struct ConnectionsFile {
        pub pairs: Vec<[String; 2]>,
    }
}

sourced_record! {
    pub struct DemandFile {
        pub region: String,
        /// "territory" or "capital".
        pub kind: String,
        pub cargo: String,
        pub count: u8,
    }
}

sourced_record! {
    pub struct ResourceFieldFile {
        /// Side A: "gain" (the default). Side B: "named by the left neighbour", "income",
        /// "gain and one from the left", "three and two" (`RESOURCE_ABILITIES`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub ability: Option<String>,
        #[serde(default)]
        pub gain: ResFile,
        /// "named by the left neighbour": how many resources (one number); "three and two": the
        /// two amounts, each of its own type (two numbers).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub amounts: Vec<u8>,
        /// "income": the two resources to choose from.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub choices: Vec<String>,
    }
}

sourced_record! {
    pub struct WorkerFieldFile {
        /// Side A: "build an outpost anywhere", "gain", "free whale moves", "start player",
        /// "build a whale anywhere". Side B: "draw characters, keep one, give one", "buy an
        /// outpost with coins", "long whale move", "start player and trades", "use an occupied
        /// field" (`WORKER_ABILITIES`).
        pub ability: String,
        #[serde(default)]
        pub gain: ResFile,
        /// Side B: "draw characters, keep one, give one": the cards drawn; "buy an outpost with
        /// coins": the price at a port without other outposts, and the coins to each occupant;
        /// "long whale move": the free fields, and the resources paid per further field; "start
        /// player and trades": the players to trade with; "use an occupied field": the resources
        /// paid.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub amounts: Vec<u8>,
    }
}

sourced_record! {
    pub struct CharacterFile {
        pub name: String,
        /// "immediate", "one-time", "permanent" or "end-game" (the rulebook's four kinds).
        pub kind: String,
        pub cost: ResFile,
        /// The victory points printed on the card (scoring category 7).
        pub vp: u8,
        #[serde(default)]
        pub gain: ResFile,
        /// "free whale moves", "cheap outposts", "extra take", "coin per delivery".
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub ability: Option<String>,
        /// An end-game card's count: "outpost region", "capital tile", "territory tile", "whale",
        /// "achievement", "network tile".
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub per: Option<String>,
        #[serde(default, skip_serializing_if = "is_zero")]
        pub per_vp: u8,
    }
}

data_struct! {
    pub struct BonusFile {
        #[serde(default)]
        pub gain: ResFile,
        /// A free outpost in the card's port.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub outpost: bool,
    }
}

sourced_record! {
    pub struct PortCardFile {
        pub port: String,
        pub bonus: BonusFile,
    }
}

sourced_record! {
    pub struct NetworkCardFile {
        pub difficulty: String,
        pub port: String,
        pub destinations: [String; 2],
        pub full: u8,
        pub partial: u8,
    }
}

sourced_record! {
    pub struct AchievementFile {
        pub letter: String,
        /// "outposts", "outpost regions", "whales", "capital tiles", "territory tiles",
        /// "demand tiles", "demand regions", "characters", "network tiles", "each resource".
        pub requirement: String,
        pub count: u8,
        pub vp: u8,
    }
}

data_struct! {
    #[derive(Copy)]
    pub struct TileSideFile {
        pub upper: u8,
        pub lower: u8,
    }
}

sourced_record! {
    pub struct NetworkTileFile {
        pub region: String,
        pub destination: String,
        /// By player counts: "1-3" and "4-5".
        pub sides: BTreeMap<String, TileSideFile>,
    }
}

sourced_record! {
    /// The 2-player rules' zones 1 to 4 (the automa players' placement order), by location.
    pub struct ZonesFile {
        /// Zone 1 first: "resource board", "character row", "worker board", "port row".
        pub zones: Vec<String>,
    }
}

data_file! {
    pub struct DataFile {
        pub rules: RulesFile,
        pub components: ComponentsFile,
        pub regions: Vec<String>,
        pub cargo: CargoFile,
        pub territory_bottom_choices: ChoicesFile,
        pub ports: Vec<PortFile>,
        pub connections: ConnectionsFile,
        pub demand_tiles: Vec<DemandFile>,
        pub resource_board: BTreeMap<String, Vec<ResourceFieldFile>>,
        pub worker_board: BTreeMap<String, Vec<WorkerFieldFile>>,
        pub characters: Vec<CharacterFile>,
        pub port_cards: Vec<PortCardFile>,
        pub network_cards: Vec<NetworkCardFile>,
        pub achievements: Vec<AchievementFile>,
        pub network_tiles: Vec<NetworkTileFile>,
        pub automa_zones: ZonesFile,
        /// The solo mode's goals ("How to Win the Game"), easy first.
        pub solo_goals: Vec<GoalFile>,
    }
}

sourced_record! {
    /// A solo difficulty goal: a network card fulfilled or not, and the least achievement tiles,
    /// network tiles and points.
    pub struct GoalFile {
        /// "easy", "medium" or "hard".
        pub difficulty: String,
        pub name: String,
        pub network_card: bool,
        pub achievements: u32,
        pub network_tiles: u32,
        pub points: u32,
    }
}

/// A solo goal, compiled.
#[derive(Debug, Clone, PartialEq)]
pub struct Goal {
    pub name: String,
    pub network_card: bool,
    pub achievements: u32,
    pub network_tiles: u32,
    pub points: u32,
}

/// The solo difficulties, in the order of the goals.
pub const DIFFICULTY_LEVELS: [&str; 3] = ["easy", "medium", "hard"];

/// The locations of numbered fields, in the order of the rulebook's "Numbered fields exist in
/// the following locations" (I to IV); the indices are `actions::RESOURCE_BOARD` and the others.
pub const LOCATION_NAMES: [&str; 4] = ["resource board", "character row", "worker board", "port row"];

/// The numbers of the rules.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleNumbers {
    pub rounds_4: u8,
    pub rounds_5: u8,
    /// Wood, steel, krill (of the first seat), coins at the start.
    pub start: [u8; 4],
    pub discards: u8,
    pub discards_5: u8,
    pub outpost_cost: [u8; 4],
    pub whale_cost: [u8; 4],
    pub krill_to_leave: u8,
    pub discard_after_round: u8,
    pub start_marker_points: u32,
    pub territory_points: u32,
    pub capital_points: u32,
    pub majority_points: u32,
    pub whales: u8,
    pub outposts: u8,
    pub markers: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Port {
    pub region: u8,
    pub capital: bool,
    /// A cargo type, [`KRILL_CARGO`], or [`NO_CARGO`] (capitals).
    pub cargo: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ability {
    None,
    FreeMoves,
    CheapOutposts,
    ExtraTake,
    CoinPerDelivery,
}

pub const ABILITIES: [(&str, Ability); 4] = [
    ("free whale moves", Ability::FreeMoves),
    ("cheap outposts", Ability::CheapOutposts),
    ("extra take", Ability::ExtraTake),
    ("coin per delivery", Ability::CoinPerDelivery),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CharKind {
    Immediate,
    OneTime,
    Permanent,
    EndGame,
}

pub const CHAR_KINDS: [(&str, CharKind); 4] = [
    ("immediate", CharKind::Immediate),
    ("one-time", CharKind::OneTime),
    ("permanent", CharKind::Permanent),
    ("end-game", CharKind::EndGame),
];

/// What an end-game character counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    None,
    OutpostRegions,
    CapitalTiles,
    TerritoryTiles,
    DemandTiles,
    DemandRegions,
    Whales,
    Outposts,
    Achievements,
    NetworkTiles,
    Characters,
    EachResource,
}

pub const PER: [(&str, Count); 6] = [
    ("outpost region", Count::OutpostRegions),
    ("capital tile", Count::CapitalTiles),
    ("territory tile", Count::TerritoryTiles),
    ("whale", Count::Whales),
    ("achievement", Count::Achievements),
    ("network tile", Count::NetworkTiles),
];

pub const REQUIREMENTS: [(&str, Count); 10] = [
    ("outposts", Count::Outposts),
    ("outpost regions", Count::OutpostRegions),
    ("whales", Count::Whales),
    ("capital tiles", Count::CapitalTiles),
    ("territory tiles", Count::TerritoryTiles),
    ("demand tiles", Count::DemandTiles),
    ("demand regions", Count::DemandRegions),
    ("characters", Count::Characters),
    ("network tiles", Count::NetworkTiles),
    ("each resource", Count::EachResource),
];

#[derive(Debug, Clone, PartialEq)]
pub struct Character {
    pub name: String,
    pub kind: CharKind,
    pub cost: [u8; 4],
    pub vp: u8,
    pub gain: [u8; 4],
    pub ability: Ability,
    pub per: Count,
    pub per_vp: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PortCard {
    pub port: u8,
    pub gain: [u8; 4],
    pub outpost: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NetworkCard {
    pub difficulty: u8,
    pub port: u8,
    pub destinations: [u8; 2],
    pub full: u8,
    pub partial: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Achievement {
    pub letter: u8,
    pub requirement: Count,
    pub count: u8,
    pub vp: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NetworkTile {
    pub region: u8,
    pub destination: u8,
    /// Upper and lower field, for 1–3 and for 4–5 players.
    pub sides: [[u8; 2]; 2],
}

/// A resource board field's ability.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResourceAbility {
    /// Side A: take the field's resources.
    Gain,
    /// The player to the left names a type; receive `amounts[0]` resources not of it.
    NamedByLeft,
    /// Whenever another player places a chip on the resource board this round, receive one
    /// of the two `choices`.
    Income,
    /// Take the field's resources, and one resource of your choice from the player to the left.
    GainAndFromLeft,
    /// Receive `amounts[0]` of one type and `amounts[1]` of another; every other player then
    /// takes one resource of the two types.
    ThreeAndTwo,
}

pub const RESOURCE_ABILITIES: [(&str, ResourceAbility); 5] = [
    ("gain", ResourceAbility::Gain),
    ("named by the left neighbour", ResourceAbility::NamedByLeft),
    ("income", ResourceAbility::Income),
    ("gain and one from the left", ResourceAbility::GainAndFromLeft),
    ("three and two", ResourceAbility::ThreeAndTwo),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceField {
    pub ability: ResourceAbility,
    pub gain: [u8; 4],
    pub amounts: [u8; 2],
    /// The two resources of an income field (indices into `RESOURCES`).
    pub choices: [u8; 2],
}

/// The board sides, by letter.
pub const SIDES: [&str; 2] = ["A", "B"];

/// A worker board field's ability.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkerAbility {
    BuildOutpost,
    Gain,
    FreeMoves,
    StartPlayer,
    BuildWhale,
    /// Side B: draw `amounts[0]` characters, keep one and give another to another player.
    DrawAndGive,
    /// Side B: an outpost for `amounts[0]` coins, or `amounts[1]` to each player with an
    /// outpost in the port.
    BuyOutpost,
    /// Side B: a whale moves `amounts[0]` fields free of krill, and further for `amounts[1]`
    /// resource to any player per field, loading or unloading once on the way.
    LongMove,
    /// Side B: the starting player marker and the field's gain; trade 1 resource with each
    /// of up to `amounts[0]` players.
    StartPlayerAndTrade,
    /// Side B: pay `amounts[0]` resource to another player to use a field of the resource or
    /// worker board on which another player's chip lies.
    UseOccupied,
}

pub const WORKER_ABILITIES: [(&str, WorkerAbility); 10] = [
    ("build an outpost anywhere", WorkerAbility::BuildOutpost),
    ("gain", WorkerAbility::Gain),
    ("free whale moves", WorkerAbility::FreeMoves),
    ("start player", WorkerAbility::StartPlayer),
    ("build a whale anywhere", WorkerAbility::BuildWhale),
    ("draw characters, keep one, give one", WorkerAbility::DrawAndGive),
    ("buy an outpost with coins", WorkerAbility::BuyOutpost),
    ("long whale move", WorkerAbility::LongMove),
    ("start player and trades", WorkerAbility::StartPlayerAndTrade),
    ("use an occupied field", WorkerAbility::UseOccupied),
];

impl WorkerAbility {
    /// The field gives its player the starting player marker (an automa player's chip too).
    pub fn takes_marker(self) -> bool {
        matches!(self, WorkerAbility::StartPlayer | WorkerAbility::StartPlayerAndTrade)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkerField {
    pub ability: WorkerAbility,
    pub gain: [u8; 4],
    pub amounts: [u8; 2],
}

/// The compiled component data.
#[derive(Debug, Clone, PartialEq)]
pub struct Data {
    pub file: DataFile,
    pub rules: RuleNumbers,
    pub regions: Vec<String>,
    pub cargo: Vec<String>,
    pub cargo_markers: u8,
    /// The resources each of the two bottom territory demand spaces offers (bottom first).
    pub bottom_choices: [[u8; 2]; 2],
    pub port_names: Vec<String>,
    pub ports: Vec<Port>,
    /// Neighbours of each port, as a bit set.
    pub adjacent: Vec<u32>,
    /// The capital of each region.
    pub capital: [u8; REGIONS],
    /// Demand tiles of each region by cargo type: territory and capital.
    pub territory_tiles: [[u8; CARGO_TYPES]; REGIONS],
    pub capital_tiles: [[u8; CARGO_TYPES]; REGIONS],
    pub territory_row: u8,
    pub capital_row: u8,
    /// The resource board's sides A and B (`None`: the file has no side B); the game's
    /// `resource_board` option chooses one.
    pub resource_sides: [Option<[ResourceField; 5]>; 2],
    /// The worker board's sides A and B (`None`: the file has no side B); the game's
    /// `worker_board` option chooses one.
    pub worker_sides: [Option<[WorkerField; 5]>; 2],
    pub characters: Vec<Character>,
    pub port_cards: Vec<PortCard>,
    pub network_cards: Vec<NetworkCard>,
    pub achievements: Vec<Achievement>,
    pub network_tiles: Vec<NetworkTile>,
    /// The location of each automa zone, zone 1 first (the last one is the port row).
    pub zones: [u8; 4],
    /// The solo goals by difficulty (easy, medium, hard).
    pub goals: Vec<Goal>,
}

fn err(field: impl Into<String>, message: impl Into<String>) -> EngineError {
    EngineError::data(field, message)
}

fn count(field: &str, s: &Sourced, actual: usize) -> Result<()> {
    if s.value as usize != actual {
        return Err(err(format!("{field}.value"), format!("the file has {actual}, the component list says {}", s.value)));
    }
    Ok(())
}

fn lookup<T: Copy>(field: &str, name: &str, table: &[(&str, T)]) -> Result<T> {
    table.iter().find(|(n, _)| *n == name).map(|&(_, t)| t).ok_or_else(|| {
        let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
        err(field, format!("{name:?} is not one of {names:?}"))
    })
}

fn index_of(field: &str, name: &str, names: &[String], what: &str) -> Result<u8> {
    names.iter().position(|n| n == name).map(|i| i as u8).ok_or_else(|| err(field, format!("{name:?} is not a {what}")))
}

/// A name shown in action names and logs: not empty, no spaces at either end, no colon.
fn check_name(field: &str, name: &str) -> Result<()> {
    if name.is_empty() || name.trim() != name || name.contains(':') || name.contains('\n') {
        return Err(err(field, format!("{name:?}: a name is not empty, has no spaces at either end and no colon")));
    }
    Ok(())
}

fn check_names<'a>(field: &str, names: impl Iterator<Item = &'a String>) -> Result<()> {
    let mut seen: Vec<&str> = Vec::new();
    for (i, n) in names.enumerate() {
        check_name(&format!("{field}[{i}]"), n)?;
        if seen.contains(&n.as_str()) {
            return Err(err(format!("{field}[{i}]"), format!("{n:?} is named twice")));
        }
        seen.push(n);
    }
    Ok(())
}

fn resource_index(field: &str, name: &str) -> Result<u8> {
    RESOURCES.iter().position(|r| *r == name).map(|i| i as u8).ok_or_else(|| err(field, format!("{name:?} is not a resource; resources are {RESOURCES:?}")))
}

/// One resource board field, checked: each ability with the numbers it needs.
fn resource_field(field: &str, f: &ResourceFieldFile) -> Result<ResourceField> {
    let ability = match &f.ability {
        None => ResourceAbility::Gain,
        Some(a) => lookup(&format!("{field}.ability"), a, &RESOURCE_ABILITIES)?,
    };
    let gain = f.gain.array();
    let mut choices = [0u8; 2];
    for (j, name) in f.choices.iter().enumerate().take(2) {
        choices[j] = resource_index(&format!("{field}.choices[{j}]"), name)?;
    }
    let mut amounts = [0u8; 2];
    for (j, &n) in f.amounts.iter().enumerate().take(2) {
        amounts[j] = n;
    }
    let (n_amounts, n_choices, has_gain) = match ability {
        ResourceAbility::Gain => (0, 0, true),
        ResourceAbility::NamedByLeft => (1, 0, false),
        ResourceAbility::Income => (0, 2, false),
        ResourceAbility::GainAndFromLeft => (0, 0, true),
        ResourceAbility::ThreeAndTwo => (2, 0, false),
    };
    if f.amounts.len() != n_amounts || amounts.iter().any(|&n| n > 20) || amounts[..n_amounts].contains(&0) {
        return Err(err(format!("{field}.amounts"), format!("this ability takes {n_amounts} amounts, each 1 to 20")));
    }
    if f.choices.len() != n_choices || (n_choices == 2 && choices[0] == choices[1]) {
        return Err(err(format!("{field}.choices"), format!("this ability takes {n_choices} different resources")));
    }
    if has_gain != (gain != [0; 4]) {
        return Err(err(format!("{field}.gain"), if has_gain { "this ability gains resources" } else { "this ability gains no fixed resources" }));
    }
    Ok(ResourceField { ability, gain, amounts, choices })
}

/// A board's sides, keyed by letter (`SIDES`): side A is required, each side has 5 fields,
/// each read by `field` (`None` for a side the file does not have).
fn board_sides<F, T: Copy>(name: &str, file: &BTreeMap<String, Vec<F>>, field: fn(&str, &F) -> Result<T>) -> Result<[Option<[T; 5]>; 2]> {
    if let Some(k) = file.keys().find(|k| !SIDES.contains(&k.as_str())) {
        return Err(err(name, format!("{k:?} is not a side (\"A\" or \"B\")")));
    }
    if !file.contains_key("A") {
        return Err(err(name, "side \"A\" is missing"));
    }
    let mut sides = [None; 2];
    for (k, letter) in SIDES.iter().enumerate() {
        let Some(fields) = file.get(*letter) else { continue };
        if fields.len() != 5 {
            return Err(err(format!("{name}.{letter}"), "a board side has 5 fields"));
        }
        let read: Vec<T> = fields.iter().enumerate().map(|(i, f)| field(&format!("{name}.{letter}[{i}]"), f)).collect::<Result<_>>()?;
        sides[k] = Some([read[0], read[1], read[2], read[3], read[4]]);
    }
    Ok(sides)
}

fn worker_field(field: &str, f: &WorkerFieldFile) -> Result<WorkerField> {
    let ability = lookup(&format!("{field}.ability"), &f.ability, &WORKER_ABILITIES)?;
    let mut amounts = [0u8; 2];
    for (j, &n) in f.amounts.iter().enumerate().take(2) {
        amounts[j] = n;
    }
    let n_amounts = match ability {
        WorkerAbility::DrawAndGive | WorkerAbility::StartPlayerAndTrade | WorkerAbility::UseOccupied => 1,
        WorkerAbility::BuyOutpost | WorkerAbility::LongMove => 2,
        _ => 0,
    };
    if f.amounts.len() != n_amounts || amounts.iter().any(|&n| n > 20) {
        return Err(err(format!("{field}.amounts"), format!("this ability takes {n_amounts} amounts, each 0 to 20")));
    }
    // Two cards to choose between; a trade with at least one player; a resource paid.
    let least = match ability {
        WorkerAbility::DrawAndGive => 2,
        WorkerAbility::StartPlayerAndTrade | WorkerAbility::UseOccupied => 1,
        _ => 0,
    };
    if n_amounts == 1 && amounts[0] < least {
        return Err(err(format!("{field}.amounts"), format!("this ability takes at least {least}")));
    }
    if ability == WorkerAbility::DrawAndGive && amounts[0] != 2 {
        return Err(err(format!("{field}.amounts"), "the cards drawn are 2: one kept, one given"));
    }
    if ability == WorkerAbility::UseOccupied && amounts[0] != 1 {
        return Err(err(format!("{field}.amounts"), "the field is used for 1 resource paid"));
    }
    Ok(WorkerField { ability, gain: f.gain.array(), amounts })
}

impl ComponentData for Data {
    type File = DataFile;
    const SHIPPED: &'static str = include_str!("data.json");
    const GAME: &'static str = "mistwind";

    fn file(&self) -> &DataFile {
        &self.file
    }

    fn compile(file: DataFile) -> Result<Data> {
        let r = &file.rules;
        let rules = RuleNumbers {
            rounds_4: r.rounds_up_to_4_players.within("rules.rounds_up_to_4_players", 1, 10)? as u8,
            rounds_5: r.rounds_5_players.within("rules.rounds_5_players", 1, 10)? as u8,
            start: [
                r.starting_wood.within("rules.starting_wood", 0, 20)? as u8,
                r.starting_steel.within("rules.starting_steel", 0, 20)? as u8,
                r.starting_krill_first_seat.within("rules.starting_krill_first_seat", 0, 20)? as u8,
                r.starting_coins.within("rules.starting_coins", 0, 20)? as u8,
            ],
            discards: r.discards_per_round.within("rules.discards_per_round", 1, 1)? as u8,
            discards_5: r.discards_per_round_5_players.within("rules.discards_per_round_5_players", 1, 2)? as u8,
            outpost_cost: [
                r.outpost_wood.within("rules.outpost_wood", 0, 9)? as u8,
                r.outpost_steel.within("rules.outpost_steel", 0, 9)? as u8,
                0,
                0,
            ],
            whale_cost: [r.whale_wood.within("rules.whale_wood", 0, 9)? as u8, r.whale_steel.within("rules.whale_steel", 0, 9)? as u8, 0, 0],
            krill_to_leave: r.krill_to_leave.within("rules.krill_to_leave", 0, 9)? as u8,
            discard_after_round: r.network_card_discard_after_round.within("rules.network_card_discard_after_round", 1, 10)? as u8,
            start_marker_points: r.start_marker_points.within("rules.start_marker_points", 0, 50)?,
            territory_points: r.territory_tile_points.within("rules.territory_tile_points", 0, 50)?,
            capital_points: r.capital_tile_points.within("rules.capital_tile_points", 0, 50)?,
            majority_points: r.majority_points.within("rules.majority_points", 0, 50)?,
            whales: file.components.whales_per_player.within("components.whales_per_player", 1, 3)? as u8,
            outposts: file.components.outposts_per_player.within("components.outposts_per_player", 1, 32)? as u8,
            markers: file.components.control_markers_per_player.within("components.control_markers_per_player", 0, 8)? as u8,
        };
        r.row_size.within("rules.row_size", 5, 5)?;
        file.components.chips_per_player.within("components.chips_per_player", 5, 5)?;
        let territory_row = r.territory_demand_per_region.within("rules.territory_demand_per_region", 2, 8)? as u8;
        let capital_row = r.capital_demand_per_region.within("rules.capital_demand_per_region", 1, 2)? as u8;
        if rules.discard_after_round >= rules.rounds_4.min(rules.rounds_5) {
            return Err(err("rules.network_card_discard_after_round.value", "the discard must come before the last round"));
        }
        if file.regions.len() != REGIONS {
            return Err(err("regions", format!("the board has {REGIONS} regions")));
        }
        if file.cargo.types.len() != CARGO_TYPES {
            return Err(err("cargo.types", format!("the game has {CARGO_TYPES} cargo types")));
        }
        check_names("regions", file.regions.iter())?;
        check_names("cargo.types", file.cargo.types.iter())?;
        if file.cargo.types.iter().any(|c| c == "krill") {
            return Err(err("cargo.types", "krill is a resource, not a cargo type"));
        }
        check_names("ports", file.ports.iter().map(|p| &p.name))?;
        check_names("characters", file.characters.iter().map(|c| &c.name))?;
        let cargo_markers = file.cargo.markers_per_type.within("cargo.markers_per_type", 1, 50)? as u8;
        count("components.cargo_markers", &file.components.cargo_markers, cargo_markers as usize * CARGO_TYPES)?;
        let cargo_of = |field: &str, name: &str| -> Result<u8> {
            if name == "krill" {
                return Ok(KRILL_CARGO);
            }
            index_of(field, name, &file.cargo.types, "cargo type")
        };
        let region_of = |field: &str, name: &str| index_of(field, name, &file.regions, "region");

        // Ports and the map.
        if file.ports.is_empty() || file.ports.len() > MAX_PORTS {
            return Err(err("ports", format!("from 1 to {MAX_PORTS} ports")));
        }
        let mut ports = Vec::new();
        let mut port_names: Vec<String> = Vec::new();
        let mut capital = [u8::MAX; REGIONS];
        for (i, p) in file.ports.iter().enumerate() {
            let f = |x: &str| format!("ports[{i}].{x}");
            if port_names.contains(&p.name) {
                return Err(err(f("name"), format!("{:?} is named twice", p.name)));
            }
            let region = region_of(&f("region"), &p.region)?;
            let cap = match p.kind.as_str() {
                "capital" => true,
                "territory" => false,
                k => return Err(err(f("kind"), format!("{k:?} is not \"capital\" or \"territory\""))),
            };
            let cargo = match (&p.cargo, cap) {
                (None, true) => NO_CARGO,
                (Some(_), true) => return Err(err(f("cargo"), "a capital offers no cargo")),
                (None, false) => return Err(err(f("cargo"), "a territory port offers a cargo type or krill")),
                (Some(c), false) => cargo_of(&f("cargo"), c)?,
            };
            if cap {
                if capital[region as usize] != u8::MAX {
                    return Err(err(f("kind"), format!("region {:?} has two capitals", p.region)));
                }
                capital[region as usize] = i as u8;
            }
            port_names.push(p.name.clone());
            ports.push(Port { region, capital: cap, cargo });
        }
        if let Some(r) = capital.iter().position(|&c| c == u8::MAX) {
            return Err(err("ports", format!("region {:?} has no capital", file.regions[r])));
        }
        let mut adjacent = vec![0u32; ports.len()];
        for (i, [a, b]) in file.connections.pairs.iter().enumerate() {
            let pa = index_of(&format!("connections.pairs[{i}][0]"), a, &port_names, "port")?;
            let pb = index_of(&format!("connections.pairs[{i}][1]"), b, &port_names, "port")?;
            if pa == pb {
                return Err(err(format!("connections.pairs[{i}]"), "a port is not connected to itself"));
            }
            adjacent[pa as usize] |= 1 << pb;
            adjacent[pb as usize] |= 1 << pa;
        }

        // Demand tiles.
        let mut territory_tiles = [[0u8; CARGO_TYPES]; REGIONS];
        let mut capital_tiles = [[0u8; CARGO_TYPES]; REGIONS];
        for (i, d) in file.demand_tiles.iter().enumerate() {
            let f = |x: &str| format!("demand_tiles[{i}].{x}");
            let region = region_of(&f("region"), &d.region)? as usize;
            let c = cargo_of(&f("cargo"), &d.cargo)?;
            if c == KRILL_CARGO {
                return Err(err(f("cargo"), "no demand tile asks for krill"));
            }
            let t = match d.kind.as_str() {
                "territory" => &mut territory_tiles,
                "capital" => &mut capital_tiles,
                k => return Err(err(f("kind"), format!("{k:?} is not \"territory\" or \"capital\""))),
            };
            t[region][c as usize] = t[region][c as usize].saturating_add(d.count);
        }
        let sum = |t: &[[u8; CARGO_TYPES]; REGIONS]| t.iter().flatten().map(|&c| c as usize).sum::<usize>();
        count("components.territory_demand_tiles", &file.components.territory_demand_tiles, sum(&territory_tiles))?;
        count("components.capital_demand_tiles", &file.components.capital_demand_tiles, sum(&capital_tiles))?;
        for r in 0..REGIONS {
            let t: usize = territory_tiles[r].iter().map(|&c| c as usize).sum();
            let c: usize = capital_tiles[r].iter().map(|&c| c as usize).sum();
            if t < territory_row as usize || c < capital_row as usize {
                return Err(err("demand_tiles", format!("region {:?} has too few tiles for its display", file.regions[r])));
            }
        }
        let ch = &file.territory_bottom_choices;
        if ch.choices.len() != 2 {
            return Err(err("territory_bottom_choices.choices", "two spaces (the bottom one first)"));
        }
        let mut bottom_choices = [[0u8; 2]; 2];
        for (i, c) in ch.choices.iter().enumerate() {
            if c.len() != 2 {
                return Err(err(format!("territory_bottom_choices.choices[{i}]"), "two resources to choose between"));
            }
            for (j, name) in c.iter().enumerate() {
                bottom_choices[i][j] = resource_index(&format!("territory_bottom_choices.choices[{i}][{j}]"), name)?;
            }
        }

        // The boards (side A; side B comes with its own option).
        let resource_sides = board_sides("resource_board", &file.resource_board, resource_field)?;
        let worker_sides = board_sides("worker_board", &file.worker_board, worker_field)?;

        // Cards and tiles.
        count("components.character_cards", &file.components.character_cards, file.characters.len())?;
        if file.characters.len() > MAX_CHARACTERS {
            return Err(err("characters", format!("at most {MAX_CHARACTERS} characters")));
        }
        let mut characters = Vec::new();
        for (i, c) in file.characters.iter().enumerate() {
            let f = |x: &str| format!("characters[{i}].{x}");
            let kind = lookup(&f("kind"), &c.kind, &CHAR_KINDS)?;
            let ability = match &c.ability {
                None => Ability::None,
                Some(a) => lookup(&f("ability"), a, &ABILITIES)?,
            };
            let per = match &c.per {
                None => Count::None,
                Some(p) => lookup(&f("per"), p, &PER)?,
            };
            let gain = c.gain.array();
            let ok = match kind {
                CharKind::Immediate => ability == Ability::None && per == Count::None && gain != [0; 4],
                CharKind::OneTime => per == Count::None && ((ability == Ability::None) != (gain == [0; 4])) && ability != Ability::CheapOutposts && ability != Ability::ExtraTake && ability != Ability::CoinPerDelivery,
                CharKind::Permanent => ability != Ability::None && per == Count::None && gain == [0; 4],
                CharKind::EndGame => ability == Ability::None && gain == [0; 4] && ((per == Count::None) == (c.per_vp == 0)),
            };
            if !ok {
                return Err(err(f("kind"), format!(
                    "a {} card has {}", c.kind,
                    match kind {
                        CharKind::Immediate => "a gain and nothing else",
                        CharKind::OneTime => "either a gain or the ability \"free whale moves\"",
                        CharKind::Permanent => "an ability and nothing else",
                        CharKind::EndGame => "victory points, and optionally `per` with `per_vp`",
                    })));
            }
            characters.push(Character { name: c.name.clone(), kind, cost: c.cost.array(), vp: c.vp, gain, ability, per, per_vp: c.per_vp });
        }
        count("components.port_cards", &file.components.port_cards, file.port_cards.len())?;
        if file.port_cards.len() > MAX_PORT_CARDS {
            return Err(err("port_cards", format!("at most {MAX_PORT_CARDS} port cards")));
        }
        let mut port_cards = Vec::new();
        for (i, c) in file.port_cards.iter().enumerate() {
            let port = index_of(&format!("port_cards[{i}].port"), &c.port, &port_names, "port")?;
            port_cards.push(PortCard { port, gain: c.bonus.gain.array(), outpost: c.bonus.outpost });
        }
        let max_rounds = rules.rounds_4.max(rules.rounds_5) as usize;
        if port_cards.len() < 5 * max_rounds || characters.len() < 5 * max_rounds {
            return Err(err("port_cards", format!("the rows need 5 port cards and 5 characters in each of {max_rounds} rounds")));
        }
        count("components.network_cards", &file.components.network_cards, file.network_cards.len())?;
        if file.network_cards.len() > MAX_NETWORK_CARDS {
            return Err(err("network_cards", format!("at most {MAX_NETWORK_CARDS} network cards")));
        }
        let mut network_cards = Vec::new();
        for (i, c) in file.network_cards.iter().enumerate() {
            let f = |x: &str| format!("network_cards[{i}].{x}");
            let difficulty = DIFFICULTIES.iter().position(|d| *d == c.difficulty).ok_or_else(|| err(f("difficulty"), format!("{:?} is not one of {DIFFICULTIES:?}", c.difficulty)))? as u8;
            let port = index_of(&f("port"), &c.port, &port_names, "port")?;
            if ports[port as usize].capital {
                return Err(err(f("port"), "a network card starts at a territory port"));
            }
            let d0 = index_of(&f("destinations[0]"), &c.destinations[0], &port_names, "port")?;
            let d1 = index_of(&f("destinations[1]"), &c.destinations[1], &port_names, "port")?;
            if c.partial > c.full {
                return Err(err(f("partial"), "the partial reward is the smaller one"));
            }
            network_cards.push(NetworkCard { difficulty, port, destinations: [d0, d1], full: c.full, partial: c.partial });
        }
        for d in 0..3u8 {
            if network_cards.iter().filter(|c| c.difficulty == d).count() < 5 {
                return Err(err("network_cards", format!("5 players need 5 {} cards", DIFFICULTIES[d as usize])));
            }
        }
        count("components.achievement_tiles", &file.components.achievement_tiles, file.achievements.len())?;
        let mut achievements = Vec::new();
        for (i, a) in file.achievements.iter().enumerate() {
            let f = |x: &str| format!("achievements[{i}].{x}");
            let letter = LETTERS.iter().position(|l| *l == a.letter).ok_or_else(|| err(f("letter"), format!("{:?} is not one of {LETTERS:?}", a.letter)))? as u8;
            let requirement = lookup(&f("requirement"), &a.requirement, &REQUIREMENTS)?;
            if a.count == 0 {
                return Err(err(f("count"), "a requirement of at least 1"));
            }
            achievements.push(Achievement { letter, requirement, count: a.count, vp: a.vp });
        }
        for l in 0..4u8 {
            if !achievements.iter().any(|a| a.letter == l) {
                return Err(err("achievements", format!("no tile of letter {}", LETTERS[l as usize])));
            }
        }
        count("components.network_tiles", &file.components.network_tiles, file.network_tiles.len())?;
        let mut network_tiles = Vec::new();
        for (i, t) in file.network_tiles.iter().enumerate() {
            let f = |x: &str| format!("network_tiles[{i}].{x}");
            let region = region_of(&f("region"), &t.region)?;
            let destination = index_of(&f("destination"), &t.destination, &port_names, "port")?;
            let mut sides = [[0u8; 2]; 2];
            for (k, key) in ["1-3", "4-5"].iter().enumerate() {
                let s = t.sides.get(*key).ok_or_else(|| err(f("sides"), format!("side {key:?} is missing")))?;
                sides[k] = [s.upper, s.lower];
            }
            if let Some(k) = t.sides.keys().find(|k| *k != "1-3" && *k != "4-5") {
                return Err(err(f("sides"), format!("{k:?} is not a side (\"1-3\" or \"4-5\")")));
            }
            network_tiles.push(NetworkTile { region, destination, sides });
        }
        for r in 0..REGIONS as u8 {
            if !network_tiles.iter().any(|t| t.region == r) {
                return Err(err("network_tiles", format!("no tile for region {:?}", file.regions[r as usize])));
            }
        }
        // Zones 1 to 3 are the three locations with one chip per field, in any order; zone 4,
        // where the automa always places, is the port row, the one location where chips stack.
        let z = &file.automa_zones.zones;
        if z.len() != 4 {
            return Err(err("automa_zones.zones", format!("{} zones; the rulebook has 4", z.len())));
        }
        let mut zones = [0u8; 4];
        for (k, name) in z.iter().enumerate() {
            let table: Vec<(&str, u8)> = LOCATION_NAMES.iter().enumerate().map(|(i, n)| (*n, i as u8)).collect();
            zones[k] = lookup(&format!("automa_zones.zones[{k}]"), name, &table)?;
            if zones[..k].contains(&zones[k]) {
                return Err(err(format!("automa_zones.zones[{k}]"), format!("{name:?} is named twice")));
            }
        }
        if zones[3] != 3 {
            return Err(err("automa_zones.zones[3]", "zone 4 is the port row: the automa always places there, and only port cards stack chips"));
        }
        if file.solo_goals.len() != DIFFICULTY_LEVELS.len() {
            return Err(err("solo_goals", format!("{} goals; the rulebook has 3 (easy, medium, hard)", file.solo_goals.len())));
        }
        let mut goals = Vec::new();
        for (k, g) in file.solo_goals.iter().enumerate() {
            let f = |x: &str| format!("solo_goals[{k}].{x}");
            if g.difficulty != DIFFICULTY_LEVELS[k] {
                return Err(err(f("difficulty"), format!("{:?}: the goals are listed easy, medium, hard", g.difficulty)));
            }
            check_name(&f("name"), &g.name)?;
            if g.achievements > 4 || g.network_tiles > REGIONS as u32 || g.points > 500 {
                return Err(err(f("achievements"), "at most 4 achievement tiles, 4 network tiles and 500 points"));
            }
            goals.push(Goal { name: g.name.clone(), network_card: g.network_card, achievements: g.achievements, network_tiles: g.network_tiles, points: g.points });
        }
        Ok(Data {
            goals,
            rules,
            regions: file.regions.clone(),
            cargo: file.cargo.types.clone(),
            cargo_markers,
            bottom_choices,
            port_names,
            ports,
            adjacent,
            capital,
            territory_tiles,
            capital_tiles,
            territory_row,
            capital_row,
            resource_sides,
            worker_sides,
            characters,
            port_cards,
            network_cards,
            achievements,
            network_tiles,
            zones,
            file,
        })
    }
}

impl Data {
    pub fn rounds(&self, players: usize) -> u8 {
        if players >= 5 {
            self.rules.rounds_5
        } else {
            self.rules.rounds_4
        }
    }

    /// The network tiles' side for this many players (0: 1–3, 1: 4–5).
    pub fn tile_side(players: usize) -> usize {
        usize::from(players >= 4)
    }

    pub fn cargo_name(&self, c: u8) -> &str {
        if c == KRILL_CARGO {
            "krill"
        } else {
            &self.cargo[c as usize]
        }
    }
}
