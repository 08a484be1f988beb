//! Nauticus's component data: the file format (every value marked printed or
//! reconstructed), its validation (errors name the offending field) and the compiled
//! tables the rules read.

use std::collections::BTreeMap;

use crate::engine::data::{data_file, is_zero, per_player_count, sourced_record, sourced_values, within, ComponentData};
pub use crate::engine::data::{Source, Sourced};
use crate::engine::{EngineError, Result};

/// The goods, in the order of the goods action tile (the price of each is the board's number
/// at its position).
pub const GOODS: [&str; 4] = ["coffee", "grain", "salt", "fish"];
/// The hull parts, in the order of the hull action tile.
pub const HULLS: [&str; 4] = ["single hull", "bow", "stern", "centre"];
/// Coats of arms on regular masts and sails (their names come from the data file).
pub const COATS: usize = 4;
/// Every kind of tile a player can own, as one index: hull parts, masts (4 coats of arms,
/// then the crown), sails (likewise), goods. Warehouse contents and the supply are counted
/// by kind.
pub const KINDS: usize = 18;
pub const SINGLE: u8 = 0;
pub const BOW: u8 = 1;
pub const STERN: u8 = 2;
pub const CENTRE: u8 = 3;
pub const MAST: u8 = 4;
pub const CROWN_MAST: u8 = 8;
pub const SAIL: u8 = 9;
pub const CROWN_SAIL: u8 = 13;
pub const GOOD: u8 = 14;

/// The four categories of tile, one per paid action tile (its four items are the four
/// regular kinds of the category).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    Hull,
    Mast,
    Sail,
    Good,
}

impl Category {
    /// The first tile kind of the category: its items are `first()..first() + 4`.
    pub fn first(self) -> u8 {
        match self {
            Category::Hull => SINGLE,
            Category::Mast => MAST,
            Category::Sail => SAIL,
            Category::Good => GOOD,
        }
    }
    pub fn of(kind: u8) -> Category {
        match kind {
            0..=3 => Category::Hull,
            4..=8 => Category::Mast,
            9..=13 => Category::Sail,
            _ => Category::Good,
        }
    }
}

/// The eight action tiles: four paid (blue) and four free (light).
pub const TILES: [&str; 8] = [
    "buy hull parts",
    "buy masts",
    "buy sails",
    "buy goods",
    "transport",
    "withdraw money",
    "deliver goods",
    "score the crowns",
];
pub const BUY_HULLS: u8 = 0;
pub const BUY_MASTS: u8 = 1;
pub const BUY_SAILS: u8 = 2;
pub const BUY_GOODS: u8 = 3;
pub const TRANSPORT: u8 = 4;
pub const WITHDRAW: u8 = 5;
pub const DELIVER: u8 = 6;
pub const SCORE_CROWNS: u8 = 7;

/// The category a paid action tile sells; `None` for the free ones.
pub fn tile_category(tile: u8) -> Option<Category> {
    match tile {
        BUY_HULLS => Some(Category::Hull),
        BUY_MASTS => Some(Category::Mast),
        BUY_SAILS => Some(Category::Sail),
        BUY_GOODS => Some(Category::Good),
        _ => None,
    }
}

/// The six rewards for a completed ship, in printed order.
pub const REWARDS: [&str; 6] = ["crown mast", "crown sail", "victory points", "Taler", "workers", "goods"];
pub const R_CROWN_MAST: u8 = 0;
pub const R_CROWN_SAIL: u8 = 1;
pub const R_POINTS: u8 = 2;
pub const R_TALER: u8 = 3;
pub const R_WORKERS: u8 = 4;
pub const R_GOODS: u8 = 5;

/// Most ships in one game: every hull tile begun as a ship of its own.
pub const MAX_SHIPS: usize = 64;
/// Most tiles of one kind in the supply (the counts are kept in bytes).
pub const MAX_STACK: u32 = 200;

