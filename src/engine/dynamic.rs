//! Type-erased games and states, written once for every `G: Game`, so that callers that pick
//! a game at run time (the Python bindings, the CLI) handle all games alike.

use std::any::Any;
use std::sync::Arc;

use super::agents::{choose, AgentScratch, AgentSpec};
use super::error::{EngineError, Result};
use super::game::{Action, Actor, Game, GameSpec};
use super::record::{LogEntry, Record};
use super::report::ScoreRecord;
use super::rng::{rng_from_seed, Rng};
use super::simulate::{replay_game, simulate_agents, simulate_run, Progress, SimulationResult};
use super::state::GameState;
use super::svg::Viewer;
use super::tensor::Layout;
use super::vector::{DynVector, VectorConfig, VectorGame};

pub trait DynGame: Send + Sync {
    fn spec(&self) -> &GameSpec;
    fn config(&self) -> serde_json::Value;
    /// The version of this game's saved-state format ([`Game::STATE_FORMAT`]).
    fn state_format(&self) -> u32;
    /// The least and the greatest value of each entry of the observation tensor (see
    /// [`crate::engine::View::observation`]).
    fn observation_bounds(&self) -> (Vec<f32>, Vec<f32>);
    /// The observation tensor's fields in order and its bounds (see
    /// [`crate::engine::View::observation_layout`]).
    fn observation_layout(&self) -> Layout;
    fn new_state(&self, seed: u64, explicit_chance: bool) -> Box<dyn DynState>;
    fn setup(&self, description: &serde_json::Value, seed: u64, explicit_chance: bool)
        -> Result<Box<dyn DynState>>;
    fn state_from_json(&self, text: &str) -> Result<Box<dyn DynState>>;
    fn state_from_bytes(&self, bytes: &[u8]) -> Result<Box<dyn DynState>>;
    /// Plays a record of this game again (see [`GameState::replay`]).
    fn replay(&self, record: &Record, moves: Option<usize>) -> Result<Box<dyn DynState>>;
    /// Bulk simulation of games `first .. first + games`, one agent per seat (all random
    /// when `agents` is empty); see [`simulate_agents`].
    fn simulate(
        &self,
        agents: &[AgentSpec],
        first: u64,
        games: usize,
        seed: u64,
        threads: usize,
        progress: Option<Progress<'_>>,
    ) -> Result<SimulationResult>;
    /// [`DynGame::simulate`], measuring the games' design metrics when `metrics` is
    /// `Some(every)`, evaluating every `every`-th decision (see [`simulate_run`]).
    #[allow(clippy::too_many_arguments)]
    fn simulate_measured(
        &self,
        agents: &[AgentSpec],
        first: u64,
        games: usize,
        seed: u64,
        threads: usize,
        metrics: Option<u64>,
        progress: Option<Progress<'_>>,
    ) -> Result<SimulationResult>;
    /// Game `index` of the bulk run seeded `seed` with these agents, played again as a state
    /// with its history (see [`replay_game`]).
    fn replay_game(&self, agents: &[AgentSpec], seed: u64, index: u64) -> Box<dyn DynState>;
    /// `config.num_games` games of this configuration stepped together (see
    /// [`super::vector`]), each at its first node where the caller acts.
    fn vector(&self, config: VectorConfig) -> Result<Box<dyn DynVector>>;
}

