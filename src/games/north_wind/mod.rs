//! North Wind (Klaus Teuber, Kosmos 2014) for 2 to 4 players, by its complete rules.
//! `docs/games/north-wind.md` records the rulings; `docs/dev/north-wind-records.md` maps
//! every rule to its code and test.

use crate::engine::options::{Choice, Int, Opt};
use crate::engine::data::ComponentData;
use crate::engine::{DataFileDecl, EngineError, GameSpec, OptionDecl, Options, Result};
use crate::engine::prelude::*;

pub mod actions;
pub mod data;
mod heuristic;
mod log;
mod picture;
mod resample;
mod rules;
mod setup;
pub mod state;
mod view;

#[cfg(test)]
mod boundary_tests;
#[cfg(test)]
mod golden_tests;
#[cfg(test)]
mod hostile_tests;
#[cfg(test)]
mod tensor_tests;
#[cfg(test)]
mod tests;

pub use data::Data;
pub use state::{Phase, Ship, State};

use actions::NUM_ACTIONS;

/// Turns after which a game is cut off as truncated (no winner), unless set by the `max_turns` option.
pub const DEFAULT_MAX_TURNS: u32 = 1000;

/// The values of the `gold` option (ruling 13): the bank never runs out (the default), or it
/// holds the box's coins (the data file's `gold_total`) and pays only what it holds.
pub const GOLD_CHOICES: &[&str] = &["unlimited", "limited"];

/// The game: player count, options and component data.
#[derive(Debug, Clone)]
pub struct NorthWind {
    pub data: Data,
    pub players: usize,
    pub max_turns: u32,
    /// Victory point tokens per player, which is also the number that wins.
    pub tokens: u8,
    /// `gold="limited"`: the bank holds the box's coins and pays only what it holds (ruling 13).
    pub limited_gold: bool,
    spec: GameSpec,
}

/// The options, each declared once and read by its constant.
const PLAYERS: Opt<Int> = Opt::int("players", 2, 4, 3).configuration().doc("North Wind is for 2, 3 or 4 players");
const MAX_TURNS: Opt<Int> = Opt::max_turns(DEFAULT_MAX_TURNS);
const GOLD: Opt<Choice> = Opt::choice("gold", GOLD_CHOICES, "unlimited")
    .configuration()
    .doc("the bank of gold: \"unlimited\" (it always pays) or \"limited\" to the box's coins, 90 gold (ruling 13)");

impl GameDefinition for NorthWind {
    const NAME: &'static str = "north-wind";
    const TITLE: &'static str = "North Wind";
    const HOW_TO_PLAY: &'static str = include_str!("text/how_to_play.md");
    const NOTATION: &'static str = include_str!("text/notation.md");
    const OPTIONS: &'static [OptionDecl] = &[PLAYERS.decl, MAX_TURNS.decl, GOLD.decl, Opt::DATA.decl];
    const DATA_FILE: Option<DataFileDecl> = Some(DataFileDecl::of::<Data>());

    fn from_options(options: &Options) -> Result<Self> {
        let players = options.get(&PLAYERS) as usize;
        let max_turns = options.get(&MAX_TURNS) as u32;
        let limited_gold = options.get(&GOLD) == "limited";
        let data = Data::from_option(options.get(&Opt::DATA))?;
        let custom_data = data.custom_file();
        let r = &data.rules;
        if limited_gold && (r.gold_total as usize) < players * r.starting_gold as usize {
            return Err(EngineError::data("rules.gold_total.value", format!(
                "{} gold cannot give {players} players {} each", r.gold_total, r.starting_gold)));
        }
        if (r.letters_total as usize) < players * r.starting_letters as usize {
            return Err(EngineError::data("rules.trade_letters_total.value", format!(
                "{} letters cannot give {players} players {} each", r.letters_total, r.starting_letters)));
        }
        let tokens = data.tokens[&players];
        let types = data.types.len();
        let max_chance = data.num_cards().max(3).max(data.event_faces.len()).max(data.combat_faces.len());
        // A turn has at most: a stack choice, the lookout's look and decision, and per
        // revealed card one chance draw and either a fog (event, pirate decision, one roll
        // per cannon) or a card used by the active player and offered to every other
        // player (each use: jettisons and up to two trades).
        let per_use = (r.hold_slots as usize) + 3;
        let per_card = 1 + (3 + r.cannons_per_player as usize).max(players * per_use);
        let per_turn = 3 + (r.max_sail as usize + 1) * per_card;
        let max_game_length = data.deal_cards.len() + (max_turns as usize + 1) * per_turn;
        let spec = GameSpec {
            name: Self::NAME,
            players,
            opponents: Vec::new(),
            tiers: Vec::new(),
            num_distinct_actions: NUM_ACTIONS,
            max_chance_outcomes: max_chance,
            max_game_length,
            observation_tensor_shape: vec![view::tensor_len(players, types)],
            // The winner gets 1, the others -1/(n-1) each; a truncated game 0 for all.
            zero_sum: true,
            min_return: -1.0 / (players as f64 - 1.0),
            max_return: 1.0,
            config: options.config(Self::NAME, custom_data.as_ref()),
            options: Self::OPTIONS,
        };
        Ok(NorthWind { data, players, max_turns, tokens, limited_gold, spec })
    }
}

