//! Mistwind (Adrian Adamescu & Daryl Andrews, SPIEL DAS! / First Fish Games 2024) for 3 to 5
//! players on side A of both boards. `docs/games/mistwind.md` maps every rule to its code and
//! test, records the rulings and the reconstructed components, and says what is not built
//! yet (the 2-player and solo games with automa players, and side B).

use serde_json::{Map, Value};

use crate::engine::data::ComponentData;
use crate::engine::rng::Rng;
use crate::engine::{
    Action, Actor, DataFileDecl, EngineError, Game, GameDefinition, GameSpec, OptionDecl, OptionKind, Options, Result,
    ScoreReport,
};

pub mod actions;
pub mod data;
mod log;
mod resample;
mod rules;
mod setup;
pub mod state;
pub mod view;

#[cfg(test)]
mod golden_tests;
#[cfg(test)]
mod tests;

pub use data::Data;
pub use state::{Phase, State, Step};

use actions::NUM_ACTIONS;

/// The game: player count and component data.
#[derive(Debug, Clone)]
pub struct Mistwind {
    pub data: Data,
    pub players: usize,
    /// Rounds of this player count (4, or 5 with 5 players).
    pub rounds: u8,
    /// The user's data (as JSON) when it is not the shipped file.
    custom_data: Option<Value>,
    spec: GameSpec,
}

impl GameDefinition for Mistwind {
    const NAME: &'static str = "mistwind";
    const TITLE: &'static str = "Mistwind";
    const OPTIONS: &'static [OptionDecl] = &[
        OptionDecl {
            name: "players",
            kind: OptionKind::Int { min: 3, max: 5, default: 3 },
            configuration: true,
            doc: "Mistwind with 3, 4 or 5 players (4 rounds, 5 with 5 players); the 2-player and solo games are not built yet",
        },
        OptionDecl { name: "data", kind: OptionKind::Data, configuration: false, doc: "the component data file" },
    ];
    const HOW_TO_PLAY: &'static str = include_str!("text/how_to_play.md");
    const NOTATION: &'static str = include_str!("text/notation.md");
    const DATA_FILE: Option<DataFileDecl> =
        Some(DataFileDecl { shipped: Data::SHIPPED, parse_text: |text| Data::from_json_str(text).map(|_| ()) });

    fn from_options(options: &Options) -> Result<Self> {
        let players = options.int("players") as usize;
        let data = Data::from_option(options.data("data"))?;
        let custom_data = if data.file != Data::shipped().file {
            Some(serde_json::to_value(&data.file).map_err(|e| EngineError::data("(file)", e.to_string()))?)
        } else {
            None
        };
        let rounds = data.rounds(players);
        let max_chance = [data.characters.len(), data.port_cards.len(), data.achievements.len(), data.network_tiles.len(), data.network_cards.len(), data::CARGO_TYPES]
            .into_iter()
            .max()
            .unwrap();
        let spec = GameSpec {
            name: Self::NAME,
            players,
            opponents: Vec::new(),
            tiers: Vec::new(),
            num_distinct_actions: NUM_ACTIONS,
            max_chance_outcomes: max_chance,
            max_game_length: max_game_length(&data, players, rounds),
            observation_tensor_shape: vec![view::tensor_len()],
            // Winners share +1, losers share -1; a draw of all is 0 for all.
            zero_sum: true,
            min_return: -1.0,
            max_return: 1.0,
        };
        Ok(Mistwind { data, players, rounds, custom_data, spec })
    }
}

/// No game is longer. Setup: the tiles, demand displays, network cards, rows and whales.
/// A round: the discards, and per turn at most a chip, its follow-up, a move and a load or
/// delivery per whale (each delivery with a resource choice and a refill), the ends of the
/// steps, and the row refill. Over the game: each one-time character used once, each
/// victory condition claimed once, the claims after the bonuses and the card discards.
fn max_game_length(data: &Data, players: usize, rounds: u8) -> usize {
    let n = players;
    let setup = 4 + 4 + 4 * (data.capital_row as usize + data.territory_row as usize) + 3 * n + 10 + n;
    let per_turn = 2 + (3 + 1) + 3 * 3 + 1 + 1;
    let per_round = n * 2 + n * 5 * per_turn + 10 + n;
    let claims = n * (3 + data.rules.markers as usize + 4) + data.characters.len();
    setup + rounds as usize * per_round + claims + n + 16
}