/// The state methods declared once: each entry gives a method's doc, its Rust signature (as
/// `DynState` declares it and `GameState` defines it) and, after `=>`, the Python type of each
/// argument and of the result. From this one list [`DynState`] gets the method and its
/// delegation to [`GameState`] (in this file), the Python class `State` its method
/// (`src/python/state.rs`, with the `python` feature) and `python/tradewinds/_core.pyi` its
/// stub (which a test compares: `stubs_match_the_lists` below).
///
/// `state_methods! { callback extra tokens... }` calls `callback! { extra tokens... getters {..}
/// unguarded {..} methods {..} fallible {..} }`: `getters` become Python properties, run inside
/// the bindings' panic guard; `unguarded` ones too, without the guard, for a field of the
/// state's own (no game code runs, and the guard costs more than the read); `methods` become
/// plain methods, and `fallible` ones return the engine's `Result` (their errors go through the
/// bindings' one error mapping). A method whose Python form needs more than a direct conversion (a seat
/// checked against the player count, a new `State`, a numpy array, bytes) is written by hand
/// on both sides instead (docs/engine-contract.md, section 12).
macro_rules! state_methods {
    ($callback:ident $($extra:tt)*) => {
        $callback! {
            $($extra)*
            getters {
                /// The player to act, `CHANCE` (-1) at a chance node or `TERMINAL` (-4) at the end
                /// (OpenSpiel's player ids).
                fn current_player(&self) -> i32 => "int";
                /// True when the game is over.
                fn is_terminal(&self) -> bool => "bool";
                /// True at a chance node (only with `explicit_chance`).
                fn is_chance(&self) -> bool => "bool";
                /// True when the game ended at its move bound rather than by its rules.
                fn is_truncated(&self) -> bool => "bool";
                /// Whether the decision here is secret from the other seats (a simultaneous choice made
                /// one seat after another).
                fn decision_is_secret(&self) -> bool => "bool";
            }
            unguarded {
                /// Moves so far (decisions and chance outcomes).
                fn move_number(&self) -> u64 => "int";
                /// Whether chance nodes are left to the caller (else they are resolved from the seed).
                fn explicit_chance(&self) -> bool => "bool";
                /// The seed the game was started from, while known (a game from `Game.new_state`; None
                /// for one set up, resampled or loaded). Game records carry it.
                fn seed(&self) -> Option<u64> => "int | None";
            }
            methods {
                /// Every action applied so far (decisions and chance outcomes), in order.
                fn history(&self) -> Vec<Action> => "list[int]";
                /// `(outcome, probability)` pairs at a chance node; empty elsewhere.
                fn chance_outcomes(&self) -> Vec<(Action, f64)> => "list[tuple[int, float]]";
                /// A 64-bit fingerprint of the position, for transposition tables: equal for equal
                /// states, and for states of one game that reached the same position by other moves. The
                /// history, the move number and the generator of implicit chance are not part of it. The
                /// same in every process and on every platform.
                fn fingerprint(&self) -> u64 => "int";
                /// Each player's current (or final) score in victory points.
                fn scores(&self) -> Vec<f64> => "list[float]";
                /// Win/loss returns; non-zero only at the end.
                fn returns(&self) -> Vec<f64> => "list[float]";
                /// The winning seats at the end (empty before, when the game was truncated, and when no
                /// seat won: see `score_report().winner_names` for who or what did).
                fn winners(&self) -> Vec<usize> => "list[int]";
                /// The score broken down by scoring category.
                fn score_report(&self) -> $crate::engine::ScoreReport => "ScoreReport";
                /// The state as JSON text (load it with `Game.state_from_json`).
                fn to_json(&self) -> String => "str";
                /// The whole table as an omniscient spectator sees it, hidden cards included (for
                /// debugging; `str(state)` shows only what the players see).
                fn render(&self) -> String => "str";
                /// The game's named views beside the table (Mistwind's `map`, say), as `(name, what it
                /// shows)` pairs; empty for a game without any.
                fn views(&self) -> &'static [(&'static str, &'static str)] => "list[tuple[str, str]]";
            }
            fallible {
                /// The legal action named `text` (exact, or ignoring case and surrounding spaces).
                fn string_to_action(&self, text: &str => "str") -> Result<Action> => "int";
            }
        }
    };
}
#[cfg_attr(not(feature = "python"), allow(unused_imports))]
pub(crate) use state_methods;

