//! Mistwind (Adrian Adamescu & Daryl Andrews, SPIEL DAS! / First Fish Games 2024) for 1 to 5
//! players, with side A or B of the resource board and of the worker board; the 2-player
//! game adds two automa players (AUT) that are not seats, the solo mode three and a difficulty
//! goal. `docs/games/mistwind.md` records the rulings and the reconstructed components;
//! `docs/dev/mistwind-records.md` maps every rule to its code and test and says what is not
//! built yet.

use crate::engine::options::{Choice, Flag, Int, Opt};
use crate::engine::data::ComponentData;
use crate::engine::{DataFileDecl, EngineError, GameDefinition, GameSpec, OptionDecl, Options, Result};

pub mod actions;
mod automa;
pub mod data;
mod heuristic;
mod log;
mod picture;
mod resample;
mod rules;
mod setup;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;

pub use data::Data;
pub use state::{Phase, State, Step};

use actions::NUM_ACTIONS;
use state::MAX_PLAYERS;

/// The game: player count and component data.
#[derive(Debug, Clone)]
pub struct Mistwind {
    pub data: Data,
    pub players: usize,
    /// Automa players (AUT): table positions after the seats, moved by the game.
    pub automa: usize,
    /// Table positions: the seats (`0..players`), then the automa players.
    pub positions: usize,
    /// The table's clockwise order of positions, from the first position (`order[..positions]`).
    pub order: [u8; MAX_PLAYERS],
    /// Where each position sits in `order` (0 for a position not at the table).
    pub(crate) slot: [u8; MAX_PLAYERS],
    /// `seats[from][k]`: the `k`-th seat clockwise from position `from` ([`Mistwind::seat_order`]).
    pub(crate) seats: [[u8; MAX_PLAYERS]; MAX_PLAYERS],
    /// Rounds of this player count (4, or 5 with 5 players).
    pub rounds: u8,
    /// The solo mode's goal (0 easy, 1 medium, 2 hard; 0 with more players).
    pub difficulty: usize,
    /// The resource board's side in play (the `resource_board` option).
    pub resource_board: [data::ResourceField; 5],
    /// The worker board's side in play (the `worker_board` option).
    pub worker_board: [data::WorkerField; 5],
    /// Worker board side B's field 5 may use resource board side B's income fields, giving
    /// their income to its user for the rest of the round (the `field5_income_fields` option,
    /// ruling 33).
    pub field5_income_fields: bool,
    /// Where the picture draws each port: reconstructed from the map's connections on the
    /// first drawing (`picture::map_layout`), never on the hot path.
    pub(crate) map_layout: std::sync::OnceLock<Vec<(f64, f64)>>,
    pub(crate) spec: GameSpec,
}

/// The options, each declared once and read by its constant.
const PLAYERS: Opt<Int> = Opt::int("players", 1, 5, 3).configuration().doc(
    "Mistwind with 1 to 5 players (4 rounds, 5 with 5 players); 2 players play with two automa players, 1 (the solo mode) with three",
);
const DIFFICULTY: Opt<Choice> = Opt::choice("difficulty", &data::DIFFICULTY_LEVELS, "easy").configuration().doc(
    "the solo mode's goal: easy (Mushroom Farmer), medium (Port Worker), hard (Deep-Mist Diver); only with players=1",
);
const RESOURCE_BOARD: Opt<Choice> = Opt::choice("resource_board", &data::SIDES, "A").configuration().doc(
    "the resource board's side: A, or B with its interactive actions (the rulebook's \"Alternative Tableau Sides\")",
);
const WORKER_BOARD: Opt<Choice> = Opt::choice("worker_board", &data::SIDES, "A").configuration().doc(
    "the worker board's side: A, or B with its interactive actions (the rulebook's \"Alternative Tableau Sides\")",
);
const FIELD5_INCOME_FIELDS: Opt<Flag> = Opt::flag("field5_income_fields", true).doc(
    "ruling 33: worker board side B's field 5 may use resource board side B's income fields (2 and 3), its user then receiving that income for the rest of the round (false: the income fields cannot be used with field 5)",
);

impl GameDefinition for Mistwind {
    const NAME: &'static str = "mistwind";
    const TITLE: &'static str = "Mistwind";
    const OPTIONS: &'static [OptionDecl] = &[PLAYERS.decl, DIFFICULTY.decl, RESOURCE_BOARD.decl, WORKER_BOARD.decl, FIELD5_INCOME_FIELDS.decl, Opt::DATA.decl];
    const HOW_TO_PLAY: &'static str = include_str!("text/how_to_play.md");
    const NOTATION: &'static str = include_str!("text/notation.md");
    const DATA_FILE: Option<DataFileDecl> = Some(DataFileDecl::of::<Data>());

