//! Nauticus (Wolfgang Kramer & Michael Kiesling, Kosmos 2013) for 2 to 4 players.
//! `docs/games/nauticus.md` maps every rule to its code and test, records the rulings and
//! says what is not built yet.

use serde_json::{Map, Value};

use crate::engine::data::ComponentData;
use crate::engine::rng::Rng;
use crate::engine::{
    Action, Actor, DataFileDecl, EngineError, Game, GameDefinition, GameSpec, OptionDecl, OptionKind, Options, Result,
    ScoreReport,
};

pub mod actions;
pub mod data;
mod heuristic;
mod log;
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
    /// The user's data (as JSON) when it is not the shipped file.
    custom_data: Option<Value>,
    spec: GameSpec,
}

impl GameDefinition for Nauticus {
    const NAME: &'static str = "nauticus";
    const TITLE: &'static str = "Nauticus";
    const OPTIONS: &'static [OptionDecl] = &[
        OptionDecl {
            name: "players",
            kind: OptionKind::Int { min: 2, max: 4, default: 3 },
            configuration: true,
            doc: "Nauticus is for 2, 3 or 4 players (4 rounds with 2 players, 5 with 3 or 4)",
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
        };
        Ok(Nauticus { data, players, rounds, custom_data, spec })
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

impl Game for Nauticus {
    type State = State;

    const STATE_FORMAT: u32 = 2;

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
            Actor::Chance => out.extend(Self::undealt(state).map(|t| t as Action)),
            Actor::Player(_) => self.legal_list(state, out),
            Actor::Terminal => {}
        }
    }

    fn chance_outcomes(&self, state: &State, out: &mut Vec<(Action, f64)>) {
        self.chance_list(state, out)
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

    /// Nothing is hidden: every observer reads the same sentence.
    fn describe_move(&self, before: &State, action: Action, after: &State, _observer: Option<usize>) -> String {
        self.describe(before, action, after)
    }

    fn winners(&self, state: &State) -> Vec<usize> {
        self.winners_of(state)
    }

    fn scores(&self, state: &State, out: &mut [f64]) {
        for (p, o) in out.iter_mut().enumerate() {
            *o = self.tally(state, p).total() as f64;
        }
    }

    fn is_truncated(&self, _state: &State) -> bool {
        false
    }

    fn score_report(&self, state: &State) -> ScoreReport {
        self.report(state)
    }

    fn public_string(&self, state: &State) -> String {
        self.table(state)
    }

    /// Everything is open information: every seat sees the whole table.
    fn observation_string(&self, state: &State, _player: usize) -> String {
        self.table(state)
    }

    fn observation_tensor(&self, state: &State, player: usize, out: &mut [f32]) {
        self.observe_tensor(state, player, out)
    }

    /// Nothing is hidden, so the only consistent state is the state itself.
    fn resample(&self, state: &State, _player: usize, _rng: &mut Rng) -> State {
        state.clone()
    }

    fn render(&self, state: &State) -> String {
        self.table(state)
    }

    fn validate_state(&self, state: &State) -> Result<()> {
        self.validate(state).map_err(EngineError::StateFormat)
    }

    fn setup(&self, description: &Value) -> Result<State> {
        self.setup_from(description)
    }

    /// tanh of the margin over the best other seat, `SCALE` points wide, of each seat's value
    /// in points: its score as it stands now and credit for what leads to points later
    /// (`heuristic.rs`), computed without allocating.
    fn evaluate(&self, state: &State, out: &mut [f64]) {
        if state.step == Step::GameOver {
            self.returns(state, out);
            return;
        }
        let mut values = [0.0f64; state::MAX_PLAYERS];
        self.position_values(state, &mut values);
        for p in 0..self.players {
            let best = (0..self.players).filter(|&q| q != p).map(|q| values[q]).fold(f64::NEG_INFINITY, f64::max);
            out[p] = ((values[p] - best) / heuristic::SCALE).tanh();
        }
    }
}
