//! Norsewind for 1 (solo against the Vikings) to 4 players, by its complete rules.
//! `docs/games/norsewind.md` records the rulings; `docs/dev/norsewind-records.md` maps every
//! rule to its code and test and says what is not built yet.

use crate::engine::options::{Flag, Int, Opt};
use crate::engine::data::ComponentData;
use crate::engine::prelude::*;
use crate::engine::{DataFileDecl, EngineError, GameSpec, OptionDecl, Options, Result};

pub mod actions;
pub mod data;
mod heuristic;
mod log;
mod picture;
mod rules;
mod setup;
pub mod state;
mod view;

#[cfg(test)]
mod golden_tests;
#[cfg(test)]
mod tests;

pub use data::Data;
pub use state::{Phase, State};

use actions::NUM_ACTIONS;

/// Turns after which a game is cut off as truncated (no winner), unless set by `max_turns`.
pub const DEFAULT_MAX_TURNS: u32 = 1000;

/// The game: player count, options and component data.
#[derive(Debug, Clone)]
pub struct Norsewind {
    pub data: Data,
    pub players: usize,
    /// The solo level (1..=7); 0 with several players.
    pub level: u8,
    /// Variant: each player places his starting card in the kingdom of his choice.
    pub free_start: bool,
    /// Variant: 4 random kingdom tiles instead of 2 green and 2 red.
    pub random_tiles: bool,
    /// Ruling 6's lock: a castle a player returned by a replacement is not his to acquire
    /// again before the next building (the default; off, the rulebook's sentence alone).
    pub castle_lock: bool,
    pub max_turns: u32,
    spec: GameSpec,
}

/// The options, each declared once and read by its constant.
const PLAYERS: Opt<Int> = Opt::int("players", 1, 4, 2)
    .configuration()
    .doc("Norsewind is for 1 (solo, against the Vikings), 2, 3 or 4 players");
const FREE_START: Opt<Flag> = Opt::flag("free_start", false)
    .configuration()
    .doc("variant: each player places his starting card in the kingdom of his choice");
const RANDOM_KINGDOM_TILES: Opt<Flag> = Opt::flag("random_kingdom_tiles", false).configuration().doc(
    "variant: 4 random kingdom tiles instead of 2 green and 2 red (not in the solo game, whose level sets the tiles)",
);
const LEVEL: Opt<Int> = Opt::int("level", 1, 7, 1)
    .configuration()
    .doc("the solo game's level, 1 to 7 (its kingdom tiles and Viking cards); only with players=1");
const CASTLE_LOCK: Opt<Flag> = Opt::flag("castle_lock", true).doc(
    "ruling 6: a castle a player returned cannot be his again before the next building (false: no lock; castle swaps can then go on until max_turns)",
);
const MAX_TURNS: Opt<Int> = Opt::max_turns(DEFAULT_MAX_TURNS);

impl GameDefinition for Norsewind {
    const NAME: &'static str = "norsewind";
    const TITLE: &'static str = "Norsewind";
    const HOW_TO_PLAY: &'static str = include_str!("text/how_to_play.md");
    const NOTATION: &'static str = include_str!("text/notation.md");
    const OPTIONS: &'static [OptionDecl] = &[PLAYERS.decl, FREE_START.decl, RANDOM_KINGDOM_TILES.decl, LEVEL.decl, CASTLE_LOCK.decl, MAX_TURNS.decl, Opt::DATA.decl];
    const DATA_FILE: Option<DataFileDecl> = Some(DataFileDecl::of::<Data>());

    fn from_options(options: &Options) -> Result<Self> {
        let players = options.get(&PLAYERS) as usize;
        let level = options.get(&LEVEL) as u8;
        let free_start = options.get(&FREE_START);
        let random_tiles = options.get(&RANDOM_KINGDOM_TILES);
        let max_turns = options.get(&MAX_TURNS) as u32;
        let castle_lock = options.get(&CASTLE_LOCK);
        if players > 1 && level != 1 {
            return Err(EngineError::option("level", "levels are for the solo game (players=1)"));
        }
        if players == 1 && random_tiles {
            return Err(EngineError::option(
                "random_kingdom_tiles",
                "the solo game's level sets its kingdom tiles (players=1 takes no random_kingdom_tiles)",
            ));
        }
        let data = Data::from_option(options.get(&Opt::DATA))?;
        let custom_data = data.custom_file();
        let solo = players == 1;
        let castles = data.cards.iter().filter(|c| c.kind == data::CASTLE).count();
        let max_chance = data.cards.len().max(24);
        // Per turn: a decision, a figure, disc or castle decision, and the reveals of the
        // player's and the Vikings' replenishments or of a new market (each reveal at most
        // every castle before a building).
        let per_turn = 3 + 7 * (castles + 1);
        let setup = 1 + 5 + castles + 1 + 4 + 4 + 2 * players;
        let spec = GameSpec {
            name: Self::NAME,
            players,
            opponents: if solo { vec!["Vikings".to_string()] } else { Vec::new() },
            tiers: if solo { data.tiers.iter().map(|t| t.0.clone()).collect() } else { Vec::new() },
            num_distinct_actions: NUM_ACTIONS,
            max_chance_outcomes: max_chance,
            max_game_length: setup + (max_turns as usize + 1) * per_turn,
            observation_tensor_shape: vec![view::tensor_len()],
            // Winners share +1 and losers -1 with several players; the solo seat wins or loses.
            zero_sum: !solo,
            min_return: -1.0,
            max_return: 1.0,
            config: options.config(Self::NAME, custom_data.as_ref()),
            options: Self::OPTIONS,
        };
        Ok(Norsewind {
            data,
            players,
            level: if solo { level } else { 0 },
            free_start,
            random_tiles,
            castle_lock,
            max_turns,
            spec,
        })
    }
}
