//! The traits a game implements, one per concept, each in the game's file of that concept:
//! [`Rules`] (`rules.rs`), [`View`] (`view.rs`), [`Picture`] (`picture.rs`), [`Resample`],
//! [`Positions`] (`setup.rs`), [`Describe`] (`log.rs`) and [`Evaluate`] (`heuristic.rs`). [`Game`] is all of them
//! together. Everything generic (checked play, chance sampling, history, serialization,
//! rollouts, bulk simulation, conformance checks) is written once in the engine on top of it.
//!
//! The model is OpenSpiel's: a state is either a decision node of exactly one player, a
//! chance node, or terminal. Decisions by players other than the one whose turn it is
//! (responses, bids, trade-letter offers) are simply decision nodes of that other player.
//! Secret simultaneous choices are sequential decision nodes whose chosen action is hidden
//! from the others' observations. Automated opponents that are not seats are resolved by
//! the game itself (deterministically or through chance nodes). Long chains of small
//! decisions inside one turn are many small decision nodes. `docs/engine-contract.md`
//! settles each point of the contract (seats, opponents that are not seats, endings without
//! a winning seat, solo returns, tiers, modes, secret choices, saved-state versions).

use serde::{de::DeserializeOwned, Serialize};
use std::fmt::Debug;

use super::error::Result;
use super::report::{ScoreRecord, ScoreReport};
use super::rng::Rng;
use super::svg::Viewer;
use super::tensor::{Layout, Tensor};

/// An action id. Player actions lie in `0..num_distinct_actions`; chance outcomes in
/// `0..max_chance_outcomes` (a separate space, as in OpenSpiel).
pub type Action = u32;

/// Who acts in a state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Actor {
    Player(usize),
    Chance,
    Terminal,
}

impl Actor {
    /// OpenSpiel's player id: the player index, [`CHANCE`] (-1) for chance, [`TERMINAL`] (-4)
    /// for terminal.
    pub fn as_i32(self) -> i32 {
        match self {
            Actor::Player(p) => p as i32,
            Actor::Chance => CHANCE,
            Actor::Terminal => TERMINAL,
        }
    }
}

/// The player id of a chance node, as in OpenSpiel (`kChancePlayerId`).
pub const CHANCE: i32 = -1;
/// The player id of a terminal state, as in OpenSpiel (`kTerminalPlayerId`; OpenSpiel's -2 is
/// a simultaneous node, which no tradewinds game has).
pub const TERMINAL: i32 = -4;

/// The most seats a game may have.
pub const MAX_SEATS: usize = 5;

/// Static facts about a configured game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameSpec {
    pub name: &'static str,
    /// Seats: the players who decide (1 to [`MAX_SEATS`]).
    pub players: usize,
    /// Opponents that are not seats (a solo game's Vikings, automa players), by name: the
    /// game moves them itself; they have rows in the score report and can win, but have no
    /// returns and no observations.
    pub opponents: Vec<String>,
    /// Reward tiers or difficulty goals a game's result can reach, lowest first (empty for
    /// most games); the score report names the one reached.
    pub tiers: Vec<String>,
    pub num_distinct_actions: usize,
    pub max_chance_outcomes: usize,
    /// No game lasts longer than this many moves (decisions plus chance outcomes):
    /// the game truncates itself before.
    pub max_game_length: usize,
    pub observation_tensor_shape: Vec<usize>,
    /// Whether the returns of every finished game add up to zero.
    pub zero_sum: bool,
    /// The smallest and largest return a player can get.
    pub min_return: f64,
    pub max_return: f64,
    /// The options this game was built from, as JSON (`{"game": name, ...}`, the data file
    /// when it is not the shipped one): enough to build an identical game again with
    /// [`crate::games::load_json`].
    pub config: serde_json::Value,
    /// The options the game declares (`GameDefinition::OPTIONS`): a saved state's
    /// configuration that lacks one, saved before the game had it, means its default.
    pub options: &'static [super::options::OptionDecl],
}

