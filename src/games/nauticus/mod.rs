//! Nauticus (Wolfgang Kramer & Michael Kiesling, Kosmos 2013) for 2 to 4 players.
//! `docs/games/nauticus.md` records the rulings; `docs/dev/nauticus-records.md` maps every
//! rule to its code and test and says what is not built yet.

use crate::engine::options::{Int, Opt};
use crate::engine::data::ComponentData;
use crate::engine::{DataFileDecl, GameSpec, OptionDecl, Options, Result};
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
mod tensor_tests;
#[cfg(test)]
mod tests;

pub use data::Data;
pub use state::{Ship, State, Step};

use actions::NUM_ACTIONS;

/// The game: player count and component data.
#[derive(Debug, Clone)]
pub struct Nauticus {
    pub data: Data,
    pub players: usize,
    /// Rounds of this player count (4 with 2 players, 5 otherwise).
    pub rounds: u8,
    spec: GameSpec,
}

/// The options, each declared once and read by its constant.
const PLAYERS: Opt<Int> = Opt::int("players", 2, 4, 3)
    .configuration()
    .doc("Nauticus is for 2, 3 or 4 players (4 rounds with 2 players, 5 with 3 or 4)");

impl GameDefinition for Nauticus {
    const NAME: &'static str = "nauticus";
    const TITLE: &'static str = "Nauticus";
    const OPTIONS: &'static [OptionDecl] = &[PLAYERS.decl, Opt::DATA.decl];
    const HOW_TO_PLAY: &'static str = include_str!("text/how_to_play.md");
    const NOTATION: &'static str = include_str!("text/notation.md");
    const DATA_FILE: Option<DataFileDecl> = Some(DataFileDecl::of::<Data>());

    fn from_options(options: &Options) -> Result<Self> {
        let players = options.get(&PLAYERS) as usize;
        let data = Data::from_option(options.get(&Opt::DATA))?;
        let custom_data = data.custom_file();
        let rounds = data.rounds[&players];
        let spec = GameSpec {
            name: Self::NAME,
            players,
            opponents: Vec::new(),
            tiers: Vec::new(),
            num_distinct_actions: NUM_ACTIONS,
            max_chance_outcomes: 8,
            max_game_length: max_game_length(&data, players, rounds),
            observation_tensor_shape: vec![view::tensor_len()],
            // Winners share +1, losers share -1 (a single loser of a shared win gets -1).
            zero_sum: true,
            min_return: -1.0,
            max_return: 1.0,
            config: options.config(Self::NAME, custom_data.as_ref()),
            options: Self::OPTIONS,
        };
        Ok(Nauticus { data, players, rounds, spec })
    }
}

/// No game is longer: every use of an action spends a worker (a blue one of the turntable or
/// one of the player's), and workers come only from the start, the bonuses, the extra action
/// and the rewards of the ships the limited hull tiles allow; a use brings at most a
/// placement and a gift, a completed ship at most 4 rewards with their goods.
fn max_game_length(data: &Data, players: usize, rounds: u8) -> usize {
    let r = &data.rules;
    let phases = rounds as usize * r.phases_per_round as usize;
    let blue = *data.turntable.iter().max().unwrap() as usize * players * phases;
    let comp = data.compensation[&players].iter().map(|c| c.1 as usize).sum::<usize>();
    let bonus = data.bonuses.iter().map(|b| b.workers as usize).max().unwrap_or(0) * phases;
    let ships = data.stock[0] as usize + (data.stock[1].min(data.stock[2])) as usize;
    let rewarded = ships * r.reward_repeats as usize * data.rewards.workers as usize;
    let own = players * (r.starting_workers + r.extra_workers) as usize + comp + bonus + rewarded;
    let uses = blue + own;
    rounds as usize * 7 + phases * (2 + 4 * players) + 3 * uses + ships * 4 * (1 + data.rewards.goods as usize) + 16
}

