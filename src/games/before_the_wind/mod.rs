//! Before the Wind (Torsten Landsvogt, Phalanx Games / Mayfair Games 2007) for 2 to 4
//! players, by its complete rules. `docs/games/before-the-wind.md` records the rulings;
//! `docs/dev/before-the-wind-records.md` maps every rule to its code and test.

use crate::engine::options::{Choice, Int, Opt};
use crate::engine::data::ComponentData;
use crate::engine::{DataFileDecl, EngineError, GameSpec, OptionDecl, Options, Result};
use crate::engine::prelude::*;

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
mod hostile_tests;
#[cfg(test)]
mod log_tests;
#[cfg(test)]
mod tests;

pub use data::Data;
pub use state::{Phase, Player, Standing, State};

use actions::NUM_ACTIONS;

/// Turns after which a game is cut off as truncated (no winner), unless set by the `max_turns` option.
pub const DEFAULT_MAX_TURNS: u32 = 1000;

/// The values of the `bank` option (ruling 17): the bank never runs out (the default), or it
/// holds the box's guilders (the data file's `bank_guilders`) and pays only what it holds.
pub const BANK_CHOICES: &[&str] = &["unlimited", "limited"];

/// The game: player count, options and component data.
#[derive(Debug, Clone)]
pub struct BeforeTheWind {
    pub data: Data,
    pub players: usize,
    pub max_turns: u32,
    /// `bank="limited"`: the bank holds the box's guilders, less those the players hold, and
    /// pays only what it holds (ruling 17).
    pub limited_bank: bool,
    spec: GameSpec,
}

/// The options, each declared once and read by its constant.
const PLAYERS: Opt<Int> = Opt::int("players", 2, 4, 3).configuration().doc("Before the Wind is for 2, 3 or 4 players");
const BANK: Opt<Choice> = Opt::choice("bank", BANK_CHOICES, "unlimited").configuration().doc(
    "the bank of guilders: \"unlimited\" (it always pays) or \"limited\" to the box's guilders, 228 (ruling 17)",
);
const MAX_TURNS: Opt<Int> = Opt::max_turns(DEFAULT_MAX_TURNS);

impl GameDefinition for BeforeTheWind {
    const NAME: &'static str = "before-the-wind";
    const TITLE: &'static str = "Before the Wind";
    const OPTIONS: &'static [OptionDecl] = &[PLAYERS.decl, BANK.decl, MAX_TURNS.decl, Opt::DATA.decl];
    const HOW_TO_PLAY: &'static str = include_str!("text/how_to_play.md");
    const NOTATION: &'static str = include_str!("text/notation.md");
    const DATA_FILE: Option<DataFileDecl> = Some(DataFileDecl::of::<Data>());

    fn from_options(options: &Options) -> Result<Self> {
        let players = options.get(&PLAYERS) as usize;
        let max_turns = options.get(&MAX_TURNS) as u32;
        let limited_bank = options.get(&BANK) == "limited";
        let data = Data::from_option(options.get(&Opt::DATA))?;
        let custom_data = data.custom_file();
        let r = &data.rules;
        if (players as u32) * (r.starting_goods as u32) > 4 * r.goods_per_kind as u32 {
            return Err(EngineError::data("rules.starting_goods.value", format!(
                "the goods stacks cannot give {players} players {} goods each", r.starting_goods)));
        }
        if limited_bank && (r.bank_guilders as usize) < players * r.starting_guilders as usize {
            return Err(EngineError::data("rules.bank_guilders.value", format!(
                "{} guilders cannot give {players} players {} each", r.bank_guilders, r.starting_guilders)));
        }
        let gpk = r.goods_per_kind as usize;
        let n = players;
        // A turn has at most: n deck choices and n draws; n choices and n auctions of n bids
        // and a resolution; per player two cards of at most one step per good in the game
        // (selling them all) plus a few; at a departure one spoil choice and one preservation
        // per good per player, and the new ships.
        let per_card = 4 * gpk + 12;
        let per_turn = 2 * n + n + n * (n + 1) + n * (2 * per_card + 4) + n * (4 * gpk + 3) + 2 * data::MAX_HARBOUR;
        let setup = data::MAX_HARBOUR + n * r.starting_goods as usize;
        let max_game_length = setup + (max_turns as usize + 1) * per_turn;
        let spec = GameSpec {
            name: Self::NAME,
            players,
            opponents: Vec::new(),
            tiers: Vec::new(),
            num_distinct_actions: NUM_ACTIONS,
            max_chance_outcomes: data.designs.len().max(data.ships.len()),
            max_game_length,
            observation_tensor_shape: vec![view::tensor_len(&data)],
            // The winner gets 1, the others -1/(n-1) each; shared wins share; a truncated game 0.
            zero_sum: true,
            min_return: -1.0,
            max_return: 1.0,
            config: options.config(Self::NAME, custom_data.as_ref()),
            options: Self::OPTIONS,
        };
        Ok(BeforeTheWind { data, players, max_turns, limited_bank, spec })
    }
}