/// A game's rules. `&self` holds the configuration (player count, options, component data);
/// the state holds everything that changes.
pub trait Rules: Send + Sync + Sized + 'static {
    type State: Clone + PartialEq + Debug + Serialize + DeserializeOwned + Send + Sync;

    /// The version of this game's saved-state format. A game raises it when its state's
    /// layout changes; saved states of the other games are not affected.
    const STATE_FORMAT: u32;

    fn spec(&self) -> &GameSpec;

    /// The options this game was built from, as JSON ([`GameSpec::config`]).
    fn config(&self) -> serde_json::Value {
        self.spec().config.clone()
    }

    /// The state before anything has happened. May be a chance node (setup shuffles).
    fn initial_state(&self) -> Self::State;

    fn actor(&self, state: &Self::State) -> Actor;

    /// Writes the sorted, distinct actions of the player to move into `out` (which the engine
    /// has cleared). Called only at a player's decision node. Must not allocate once `out`
    /// has grown.
    fn player_actions(&self, state: &Self::State, out: &mut Vec<Action>);

    /// Calls `f(outcome, weight)` for each outcome of a chance node, in increasing action
    /// order, each weight positive: the outcome's probability is its weight over the sum.
    /// Called only at a chance node.
    fn chance_weights(&self, state: &Self::State, f: impl FnMut(Action, u32));

    /// Writes the sorted, distinct legal actions into `out` (cleared first): the player's
    /// actions at a decision node, the chance outcomes at a chance node, none at the end.
    fn legal_actions(&self, state: &Self::State, out: &mut Vec<Action>) {
        out.clear();
        match self.actor(state) {
            Actor::Chance => self.chance_weights(state, |a, _| out.push(a)),
            Actor::Player(_) => self.player_actions(state, out),
            Actor::Terminal => {}
        }
    }

    /// The chance outcomes with their probabilities (distinct, sorted by action, summing to 1),
    /// from [`Rules::chance_weights`].
    fn chance_outcomes(&self, state: &Self::State, out: &mut Vec<(Action, f64)>) {
        out.clear();
        let mut total = 0u64;
        self.chance_weights(state, |_, w| total += w as u64);
        self.chance_weights(state, |a, w| out.push((a, w as f64 / total as f64)));
    }

    /// Draws one chance outcome with the probabilities of [`Rules::chance_weights`]: one
    /// [`super::rng::below`] over the total weight, the outcomes taken in order. A game
    /// overrides it where it can draw the same outcome without the two passes.
    fn sample_chance(&self, state: &Self::State, rng: &mut Rng) -> Action {
        let mut total = 0u32;
        self.chance_weights(state, |_, w| total += w);
        let mut pick = super::rng::below(rng, total);
        let mut chosen = None;
        self.chance_weights(state, |a, w| {
            if chosen.is_none() {
                if pick < w {
                    chosen = Some(a);
                } else {
                    pick -= w;
                }
            }
        });
        chosen.expect("a chance node has outcomes")
    }

    /// Applies an action known to be legal. Behaviour on an illegal action is unspecified
    /// (but never undefined): use [`crate::engine::GameState::apply`] for checked play.
    fn apply(&self, state: &mut Self::State, action: Action);

    /// Whether the decision at this state is secret: the other seats must not learn which
    /// action was taken (a simultaneous choice made one seat after another, revealed later by
    /// the game). The shared checks then require that the other seats' observations, and the
    /// move as [`View::action_string_for`] shows it to them, are the same whatever was chosen.
    fn decision_is_secret(&self, _state: &Self::State) -> bool {
        false
    }

    /// The winning seats at a terminal state. Empty when the game was truncated, and when it
    /// ended with no winning seat (a lost solo game, an opponent that is not a seat won).
    fn winners(&self, state: &Self::State) -> Vec<usize>;

    /// True when the game ended because it reached its move bound rather than by its rules.
    /// Never, by default: a game whose rules bound its length below the move bound keeps it.
    fn is_truncated(&self, _state: &Self::State) -> bool {
        false
    }

    /// Win/loss returns of the seats; non-zero only at a terminal state. By default derived
    /// from the winners ([`super::outcome::returns_from_winners`]: a solo seat gets +1 for a
    /// win and -1 for a loss).
    fn returns(&self, state: &Self::State, out: &mut [f64]) {
        let ended = self.actor(state) == Actor::Terminal && !self.is_truncated(state);
        super::outcome::returns_from_winners(&self.winners(state), ended, out);
    }
}

/// How a game shows itself: action names, what each seat sees, renderings, the score report.
pub trait View: Rules {
    /// A human-readable name of the action in this state; unique among the state's legal actions.
    fn action_to_string(&self, state: &Self::State, action: Action) -> String;

    /// The move as `observer` sees it: [`View::action_to_string`] unless the move is hidden
    /// from `observer` (a secret choice of another seat, a card drawn into another's hand).
    fn action_string_for(&self, state: &Self::State, action: Action, _observer: usize) -> String {
        self.action_to_string(state, action)
    }

    /// The table as text, as `viewer` sees it: [`Viewer::Seat`] what that seat may know (its
    /// observation string), [`Viewer::Table`] the public information only, none of any seat's
    /// private knowledge (Python's `str(state)`), [`Viewer::All`] the whole table as an omniscient
    /// spectator sees it, hidden cards included (for debugging and golden files). Called with a
    /// seat in range only.
    fn text(&self, state: &Self::State, viewer: Viewer) -> String;