    fn from_options(options: &Options) -> Result<Self> {
        let players = options.get(&PLAYERS) as usize;
        let difficulty = options.get(&DIFFICULTY);
        if players > 1 && difficulty != data::DIFFICULTY_LEVELS[0] {
            return Err(EngineError::option("difficulty", "difficulties are for the solo mode (players=1)"));
        }
        let difficulty = data::DIFFICULTY_LEVELS.iter().position(|&d| d == difficulty).unwrap_or(0);
        let data = Data::from_option(options.get(&Opt::DATA))?;
        let side = data::SIDES.iter().position(|&x| x == options.get(&RESOURCE_BOARD)).unwrap_or(0);
        let resource_board = data.resource_sides[side].ok_or_else(|| EngineError::option("resource_board", "the data file has no side B of the resource board"))?;
        let side = data::SIDES.iter().position(|&x| x == options.get(&WORKER_BOARD)).unwrap_or(0);
        let worker_board = data.worker_sides[side].ok_or_else(|| EngineError::option("worker_board", "the data file has no side B of the worker board"))?;
        let field5_income_fields = options.get(&FIELD5_INCOME_FIELDS);
        let custom_data = data.custom_file();
        let rounds = data.rounds(players);
        let (automa, order) = table(players);
        let positions = players + automa;
        let (slot, seats) = automa::seating(&order, players, positions);
        let max_chance = [data.characters.len(), data.port_cards.len(), data.achievements.len(), data.network_tiles.len(), data.network_cards.len(), data::CARGO_TYPES]
            .into_iter()
            .max()
            .unwrap();
        let spec = GameSpec {
            name: Self::NAME,
            players,
            opponents: (1..=automa).map(|k| format!("AUT{k}")).collect(),
            tiers: if players == 1 { data.goals.iter().map(|g| g.name.clone()).collect() } else { Vec::new() },
            num_distinct_actions: NUM_ACTIONS,
            max_chance_outcomes: max_chance,
            max_game_length: max_game_length(&data, &worker_board, positions, rounds),
            observation_tensor_shape: vec![view::tensor_len()],
            // Winners share +1, losers share -1; a draw of all is 0 for all. A game with
            // automa players says false, as the engine contract asks of every game with
            // opponents (its returns add up to zero all the same: they never win, ruling 15).
            zero_sum: automa == 0,
            min_return: -1.0,
            max_return: 1.0,
            config: options.config(Self::NAME, custom_data.as_ref()),
            options: Self::OPTIONS,
        };
        Ok(Mistwind { data, players, automa, positions, order, slot, seats, rounds, difficulty, resource_board, worker_board, field5_income_fields, map_layout: std::sync::OnceLock::new(), spec })
    }
}

/// The automa players and the table's clockwise order of positions for `players` seats. With
/// 2 players two automa players (positions 2 and 3) sit between them: "turn order: AUT, PLA,
/// AUT, PLA", AUT1 first. Solo, three automa players (positions 1 to 3) begin and the player
/// sits fourth: "The 3 AUT players begin the game; you are in fourth position".
fn table(players: usize) -> (usize, [u8; MAX_PLAYERS]) {
    match players {
        1 => (3, [1, 2, 3, 0, 4]),
        2 => (2, [2, 0, 3, 1, 4]),
        _ => (0, [0, 1, 2, 3, 4]),
    }
}

/// No game is longer. Setup: the tiles, demand displays, network cards, rows and whales.
/// A round: the discards, and per turn at most a chip, its follow-up, a move and a load or
/// delivery per whale (each delivery with a resource choice and a refill), the ends of the
/// steps, and the row refill. Over the game: each one-time character used once, each
/// victory condition claimed once, the claims after the bonuses and the card discards.
fn max_game_length(data: &Data, worker_board: &[data::WorkerField; 5], positions: usize, rounds: u8) -> usize {
    let n = positions;
    let setup = 4 + 4 + 4 * (data.capital_row as usize + data.territory_row as usize) + 3 * n + 10 + n;
    // Resource board side B adds at most a name, 5 resources received one at a time, the
    // other seats' shares and three incomes (the two income fields' chips, and the one right
    // worker board side B's field 5 gives in a round, ruling 33). Worker board side B at most
    // two draws, a keep and a give, three decisions a trade partner, a payment and a field used.
    let per_turn = 2 + (3 + 1) + 3 * 3 + 1 + 1 + (1 + 5 + n + 3) + 4 + 3 * n + 1 + 2;
    // And its long whale moves: a round has at most two (the chip on field 3, and the chip on
    // field 5 using it), each of the free fields, then a field and a payment
    // for each resource the mover holds (a resource count is at most `u16::MAX`, so 4 of
    // them) or gains on the way (a load, a bottom space, its one-time characters), then a
    // load or delivery with its choice and the end. Where a data file makes the fields free,
    // a port is entered once (ruling 30).
    let long_move = match worker_board.iter().find(|f| f.ability == data::WorkerAbility::LongMove).map(|f| f.amounts) {
        None => 0,
        Some([_, 0]) => 2 * data.ports.len() + 3,
        Some([free, _]) => {
            let gains: usize = data.characters.iter().map(|c| c.gain.iter().map(|&g| g as usize).sum::<usize>()).sum();
            free as usize + 2 * (4 * u16::MAX as usize + 2 + gains) + 3
        }
    };
    let long_moves = 2 * long_move;
    let per_round = n * 2 + n * 5 * per_turn + 10 + n + long_moves;
    let claims = n * (3 + data.rules.markers as usize + 4) + data.characters.len();
    setup + rounds as usize * per_round + claims + n + 16
}
