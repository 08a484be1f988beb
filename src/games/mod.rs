//! The registry: the one place where games are joined to the engine, one line a game.
//!
//! A line names the game's folder and type (which implements [`GameDefinition`]) and whether
//! the game is listed in [`GAMES`]: a test game, or a game still being built, is registered
//! (so every shared check runs on it) but not listed. The line also declares the folder's
//! module.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::engine::{DataFileDecl, DynGame, DynState, EngineError, GameDefinition, Handle, Record, Result};

/// Whether a registered game is offered to users.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// Complete: listed in [`GAMES`].
    Listed,
    /// Registered for the shared checks only (a test game, or a game still being built).
    Unlisted,
}

/// Code that runs with a registered game's concrete type (benches, typed tests, the
/// harness): [`visit`] calls `visit::<G>()` for the game of a given name.
pub trait Visitor {
    type Output;
    fn visit<G: GameDefinition>(self) -> Self::Output;
}

macro_rules! registry {
    ($( $module:ident :: $game:ident => $listing:expr ),* $(,)?) => {
        $( pub mod $module; )*

        /// Every registered game, listed or not, with its listing.
        pub const REGISTERED: &[(&str, Listing)] = &[$( (<$module::$game>::NAME, $listing) ),*];

        /// Calls `visitor.visit::<G>()` with the game registered as `name`.
        pub fn visit<V: Visitor>(name: &str, visitor: V) -> Result<V::Output> {
            $( if name == <$module::$game>::NAME { return Ok(visitor.visit::<$module::$game>()); } )*
            Err(EngineError::UnknownGame { name: name.to_string(), available: GAMES.join(", ") })
        }

        /// The component data file of each registered game that has one.
        pub fn data_files() -> Vec<(&'static str, DataFileDecl)> {
            let all: &[(&str, Option<DataFileDecl>)] = &[$( (<$module::$game>::NAME, <$module::$game>::DATA_FILE) ),*];
            all.iter().filter_map(|&(name, d)| d.map(|d| (name, d))).collect()
        }
    };
}

registry! {
    north_wind::NorthWind => Listing::Listed,
    before_the_wind::BeforeTheWind => Listing::Listed,
    regatta::Regatta => Listing::Unlisted,
    nauticus::Nauticus => Listing::Listed,
    mistwind::Mistwind => Listing::Listed,
    norsewind::Norsewind => Listing::Listed,
}

/// The games offered to users, by name (`tw.GAMES`).
pub const GAMES: &[&str] = &listed::<{ listed_count() }>();

const fn listed_count() -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < REGISTERED.len() {
        if matches!(REGISTERED[i].1, Listing::Listed) {
            n += 1;
        }
        i += 1;
    }
    n
}

const fn listed<const N: usize>() -> [&'static str; N] {
    let mut out = [""; N];
    let (mut i, mut n) = (0, 0);
    while i < REGISTERED.len() {
        if matches!(REGISTERED[i].1, Listing::Listed) {
            out[n] = REGISTERED[i].0;
            n += 1;
        }
        i += 1;
    }
    out
}

/// The names of every registered game, listed or not (what the shared checks iterate).
pub fn registered() -> impl Iterator<Item = &'static str> {
    REGISTERED.iter().map(|&(name, _)| name)
}

struct Load<'a>(&'a Map<String, Value>);

impl Visitor for Load<'_> {
    type Output = Result<Arc<dyn DynGame>>;
    fn visit<G: GameDefinition>(self) -> Self::Output {
        Ok(Arc::new(Handle(Arc::new(G::load(self.0)?))))
    }
}

/// Builds game `name` from its options (a JSON object; `{}` gives the defaults).
pub fn load(name: &str, options: &Map<String, Value>) -> Result<Arc<dyn DynGame>> {
    visit(name, Load(options))?
}

/// Builds a game from `{"game": name, ...options}` (the form [`DynGame::config`] returns).
pub fn load_json(config: &Value) -> Result<Arc<dyn DynGame>> {
    let obj = config
        .as_object()
        .ok_or_else(|| EngineError::option("config", "a game configuration must be a JSON object"))?;
    let name = obj
        .get("game")
        .and_then(Value::as_str)
        .ok_or_else(|| EngineError::option("game", "the configuration names no game"))?;
    let mut options = obj.clone();
    options.remove("game");
    load(name, &options)
}

/// Plays a game record (JSON text, [`Record`]) again: the whole game, or its first `moves`
/// moves. Every problem with the record, its game and options included, is an
/// [`EngineError::Record`].
pub fn replay(record: &str, moves: Option<usize>) -> Result<(Arc<dyn DynGame>, Box<dyn DynState>)> {
    let record = Record::from_json(record)?;
    let game = load_json(&record.config()).map_err(|e| EngineError::Record(format!("its game: {e}")))?;
    let state = game.replay(&record, moves)?;
    Ok((game, state))
}

struct Configurations;

impl Visitor for Configurations {
    type Output = Vec<Map<String, Value>>;
    fn visit<G: GameDefinition>(self) -> Self::Output {
        G::configurations()
    }
}

/// Every configuration (player count, mode, variant, level, board side) game `name` must
/// pass the shared checks in; empty for a name that is not registered.
pub fn all_configurations(name: &str) -> Vec<Map<String, Value>> {
    visit(name, Configurations).unwrap_or_default()
}

struct Declared;

impl Visitor for Declared {
    type Output = &'static [crate::engine::OptionDecl];
    fn visit<G: GameDefinition>(self) -> Self::Output {
        G::OPTIONS
    }
}

struct Title;

impl Visitor for Title {
    type Output = &'static str;
    fn visit<G: GameDefinition>(self) -> Self::Output {
        G::TITLE
    }
}

struct Texts;

impl Visitor for Texts {
    type Output = (&'static str, &'static str);
    fn visit<G: GameDefinition>(self) -> Self::Output {
        (G::HOW_TO_PLAY, G::NOTATION)
    }
}

/// How to play game `name`, on one page ([`GameDefinition::HOW_TO_PLAY`]).
pub fn how_to_play(name: &str) -> Result<&'static str> {
    visit(name, Texts).map(|t| t.0)
}

/// The glossary of game `name`'s action names and notation ([`GameDefinition::NOTATION`]).
pub fn notation(name: &str) -> Result<&'static str> {
    visit(name, Texts).map(|t| t.1)
}

/// The full title of game `name` ("North Wind").
pub fn title(name: &str) -> Result<&'static str> {
    visit(name, Title)
}

/// The options game `name` declares.
pub fn options(name: &str) -> Result<&'static [crate::engine::OptionDecl]> {
    visit(name, Declared)
}