impl Game for Mistwind {
    type State = State;

    const STATE_FORMAT: u32 = 1;

    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn config(&self) -> Value {
        let mut m = Map::new();
        m.insert("game".into(), Value::from(Self::NAME));
        m.insert("players".into(), Value::from(self.players));
        if let Some(d) = &self.custom_data {
            m.insert("data".into(), d.clone());
        }
        Value::Object(m)
    }

    fn initial_state(&self) -> State {
        self.initial()
    }

    fn actor(&self, state: &State) -> Actor {
        self.actor_of(state)
    }

    fn legal_actions(&self, state: &State, out: &mut Vec<Action>) {
        out.clear();
        match self.actor_of(state) {
            Actor::Chance => self.chance_weights(state, |a, _| out.push(a)),
            Actor::Player(_) => self.legal_list(state, out),
            Actor::Terminal => {}
        }
    }

    fn chance_outcomes(&self, state: &State, out: &mut Vec<(Action, f64)>) {
        out.clear();
        let mut total = 0u32;
        self.chance_weights(state, |_, w| total += w);
        self.chance_weights(state, |a, w| out.push((a, w as f64 / total as f64)));
    }

    fn sample_chance(&self, state: &State, rng: &mut Rng) -> Action {
        self.sample(state, rng)
    }

    fn apply(&self, state: &mut State, action: Action) {
        self.do_apply(state, action)
    }

    fn action_to_string(&self, state: &State, action: Action) -> String {
        self.action_name(state, action)
    }

    /// Phase A's discards are secret simultaneous choices, made one seat after another.
    fn decision_is_secret(&self, state: &State) -> bool {
        state.draw == state::Draw::None && state.phase == Phase::Discard
    }

    fn action_string_for(&self, state: &State, action: Action, observer: usize) -> String {
        self.shown_to(state, action, observer)
    }

    fn describe_move(&self, before: &State, action: Action, after: &State, observer: Option<usize>) -> String {
        self.describe(before, action, after, observer)
    }

    fn winners(&self, state: &State) -> Vec<usize> {
        self.winners_of(state)
    }

    fn scores(&self, state: &State, out: &mut [f64]) {
        for (p, o) in out.iter_mut().enumerate() {
            *o = self.tally(state, p).iter().sum::<u32>() as f64;
        }
    }

    fn is_truncated(&self, _state: &State) -> bool {
        false
    }

    fn score_report(&self, state: &State) -> ScoreReport {
        self.report(state)
    }

    fn public_string(&self, state: &State) -> String {
        self.table(state, None, false)
    }

    fn observation_string(&self, state: &State, player: usize) -> String {
        self.table(state, Some(player), false)
    }

    fn observation_tensor(&self, state: &State, player: usize, out: &mut [f32]) {
        self.observe_tensor(state, player, out)
    }

    fn resample(&self, state: &State, player: usize, rng: &mut Rng) -> State {
        self.resample_for(state, player, rng)
    }

    fn render(&self, state: &State) -> String {
        self.table(state, None, true)
    }

    fn validate_state(&self, state: &State) -> Result<()> {
        self.validate(state).map_err(EngineError::StateFormat)
    }

    fn setup(&self, description: &Value) -> Result<State> {
        self.setup_from(description)
    }

    /// The engine's measure (tanh of the margin over the best other seat, 4 points wide) on
    /// the score as it would stand now, computed without allocating.
    fn evaluate(&self, state: &State, out: &mut [f64]) {
        if state.phase == Phase::GameOver {
            self.returns(state, out);
            return;
        }
        let mut totals = [0.0f64; state::MAX_PLAYERS];
        for (p, t) in totals.iter_mut().enumerate().take(self.players) {
            *t = self.tally(state, p).iter().sum::<u32>() as f64;
        }
        for p in 0..self.players {
            let best = (0..self.players).filter(|&q| q != p).map(|q| totals[q]).fold(f64::NEG_INFINITY, f64::max);
            out[p] = ((totals[p] - best) / 4.0).tanh();
        }
    }
}