sourced_values! {
    pub struct RulesFile {
        starting_taler,
        starting_workers,
        starting_victory_points,
        action_tiles,
        action_phases_per_round,
        crown_points_per_round,
        duplicate_price,
        taler_per_worker,
        extra_action_workers,
        extra_action_price,
        reward_repeats_per_ship,
        warehouse_spaces,
        mast_spaces,
        taler_per_victory_point,
        further_good_points,
    }
}

sourced_record! {
    pub struct CompensationFile {
        pub taler: u32,
        pub workers: u32,
    }
}

sourced_values! {
    pub struct ComponentsFile {
        single_hulls,
        bows,
        sterns,
        centres,
        masts_per_coat_of_arms,
        crown_masts,
        sails_per_coat_of_arms,
        crown_sails,
        goods_per_kind,
        worker_cubes,
        coins_of_1,
        coins_of_5,
        pass_tiles,
        extra_action_tiles,
        warehouses,
    }
}

sourced_record! {
    pub struct NamedFile {
        pub name: String,
    }
}

sourced_record! {
    pub struct BonusFile {
        #[serde(default, skip_serializing_if = "is_zero")]
        pub workers: u32,
        #[serde(default, skip_serializing_if = "is_zero")]
        pub taler: u32,
        #[serde(default, skip_serializing_if = "is_zero")]
        pub victory_points: u32,
        #[serde(default, skip_serializing_if = "is_false")]
        pub regular_mast: bool,
        #[serde(default, skip_serializing_if = "is_false")]
        pub regular_sail: bool,
        #[serde(default, skip_serializing_if = "is_false")]
        pub good: bool,
    }
}

sourced_record! {
    pub struct PricesFile {
        pub prices: Vec<u32>,
    }
}

sourced_values! {
    pub struct RewardsFile {
        crown_mast,
        crown_sail,
        victory_points,
        taler,
        workers,
        goods,
    }
}

fn is_false(v: &bool) -> bool {
    !*v
}

data_file! {
    pub struct DataFile {
        pub rules: RulesFile,
        pub rounds: BTreeMap<String, Sourced>,
        pub pass_tiles: Vec<Sourced>,
        pub seat_compensation: BTreeMap<String, Vec<CompensationFile>>,
        pub components: ComponentsFile,
        pub coats_of_arms: Vec<NamedFile>,
        pub bonuses: Vec<BonusFile>,
        pub prices: Vec<PricesFile>,
        pub turntable: Vec<Sourced>,
        pub rewards: RewardsFile,
        pub delivered_goods_points: Vec<Sourced>,
        pub ship_points: Vec<Sourced>,
    }
}

/// What the start player receives for choosing the action on a space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Bonus {
    pub workers: u32,
    pub taler: u32,
    pub points: u32,
    /// A free tile of the player's choice, to the warehouse: a regular mast, a regular sail or
    /// a good (one of them at most).
    pub choice: Option<Category>,
}

/// The numbers of the rules, as read from the data file.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    pub starting_taler: u32,
    pub starting_workers: u32,
    pub starting_points: i32,
    pub phases_per_round: u8,
    pub crown_cap: u32,
    pub duplicate_price: u32,
    pub taler_per_worker: u32,
    pub extra_workers: u32,
    pub extra_price: u32,
    pub reward_repeats: u8,
    pub warehouse_spaces: u32,
    pub mast_spaces: u32,
    pub taler_per_point: u32,
    pub further_good_points: u32,
}

/// What one reward gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rewards {
    pub crown_masts: u32,
    pub crown_sails: u32,
    pub points: u32,
    pub taler: u32,
    pub workers: u32,
    /// Different goods, to the warehouse.
    pub goods: u32,
}

