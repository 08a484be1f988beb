//! Norsewind for 1 (solo against the Vikings) to 4 players, by its complete rules.
//! `docs/games/norsewind.md` maps every rule to its code and test, records the rulings and
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
mod log;
mod rules;
mod setup;
pub mod state;
mod view;

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
    pub max_turns: u32,
    /// The user's data (as JSON) when it is not the shipped file.
    custom_data: Option<Value>,
    spec: GameSpec,
}

impl GameDefinition for Norsewind {
    const NAME: &'static str = "norsewind";
    const TITLE: &'static str = "Norsewind";
    const HOW_TO_PLAY: &'static str = include_str!("text/how_to_play.md");
    const NOTATION: &'static str = include_str!("text/notation.md");
    const OPTIONS: &'static [OptionDecl] = &[
        OptionDecl {
            name: "players",
            kind: OptionKind::Int { min: 1, max: 4, default: 2 },
            configuration: true,
            doc: "Norsewind is for 1 (solo, against the Vikings), 2, 3 or 4 players",
        },
        OptionDecl {
            name: "free_start",
            kind: OptionKind::Bool { default: false },
            configuration: true,
            doc: "variant: each player places his starting card in the kingdom of his choice",
        },
        OptionDecl {
            name: "random_kingdom_tiles",
            kind: OptionKind::Bool { default: false },
            configuration: true,
            doc: "variant: 4 random kingdom tiles instead of 2 green and 2 red (not in the solo game, whose level sets the tiles)",
        },
        OptionDecl {
            name: "level",
            kind: OptionKind::Int { min: 1, max: 7, default: 1 },
            configuration: true,
            doc: "the solo game's level, 1 to 7 (its kingdom tiles and Viking cards); only with players=1",
        },
        OptionDecl {
            name: "max_turns",
            kind: OptionKind::Int { min: 1, max: 100_000, default: DEFAULT_MAX_TURNS as i64 },
            configuration: false,
            doc: "turns after which a game is cut off as truncated, with no winner",
        },
        OptionDecl { name: "data", kind: OptionKind::Data, configuration: false, doc: "the component data file" },
    ];
    const DATA_FILE: Option<DataFileDecl> =
        Some(DataFileDecl { shipped: Data::SHIPPED, parse_text: |text| Data::from_json_str(text).map(|_| ()) });

    fn from_options(options: &Options) -> Result<Self> {
        let players = options.int("players") as usize;
        let level = options.int("level") as u8;
        let free_start = options.flag("free_start");
        let random_tiles = options.flag("random_kingdom_tiles");
        let max_turns = options.int("max_turns") as u32;
        if players > 1 && level != 1 {
            return Err(EngineError::option("level", "levels are for the solo game (players=1)"));
        }
        if players == 1 && random_tiles {
            return Err(EngineError::option(
                "random_kingdom_tiles",
                "the solo game's level sets its kingdom tiles (players=1 takes no random_kingdom_tiles)",
            ));
        }
        let data = Data::from_option(options.data("data"))?;
        let custom_data = if data.file != Data::shipped().file {
            Some(serde_json::to_value(&data.file).map_err(|e| EngineError::data("(file)", e.to_string()))?)
        } else {
            None
        };
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
        };
        Ok(Norsewind {
            data,
            players,
            level: if solo { level } else { 0 },
            free_start,
            random_tiles,
            max_turns,
            custom_data,
            spec,
        })
    }
}

impl Game for Norsewind {
    type State = State;

    const STATE_FORMAT: u32 = 1;

    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn config(&self) -> Value {
        let mut m = Map::new();
        m.insert("game".into(), Value::from(Self::NAME));
        m.insert("players".into(), Value::from(self.players));
        m.insert("free_start".into(), Value::from(self.free_start));
        m.insert("random_kingdom_tiles".into(), Value::from(self.random_tiles));
        m.insert("level".into(), Value::from(self.level.max(1)));
        m.insert("max_turns".into(), Value::from(self.max_turns));
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

    /// Nothing is hidden: every observer reads the same sentence.
    fn describe_move(&self, before: &State, action: Action, after: &State, _observer: Option<usize>) -> String {
        self.describe(before, action, after)
    }

    fn winners(&self, state: &State) -> Vec<usize> {
        self.winners_of(state)
    }

    fn scores(&self, state: &State, out: &mut [f64]) {
        for (p, o) in out.iter_mut().enumerate() {
            *o = self.total(state, p) as f64;
        }
    }

    fn is_truncated(&self, state: &State) -> bool {
        state.truncated
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

    /// Nothing is hidden (the decks are sets of known cards, drawn when revealed), so the only
    /// consistent state is the state itself.
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

    /// The final score as it would stand now, as margins over the best other scorer (the
    /// Vikings in the solo game), 8 points wide, computed without allocating.
    fn evaluate(&self, state: &State, out: &mut [f64]) {
        if state.phase == Phase::GameOver {
            self.returns(state, out);
            return;
        }
        let n = self.players;
        let mut totals = [0.0f64; state::MAX_PLAYERS];
        for (p, t) in totals.iter_mut().enumerate().take(n) {
            *t = self.total(state, p) as f64;
        }
        for p in 0..n {
            let best = if self.solo() {
                self.viking_total(state) as f64
            } else {
                (0..n).filter(|&q| q != p).map(|q| totals[q]).fold(f64::NEG_INFINITY, f64::max)
            };
            out[p] = ((totals[p] - best) / 8.0).tanh();
        }
    }
}