    /// Declares the observation tensor into `t`, field by field ([`Tensor::field`]): each
    /// field's name, size and bounds, and its values for what `player` may know in `state`.
    /// The fields, their sizes and their bounds depend on the configuration only, never on the
    /// state or the seat. The bounds are the least and the greatest value each entry can take,
    /// whatever the position and the observer: finite bounds that hold in every position the
    /// rules reach. A count is bounded by the most the rules and components allow, or where
    /// they set no limit, by the most its state field can hold. The shared checks hold every
    /// observation within them. Called with a seat in range only; must not allocate.
    fn observation(&self, state: &Self::State, player: usize, t: &mut Tensor<'_>);

    /// What `player` may know, as a flat tensor of `observation_tensor_shape`, written into
    /// `out` (of the tensor's length) from [`View::observation`] without allocating.
    fn observation_tensor(&self, state: &Self::State, player: usize, out: &mut [f32]) {
        out.fill(0.0);
        let len = out.len();
        let mut t = Tensor::values(out);
        self.observation(state, player, &mut t);
        debug_assert_eq!(t.len(), len, "{}: the fields fill the tensor", self.spec().name);
    }

    /// The observation tensor's fields in order and the bounds of its entries, as
    /// [`View::observation`] declares them for this configuration (laid out on the initial
    /// state, as seat 0 sees it). Panics unless the fields fill `observation_tensor_shape`.
    fn observation_layout(&self) -> Layout {
        let len: usize = self.spec().observation_tensor_shape.iter().product();
        let mut scratch = vec![0.0; len];
        let mut layout = Layout { fields: Vec::new(), low: Vec::new(), high: Vec::new() };
        self.observation(&self.initial_state(), 0, &mut Tensor::layout(&mut scratch, &mut layout));
        assert_eq!(layout.len(), len, "{}: the fields fill the tensor", self.spec().name);
        layout
    }

    /// Each seat's (and each opponent's) score broken down by the rulebook's scoring
    /// categories, who or what won, and the tier reached.
    fn score_report(&self, state: &Self::State) -> ScoreReport;

    /// The numbers of the score report (points, totals, winners, the opponents' totals and
    /// wins, the tier), written into `out` with its buffers reused: what `simulate` records of
    /// every game. By default read from [`View::score_report`]; a game whose report costs
    /// much to build (its names and notes) may write them directly, and the shared checks
    /// hold the two equal.
    fn score_record(&self, state: &Self::State, out: &mut ScoreRecord) {
        out.read(&self.score_report(state), &self.spec().tiers);
    }

    /// Final (or current) score of each seat in the game's own units (victory points): by
    /// default the totals of the score report.
    fn scores(&self, state: &Self::State, out: &mut [f64]) {
        out.copy_from_slice(&self.score_report(state).totals);
    }

    /// The game's named views beside the table (a map, say), each with a line saying what it
    /// shows: the terminal game offers each as a command. None by default.
    fn views(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    /// The text of view `name` (one of [`View::views`]) as seat `observer` may see it, or with
    /// `None` as a spectator who sees everything: a seat's view tells only what that seat may
    /// know (the shared checks hold it the same for every resample of what is hidden from the
    /// seat). `None` for a name the game does not have.
    fn view(&self, _state: &Self::State, _name: &str, _observer: Option<usize>) -> Option<String> {
        None
    }
}

/// The table as a picture: each game draws its own, in its folder's `picture.rs`, with the
/// shared writer of [`super::svg`]. Called only on request, never on the hot path.
pub trait Picture: View {
    /// The table as an SVG document, as `viewer` sees it: for a seat, what is hidden from it
    /// (another's hand, a deck) is drawn face down, and the picture depends on nothing else (the
    /// shared checks hold it equal for every resample of what is hidden from the seat); for
    /// [`Viewer::Table`] every seat's hidden things are face down; [`Viewer::All`] shows
    /// everything. Called with a seat in range only.
    ///
    /// By default the text view for the same viewer ([`View::text`]), drawn line by line
    /// ([`super::svg::Svg::of_text`]): a game being built has a picture from its first day.
    fn svg(&self, state: &Self::State, viewer: Viewer) -> String {
        let caption = format!("{} ({})", self.spec().name, viewer.caption());
        super::svg::Svg::of_text(&self.text(state, viewer), &caption)
    }
}

/// Redrawing what a seat cannot see.
pub trait Resample: Rules {
    /// A full state consistent with everything `player` has seen, drawn with the right
    /// probabilities; it must not depend on hidden values that `player` has not seen. By
    /// default the state itself: right only for a game that hides nothing from any seat (what one
    /// seat knows, every seat knows or can deduce).
    fn resample(&self, state: &Self::State, _player: usize, _rng: &mut Rng) -> Self::State {
        state.clone()
    }
}

/// Positions from outside: the setup helper's descriptions and saved states.
pub trait Positions: Rules {
    /// Checks the invariants of a state that came from outside (a saved state).
    fn validate_state(&self, state: &Self::State) -> Result<()>;

    /// Rebuilds what a game keeps in its state beside the saved fields (values derived from
    /// them to make the hot paths cheap, not saved), once a loaded state has passed
    /// [`Positions::validate_state`]. Nothing by default.
    fn restore(&self, _state: &mut Self::State) {}

    /// Builds a position from a readable description (game-specific JSON). By default the
    /// game has no setup descriptions, and says so.
    fn setup(&self, _description: &serde_json::Value) -> Result<Self::State> {
        Err(super::error::EngineError::InvalidRequest(format!("{} has no setup descriptions", self.spec().name)))
    }
}

/// The readable log.
pub trait Describe: View {
    /// The log's sentence for a move: what `action`, taken at `before` and leading to `after`,
    /// did, written for a person at the table (who did what, in answer to what, what it
    /// changed), chance outcomes included ("P1 reveals Pirate ship (2 skulls)").
    ///
    /// `observer` is the seat the sentence is written for, or `None` for a spectator who sees
    /// everything. A seat's sentence tells only what that seat may know: the shared checks
    /// require it to be the same for every move that leaves the seat's observation (string
    /// and tensor) the same, and for every resample of what is hidden from the seat. Called
    /// only when a log is asked for, never on the hot path.
    ///
    /// The sentence for the move that ends the game says what ended it (the trigger the rules
    /// name); how it ended (the totals, who or what won, the tier) is the engine's closing
    /// sentence, which [`Describe::log_sentence`] adds.
    ///
    /// By default the mover and the move as `observer` sees it ([`View::action_string_for`];
    /// the spectator sees [`View::action_to_string`]): "P1: buy-2:fish.", "Chance: deal:7.".
    fn describe_move(&self, before: &Self::State, action: Action, _after: &Self::State, observer: Option<usize>)
        -> String {
        let name = match observer {
            Some(seat) => self.action_string_for(before, action, seat),
            None => self.action_to_string(before, action),
        };
        match self.actor(before) {
            Actor::Player(p) => format!("P{p}: {name}."),
            _ => format!("Chance: {name}."),
        }
    }

    /// The log's line for a move: [`Describe::describe_move`], and for the move that ends
    /// the game, the closing sentence of its score report ([`ScoreReport::closing_sentence`]).
    fn log_sentence(&self, before: &Self::State, action: Action, after: &Self::State, observer: Option<usize>) -> String {
        let mut line = self.describe_move(before, action, after, observer);
        if self.actor(after) == Actor::Terminal && self.actor(before) != Actor::Terminal {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&self.score_report(after).closing_sentence());
        }
        line
    }
}

/// How good a position is, for the search agents.
pub trait Evaluate: View {
    /// How good the position is for each seat, in [-1, 1]: the returns at a terminal
    /// state (a game may grade what its returns leave equal, as Mistwind's solo mode grades
    /// a lost game by its progress toward the goal, keeping 1 for a win), otherwise a
    /// heuristic. Search agents (greedy, MCTS) score positions with it.
    /// The default is tanh of a seat's margin (in points, 4 points wide) over the best other
    /// scorer, seats and opponents alike; a seat with no other scorer (a solo game without
    /// opponents) is measured by its own score. Games override it with something cheaper
    /// and better informed.
    fn evaluate(&self, state: &Self::State, out: &mut [f64]) {
        if self.actor(state) == Actor::Terminal {
            self.returns(state, out);
            return;
        }
        let report = self.score_report(state);
        let others = |p: usize| {
            let seats = report.totals.iter().enumerate().filter(move |&(q, _)| q != p).map(|(_, &t)| t);
            seats.chain(report.opponents.iter().map(|o| o.total)).fold(None, |best: Option<f64>, t| {
                Some(best.map_or(t, |b| b.max(t)))
            })
        };
        for (p, o) in out.iter_mut().enumerate() {
            let margin = report.totals[p] - others(p).unwrap_or(0.0);
            *o = (margin / 4.0).tanh();
        }
    }
}

/// A whole game: every trait above. Implemented for every type that implements them all.
pub trait Game: Rules + View + Picture + Resample + Positions + Describe + Evaluate {}

impl<G: Rules + View + Picture + Resample + Positions + Describe + Evaluate> Game for G {}