/// The compiled component data.
#[derive(Debug, Clone, PartialEq)]
pub struct Data {
    pub file: DataFile,
    pub rules: Rules,
    /// Rounds by player count.
    pub rounds: BTreeMap<usize, u8>,
    /// Penalty of each pass tile, in the order they are turned.
    pub pass_penalties: [u32; 3],
    /// Extra (Taler, workers) of each seat, by player count.
    pub compensation: BTreeMap<usize, Vec<(u32, u32)>>,
    /// The supply of each tile kind at the start.
    pub stock: [u8; KINDS],
    pub coats: [String; COATS],
    /// The bonus of each action space, in printed order.
    pub bonuses: [Bonus; 8],
    /// The price of each of the four items of a paid tile lying on each space.
    pub prices: [[u32; 4]; 8],
    /// Blue workers of each turntable sector, clockwise from the anchor sector (0 workers).
    pub turntable: [u8; 8],
    pub rewards: Rewards,
    /// Points for a set of 1..=5 delivered goods of one kind.
    pub set_points: [u32; 5],
    /// Points for a completed ship of 1..=4 tiles.
    pub ship_points: [u32; 4],
}

impl ComponentData for Data {
    type File = DataFile;
    const SHIPPED: &'static str = include_str!("data.json");
    const GAME: &'static str = "nauticus";

    fn file(&self) -> &DataFile {
        &self.file
    }