/// The game's properties declared once: each entry names a [`GameSpec`] field, its type, its
/// Python type and its doc. From this list the Python class `Game` gets a property of the same
/// name that returns the field (`src/python/game.rs`), and `_core.pyi` its stub (which
/// `stubs_match_the_lists` below compares). Called like `state_methods!`.
#[cfg_attr(not(any(feature = "python", test)), allow(unused_macros))]
macro_rules! game_fields {
    ($callback:ident $($extra:tt)*) => {
        $callback! {
            $($extra)*
            fields {
                /// The game's name, one of `tradewinds.GAMES`.
                name: &'static str => "str";
                /// Seats: the players who decide (1 to 5).
                players: usize => "int";
                /// Opponents that are not seats (a solo game's Vikings, automa players), by name: the
                /// game moves them; they have rows in the score report but no returns or observations.
                opponents: Vec<String> => "list[str]";
                /// Reward tiers or difficulty goals a result can reach, lowest first (often none).
                tiers: Vec<String> => "list[str]";
                /// Player actions lie in `range(num_distinct_actions)`.
                num_distinct_actions: usize => "int";
                /// Chance outcomes lie in `range(max_chance_outcomes)`.
                max_chance_outcomes: usize => "int";
                /// No game lasts longer than this many moves (decisions plus chance outcomes).
                max_game_length: usize => "int";
                /// Whether the returns of every finished game add up to zero.
                zero_sum: bool => "bool";
                /// The smallest return a player can get.
                min_return: f64 => "float";
                /// The largest return a player can get.
                max_return: f64 => "float";
            }
        }
    };
}
#[cfg_attr(not(feature = "python"), allow(unused_imports))]
pub(crate) use game_fields;