    fn compile(file: DataFile) -> Result<Data> {
        let r = &file.rules;
        if r.action_tiles.value != 8 {
            return Err(EngineError::data("rules.action_tiles.value", "Nauticus has exactly 8 action tiles, one per action space"));
        }
        let rules = Rules {
            starting_taler: r.starting_taler.within("rules.starting_taler", 0, 1000)?,
            starting_workers: r.starting_workers.within("rules.starting_workers", 0, 100)?,
            starting_points: r.starting_victory_points.within("rules.starting_victory_points", 0, 1000)? as i32,
            phases_per_round: r.action_phases_per_round.within("rules.action_phases_per_round", 1, 7)? as u8,
            crown_cap: r.crown_points_per_round.within("rules.crown_points_per_round", 0, 1000)?,
            duplicate_price: r.duplicate_price.within("rules.duplicate_price", 0, 100)?,
            taler_per_worker: r.taler_per_worker.within("rules.taler_per_worker", 0, 100)?,
            extra_workers: r.extra_action_workers.within("rules.extra_action_workers", 0, 100)?,
            extra_price: r.extra_action_price.within("rules.extra_action_price", 0, 100)?,
            // At least 2: a 4-tile ship's 4 rewards must always be choosable when the warehouse is
            // full or the crown stacks are out (victory points, Taler and workers remain).
            reward_repeats: r.reward_repeats_per_ship.within("rules.reward_repeats_per_ship", 2, 4)? as u8,
            warehouse_spaces: r.warehouse_spaces.within("rules.warehouse_spaces", 2, 100)?,
            mast_spaces: r.mast_spaces.within("rules.mast_spaces", 1, 2)?,
            taler_per_point: r.taler_per_victory_point.within("rules.taler_per_victory_point", 1, 100)?,
            further_good_points: r.further_good_points.within("rules.further_good_points", 0, 100)?,
        };

        let rounds = per_player_count("rounds", &file.rounds, 2..=4, |field, _, s| Ok(s.within(field, 1, 20)? as u8))?;

        if file.pass_tiles.len() != 3 {
            return Err(EngineError::data("pass_tiles", format!("{} pass tiles; every player has a set of 3", file.pass_tiles.len())));
        }
        let mut pass_penalties = [0; 3];
        for (i, s) in file.pass_tiles.iter().enumerate() {
            pass_penalties[i] = s.within(&format!("pass_tiles[{i}]"), 0, 100)?;
        }

        let compensation = per_player_count("seat_compensation", &file.seat_compensation, 2..=4, |field, p, list| {
            if list.len() != p {
                return Err(EngineError::data(field, format!("{} seats listed for {p} players", list.len())));
            }
            let mut seats = Vec::new();
            for (i, c) in list.iter().enumerate() {
                within(format!("{field}[{i}].taler"), c.taler, 0, 100)?;
                within(format!("{field}[{i}].workers"), c.workers, 0, 100)?;
                seats.push((c.taler, c.workers));
            }
            Ok(seats)
        })?;

        let c = &file.components;
        let stack = |name: &str, s: &Sourced| s.within(&format!("components.{name}"), 0, MAX_STACK).map(|v| v as u8);
        let mut stock = [0u8; KINDS];
        stock[SINGLE as usize] = stack("single_hulls", &c.single_hulls)?;
        stock[BOW as usize] = stack("bows", &c.bows)?;
        stock[STERN as usize] = stack("sterns", &c.sterns)?;
        stock[CENTRE as usize] = stack("centres", &c.centres)?;
        let masts = stack("masts_per_coat_of_arms", &c.masts_per_coat_of_arms)?;
        let sails = stack("sails_per_coat_of_arms", &c.sails_per_coat_of_arms)?;
        let goods = stack("goods_per_kind", &c.goods_per_kind)?;
        for i in 0..COATS {
            stock[MAST as usize + i] = masts;
            stock[SAIL as usize + i] = sails;
        }
        for i in 0..4 {
            stock[GOOD as usize + i] = goods;
        }
        stock[CROWN_MAST as usize] = stack("crown_masts", &c.crown_masts)?;
        stock[CROWN_SAIL as usize] = stack("crown_sails", &c.crown_sails)?;
        let hulls: usize = stock[..4].iter().map(|&n| n as usize).sum();
        if hulls > MAX_SHIPS {
            return Err(EngineError::data("components", format!("{hulls} hull tiles; at most {MAX_SHIPS} (each may begin a ship)")));
        }
        // The counts of the other components are read for the component-count test; the
        // rules do not limit workers or Taler (the supply is unlimited).
        for (name, s) in [
            ("worker_cubes", &c.worker_cubes),
            ("coins_of_1", &c.coins_of_1),
            ("coins_of_5", &c.coins_of_5),
            ("pass_tiles", &c.pass_tiles),
            ("extra_action_tiles", &c.extra_action_tiles),
            ("warehouses", &c.warehouses),
        ] {
            s.within(&format!("components.{name}"), 0, 1000)?;
        }
        if (c.warehouses.value as usize) < 4 || (c.extra_action_tiles.value as usize) < 4 || c.pass_tiles.value < 12 {
            return Err(EngineError::data("components", "the game needs a warehouse, an extra-action tile and 3 pass tiles for each of 4 players"));
        }

        if file.coats_of_arms.len() != COATS {
            return Err(EngineError::data("coats_of_arms", format!("{} coats of arms; Nauticus has {COATS}", file.coats_of_arms.len())));
        }
        let mut coats: [String; COATS] = Default::default();
        for (i, n) in file.coats_of_arms.iter().enumerate() {
            let name = n.name.trim();
            if name.is_empty() || name == "crown" {
                return Err(EngineError::data(format!("coats_of_arms[{i}].name"), format!("{:?} cannot name a coat of arms", n.name)));
            }
            if coats[..i].iter().any(|c| c == name) {
                return Err(EngineError::data(format!("coats_of_arms[{i}].name"), format!("duplicate coat of arms {name:?}")));
            }
            coats[i] = name.to_string();
        }

        if file.bonuses.len() != 8 {
            return Err(EngineError::data("bonuses", format!("{} bonuses; the board has one for each of the 8 action spaces", file.bonuses.len())));
        }
        let mut bonuses = [Bonus::default(); 8];
        for (i, b) in file.bonuses.iter().enumerate() {
            let f = |x: &str| format!("bonuses[{i}].{x}");
            within(f("workers"), b.workers, 0, 100)?;
            within(f("taler"), b.taler, 0, 100)?;
            within(f("victory_points"), b.victory_points, 0, 100)?;
            let tiles = b.regular_mast as u8 + b.regular_sail as u8 + b.good as u8;
            if tiles > 1 {
                return Err(EngineError::data(format!("bonuses[{i}]"), "a bonus gives at most one tile (a regular mast, a regular sail or a good)"));
            }
            let choice = if b.regular_mast {
                Some(Category::Mast)
            } else if b.regular_sail {
                Some(Category::Sail)
            } else if b.good {
                Some(Category::Good)
            } else {
                None
            };
            if choice.is_none() && b.workers + b.taler + b.victory_points == 0 {
                return Err(EngineError::data(format!("bonuses[{i}]"), "a bonus must give something"));
            }
            bonuses[i] = Bonus { workers: b.workers, taler: b.taler, points: b.victory_points, choice };
        }

        if file.prices.len() != 8 {
            return Err(EngineError::data("prices", format!("{} spaces; the board has 8 action spaces", file.prices.len())));
        }
        let mut prices = [[0u32; 4]; 8];
        for (i, p) in file.prices.iter().enumerate() {
            if p.prices.len() != 4 {
                return Err(EngineError::data(format!("prices[{i}].prices"), format!("{} prices; a tile has 4 items", p.prices.len())));
            }
            for (j, &v) in p.prices.iter().enumerate() {
                if v > 3 {
                    return Err(EngineError::data(format!("prices[{i}].prices[{j}]"), format!("{v}: the board prints the numbers 0 to 3")));
                }
                prices[i][j] = v;
            }
        }

        if file.turntable.len() != 8 {
            return Err(EngineError::data("turntable", format!("{} sectors; the turntable has 8, one per action space", file.turntable.len())));
        }
        let mut turntable = [0u8; 8];
        for (i, s) in file.turntable.iter().enumerate() {
            turntable[i] = if i == 0 {
                if s.value != 0 {
                    return Err(EngineError::data("turntable[0].value", "the anchor sector shows no workers"));
                }
                0
            } else {
                s.within(&format!("turntable[{i}]"), 1, 3)? as u8
            };
        }

        let w = &file.rewards;
        let rewards = Rewards {
            crown_masts: w.crown_mast.within("rewards.crown_mast", 1, 1)?,
            crown_sails: w.crown_sail.within("rewards.crown_sail", 1, 1)?,
            points: w.victory_points.within("rewards.victory_points", 0, 100)?,
            taler: w.taler.within("rewards.taler", 0, 100)?,
            workers: w.workers.within("rewards.workers", 0, 100)?,
            goods: w.goods.within("rewards.goods", 1, 4)?,
        };

        if file.delivered_goods_points.len() != 5 {
            return Err(EngineError::data("delivered_goods_points", "the points of sets of 1 to 5 goods"));
        }
        let mut set_points = [0; 5];
        for (i, s) in file.delivered_goods_points.iter().enumerate() {
            set_points[i] = s.within(&format!("delivered_goods_points[{i}]"), 0, 1000)?;
        }
        if file.ship_points.len() != 4 {
            return Err(EngineError::data("ship_points", "the points of completed ships of 1 to 4 tiles"));
        }
        let mut ship_points = [0; 4];
        for (i, s) in file.ship_points.iter().enumerate() {
            ship_points[i] = s.within(&format!("ship_points[{i}]"), 0, 1000)?;
        }

        Ok(Data {
            rules,
            rounds,
            pass_penalties,
            compensation,
            stock,
            coats,
            bonuses,
            prices,
            turntable,
            rewards,
            set_points,
            ship_points,
            file,
        })
    }
}

impl Data {
    /// Name of a tile kind ("bow", "whale mast", "crown sail", "coffee").
    pub fn kind_name(&self, kind: u8) -> String {
        match kind {
            0..=3 => HULLS[kind as usize].to_string(),
            CROWN_MAST => "crown mast".into(),
            CROWN_SAIL => "crown sail".into(),
            4..=7 => format!("{} mast", self.coats[(kind - MAST) as usize]),
            9..=12 => format!("{} sail", self.coats[(kind - SAIL) as usize]),
            _ => GOODS[(kind - GOOD) as usize].to_string(),
        }
    }

    /// Warehouse spaces a tile of this kind takes.
    pub fn spaces(&self, kind: u8) -> u32 {
        if (MAST..=CROWN_MAST).contains(&kind) {
            self.rules.mast_spaces
        } else {
            1
        }
    }

    /// Points for a set of `n` delivered goods of one kind.
    pub fn set_value(&self, n: u32) -> u32 {
        match n {
            0 => 0,
            1..=5 => self.set_points[n as usize - 1],
            _ => self.set_points[4] + (n - 5) * self.rules.further_good_points,
        }
    }
}