/// `game_fields!`'s callback for the engine: the stubs of the listed properties.
#[cfg(test)]
macro_rules! game_stubs {
    (fields { $( $(#[doc = $doc:literal])* $field:ident: $ty:ty => $py:literal; )* }) => {
        /// The stubs of the listed properties of `Game`, in the list's order.
        const GAME_STUBS: &[Stub] = &[
            $( Stub { name: stringify!($field), property: true, params: &[], returns: $py, doc: &[$($doc),*] }, )*
        ];
    };
}

/// `state_methods!`'s callback for the engine: the trait [`DynState`] and its implementation
/// for every [`GameState`], each with the hand-written items given first (`{ trait items }
/// { impl items }`) and then a delegation per listed method (`.into()` turns a borrowed
/// history into the trait's `Vec`; for every other method it is the identity).
macro_rules! dyn_state {
    (
        { $($trait_items:tt)* }
        { $($impl_items:tt)* }
        getters { $( $(#[doc = $gdoc:literal])* fn $g:ident(&self) -> $gret:ty => $gpy:literal; )* }
        unguarded { $( $(#[doc = $udoc:literal])* fn $u:ident(&self) -> $uret:ty => $upy:literal; )* }
        methods { $( $(#[doc = $mdoc:literal])* fn $m:ident(&self $(, $ma:ident: $mat:ty => $mapy:literal)*) -> $mret:ty => $mpy:literal; )* }
        fallible { $( $(#[doc = $fdoc:literal])* fn $f:ident(&self $(, $fa:ident: $fat:ty => $fapy:literal)*) -> Result<$fret:ty> => $fpy:literal; )* }
    ) => {
        pub trait DynState: Send + Sync {
            $($trait_items)*
            $( $(#[doc = $gdoc])* fn $g(&self) -> $gret; )*
            $( $(#[doc = $udoc])* fn $u(&self) -> $uret; )*
            $( $(#[doc = $mdoc])* fn $m(&self $(, $ma: $mat)*) -> $mret; )*
            $( $(#[doc = $fdoc])* fn $f(&self $(, $fa: $fat)*) -> Result<$fret>; )*
        }

        #[allow(clippy::useless_conversion)]
        impl<G: Game> DynState for GameState<G> {
            $($impl_items)*
            $( fn $g(&self) -> $gret { GameState::$g(self).into() } )*
            $( fn $u(&self) -> $uret { GameState::$u(self).into() } )*
            $( fn $m(&self $(, $ma: $mat)*) -> $mret { GameState::$m(self $(, $ma)*).into() } )*
            $( fn $f(&self $(, $fa: $fat)*) -> Result<$fret> { GameState::$f(self $(, $fa)*) } )*
        }

        /// One Python method or property as its stub declares it.
        #[cfg(test)]
        pub(crate) struct Stub {
            pub name: &'static str,
            pub property: bool,
            pub params: &'static [(&'static str, &'static str)],
            pub returns: &'static str,
            pub doc: &'static [&'static str],
        }

        /// The stubs of the listed methods, in the list's order.
        #[cfg(test)]
        pub(crate) const STATE_STUBS: &[Stub] = &[
            $( Stub { name: stringify!($g), property: true, params: &[], returns: $gpy, doc: &[$($gdoc),*] }, )*
            $( Stub { name: stringify!($u), property: true, params: &[], returns: $upy, doc: &[$($udoc),*] }, )*
            $( Stub { name: stringify!($m), property: false, params: &[$((stringify!($ma), $mapy)),*], returns: $mpy, doc: &[$($mdoc),*] }, )*
            $( Stub { name: stringify!($f), property: false, params: &[$((stringify!($fa), $fapy)),*], returns: $fpy, doc: &[$($fdoc),*] }, )*
        ];
    };
}

state_methods! {
    dyn_state
    // The trait's hand-written methods (docs/engine-contract.md, section 12, says why each is).
    {
        fn as_any(&self) -> &dyn Any;
        fn clone_box(&self) -> Box<dyn DynState>;
        fn equals(&self, other: &dyn DynState) -> bool;
        fn spec(&self) -> &GameSpec;
        fn legal_actions(&self) -> Vec<Action>;
        fn legal_actions_cached(&mut self) -> &[Action];
        fn legal_action_mask(&self) -> Vec<bool>;
        fn apply(&mut self, action: Action) -> Result<()>;
        fn action_to_string(&self, action: Action) -> String;
        /// The move as seat `observer` sees it (see [`crate::engine::Game::action_string_for`]).
        fn action_string_for(&self, action: Action, observer: usize) -> Result<String>;
        /// The score report's numbers as `simulate` records them (see [`crate::engine::View::score_record`]).
        fn score_record(&self) -> ScoreRecord;
        fn observation_string(&self, player: usize) -> Result<String>;
        fn observation_tensor(&self, player: usize) -> Result<Vec<f32>>;
        /// The least and the greatest value of each entry of the observation tensor (see
        /// [`crate::engine::View::observation`]).
        fn observation_bounds(&self) -> (Vec<f32>, Vec<f32>);
        fn resample(&self, player: usize, seed: u64) -> Result<Box<dyn DynState>>;
        /// The table as an SVG picture for `viewer` (see [`crate::engine::Draw`]); a seat out of
        /// range is refused.
        fn svg(&self, viewer: Viewer) -> Result<String>;
        /// View `name` as seat `observer` (or, with `None`, a spectator) may see it.
        fn view(&self, name: &str, observer: Option<usize>) -> Result<String>;
        fn public_string(&self) -> String;
        fn to_bytes(&self) -> Vec<u8>;
        /// The game so far as a record (see [`GameState::record`]).
        fn record(&self) -> Result<Record>;
        /// The log so far, as seat `observer` (or, with `None`, a spectator who sees all) may see it.
        fn log(&self, observer: Option<usize>) -> Result<Vec<LogEntry>>;
        /// The action a built-in agent picks for the player to move (`seed` drives its randomness).
        fn agent_action(&self, agent: &AgentSpec, seed: u64) -> Result<Action>;
        /// The action a built-in agent picks for the player to move, drawing from `rng` (and
        /// reusing `scratch`'s buffers): successive calls with one generator choose as the agents
        /// of a simulated game choose from their game's stream (see [`play_game`](super::simulate::play_game)).
        fn agent_action_from(&self, agent: &AgentSpec, rng: &mut Rng, scratch: &mut AgentScratch) -> Result<Action>;
    }
    // Their implementation for every `GameState<G>`.
    {
        fn as_any(&self) -> &dyn Any {
            self
        }
        fn clone_box(&self) -> Box<dyn DynState> {
            Box::new(self.clone())
        }
        fn equals(&self, other: &dyn DynState) -> bool {
            other.as_any().downcast_ref::<Self>().is_some_and(|o| o == self)
        }
        fn spec(&self) -> &GameSpec {
            self.game().spec()
        }
        fn legal_actions(&self) -> Vec<Action> {
            GameState::legal_actions(self)
        }
        fn legal_actions_cached(&mut self) -> &[Action] {
            GameState::legal_actions_cached(self)
        }
        fn legal_action_mask(&self) -> Vec<bool> {
            GameState::legal_action_mask(self)
        }
        fn apply(&mut self, action: Action) -> Result<()> {
            GameState::apply(self, action)
        }
        fn action_to_string(&self, action: Action) -> String {
            GameState::action_to_string(self, action)
        }
        fn action_string_for(&self, action: Action, observer: usize) -> Result<String> {
            GameState::action_string_for(self, action, observer)
        }
        fn score_record(&self) -> ScoreRecord {
            GameState::score_record(self)
        }
        fn observation_string(&self, player: usize) -> Result<String> {
            GameState::observation_string(self, player)
        }
        fn observation_tensor(&self, player: usize) -> Result<Vec<f32>> {
            GameState::observation_tensor(self, player)
        }
        fn observation_bounds(&self) -> (Vec<f32>, Vec<f32>) {
            GameState::observation_bounds(self)
        }
        fn resample(&self, player: usize, seed: u64) -> Result<Box<dyn DynState>> {
            Ok(Box::new(GameState::resample(self, player, seed)?))
        }
        fn svg(&self, viewer: Viewer) -> Result<String> {
            GameState::svg(self, viewer)
        }
        fn view(&self, name: &str, observer: Option<usize>) -> Result<String> {
            GameState::view(self, name, observer)
        }
        fn public_string(&self) -> String {
            GameState::public_string(self)
        }
        fn to_bytes(&self) -> Vec<u8> {
            GameState::to_bytes(self)
        }
        fn record(&self) -> Result<Record> {
            GameState::record(self)
        }
        fn log(&self, observer: Option<usize>) -> Result<Vec<LogEntry>> {
            GameState::log(self, observer)
        }
        fn agent_action(&self, agent: &AgentSpec, seed: u64) -> Result<Action> {
            GameState::agent_action(self, agent, seed)
        }
        fn agent_action_from(&self, agent: &AgentSpec, rng: &mut Rng, scratch: &mut AgentScratch) -> Result<Action> {
            match self.actor() {
                Actor::Player(p) => Ok(choose(agent, &**self.game(), self.inner(), p, rng, scratch)),
                Actor::Chance => Err(EngineError::InvalidRequest("no agent acts at a chance node".into())),
                Actor::Terminal => Err(EngineError::InvalidRequest("the game is over".into())),
            }
        }
    }
}

/// A configured game behind a shared pointer, usable as `dyn DynGame`.
pub struct Handle<G: Game>(pub Arc<G>);

impl<G: Game> DynGame for Handle<G> {
    fn spec(&self) -> &GameSpec {
        self.0.spec()
    }
    fn config(&self) -> serde_json::Value {
        self.0.config()
    }
    fn state_format(&self) -> u32 {
        G::STATE_FORMAT
    }
    fn observation_bounds(&self) -> (Vec<f32>, Vec<f32>) {
        super::state::observation_bounds(&*self.0)
    }
    fn observation_layout(&self) -> Layout {
        self.0.observation_layout()
    }
    fn new_state(&self, seed: u64, explicit_chance: bool) -> Box<dyn DynState> {
        Box::new(GameState::new(Arc::clone(&self.0), seed, explicit_chance))
    }
    fn setup(&self, description: &serde_json::Value, seed: u64, explicit_chance: bool)
        -> Result<Box<dyn DynState>> {
        let inner = self.0.setup(description)?;
        Ok(Box::new(GameState::from_parts(
            Arc::clone(&self.0),
            inner,
            rng_from_seed(seed),
            explicit_chance,
        )))
    }
    fn state_from_json(&self, text: &str) -> Result<Box<dyn DynState>> {
        Ok(Box::new(GameState::from_json(&self.0, text)?))
    }
    fn state_from_bytes(&self, bytes: &[u8]) -> Result<Box<dyn DynState>> {
        Ok(Box::new(GameState::from_bytes(&self.0, bytes)?))
    }
    fn replay(&self, record: &Record, moves: Option<usize>) -> Result<Box<dyn DynState>> {
        Ok(Box::new(GameState::replay(Arc::clone(&self.0), record, moves)?))
    }
    fn simulate(
        &self,
        agents: &[AgentSpec],
        first: u64,
        games: usize,
        seed: u64,
        threads: usize,
        progress: Option<Progress<'_>>,
    ) -> Result<SimulationResult> {
        simulate_agents(&*self.0, agents, first, games, seed, threads, progress)
    }
    fn simulate_measured(
        &self,
        agents: &[AgentSpec],
        first: u64,
        games: usize,
        seed: u64,
        threads: usize,
        metrics: Option<u64>,
        progress: Option<Progress<'_>>,
    ) -> Result<SimulationResult> {
        simulate_run(&*self.0, agents, first, games, seed, threads, metrics, progress)
    }
    fn replay_game(&self, agents: &[AgentSpec], seed: u64, index: u64) -> Box<dyn DynState> {
        Box::new(replay_game(Arc::clone(&self.0), agents, seed, index))
    }
    fn vector(&self, config: VectorConfig) -> Result<Box<dyn DynVector>> {
        Ok(Box::new(VectorGame::new(Arc::clone(&self.0), config)?))
    }
}

#[cfg(test)]
mod tests {
    use super::{Stub, STATE_STUBS};

    game_fields!(game_stubs);

    const BEGIN: &str = "    # Generated from the lists in src/engine/dynamic.rs (`game_fields!`, `state_methods!`): edit\n    # them there, then run `TRADEWINDS_STUBS=write cargo test --lib stubs_match` to rewrite this block.\n";
    const END: &str = "    # End of the generated block.\n";

    /// The stub block of `stubs`, as a class of `_core.pyi` holds it.
    fn generated(stubs: &[Stub]) -> String {
        let mut out = String::from(BEGIN);
        for stub in stubs {
            if stub.property {
                out.push_str("    @property\n");
            }
            let params: String = stub.params.iter().map(|(name, ty)| format!(", {name}: {ty}")).collect();
            out.push_str(&format!("    def {}(self{params}) -> {}:\n", stub.name, stub.returns));
            let doc: Vec<&str> = stub.doc.iter().map(|line| line.strip_prefix(' ').unwrap_or(line)).collect();
            assert!(!doc.is_empty(), "{} has no doc", stub.name);
            out.push_str(&format!("        \"\"\"{}\"\"\"\n", doc.join("\n        ")));
        }
        out.push_str(END);
        out
    }

    /// `_core.pyi` declares the listed methods of `State` and properties of `Game` exactly as
    /// the lists do (so the stubs, which `mypy.stubtest` checks against the extension, cannot
    /// drift from the bindings).
    #[test]
    fn stubs_match_the_lists() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/python/tradewinds/_core.pyi");
        let mut text = std::fs::read_to_string(path).unwrap();
        let mut differ = Vec::new();
        for (class, stubs) in [("class Game:\n", GAME_STUBS), ("class State:\n", STATE_STUBS)] {
            let at = text.find(class).unwrap_or_else(|| panic!("_core.pyi has no {class}"));
            let start = at + text[at..].find(BEGIN).unwrap_or_else(|| panic!("{class} has no generated block"));
            let end = start + text[start..].find(END).expect("a generated block of _core.pyi has no end") + END.len();
            let want = generated(stubs);
            if text[start..end] != want {
                text.replace_range(start..end, &want);
                differ.push(class.trim_end());
            }
        }
        if differ.is_empty() {
            return;
        }
        if std::env::var("TRADEWINDS_STUBS").as_deref() == Ok("write") {
            std::fs::write(path, text).unwrap();
            return;
        }
        panic!(
            "python/tradewinds/_core.pyi differs from the lists in {differ:?}: run \
             `TRADEWINDS_STUBS=write cargo test --lib stubs_match` to rewrite it"
        );
    }
}
